#include "src/sim/svg_chart.h"

#include <algorithm>
#include <cmath>

#include "fmt/format.h"

namespace karpenter::sim {
namespace {

constexpr int kLeft = 64;
constexpr int kRight = 16;
constexpr int kTop = 30;
constexpr double kLegendCharWidth = 7.0;
constexpr double kTitleCharWidth = 8.0;
constexpr double kLegendRowHeight = 16;
constexpr int kBottom = 44;
constexpr int kLaneLeft = 96;
constexpr int kLaneHeight = 20;

// Coordinates with one decimal: enough for the screen, short, and the same on every platform.
std::string Coord(double value) { return fmt::format("{:.1f}", value); }

// Tick labels: integers without a decimal point, fractions without trailing zeros.
std::string TickLabel(double value) {
  if (std::fabs(value) < 1e-9) return "0";
  std::string text = fmt::format("{:.4f}", value);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

constexpr double kMarkerLabelGap = 12;
constexpr double kMarkCharWidth = 5.5;  // 9–10 px text

// At most `bytes` bytes of `text`, cut before a UTF-8 continuation byte, with an ellipsis.
std::string Shorten(const std::string& text, size_t bytes) {
  if (text.size() <= bytes) return text;
  size_t cut = bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "\u2026";
}

// Fault windows, under the data: clipped to the axis, a tooltip each.
void Bands(std::string& svg, const std::vector<ChartBand>& bands, const LinearScale& x,
           double x_min, double x_max, double top, double bottom) {
  for (const ChartBand& band : bands) {
    const double from = std::max(band.from, x_min);
    const double to = std::min(band.to, x_max);
    if (!(to > from)) continue;
    svg += fmt::format(R"(<rect class="band" x="{}" y="{}" width="{}" height="{}" fill="#d62728" )"
                       R"(fill-opacity="0.09"><title>{}</title></rect>)",
                       Coord(x(from)), Coord(top), Coord(x(to) - x(from)), Coord(bottom - top),
                       EscapeXml(band.label));
  }
}

// Steps, over the data: a dashed line each with its label written down along it, unless the
// previous labelled step is too close for the text (the tooltip still has it).
void Markers(std::string& svg, const std::vector<ChartMarker>& markers, const LinearScale& x,
             double x_min, double x_max, double top, double bottom) {
  double last_labelled = -1e18;
  for (const ChartMarker& marker : markers) {
    if (marker.x < x_min || marker.x > x_max) continue;
    const double px = x(marker.x);
    svg += fmt::format(
        R"(<g class="marker"><title>{3}</title><line x1="{0}" y1="{1}" x2="{0}" y2="{2}" )"
        R"(stroke="#555" stroke-dasharray="3 3"/></g>)",
        Coord(px), Coord(top), Coord(bottom), EscapeXml(marker.label));
    if (px - last_labelled < kMarkerLabelGap) continue;
    last_labelled = px;
    // Written down the line, so the plot's height is what the text may fill.
    const auto fits = static_cast<size_t>(std::max(4.0, (bottom - top - 4) / kMarkCharWidth));
    svg += fmt::format(
        R"svg(<text transform="translate({} {}) rotate(90)" class="marker-label">{}</text>)svg",
        Coord(px + 3), Coord(top + 2), EscapeXml(Shorten(marker.label, fits)));
  }
}

// Legend entries are as wide as their names (12 px text is about 7 px per character); a 14 px
// bold title about 8.
double LegendEntryWidth(const ChartSeries& s) {
  return 18.0 + kLegendCharWidth * static_cast<double>(s.name.size()) + 20.0;
}

// The legend, series in order of appearance: top right beside the title when it fits there,
// else in rows under the title from the left. Returns where the plot area starts.
double Legend(std::string& svg, const std::string& title, const std::vector<ChartSeries>& series,
              double plot_right) {
  double total = 0;
  for (const ChartSeries& s : series) total += LegendEntryWidth(s);
  const double title_end = kLeft + kTitleCharWidth * static_cast<double>(title.size());
  const bool beside = plot_right - total >= title_end;
  double legend_x = beside ? plot_right - total : kLeft;
  double row_y = beside ? 10 : 28;
  for (const ChartSeries& s : series) {
    if (!beside && legend_x > kLeft && legend_x + LegendEntryWidth(s) > plot_right) {
      legend_x = kLeft;
      row_y += kLegendRowHeight;
    }
    svg += fmt::format(R"(<rect x="{}" y="{}" width="14" height="4" fill="{}"/>)", Coord(legend_x),
                       Coord(row_y), EscapeXml(s.color));
    svg += fmt::format(R"(<text x="{}" y="{}" class="legend">{}</text>)", Coord(legend_x + 18),
                       Coord(row_y + 6), EscapeXml(s.name));
    legend_x += LegendEntryWidth(s);
  }
  return beside ? kTop : row_y + kLegendRowHeight;
}

void XAxis(std::string& svg, const std::vector<double>& ticks, const LinearScale& x, double y0,
           double top, const std::string& label, double mid_x, bool grid, double end_px) {
  svg += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#444"/>)",
                     Coord(x(ticks.front())), Coord(y0), Coord(end_px), Coord(y0));
  for (double tick : ticks) {
    const std::string px = Coord(x(tick));
    if (grid) {
      svg += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#eee"/>)", px,
                         Coord(top), Coord(y0));
    }
    svg += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#444"/>)", px,
                       Coord(y0), Coord(y0 + 4));
    svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" class="tick">{}</text>)", px,
                       Coord(y0 + 16), TickLabel(tick));
  }
  svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" class="axis">{}</text>)",
                     Coord(mid_x), Coord(y0 + 34), EscapeXml(label));
}

}  // namespace

