#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

#include "common/units.h"

namespace sf::cli {

namespace {
constexpr auto kMinRedraw = std::chrono::milliseconds(250);
}

ProgressLine::ProgressLine(std::string label, bool wanted)
    : label_(std::move(label)),
      enabled_(wanted && isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()) {}

ProgressLine::~ProgressLine() { clear(); }

void ProgressLine::show(const std::string& text, bool now) {
  if (!enabled_) return;
  const auto time = std::chrono::steady_clock::now();
  if (!now && drawn_ && time - last_draw_ < kMinRedraw) return;
  last_draw_ = time;
  std::fprintf(stderr, "\r  %-98s", text.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::update(const model::LoadProgress& progress) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < kMinRedraw) return;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double rate = seconds > 0 ? static_cast<double>(progress.source_bytes_done) / seconds : 0;
  std::string text =
      fmt::format("reading {}  {}", label_, units::format_bytes(static_cast<int64_t>(progress.source_bytes_done)));
  if (progress.source_bytes_total > 0) {
    const double fraction =
        static_cast<double>(progress.source_bytes_done) / static_cast<double>(progress.source_bytes_total);
    text += fmt::format(" / {}  {:.0f}%", units::format_bytes(static_cast<int64_t>(progress.source_bytes_total)),
                        std::min(100.0, fraction * 100.0));
    if (rate > 0 && fraction < 1.0) {
      const double left_s = static_cast<double>(progress.source_bytes_total -
                                                std::min(progress.source_bytes_total, progress.source_bytes_done)) /
                            rate;
      text += fmt::format("  ETA {}", units::format_duration_ms(static_cast<int64_t>(left_s * 1000)));
    }
  }
  text += fmt::format("  {}/s", units::format_bytes(static_cast<int64_t>(rate)));
  show(text, /*now=*/true);
}

void ProgressLine::clear() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r%-100s\r", "");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace sf::cli
