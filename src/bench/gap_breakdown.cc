#include "src/bench/gap_breakdown.h"

#include <algorithm>
#include <map>

#include "fmt/format.h"
#include "karpenter/common/status.h"

namespace karpenter::bench {
namespace {

double Fraction(double used, double capacity) { return capacity > 0 ? used / capacity : 0; }

}  // namespace

absl::StatusOr<GapBreakdown> BreakDownGap(const std::vector<PackedNode>& nodes,
                                          std::span<const FluidNodeType> types) {
  FluidDemand demand;
  for (const PackedNode& node : nodes) {
    demand.cpu_milli += node.used.cpu_milli;
    demand.memory_bytes += node.used.memory_bytes;
    demand.pods += node.used.pods;
  }
  KP_ASSIGN_OR_RETURN(const FluidSolution lp, SolveFluid(demand, types));
  GapBreakdown out;
  out.bound = lp.bound;
  struct Totals {
    int nodes = 0;
    double price = 0;
    FluidDemand capacity;
    FluidDemand used;
  };
  std::map<std::string, Totals> by_type;
  for (const PackedNode& node : nodes) {
    out.cost += node.price;
    out.idle_cpu += lp.price_per_cpu_milli * (node.capacity.cpu_milli - node.used.cpu_milli);
    out.idle_memory +=
        lp.price_per_memory_byte * (node.capacity.memory_bytes - node.used.memory_bytes);
    out.idle_pods += lp.price_per_pod * (node.capacity.pods - node.used.pods);
    out.premium += node.price - lp.price_per_cpu_milli * node.capacity.cpu_milli -
                   lp.price_per_memory_byte * node.capacity.memory_bytes -
                   lp.price_per_pod * node.capacity.pods;
    Totals& totals = by_type[node.type];
    ++totals.nodes;
    totals.price += node.price;
    totals.capacity.cpu_milli += node.capacity.cpu_milli;
    totals.capacity.memory_bytes += node.capacity.memory_bytes;
    totals.capacity.pods += node.capacity.pods;
    totals.used.cpu_milli += node.used.cpu_milli;
    totals.used.memory_bytes += node.used.memory_bytes;
    totals.used.pods += node.used.pods;
  }
  for (const auto& [type, totals] : by_type) {
    out.types.push_back(
        {.type = type,
         .nodes = totals.nodes,
         .price = totals.price,
         .cpu_used = Fraction(totals.used.cpu_milli, totals.capacity.cpu_milli),
         .memory_used = Fraction(totals.used.memory_bytes, totals.capacity.memory_bytes),
         .pods_used = Fraction(totals.used.pods, totals.capacity.pods)});
  }
  return out;
}

std::string GapBreakdownText(const GapBreakdown& gap) {
  std::string text = fmt::format(
      "  $/h {:.4f} = bound {:.4f} + idle cpu {:.4f} + idle memory {:.4f} + idle pod slots "
      "{:.4f} + type premium {:.4f}\n",
      gap.cost, gap.bound, gap.idle_cpu, gap.idle_memory, gap.idle_pods, gap.premium);
  for (const TypeUsage& type : gap.types) {
    text += fmt::format(
        "  {:<12} {:>5} nodes ${:>9.4f}/h  cpu {:5.1f}%  memory {:5.1f}%  pods {:5.1f}%\n",
        type.type, type.nodes, type.price, 100 * type.cpu_used, 100 * type.memory_used,
        100 * type.pods_used);
  }
  text.pop_back();  // the caller's line ends it
  return text;
}

}  // namespace karpenter::bench
