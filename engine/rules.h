#pragma once

// The rules description: every rule of every edition as data. Move
// generation, captures and the end of the game read only this (through the
// masks that Edition derives from it); no code path asks which edition it is.
//
// A rules string is OpenTafl's notation (see OTN.md) plus keys of our own for
// what that notation cannot say:
//   nocap:N   draw after N consecutive plies without a capture (0 = never)
//   repc:N    the repetition rule (tfr) fires at the N-th occurrence (2 or 3)
//   nomv:l|d  a side with no legal move loses, or the game is drawn
//   noatk:y|n defenders win when every attacker is captured
//   nrd:y|n   attackers win when no defender (king included) has an empty
//             square next to it (OpenTafl always checks this: default y)
//   ks:t      (a value of ours for ks) king strong on the throne only
//   hkp:y|n   hostility lists name pieces (y) or sides (n); see RulesReading
//   repw:N    the repetition rule compares a position with at most the N
//             previous plies (0 = every ply since the last capture)
//   camp:SQUARES, campu:PIECES
//             camps (Ashton's citadels): a piece of a kind in campu that
//             stands on a camp square may also pass over and stop on the
//             other squares of its own camp (the camp squares connected to
//             it through camp squares), whatever the special-square lists
//             say; from outside, the lists alone decide
//   tfr:a     (a value of ours for tfr) the repetition loses for the
//             defenders, whoever made it
//   repm:y|n  the repetition count leaves out the position a capture (or the
//             start) made: only positions made by non-capturing moves count
//   swr:o|r   the shieldwall as OpenTafl's scan finds it (o) or as
//             hnefatafl-rs checks it (r)
//   efr:o|r   the edge fort (efe) as OpenTafl checks it (o) or the exit
//             fort as hnefatafl-rs checks it (r)
//   surr:o|r  encirclement (surf) as OpenTafl checks it (o) or as
//             hnefatafl-rs checks it (r)
//             swr, efr and surr also take g: as hnefatafl.org's code
//             judges it (HNEFATAFL.md, column ORG)
//   dban:y|n  the defenders may never recreate an earlier board: a defender
//             move whose board, before its captures, equals the start board
//             or the board after any earlier move is illegal (hnefatafl.org)
//   dbans:y|n whether the start board is among those boards (n: the
//             hnefatafl.org server's 7x7 and 13x13 games, whose list starts
//             with the 11x11 start board)
//   cne:y|n   hnefatafl.org's "the defenders cannot escape" adjudication:
//             the attackers win when its tests say so (HNEFATAFL.md 1.6)
//   plyd:N    the game is drawn by its N-th ply, when that ply decides
//             nothing else (0 = never)
//
// Every key is one row of the table in rules_keys.cpp, which both
// parse_rules and print_rules walk; the presets are in presets.cpp.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "types.h"

