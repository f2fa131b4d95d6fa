// The engine's command line, parsed by the option table both programs share (protocol/engine_option_table.h).
#include "engine_options.h"

#include "mlperf_benchmark.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <stdexcept>

namespace scalebench {
namespace {

using engine_cli::Kind;

// `accepts` of a Text or List row: "" takes anything, else one of the '|'-separated words.
void checkAccepted(const std::string& option, const std::string& value, const std::string& accepts) {
    if (accepts.empty()) return;
    const auto known = engine_cli::splitWords(accepts, '|');
    if (std::find(known.begin(), known.end(), value) != known.end()) return;
    std::string names;
    for (const auto& k : known)
        names += (names.empty() ? "" : ", ") + k;
    throw std::invalid_argument(option + ": unknown '" + value + "' (known: " + names + ")");
}

// `accepts` of a number row: "LEAST" or "LEAST..MOST".
template <typename Number>
Number parseNumber(const std::string& option, const std::string& text, const std::string& accepts) {
    Number value{};
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        throw std::invalid_argument(option + ": '" + text + "' is not " +
                                    (std::is_integral_v<Number> ? "a whole number" : "a number"));
    const auto range = accepts.find("..");
    const double least = std::stod(accepts.substr(0, range));
    if (value < least)
        throw std::invalid_argument(option + ": must be at least " + accepts.substr(0, range) + ", got " +
                                    text);
    if (range != std::string::npos && value > std::stod(accepts.substr(range + 2)))
        throw std::invalid_argument(option + ": must be at most " + accepts.substr(range + 2) + ", got " +
                                    text);
    return value;
}

template <Kind K>
engine_cli::Value<K> parseValue(const std::string& option, const std::string& text,
                                const std::string& accepts) {
    if constexpr (K == Kind::Text) {
        if (!accepts.empty() && text.find(',') != std::string::npos)
            throw std::invalid_argument(option + ": takes one value, got '" + text + "'");
        checkAccepted(option, text, accepts);
        return text;
    } else if constexpr (K == Kind::Int) {
        return parseNumber<int>(option, text, accepts);
    } else if constexpr (K == Kind::Real) {
        return parseNumber<double>(option, text, accepts);
    } else if constexpr (K == Kind::Switch) {
        if (text == "yes") return true;
        if (text == "no") return false;
        throw std::invalid_argument(option + ": yes or no, got '" + text + "'");
    } else {
        std::vector<std::string> items;
        for (const auto& item : engine_cli::splitWords(text, ',')) {
            checkAccepted(option, item, accepts);
            if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
        }
        return items;
    }
}

const char* valueWord(Kind kind) {
    switch (kind) {
    case Kind::Text:
        return "TEXT";
    case Kind::Int:
        return "N";
    case Kind::Real:
        return "X";
    case Kind::Switch:
        return "yes|no";
    case Kind::List:
        return "LIST";
    }
    return "VALUE";
}

// One row of the table with what the parser and the help need of it.
struct OptionEntry {
    const char* name;
    Kind kind;
    const char* accepts;
    const char* help;
    std::function<void(EngineOptions&, const std::string&)> set;
    std::function<std::string(const EngineOptions&)> show;
};

const std::vector<OptionEntry>& optionEntries() {
    static const std::vector<OptionEntry> entries = {
#define SCALEBENCH_OPTION_ENTRY(name, kind, accepts, scope, help, ...)                                       \
    {#name,                                                                                                  \
     Kind::kind,                                                                                             \
     accepts,                                                                                                \
     help,                                                                                                   \
     [](EngineOptions& o, const std::string& text) {                                                         \
         o.name = parseValue<Kind::kind>(engine_cli::optionName(#name), text, accepts);                      \
     },                                                                                                      \
     [](const EngineOptions& o) { return engine_cli::formatValue(o.name); }},
        SCALEBENCH_ENGINE_OPTIONS(SCALEBENCH_OPTION_ENTRY)
#undef SCALEBENCH_OPTION_ENTRY
    };
    return entries;
}

} // namespace

std::string engineUsage() {
    std::string text =
        "usage: mpirun -np N scalebench-engine --metrics FILE [--OPTION VALUE]...\n"
        "Synchronous data-parallel training (gradients averaged in buckets over MPI, Gloo or NCCL "
        "while\nbackward runs), or a collective sweep (--workload allreduce-sweep). Options, with "
        "their defaults:\n";
    const EngineOptions defaults;
    for (const auto& e : optionEntries()) {
        std::string accepts = e.accepts;
        if (e.kind == Kind::Text || e.kind == Kind::List) {
            std::replace(accepts.begin(), accepts.end(), '|', ',');
            accepts = accepts.empty() ? "" : " (" + accepts + ")";
        } else {
            const bool range = accepts.find("..") != std::string::npos;
            accepts = e.kind == Kind::Switch ? ""
                      : range                ? " (" + accepts + ")"
                                             : " (at least " + accepts + ")";
        }
        const std::string value = e.show(defaults);
        text += "  " + engine_cli::optionName(e.name) + " " + valueWord(e.kind) + accepts + "\n      " +
                e.help + "; default: " + (value.empty() ? "none" : value) + "\n";
    }
    text += "  --help, --version\nLIST: comma-separated, e.g. --collectives allreduce,allgather.\n";
    text +=
        "MLLOG: the open-division MLPerf Training benchmark each workload stands in for, and the ruleset\n"
        "of mlperf-logging 4.1.68's compliance checker its log is checked against:\n";
    for (const auto& row : mlperfBenchmarks())
        text += "  " + row.workload + ": " +
                (row.benchmark.empty() ? "none (its log names no submission_benchmark)"
                                       : row.benchmark + " (training " + row.ruleset + ")") +
                "\n";
    return text;
}

EngineOptions parseEngineOptions(const std::vector<std::string>& arguments) {
    EngineOptions o;
    const auto& entries = optionEntries();
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& a = arguments[i];
        if (a == "--version") {
            o.show_version = true;
            continue;
        }
        if (a == "--help" || a == "-h") {
            o.show_help = true;
            continue;
        }
        const auto entry = std::find_if(entries.begin(), entries.end(), [&](const OptionEntry& e) {
            return engine_cli::optionName(e.name) == a;
        });
        if (entry == entries.end()) throw std::invalid_argument("unknown option '" + a + "'");
        if (i + 1 >= arguments.size()) throw std::invalid_argument(a + ": needs a value");
        entry->set(o, arguments[++i]);
    }
    if (o.show_version || o.show_help) return o;
    if (o.metrics.empty()) throw std::invalid_argument("--metrics: the metric stream file is required");
    if (o.resume && o.checkpoint_dir.empty())
        throw std::invalid_argument("--resume: needs --checkpoint-dir, where the checkpoints are");
    // Workload and dataset names are checked where the workload is built (makeWorkload).
    return o;
}

} // namespace scalebench
