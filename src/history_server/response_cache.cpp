#include "history_server/response_cache.h"

namespace sf::history_server {

std::shared_ptr<const std::string> ResponseCache::find(const std::string& key,
                                                       const catalog::LogFileIdentity& version) {
  std::lock_guard lock(mutex_);
  auto found = by_key_.find(key);
  if (found == by_key_.end()) return nullptr;
  if (!(found->second->version == version)) {
    drop_locked(found->second);  // the log changed: its old answers are dead weight
    return nullptr;
  }
  recent_.splice(recent_.begin(), recent_, found->second);
  return found->second->body;
}

void ResponseCache::keep(const std::string& key, const catalog::LogFileIdentity& version, std::string body) {
  if (key.size() + body.size() > max_bytes_ / 4) return;
  std::lock_guard lock(mutex_);
  if (auto found = by_key_.find(key); found != by_key_.end()) drop_locked(found->second);
  bytes_ += key.size() + body.size();
  recent_.push_front(Entry{key, version, std::make_shared<const std::string>(std::move(body))});
  by_key_[key] = recent_.begin();
  while (bytes_ > max_bytes_) drop_locked(std::prev(recent_.end()));
}

size_t ResponseCache::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

void ResponseCache::drop_locked(std::list<Entry>::iterator it) {
  bytes_ -= it->key.size() + it->body->size();
  by_key_.erase(it->key);
  recent_.erase(it);
}

}  // namespace sf::history_server
