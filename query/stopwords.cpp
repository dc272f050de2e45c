/// @file stopwords.cpp
/// @brief Snowball's English stopword list (snowballstem.org, BSD licence), as a Xapian stopper.
#include "query/stopwords.h"

#include <sstream>
#include <string>

namespace canon::query {
namespace {

constexpr const char* kEnglishStopwords =
    "a about above after again against all am an and any are as at be because been before being "
    "below between both but by can cannot could did do does doing down during each few for from "
    "further had has have having he her here hers herself him himself his how i if in into is it "
    "its itself let me more most my myself no nor not of off on once only or other ought our ours "
    "ourselves out over own same she should so some such than that the their theirs them "
    "themselves then there these they this those through to too under until up very was we were "
    "what when where which while who whom why will with would you your yours yourself yourselves";

}  // namespace

std::unique_ptr<Xapian::SimpleStopper> english_stopper() {
  auto stopper = std::make_unique<Xapian::SimpleStopper>();
  std::istringstream words(kEnglishStopwords);
  for (std::string word; words >> word;) stopper->add(word);
  return stopper;
}

}  // namespace canon::query
