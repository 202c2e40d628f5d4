// Status and Result: how every module boundary reports failure.
//
// A Status is a code plus a human-readable message that already names what failed (the file,
// the line or byte offset, and what was wrong), so a front end can print it as is. Result<T>
// is either a value or a Status. Both are plain values: cheap to move, safe to copy across
// threads.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include <tl/expected.hpp>

namespace sf {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // the caller asked for something malformed (a bad flag, a bad path)
  kNotFound,         // a file, directory or id that does not exist
  kIOError,          // the operating system refused a read or write
  kCorruption,       // the bytes are not what their format promises (bad magic, bad block)
  kUnsupported,      // a well-formed input this program does not handle (unknown codec)
  kLimitExceeded,    // an input passed a configured resource limit (line length, ratio)
  kCancelled,        // the caller asked the work to stop
  kOutsideRoot,      // a path that resolves outside the directory a front end may read
  kUnavailable,      // what this program cannot give here or now (a History Server has no live executors)
};

// [[nodiscard]]: a Status dropped on the floor is a failure nobody hears of.
class [[nodiscard]] Status {
 public:
  Status() = default;  // ok

  static Status InvalidArgument(std::string message) { return {StatusCode::kInvalidArgument, std::move(message)}; }
  static Status NotFound(std::string message) { return {StatusCode::kNotFound, std::move(message)}; }
  static Status IOError(std::string message) { return {StatusCode::kIOError, std::move(message)}; }
  static Status Corruption(std::string message) { return {StatusCode::kCorruption, std::move(message)}; }
  static Status Unsupported(std::string message) { return {StatusCode::kUnsupported, std::move(message)}; }
  static Status LimitExceeded(std::string message) { return {StatusCode::kLimitExceeded, std::move(message)}; }
  static Status Cancelled(std::string message) { return {StatusCode::kCancelled, std::move(message)}; }
  static Status OutsideRoot(std::string message) { return {StatusCode::kOutsideRoot, std::move(message)}; }
  static Status Unavailable(std::string message) { return {StatusCode::kUnavailable, std::move(message)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // The same status with "context: " put in front of the message, e.g. a file name.
  Status with_context(std::string_view context) const { return {code_, std::string(context) + ": " + message_}; }
  // Drops the status on purpose, where another error is already the one reported (a ROLLBACK
  // after a failed statement): [[nodiscard]] makes every other drop a compile error.
  void permit_unchecked() const {}

  // "message (detail)": what the message is about, after it.
  Status with_detail(std::string_view detail) const { return {code_, message_ + " (" + std::string(detail) + ")"}; }

 private:
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

std::string_view to_string(StatusCode code);

// [[nodiscard]] as Status: a Result that is never looked at hides its error.
template <class T>
class [[nodiscard]] Result : public tl::expected<T, Status> {
 public:
  using tl::expected<T, Status>::expected;
  Result(const tl::expected<T, Status>& other) : tl::expected<T, Status>(other) {}
  Result(tl::expected<T, Status>&& other) : tl::expected<T, Status>(std::move(other)) {}
};

inline tl::unexpected<Status> fail(Status status) { return tl::unexpected<Status>(std::move(status)); }

}  // namespace sf
