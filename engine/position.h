#pragma once

// Position: the placement, side to move, counters, Zobrist key and history
// of one game. make_move/unmake_move are exact inverses; captures and the
// end of the game follow the Edition's data.

#include <algorithm>
#include <string>
#include <vector>

#include "adjudication.h"
#include "bitboard.h"
#include "edge_fort.h"
#include "edition.h"
#include "game_record.h"
#include "zobrist.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

// What make_move must remember to undo itself, and what the end-of-game
// checks need about the past. One per ply, kept in a stack and copied per
// ply, so it stays small (64 bytes):
//   captured      every square the move emptied by capturing, ordinary and
//                 shieldwall captures alike, any number of them. A captured
//                 piece is always a soldier of the side that did not move,
//                 except a captured king (captured_king), so the squares
//                 alone put them back.
//   developed     the squares of the pieces that have moved at least once,
//                 after this move. Only shieldwall captures with swf:y read
//                 it; it is not part of the Zobrist key (docs/rules.md).
struct StateInfo {
    Bitboard captured = 0; // squares emptied by the move's captures
    Bitboard developed = 0;
    uint64_t key = 0; // Zobrist key of the position after the move
    int plies_since_capture = 0;
    int repetition_window = 0; // plies since the last capture or null move
    int fullmove = 1;
    Move move;                         // the move that led here (MOVE_NONE at the root)
    int16_t captured_king = NO_SQUARE; // where the king was captured, if he was
    GameResult decided;                // king captured / escaped / no attackers, set by make_move
    int16_t berserker = NO_SQUARE;     // the piece an open berserk chain moves on with
};
static_assert(sizeof(StateInfo) == 32 + 2 * sizeof(Bitboard) || BRANAN_BOARD_BITS != 128,
              "StateInfo is copied per ply: keep it to 64 bytes on boards up to 11x11");
// The key as repetition compares it: without an open chain's berserker
// (OpenTafl's key holds the board and the side to move).
inline uint64_t repetition_key(const StateInfo& st) {
    return st.berserker == NO_SQUARE ? st.key : st.key ^ zobrist::berserker[st.berserker];
}

class Position {
  public:
    // The start position of the edition.
    explicit Position(EditionPtr edition);

    // A position from a placement; validates what the rules forbid.
    static Result<Position> from_placement(EditionPtr edition, const Placement& board, Side to_move,
                                           int plies_since_capture, int fullmove);

    // The game as a record (its root and the moves since), and back: a
    // position rebuilt from its record, by any board width, has the same
    // history, keys and ban list. (The root's pieces count as moved as in
    // from_placement, which only clear_history can make differ.)
    GameRecord record() const;
    static Result<Position> from_record(EditionPtr edition, const GameRecord& record);

    const Edition& edition() const { return *edition_; }
    const EditionPtr& edition_ptr() const { return edition_; }
    int size() const { return edition_->size; }

    // The piece on s as the rules' tables know it: a commander or knight is
    // a soldier of its side (see is_special, placed_piece).
    Piece piece_on(Square s) const { return board_[s]; }
    // OpenTafl's commanders and knights (engine/berserk.h), of either side.
    Bitboard commanders() const { return commanders_; }
    Bitboard knights() const { return knights_; }
    bool is_special(Square s) const { return test(commanders_ | knights_, s); }
    // The piece on s as placements and the text formats name it.
    Piece placed_piece(Square s) const;
    // The whole board as a placement.
    Placement placement() const;
    // The square of the piece an open berserk chain must move on with, or
    // NO_SQUARE: the side to move is still the one that captured.
    Square berserker() const { return state().berserker; }
    // The key as repetition compares it: an open chain left out.
    uint64_t repetition_key() const { return branan::BRANAN_BOARD_NS::repetition_key(state()); }
    Bitboard pieces(Piece p) const { return by_piece_[p]; }
    Bitboard pieces(Side s) const {
        return s == ATTACKERS ? by_piece_[ATTACKER] : by_piece_[DEFENDER] | by_piece_[KING];
    }
    Bitboard occupied() const { return occupied_; }
    // Occupancy of one rank (bit f = file f) or one file (bit r = rank r).
    // Lines are numbered as in Edition: rank r is line r, file f is line
    // MAX_SIZE + f.
    unsigned rank_occupancy(int rank) const { return line_occ_[rank_line(rank)]; }
    unsigned file_occupancy(int file) const { return line_occ_[file_line(file)]; }
    unsigned line_occupancy(int line) const { return line_occ_[line]; }
    Square king_square() const { return king_; }
    Side side_to_move() const { return side_; }
    uint64_t key() const { return state().key; }
    // The key after m if it captures nothing (for prefetching before the
    // move is made).
    uint64_t key_after(Move m) const {
        const Piece p = board_[m.from()];
        return key() ^ zobrist::piece_square[p][m.from()] ^ zobrist::piece_square[p][m.to()] ^
               zobrist::side;
    }
    int plies_since_capture() const { return state().plies_since_capture; }
    int fullmove() const { return state().fullmove; }
    int game_ply() const { return int(history_.size()) - 1; }
    // Plies played since the game's start, counted from the move number
    // (so it survives clear_history and comes with a TFEN).
    int plies_played() const { return 2 * (fullmove() - 1) + (side_ != edition_->start_side); }
    Move last_move() const { return state().move; }
    // After make_move: the piece its captures took from square s (one of
    // last_captured()), as placements name it.
    Piece captured_piece(Square s) const;
    Bitboard last_captured() const { return state().captured; }
    // The squares of the pieces that have moved at least once (see StateInfo).
    Bitboard developed() const { return state().developed; }

