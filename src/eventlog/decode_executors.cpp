// The executor events: an executor added or removed, its block manager added or removed, an
// executor or a node excluded from scheduling or let back, and a process that is neither driver
// nor executor (a YARN application master).
#include <string>
#include <utility>

#include "eventlog/event_decoders.h"
#include "eventlog/field_readers.h"

namespace sf::eventlog::decoding {

namespace {

// An executor's resources ("gpu": its addresses), sorted by name.
error_code read_resources(od::value& value, std::vector<spark::ResourceInformation>& out) {
  return read_named_objects(value, out,
                            [](std::string_view field, od::value& v, spark::ResourceInformation& info) -> error_code {
                              if (field == "name") return read_string(v, info.name, kMaxNameBytes);
                              if (field == "addresses") {
                                return for_each_element(v, [&](od::value& address) -> error_code {
                                  std::string text;
                                  if (auto e = read_string(address, text, kMaxNameBytes)) return e;
                                  info.addresses.push_back(std::move(text));
                                  return SUCCESS;
                                });
                              }
                              return SUCCESS;
                            });
}

// The exclusion events differ only in what they exclude and whether they let it back; their
// ForStage variants are told apart by the stage they name, and Spark 3.1 renamed the Blacklisted
// ones (the dispatch table in decoder.cpp maps both names here).
error_code decode_exclusion(od::document& doc, DecodeState& state, EventHandler& handler,
                            ExclusionChange::Target target, bool excluded) {
  ExclusionChange change;
  change.target = target;
  change.excluded = excluded;
  const bool node = target == ExclusionChange::Target::kNode;
  const RequiredList required(node ? kNodeExclusionRequired : kExecutorExclusionRequired);
  auto error = decode_fields(doc, change, required, state.missing,
                             [](std::string_view key, od::value& v, ExclusionChange& e) -> error_code {
                               if (key == "executorId" || key == "hostId") return read_string(v, e.id, kMaxNameBytes);
                               if (key == "stageId") return read_optional_int(v, e.stage_id);
                               if (key == "stageAttemptId") return read_optional_int(v, e.stage_attempt_id);
                               if (key == "time") return read_optional_int(v, e.timestamp_ms);
                               return SUCCESS;
                             });
  if (error) return error;
  handler.on(change);
  return SUCCESS;
}

}  // namespace

error_code decode_executor_added(od::document& doc, DecodeState& state, EventHandler& handler) {
  MissingField& missing = state.missing;
  return decode_and_emit<ExecutorAdded>(
      doc, handler, kExecutorAddedRequired, missing,
      [&](std::string_view key, od::value& v, ExecutorAdded& e) -> error_code {
        if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
        if (key == "Executor ID") return read_string(v, e.executor_id, kMaxNameBytes);
        if (key == "Executor Info") {
          return read_object(key, v, kExecutorInfoRequired, missing,
                             [&](std::string_view k, od::value& iv) -> error_code {
                               if (k == "Host") return read_string(iv, e.host, kMaxNameBytes);
                               if (k == "Total Cores") {
                                 e.has_total_cores = true;
                                 return read_int(iv, e.total_cores);
                               }
                               if (k == "Log Urls") {
                                 return json::read_key_values(iv, e.log_urls, kMaxNameBytes, kMaxTextBytes);
                               }
                               if (k == "Attributes") {
                                 return json::read_key_values(iv, e.attributes, kMaxNameBytes, kMaxTextBytes);
                               }
                               if (k == "Resources") return read_resources(iv, e.resources);
                               if (k == "Resource Profile Id") return read_int(iv, e.resource_profile_id);
                               if (k == "Request Time") return read_optional_int(iv, e.request_time_ms);
                               if (k == "Registration Time") return read_optional_int(iv, e.registration_time_ms);
                               return SUCCESS;
                             });
        }
        return SUCCESS;
      });
}

error_code decode_executor_removed(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<ExecutorRemoved>(doc, handler, kExecutorRemovedRequired, state.missing,
                                          [](std::string_view key, od::value& v, ExecutorRemoved& e) -> error_code {
                                            if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
                                            if (key == "Executor ID")
                                              return read_string(v, e.executor_id, kMaxNameBytes);
                                            if (key == "Removed Reason") return read_string(v, e.reason, kMaxTextBytes);
                                            return SUCCESS;
                                          });
}

error_code decode_block_manager_added(od::document& doc, DecodeState& state, EventHandler& handler) {
  MissingField& missing = state.missing;
  return decode_and_emit<BlockManagerAdded>(
      doc, handler, kBlockManagerAddedRequired, missing,
      [&](std::string_view key, od::value& v, BlockManagerAdded& e) -> error_code {
        if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
        if (key == "Maximum Memory") return read_int(v, e.max_memory_bytes);
        if (key == "Maximum Onheap Memory") return read_optional_int(v, e.max_onheap_memory_bytes);
        if (key == "Maximum Offheap Memory") return read_optional_int(v, e.max_offheap_memory_bytes);
        if (key == "Block Manager ID") {
          return read_object(key, v, kBlockManagerIdRequired, missing,
                             [&](std::string_view k, od::value& bv) -> error_code {
                               if (k == "Executor ID") return read_string(bv, e.executor_id, kMaxNameBytes);
                               if (k == "Host") return read_string(bv, e.host, kMaxNameBytes);
                               if (k == "Port") return read_optional_int(bv, e.port);
                               return SUCCESS;
                             });
        }
        return SUCCESS;
      });
}

error_code decode_block_manager_removed(od::document& doc, DecodeState& state, EventHandler& handler) {
  MissingField& missing = state.missing;
  return decode_and_emit<BlockManagerRemoved>(
      doc, handler, kBlockManagerRemovedRequired, missing,
      [&](std::string_view key, od::value& v, BlockManagerRemoved& e) -> error_code {
        if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
        if (key == "Block Manager ID") {
          return read_object(key, v, kBlockManagerIdRequired, missing,
                             [&](std::string_view k, od::value& bv) -> error_code {
                               if (k == "Executor ID") return read_string(bv, e.executor_id, kMaxNameBytes);
                               return SUCCESS;
                             });
        }
        return SUCCESS;
      });
}

error_code decode_executor_excluded(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_exclusion(doc, state, handler, ExclusionChange::Target::kExecutor, true);
}

error_code decode_executor_unexcluded(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_exclusion(doc, state, handler, ExclusionChange::Target::kExecutor, false);
}

error_code decode_node_excluded(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_exclusion(doc, state, handler, ExclusionChange::Target::kNode, true);
}

error_code decode_node_unexcluded(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_exclusion(doc, state, handler, ExclusionChange::Target::kNode, false);
}

error_code decode_miscellaneous_process_added(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<MiscellaneousProcessAdded>(
      doc, handler, kMiscellaneousProcessRequired, state.missing,
      [](std::string_view key, od::value& v, MiscellaneousProcessAdded& e) -> error_code {
        if (key == "time") return read_optional_int(v, e.timestamp_ms);
        if (key == "processId") return read_string(v, e.process_id, kMaxNameBytes);
        if (key == "info") {
          return for_each_field(v, [&](std::string_view k, od::value& iv) -> error_code {
            if (k == "hostPort") return read_string(iv, e.host_port, kMaxNameBytes);
            if (k == "cores") return read_int(iv, e.cores);
            if (k == "logUrlInfo") return json::read_key_values(iv, e.log_urls, kMaxNameBytes, kMaxTextBytes);
            return SUCCESS;
          });
        }
        return SUCCESS;
      });
}

}  // namespace sf::eventlog::decoding
