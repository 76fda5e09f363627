#include "game.h"

#include "movegen.h"
#include "notation.h"
#include "text.h"

namespace branan::match {

Result<Position> opening_position(const EditionPtr& edition, const Opening& opening) {
    Position pos(edition);
    if (!opening.root_tfen.empty()) {
        auto p = parse_tfen(edition, opening.root_tfen);
        if (!p) return Error{"bad TFEN: " + p.error()};
        pos = std::move(*p);
    }
    if (pos.result().over()) return Error{"the opening position is already decided"};
    for (const std::string& text : opening.moves) {
        auto m = parse_legal_move(pos, text);
        if (!m) return Error{"move '" + text + "': " + m.error()};
        pos.make_move(*m);
        if (pos.result().over()) return Error{"the game is over after move '" + text + "'"};
    }
    return pos;
}

namespace {

Winner winner_of(Side s) {
    return s == ATTACKERS ? Winner::ATTACKERS : Winner::DEFENDERS;
}
const char* side_name(Side s) {
    return s == ATTACKERS ? "attackers" : "defenders";
}

} // namespace

GameOutcome play_game(const GameConfig& config, EngineAdapter* const players[2],
                      const AbortFlag& abort) {
    GameOutcome out;
    const Edition& edition = *config.edition;
    auto start = opening_position(config.edition, config.opening);
    if (!start) { // openings are checked when loaded; this is a safety net
        out.aborted = true;
        out.detail = "bad opening: " + start.error();
        return out;
    }
    Position pos = std::move(*start);
    // The root the engines see, and the opening moves in record notation.
    Position root(config.edition);
    if (!config.opening.root_tfen.empty())
        root = *parse_tfen(config.edition, config.opening.root_tfen);
    GameSetup setup;
    setup.preset = config.preset;
    setup.rules = config.rules_string;
    setup.root_tfen = config.opening.root_tfen;
    setup.root_opentafl = to_opentafl_position(root);
    setup.root_side = root.side_to_move();
    std::vector<std::string> moves, records;
    for (const std::string& text : config.opening.moves) {
        Move m = *parse_legal_move(root, text);
        records.push_back(move_record(root, m));
        moves.push_back(move_name(edition, m));
        root.make_move(m);
    }
    out.opening_records = records;
    out.start_tfen = to_tfen(pos);

    auto finish = [&](Winner w, std::string reason, std::string detail) {
        out.winner = w;
        out.reason = std::move(reason);
        out.detail = std::move(detail);
        out.final_tfen = to_tfen(pos);
        for (int s = 0; s < 2; ++s)
            if (!out.restart[s]) players[s]->game_over(w);
        return out;
    };

    // New game for both; an engine that does not answer loses.
    bool failed[2] = {false, false};
    std::string errors[2];
    for (int s = 0; s < 2; ++s) {
        if (!players[s]->alive()) {
            failed[s] = true;
            errors[s] = "not running";
        } else if (!players[s]->new_game(setup, errors[s])) {
            failed[s] = true;
        }
        if (failed[s]) out.restart[s] = true;
    }
    if (abort.stop.load()) {
        out.aborted = true;
        return out;
    }
    if (failed[0] && failed[1])
        return finish(Winner::DRAW, "no-answer",
                      "neither engine answered at the start of the game");
    for (int s = 0; s < 2; ++s)
        if (failed[s])
            return finish(winner_of(~Side(s)), "no-answer",
                          players[s]->config().name + " (" + side_name(Side(s)) +
                              ") did not answer at the start of the game: " + errors[s]);

    GameClock clock(players[ATTACKERS]->config().tc, players[DEFENDERS]->config().tc);
    Adjudicator adjudicator(config.max_plies, config.resign);
    auto adjudicated = [&](const Verdict& edition) {
        return finish(edition.winner, edition.reason, edition.detail);
    };
    int plies = 0;

    while (true) {
        GameResult r = pos.result();
        if (r.over()) {
            std::string detail =
                r.winner == Winner::DRAW
                    ? std::string("draw: ") + to_string(r.reason)
                    : std::string(to_string(r.winner)) + " win: " + to_string(r.reason);
            return finish(r.winner, to_string(r.reason), detail);
        }
        if (auto verdict = adjudicator.at_ply(plies)) return adjudicated(*verdict);

        const Side us = pos.side_to_move();
        EngineAdapter& engine = *players[us];
        TurnRequest req;
        req.moves = moves;
        req.move_records = records;
        req.position_opentafl = to_opentafl_position(pos);
        req.to_move = us;
        clock.fill(req, us);
        const int64_t allowed = clock.allowed_ms(us);
        req.deadline = Clock::now() + std::chrono::milliseconds(allowed + config.time_margin_ms);

        TurnReply reply = engine.play(req);
        const std::string who = engine.config().name + " (" + side_name(us) + ")";
        using S = TurnReply::Status;
        if (reply.status == S::ABORTED) {
            out.aborted = true;
            return out;
        }
        if (reply.status == S::CRASHED) {
            out.restart[us] = true;
            return finish(winner_of(~us), "crash",
                          who + " crashed (" + engine.exit_description() + ")");
        }
        if (reply.status == S::TIMEOUT) {
            if (!engine.recover(config.recover_grace)) out.restart[us] = true;
            return finish(winner_of(~us), "time-forfeit",
                          who + " did not move within " + std::to_string(allowed) + " ms" +
                              (out.restart[us] ? " and stopped answering" : ""));
        }
        if (reply.status == S::MALFORMED)
            return finish(winner_of(~us), "malformed",
                          who + " sent a malformed answer '" + reply.line + "'");
        if (reply.elapsed_ms > allowed + config.time_margin_ms)
            return finish(winner_of(~us), "time-forfeit",
                          who + " moved after its time ran out (" +
                              std::to_string(reply.elapsed_ms) + " ms of " +
                              std::to_string(allowed) + ")");
        // A berserk chain may come whole, its plies joined by '|'; each must
        // be legal after the ones before it. An unfinished chain is asked
        // for again, the same side to move.
        std::vector<Move> turn;
        {
            Position after = pos;
            for (std::string_view text : split(reply.move, '|')) {
                auto parsed = parse_move(edition, text);
                if (!parsed)
                    return finish(winner_of(~us), "malformed",
                                  who + " sent a malformed move '" + reply.move +
                                      "': " + parsed.error());
                auto legal = after.side_to_move() == us
                                 ? parse_legal_move(after, text)
                                 : Result<Move>(Error{"the turn is over before it"});
                if (!legal)
                    return finish(winner_of(~us), "illegal-move",
                                  who + " played an illegal move '" + reply.move +
                                      "': " + legal.error());
                turn.push_back(*legal);
                after.make_move(*legal);
            }
        }

        // The turn stands.
        for (size_t i = 0; i < turn.size(); ++i) {
            const Move m = turn[i];
            PlyRecord ply;
            ply.side = us;
            ply.record = move_record(pos, m);
            ply.ms = i == 0 ? reply.elapsed_ms : 0;
            ply.score_cp = reply.score_cp;
            ply.score_depth = reply.score_depth;
            moves.push_back(move_name(edition, m));
            records.push_back(ply.record);
            out.plies.push_back(ply);
            pos.make_move(m);
            ++plies;
        }
        clock.charge(us, reply.elapsed_ms);
        out.clock_ms[0] = clock.left_ms(ATTACKERS);
        out.clock_ms[1] = clock.left_ms(DEFENDERS);
        if (!pos.result().over()) engine.move_accepted(to_opentafl_position(pos));
        if (auto verdict = adjudicator.after_move(us, reply.score_cp, pos))
            return adjudicated(*verdict);
    }
}

} // namespace branan::match
