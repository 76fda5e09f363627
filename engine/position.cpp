#include "position.h"

#include <algorithm>
#include <cassert>

#include "berserk.h"
#include "capture.h"
#include "coordinates.h"
#include "movegen.h"
#include "shieldwall.h"

namespace branan {
inline namespace BRANAN_BOARD_NS {

namespace {
// Slots of the repetition ban's filter: a game of a few hundred plies
// leaves most of them empty.
constexpr uint64_t BAN_FILTER_SLOTS = 1024;
} // namespace

Status validate_placement(const Edition& edition, const Placement& board) {
    int kings = 0;
    for (Square s = 0; s < edition.num_squares; ++s) {
        const Piece p = base_kind(board[s]);
        if (p == KING) ++kings;
        // Where a piece may not arrive it may still stand, if it could have
        // started there (Ashton's camps, OpenTafl's forts).
        if ((p == ATTACKER || p == DEFENDER) && !test(edition.may_stand[p], s)) {
            const std::string sq = square_text(edition.size, s);
            return Error{std::string(p == ATTACKER ? "an attacker" : "a defender") + " on " + sq +
                         ", where the rules do not let it stand"};
        }
    }
    for (Square s = edition.num_squares; s < MAX_SQUARES; ++s)
        if (board[s] != NO_PIECE) return Error{"a piece off the board"};
    if (kings == 0) return Error{"no king"};
    if (kings > 1) return Error{std::to_string(kings) + " kings (exactly one expected)"};
    return {};
}

Position::Position(EditionPtr edition, bool) : edition_(std::move(edition)) {}

Position::Position(EditionPtr edition) : Position(std::move(edition), true) {
    history_.reserve(256);
    history_.emplace_back();
    for (Square s = 0; s < edition_->num_squares; ++s)
        if (edition_->start[s] != NO_PIECE) place(edition_->start[s], s);
    side_ = edition_->start_side;
    history_.back().key = compute_key();
    set_decided(history_.back(), ~side_);
    start_ban_list();
}

Result<Position> Position::from_placement(EditionPtr edition, const Placement& board, Side to_move,
                                          int plies_since_capture, int fullmove) {
    if (Status st = validate_placement(*edition, board); !st) return Error{st.error()};
    if (plies_since_capture < 0) return Error{"negative plies since capture"};
    if (fullmove < 1) return Error{"move number must be at least 1"};
    if (!edition->special_moves)
        for (Square s = 0; s < edition->num_squares; ++s)
            if (board[s] > KING)
                return Error{"commanders and knights only in games that start with them or have "
                             "jumps or berserk chains"};
    Position pos(std::move(edition), true);
    pos.history_.reserve(256);
    pos.history_.emplace_back();
    for (Square s = 0; s < pos.edition_->num_squares; ++s)
        if (board[s] != NO_PIECE) pos.place(board[s], s);
    pos.side_ = to_move;
    StateInfo& st = pos.history_.back();
    st.key = pos.compute_key();
    // Which pieces have moved is not in a TFEN: a piece on a square where
    // the start position has a piece of its kind counts as never moved,
    // every other piece as moved (docs/rules.md, shieldwall quirk 2).
    for (Square s = 0; s < pos.edition_->num_squares; ++s)
        if (board[s] != NO_PIECE && board[s] != pos.edition_->start[s])
            st.developed |= square_bb(s);
    st.plies_since_capture = plies_since_capture;
    st.repetition_window = 0;
    st.fullmove = fullmove;
    pos.set_decided(st, ~to_move);
    // The boards before a TFEN are unknown: the given one is the first.
    pos.start_ban_list();
    return pos;
}

GameRecord Position::record() const {
    GameRecord r;
    Position root = *this;
    while (root.history_.size() > 1) {
        assert(root.last_move());
        r.moves.push_back(root.last_move());
        root.unmake_move();
    }
    std::reverse(r.moves.begin(), r.moves.end());
    r.root = root.placement();
    r.side_to_move = root.side_;
    r.plies_since_capture = root.plies_since_capture();
    r.fullmove = root.fullmove();
    return r;
}

Result<Position> Position::from_record(EditionPtr edition, const GameRecord& record) {
    auto pos = from_placement(std::move(edition), record.root, record.side_to_move,
                              record.plies_since_capture, record.fullmove);
    if (!pos) return pos;
    for (Move m : record.moves) {
        if (!is_legal(*pos, m)) return Error{"the game's moves are not legal on this board"};
        pos->make_move(m);
    }
    return pos;
}

Piece Position::placed_piece(Square s) const {
    const Piece p = board_[s];
    if (test(commanders_, s)) return p == ATTACKER ? ATTACKER_COMMANDER : DEFENDER_COMMANDER;
    if (test(knights_, s)) return p == ATTACKER ? ATTACKER_KNIGHT : DEFENDER_KNIGHT;
    return p;
}

Piece Position::captured_piece(Square s) const {
    const StateInfo& st = state();
    assert(test(st.captured, s));
    if (s == st.captured_king) return KING;
    // The mover stands on the move's square; the captured are the others.
    const bool attackers_captured = side_of(board_[st.move.to()]) == DEFENDERS;
    if (edition_->special_moves && !specials_before_.empty()) {
        const auto& [commanders, knights] = specials_before_.back();
        if (test(commanders, s))
            return attackers_captured ? ATTACKER_COMMANDER : DEFENDER_COMMANDER;
        if (test(knights, s)) return attackers_captured ? ATTACKER_KNIGHT : DEFENDER_KNIGHT;
    }
    return attackers_captured ? ATTACKER : DEFENDER;
}

Placement Position::placement() const {
    Placement board{};
    for (Square s = 0; s < edition_->num_squares; ++s) board[s] = placed_piece(s);
    return board;
}

void Position::place(Piece p, Square s) {
    put(base_kind(p), s);
    if (is_commander(p)) commanders_ |= square_bb(s);
    if (is_knight(p)) knights_ |= square_bb(s);
}

void Position::put(Piece p, Square s) {
    const Edition& edition = *edition_;
    board_[s] = p;
    by_piece_[p] |= square_bb(s);
    occupied_ |= square_bb(s);
    const int f = edition.file[s], r = edition.rank[s];
    const LineBits rank_bit = LineBits(1 << f), file_bit = LineBits(1 << r);
    line_occ_[rank_line(r)] |= rank_bit;
    line_occ_[file_line(f)] |= file_bit;
    if (p == KING) king_ = s;
}

void Position::remove(Square s) {
    const Edition& edition = *edition_;
    const Piece p = board_[s];
    board_[s] = NO_PIECE;
    by_piece_[p] &= ~square_bb(s);
    occupied_ &= ~square_bb(s);
    const int f = edition.file[s], r = edition.rank[s];
    const LineBits rank_bit = LineBits(1 << f), file_bit = LineBits(1 << r);
    line_occ_[rank_line(r)] ^= rank_bit;
    line_occ_[file_line(f)] ^= file_bit;
    if (p == KING) king_ = NO_SQUARE;
}

void Position::move_piece(Piece p, Square from, Square to) {
    const Edition& edition = *edition_;
    const Bitboard from_to = square_bb(from) | square_bb(to);
    board_[from] = NO_PIECE;
    board_[to] = p;
    by_piece_[p] ^= from_to;
    occupied_ ^= from_to;
    const int ff = edition.file[from], fr = edition.rank[from], tf = edition.file[to],
              tr = edition.rank[to];
    line_occ_[rank_line(fr)] ^= LineBits(1 << ff);
    line_occ_[file_line(ff)] ^= LineBits(1 << fr);
    line_occ_[rank_line(tr)] ^= LineBits(1 << tf);
    line_occ_[file_line(tf)] ^= LineBits(1 << tr);
    if (p == KING) king_ = to;
}

uint64_t Position::compute_key() const {
    uint64_t k = 0;
    for (Square s = 0; s < edition_->num_squares; ++s)
        if (board_[s] != NO_PIECE) k ^= zobrist::piece_square[board_[s]][s];
    for_each_square(commanders_, [&](Square s) { k ^= zobrist::special[0][s]; });
    for_each_square(knights_, [&](Square s) { k ^= zobrist::special[1][s]; });
    if (side_ == DEFENDERS) k ^= zobrist::side;
    if (history_.back().berserker != NO_SQUARE) k ^= zobrist::berserker[history_.back().berserker];
    return k;
}

bool encircled(const Edition& edition, Bitboard defenders, Bitboard occupied) {
    if (defenders & edition.edges) return false;
    // The empty squares connected to the board's edge through empty squares.
    // Shut in unless a defender stands next to one of them (the flood stops
    // at the first).
    const Bitboard empty = edition.board & ~occupied;
    const Bitboard seed = edition.edges & empty;
    return !seed || edition.flood_unless(seed, empty, edition.neighbours(defenders)) != 0;
}

bool enclosed(const Edition& edition, Bitboard attackers, Bitboard defenders, Square king,
              bool ring_safety) {
    const Bitboard region =
        edition.flood_unless(square_bb(king), edition.board & ~attackers, edition.edges);
    if (!region || (defenders & ~region)) return false;
    if (!ring_safety) return true;
    const Bitboard empty = edition.board & ~(attackers | defenders);
    const Bitboard safe =
        attackers | (edition.board & ~region & ~((edition.corners | edition.throne) & empty));
    return edition.held_on_both_axes(edition.neighbours(region) & attackers, safe);
}

void Position::set_decided(StateInfo& st, Side mover) const {
    st.decided = decided_by_pieces(*edition_, pieces(ATTACKERS), pieces(DEFENDERS), occupied_,
                                   king_, mover, plies_played());
}

uint64_t Position::board_key() const {
    return key() ^ (side_ == DEFENDERS ? zobrist::side : 0);
}

bool Position::banned_board(Move m) const {
    const Piece p = board_[m.from()];
    const uint64_t k =
        board_key() ^ zobrist::piece_square[p][m.from()] ^ zobrist::piece_square[p][m.to()];
    if (!ban_filter_[k % BAN_FILTER_SLOTS]) return false;
    return std::find(boards_.begin(), boards_.end(), k) != boards_.end();
}

void Position::start_ban_list() {
    if (!edition_->rules.defender_repetition_ban) return;
    ban_filter_.assign(BAN_FILTER_SLOTS, 0);
    if (edition_->rules.ban_includes_start) remember_board();
}

void Position::remember_board() {
    const uint64_t k = board_key();
    boards_.push_back(k);
    ++ban_filter_[k % BAN_FILTER_SLOTS];
}

void Position::make_move(Move m) {
    const Edition& edition = *edition_;
    if (edition.special_moves) return make_special_move(m);
    const Square from = m.from(), to = m.to();
    const Piece p = board_[from];
    assert(p != NO_PIECE && side_of(p) == side_ && board_[to] == NO_PIECE);

    // Copy what is needed of the previous state: emplace_back may move it.
    const StateInfo& prev = history_.back();
    uint64_t key =
        prev.key ^ zobrist::piece_square[p][from] ^ zobrist::piece_square[p][to] ^ zobrist::side;
    const int prev_plies = prev.plies_since_capture, prev_window = prev.repetition_window;
    const int prev_fullmove = prev.fullmove;
    const Bitboard prev_developed = prev.developed;
    StateInfo& st = history_.emplace_back();
    st.move = m;

    move_piece(p, from, to);

    Bitboard captured = 0;
    if (p != KING || edition.king_hammer) {
        auto at = [this](Square q) { return board_[q]; };
        for (int d = 0; d < 4; ++d) {
            if (!captures_toward(edition, at, side_, to, d)) continue;
            const Square a = edition.neighbour[to][d];
            captured |= square_bb(a);
            if (board_[a] == KING) st.captured_king = int16_t(a);
            key ^= zobrist::piece_square[board_[a]][a];
            remove(a);
        }
    }
    if (edition.rules.shieldwall != Shieldwall::NONE) {
        // After the ordinary captures, on the board they leave.
        EdgeBoard b;
        b.side[ATTACKERS] = pieces(ATTACKERS);
        b.side[DEFENDERS] = pieces(DEFENDERS);
        b.kings = by_piece_[KING];
        const Bitboard walls =
            shieldwall_captures(edition, b, side_, to, test(prev_developed, from));
        // Only soldiers of the side not moving: the king is never taken here.
        for_each_square(walls, [&](Square a) {
            key ^= zobrist::piece_square[board_[a]][a];
            remove(a);
        });
        captured |= walls;
    }

    st.key = key;
    st.captured = captured;
    st.developed = (prev_developed & ~square_bb(from) & ~captured) | square_bb(to);
    st.plies_since_capture = captured ? 0 : prev_plies + 1;
    st.repetition_window = captured ? 0 : prev_window + 1;
    st.fullmove = prev_fullmove + (side_ != edition.start_side);
    side_ = ~side_;
    set_decided(st, ~side_);
    if (!ban_filter_.empty()) remember_board();
}

uint64_t Position::capture(Square s) {
    uint64_t k = zobrist::piece_square[board_[s]][s];
    if (test(commanders_, s)) k ^= zobrist::special[0][s];
    if (test(knights_, s)) k ^= zobrist::special[1][s];
    commanders_ &= ~square_bb(s);
    knights_ &= ~square_bb(s);
    remove(s);
    return k;
}

// OpenTafl's order (GameState.moveTaflman): whether the move captures is
// decided before it is made; then a knight's jump takes the piece jumped
// over and every neighbour of the landing square is tested on the board as
// it is after the move. The end of the game is judged after every ply; a
// chain keeps the side to move.
void Position::make_special_move(Move m) {
    const Edition& edition = *edition_;
    const Square from = m.from(), to = m.to();
    const Piece p = board_[from];
    assert(p != NO_PIECE && side_of(p) == side_ && board_[to] == NO_PIECE);
    assert(berserker() == NO_SQUARE || berserker() == from);

    const bool knight_jump = berserk::jump_takes(*this, m);
    const bool capturing = knight_jump || berserk::move_captures(*this, m);
    const bool special = is_special(from);

    const StateInfo& prev = history_.back();
    uint64_t key = prev.key ^ zobrist::piece_square[p][from] ^ zobrist::piece_square[p][to];
    if (prev.berserker != NO_SQUARE) key ^= zobrist::berserker[prev.berserker];
    const int prev_plies = prev.plies_since_capture, prev_window = prev.repetition_window;
    const int prev_fullmove = prev.fullmove;
    const Bitboard prev_developed = prev.developed;
    specials_before_.push_back({commanders_, knights_});
    StateInfo& st = history_.emplace_back();
    st.move = m;

    move_piece(p, from, to);
    for (int i = 0; i < 2; ++i) {
        Bitboard& bits = i == 0 ? commanders_ : knights_;
        if (!test(bits, from)) continue;
        bits ^= square_bb(from) | square_bb(to);
        key ^= zobrist::special[i][from] ^ zobrist::special[i][to];
    }

    Bitboard captured = 0;
    if (capturing) {
        if (knight_jump) {
            const Square over = (from + to) / 2;
            captured |= square_bb(over);
            key ^= capture(over);
        }
        for (int d = 0; d < 4; ++d) {
            const Square a = edition.neighbour[to][d];
            if (a == NO_SQUARE || !berserk::captured_by(*this, a, p, special, to, NO_SQUARE))
                continue;
            captured |= square_bb(a);
            if (board_[a] == KING) st.captured_king = int16_t(a);
            key ^= capture(a);
        }
    }

    const bool chain = captured && berserk::continues_chain(*this, to);
    st.captured = captured;
    st.developed = (prev_developed & ~square_bb(from) & ~captured) | square_bb(to);
    st.plies_since_capture = captured ? 0 : prev_plies + 1;
    st.repetition_window = captured ? 0 : prev_window + 1;
    st.fullmove = prev_fullmove + (!chain && side_ != edition.start_side);
    const Side mover = side_;
    if (!chain) {
        side_ = ~side_;
        key ^= zobrist::side;
    }
    set_decided(st, mover);
    if (chain && !st.decided.over()) {
        st.berserker = int16_t(to);
        key ^= zobrist::berserker[to];
    }
    st.key = key;
}

void Position::unmake_special_move() {
    const StateInfo& st = history_.back();
    const Square from = st.move.from(), to = st.move.to();
    side_ = side_of(board_[to]);
    move_piece(board_[to], to, from);
    const Piece soldier = side_ == ATTACKERS ? DEFENDER : ATTACKER;
    for_each_square(st.captured, [&](Square a) { put(a == st.captured_king ? KING : soldier, a); });
    commanders_ = specials_before_.back()[0];
    knights_ = specials_before_.back()[1];
    specials_before_.pop_back();
    history_.pop_back();
}

void Position::unmake_move() {
    assert(history_.size() > 1);
    if (edition_->special_moves) return unmake_special_move();
    const StateInfo& st = history_.back();
    const Square from = st.move.from(), to = st.move.to();
    side_ = ~side_;
    move_piece(board_[to], to, from);
    // Every captured piece was a soldier of the side not moving, but for a
    // captured king.
    const Piece soldier = side_ == ATTACKERS ? DEFENDER : ATTACKER;
    for_each_square(st.captured, [&](Square a) { put(a == st.captured_king ? KING : soldier, a); });
    if (!ban_filter_.empty()) {
        --ban_filter_[boards_.back() % BAN_FILTER_SLOTS];
        boards_.pop_back();
    }
    history_.pop_back();
}

void Position::make_null() {
    const StateInfo& prev = history_.back();
    StateInfo st;
    st.key = prev.key ^ zobrist::side;
    st.plies_since_capture = prev.plies_since_capture + 1;
    st.repetition_window = 0;
    st.fullmove = prev.fullmove + (side_ != edition_->start_side);
    st.developed = prev.developed;
    st.decided = prev.decided;
    side_ = ~side_;
    history_.push_back(st);
}

void Position::unmake_null() {
    assert(history_.size() > 1 && history_.back().move.is_none());
    side_ = ~side_;
    history_.pop_back();
}

int Position::occurrences() const {
    const StateInfo& st = history_.back();
    int count = 1;
    const int n = int(history_.size()) - 1;
    const int reach = repetition_reach(edition_->rules, st.repetition_window);
    if (edition_->rules.berserk != Berserk::NONE) {
        // A chain keeps the side to move, so a position can come back after
        // an odd number of plies; an open chain is no part of the key.
        const uint64_t key = branan::BRANAN_BOARD_NS::repetition_key(st);
        for (int back = 1; back <= reach && back <= n; ++back)
            if (branan::BRANAN_BOARD_NS::repetition_key(history_[n - back]) == key) ++count;
        return count;
    }
    for (int back = 2; back <= reach && back <= n; back += 2)
        if (history_[n - back].key == st.key) ++count;
    return count;
}

Winner repetition_winner(RepetitionOutcome outcome, Side mover) {
    auto winner_of = [](Side s) { return s == ATTACKERS ? Winner::ATTACKERS : Winner::DEFENDERS; };
    switch (outcome) {
    case RepetitionOutcome::DRAW:
        return Winner::DRAW;
    case RepetitionOutcome::MOVER_LOSES:
        return winner_of(~mover);
    case RepetitionOutcome::MOVER_WINS:
        return winner_of(mover);
    case RepetitionOutcome::DEFENDERS_LOSE:
        return Winner::ATTACKERS;
    case RepetitionOutcome::IGNORED:
        break;
    }
    return Winner::NONE;
}

GameResult Position::result() const {
    const StateInfo& st = history_.back();
    if (st.decided.over()) return st.decided;
    const Rules& r = edition_->rules;
    // OpenTafl skips the repetition check while a chain is open.
    if (r.repetition != RepetitionOutcome::IGNORED && st.berserker == NO_SQUARE &&
        occurrences() >= r.repetition_count)
        return {repetition_winner(r.repetition, ~side_), EndReason::REPETITION};
    if (r.no_capture_limit > 0 && st.plies_since_capture >= r.no_capture_limit)
        return {Winner::DRAW, EndReason::MOVE_LIMIT};
    if (!has_legal_move(*this)) {
        if (!r.no_moves_loses) return {Winner::DRAW, EndReason::NO_MOVES};
        return {side_ == ATTACKERS ? Winner::DEFENDERS : Winner::ATTACKERS, EndReason::NO_MOVES};
    }
    return {};
}

void Position::clear_history() {
    StateInfo st = history_.back();
    st.move = MOVE_NONE;
    st.captured = 0;
    st.captured_king = NO_SQUARE;
    st.repetition_window = 0;
    history_.clear();
    history_.push_back(st);
    specials_before_.clear();
}

} // namespace BRANAN_BOARD_NS
} // namespace branan
