#pragma once

// The soak's parts, each run on its own thread until the end of the soak:
// every part drives real Branan processes against a fake peer that
// misbehaves at random and counts what happened in the Tally.

#include <atomic>
#include <cstdint>
#include <random>
#include <string>

#include "match/process.h"
#include "tally.h"

namespace branan::soak {

using ReadStatus = match::ChildProcess::ReadStatus;

struct SoakContext {
    std::string branan;          // the engine's binary
    std::string match;           // branan-match
    std::string scripted_engine; // the tests' scripted engine
    std::string work_dir;        // logs and match records, kept after the run
    Clock::time_point end;
    uint64_t seed = 0;
    Tally* tally = nullptr;
    std::atomic<bool>* stop = nullptr;

    bool running() const { return !*stop && Clock::now() < end; }
    int64_t ms_left() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
    }
};

// The hnefatafl.org bot (7x7, 11x11 and 13x13, two games at once each)
// against the fake server, restarted with new faults every 20 to 60 s.
void run_hnefatafl_org_part(const SoakContext& c);
// The Bologna client as both players against the fake Bologna server, one
// game after another, most of them broken at a random state.
void run_bologna_part(const SoakContext& c);
// branan-match between Branan and a scripted engine that misbehaves.
void run_match_part(const SoakContext& c);
// A scripted GUI racing UCI commands at Branan; `racing` also changes Hash
// and Threads and quits at random (its memory is not judged).
void run_uci_part(const SoakContext& c, bool racing);
// A scripted OpenTafl host playing games with Branan over OTEP.
void run_otep_part(const SoakContext& c);

// The next line the child has written, if one is there now. (A read whose
// deadline has passed takes nothing from the pipe: a child whose output
// is read that way fills its pipe and blocks on its next line.)
bool ready_line(match::ChildProcess& child, std::string& line);

// Sleeps up to `ms`, waking early when the soak stops.
void nap(const SoakContext& c, int64_t ms);
// A uniform integer in [lo, hi].
int64_t pick(std::mt19937_64& rng, int64_t lo, int64_t hi);
// True with probability p.
bool chance(std::mt19937_64& rng, double p);

} // namespace branan::soak
