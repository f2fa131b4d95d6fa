// The workloads the engine can run, with their data sets and the reference hyper-parameters of their source.
#include "workload_catalog.h"

namespace scalebench {
namespace {
constexpr const char* kMLBench = "MLBench tasks";
constexpr const char* kMLPerf = "MLPerf-style";
constexpr const char* kLLM = "LLM pre-training";
constexpr const char* kCollectives = "Collectives";
} // namespace

const std::vector<std::string>& workloadGroups() {
    static const std::vector<std::string> groups = {kMLBench, kMLPerf, kLLM, kCollectives};
    return groups;
}

// docs/workloads.md says where each number comes from.
const std::vector<WorkloadInfo>& workloadCatalog() {
    static const std::vector<WorkloadInfo> catalog = {
        {.name = "resnet20",
         .group = kMLBench,
         .description = "ResNet-20 (He et al. 2015, v1) image classification",
         .source = "MLBench task 1: batch 128 per worker, lr 0.02 scaled by workers with warm-up, Nesterov "
                   "momentum 0.9, weight decay 1e-4",
         .datasets = {"fashion-mnist", "cifar10", "synthetic-cifar"},
         .precisions = {"fp32"},
         .batch_per_rank = 128,
         .base_lr = 0.02,
         .eval_metric = "accuracy",
         .presets = {},
         .seq_len = 0},
        {.name = "resnet56",
         .group = kMLBench,
         .description = "ResNet-56 (He et al. 2015, v1) image classification",
         .source = "MLBench task 1: batch 128 per worker, lr 0.02 scaled by workers with warm-up, Nesterov "
                   "momentum 0.9, weight decay 1e-4",
         .datasets = {"cifar10", "fashion-mnist", "synthetic-cifar"},
         .precisions = {"fp32"},
         .batch_per_rank = 128,
         .base_lr = 0.02,
         .eval_metric = "accuracy",
         .presets = {},
         .seq_len = 0},
        {.name = "logistic-regression",
         .group = kMLBench,
         .description = "L2-regularised logistic regression (MLBench task 2)",
         .source = "MLBench task 2: epsilon-format LIBSVM data, SGD",
         .datasets = {"synthetic-epsilon", "libsvm"},
         .precisions = {"fp32"},
         .batch_per_rank = 100,
         .base_lr = 0.1,
         .eval_metric = "loss",
         .presets = {},
         .seq_len = 0},
        {.name = "lstm-lm",
         .group = kMLBench,
         .description = "LSTM language model, AWD-LSTM settings (MLBench task 3)",
         .source = "MLBench task 3: bptt 70 with random length, gradient clipping 0.25, dropouts",
         .datasets = {"wikitext2", "synthetic-text"},
         .precisions = {"fp32"},
         .batch_per_rank = 80,
         .base_lr = 30,
         .eval_metric = "perplexity",
         .presets = {},
         .seq_len = 70},
        {.name = "gnmt",
         .group = kMLBench,
         .description = "GNMT: LSTM encoder-decoder with attention, translation (MLBench task 4)",
         .source = "MLBench task 4: Adam with warm-up and decay, label smoothing 0.1, target BLEU 24.0",
         .datasets = {"wmt", "synthetic-parallel"},
         .precisions = {"fp32"},
         .batch_per_rank = 128,
         .base_lr = 2e-3,
         .eval_metric = "bleu",
         .presets = {"base", "tiny"},
         .seq_len = 0},
        {.name = "transformer",
         .group = kMLBench,
         .description = "Transformer (base), translation (MLBench task 4)",
         .source = "MLBench task 4: Adam betas 0.9/0.98, inverse square root warm-up, label smoothing 0.1, "
                   "target BLEU 25.0",
         .datasets = {"wmt", "synthetic-parallel"},
         .precisions = {"fp32"},
         .batch_per_rank = 128,
         .base_lr = 1.976e-3,
         .eval_metric = "bleu",
         .presets = {"base", "tiny"},
         .seq_len = 0},
        {.name = "resnet50",
         .group = kMLPerf,
         .description = "ResNet-50 v1.5 on ImageNet-shaped synthetic images (MLPerf image classification proxy)",
         .source = "MLPerf Training ResNet-50 reference: SGD momentum 0.9, label smoothing 0.1, warm-up + "
                   "polynomial decay",
         .datasets = {"synthetic-imagenet"},
         .precisions = {"fp32"},
         .batch_per_rank = 32,
         .base_lr = 0.1,
         .eval_metric = "accuracy",
         .presets = {},
         .seq_len = 0},
        {.name = "bert",
         .group = kMLPerf,
         .description = "BERT-large-shaped encoder, masked-LM loss on synthetic tokens (MLPerf BERT proxy)",
         .source = "MLPerf Training BERT: 24 layers, hidden 1024, 16 heads, sequence 512, target MLM accuracy "
                   "0.72",
         .datasets = {"synthetic-tokens"},
         .precisions = {"fp32"},
         .batch_per_rank = 8,
         .base_lr = 1e-4,
         .eval_metric = "accuracy",
         .presets = {"large", "tiny"},
         .seq_len = 512},
        {.name = "llama",
         .group = kLLM,
         .description = "Llama-style decoder (RMSNorm, rotary embeddings, SwiGLU, grouped-query attention)",
         .source = "MaxText recipe (seed 003): synthetic tokens, tokens/s and MFU; Llama-2 7B/13B/70B shapes",
         .datasets = {"synthetic-tokens"},
         .precisions = {"fp32"},
         .batch_per_rank = 4,
         .base_lr = 3e-4,
         .eval_metric = "loss",
         .presets = {"tiny", "small", "7b", "13b", "70b"},
         .seq_len = 4096},
        {.name = "allreduce-sweep",
         .group = kCollectives,
         .description = "Collectives (all-reduce, all-gather, reduce-scatter, broadcast, all-to-all) over a "
                        "range of sizes; algbw and busbw as nccl-tests define them",
         .source = "MLBench task 0: np.logspace(0, 8, 80) elements, 100 repetitions each",
         .datasets = {"none"},
         .precisions = {"fp32"},
         .batch_per_rank = 1,
         .base_lr = 1,
         .eval_metric = "",
         .presets = {},
         .seq_len = 0},
    };
    return catalog;
}

const WorkloadInfo* findWorkload(const std::string& name) {
    for (const auto& w : workloadCatalog())
        if (w.name == name) return &w;
    return nullptr;
}

bool isCollectiveSweep(const WorkloadInfo& workload) {
    return workload.group == kCollectives;
}

} // namespace scalebench
