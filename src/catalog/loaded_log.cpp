#include "catalog/loaded_log.h"

#include <mutex>
#include <nlohmann/json.hpp>

#include "report/model_json.h"

namespace sf::catalog {

struct LoadedLog::Derived {
  std::once_flag analyzed;
  analysis::Analysis analysis;
  std::once_flag written;
  std::string text;
  std::once_flag parsed;
  nlohmann::ordered_json document;
};

LoadedLog::LoadedLog(std::string path, LogFileIdentity files, model::AppModel model,
                     std::shared_ptr<const analysis::AnalysisOptions> analysis_options)
    : path_(std::move(path)),
      files_(std::move(files)),
      model_(std::move(model)),
      analysis_options_(std::move(analysis_options)),
      derived_(std::make_unique<Derived>()) {}

LoadedLog::~LoadedLog() = default;
LoadedLog::LoadedLog(LoadedLog&&) = default;
LoadedLog& LoadedLog::operator=(LoadedLog&&) = default;

const analysis::AnalysisOptions& LoadedLog::analysis_options() const {
  static const analysis::AnalysisOptions kDefaults;
  return analysis_options_ ? *analysis_options_ : kDefaults;
}

const analysis::Analysis& LoadedLog::analysis() const {
  std::call_once(derived_->analyzed, [this] { derived_->analysis = analysis::analyze(model_, analysis_options()); });
  return derived_->analysis;
}

const std::string& LoadedLog::analysis_text() const {
  std::call_once(derived_->written, [this] {
    report::JsonOptions options;
    options.indent = -1;
    options.include_plans = true;
    // The analysis is computed while another thread writes the model's part of the document.
    derived_->text = report::analysis_json_while_analyzing(
        model_, [this]() -> const analysis::Analysis& { return analysis(); }, options);
  });
  return derived_->text;
}

const nlohmann::ordered_json& LoadedLog::analysis_document() const {
  std::call_once(derived_->parsed, [this] { derived_->document = nlohmann::ordered_json::parse(analysis_text()); });
  return derived_->document;
}

}  // namespace sf::catalog
