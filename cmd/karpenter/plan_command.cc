#include "cmd/karpenter/plan_command.h"

#include <algorithm>
#include <iostream>
#include <string_view>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cmd/karpenter/input_files.h"
#include "cmd/karpenter/output_format.h"
#include "cmd/karpenter/plan_aws.h"
#include "cmd/karpenter/plan_catalog.h"
#include "cmd/karpenter/plan_drain.h"
#include "cmd/karpenter/plan_explain.h"
#include "cmd/karpenter/real_clock.h"
#include "src/api/manifest.h"
#include "src/api/validation.h"
#include "src/cloudprovider/catalog.h"
#include "src/cloudprovider/region_catalog.h"
#include "src/disruption/disruption.h"
#include "src/disruption/report.h"
#include "src/provisioning/input_region.h"
#include "src/provisioning/plan.h"
#include "src/state/snapshot.h"

namespace karpenter::cli {
namespace {

// Every file's manifests, or nullopt after reporting each unreadable file and invalid object
// to `err` in `karpenter validate`'s format.
std::optional<std::vector<api::Manifest>> LoadValidManifests(const std::vector<std::string>& files,
                                                             std::ostream& err) {
  std::vector<api::Manifest> all;
  bool failed = false;
  for (const std::string& file : files) {
    absl::StatusOr<std::vector<api::Manifest>> manifests = api::LoadManifestFile(file);
    if (!manifests.ok()) {
      err << file << ": " << manifests.status().message() << "\n";
      failed = true;
      continue;
    }
    for (api::Manifest& manifest : *manifests) {
      // Kept in a local: `errors()` returns a reference into the FieldErrors value.
      const api::FieldErrors errors = api::ValidateManifest(manifest);
      for (const api::FieldError& e : errors.errors()) {
        err << manifest.source << ": " << manifest.Ref() << ": " << e.ToString() << "\n";
        failed = true;
      }
      all.push_back(std::move(manifest));
    }
  }
  if (failed) return std::nullopt;
  return all;
}

// "m5.large:us-east-1a=0.25" pins the spot price of one offering of the embedded catalog.
absl::Status AddSpotPrice(const std::string& entry, const cloudprovider::Catalog& catalog,
                          cloudprovider::SpotPriceModel& model) {
  const std::vector<std::string> sides = absl::StrSplit(entry, '=');
  const std::vector<std::string> offering =
      sides.size() == 2 ? absl::StrSplit(sides[0], ':') : std::vector<std::string>();
  double price = 0;
  if (offering.size() != 2 || !absl::SimpleAtod(sides[1], &price)) {
    return absl::InvalidArgumentError("want INSTANCE_TYPE:ZONE=USD_PER_HOUR");
  }
  if (!(price > 0) || price > 1e6) {
    return absl::InvalidArgumentError("the price must be a positive number of dollars per hour");
  }
  if (catalog.Find(offering[0]) == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("the catalog has no instance type \"", offering[0], "\""));
  }
  if (!catalog.OffersSpot(offering[0], offering[1])) {
    return absl::InvalidArgumentError(
        absl::StrCat(offering[0], " has no spot offering in zone \"", offering[1], "\""));
  }
  model.prices[{offering[0], offering[1]}] = price;
  return absl::OkStatus();
}

absl::StatusOr<provisioning::PlanOptions> ParseOptions(const PlanCommandOptions& options,
                                                       const PlanClocks& clocks,
                                                       const std::string& region) {
  provisioning::PlanOptions out;
  out.region = region;
  out.scheduler.preference_policy = options.preference_policy == "Ignore"
                                        ? provisioning::PreferencePolicy::kIgnore
                                        : provisioning::PreferencePolicy::kRespect;
  out.scheduler.min_values_policy = options.min_values_policy == "BestEffort"
                                        ? provisioning::MinValuesPolicy::kBestEffort
                                        : provisioning::MinValuesPolicy::kStrict;
  out.scheduler.packing = options.packing == "cost" ? provisioning::PackingPolicy::kCost
                                                    : provisioning::PackingPolicy::kUpstream;
  out.scheduler.claim_ties = options.claim_ties == "creation"
                                 ? provisioning::ClaimTieOrder::kCreation
                                 : provisioning::ClaimTieOrder::kUpstream;
  if (!options.now.empty()) {
    absl::StatusOr<api::Time> now = api::Time::ParseRfc3339(options.now);
    if (!now.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--now: ", now.status().message()));
    }
    out.now = *now;
  } else if (clocks.now) {
    out.now = clocks.now();
  }
  if (options.spot_prices.empty()) return out;
  cloudprovider::CatalogOptions catalog_options;
  catalog_options.resolve.region = region;
  KP_ASSIGN_OR_RETURN(const cloudprovider::Catalog catalog,
                      cloudprovider::Catalog::LoadEmbedded(catalog_options));
  for (const std::string& entry : options.spot_prices) {
    absl::Status added = AddSpotPrice(entry, catalog, out.spot_prices);
    if (!added.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--spot-price \"", entry, "\": ", added.message()));
    }
  }
  return out;
}

