// The workloads' MLPerf Training benchmarks and the compliance checker's ruleset for each.
#include "mlperf_benchmark.h"

#include <algorithm>

namespace scalebench {

// A log claims its benchmark in the open division (a proxy is never an MLPerf closed result), so each
// ruleset is the newest of mlperf-logging 4.1.68 whose training_X/open_common.yaml accepts the benchmark and
// has its open_BENCHMARK.yaml: resnet was dropped after 4.1.0, whose open_resnet.yaml is missing; bert after
// 5.0.0; gnmt and transformer after 0.7.0, which wants their BLEU as a fraction of at least 0.24 and 0.25.
// Llama pre-training on synthetic tokens stands in for llama31_8b (pre-training, eval_accuracy the held-out
// log perplexity, i.e. the next-token loss), not llama2_70b_lora (LoRA fine-tuning). The language model and
// logistic regression have no MLPerf Training benchmark: their logs name none.
const std::vector<MlperfBenchmark>& mlperfBenchmarks() {
    static const std::vector<MlperfBenchmark> table = {
        {"resnet20", "resnet", "4.0.0"},  {"resnet56", "resnet", "4.0.0"},
        {"logistic-regression", "", ""},  {"lstm-lm", "", ""},
        {"gnmt", "gnmt", "0.7.0"},        {"transformer", "transformer", "0.7.0"},
        {"resnet50", "resnet", "4.0.0"},  {"bert", "bert", "5.0.0"},
        {"llama", "llama31_8b", "6.1.0"},
    };
    return table;
}

std::optional<MlperfBenchmark> mlperfBenchmarkOf(const std::string& workload) {
    const auto& table = mlperfBenchmarks();
    const auto row = std::find_if(table.begin(), table.end(), [&](const MlperfBenchmark& b) {
        return b.workload == workload && !b.benchmark.empty();
    });
    if (row == table.end()) return std::nullopt;
    return *row;
}

std::string mlperfPrecision(const std::string& precision, bool tf32) {
    if (precision == "bf16") return "bfloat16";
    if (precision == "fp16") return "fp16";
    return tf32 ? "tf32" : "fp32";
}

} // namespace scalebench
