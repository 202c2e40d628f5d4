// The History Server API's answers about a loaded log, kept as the bytes sent: asked again, an
// answer is sent as it is instead of being built again from the model (a job list of a thousand
// jobs takes tens of milliseconds to write as JSON, and clients such as the History Server's own
// UI ask the same few answers over and over).
//
// An answer is kept with the identity of its log's files: once the log changes (an in-progress
// log grows, a log is rewritten) the old answers are never handed out again. The bytes kept are
// bounded, keys and bodies (least recently used dropped first); an answer larger than a quarter
// of the bound is not kept. Thread-safe.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "catalog/app_listing.h"

namespace sf::history_server {

class ResponseCache {
 public:
  explicit ResponseCache(size_t max_bytes) : max_bytes_(max_bytes) {}

  // The answer kept for `key` of the log whose files are `version`, or null.
  std::shared_ptr<const std::string> find(const std::string& key, const catalog::LogFileIdentity& version);

  // Keeps `body` as the answer for `key` of the log whose files are `version`.
  void keep(const std::string& key, const catalog::LogFileIdentity& version, std::string body);

  size_t bytes() const;

 private:
  struct Entry {
    std::string key;
    catalog::LogFileIdentity version;
    std::shared_ptr<const std::string> body;
  };
  void drop_locked(std::list<Entry>::iterator it);

  const size_t max_bytes_;
  mutable std::mutex mutex_;
  std::list<Entry> recent_;  // most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> by_key_;
  size_t bytes_ = 0;
};

}  // namespace sf::history_server
