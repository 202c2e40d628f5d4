// The state of one MCP connection: the server's options, the analysisIds it gave the logs it
// loaded (so the client can name a log again instead of its path), and the folder where
// History Server downloads are kept until the session ends. The logs themselves, and what is
// derived from them, are the catalogue's (catalog::LogCatalog), which may be shared with other
// front ends in the process: a log is loaded once for all of them and read again when it changes.
//
// Thread-safe: tool calls run on their own threads and share the session.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "analysis/analyzer.h"
#include "catalog/log_catalog.h"
#include "common/status.h"
#include "fetch/history_server_fetch.h"
#include "io/path_confinement.h"
#include "mcp/json_rpc.h"
#include "mcp/tool.h"
#include "model/app_model.h"
#include "results/store_snapshot.h"

namespace sf::mcp {

// A catalogue as MCP uses it: confined to `root` (--log-dir; unconfined without one), the four
// most recently used logs kept loaded, each read with `load`'s threads and limits (by default
// the default decoding threads) and analyzed with `analysis` (null: the default thresholds).
std::shared_ptr<catalog::LogCatalog> make_log_catalog(
    io::PathConfinement root = {}, model::LoadOptions load = {},
    std::shared_ptr<const analysis::AnalysisOptions> analysis = nullptr);

struct ServerOptions {
  // Where tools read logs from (--log-dir), and the logs loaded; null: make_log_catalog().
  std::shared_ptr<catalog::LogCatalog> catalog;
  std::string store_location;  // --store: an SQLite path or a postgresql:// URL
  fetch::FetchOptions fetch;   // limits of History Server downloads
};

// One log as the tools see it: the catalogue's loaded log under the analysisId this session gave
// it. Cheap to copy; the log stays alive as long as a copy does.
struct NamedLog {
  std::string analysis_id;
  std::string source;  // the real path, or the History Server URL it came from
  std::shared_ptr<const catalog::LoadedLog> log;

  const model::AppModel& model() const { return log->model(); }
  const analysis::Analysis& analysis() const { return log->analysis(); }
  // The analysis document (report::analysis_json, with plans) the tools take their structured
  // content from, so they say what `analyze -f json` says.
  const Json& document() const { return log->analysis_document(); }
};

// Where a tool's log comes from: exactly one of the three.
struct LogReference {
  std::string path;
  std::string analysis_id;
  std::optional<fetch::HistoryServerRequest> history_server;
};

// Progress of one load within a call that loads several: it moves the call's progress from
// `offset` to `offset + 1` out of `total`.
struct ProgressSpan {
  double offset = 0;
  double total = 1;
};

// History Server downloads go to a folder of the session's, sparkforensics-mcp-<pid>-XXXXXX under
// the temporary directory, removed when the session ends. A session killed with SIGKILL cannot
// remove its own: before making one, a session removes every such folder of this user's whose
// process is gone.
void remove_stale_download_dirs(const std::filesystem::path& temp);

class McpSession {
 public:
  explicit McpSession(ServerOptions options);
  ~McpSession();
  McpSession(const McpSession&) = delete;
  McpSession& operator=(const McpSession&) = delete;

  const ServerOptions& options() const { return options_; }
  catalog::LogCatalog& catalog() const { return *options_.catalog; }

  // The log, loaded through the catalogue (from memory when its files are unchanged). Errors say
  // what to do (a path outside the log directory, an unknown analysisId, a History Server
  // failure with its stable code).
  Result<NamedLog> load(const LogReference& reference, ToolContext& context, ProgressSpan span = {});

  // The --store's results for the verdict tool, kept between calls (results/store_snapshot.h).
  results::StoreSnapshot& stored_results() { return stored_results_; }

 private:
  struct Source {
    std::string key;  // the real path or the logs URL
    std::optional<fetch::HistoryServerRequest> history_server;
  };
  Result<Source> source_of(const LogReference& reference);
  Result<std::string> local_copy(const Source& source, ToolContext& context, ProgressSpan span);
  std::string analysis_id_for(const std::string& key);

  ServerOptions options_;
  results::StoreSnapshot stored_results_;
  std::mutex mutex_;
  std::map<std::string, std::string> id_by_key_;
  std::map<std::string, Source> source_by_id_;
  std::optional<std::filesystem::path> download_dir_;
  std::map<std::string, std::filesystem::path> download_by_url_;  // each History Server log is fetched once
  uint64_t downloads_ = 0;
};

}  // namespace sf::mcp