std::string EscapeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::vector<double> NiceTicks(double min, double max, int target) {
  if (!(max > min)) max = min + 1;
  target = std::max(target, 1);
  const double raw = (max - min) / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double normalized = raw / magnitude;
  const double step = (normalized <= 1   ? 1
                       : normalized <= 2 ? 2
                       : normalized <= 5 ? 5
                                         : 10) *
                      magnitude;
  // A little slack so a value a rounding error above a tick does not add another step.
  const double first = std::floor(min / step + 1e-9);
  const double last = std::ceil(max / step - 1e-9);
  std::vector<double> ticks;
  for (double k = first; k <= last; ++k) ticks.push_back(k * step);
  return ticks;
}

TimeUnit TimeUnitFor(double run_seconds) {
  if (run_seconds > 2 * 3600) return {3600, "h"};
  return {60, "min"};
}

std::vector<double> TicksUpTo(double end, int target) {
  std::vector<double> ticks = NiceTicks(0, end, target);
  // The slack keeps a tick that equals the end up to a rounding error.
  while (ticks.size() > 1 && ticks.back() > end + 1e-9 * std::max(1.0, end)) ticks.pop_back();
  return ticks;
}

LinearScale::LinearScale(double d0, double d1, double r0, double r1)
    : d0_(d0), d1_(d1), r0_(r0), r1_(r1) {}

double LinearScale::operator()(double value) const {
  if (d1_ == d0_) return r0_;
  return r0_ + (value - d0_) / (d1_ - d0_) * (r1_ - r0_);
}

std::string RenderLineChart(const LineChartSpec& spec, const std::vector<ChartSeries>& series) {
  double x_min = 0, x_max = 0, y_max = 0;
  bool first = true;
  for (const ChartSeries& s : series) {
    for (const auto& [x, y] : s.points) {
      x_min = first ? x : std::min(x_min, x);
      x_max = first ? x : std::max(x_max, x);
      y_max = std::max(y_max, y);
      first = false;
    }
  }
  const std::vector<double> x_ticks =
      spec.x_end ? TicksUpTo(*spec.x_end, 8) : NiceTicks(x_min, x_max, 8);
  const double x_first = spec.x_end ? 0 : x_ticks.front();
  const double x_last = spec.x_end ? std::max(*spec.x_end, x_ticks.back()) : x_ticks.back();
  const std::vector<double> y_ticks = NiceTicks(0, y_max, 5);
  const double plot_right = spec.width - kRight;
  const double plot_bottom = spec.height - kBottom;
  std::string svg =
      fmt::format(R"(<svg width="{0}" height="{1}" viewBox="0 0 {0} {1}" role="img">)", spec.width,
                  spec.height);
  svg += fmt::format(R"(<title>{}</title>)", EscapeXml(spec.title));
  svg +=
      fmt::format(R"(<text x="{}" y="18" class="title">{}</text>)", kLeft, EscapeXml(spec.title));
  const double top = Legend(svg, spec.title, series, plot_right);
  const LinearScale x(x_first, x_last, kLeft, plot_right);
  const LinearScale y(y_ticks.front(), y_ticks.back(), plot_bottom, top);
  for (double tick : y_ticks) {
    const std::string py = Coord(y(tick));
    svg += fmt::format(R"(<line x1="{1}" y1="{0}" x2="{2}" y2="{0}" stroke="#eee"/>)", py,
                       Coord(kLeft), Coord(plot_right));
    svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="end" class="tick">{}</text>)",
                       Coord(kLeft - 6), Coord(y(tick) + 4), TickLabel(tick));
  }
  svg += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#444"/>)", Coord(kLeft),
                     Coord(top), Coord(plot_bottom));
  svg += fmt::format(
      R"svg(<text transform="translate(14 {}) rotate(-90)" text-anchor="middle" class="axis">{}</text>)svg",
      Coord((top + plot_bottom) / 2), EscapeXml(spec.y_label));
  XAxis(svg, x_ticks, x, plot_bottom, top, spec.x_label, (kLeft + plot_right) / 2, true,
        plot_right);
  Bands(svg, spec.bands, x, x_first, x_last, top, plot_bottom);

  for (const ChartSeries& s : series) {
    if (s.points.empty()) continue;
    std::string path;
    for (size_t i = 0; i < s.points.size(); ++i) {
      const auto& [px, py] = s.points[i];
      if (i == 0) {
        path += "M" + Coord(x(px)) + " " + Coord(y(py));
        continue;
      }
      if (spec.step)
        path += "H" + Coord(x(px)) + "V" + Coord(y(py));
      else
        path += "L" + Coord(x(px)) + " " + Coord(y(py));
    }
    std::string style;
    if (s.opacity < 1) style += fmt::format(R"( stroke-opacity="{}")", TickLabel(s.opacity));
    if (!s.dash.empty()) style += fmt::format(R"( stroke-dasharray="{}")", EscapeXml(s.dash));
    svg += fmt::format(R"(<path class="data" d="{}" fill="none" stroke="{}" stroke-width="{}"{}/>)",
                       path, EscapeXml(s.color), TickLabel(s.width), style);
  }
  Markers(svg, spec.markers, x, x_first, x_last, top, plot_bottom);
  svg += "</svg>";
  return svg;
}

