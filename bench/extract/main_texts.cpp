/// @file main_texts.cpp
/// @brief What the extractor keeps of every page of a site, one line a page: its path, a hash of
/// its main text and the text's bytes (bench/extract/compare_builds.sh compares two builds').
/// Uses extract_page alone, so that it builds against the canon_html of older commits too.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <vector>

#include "html/html_extract.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc != 2 || !fs::is_directory(argv[1])) {
    std::cerr << "usage: canon_main_texts SITE_DIR\n";
    return 1;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(argv[1], fs::directory_options::follow_directory_symlink)) {
    const fs::path extension = entry.path().extension();
    if (entry.is_regular_file() && (extension == ".html" || extension == ".htm")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    const canon::html::ExtractedPage page = canon::html::extract_page(bytes.str(), "http://localhost/page.html");
    std::cout << fs::relative(file, argv[1]).string() << '\t' << std::hash<std::string>{}(page.main_text) << '\t'
              << page.main_text.size() << '\n';
  }
  return 0;
}
