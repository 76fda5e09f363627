// A scripted engine for the match runner's tests. It speaks our UCI-style
// protocol (or OTEP with --protocol otep), plays random legal moves with the
// rules core, and can be told to misbehave at its N-th move:
//
//   scripted_engine [--mode MODE] [--after N] [--seed S] [--score CP] [--protocol uci|otep]
//
//   random     random legal moves (the default)
//   first      the first legal move in generation order
//   illegal    an illegal move (an opponent's piece moved) at move N
//   malformed  "bestmove what?" at move N
//   crash      exits with code 3 at move N
//   hang       stops answering anything at move N (until killed)
//   slow       at move N answers only after --delay MS (default: three times its time)
//   nohello    never finishes the handshake
//   flood      at move N first prints a line of 4 MiB (a runaway engine), then
//              its move as usual
//   midline    at move N writes half of its answer line, then exits with code 4
//
// --score CP: every answer is preceded by "info depth 7 seldepth 9 score cp CP"
// and "info depth 8 currmove ..." (a deeper line without a score).

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "movegen.h"
#include "notation.h"
#include "rules.h"

using namespace branan;

namespace {

struct Options {
    std::string mode = "random";
    int after = 1;
    uint64_t seed = 0;
    int64_t delay_ms = -1;
    bool has_score = false;
    int score = 0;
    std::string protocol = "uci";
};

EditionPtr edition_from(const Rules& r) {
    return *Edition::make(r);
}

void say(const std::string& line) {
    std::cout << line << "\n" << std::flush;
}

[[noreturn]] void hang() {
    while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
}

class Player {
  public:
    explicit Player(const Options& o) : o_(o), rng_(o.seed ? o.seed : uint64_t(getpid())) {
        edition_ = edition_from(*preset_rules("brandubh"));
        pos_ = std::make_unique<Position>(edition_);
    }

    void set_preset(const std::string& name) {
        if (auto r = preset_rules(name)) set_rules_obj(*r);
    }
    void set_rules(const std::string& text) {
        if (auto r = parse_rules(text)) set_rules_obj(*r);
    }
    void set_position(const std::string& tfen, const std::vector<std::string>& moves) {
        if (tfen.empty()) {
            pos_ = std::make_unique<Position>(edition_);
        } else if (auto p = parse_tfen(edition_, tfen)) {
            pos_ = std::make_unique<Position>(std::move(*p));
        }
        for (const std::string& m : moves) {
            auto mv = parse_legal_move(*pos_, m);
            if (!mv) break;
            pos_->make_move(*mv);
        }
    }
    Position& pos() { return *pos_; }
    const Edition& edition() const { return *edition_; }

    // The move text to answer with, or handles the misbehaviour itself.
    std::string choose(int64_t movetime_ms) {
        ++moves_;
        const bool fault = moves_ >= o_.after;
        if (fault) {
            if (o_.mode == "crash") std::exit(3);
            if (o_.mode == "midline") {
                std::cout << (o_.protocol == "otep" ? "mo" : "bestm") << std::flush;
                std::_Exit(4);
            }
            if (o_.mode == "hang") hang();
            if (o_.mode == "malformed") return "what?";
            if (o_.mode == "slow")
                std::this_thread::sleep_for(std::chrono::milliseconds(
                    o_.delay_ms >= 0 ? o_.delay_ms : 3 * movetime_ms + 50));
            if (o_.mode == "illegal") return illegal_move();
            if (o_.mode == "flood") {
                const std::string chunk(1 << 16, 'z');
                for (int i = 0; i < 64; ++i) std::cout << chunk;
                std::cout << std::endl;
            }
        }
        MoveList list;
        generate_moves(*pos_, list);
        if (list.empty()) return "none";
        Move m = o_.mode == "first" ? list.moves[0] : list.moves[rng_() % uint64_t(list.size())];
        return move_name(*edition_, m);
    }

  private:
    void set_rules_obj(const Rules& r) {
        edition_ = edition_from(r);
        pos_ = std::make_unique<Position>(edition_);
    }
    // One step of an opponent's piece: never legal for us.
    std::string illegal_move() {
        const Side them = ~pos_->side_to_move();
        Bitboard b = pos_->pieces(them);
        while (b) {
            Square s = pop_lsb(b);
            for (int d = 0; d < 4; ++d) {
                int t = edition_->neighbour[s][d];
                if (t != NO_SQUARE) return move_name(*edition_, Move(s, t));
            }
        }
        return move_name(*edition_, Move(0, 1));
    }

