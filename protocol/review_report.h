#pragma once

// A review as a person or a program reads it: text for the terminal, JSON
// (the schema is in docs/review.md), and one self-contained HTML page (the
// win-chance graph, the moves with their grades, a board for every ply and
// for each critical moment; no network, fonts or scripts from outside).

#include <string>

#include "game_file.h"
#include "review.h"

namespace branan {

std::string review_text(const Review& review, const Edition& edition);
std::string review_json(const Review& review, const Edition& edition);
// `game` is the game the review was made of (for its boards).
std::string review_html(const Review& review, const ReplayedGame& game);

// The version of the JSON schema (its "version" field).
inline constexpr int REVIEW_SCHEMA_VERSION = 1;

} // namespace branan
