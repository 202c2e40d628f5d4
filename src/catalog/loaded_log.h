// One event log as the catalogue keeps it in memory: its model, and what every front end derives
// from it, computed once on first use and then shared (the analysis, and the analysis document
// MCP tools answer from and a JSON API serves).
//
// Immutable once built, apart from those derived values, which are computed under std::call_once:
// safe to read from any number of threads at once. Handed out as shared_ptr<const LoadedLog>; it
// lives as long as the catalogue's cache or a caller holds it.
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "analysis/analyzer.h"
#include "catalog/app_listing.h"
#include "model/app_model.h"

namespace sf::catalog {

class LoadedLog {
 public:
  // `analysis_options` null: the default thresholds.
  LoadedLog(std::string path, LogFileIdentity files, model::AppModel model,
            std::shared_ptr<const analysis::AnalysisOptions> analysis_options = nullptr);
  ~LoadedLog();
  LoadedLog(LoadedLog&&);
  LoadedLog& operator=(LoadedLog&&);

  // The log's real path (every symlink resolved), as it was read.
  const std::string& path() const { return path_; }
  // The version of the log's files that was read: what a cache of anything derived from the log
  // (serve's stage task tables) keys its versions on.
  const LogFileIdentity& files() const { return files_; }
  const model::AppModel& model() const { return model_; }

  // The catalogue's thresholds and rate card (the defaults when it was given none).
  const analysis::AnalysisOptions& analysis_options() const;
  // analysis::analyze(model()) with analysis_options(), computed on the first call.
  const analysis::Analysis& analysis() const;
  // report::analysis_json(model(), &analysis(), with plans) on one line: what `analyze -f json`
  // writes for the log, computed on the first call.
  const std::string& analysis_text() const;
  // analysis_text() parsed, for callers that query it (the MCP tools), on the first call.
  const nlohmann::ordered_json& analysis_document() const;

 private:
  struct Derived;

  std::string path_;
  LogFileIdentity files_;
  model::AppModel model_;
  std::shared_ptr<const analysis::AnalysisOptions> analysis_options_;
  std::unique_ptr<Derived> derived_;  // never null (except in a moved-from object)
};

}  // namespace sf::catalog