    const Options& o_;
    std::mt19937_64 rng_;
    EditionPtr edition_;
    std::unique_ptr<Position> pos_;
    int moves_ = 0;
};

void uci_loop(const Options& o) {
    Player p(o);
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd == "uci") {
            if (o.mode == "nohello") continue;
            say("id name scripted-" + o.mode);
            say("id author branan tests");
            say("uciok");
        } else if (cmd == "isready") {
            say("readyok");
        } else if (cmd == "setoption") {
            // setoption name NAME value VALUE...
            std::string w, name, value;
            in >> w >> name >> w;
            std::getline(in, value);
            if (!value.empty() && value[0] == ' ') value.erase(0, 1);
            if (name == "Variant") p.set_preset(value);
            if (name == "Rules") p.set_rules(value);
        } else if (cmd == "position") {
            std::string w, tfen;
            std::vector<std::string> moves;
            in >> w;
            bool in_moves = false;
            if (w == "fen") {
                while (in >> w && w != "moves") tfen += (tfen.empty() ? "" : " ") + w;
                in_moves = w == "moves";
            } else {
                in_moves = (in >> w) && w == "moves";
            }
            if (in_moves)
                while (in >> w) moves.push_back(w);
            p.set_position(tfen, moves);
        } else if (cmd == "go") {
            std::string w;
            int64_t movetime = 0, time[2] = {0, 0};
            while (in >> w) {
                int64_t v = 0;
                if (w == "movetime" && in >> v) movetime = v;
                if (w == "atime" && in >> v) time[0] = v;
                if (w == "dtime" && in >> v) time[1] = v;
            }
            if (movetime == 0) movetime = time[p.pos().side_to_move()] / 20;
            std::string m = p.choose(movetime);
            if (o.has_score) {
                say("info depth 7 seldepth 9 score cp " + std::to_string(o.score));
                say("info depth 8 currmove " + m);
            }
            say("bestmove " + m);
        } else if (cmd == "quit") {
            return;
        }
        // ucinewgame, stop: nothing to do
    }
}

void otep_loop(const Options& o) {
    Player p(o);
    if (o.mode != "nohello") say("hello");
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd == "rules") {
            std::string rest;
            std::getline(in, rest);
            p.set_rules(rest);
        } else if (cmd == "position") {
            std::string rec;
            in >> rec;
            if (auto pos = parse_opentafl_position(p.pos().edition_ptr(), rec, ATTACKERS))
                p.pos() = std::move(*pos);
        } else if (cmd == "side") {
            std::string side;
            in >> side;
            const Side want = side == "attackers" ? ATTACKERS : DEFENDERS;
            if (p.pos().side_to_move() != want) {
                auto tfen = to_tfen(p.pos());
                // flip the side letter of the TFEN
                size_t sp = tfen.find(' ');
                tfen[sp + 1] = want == ATTACKERS ? 'a' : 'd';
                p.set_position(tfen, {});
            }
        } else if (cmd == "opponent-move") {
            std::string moves;
            in >> moves;
            std::istringstream ms(moves);
            std::string m;
            while (std::getline(ms, m, '|'))
                if (auto mv = parse_legal_move(p.pos(), m)) p.pos().make_move(*mv);
        } else if (cmd == "play") {
            std::string m = p.choose(100);
            if (auto mv = parse_legal_move(p.pos(), m)) p.pos().make_move(*mv);
            say("move " + m);
        } else if (cmd == "move") {
            // our move was accepted: play it on our board
        } else if (cmd == "goodbye") {
            return;
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i], v = argv[i + 1];
        if (k == "--mode")
            o.mode = v;
        else if (k == "--after")
            o.after = std::atoi(v.c_str());
        else if (k == "--delay")
            o.delay_ms = std::atoll(v.c_str());
        else if (k == "--seed")
            o.seed = std::strtoull(v.c_str(), nullptr, 10);
        else if (k == "--score")
            o.has_score = true, o.score = std::atoi(v.c_str());
        else if (k == "--protocol")
            o.protocol = v;
    }
    if (o.protocol == "otep")
        otep_loop(o);
    else
        uci_loop(o);
    return 0;
}
