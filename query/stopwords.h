/// @file stopwords.h
/// @brief English stopwords, for what a snippet highlights: a result's snippet marks the query's
/// words that say what it is about, not every "a" and "the" (a stopword is still searched; only
/// its highlight is left out, unless the query is nothing but stopwords or it is in a phrase).
#pragma once

#include <xapian.h>

#include <memory>

namespace canon::query {

/// A Xapian stopper holding Snowball's English stopword list (the forms without apostrophes).
/// The list is data, not code: Debian packages no stopword list that Xapian reads.
std::unique_ptr<Xapian::SimpleStopper> english_stopper();

}  // namespace canon::query