// "SpotToSpotConsolidation=true,Other=false": the gates this host knows, InvalidArgument on
// anything malformed.
absl::StatusOr<disruption::DisruptionOptions> ParseFeatureGates(const std::string& gates) {
  disruption::DisruptionOptions options;
  for (const std::string& gate :
       std::vector<std::string>(absl::StrSplit(gates, ',', absl::SkipEmpty()))) {
    std::vector<std::string> parts = absl::StrSplit(gate, '=');
    if (parts.size() != 2 || (parts[1] != "true" && parts[1] != "false")) {
      return absl::InvalidArgumentError(absl::StrCat("want Name=true|false, got \"", gate, "\""));
    }
    if (parts[0] == "SpotToSpotConsolidation") {
      options.spot_to_spot_consolidation = parts[1] == "true";
    }
  }
  return options;
}

// What the plan assumed, for both outputs.
provisioning::PlanAssumptions Assumptions(const PlanCommandOptions& options,
                                          const state::ClusterSnapshot& snapshot,
                                          const provisioning::RegionChoice& region,
                                          const provisioning::PlanOptions& plan_options) {
  absl::StatusOr<std::vector<std::string>> zones =
      cloudprovider::EmbeddedRegionZones(region.region);
  std::map<std::string, std::string> policies = {
      {"preferencePolicy", options.preference_policy},
      {"minValuesPolicy", options.min_values_policy},
      {"packing", options.packing},
      {"claimTies", options.claim_ties},
  };
  if (options.disruption) {
    policies["featureGates"] = options.feature_gates;
    policies["consolidationSearch"] = options.consolidation_search;
  }
  return provisioning::DescribeAssumptions(snapshot, region,
                                           zones.ok() ? *zones : std::vector<std::string>(),
                                           plan_options.spot_prices, std::move(policies));
}

// The snapshot as planned, and with --drain what it was before the drain and what the drain did.
struct PlanInput {
  state::ClusterSnapshot snapshot;
  std::optional<state::ClusterSnapshot> before_drain;
  std::optional<state::DrainResult> drain;
};

// With no NodePool at all, "no nodepool has an instance type compatible" would send the reader
// looking at requirements; the input simply has nothing Karpenter may launch.
void ExplainMissingNodePools(const state::ClusterSnapshot& snapshot,
                             provisioning::PlanResult& plan) {
  if (!snapshot.node_pools().empty()) return;
  for (provisioning::UnschedulablePod& pod : plan.unschedulable) {
    pod.reason = "no NodePools in the input: add NodePool and EC2NodeClass manifests with -f";
  }
  plan.warnings.push_back("no NodePools in the input: Karpenter would launch nothing");
  std::sort(plan.warnings.begin(), plan.warnings.end());
}

// What every plan carries besides the solve: assumptions, the drain report, the missing-pool
// explanation. Fails only when the catalog cannot price the drained nodes.
absl::Status CompletePlan(const PlanCommandOptions& options, const PlanInput& input,
                          const provisioning::RegionChoice& region,
                          const provisioning::PlanOptions& plan_options,
                          provisioning::PlanResult& plan) {
  plan.assumptions = Assumptions(options, input.snapshot, region, plan_options);
  if (!options.catalog.empty()) {
    DescribeCatalogAssumptions(options.catalog, plan_options, *plan.assumptions);
  }
  ExplainMissingNodePools(input.snapshot, plan);
  if (!input.drain) return absl::OkStatus();
  return AttachDrain(*input.drain, *input.before_drain, plan_options, plan);
}

// 2 when --fail-on-unschedulable and some pod cannot be placed, else 0 (a plan was made).
int PlanExitCode(const PlanCommandOptions& options, const provisioning::PlanResult& plan) {
  return options.fail_on_unschedulable && !plan.unschedulable.empty() ? 2 : 0;
}

