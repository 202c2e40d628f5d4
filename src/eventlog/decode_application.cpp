// The application's events: the log's start (Spark's, or Databricks' own first line), the
// application's start and end, its environment (JVM, Spark, system and Hadoop properties), and
// the resource profiles its stages may ask executors for.
#include <utility>

#include "eventlog/event_decoders.h"
#include "eventlog/field_readers.h"

namespace sf::eventlog::decoding {

namespace {

// A resource profile's requests ("gpu": amount, discovery script, vendor), sorted by name.
error_code read_resource_requests(od::value& value, std::vector<spark::ResourceRequest>& out) {
  return read_named_objects(value, out,
                            [](std::string_view field, od::value& v, spark::ResourceRequest& request) -> error_code {
                              if (field == "Resource Name") return read_string(v, request.name, kMaxNameBytes);
                              if (field == "Amount") return json::read_double(v, request.amount);
                              if (field == "Discovery Script") {
                                return read_string(v, request.discovery_script, kMaxTextBytes);
                              }
                              if (field == "Vendor") return read_string(v, request.vendor, kMaxNameBytes);
                              return SUCCESS;
                            });
}

// The environment's sections: each an object of names and values.
constexpr std::pair<std::string_view, KeyValues EnvironmentUpdate::*> kEnvironmentSections[] = {
    {"JVM Information", &EnvironmentUpdate::jvm_information},
    {"Spark Properties", &EnvironmentUpdate::spark_properties},
    {"System Properties", &EnvironmentUpdate::system_properties},
    {"Hadoop Properties", &EnvironmentUpdate::hadoop_properties},
    {"Metrics Properties", &EnvironmentUpdate::metrics_properties},
    {"Classpath Entries", &EnvironmentUpdate::classpath_entries},
};

}  // namespace

error_code decode_log_start(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<LogStart>(doc, handler, kLogStartRequired, state.missing,
                                   [](std::string_view key, od::value& v, LogStart& e) -> error_code {
                                     if (key == "Spark Version") return read_string(v, e.spark_version, kMaxNameBytes);
                                     return SUCCESS;
                                   });
}

error_code decode_databricks_metadata(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<DatabricksMetadata>(
      doc, handler, RequiredList{}, state.missing,
      [](std::string_view key, od::value& v, DatabricksMetadata& e) -> error_code {
        if (key == "Spark Version") return read_string(v, e.spark_version, kMaxNameBytes);
        if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
        return SUCCESS;
      });
}

error_code decode_application_start(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<ApplicationStart>(
      doc, handler, kApplicationStartRequired, state.missing,
      [](std::string_view key, od::value& v, ApplicationStart& e) -> error_code {
        if (key == "App Name") return read_string(v, e.app_name, kMaxNameBytes);
        if (key == "App ID") return read_string(v, e.app_id, kMaxNameBytes);
        if (key == "App Attempt ID") return json::read_optional_string(v, e.attempt_id, kMaxNameBytes);
        if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
        if (key == "User") return read_string(v, e.user, kMaxNameBytes);
        if (key == "Driver Logs") return json::read_key_values(v, e.driver_logs, kMaxNameBytes, kMaxTextBytes);
        if (key == "Driver Attributes") {
          return json::read_key_values(v, e.driver_attributes, kMaxNameBytes, kMaxTextBytes);
        }
        return SUCCESS;
      });
}

error_code decode_application_end(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<ApplicationEnd>(doc, handler, kApplicationEndRequired, state.missing,
                                         [](std::string_view key, od::value& v, ApplicationEnd& e) -> error_code {
                                           if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
                                           if (key == "ExitCode") return read_optional_int(v, e.exit_code);
                                           return SUCCESS;
                                         });
}

error_code decode_environment_update(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<EnvironmentUpdate>(doc, handler, kEnvironmentUpdateRequired, state.missing,
                                            [](std::string_view key, od::value& v, EnvironmentUpdate& e) -> error_code {
                                              for (const auto& [name, section] : kEnvironmentSections) {
                                                if (key == name)
                                                  return json::read_key_values(v, e.*section, kMaxNameBytes,
                                                                               kMaxTextBytes);
                                              }
                                              return SUCCESS;
                                            });
}

error_code decode_resource_profile_added(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<ResourceProfileAdded>(
      doc, handler, kResourceProfileAddedRequired, state.missing,
      [](std::string_view key, od::value& v, ResourceProfileAdded& e) -> error_code {
        if (key == "Resource Profile Id") return read_int(v, e.profile.id);
        if (key == "Executor Resource Requests") return read_resource_requests(v, e.profile.executor_resources);
        if (key == "Task Resource Requests") return read_resource_requests(v, e.profile.task_resources);
        return SUCCESS;
      });
}

}  // namespace sf::eventlog::decoding