    void make_move(Move m);
    void unmake_move();
    // A pass for null-move search: only the side to move changes.
    void make_null();
    void unmake_null();

    // Game over by king capture, king escape or no attackers (the checks
    // that need no history or move generation). Perft stops here.
    const GameResult& decided() const { return state().decided; }
    // How often the current position has occurred in the game so far,
    // this occurrence included.
    int occurrences() const;
    // Full end-of-game check in the order of RULES.md.
    GameResult result() const;
    // Every ply's state since the root (the start, a TFEN or clear_history),
    // the root first and the current position last: the keys and repetition
    // windows a search needs to judge the game's history.
    const std::vector<StateInfo>& states() const { return history_; }

    // Whether the defenders' repetition ban (dban) applies to the side to
    // move, and whether it refuses m: its board before captures is an
    // earlier board.
    bool ban_applies() const { return !ban_filter_.empty() && side_ == DEFENDERS; }
    bool recreates_board(Move m) const { return ban_applies() && banned_board(m); }

    // Zobrist key computed from scratch (for checking the incremental one).
    uint64_t compute_key() const;
    // Forget the history before the current position (it becomes the root).
    void clear_history();

  private:
    explicit Position(EditionPtr edition, bool);
    const StateInfo& state() const { return history_.back(); }
    void put(Piece p, Square s);
    // put for a placement's piece, commanders and knights included.
    void place(Piece p, Square s);
    void remove(Square s);
    void move_piece(Piece p, Square from, Square to);
    void set_decided(StateInfo& st, Side mover) const;
    // make_move and unmake_move for editions with special moves.
    void make_special_move(Move m);
    void unmake_special_move();
    // Removes a captured piece, its key and its special bits.
    uint64_t capture(Square s);
    // The key of the placement alone (the side to move left out).
    uint64_t board_key() const;
    bool banned_board(Move m) const;
    // The list of boards, empty or with the first board (dbans).
    void start_ban_list();
    void remember_board();

    EditionPtr edition_;
    std::array<Piece, MAX_SQUARES> board_{};
    std::array<Bitboard, PIECE_KINDS> by_piece_{};
    Bitboard occupied_ = 0;
    LineBits line_occ_[LINES]{};
    Square king_ = NO_SQUARE;
    Side side_ = ATTACKERS;
    std::vector<StateInfo> history_;
    // Special moves only: the commanders and knights, and their bitboards
    // before each move of history_ (a capture takes them off the board).
    Bitboard commanders_ = 0, knights_ = 0;
    std::vector<std::array<Bitboard, 2>> specials_before_;
    // dban: the boards the defenders may not recreate, oldest first, and
    // a count per slot of their keys' low bits, so that most moves are
    // cleared without a scan. Both empty when the rules have no ban. Kept
    // apart from history_: null moves add no board, clear_history keeps them.
    std::vector<uint64_t> boards_;
    std::vector<uint16_t> ban_filter_;
};

// Whether the defenders are shut in: none on the edge or next to an empty
// square connected to the edge through empty squares.
bool encircled(const Edition& edition, Bitboard defenders, Bitboard occupied);

