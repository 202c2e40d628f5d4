#include "corpus/model_cache.h"

#include <algorithm>
#include <memory>

#include "model/load.h"

namespace sf::corpus_testing {

namespace fs = std::filesystem;

const Result<model::AppModel>& cached_model(const fs::path& path) {
  static std::map<std::string, std::unique_ptr<Result<model::AppModel>>> cache;
  auto& slot = cache[path.string()];
  if (!slot) slot = std::make_unique<Result<model::AppModel>>(model::load_event_log(path.string()));
  return *slot;
}

const SparkEventsIndex& spark_events_index(const fs::path& spark_events_dir) {
  static std::map<std::string, std::unique_ptr<SparkEventsIndex>> indexes;
  auto& slot = indexes[spark_events_dir.string()];
  if (slot) return *slot;
  slot = std::make_unique<SparkEventsIndex>();
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(spark_events_dir)) paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  for (const auto& path : paths) {
    const auto& loaded = cached_model(path);
    if (!loaded) {
      slot->load_errors.push_back(path.filename().string() + ": " + loaded.error().message());
      continue;
    }
    const AppKey key{loaded->app.id, loaded->app.attempt_id.value_or("")};
    slot->apps[key] = &*loaded;
    slot->files[key] = path.filename().string();
  }
  return *slot;
}

}  // namespace sf::corpus_testing
