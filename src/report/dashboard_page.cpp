#include "report/dashboard_page.h"

#include <optional>

#include "report/web_assets.h"

namespace sf::report {

namespace {

// The first tag of `html` that starts with `tag_start` and whose attribute `name` names a built
// file ("/assets/..."), with the value, the tag's position and its length; nullopt when none does.
struct Tag {
  size_t begin = 0;
  size_t length = 0;
  std::string value;
};

std::optional<Tag> find_tag(std::string_view html, std::string_view tag_start, std::string_view name) {
  for (size_t at = html.find(tag_start); at != std::string_view::npos; at = html.find(tag_start, at + 1)) {
    const size_t close = html.find('>', at);
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view tag = html.substr(at, close + 1 - at);
    const std::string key = std::string(name) + "=\"";
    const size_t value_at = tag.find(key);
    if (value_at == std::string_view::npos) continue;
    const size_t value_end = tag.find('"', value_at + key.size());
    if (value_end == std::string_view::npos) continue;
    if (tag.substr(value_at + key.size(), 8) != "/assets/") continue;  // the icon's data: URL, ...
    Tag out{at, close + 1 - at, std::string(tag.substr(value_at + key.size(), value_end - value_at - key.size()))};
    // A module script ends with its own closing tag, which goes too.
    if (tag_start == "<script" && html.substr(close + 1, 9) == "</script>") out.length += 9;
    return out;
  }
  return std::nullopt;
}

// Inside <script> or <style> nothing may look like the element's end tag.
std::string escape_end_tags(std::string_view text, std::string_view end_tag) {
  std::string out;
  out.reserve(text.size());
  size_t from = 0;
  for (size_t at = text.find(end_tag); at != std::string_view::npos; at = text.find(end_tag, from)) {
    out.append(text.substr(from, at));
    out.append("<\\/");
    from = at + 2;
  }
  out.append(text.substr(from));
  return out;
}

void append_json_for_script(std::string& out, std::string_view document) {
  for (char c : document) {
    if (c == '<') {
      out.append("\\u003c");
    } else {
      out.push_back(c);
    }
  }
}

const WebAsset* asset_at(const std::string& url) {
  return find_web_asset(url.rfind('/', 0) == 0 ? std::string_view(url).substr(1) : std::string_view(url));
}

}  // namespace

Result<std::string> self_contained_dashboard(
    const std::vector<std::pair<std::string_view, std::string_view>>& documents) {
  const WebAsset* index = find_web_asset("index.html");
  if (index == nullptr) {
    return fail(Status::Unsupported(
        "this program was built without the dashboard (configured with SF_WEB=OFF or without npm), so it "
        "cannot write HTML; use --format json, text or markdown"));
  }
  std::string html(index->bytes);
  const auto script = find_tag(html, "<script", "src");
  const auto style = find_tag(html, "<link", "href");
  const WebAsset* script_asset = script ? asset_at(script->value) : nullptr;
  if (script_asset == nullptr) return fail(Status::Corruption("the dashboard's index.html names no script it holds"));

  std::string inline_script =
      "<script type=\"module\">" + escape_end_tags(script_asset->bytes, "</script") + "</script>";
  std::string inline_style;
  const WebAsset* style_asset = style ? asset_at(style->value) : nullptr;
  if (style_asset != nullptr) inline_style = "<style>" + escape_end_tags(style_asset->bytes, "</style") + "</style>";

  std::string data = "<script id=\"sf-report\" type=\"application/json\">{";
  for (size_t i = 0; i < documents.size(); ++i) {
    if (i > 0) data.push_back(',');
    data.push_back('"');
    data.append(documents[i].first);  // names are the program's own: no escaping needed
    data.append("\":");
    append_json_for_script(data, documents[i].second);
  }
  data.append("}</script>");

  // Replaced from the end, so the earlier positions stay valid.
  if (style_asset != nullptr && style->begin > script->begin) {
    html.replace(style->begin, style->length, inline_style);
    html.replace(script->begin, script->length, inline_script);
  } else {
    html.replace(script->begin, script->length, inline_script);
    if (style_asset != nullptr) html.replace(style->begin, style->length, inline_style);
  }
  const size_t head_end = html.find("</head>");
  html.insert(head_end == std::string::npos ? 0 : head_end, data);
  return html;
}

Result<std::string> analysis_html(std::string_view analysis_json, std::string_view timeline_json) {
  return self_contained_dashboard({{"analysis", analysis_json}, {"timeline", timeline_json}});
}

Result<std::string> comparison_html(std::string_view comparison_json, std::string_view plan_diffs_json) {
  return self_contained_dashboard({{"comparison", comparison_json}, {"planDiffs", plan_diffs_json}});
}

}  // namespace sf::report
