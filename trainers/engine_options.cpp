// The engine's command line: what to train, for how long, with which hyper-parameters, and where to write
// metrics.
#include "engine_options.h"

#include <charconv>
#include <functional>
#include <map>
#include <stdexcept>

namespace scalebench {
namespace {

template <typename Number>
Number parseNumber(const std::string& option, const std::string& text, Number minimum) {
    Number value{};
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        throw std::invalid_argument(option + ": '" + text + "' is not a number");
    if (value < minimum)
        throw std::invalid_argument(option + ": must be at least " + std::to_string(minimum) + ", got " +
                                    text);
    return value;
}

} // namespace

std::string engineUsage() {
    return "usage: scalebench-engine --metrics FILE [--workload resnet20|allreduce-sweep]\n"
           "         [--dataset fashion-mnist|synthetic-cifar] [--data-dir DIR] [--steps N] "
           "[--batch-per-rank B]\n"
           "         [--lr LR] [--warmup-steps N] [--eval-every N] [--eval-samples N] [--threads T] [--seed "
           "S]\n"
           "         [--sweep-points P] [--sweep-max-log10 X] [--repetitions R] [--warmup-iterations W]\n"
           "         [--version]\n"
           "Run under mpirun -np N: synchronous data-parallel SGD, gradients all-reduced over MPI.\n";
}

EngineOptions parseEngineOptions(const std::vector<std::string>& arguments) {
    EngineOptions o;
    const std::map<std::string, std::function<void(const std::string&, const std::string&)>> valued = {
        {"--workload", [&](auto&, auto& v) { o.workload = v; }},
        {"--dataset", [&](auto&, auto& v) { o.dataset = v; }},
        {"--data-dir", [&](auto&, auto& v) { o.data_dir = v; }},
        {"--metrics", [&](auto&, auto& v) { o.metrics_path = v; }},
        {"--steps", [&](auto& k, auto& v) { o.steps = parseNumber(k, v, 1); }},
        {"--batch-per-rank", [&](auto& k, auto& v) { o.batch_per_rank = parseNumber(k, v, 1); }},
        {"--lr", [&](auto& k, auto& v) { o.lr = parseNumber(k, v, 0.0); }},
        {"--warmup-steps", [&](auto& k, auto& v) { o.warmup_steps = parseNumber(k, v, -1); }},
        {"--eval-every", [&](auto& k, auto& v) { o.eval_every = parseNumber(k, v, 0); }},
        {"--eval-samples", [&](auto& k, auto& v) { o.eval_samples = parseNumber(k, v, 1); }},
        {"--threads", [&](auto& k, auto& v) { o.threads = parseNumber(k, v, 0); }},
        {"--seed", [&](auto& k, auto& v) { o.seed = parseNumber(k, v, 0); }},
        {"--sweep-points", [&](auto& k, auto& v) { o.sweep_points = parseNumber(k, v, 1); }},
        {"--sweep-max-log10", [&](auto& k, auto& v) { o.sweep_max_log10 = parseNumber(k, v, 0.0); }},
        {"--repetitions", [&](auto& k, auto& v) { o.repetitions = parseNumber(k, v, 1); }},
        {"--warmup-iterations", [&](auto& k, auto& v) { o.warmup_iterations = parseNumber(k, v, 0); }},
    };
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& a = arguments[i];
        if (a == "--version") {
            o.show_version = true;
        } else if (a == "--help" || a == "-h") {
            o.show_help = true;
        } else if (auto it = valued.find(a); it != valued.end()) {
            if (i + 1 >= arguments.size()) throw std::invalid_argument(a + ": needs a value");
            it->second(a, arguments[++i]);
        } else {
            throw std::invalid_argument("unknown option '" + a + "'");
        }
    }
    if (o.show_version || o.show_help) return o;
    if (o.metrics_path.empty()) throw std::invalid_argument("--metrics: the metric stream file is required");
    if (o.workload == "allreduce-sweep") return o; // needs no data set
    if (o.workload != "resnet20")
        throw std::invalid_argument("--workload: unknown workload '" + o.workload + "'");
    if (o.dataset != "fashion-mnist" && o.dataset != "synthetic-cifar")
        throw std::invalid_argument("--dataset: unknown dataset '" + o.dataset + "'");
    return o;
}

} // namespace scalebench