std::string RenderLaneChart(const LaneChartSpec& spec, const std::vector<LaneMark>& marks) {
  const int lanes = static_cast<int>(spec.lanes.size());
  const double plot_bottom = kTop + static_cast<double>(lanes * kLaneHeight);
  const int height = static_cast<int>(plot_bottom) + kBottom;
  const double plot_right = spec.width - kRight;
  const std::vector<double> x_ticks = TicksUpTo(spec.x_max, 8);
  const double x_last = std::max(spec.x_max, x_ticks.back());
  const LinearScale x(0, x_last, kLaneLeft, plot_right);

  std::string svg = fmt::format(
      R"(<svg width="{0}" height="{1}" viewBox="0 0 {0} {1}" role="img">)", spec.width, height);
  svg += fmt::format(R"(<title>{}</title>)", EscapeXml(spec.title));
  svg += fmt::format(R"(<text x="{}" y="18" class="title">{}</text>)", kLaneLeft,
                     EscapeXml(spec.title));
  for (int lane = 0; lane < lanes; ++lane) {
    const double row_top = kTop + static_cast<double>(lane * kLaneHeight);
    if (lane % 2 == 0) {
      svg +=
          fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#f6f6f6"/>)",
                      Coord(kLaneLeft), Coord(row_top), Coord(plot_right - kLaneLeft), kLaneHeight);
    }
    svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="end" class="tick">{}</text>)",
                       Coord(kLaneLeft - 6), Coord(row_top + 14), EscapeXml(spec.lanes[lane]));
  }
  Bands(svg, spec.bands, x, 0, x_last, kTop, plot_bottom);
  // Where each lane's last label ends: a mark is labelled only where its text fits.
  std::vector<double> label_end(static_cast<size_t>(lanes), -1e18);
  for (const LaneMark& mark : marks) {
    if (mark.lane < 0 || mark.lane >= lanes) continue;
    const double row_top = kTop + static_cast<double>(mark.lane * kLaneHeight);
    const std::string color =
        mark.lane < static_cast<int>(spec.colors.size()) ? spec.colors[mark.lane] : "#444";
    const double px = x(mark.x);
    const std::string tick = fmt::format(
        R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="{3}" stroke-width="1.5" stroke-opacity="0.7"/>)",
        Coord(px), Coord(row_top + 3), Coord(row_top + kLaneHeight - 3), EscapeXml(color));
    svg += mark.tooltip.empty() ? "<g class=\"data\">" + tick + "</g>"
                                : fmt::format(R"(<g class="data"><title>{}</title>{}</g>)",
                                              EscapeXml(mark.tooltip), tick);
    double& free_from = label_end[static_cast<size_t>(mark.lane)];
    if (mark.label.empty() || px + 2 < free_from) continue;
    const double text_width = kMarkCharWidth * static_cast<double>(mark.label.size());
    if (px + 2 + text_width > plot_right) continue;
    svg += fmt::format(R"(<text x="{}" y="{}" class="mark-label">{}</text>)", Coord(px + 2),
                       Coord(row_top + 13), EscapeXml(mark.label));
    free_from = px + 2 + text_width + 4;
  }
  Markers(svg, spec.markers, x, 0, x_last, kTop, plot_bottom);
  XAxis(svg, x_ticks, x, plot_bottom, kTop, spec.x_label, (kLaneLeft + plot_right) / 2, false,
        plot_right);
  svg += "</svg>";
  return svg;
}

}  // namespace karpenter::sim
