#include "model/failure_cause.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <vector>

#include "common/text.h"

namespace sf::model {

namespace {

using std::string_view;

constexpr string_view kCausedBy = "Caused by: ";
constexpr string_view kFrame = "\tat ";
constexpr string_view kSharedFrames = "\t... ";
constexpr string_view kTraceback = "Traceback (most recent call last):";
constexpr string_view kPythonFrame = "  File \"";
// Frames kept per exception: the root's location is among its first frames; a bound keeps a
// hostile text with thousands of nested causes linear.
constexpr size_t kMaxFramesKept = 256;
// Kubernetes' reasons are one CamelCase word; a bound keeps a hostile text out of the cause's key.
constexpr size_t kMaxPodReasonBytes = 64;

using text::trim;

std::vector<string_view> split_lines(string_view text) {
  std::vector<string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

bool name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }

// A class name: identifiers joined by dots. JVM classes live in packages, so a JVM exception's
// name has a dot ("java.io.IOException"); Python's built-in exceptions have none ("ValueError").
bool is_class_name(string_view name, bool needs_package) {
  if (name.empty() || name.size() > 256) return false;
  bool segment_start = true;
  bool dotted = false;
  for (char c : name) {
    if (c == '.') {
      if (segment_start) return false;
      segment_start = true;
      dotted = true;
      continue;
    }
    if (segment_start ? !name_start(c) : !name_char(c)) return false;
    segment_start = false;
  }
  return !segment_start && (dotted || !needs_package);
}

// The message as a reader should see it: one line, without Spark 4's SQLSTATE suffix, bounded
// (cut at a UTF-8 character boundary).
std::string clean_message(string_view message) {
  message = trim(message.substr(0, message.find('\n')));
  const auto sqlstate = message.rfind(" SQLSTATE: ");
  if (sqlstate != string_view::npos) message = trim(message.substr(0, sqlstate));
  if (message.size() > FailureCause::kMaxMessageBytes) {
    size_t cut = FailureCause::kMaxMessageBytes;
    while (cut > 0 && (static_cast<unsigned char>(message[cut]) & 0xC0) == 0x80) --cut;
    return std::string(message.substr(0, cut)) + "...";
  }
  return std::string(message);
}

// "pkg.Class: message" -> class and message. Wrapping words before the class ("Task
// serialization failed: java.io.NotSerializableException: Foo") are skipped: the class is the
// first ": "-separated part that is a class name. A line with no class is all message.
void read_exception_line(string_view line, bool needs_package, std::string& exception_class, std::string& message) {
  string_view rest = line;
  while (true) {
    const auto colon = rest.find(": ");
    const string_view head = trim(rest.substr(0, colon));
    if (is_class_name(head, needs_package)) {
      exception_class = std::string(head);
      message = colon == string_view::npos ? "" : clean_message(rest.substr(colon + 2));
      return;
    }
    if (colon == string_view::npos) break;
    rest.remove_prefix(colon + 2);
  }
  exception_class.clear();
  message = clean_message(line);
}

// One exception of a printed chain: its first line and message lines, its frames as printed
// (without "\tat "), and how many further frames it shares with the exception around it.
struct Section {
  std::vector<string_view> header;
  std::vector<string_view> frames;
  size_t shared_frames = 0;
};

std::vector<Section> read_sections(const std::vector<string_view>& lines) {
  std::vector<Section> sections(1);
  bool in_frames = false;
  for (string_view line : lines) {
    if (line.starts_with(kCausedBy)) {
      sections.emplace_back().header.push_back(line.substr(kCausedBy.size()));
      in_frames = false;
    } else if (line.starts_with(kFrame)) {
      if (sections.back().frames.size() < kMaxFramesKept) sections.back().frames.push_back(line.substr(kFrame.size()));
      in_frames = true;
    } else if (line.starts_with(kSharedFrames) && line.ends_with(" more")) {
      const string_view count = line.substr(kSharedFrames.size(), line.size() - kSharedFrames.size() - 5);
      size_t n = 0;
      std::from_chars(count.data(), count.data() + count.size(), n);
      sections.back().shared_frames = n;
      in_frames = true;
    } else if (line.starts_with("\t")) {
      // Suppressed exceptions and their causes, one tab deeper: not the chain of causes.
      continue;
    } else if (!in_frames) {
      sections.back().header.push_back(line);  // the message goes on
    }
  }
  return sections;
}

// The frames of the last section in full: "... N more" stands for the last N frames of the
// exception it is the cause of (Throwable.printStackTrace's enclosing trace).
std::vector<string_view> root_frames(const std::vector<Section>& sections) {
  std::vector<string_view> full;
  for (const Section& section : sections) {
    std::vector<string_view> next = section.frames;
    const size_t shared = std::min(section.shared_frames, full.size());
    next.insert(next.end(), full.end() - static_cast<std::ptrdiff_t>(shared), full.end());
    if (next.size() > kMaxFramesKept) next.resize(kMaxFramesKept);
    full = std::move(next);
  }
  return full;
}

// "java.base/java.lang.Integer.parseInt(Integer.java:668)" -> "java.lang.Integer.parseInt(Integer.java:668)":
// the module and class loader names Java 9+ print differ between JVMs, the frame does not.
string_view without_module(string_view frame) {
  const auto paren = frame.find('(');
  const auto slash = frame.substr(0, paren).rfind('/');
  return slash == string_view::npos ? frame : frame.substr(slash + 1);
}

// Frames of the Java and Scala runtime libraries: where an exception is thrown, rarely what to fix.
bool is_runtime_frame(string_view frame) {
  static constexpr std::array kRuntime = {string_view("java."), string_view("javax."),   string_view("jdk."),
                                          string_view("sun."),  string_view("com.sun."), string_view("scala.")};
  return std::any_of(kRuntime.begin(), kRuntime.end(), [&](string_view prefix) { return frame.starts_with(prefix); });
}

std::string jvm_location(const std::vector<string_view>& frames) {
  for (string_view frame : frames) {
    if (!is_runtime_frame(without_module(frame))) return std::string(without_module(frame));
  }
  return frames.empty() ? "" : std::string(without_module(frames.front()));
}

// The last traceback in `lines`: its last frame and the exception line after the frames.
bool read_python_traceback(const std::vector<string_view>& lines, FailureCause& cause) {
  size_t start = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(kTraceback) != string_view::npos) start = i;
  }
  if (start == lines.size()) return false;
  string_view last_frame;
  string_view exception_line;
  for (size_t i = start + 1; i < lines.size(); ++i) {
    const string_view line = lines[i];
    if (line.starts_with(kPythonFrame)) {
      last_frame = trim(line);
    } else if (!line.empty() && line.front() != ' ') {
      exception_line = line;  // source lines and carets are indented; the exception line is not
      break;
    }
  }
  cause.kind = FailureCauseKind::kPythonException;
  cause.location = std::string(last_frame);
  read_exception_line(exception_line, /*needs_package=*/false, cause.exception_class, cause.message);
  return true;
}