namespace branan {

enum class EscapeType : uint8_t { CORNER, EDGE };

enum class KingStrength : uint8_t {
    STRONG,             // s: four sides everywhere (board edge protects)
    WEAK,               // w: two sides, like a soldier
    STRONG_NEAR_THRONE, // c: four sides on or next to the throne, else two
    STRONG_NOT_EDGE,    // m: four sides, and the board edge counts as a side
    STRONG_ON_THRONE,   // t (ours): four sides on the throne, else two
};

enum class KingArmed : uint8_t { YES, NO, ANVIL_ONLY, HAMMER_ONLY };

// OpenTafl's shieldwall capture (sw): none, walls closed by pieces only, or
// by pieces or a corner.
enum class Shieldwall : uint8_t { NONE, WEAK, STRONG };

// What happens at the repetition count (OpenTafl's tfr).
enum class RepetitionOutcome : uint8_t {
    DRAW,           // d
    MOVER_LOSES,    // w: the player whose move made the repetition loses
    MOVER_WINS,     // l: that player wins
    IGNORED,        // i
    DEFENDERS_LOSE, // a (ours): the defenders lose, whoever made it
};

// Whose code a rule is read from where codes judge it differently:
// OpenTafl's (OTN.md), hnefatafl-rs's COPENHAGEN ruleset (HNEFATAFL.md,
// column HRS), which the Federation's games agree with, or hnefatafl.org's
// (column ORG).
enum class RuleCode : uint8_t { OPENTAFL, HNEFATAFL_RS, HNEFATAFL_ORG };

// Jumps (OpenTafl's kj, nj, cj): over one adjacent enemy soldier onto the
// empty square beyond. NONE n; STANDARD j; CAPTURE c, the jumped piece is
// taken; RESTRICTED r, only from or onto a throne, corner or fort.
enum class Jump : uint8_t { NONE, STANDARD, CAPTURE, RESTRICTED };

// Berserk (ber): after a capture the same side moves again with the piece
// that captured, if it has a capturing move (CAPTURE, c) or any move
// (MOVE, m) from where it stands.
enum class Berserk : uint8_t { NONE, CAPTURE, MOVE };

// The kinds of special squares, each with its own lists of who may stop,
// pass, come back, and to whom it is hostile.
enum SpecialKind : uint8_t { CORNER, THRONE, ATTACKER_FORT, DEFENDER_FORT, SPECIAL_KINDS };

struct SpecialSquares {
    std::vector<Square> squares;
    PieceSet hostile_occupied = 0; // an occupied square of this kind is hostile to these
    PieceSet hostile_empty = 0;    // the empty square is hostile to these
    PieceSet may_pass = 0;
    PieceSet may_stop = 0;
    PieceSet may_reenter = 0; // may stop again after leaving (used as: stop = stop & reenter
                              // for pieces that do not start on such a square)
    bool operator==(const SpecialSquares&) const = default;
};

struct Rules {
    int size = 7;
    std::string name;
    EscapeType escape = EscapeType::CORNER;
    bool attackers_first = true;
    bool encirclement = false; // surf
    RepetitionOutcome repetition = RepetitionOutcome::DRAW;
    int repetition_count = 3;
    KingArmed king_armed = KingArmed::YES;
    KingStrength king_strength = KingStrength::STRONG;
    std::array<SpecialSquares, SPECIAL_KINDS> special;
    bool linnaean = false;                    // linc
    Shieldwall shieldwall = Shieldwall::NONE; // sw
    bool shieldwall_flank = true;             // swf: only the arriving end piece captures
    bool edge_fort = false;                   // efe: edge-fort escape
    int no_capture_limit = 0;                 // plies, 0 = none
    bool no_moves_loses = true;
    bool no_attackers_wins = true;
    bool no_defender_room_loses = true; // nrd
    int repetition_span = 0;            // repw: plies compared (0 = all since the last capture)
    bool repetition_moves_only = false; // repm: the position a capture made does not count
    RuleCode shieldwall_code = RuleCode::OPENTAFL;   // swr
    RuleCode edge_fort_code = RuleCode::OPENTAFL;    // efr
    RuleCode encirclement_code = RuleCode::OPENTAFL; // surr
    bool defender_repetition_ban = false;            // dban
    bool ban_includes_start = true;                  // dbans
    bool cannot_escape = false;                      // cne
    int draw_ply = 0;                                // plyd: 0 = none
    // spd: the most squares a piece of each kind moves at once (index by
    // Piece), 0 = no limit.
    std::array<int, PIECE_KINDS> speed{};
    Jump king_jump = Jump::NONE;          // kj
    Jump knight_jump = Jump::CAPTURE;     // nj
    Jump commander_jump = Jump::STANDARD; // cj
    Berserk berserk = Berserk::NONE;      // ber
    std::vector<Square> camps;            // camp (sorted)
    PieceSet camp_users = ALL_PIECES;     // campu
    // Start position as an OpenTafl record, rank 1 first.
    std::string start;

    bool operator==(const Rules&) const = default;
};

// How the hostility lists (corh, cenh, cenhe, aforh, dforh) name pieces.
// OpenTafl reads them by side: `t` the attackers, `T` the defenders and the
// king, other letters nothing. Ours read them by piece, so that a square can
// be hostile to defenders and not to the king (Brandubh's empty throne). A
// string says which with our key hkp:y (by piece) or hkp:n (by side);
// without it the caller's reading applies: by side for what an OpenTafl
// host sends, by piece elsewhere.
enum class RulesReading : uint8_t { BY_PIECE, BY_SIDE };

// Parses an OpenTafl rules string with our extension keys.
Result<Rules> parse_rules(std::string_view text, RulesReading reading = RulesReading::BY_PIECE);
// Prints the keys in the table's order, so that parse_rules(print_rules(r))
// == r (keys OpenTafl's strings never need only where they say something).
std::string print_rules(const Rules& rules);

// A preset: an edition's name and its rules string (presets.cpp).
struct Preset {
    const char* name;
    std::string rules;
    RulesReading reading = RulesReading::BY_PIECE; // BY_SIDE: OpenTafl's own strings
};
// The preset table. The first entry is the default.
const std::vector<Preset>& presets();
Result<Rules> preset_rules(std::string_view name);
// The preset whose rules equal `rules`, if any.
std::optional<std::string> preset_of(const Rules& rules);
// hnefatafl.org's preset for one of its board sizes, with the server's
// counts; nullptr for a size Branan does not play there (13 until boards
// above 11x11 come).
const char* hnefatafl_org_preset(int size);
std::string_view default_preset_name();

} // namespace branan
