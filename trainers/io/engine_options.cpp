// The engine's command line: what to train, for how long, with which hyper-parameters, and where to write
// metrics.
#include "engine_options.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>
#include <stdexcept>

namespace scalebench {
namespace {

std::vector<std::string> parseList(const std::string& option, const std::string& text,
                                   const std::vector<std::string>& known) {
    std::vector<std::string> items;
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t comma = std::min(text.find(',', from), text.size());
        const std::string item = text.substr(from, comma - from);
        if (std::find(known.begin(), known.end(), item) == known.end()) {
            std::string names;
            for (const auto& k : known)
                names += (names.empty() ? "" : ", ") + k;
            throw std::invalid_argument(option + ": unknown '" + item + "' (known: " + names + ")");
        }
        if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
        from = comma + 1;
    }
    return items;
}

std::string parseChoice(const std::string& option, const std::string& text,
                        const std::vector<std::string>& known) {
    if (text.find(',') != std::string::npos)
        throw std::invalid_argument(option + ": takes one value, got '" + text + "'");
    return parseList(option, text, known).front();
}

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
    return "usage: scalebench-engine --metrics FILE [--workload NAME (docs/workloads.md)|allreduce-sweep]\n"
           "         [--dataset fashion-mnist|cifar10|synthetic-cifar|synthetic-imagenet] [--data-dir DIR] "
           "[--steps N] "
           "[--batch-per-rank B]\n"
           "         [--lr LR] [--warmup-steps N] [--eval-every N] [--eval-samples N] [--threads T] [--seed "
           "S]\n"
           "         [--sweep-points P] [--sweep-max-log10 X] [--repetitions R] [--warmup-iterations W]\n"
           "         [--backend mpi|gloo|nccl] [--rendezvous-file F] [--bucket-mb MIB]\n"
           "         [--first-bucket-mb MIB] [--no-overlap]\n"
           "         [--dump-parameters F] [--target-accuracy A] [--collectives LIST] [--dtypes LIST] [--ops "
           "sum,avg]\n"
           "         [--placement out-of-place|in-place|both] [--timing back-to-back|per-call] [--version]\n"
           "         [--precision fp32|bf16|fp16] [--target VALUE] [--preset NAME] [--seq-len N]\n"
           "         [--augmentation standard|none (CIFAR-10's crop and flip, or none)]\n"
           "         [--checkpoint-dir DIR] [--checkpoint-every N] [--resume] [--mllog FILE]\n"
           "         [--peak-tflops T (per rank, dense, at the run's precision: MFU in step records)]\n"
           "Run under mpirun -np N: synchronous data-parallel SGD, gradients averaged in buckets over MPI, "
           "Gloo\n"
           "or NCCL while backward runs. LIST: comma-separated, e.g. --collectives allreduce,allgather,\n"
           "reducescatter,broadcast,alltoall --dtypes float32,float16,bfloat16.\n";
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
        {"--target-accuracy",
         [&](auto& k, auto& v) {
             o.target_accuracy = parseNumber(k, v, 0.0);
             if (o.target_accuracy > 1) throw std::invalid_argument(k + ": a fraction, at most 1");
         }},
        {"--target", [&](auto& k, auto& v) { o.target = parseNumber(k, v, 0.0); }},
        {"--precision",
         [&](auto& k, auto& v) {
             o.precision = parseChoice(k, v, {"fp32", "bf16", "fp16"});
         }},
        {"--preset", [&](auto&, auto& v) { o.preset = v; }},
        {"--augmentation",
         [&](auto& k, auto& v) {
             o.augmentation = parseChoice(k, v, {"standard", "none"});
         }},
        {"--seq-len", [&](auto& k, auto& v) { o.seq_len = parseNumber(k, v, 1); }},
        {"--checkpoint-dir", [&](auto&, auto& v) { o.checkpoint_dir = v; }},
        {"--checkpoint-every", [&](auto& k, auto& v) { o.checkpoint_every = parseNumber(k, v, 0); }},
        {"--mllog", [&](auto&, auto& v) { o.mllog_path = v; }},
        {"--peak-tflops", [&](auto& k, auto& v) { o.peak_tflops = parseNumber(k, v, 0.0); }},
        {"--warmup-steps", [&](auto& k, auto& v) { o.warmup_steps = parseNumber(k, v, -1); }},
        {"--eval-every", [&](auto& k, auto& v) { o.eval_every = parseNumber(k, v, 0); }},
        {"--eval-samples", [&](auto& k, auto& v) { o.eval_samples = parseNumber(k, v, 1); }},
        {"--threads", [&](auto& k, auto& v) { o.threads = parseNumber(k, v, 0); }},
        {"--seed", [&](auto& k, auto& v) { o.seed = parseNumber(k, v, 0); }},
        {"--sweep-points", [&](auto& k, auto& v) { o.sweep_points = parseNumber(k, v, 1); }},
        {"--sweep-max-log10", [&](auto& k, auto& v) { o.sweep_max_log10 = parseNumber(k, v, 0.0); }},
        {"--repetitions", [&](auto& k, auto& v) { o.repetitions = parseNumber(k, v, 1); }},
        {"--warmup-iterations", [&](auto& k, auto& v) { o.warmup_iterations = parseNumber(k, v, 0); }},
        {"--backend",
         [&](auto& k, auto& v) {
             o.backend = parseChoice(k, v, {"mpi", "gloo", "nccl"});
         }},
        {"--rendezvous-file", [&](auto&, auto& v) { o.rendezvous_file = v; }},
        {"--bucket-mb", [&](auto& k, auto& v) { o.bucket_mb = parseNumber(k, v, 0.0); }},
        {"--first-bucket-mb", [&](auto& k, auto& v) { o.first_bucket_mb = parseNumber(k, v, 0.0); }},
        {"--dump-parameters", [&](auto&, auto& v) { o.dump_parameters = v; }},
        {"--collectives",
         [&](auto& k, auto& v) {
             o.collectives =
                 parseList(k, v, {"allreduce", "allgather", "reducescatter", "broadcast", "alltoall"});
         }},
        {"--dtypes",
         [&](auto& k, auto& v) {
             o.dtypes = parseList(k, v, {"float32", "float16", "bfloat16"});
         }},
        {"--ops",
         [&](auto& k, auto& v) {
             o.ops = parseList(k, v, {"sum", "avg"});
         }},
        {"--timing",
         [&](auto& k, auto& v) {
             o.timing = parseChoice(k, v, {"back-to-back", "per-call"});
         }},
        {"--placement",
         [&](auto& k, auto& v) {
             o.placement = parseChoice(k, v, {"out-of-place", "in-place", "both"});
         }},
    };
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& a = arguments[i];
        if (a == "--version") {
            o.show_version = true;
        } else if (a == "--resume") {
            o.resume = true;
        } else if (a == "--no-overlap") {
            o.overlap = false;
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
    if (o.resume && o.checkpoint_dir.empty())
        throw std::invalid_argument("--resume: needs --checkpoint-dir, where the checkpoints are");
    // Workload and dataset names are checked where the workload is built (makeWorkload).
    return o;
}

} // namespace scalebench