// A job's or stage's failure quotes the task failure that ended it after "most recent failure:
// Lost task 0.3 in stage 5.0 (TID 19) (host executor 2): ".
string_view task_failure_in(string_view text) {
  const auto first_line = text.substr(0, text.find('\n'));
  const auto recent = first_line.find("most recent failure: ");
  if (recent == string_view::npos) return text;
  string_view failure = text.substr(recent + 21);
  if (failure.starts_with("Lost task ")) {
    const auto end = failure.substr(0, failure.find('\n')).find("): ");
    if (end != string_view::npos) failure.remove_prefix(end + 3);
  }
  return failure;
}

std::string masked_digits(string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (!digit) {
      out += text[i];
    } else if (out.empty() || out.back() != '#') {
      out += '#';
    }
  }
  return out;
}

bool contains_ignoring_case(string_view text, string_view needle, size_t& at) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  const auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                              [&](char a, char b) { return lower(a) == lower(b); });
  if (it == text.end()) return false;
  at = static_cast<size_t>(it - text.begin()) + needle.size();
  return true;
}

std::optional<int32_t> exit_code_in(string_view reason) {
  // How YARN, standalone workers and Kubernetes put it, most specific first.
  static constexpr std::array kMarkers = {
      string_view("exit status: "),     string_view("exit code is "), string_view("exited with exit code "),
      string_view("exited with code "), string_view("exit code: "),   string_view("exit code "),
      string_view("exitcode=")};
  for (string_view marker : kMarkers) {
    size_t at = 0;
    if (!contains_ignoring_case(reason, marker, at)) continue;
    int32_t code = 0;
    const auto [end, error] = std::from_chars(reason.data() + at, reason.data() + reason.size(), code);
    if (error == std::errc() && end != reason.data() + at) return code;
  }
  return std::nullopt;
}

