// The preset table. Each start position and each shared rule set is written
// once: an edition of our own is its family's rules with the keys it
// changes; OpenTafl's editions are the strings OpenTafl sends an engine
// (OTN.md), kept word for word so that they read as OpenTafl reads them.

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>
#include <vector>

#include "rules.h"
#include "text.h"

namespace branan {

namespace {

// Start positions as OpenTafl records (rank 1 first).
constexpr std::string_view START_7 = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
constexpr std::string_view START_9 = "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
constexpr std::string_view START_11 =
    "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
constexpr std::string_view START_13_ORG = // hnefatafl.org's 13x13 (HNEFATAFL.md 3.3)
    "start:/3ttttttt3/6t6/13/t5T5t/t5T5t/t4TTT4t/tt1TTTKTTT1tt/t4TTT4t/t5T5t/t5T5t/13/6t6/"
    "3ttttttt3/";
constexpr std::string_view START_TAWLBWRDD =
    "start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/";

// A rules string: the keys, then the start.
std::string keys_then(std::string_view keys, std::string_view start) {
    return std::string(keys) + " " + std::string(start);
}

std::string key_of(std::string_view word) {
    return std::string(word.substr(0, word.find(':')));
}

// `base` with the keys of `changes`: each replaces the base's word for the
// same key where it stands, or goes in before start when the base has none.
std::string with_keys(const std::string& base, std::string_view changes) {
    std::vector<std::string> words;
    for (std::string_view w : split_words(base)) words.emplace_back(w);
    for (std::string_view change : split_words(changes)) {
        auto same = std::find_if(words.begin(), words.end(),
                                 [&](const std::string& w) { return key_of(w) == key_of(change); });
        if (same != words.end()) {
            *same = std::string(change);
            continue;
        }
        auto start = std::find_if(words.begin(), words.end(),
                                  [](const std::string& w) { return key_of(w) == "start"; });
        assert(start != words.end());
        words.insert(start, std::string(change));
    }
    std::string text;
    for (const std::string& w : words) text += (text.empty() ? "" : " ") + w;
    return text;
}

std::vector<Preset> make_presets() {
    // Brandubh 7x7, the traditional rules: corner escape, king strong on the
    // throne only, the player who makes a third repetition loses.
    const std::string brandubh =
        keys_then("dim:7 name:Brandubh esc:c atkf:y surf:n tfr:w repc:3 ka:y ks:t linc:n "
                  "cor:a1,g1,a7,g7, corh:tTK corp:K cors:K "
                  "cen:d4, cenh: cenhe:tT cenp:tTK cens:K cenre:tTK "
                  "nocap:0 nomv:l noatk:n nrd:n",
                  START_7);
    // Tablut 9x9, the traditional rules: edge escape, nobody stops on the castle, king
    // strong on and next to it, a repeated position or no legal move draws.
    const std::string tablut =
        keys_then("dim:9 name:Tablut esc:e atkf:y surf:n tfr:d repc:2 ka:y ks:c linc:n "
                  "cor: cen:e5, cenh: cenhe:tTK cenp:tTK cens: cenre:tTK "
                  "nocap:0 nomv:d noatk:n nrd:n",
                  START_9);
    const std::string opentafl_copenhagen =
        keys_then("dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y", START_11);
    const std::string copenhagen =
        with_keys(opentafl_copenhagen, "tfr:a nrd:n repm:y swr:r efr:r surr:r");
    const std::string hnefatafl_org =
        with_keys(copenhagen, "name:Copenhagen_(hnefatafl.org) tfr:i repm:n swr:g efr:g surr:g "
                              "dban:y cne:y plyd:133");
    return {
        {"brandubh", brandubh},
        // The house editions (one club's own rules) draw at the third repetition or
        // after 120 plies without a capture.
        {"brandubh-house", with_keys(brandubh, "name:Brandubh_(house) tfr:d ks:w cenhe:tTK "
                                               "nocap:120 noatk:y")},
        {"tablut", tablut},
        {"tablut-house",
         with_keys(tablut, "name:Tablut_(house) repc:3 cens:K nocap:120 nomv:l noatk:y")},
        {"opentafl-brandub",
         keys_then("dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe:", START_7),
         RulesReading::BY_SIDE},
        {"opentafl-tablut",
         keys_then("dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: "
                   "cenhe:tcnkTCNK linc:y",
                   START_9),
         RulesReading::BY_SIDE},
        // OpenTafl's other built-in editions up to 11x11.
        {"fetlar", keys_then("dim:11 name:Fetlar atkf:y nj:n cj:n", START_11),
         RulesReading::BY_SIDE},
        {"computer-fetlar", keys_then("dim:11 name:Computer_Fetlar atkf:y tfr:w", START_11),
         RulesReading::BY_SIDE},
        {"tawlbwrdd",
         keys_then("dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen:", START_TAWLBWRDD),
         RulesReading::BY_SIDE},
        {"sea-battle",
         keys_then("dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen:", START_9),
         RulesReading::BY_SIDE},
        // OpenTafl's editions above 11x11, as OpenTafl sends them (OTN.md).
        {"opentafl-sea-battle-13",
         "dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n cj:n cor: cen: "
         "start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/"
         "6t6/5t1t5/4ttttt4/",
         RulesReading::BY_SIDE},
        {"opentafl-tablut-15",
         "dim:15 name:Tablut esc:e atkf:y ks:c nj:n cor: cens: cenh: "
         "start:/5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/"
         "t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5/",
         RulesReading::BY_SIDE},
        // Commanders (c) and a knight (N), jumps, and chains after a capture
        // (engine/berserk.h).
        {"opentafl-berserk",
         "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c "
         "start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/",
         RulesReading::BY_SIDE},
        // Sixteen corner squares: the two squares next to each corner and
        // the one diagonal to it escape too.
        {"alea-evangelii",
         "dim:19 name:Alea_Evangelii atkf:y tfr:w "
         "cor:a1,a2,b1,b2,a18,b18,a19,b19,r1,r2,s1,s2,r18,r19,s18,s19, cenp:tcnkTCNK cens: "
         "cenh: cenhe:tcnkTCNK "
         "start:/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/"
         "4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/"
         "7t1t1t7/t4t7t4t/19/2t2t7t2t2/",
         RulesReading::BY_SIDE},
        // Attackers' forts they may use only while standing in one, nobody
        // crosses the empty throne, nothing hostile but the attackers.
        {"foteviken",
         keys_then("dim:9 name:Foteviken_Tablut esc:e atkf:y nj:n cor: "
                   "afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cenp:tcnkTCNK "
                   "aforp:tcnkTCNK cens: cenh: cenhe:K aforh:K cenre: aforre:",
                   START_9),
         RulesReading::BY_SIDE},
        // The king moves one square at a time and is captured by hostile
        // squares on every side, the board's edge counting as one.
        {"magpie",
         keys_then("dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1,",
                   START_7),
         RulesReading::BY_SIDE},
        // The Bologna Tablut Challenge's server (BOLOGNA.md): Tablut with
        // the defenders first and 16 camps. The camps are two kinds of
        // special square only for their hostility: the outer middle squares
        // (dfor) are not hostile to attackers. Nobody enters or crosses a
        // camp from outside (the lists); an attacker standing in one moves
        // within it (camp, campu).
        {"ashton", with_keys(tablut, "name:Ashton_Tablut atkf:n cenh:tT cenp: "
                                     "afor:a4,a6,b5,d1,f1,e2,i4,i6,h5,d9,f9,e8, aforh:tTK aforp: "
                                     "afors: aforre: "
                                     "dfor:a5,e1,i5,e9, dforh:TK dforp: dfors: dforre: "
                                     "nomv:l repw:0 "
                                     "camp:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, "
                                     "campu:t")},
        // OpenTafl's two Copenhagen strings: shieldwalls closed by pieces or
        // corners, edge-fort escape; the relaxed one lets every complete
        // wall of the side that moved capture (swf:n).
        {"opentafl-copenhagen", opentafl_copenhagen, RulesReading::BY_SIDE},
        {"opentafl-copenhagen-relaxed",
         keys_then("dim:11 name:Copenhagen_(relaxed_shieldwall) atkf:y tfr:w sw:s swf:n efe:y",
                   START_11),
         RulesReading::BY_SIDE},
        // Copenhagen as the World Tafl Federation's games and hnefatafl-rs
        // play it (HNEFATAFL.md, column HRS): OpenTafl's board, moves and
        // captures, with hnefatafl-rs's shieldwall, exit fort (after the
        // defenders' moves) and encirclement (after the attackers'), no
        // "no room" loss, and the Federation's repetition rule: the third
        // occurrence of a position made by non-capturing moves loses for the
        // defenders, whoever made it (docs/rules.md).
        {"copenhagen", copenhagen},
        // Copenhagen as hnefatafl.org's server plays it (HNEFATAFL.md,
        // column ORG): its shieldwall (every wall the mover closes), exit
        // fort and encirclement (after every move, no ring safety); the
        // defenders may never recreate an earlier board; its "cannot
        // escape" adjudication; the server's 133rd ply draws (its library
        // and HTP engine count one more: plyd:134).
        {"hnefatafl-org", hnefatafl_org},
        // hnefatafl.org's 13x13 (HNEFATAFL.md 3.3): its 11x11 rules on the
        // larger board (corners and throne where OpenTafl's 13x13 has
        // them); like the 7x7 one, the server's list of earlier boards
        // lacks the start (dbans:n).
        {"hnefatafl-org-13",
         with_keys(hnefatafl_org, "dim:13 name:Copenhagen_13x13_(hnefatafl.org) dbans:n " +
                                      std::string(START_13_ORG))},
        // hnefatafl.org's Brandubh (HNEFATAFL.md 5): the same code on 7x7,
        // the defenders first, the king captured by two off the throne
        // (corners and the throne never count against him), no exit fort;
        // the server's list of earlier boards lacks the 7x7 start (dbans:n).
        {"hnefatafl-org-brandubh",
         keys_then("dim:7 name:Brandubh_(hnefatafl.org) esc:c atkf:n surf:y tfr:i ka:y ks:t "
                   "linc:n cor:a1,g1,a7,g7, corh:tT corp:K cors:K cen:d4, cenh:t cenhe:tT "
                   "cenp:tTK cens:K cenre:tTK nocap:0 nomv:l noatk:y nrd:n sw:s swr:g surr:g "
                   "dban:y dbans:n cne:y plyd:133",
                   START_7)},
    };
}

} // namespace

const std::vector<Preset>& presets() {
    static const std::vector<Preset> table = make_presets();
    return table;
}

const char* hnefatafl_org_preset(int size) {
    return size == 11   ? "hnefatafl-org"
           : size == 13 ? "hnefatafl-org-13"
           : size == 7  ? "hnefatafl-org-brandubh"
                        : nullptr;
}

std::string_view default_preset_name() {
    return presets().front().name;
}

std::optional<std::string> preset_of(const Rules& rules) {
    static const std::vector<std::pair<std::string, Rules>> parsed = [] {
        std::vector<std::pair<std::string, Rules>> out;
        for (const Preset& p : presets())
            if (auto r = parse_rules(p.rules, p.reading)) out.emplace_back(p.name, *r);
        return out;
    }();
    for (const auto& [name, r] : parsed)
        if (r == rules) return name;
    return std::nullopt;
}

Result<Rules> preset_rules(std::string_view name) {
    for (const Preset& p : presets())
        if (name == p.name) return parse_rules(p.rules, p.reading);
    std::string names;
    for (const Preset& p : presets()) names += std::string(names.empty() ? "" : ", ") + p.name;
    return Error{"unknown preset '" + std::string(name) + "' (known: " + names + ")"};
}

} // namespace branan
