#pragma once

// Match statistics: Elo difference from a score with its 95% interval, the
// likelihood of superiority, and the sequential probability ratio test
// (SPRT) with the trinomial (one game = one sample) or the pentanomial (one
// game pair, same opening with sides swapped = one sample) model.
//
// Formulas, and where they come from:
//   score s = (W + D/2) / N;  Elo(s) = -400 * log10(1/s - 1)
//     (the logistic Elo model; cutechess-cli elo.cpp Elo::diff, fishtest stat_util.py elo)
//   per-sample variance  var = sum_i p_i * (x_i - s)^2  over the observed frequencies
//     p_i of the outcomes x_i (0, 1/2, 1 per game; 0, 1/4, ..., 1 per pair, normalised
//     to one game), standard error  se = sqrt(var / n)  with n samples;
//   95% interval  [Elo(s - 1.959964 se), Elo(s + 1.959964 se)], and the error shown as
//     +- half its width (cutechess-cli elo.cpp Elo::errorMargin);
//   LOS = 1/2 * (1 + erf((W - L) / sqrt(2 (W + L))))  (cutechess-cli elo.cpp Elo::LOS);
//   SPRT log-likelihood ratio, generalised SPRT in its normal approximation
//     (fishtest stat_util.py LLR_logistic, M. Van den Bergh's GSPRT note):
//       s0 = 1 / (1 + 10^(-elo0/400)), s1 likewise,
//       LLR = n * (s1 - s0) * (2 s - s0 - s1) / (2 var)
//     with n, s and var per sample as above; bounds  A = ln(beta / (1 - alpha)),
//     B = ln((1 - beta) / alpha): accept H0 when LLR <= A, H1 when LLR >= B.

#include <array>
#include <cstdint>
#include <string>

namespace branan::match {

// Elo difference that a mean score s (0 < s < 1) stands for; +-inf at the ends.
double elo_from_score(double s);
// The score that an Elo difference stands for.
double score_from_elo(double elo);

// Outcome counts. Trinomial: losses, draws, wins of the first engine.
// Pentanomial: game pairs scoring 0, 1/2, 1, 3/2, 2 points for the first engine.
struct Trinomial {
    std::array<int64_t, 3> n{}; // [loss, draw, win]
    int64_t wins() const { return n[2]; }
    int64_t draws() const { return n[1]; }
    int64_t losses() const { return n[0]; }
    int64_t games() const { return n[0] + n[1] + n[2]; }
};
struct Pentanomial {
    std::array<int64_t, 5> n{}; // pair score 0, 0.5, 1, 1.5, 2
    int64_t pairs() const { return n[0] + n[1] + n[2] + n[3] + n[4]; }
};

// Mean and variance of one sample, normalised to one game (scores in [0, 1]).
struct Moments {
    int64_t samples = 0;
    double mean = 0.5;
    double variance = 0;
};
Moments moments(const Trinomial& t);
Moments moments(const Pentanomial& p);

struct EloEstimate {
    double score = 0.5; // mean score of the first engine
    double elo = 0;
    double lower = 0, upper = 0; // 95% interval
    double error = 0;            // half its width (+-)
    bool valid = false;          // false with no samples
};
EloEstimate estimate(const Moments& m);
// Likelihood of superiority of the first engine (draws ignored).
double los(const Trinomial& t);

struct SprtParams {
    double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
    double lower_bound() const; // ln(beta / (1 - alpha))
    double upper_bound() const; // ln((1 - beta) / alpha)
};
// LLR of the samples summarised by m (0 when the variance is 0).
double llr(const Moments& m, double elo0, double elo1);

enum class SprtDecision { CONTINUE, H0, H1 };
SprtDecision sprt_decision(double llr_value, const SprtParams& p);
const char* to_string(SprtDecision d);

// "+12.3 +- 4.5" style helpers for the progress line and the tables.
std::string format_elo(const EloEstimate& e);

} // namespace branan::match