// Encirclement as hnefatafl-rs and hnefatafl.org check it (surr:r, surr:g,
// HNEFATAFL.md 1.4): the region flooded from the king through empty squares
// and defenders, stopped by attackers, reaches no edge square and holds
// every defender. hnefatafl-rs (`ring_safety`) also wants no attacker next
// to it that could be captured: on each axis one of its neighbours is off
// the board, an attacker, or outside the region and not an empty corner or
// throne.
bool enclosed(const Edition& edition, Bitboard attackers, Bitboard defenders, Square king,
              bool ring_safety);

// Game over by king capture, king escape, no attackers, no room for the
// defenders, an edge fort, encirclement, the ply limit or hnefatafl.org's
// adjudication, read from the pieces (`defenders` includes the king; `king`
// is NO_SQUARE once he is captured) after a move of `mover` that makes
// `plies` plies since the start. Position keeps it per ply; perft's reply
// counting asks it about moves not made. hnefatafl-rs looks for its exit
// fort after the defenders' moves only and its encirclement after the
// attackers' (efr:r, surr:r); OpenTafl and hnefatafl.org after every move.
// The order is hnefatafl.org's (HNEFATAFL.md 1.8) where it matters: the ply
// limit after every other end, the adjudication last.
inline GameResult decided_by_pieces(const Edition& edition, Bitboard attackers, Bitboard defenders,
                                    Bitboard occupied, Square king, Side mover, int plies) {
    if (king == NO_SQUARE) return {Winner::ATTACKERS, EndReason::KING_CAPTURED};
    if (test(edition.escape, king)) return {Winner::DEFENDERS, EndReason::KING_ESCAPED};
    if (edition.rules.no_attackers_wins && !attackers)
        return {Winner::DEFENDERS, EndReason::NO_ATTACKERS};
    if (edition.rules.no_defender_room_loses && !(edition.neighbours(defenders) & ~occupied))
        return {Winner::ATTACKERS, EndReason::NO_DEFENDER_ROOM};
    if (edition.rules.edge_fort) {
        bool fort = false;
        switch (edition.rules.edge_fort_code) {
        case RuleCode::OPENTAFL:
            fort = edge_fort_escape(edition, attackers, defenders, king);
            break;
        case RuleCode::HNEFATAFL_RS:
            fort = mover == DEFENDERS && exit_fort(edition, attackers, defenders, king);
            break;
        case RuleCode::HNEFATAFL_ORG:
            fort = reached_exit_fort(edition, attackers, defenders, king);
            break;
        }
        if (fort) return {Winner::DEFENDERS, EndReason::EDGE_FORT};
    }
    if (edition.rules.encirclement) {
        bool shut = false;
        switch (edition.rules.encirclement_code) {
        case RuleCode::OPENTAFL:
            shut = encircled(edition, defenders, occupied);
            break;
        case RuleCode::HNEFATAFL_RS:
            shut = mover == ATTACKERS && enclosed(edition, attackers, defenders, king, true);
            break;
        case RuleCode::HNEFATAFL_ORG:
            shut = enclosed(edition, attackers, defenders, king, false);
            break;
        }
        if (shut) return {Winner::ATTACKERS, EndReason::ENCIRCLED};
    }
    if (edition.rules.draw_ply && plies >= edition.rules.draw_ply)
        return {Winner::DRAW, EndReason::PLY_LIMIT};
    if (edition.rules.cannot_escape && cannot_escape(edition, attackers, defenders, king))
        return {Winner::ATTACKERS, EndReason::CANNOT_ESCAPE};
    return {};
}

// How many plies back a repetition count looks (repw, repm), given the
// plies since the last capture (or null move): the position at the start
// of that window is left out under repm (a capture, or the root, made it).
inline int repetition_reach(const Rules& r, int window) {
    int reach = r.repetition_span ? std::min(r.repetition_span, window) : window;
    if (r.repetition_moves_only && reach == window) --reach;
    return reach;
}

// Who wins when the repetition rule fires on a position `mover` made:
// Winner::NONE when the rules ignore repetition.
Winner repetition_winner(RepetitionOutcome outcome, Side mover);

// Checks what the rules forbid in a placement: exactly one king, no soldier
// on a square where it may not stop.
Status validate_placement(const Edition& edition, const Placement& board);

} // namespace BRANAN_BOARD_NS
} // namespace branan