// -o json and -o yaml print the document; text and wide print tables.
bool IsDocumentOutput(const PlanCommandOptions& options) {
  return options.output == "json" || options.output == "yaml";
}

// `json` as -o asks; 0, or 1 if it cannot be converted.
int PrintDocument(const PlanCommandOptions& options, const std::string& json, std::ostream& out,
                  std::ostream& err) {
  if (options.output != "yaml") {
    out << json << "\n";
    return 0;
  }
  absl::StatusOr<std::string> yaml = JsonToYaml(json);
  if (!yaml.ok()) {
    err << "plan: " << yaml.status().message() << "\n";
    return 1;
  }
  out << *yaml;
  return 0;
}

// -o wide: per NodeClaim, why it is what it is (the JSON's instanceTypeCount, requests and
// allocatable).
std::string WideClaimLines(const provisioning::PlanResult& plan) {
  std::string out;
  for (size_t i = 0; i < plan.node_claims.size(); ++i) {
    const provisioning::PlannedNodeClaim& planned = plan.node_claims[i];
    std::string requests;
    for (const auto& [name, quantity] : planned.claim.requests) {
      auto allocatable = planned.launch.allocatable.find(name);
      requests += absl::StrCat(
          " ", name, "=", quantity.String(), "/",
          allocatable == planned.launch.allocatable.end() ? "?" : allocatable->second.String());
    }
    out += absl::StrCat("nodeclaim #", i + 1, ": ", planned.claim.instance_types.size(),
                        " compatible instance type(s); requested/allocatable:", requests, "\n");
  }
  return out;
}

// --explain's answer in the output format asked for; exit 1 when the target is not in the input.
int PrintExplanation(const PlanCommandOptions& options,
                     const absl::StatusOr<Explanation>& explanation, std::ostream& out,
                     std::ostream& err) {
  if (!explanation.ok()) {
    err << explanation.status().message() << "\n";
    return 1;
  }
  if (IsDocumentOutput(options))
    return PrintDocument(options, EncodeExplanationJson(*explanation), out, err);
  out << RenderExplanationText(*explanation);
  return 0;
}

// The plan and the disruption decisions on one scheduler input; with an --explain `target`, one
// object's part of them.
int RunDisruption(const PlanCommandOptions& options, const std::optional<ExplainTarget>& target,
                  const PlanInput& plan_input, const provisioning::RegionChoice& region,
                  const provisioning::PlanOptions& plan_options,
                  const provisioning::MillisClock& clock, std::ostream& out, std::ostream& err) {
  const state::ClusterSnapshot& snapshot = plan_input.snapshot;
  absl::StatusOr<disruption::DisruptionOptions> disruption_options =
      ParseFeatureGates(options.feature_gates);
  if (!disruption_options.ok()) {
    err << "--feature-gates: " << disruption_options.status().message() << "\n";
    return 1;
  }
  disruption_options->scheduler = plan_options.scheduler;
  // Consolidation asks whether upstream would fit the pods elsewhere: its own packing.
  disruption_options->scheduler.packing = provisioning::PackingPolicy::kUpstream;
  disruption_options->scheduler.claim_ties = provisioning::ClaimTieOrder::kUpstream;
  const std::optional<disruption::ConsolidationSearch> search =
      disruption::ParseConsolidationSearch(options.consolidation_search);
  if (!search) {
    err << "--consolidation-search: want upstream or extended, got \""
        << options.consolidation_search << "\"\n";
    return 1;
  }
  disruption_options->consolidation_search = *search;
  // The explanation and the JSON's nodeNotes come from the engine's own verdicts.
  disruption_options->record_verdicts = true;
  provisioning::CatalogCache catalogs(plan_options.spot_prices, plan_options.region);
  absl::StatusOr<provisioning::SnapshotSchedulerInput> input =
      provisioning::BuildSchedulerInput(snapshot, plan_options, catalogs);
  if (!input.ok()) {
    err << "plan: " << input.status().message() << "\n";
    return 1;
  }
  provisioning::PlanResult plan = provisioning::PlanFromInput(*input, clock);
  if (absl::Status completed = CompletePlan(options, plan_input, region, plan_options, plan);
      !completed.ok()) {
    err << "plan: " << completed.message() << "\n";
    return 1;
  }
  for (const std::string& warning : plan.warnings) err << "warning: " << warning << "\n";
  if (target && target->kind == "pod") {
    return PrintExplanation(options, ExplainPod(*target, snapshot, *input, plan), out, err);
  }
  const disruption::DisruptionResult result =
      disruption::ComputeDisruption(snapshot, *input, plan_options.now, *disruption_options);
  if (target) return PrintExplanation(options, ExplainNode(*target, snapshot, result), out, err);
  if (IsDocumentOutput(options)) {
    if (PrintDocument(options, disruption::EncodeDisruptionJson(plan, result), out, err) != 0) {
      return 1;
    }
  } else {
    out << provisioning::RenderPlanText(plan)
        << (options.output == "wide" ? WideClaimLines(plan) : "")
        << disruption::RenderDisruptionText(result);
  }
  return PlanExitCode(options, plan);
}

