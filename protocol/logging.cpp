#include "logging.h"

#include <memory>
#include <mutex>

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace branan {

namespace {

std::mutex logger_mutex;
std::shared_ptr<spdlog::logger> instance;

std::shared_ptr<spdlog::logger> make_stderr_logger() {
    auto l = std::make_shared<spdlog::logger>("branan",
                                              std::make_shared<spdlog::sinks::stderr_sink_mt>());
    l->set_level(spdlog::level::warn);
    return l;
}

} // namespace

spdlog::logger& logger() {
    std::lock_guard lock(logger_mutex);
    if (!instance) {
        instance = make_stderr_logger();
        // Anything that uses spdlog's default logger goes to stderr too.
        spdlog::set_default_logger(instance);
    }
    return *instance;
}

Status setup_logging(const std::string& file, const std::string& level) {
    static const char* levels[] = {"trace", "debug", "info", "warn", "error", "critical", "off"};
    bool known = false;
    for (const char* l : levels) known |= level == l;
    if (!known)
        return Error{"unknown log level '" + level +
                     "' (trace, debug, info, warn, error, critical, off)"};
    std::shared_ptr<spdlog::logger> l;
    if (file.empty()) {
        l = make_stderr_logger();
    } else {
        try {
            l = std::make_shared<spdlog::logger>(
                "branan", std::make_shared<spdlog::sinks::basic_file_sink_mt>(file));
        } catch (const spdlog::spdlog_ex& e) {
            return Error{"cannot open log file '" + file + "': " + e.what()};
        }
    }
    l->set_level(spdlog::level::from_str(level));
    l->flush_on(spdlog::level::trace);
    std::lock_guard lock(logger_mutex);
    instance = l;
    spdlog::set_default_logger(l);
    return {};
}

} // namespace branan
