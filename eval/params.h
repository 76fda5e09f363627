#pragma once

// Evaluation weights: every weight is a named parameter in one table (name,
// range, the term it belongs to); its value in each default set comes from
// that set's file in eval/weights/. A set of values is an EvalParams; it
// reads and writes as text, one `name = value` line per weight.
//
// Each weight belongs to one side ("owner"): its feature is counted for that
// side and the weight is what one unit of the feature is worth to that side
// (a negative weight is a penalty). The evaluation, from the attackers' view,
// is  sum over weights of  weight * (coefficient for attackers - coefficient
// for defenders);  see evaluate.h for the trace of those coefficients.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules.h"

namespace branan {

// The weights, in table order. X(id, name, min, max, term, owner,
// description). The default values are data, not code: one weight file per
// default set in eval/weights/ ("corner": corner-escape games (Brandubh);
// "corner_weak": corner-escape games with a king captured by two attackers
// (house Brandubh); "edge": edge-escape games (Tablut); "corner_large":
// corner-escape games on 10x10 and 11x11 boards (Fetlar, Copenhagen)),
// written by the tuner (tools/tune) and compiled in by eval/CMakeLists.txt
// (default_weights.h).
#define BRANAN_EVAL_PARAMS(X)                                                                      \
    X(ATTACKER_PIECE, "attacker_piece", 0, 1000, MATERIAL, ATTACKERS,                              \
      "each attacker on the board")                                                                \
    X(DEFENDER_PIECE, "defender_piece", 0, 1000, MATERIAL, DEFENDERS,                              \
      "each defender (not the king) on the board")                                                 \
    X(ATTACKER_PIECE_LATE, "attacker_piece_late", -50, 50, MATERIAL, ATTACKERS,                    \
      "each attacker, per soldier already captured (material grows with the phase)")               \
    X(DEFENDER_PIECE_LATE, "defender_piece_late", -50, 50, MATERIAL, DEFENDERS,                    \
      "each defender, per soldier already captured")                                               \
    X(ESCAPE_ROUTE_TO_MOVE, "escape_route_to_move", 0, 10000, ESCAPE, DEFENDERS,                   \
      "defenders to move and the king has a free line to an escape square")                        \
    X(ESCAPE_ROUTES_TWO, "escape_routes_two", 0, 10000, ESCAPE, DEFENDERS,                         \
      "attackers to move, they cannot capture the king, and he has free lines to two escape "      \
      "squares, or one that no attacker can step onto")                                            \
    X(ESCAPE_ROUTE_ONE, "escape_route_one", 0, 2000, ESCAPE, DEFENDERS,                            \
      "attackers to move, they cannot capture the king, and he has one free line to an escape "    \
      "square that they can block")                                                                \
    X(ESCAPE_DISTANCE_2, "escape_distance_2", 0, 1000, ESCAPE, DEFENDERS,                          \
      "the nearest escape square is two king moves away")                                          \
    X(ESCAPE_DISTANCE_3, "escape_distance_3", 0, 1000, ESCAPE, DEFENDERS,                          \
      "the nearest escape square is three king moves away")                                        \
    X(ESCAPE_THREAT_SQUARES, "escape_threat_squares", 0, 500, ESCAPE, DEFENDERS,                   \
      "each square the king can move to that has a free line to an escape square")                 \
    X(ESCAPE_FORK_SQUARES, "escape_fork_squares", 0, 1000, ESCAPE, DEFENDERS,                      \
      "each square the king can move to that has free lines to two escape squares")                \
    X(ESCAPE_FORK_TO_MOVE, "escape_fork_to_move", 0, 5000, ESCAPE, DEFENDERS,                      \
      "defenders to move, no free line yet, and the king can move to a square with two")           \
    X(ESCAPE_XRAY_ROUTES, "escape_xray_routes", 0, 500, ESCAPE, DEFENDERS,                         \
      "each escape line of the king blocked by defenders only (a defender move opens it)")         \
    X(ESCAPE_REGION, "escape_region", 0, 500, RING, DEFENDERS,                                     \
      "each escape square the attackers have not sealed off from the king")                        \
    X(KING_ENCLOSED, "king_enclosed", -1000, 1000, RING, ATTACKERS,                                \
      "the attackers' ring cuts the king off from every escape square")                            \
    X(KING_ROOM_SHRUNK, "king_room_shrunk", 0, 100, RING, ATTACKERS,                               \
      "the attackers' ring is closed: each square by which the king's room inside it is smaller "  \
      "than 64 (the way to taking him)")                                                           \
    X(ATTACKER_DIAGONAL_LINK, "attacker_diagonal_link", -100, 100, RING, ATTACKERS,                \
      "each pair of diagonally adjacent attackers (links of a closing ring)")                      \
    X(KING_MOBILITY, "king_mobility", 0, 100, KING, DEFENDERS, "each square the king can move to") \
    X(LONE_KING_MOBILITY, "lone_king_mobility", 0, 200, KING, DEFENDERS,                           \
      "the king alone, no defender left: each square he can move to (the attackers' way to "       \
      "leaving him no move)")                                                                      \
    X(KING_ON_THRONE, "king_on_throne", -500, 500, KING, DEFENDERS,                                \
      "the king stands on the throne")                                                             \
    X(KING_BESIDE_THRONE, "king_beside_throne", -500, 500, KING, DEFENDERS,                        \
      "the king stands next to the throne")                                                        \
    X(KING_ADJACENT_ATTACKER, "king_adjacent_attacker", -500, 500, KING, ATTACKERS,                \
      "each attacker next to the king")                                                            \
    X(KING_ADJACENT_HOSTILE, "king_adjacent_hostile", -500, 500, KING, ATTACKERS,                  \
      "each hostile square next to the king (an empty hostile square, or the board edge "          \
      "where it helps capture him)")                                                               \
    X(KING_ADJACENT_DEFENDER, "king_adjacent_defender", -500, 500, KING, DEFENDERS,                \
      "each defender next to the king (his shield)")                                               \
    X(FORT_KING_ON_EDGE, "fort_king_on_edge", -500, 500, KING, DEFENDERS,                          \
      "edge-fort games: the king stands on the board's edge")                                      \
    X(FORT_DEFENDERS, "fort_defenders", -200, 200, KING, DEFENDERS,                                \
      "edge-fort games: each defender on the eight squares around the king while he stands on "    \
      "the edge")                                                                                  \
    X(KING_CAPTURE_THREAT, "king_capture_threat", 0, 10000, KING, ATTACKERS,                       \
      "attackers to move and an attacker can capture the king")                                    \
    X(KING_CAPTURE_THREAT_DEFER, "king_capture_threat_defer", 0, 2000, KING, ATTACKERS,            \
      "defenders to move and an attacker could capture the king (they must answer)")               \
    X(GUARD_ADJACENT, "guard_adjacent", -200, 200, GUARDS, ATTACKERS,                              \
      "each attacker on a square next to an escape square")                                        \
    X(GUARD_DIAGONAL, "guard_diagonal", -200, 200, GUARDS, ATTACKERS,                              \
      "each attacker on a square diagonal to an escape square")                                    \
    X(GUARD_SECOND, "guard_second", -200, 200, GUARDS, ATTACKERS,                                  \
      "each attacker two squares from an escape square along a line")                              \
    X(ATTACKER_ON_ESCAPE, "attacker_on_escape", -200, 200, GUARDS, ATTACKERS,                      \
      "each attacker standing on an escape square (edge-escape games)")                            \
    X(ATTACKER_EXPOSED, "attacker_exposed", -500, 500, SAFETY, ATTACKERS,                          \
      "each attacker a defender could capture with one move")                                      \
    X(DEFENDER_EXPOSED, "defender_exposed", -500, 500, SAFETY, DEFENDERS,                          \
      "each defender an attacker could capture with one move")                                     \
    X(ATTACKER_WALL_EXPOSED, "attacker_wall_exposed", -500, 500, SAFETY, ATTACKERS,                \
      "shieldwall games: each attacker on the edge, next to another attacker there, with a "       \
      "defender on the square inside it")                                                          \
    X(DEFENDER_WALL_EXPOSED, "defender_wall_exposed", -500, 500, SAFETY, DEFENDERS,                \
      "shieldwall games: each defender on the edge, next to another defender or the king there, "  \
      "with an attacker on the square inside it")                                                  \
    X(ATTACKER_MOBILITY, "attacker_mobility", -100, 100, MOBILITY, ATTACKERS,                      \
      "each empty square some attacker can move to")                                               \
    X(DEFENDER_MOBILITY, "defender_mobility", -100, 100, MOBILITY, DEFENDERS,                      \
      "each empty square some defender (not the king) can move to")                                \
    X(SIDE_TO_MOVE, "side_to_move", -200, 200, TEMPO, BOTH,                                        \
      "the side to move (counted for whichever side it is)")

enum ParamId : int {
#define BRANAN_X(id, ...) id,
    BRANAN_EVAL_PARAMS(BRANAN_X)
#undef BRANAN_X
        PARAM_COUNT
};

// The groups the breakdown reports.
enum class EvalTerm : uint8_t { MATERIAL, ESCAPE, RING, KING, GUARDS, SAFETY, MOBILITY, TEMPO };
constexpr int EVAL_TERM_COUNT = 8;
const char* term_name(EvalTerm term);

// Whose feature a weight measures. BOTH: counted for each side separately.
enum class ParamOwner : uint8_t { ATTACKERS, DEFENDERS, BOTH };

// A default set: one file eval/weights/<name>.txt, compiled in. The value
// is the file's place among them in the order of their names: adding a file
// adds a set, with nothing to declare (see eval/CMakeLists.txt).
enum class DefaultSet : uint8_t {};
// Every default set, in the order of their names.
const std::vector<DefaultSet>& all_default_sets();
const char* default_set_name(DefaultSet set);
// By name; nullopt for a name that is not a default set.
std::optional<DefaultSet> find_default_set(std::string_view name);
// The names, comma separated ("corner, corner_large, ..."), for messages.
std::string default_set_names();

struct ParamInfo {
    const char* name;
    int min, max;
    // From the compiled-in weight files (eval/weights/*.txt), by DefaultSet.
    std::vector<int> defaults;
    EvalTerm term;
    ParamOwner owner;
    const char* description;

