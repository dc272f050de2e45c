/// @file status.h
/// @brief The one error type of canon's library boundaries: Status, and Result<T> = value or Status.
///
/// Error policy (docs/design.md): expected failures (a missing directory, a corrupt index, a
/// malformed query) travel as a Status with a message written for the user. Exceptions thrown
/// by libraries we call (Xapian) are caught at the stage boundary and turned into a Status.
/// `main` prints the message and exits non-zero.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace canon {

/// Success, or an error with a human-readable message. Cheap to copy when ok.
class Status {
public:
  /// The success value.
  static Status ok_status() { return Status(); }
  /// A failure; `message` is shown to the user as it is.
  static Status error(std::string message) { return Status(std::move(message), true); }

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  /// Empty when ok().
  const std::string& message() const { return message_; }

private:
  Status() = default;
  Status(std::string message, bool failed) : message_(std::move(message)), failed_(failed) {}
  std::string message_;
  bool failed_ = false;
};

/// Either a T or a failed Status.
/// REQUIRES: value() only when ok(); status() is meaningful only when !ok().
template <class T>
class Result {
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
