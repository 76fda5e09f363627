#include "schedule.h"

namespace branan::match {

std::vector<ScheduledGame> make_schedule(int engines, int rounds, int games, bool repeat) {
    std::vector<ScheduledGame> schedule;
    int64_t next_opening = 0;
    for (int r = 0; r < rounds; ++r)
        for (int i = 0; i < engines; ++i)
            for (int j = i + 1; j < engines; ++j) {
                for (int g = 0; g < games; ++g) {
                    ScheduledGame s;
                    s.number = int64_t(schedule.size()) + 1;
                    s.round = r + 1;
                    s.first = i;
                    s.second = j;
                    const bool swap = g % 2 == 1;
                    s.attackers = swap ? j : i;
                    s.defenders = swap ? i : j;
                    if (repeat) {
                        s.opening = next_opening + g / 2;
                        s.pair = s.opening;
                    } else {
                        s.opening = next_opening + g;
                    }
                    schedule.push_back(s);
                }
                next_opening += repeat ? (games + 1) / 2 : games;
            }
    return schedule;
}

} // namespace branan::match