// Kubernetes' status of the pod a lost executor ran in, as ExecutorPodsLifecycleManager quotes it:
// "The API gave the following brief reason: Evicted" (the pod's status reason; "N/A" or no line
// when it has none) and, per container (KubernetesUtils.containersDescription), "\t termination
// reason: OOMKilled". A container killed at its memory limit is the answer wherever it is listed
// (a sidecar may come first); otherwise the pod's reason, then the first container's.
std::string pod_reason_in(string_view reason) {
  // The value after `marker` at or after `from` up to its line's end ("N/A" is none), and where
  // to look for the next one; npos when there is none.
  const auto value_after = [&](string_view marker, size_t from) -> std::pair<string_view, size_t> {
    const auto at = reason.find(marker, from);
    if (at == string_view::npos) return {{}, string_view::npos};
    string_view value = reason.substr(at + marker.size());
    value = trim(value.substr(0, value.find('\n')));
    return {value == "N/A" ? string_view() : value, at + marker.size()};
  };
  string_view first;
  size_t from = 0;
  while (true) {
    const auto [value, next] = value_after("termination reason: ", from);
    if (next == string_view::npos) break;
    if (value == "OOMKilled") return std::string(value);
    if (first.empty()) first = value;
    from = next;
  }
  // The pod's reason (Evicted, Preempting, Shutdown: the node's) says more than a container's Error.
  const string_view pod = value_after("The API gave the following brief reason: ", 0).first;
  return std::string((pod.empty() ? first : pod).substr(0, kMaxPodReasonBytes));
}

}  // namespace

std::string_view to_string(FailureCauseKind kind) {
  switch (kind) {
    case FailureCauseKind::kException: return "exception";
    case FailureCauseKind::kPythonException: return "pythonException";
    case FailureCauseKind::kExecutorLost: return "executorLost";
    case FailureCauseKind::kShutdown: return "shutdown";
    case FailureCauseKind::kUnknown: return "unknown";
  }
  return "unknown";
}

std::string FailureCause::key() const {
  std::string key(to_string(kind));
  if (!exit_code && exception_class.ends_with("OutOfMemoryError")) {
    return key + ":" + exception_class + ": " + masked_digits(message);
  }
  const std::string what = exit_code                  ? "exit " + std::to_string(*exit_code)
                           : !exception_class.empty() ? exception_class
                                                      : masked_digits(message);
  if (!what.empty()) key += ":" + what;
  if (!location.empty()) key += " at " + location;
  if (!pod_reason.empty()) key += " (" + pod_reason + ")";
  return key;
}

std::string FailureCause::summary() const {
  if (kind == FailureCauseKind::kExecutorLost && exit_code) {
    return "exit code " + std::to_string(*exit_code) + (message.empty() ? "" : " (" + message + ")");
  }
  if (exception_class.empty()) return message;
  return message.empty() ? exception_class : exception_class + ": " + message;
}

bool says_context_shut_down(string_view text) {
  static constexpr std::array kWords = {string_view("SparkContext was shut down"),
                                        string_view("SparkContext has been shutdown"),
                                        string_view("stopped SparkContext")};
  return std::any_of(kWords.begin(), kWords.end(),
                     [&](string_view words) { return text.find(words) != string_view::npos; });
}

bool says_query_stopped(string_view text) {
  return text.find("cancelled") != string_view::npos && text.find("runId = ") != string_view::npos &&
         text.find("] was stopped") != string_view::npos;
}

FailureCause read_executor_loss(string_view reason) {
  FailureCause cause;
  cause.kind = FailureCauseKind::kExecutorLost;
  cause.message = clean_message(trim(reason));
  cause.exit_code = exit_code_in(reason);
  cause.pod_reason = pod_reason_in(reason);
  cause.pod_deleted = reason.find("was deleted by a user or the framework") != string_view::npos;
  return cause;
}

FailureCause read_failure_cause(string_view text) {
  FailureCause cause;
  if (trim(text).empty()) return cause;
  text = task_failure_in(text);
  // "ExecutorLostFailure (executor 3 exited caused by one of the running tasks) Reason: ..."
  if (text.starts_with("ExecutorLostFailure")) {
    const auto reason = text.find("Reason: ");
    return read_executor_loss(reason == string_view::npos ? text : text.substr(reason + 8));
  }
  // "FetchFailed(BlockManagerId(...), shuffleId=0, ..., message=\norg.apache.spark.shuffle.FetchFailedException: ..."
  if (text.starts_with("FetchFailed(")) {
    const auto message = text.find("message=");
    if (message != string_view::npos) text = text.substr(message + 8);
  }
  text = text.substr(0, text.find("\nDriver stacktrace:"));

  const std::vector<string_view> lines = split_lines(text);
  const std::vector<Section> sections = read_sections(lines);
  const Section& root = sections.back();
  if (!read_python_traceback(root.header, cause)) {
    cause.kind = FailureCauseKind::kException;
    read_exception_line(root.header.empty() ? string_view() : root.header.front(), /*needs_package=*/true,
                        cause.exception_class, cause.message);
    cause.location = jvm_location(root_frames(sections));
  }
  cause.nesting = static_cast<int32_t>(sections.size() - 1);
  if (cause.nesting > 0 && !sections.front().header.empty()) {
    std::string outer_message;
    read_exception_line(sections.front().header.front(), /*needs_package=*/true, cause.outer_class, outer_message);
  }
  if (says_work_was_stopped(text)) cause.kind = FailureCauseKind::kShutdown;
  return cause;
}

}  // namespace sf::model