// The snapshot of the files, drained as --drain asks.
absl::StatusOr<PlanInput> BuildPlanInput(const PlanCommandOptions& options,
                                         std::vector<api::Manifest> manifests) {
  KP_ASSIGN_OR_RETURN(const std::vector<state::DrainSelector> selectors,
                      ParseDrainSelectors(options.drain));
  if (selectors.empty()) {
    KP_ASSIGN_OR_RETURN(state::ClusterSnapshot snapshot,
                        state::ClusterSnapshot::FromManifests(std::move(manifests)));
    return PlanInput{std::move(snapshot), std::nullopt, std::nullopt};
  }
  KP_ASSIGN_OR_RETURN(state::ClusterSnapshot before,
                      state::ClusterSnapshot::FromManifests(manifests));
  state::DrainResult drain = state::SimulateDrain(before, selectors);
  state::ApplyDrain(drain, manifests);
  KP_ASSIGN_OR_RETURN(state::ClusterSnapshot after,
                      state::ClusterSnapshot::FromManifests(std::move(manifests)));
  return PlanInput{std::move(after), std::move(before), std::move(drain)};
}

// With --cloud aws, the account (node class statuses resolved into `manifests`); null for the
// embedded catalog. Flags that only make sense with the embedded catalog are refused.
absl::StatusOr<std::unique_ptr<AccountPlan>> OpenAccount(const PlanCommandOptions& options,
                                                         std::vector<api::Manifest>& manifests) {
  if (options.cloud != "aws") return nullptr;
  if (!options.catalog.empty()) {
    return absl::InvalidArgumentError(
        "--catalog and --cloud aws each name where instance types come from; pass one");
  }
  if (options.disruption || !options.explain.empty()) {
    return absl::InvalidArgumentError(
        "--disruption and --explain plan with the embedded catalog only; drop --cloud aws");
  }
  if (!options.spot_prices.empty()) {
    return absl::InvalidArgumentError(
        "--spot-price pins the embedded catalog's prices; with --cloud aws spot prices come "
        "from ec2:DescribeSpotPriceHistory");
  }
  KP_ASSIGN_OR_RETURN(std::unique_ptr<AccountPlan> account, AccountPlan::Open(options.region));
  KP_RETURN_IF_ERROR(account->ResolveNodeClasses(manifests));
  return account;
}

}  // namespace