    int default_in(DefaultSet set) const { return defaults[size_t(set)]; }
};

// Index by ParamId.
const std::vector<ParamInfo>& param_table();
// By name, ignoring ASCII case (as protocol option names do).
std::optional<ParamId> find_param(std::string_view name);

struct EvalParams {
    std::array<int, PARAM_COUNT> w;

    EvalParams(); // the base set (BASE_DEFAULT_SET)
    struct Zero {};
    explicit EvalParams(Zero) : w{} {} // every weight 0
    int operator[](ParamId id) const { return w[id]; }
    int& operator[](ParamId id) { return w[id]; }
    bool operator==(const EvalParams&) const = default;
};

// The set of EvalParams{}, and of rules no other set fits.
constexpr std::string_view BASE_DEFAULT_SET = "corner";

// The compiled-in default sets, parsed from eval/weights/<set>.txt at the
// first call (a file that does not parse stops the program with the error:
// tests/test_tune.cpp parses each one, so such a file fails the tests).
EvalParams default_params(DefaultSet set);
// The same by name, which must be a default set's (the program stops on
// another: for names the code holds; check a user's with find_default_set).
EvalParams default_params(std::string_view set_name);
// Which default set fits the rules: the first that fits in the table of
// choices in params.cpp (SET_CHOICES).
DefaultSet default_set_for(const Rules& rules);
EvalParams default_params(const Rules& rules);

// Reads `name = value` lines; '#' starts a comment; blank lines are
// ignored. Every weight must be given exactly once. Errors name the line.
Result<EvalParams> load_params(std::string_view text);
// As load_params, but weights the text leaves out keep their value in `base`.
Result<EvalParams> load_params(std::string_view text, const EvalParams& base);
Result<EvalParams> load_params_file(const std::string& path);
Result<EvalParams> load_params_file(const std::string& path, const EvalParams& base);
// Every weight, one line each, with its range and meaning as a comment.
std::string save_params(const EvalParams& params);
Status save_params_file(const EvalParams& params, const std::string& path);

// Range-checked; the error names the weight and its range.
Status set_param(EvalParams& params, std::string_view name, int value);
Status set_param(EvalParams& params, ParamId id, int value);
int get_param(const EvalParams& params, ParamId id);
// The value of a named weight; an unknown name is an error.
Result<int> get_param(const EvalParams& params, std::string_view name);

} // namespace branan
