#pragma once

// What every branan-match end-to-end test asks of a finished game.

#include <catch2/catch.hpp>

#include "match/match.h"

namespace branan::testutil {

// The game ended by the rules or an adjudication, never by a fault of an
// engine (an illegal or malformed move, a crash, no answer, a lost clock).
inline void check_no_fault(const match::GameSummary& g) {
    INFO(g.detail);
    CHECK(g.reason != "illegal-move");
    CHECK(g.reason != "malformed");
    CHECK(g.reason != "crash");
    CHECK(g.reason != "no-answer");
    CHECK(g.reason != "time-forfeit");
}

} // namespace branan::testutil