void AddPlanCommand(CLI::App& app, PlanCommandOptions& options, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "plan", "Show the NodeClaims Karpenter would launch for a snapshot of a cluster");
  cmd->add_option("-f,--filename", options.files,
                  "Manifest file (YAML or JSON; - for stdin), directory of them, or a comma "
                  "list, as kubectl reads -f")
      ->required();
  cmd->add_flag("-R,--recursive", options.recursive,
                "Read the directories -f names and their subdirectories");
  cmd->add_option("-o,--output", options.output, "Output format")
      ->check(CLI::IsMember(kOutputFormats))
      ->capture_default_str();
  cmd->add_option("--preference-policy", options.preference_policy,
                  "Respect or Ignore preferred affinities and ScheduleAnyway spreads")
      ->check(CLI::IsMember({"Respect", "Ignore"}))
      ->capture_default_str();
  cmd->add_option("--min-values-policy", options.min_values_policy,
                  "Strict or BestEffort handling of requirement minValues")
      ->check(CLI::IsMember({"Strict", "BestEffort"}))
      ->capture_default_str();
  cmd->add_option("--now", options.now, "Evaluation time (RFC 3339); default: now");
  cmd->add_flag("--deterministic", options.deterministic,
                "Report solveMillis as 0 so that runs compare byte for byte");
  cmd->add_flag("--disruption", options.disruption,
                "Also show the disruption commands Karpenter would issue now and blocked nodes");
  cmd->add_option("--feature-gates", options.feature_gates,
                  "Feature gates, e.g. SpotToSpotConsolidation=true");
  cmd->add_option("--consolidation-search", options.consolidation_search,
                  "With --disruption: upstream (default) searches upstream's consolidation moves "
                  "only; extended also searches candidates grouped by instance type and family, "
                  "then re-shapes of two or three nodes into as many or fewer cheaper ones, "
                  "when those find nothing (not upstream behaviour)")
      // Checked when it is parsed: without --disruption a typo went unnoticed.
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            if (disruption::ParseConsolidationSearch(value)) return "";
            return "want upstream or extended, got \"" + value + "\"";
          },
          "upstream|extended"))
      ->capture_default_str();
  cmd->add_option("--packing", options.packing,
                  "upstream (default): upstream's placement decisions; cost: pods by cpu and "
                  "memory, those with required anti-affinity first, each on the NodeClaim whose "
                  "cheapest type still holds it, tightest first (not upstream behaviour)")
      ->check(CLI::IsMember({"upstream", "cost"}))
      ->capture_default_str();
  cmd->add_option("--claim-ties", options.claim_ties,
                  "upstream (default): among NodeClaims with as many pods, try them in the order "
                  "upstream's Go sort leaves them; creation: the one opened first (not upstream "
                  "behaviour)")
      ->check(CLI::IsMember({"upstream", "creation"}))
      ->capture_default_str();
  cmd->add_option("--spot-price", options.spot_prices,
                  "Pin a spot price, INSTANCE_TYPE:ZONE=USD_PER_HOUR (repeatable); default: the "
                  "documented discount model");
  cmd->add_option("--region", options.region,
                  "AWS region of the snapshot; default: the region its nodes and EC2NodeClass "
                  "subnets name, else us-east-1 (stated as an assumption)");
  cmd->add_option("--drain", options.drain,
                  "What-if: the nodes this label selector picks (kubectl -l syntax: a=b,c!=d,"
                  "e in (x,y),f notin (z),g,!h; repeatable) cordoned and drained as kubectl "
                  "drain --ignore-daemonsets --delete-emptydir-data would, the NodeClaims "
                  "Karpenter launches for their pods, and the cost delta");
  cmd->add_option("--explain", options.explain,
                  "pod/NAMESPACE/NAME: where the pod lands and, for every NodePool, whether it "
                  "fits and the scheduler's reason if not; node/NAME: the disruption commands "
                  "that take the node now, or why it is left alone (budgets, PDBs, "
                  "do-not-disrupt, consolidation). Prints the answer instead of the plan");
  cmd->add_option("--catalog", options.catalog,
                  "Plan with these instance types instead of the embedded AWS catalog: fake400 "
                  "(upstream's fake.InstanceTypes(400)) or a catalog JSON file "
                  "(docs/differential.md); every NodePool gets them all, no EC2NodeClass needed");
  cmd->add_flag("--fail-on-unschedulable", options.fail_on_unschedulable,
                "Exit 2 (after printing the whole plan) when some pod cannot be placed");
  cmd->add_option("--cloud", options.cloud,
                  "embedded (default): the compiled-in catalog; aws: read only from the account "
                  "the AWS SDK chain names (AWS_REGION or --region, credentials, "
                  "AWS_ENDPOINT_URL): each EC2NodeClass's subnets, security groups and AMIs, "
                  "instance types, offerings and prices; -o json adds \"sources\"")
      ->check(CLI::IsMember({"embedded", "aws"}))
      ->capture_default_str();
  cmd->footer(
      "Examples:\n"
      "  karpenter plan -f examples/article/ec2nodeclass.yaml -f examples/article/nodepool.yaml "
      "-f examples/article/workload-sample.yaml\n"
      "  karpenter plan -f cluster.yaml -f karpenter.yaml --disruption -o json\n"
      "  karpenter plan -f examples/article/ec2nodeclass.yaml -f examples/article/nodepool.yaml "
      "-f examples/drain/managed-node-group.yaml --drain eks.amazonaws.com/nodegroup=ng-1\n"
      "  karpenter plan -f cluster.yaml -f karpenter.yaml --explain pod/default/web-7d9f8-a1\n"
      "  karpenter plan -f cluster.yaml -f karpenter.yaml --explain node/ip-10-0-1-5.ec2.internal\n"
      "\n"
      "Exit codes: 0 a plan was made; 1 bad input or flags (nothing on stdout); 2 with "
      "--fail-on-unschedulable, the plan was printed and some pod cannot be placed.\n"
      "The snapshot: kubectl get nodes,pods,pdb,daemonsets,deployments,replicasets,statefulsets,"
      "jobs -A -o yaml (README.md, \"Use it on your cluster\").");
  cmd->callback([&options, &exit_code] {
    PlanClocks clocks{RealMonotonicMillis, RealNow};
    exit_code = RunPlan(options, clocks, std::cout, std::cerr);
  });
}

