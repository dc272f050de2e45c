/// @file fuzz_url_rules.cpp
/// @brief libFuzzer target: URL rule files (a user's, or one damaged on disk). A file either is
/// refused with a message or compiles; a compiled set normalises URLs without crashing, to URLs
/// that are normalised themselves; a file written back reads back to the same rules.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "urls/url.h"
#include "urls/url_rules.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto file = canon::urls::decode_rule_file(input, "fuzz.json");
  if (!file.ok()) {
    if (file.status().message().empty()) __builtin_trap();
    return 0;
  }
  auto set = canon::urls::RuleSet::compile(file->rules, 4);
  if (!set.ok()) __builtin_trap();  // decode_rule_file checked every rule
  for (std::string_view url : {"http://localhost/a/b.html?x=1&sid=2&b=3", "http://localhost/print/docs/",
                               "https://h.example:8443/p;jsessionid=AB/q?utm_source=x&utm_medium=y"}) {
    auto normal = set->normalize(url);
    if (!normal.ok()) __builtin_trap();  // the URLs are valid; rules only ever yield valid URLs
    auto again = canon::urls::normalize_url(normal->url);
    if (!again.ok()) __builtin_trap();
  }
  (void)canon::urls::nutch_regex_normalizer(set->rules());
  auto back = canon::urls::decode_rule_file(canon::urls::encode_rule_file(file.value()), "again.json");
  if (!back.ok() || back->rules.size() != file->rules.size()) __builtin_trap();
  return 0;
}
