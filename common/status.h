/// @file status.h
/// @brief The one error type of canon's library boundaries: Status, and Result<T> = value or Status.
///
/// Error policy (docs/design.md): expected failures (a missing directory, a corrupt index, a
/// malformed query) travel as a Status with a message written for the user. Exceptions thrown
/// by libraries we call (Xapian) are caught at the stage boundary and turned into a Status.
/// `main` prints the message and exits with a status of the code's (cli::exit_code).
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace canon {

/// What kind of failure a Status is, for callers that decide by it (an HTTP status, an exit
/// code, whether to try again) rather than by its text.
enum class StatusCode {
  kOk,
  /// The caller's input is wrong: a bad option, a malformed query, an unreadable page.
  kInvalidArgument,
  /// A file or directory the call needs does not exist.
  kNotFound,
  /// A directory is not what the call needs (not a canon index, not replaceable).
  kFailedPrecondition,
  /// Reading or writing failed (a full disk, a read-only directory, an I/O error).
  kIoError,
  /// Data canon wrote earlier is damaged or of another format.
  kCorruption,
  /// Anything else.
  kInternal,
};

/// "ok", "invalid argument", "not found", "failed precondition", "I/O error", "corruption",
/// "internal".
const char* to_string(StatusCode code);

/// Success, or an error with a code and a human-readable message. Cheap to copy when ok.
/// [[nodiscard]]: a Status (or Result) that nobody looks at is a bug the compiler reports.
class [[nodiscard]] Status {
public:
  /// The success value.
  static Status ok_status() { return Status(); }
  /// A failure; `message` is shown to the user as it is.
  static Status error(std::string message, StatusCode code = StatusCode::kInvalidArgument) {
    return Status(std::move(message), code);
  }
  static Status not_found(std::string message) { return error(std::move(message), StatusCode::kNotFound); }
  static Status io_error(std::string message) { return error(std::move(message), StatusCode::kIoError); }
  static Status corruption(std::string message) { return error(std::move(message), StatusCode::kCorruption); }
  static Status failed_precondition(std::string message) {
    return error(std::move(message), StatusCode::kFailedPrecondition);
  }
  static Status internal(std::string message) { return error(std::move(message), StatusCode::kInternal); }

  bool ok() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return ok(); }
  StatusCode code() const { return code_; }
  /// Empty when ok().
  const std::string& message() const { return message_; }

private:
  Status() = default;
  Status(std::string message, StatusCode code) : message_(std::move(message)), code_(code) {
    assert(code != StatusCode::kOk && "an error needs a code other than kOk");
  }
  std::string message_;
  StatusCode code_ = StatusCode::kOk;
};

/// Either a T or a failed Status.
/// REQUIRES: value() only when ok(); status() is meaningful only when !ok().
template <class T>
class [[nodiscard]] Result {
public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Status error) : state_(std::move(error)) {  // NOLINT(google-explicit-constructor)
    assert(!std::get<Status>(state_).ok() && "a Result holds a value or a failed Status");
  }

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  const Status& status() const { return std::get<Status>(state_); }

private:
  std::variant<T, Status> state_;
};

}  // namespace canon
