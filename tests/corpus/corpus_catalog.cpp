#include "corpus/corpus_catalog.h"

#include <algorithm>
#include <cctype>

namespace sf::corpus_testing {

namespace fs = std::filesystem;

namespace {

bool is_log_directory(const fs::path& dir) {
  const std::string name = dir.filename().string();
  return name.rfind("eventlog_v2_", 0) == 0 || name == "db_sim_eventlog";
}

}  // namespace

const std::vector<CorpusLog>& corpus_logs() {
  static const std::vector<CorpusLog> logs = {
      // Apache Spark's History Server test logs.
      {"spark-events/app-20161115172038-0000", 0, ""},
      {"spark-events/app-20161116163331-0000", 0, ""},
      {"spark-events/app-20180109111548-0000", 0, ""},
      {"spark-events/app-20200706201101-0003", 0, ""},
      {"spark-events/application_1516285256255_0012", 0, ""},
      {"spark-events/application_1553914137147_0018", 0, ""},
      {"spark-events/application_1555004656427_0144", 0, ""},
      {"spark-events/application_1578436911597_0052", 0, ""},
      {"spark-events/application_1628109047826_1317105", 0, ""},
      {"spark-events/local-1422981759269", 0, ""},
      {"spark-events/local-1422981780767", 0, ""},
      {"spark-events/local-1425081759269", 0, ""},
      {"spark-events/local-1426533911241", 0, ""},
      {"spark-events/local-1426633911242", 0, ""},
      {"spark-events/local-1430917381534", 0, ""},
      {"spark-events/local-1430917381535_1", 0, ""},
      {"spark-events/local-1430917381535_2", 0, ""},
      {"spark-events/local-1642039451826", 0, ""},
      // Other apache/spark test logs.
      {"apache__spark/core/src/test/resources/spark-events-broken/last-attempt-incomplete/"
       "application_1656321732247_0006_1",
       0, ""},
      {"apache__spark/core/src/test/resources/spark-events-broken/last-attempt-incomplete/"
       "application_1656321732247_0006_2",
       0, ""},
      {"apache__spark/core/src/test/resources/spark-events-broken/previous-attempt-incomplete/"
       "application_1656321732247_0006_1",
       0, ""},
      {"apache__spark/core/src/test/resources/spark-events-broken/previous-attempt-incomplete/"
       "application_1656321732247_0006_2",
       0, ""},
      {"apache__spark/core/src/test/resources/spark-events/application_1506645932520_24630151", 0, ""},
      {"apache__spark/core/src/test/resources/spark-events/application_1536831636016_59384_1", 0, ""},
      {"apache__spark/core/src/test/resources/spark-events/application_1538416563558_0014", 0, ""},
      {"apache__spark/sql/core/src/test/resources/spark-events/local-1596020211915", 0, ""},
      // NVIDIA spark-rapids-tools test logs.
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/eventlog_dsv2.zstd", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/gpu_oom_eventlog.zstd", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/malformed_json_eventlog.zstd", 1,
       "spark-rapids-tools broke one line of rp_sql_eventlog on purpose (its malformed-JSON test)"},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/rapids_join_eventlog.zstd", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/rp_nosql_eventlog", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/rp_sql_eventlog.zstd", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/spark2-eventlog.zstd", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/"
       "tasks_executors_fail_compressed_eventlog.zstd",
       0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/aqeshuffle_eventlog.zstd", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/cluster_information/"
       "eventlog_3nodes_12cores_exec_removed",
       0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/cluster_information/"
       "eventlog_4nodes_8cores_dynamic_alloc.zstd",
       0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/db_sim_eventlog", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/db_subExecution_id.zstd", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/dsAndDf_eventlog.zstd", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/empty_eventlog", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/"
       "eventlog_v2_local-1623876083964",
       0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/java_udf_eventlog", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/multiple_attempts/"
       "attempt_1_eventlog.zstd",
       0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/multiple_attempts/"
       "attempt_2_eventlog.zstd",
       0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/multiple_attempts/"
       "attempt_3_eventlog.zstd",
       0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/multiple_attempts/"
       "attempt_4_eventlog.zstd",
       0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/pandas_execs_eventlog.zstd", 0,
       ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/rdd_only_eventlog", 0, ""},
      // Cut short on a line boundary (no end events): incomplete, but every line is whole.
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/truncated_eventlog", 0,
       "spark-rapids-tools cut the log short on purpose; it ends on a whole line, so nothing is malformed"},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/writeformat_eventlog", 0, ""},
      {"NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/xgboost_eventlog.zstd", 0, ""},
      {"NVIDIA__spark-rapids-tools/user_tools/tests/spark_rapids_tools_e2e/resources/event_logs/"
       "streaming_eventlog.zstd",
       0, ""},
      // Logs of other projects.
      {"datamechanics__delight/documentation/resources/example_spark_event_log.txt", 0, ""},
      {"groupon__sparklint/docs/spark_summit_euro_2016/event_logs/application_1472176676028_407508_1", 0, ""},
      {"groupon__sparklint/src/test/resources/directory_source/event_log_1", 0, ""},
      {"groupon__sparklint/src/test/resources/spark_event_log_example", 0, ""},
      {"kubeflow__mcp-apache-spark-history-server/examples/basic/events/"
       "eventlog_v2_spark-110be3a8424d4a2789cb88134418217b",
       0, ""},
      {"kubeflow__mcp-apache-spark-history-server/examples/basic/events/"
       "eventlog_v2_spark-bcec39f6201b42b9925124595baad260",
       0, ""},
      {"kubeflow__mcp-apache-spark-history-server/skills/cli/e2e/spark-events/local-1776286786993.zstd", 0, ""},
      {"linkedin__dr-elephant/test/resources/spark_event_logs/event_log_1", 0, ""},
      {"linkedin__dr-elephant/test/resources/spark_event_logs/event_log_2", 0, ""},
      {"qubole__sparklens/src/test/event-history-test-files/local-1532512550423", 0, ""},
      // Real logs re-encoded with Spark's own codec libraries.
      {"codecs/application_1603128018386_7846.lz4", 0, ""},
      {"codecs/eventlog_v2_local-1642039451826", 0, ""},
      {"codecs/local-1422981780767.lz4", 0, ""},
      {"codecs/local-1422981780767.lzf", 0, ""},
      {"codecs/local-1422981780767.snappy", 0, ""},
      {"codecs/local-1651694304852.lz4", 0, ""},
      {"codecs/local-1651694304852.lzf", 0, ""},
      {"codecs/local-1651694304852.snappy", 0, ""},
      {"codecs/local-1776286786993.lz4", 0, ""},
      {"codecs/local-1776286786993.snappy", 0, ""},
  };
  return logs;
}

std::vector<std::string> discover_corpus_logs(const fs::path& root) {
  std::vector<std::string> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (ec) break;
    const fs::path& path = it->path();
    const std::string relative = fs::relative(path, root).generic_string();
    if (it->is_directory()) {
      if (relative == "history-server-expectations" || relative == "rapids-profiling-expectations") {
        it.disable_recursion_pending();
      } else if (is_log_directory(path)) {
        found.push_back(relative);
        it.disable_recursion_pending();
      }
      continue;
    }
    if (!it->is_regular_file()) continue;
    if (relative == "README.md" || relative == "corpus-index.json") continue;
    found.push_back(relative);
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string test_name_of(std::string_view text) {
  std::string name;
  name.reserve(text.size());
  for (char c : text) name.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return name;
}

std::string log_test_name(std::string_view relative_path) {
  const fs::path path{std::string(relative_path)};
  std::string owner;
  const std::string first = path.begin()->string();
  if (const auto sep = first.find("__"); sep != std::string::npos) owner = first.substr(0, sep) + "_";
  const std::string parent = path.parent_path().filename().string();
  return test_name_of(owner + parent + "_" + path.filename().string());
}

}  // namespace sf::corpus_testing