int RunPlan(const PlanCommandOptions& options, const PlanClocks& clocks, std::ostream& out,
            std::ostream& err) {
  absl::StatusOr<std::vector<std::string>> files =
      ExpandFilenames(options.files, options.recursive);
  if (!files.ok()) {
    err << files.status().message() << "\n";
    return 1;
  }
  std::optional<std::vector<api::Manifest>> manifests = LoadValidManifests(*files, err);
  if (!manifests) return 1;
  absl::StatusOr<std::unique_ptr<AccountPlan>> account = OpenAccount(options, *manifests);
  if (!account.ok()) {
    err << "plan --cloud aws: " << account.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<PlanInput> plan_input = BuildPlanInput(options, *std::move(manifests));
  if (!plan_input.ok()) {
    err << plan_input.status().message() << "\n";
    return 1;
  }
  const state::ClusterSnapshot* snapshot = &plan_input->snapshot;
  const std::vector<std::string> regions = cloudprovider::EmbeddedRegions();
  absl::StatusOr<provisioning::RegionChoice> region = provisioning::ChooseRegion(
      provisioning::RegionEvidenceOf(snapshot->nodes(), snapshot->ec2_node_classes(), regions),
      *account ? (*account)->region() : options.region, regions);
  if (!region.ok()) {
    err << "plan: " << region.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<provisioning::PlanOptions> plan_options =
      ParseOptions(options, clocks, region->region);
  if (!plan_options.ok()) {
    err << plan_options.status().message() << "\n";
    return 1;
  }
  if (absl::Status applied = ApplyPlanCatalog(options, *plan_options); !applied.ok()) {
    err << "plan: " << applied.message() << "\n";
    return 1;
  }
  provisioning::MillisClock clock;
  if (!options.deterministic) clock = clocks.monotonic_millis;
  for (const std::string& skipped : snapshot->skipped()) {
    err << "skipped: " << skipped << " (kind not modelled)\n";
  }
  std::optional<ExplainTarget> target;
  if (!options.explain.empty()) {
    absl::StatusOr<ExplainTarget> parsed = ParseExplainTarget(options.explain);
    if (!parsed.ok()) {
      err << parsed.status().message() << "\n";
      return 1;
    }
    target = *std::move(parsed);
  }
  if (options.disruption || target) {
    return RunDisruption(options, target, *plan_input, *region, *plan_options, clock, out, err);
  }
  absl::StatusOr<provisioning::PlanResult> plan =
      *account ? (*account)->Plan(*snapshot, *plan_options, clock)
               : provisioning::Plan(*snapshot, *plan_options, clock);
  if (!plan.ok()) {
    err << "plan: " << plan.status().message() << "\n";
    return 1;
  }
  if (absl::Status completed = CompletePlan(options, *plan_input, *region, *plan_options, *plan);
      !completed.ok()) {
    err << "plan: " << completed.message() << "\n";
    return 1;
  }
  if (*account && plan->assumptions) (*account)->DescribeIn(*plan->assumptions);
  for (const std::string& warning : plan->warnings) err << "warning: " << warning << "\n";
  if (IsDocumentOutput(options)) {
    std::string json = provisioning::EncodePlanJson(*plan);
    if (*account) json = (*account)->WithSources(json);
    if (PrintDocument(options, json, out, err) != 0) return 1;
  } else {
    out << provisioning::RenderPlanText(*plan)
        << (options.output == "wide" ? WideClaimLines(*plan) : "")
        << (*account ? (*account)->SourcesText() : "");
  }
  return PlanExitCode(options, *plan);
}

}  // namespace karpenter::cli
