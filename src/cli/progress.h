// A progress line on stderr for long loads (bytes, percent, rate and time left) or for a batch
// of logs (how many are done). Drawn at most
// a few times a second and only when stderr is a terminal, so it costs nothing on the hot path
// and never pollutes redirected output.
#pragma once

#include <chrono>
#include <string>

#include "model/load.h"

namespace sf::cli {

class ProgressLine {
 public:
  // Enabled only when `wanted` and stderr is a terminal.
  ProgressLine(std::string label, bool wanted);
  ~ProgressLine();

  void update(const model::LoadProgress& progress);
  // Any line, e.g. "3 of 10 logs analyzed"; drawn at most a few times a second unless `now`.
  void show(const std::string& text, bool now = false);
  void clear();

 private:
  std::string label_;
  bool enabled_ = false;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace sf::cli
