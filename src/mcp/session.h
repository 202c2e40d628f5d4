// The state of one MCP connection: the server's options, the logs loaded so far (each under an
// analysisId the client can name again instead of re-reading the log), and the folder where
// History Server downloads are kept until the server exits.
//
// Thread-safe: tool calls run on their own threads and share the session. Loaded logs are
// immutable and shared; at most `cached_logs` stay in memory (least recently used goes first;
// its analysisId still works and reads the log again).
#pragma once

#include <cstdint>
#include <filesystem>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "analysis/analyzer.h"
#include "common/status.h"
#include "fetch/history_server_fetch.h"
#include "mcp/json_rpc.h"
#include "io/path_confinement.h"
#include "mcp/tool.h"
#include "model/app_model.h"

namespace sf::mcp {

struct ServerOptions {
  io::PathConfinement log_root;  // --log-dir: where tools may read
  std::string store_location;  // --store: an SQLite path or a postgresql:// URL
  size_t cached_logs = 4;
  fetch::FetchOptions fetch;  // limits of History Server downloads
};

// One log, loaded and analyzed: the model, its analysis, and the analysis document
// (report::analysis_json) the tools take their structured content from.
struct LoadedLog {
  std::string analysis_id;
  std::string source;  // the real path, or the History Server URL it came from
  model::AppModel model;
  analysis::Analysis analysis;
  Json document;
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

  // The loaded log, from memory when it is there. Errors say what to do (a path outside the
  // log directory, an unknown analysisId, a History Server failure with its stable code).
  Result<std::shared_ptr<const LoadedLog>> load(const LogReference& reference, ToolContext& context,
                                                ProgressSpan span = {});

 private:
  struct Source {
    std::string key;  // the real path or the logs URL
    std::optional<fetch::HistoryServerRequest> history_server;
  };
  Result<Source> source_of(const LogReference& reference);
  Result<std::string> local_copy(const Source& source, ToolContext& context, ProgressSpan span);
  std::string analysis_id_for(const std::string& key);
  std::shared_ptr<const LoadedLog> cached(const std::string& key);
  void remember(std::shared_ptr<const LoadedLog> log);

  const ServerOptions options_;
  std::mutex mutex_;
  std::map<std::string, std::string> id_by_key_;
  std::map<std::string, Source> source_by_id_;
  std::list<std::shared_ptr<const LoadedLog>> recent_;  // most recently used first
  std::optional<std::filesystem::path> download_dir_;
  uint64_t downloads_ = 0;
};

}  // namespace sf::mcp
