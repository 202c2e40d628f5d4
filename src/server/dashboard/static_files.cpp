#include "server/dashboard/static_files.h"

#include <array>
#include <utility>

#include "report/web_assets.h"

namespace sf::server {

namespace {

RestResponse text_answer(int status, std::string body) {
  RestResponse out;
  out.status = status;
  out.content_type = "text/plain; charset=utf-8";
  out.body = std::move(body);
  out.headers.emplace_back("X-Content-Type-Options", "nosniff");
  return out;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// No segment may climb or stay ("." or ".."), nor hide one behind a backslash or a NUL.
bool is_plain_path(std::string_view path) {
  if (path.find('\\') != std::string_view::npos || path.find('\0') != std::string_view::npos) return false;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view segment = path.substr(start, end - start);
    if (segment == "." || segment == "..") return false;
    start = end + 1;
  }
  return true;
}

RestResponse asset_answer(const report::WebAsset& asset, bool immutable) {
  RestResponse out;
  out.content_type = std::string(content_type_for(asset.path));
  out.body = std::string(asset.bytes);
  out.headers.emplace_back("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
  out.headers.emplace_back("X-Content-Type-Options", "nosniff");
  if (!immutable) {
    // The page runs only its own script; charts set inline styles.
    out.headers.emplace_back("Content-Security-Policy",
                             "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                             "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                             "frame-ancestors 'none'");
    out.headers.emplace_back("Referrer-Policy", "no-referrer");
  }
  return out;
}

}  // namespace

std::string_view content_type_for(std::string_view path) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kTypes{{
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},
      {".txt", "text/plain; charset=utf-8"},
      {".map", "application/json"},
  }};
  for (const auto& [suffix, type] : kTypes) {
    if (ends_with(path, suffix)) return type;
  }
  return "application/octet-stream";
}

RestResponse static_file(std::string_view path) {
  if (!is_plain_path(path)) return text_answer(404, "not found\n");
  const report::WebAsset* index = report::find_web_asset("index.html");
  if (index == nullptr) {
    if (path == "/" || path.empty()) {
      return text_answer(200,
                         "sparkforensics serve: this build has no dashboard (configured with SF_WEB=OFF or without "
                         "npm); the Spark History Server REST API is under /api/v1/ (try /api/v1/applications)\n");
    }
    return text_answer(404, "unknown resource: " + std::string(path) + " (the REST API is under /api/v1/)\n");
  }
  if (path == "/" || path.empty() || path == "/index.html") return asset_answer(*index, false);
  if (path.rfind("/assets/", 0) == 0) {
    const report::WebAsset* asset = report::find_web_asset(path.substr(1));
    if (asset == nullptr) return text_answer(404, "no such file: " + std::string(path) + "\n");
    return asset_answer(*asset, true);
  }
  // The dashboard's own pages: the page reads the rest of the address.
  for (std::string_view page : {"/logs", "/compare", "/history", "/fleet"}) {
    if (path == page || (path.rfind(page, 0) == 0 && path.size() > page.size() && path[page.size()] == '/')) {
      return asset_answer(*index, false);
    }
  }
  return text_answer(404, "unknown resource: " + std::string(path) + "\n");
}

}  // namespace sf::server
