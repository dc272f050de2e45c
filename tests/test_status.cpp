/// @file test_status.cpp
/// @brief Status and Result: codes, their text, and what each factory makes.
#include <doctest/doctest.h>

#include <string>

#include "common/status.h"

using canon::Result;
using canon::Status;
using canon::StatusCode;

TEST_CASE("Status: a code and a message; each factory its code; the codes' text (table)") {
  CHECK(Status::ok_status().ok());
  CHECK(Status::ok_status().code() == StatusCode::kOk);
  CHECK(Status::ok_status().message().empty());
  struct Row {
    Status status;
    StatusCode code;
    const char* text;
  };
  const Row rows[] = {
      {Status::error("bad option"), StatusCode::kInvalidArgument, "invalid argument"},
      {Status::not_found("no such index"), StatusCode::kNotFound, "not found"},
      {Status::failed_precondition("not a canon index"), StatusCode::kFailedPrecondition, "failed precondition"},
      {Status::io_error("disk full"), StatusCode::kIoError, "I/O error"},
      {Status::corruption("bad block"), StatusCode::kCorruption, "corruption"},
      {Status::internal("bug"), StatusCode::kInternal, "internal"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    CHECK_FALSE(row.status.ok());
    CHECK(row.status.code() == row.code);
    CHECK(std::string(canon::to_string(row.status.code())) == row.text);
    CHECK_FALSE(row.status.message().empty());
  }
  CHECK(std::string(canon::to_string(StatusCode::kOk)) == "ok");
}

TEST_CASE("Result: a value, or a failed Status with its code") {
  const Result<int> value = 7;
  REQUIRE(value.ok());
  CHECK(value.value() == 7);
  const Result<int> failed = Status::io_error("disk full");
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.status().code() == StatusCode::kIoError);
}
