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
         .description = "ResNet-20 (He et al. 2015, v1) image classification, top-1 accuracy",
         .source =
             "MLBench task 1: batch 128 per worker, lr 0.02 scaled by workers with warm-up over "
             "log2(workers) "
             "epochs, x0.1 after 2 epochs of held-out-loss plateau, Nesterov momentum 0.9, weight decay 1e-4",
         .datasets = {"fashion-mnist", "cifar10", "synthetic-cifar"},
         .precisions = {"fp32", "bf16", "fp16"},
         .batch_per_rank = 128,
         .base_lr = 0.02,
         .eval_metric = "accuracy",
         .presets = {},
         .seq_len = 0,
         // MLBench task 1: the plateau is judged per epoch, on the whole test set (10,000 images)
         .eval_every = -1,
         .eval_samples = 0},
        {.name = "resnet56",
         .group = kMLBench,
         .description = "ResNet-56 (He et al. 2015, v1) image classification, top-1 accuracy",
         .source =
             "MLBench task 1: batch 128 per worker, lr 0.02 scaled by workers with warm-up over "
             "log2(workers) "
             "epochs, x0.1 after 2 epochs of held-out-loss plateau, Nesterov momentum 0.9, weight decay 1e-4",
         .datasets = {"cifar10", "fashion-mnist", "synthetic-cifar"},
         .precisions = {"fp32", "bf16", "fp16"},
         .batch_per_rank = 128,
         .base_lr = 0.02,
         .eval_metric = "accuracy",
         .presets = {},
         .seq_len = 0,
         // MLBench task 1: the plateau is judged per epoch, on the whole test set (10,000 images)
         .eval_every = -1,
         .eval_samples = 0},
        {.name = "logistic-regression",
         .group = kMLBench,
         .description = "L2-regularised logistic regression (binary), held-out accuracy (and log-loss)",
         .source = "MLBench task 2: batch 128 per worker, lr 4 scaled by workers, x0.1 after 2 epochs of "
                   "held-out-loss plateau, SGD without momentum, BCE + L2 2.5e-6; test accuracy 89%",
         .datasets = {"synthetic-epsilon", "libsvm"},
         .precisions = {"fp32", "bf16", "fp16"},
         .batch_per_rank = 128,
         .base_lr = 4,
         .eval_metric = "accuracy",
         .presets = {},
         .seq_len = 0,
         .eval_every = -1, // MLBench task 2 (seed 004) judges its plateau "for 2 consecutive epochs"
         .eval_samples = 0},
        {.name = "lstm-lm",
         .group = kMLBench,
         .description = "AWD-LSTM word-level language model (400/1150/3, tied), validation perplexity",
         .source = "MLBench task 3: batch 80 per worker, bptt 70 (random length), lr 30 x seq_len/bptt "
                   "warmed up to x sqrt(workers), weight decay 1.2e-6, clip 0.25, AR 2, TAR 1, weight drop "
                   "0.5, averaged SGD after 5 epochs without a lower validation perplexity",
         .datasets = {"synthetic-text", "wikitext2"},
         .precisions = {"fp32", "bf16", "fp16"},
         .batch_per_rank = 80,
         .base_lr = 30,
         .eval_metric = "perplexity",
         .presets = {"awd", "small", "tiny"},
         .seq_len = 70,
         .eval_every = -1, // MLBench task 3 (seed 004): averaged SGD after 5 epochs of no better perplexity
         .eval_samples = 0},
        {.name = "gnmt",
         .group = kMLBench,
         .description =
             "GNMT (Wu et al. 2016) translation: residual LSTM encoder-decoder with normalized Bahdanau "
             "attention, BLEU",
         .source =
             "MLBench task 4a (WMT16 en-de): hidden 1024, 4 layers, Adam lr 2e-3 with 200 exponential "
             "warm-up steps, x0.5 decays after 40%, label smoothing 0.1, gradient clipping 5.0, fp16 loss "
             "scale 2^10 (window 128, max 2^13; fp16 on GPUs only: no fp16 LSTM on the CPU); target BLEU "
             "24.0",
         .datasets = {"synthetic-parallel", "wmt"},
         .precisions = {"fp32", "bf16", "fp16"},
         .batch_per_rank = 128,
         .base_lr = 2e-3,
         .eval_metric = "bleu",
         .presets = {"mlbench", "tiny"},
         .seq_len = 75,
         .eval_every = 0,
         .eval_samples = 0},
        {.name = "transformer",
         .group = kMLBench,
         .description = "Transformer (Vaswani et al. 2017) translation, pre-norm, shared embeddings, BLEU",
         .source =
             "MLBench task 4b (WMT17 en-de): Adam (0.9, 0.98) eps 1e-9, lr 1.976e-3, 1000 linear warm-up "
             "steps then inverse square root decay, label smoothing 0.1, gradients over the tokens of all "
             "workers, fp16 loss scale 2^7 (window 2000); target BLEU 25.0",
         .datasets = {"synthetic-parallel", "wmt"},
         .precisions = {"fp32", "bf16", "fp16"},
         .batch_per_rank = 128,
         .base_lr = 1.976e-3,
         .eval_metric = "bleu",
         .presets = {"mlbench", "base", "tiny"},
         .seq_len = 80,
         .eval_every = 0,
         .eval_samples = 0},
        {.name = "resnet50",
         .group = kMLPerf,
         .description =
             "ResNet-50 v1.5 (torchvision) image classification on synthetic ImageNet-shaped data; "
             "preset: the image side",
         .source =
             "MLPerf Training ResNet-50 reference (seeds give no hyper-parameters): SGD momentum 0.9, weight "
             "decay 1e-4, label smoothing 0.1, lr 0.1 per 256 images scaled with the global batch, linear "
             "warm-up then polynomial decay (power 2)",
         .datasets = {"synthetic-imagenet"},
         .precisions = {"fp32", "bf16", "fp16"},
         .batch_per_rank = 256,
         .base_lr = 0.1,
         .eval_metric = "accuracy",
         .presets = {"224", "192", "160", "128", "112", "96", "64", "32"},
         .seq_len = 0,
         .eval_every = 0,
         .eval_samples = 2000},
        {.name = "bert",
         .group = kMLPerf,
         .description = "BERT-large encoder (post-LN, GELU), masked-LM 15% (80/10/10) on synthetic tokens, "
                        "masked-LM accuracy",
         .source = "MLPerf Training BERT (seed 000): LAMB b 0.9/0.999, wd 0.01, sequence 512, target 0.72 "
                   "masked-LM accuracy",
         .datasets = {"synthetic-tokens"},
         .precisions = {"fp32", "bf16", "fp16"},
         .batch_per_rank = 8,
         .base_lr = 3.5e-4,
         .eval_metric = "accuracy",
         .presets = {"large", "tiny"},
         .seq_len = 512,
         .eval_every = 0,
         .eval_samples = 2000},
        {.name = "llama",
         .group = kLLM,
         .description = "Llama-style decoder (RMSNorm, grouped-query causal attention with RoPE, SwiGLU), "
                        "next-token loss; tokens/s and MFU",
         .source =
             "MaxText Llama-2 recipe (seed 003): synthetic data, sequence 4096, AdamW b 0.9/0.95, wd 0.1, "
             "cosine with warm-up, clip 1.0 (Llama 2); MFU with the recipe's model FLOPs",
         .datasets = {"synthetic-tokens"},
         .precisions = {"fp32", "bf16", "fp16"},
         .batch_per_rank = 2,
         .base_lr = 3e-4,
         .eval_metric = "loss",
         .presets = {"small", "tiny", "1b", "7b", "13b", "70b"},
         .seq_len = 4096,
         .eval_every = 0,
         .eval_samples = 2000},
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
         .seq_len = 0,
         .eval_every = 0,
         .eval_samples = 2000},
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

std::optional<SeedTarget> seedTarget(const std::string& workload, const std::string& dataset) {
    struct Row {
        const char* workload;
        const char* dataset;
        SeedTarget target;
    };
    // MLBench's task specifications (seed 004): each task's quality target, from its results' "Metric" line.
    static const Row rows[] = {
        {"resnet20",
         "cifar10",
         {"accuracy", 80, "seed 004, task 1a: \"Time to Accuracy of 80% on validation set\""}},
        {"logistic-regression",
         "libsvm",
         {"accuracy", 89,
          "seed 004, task 2a: \"speedup of time to accuracy, for test accuracy of 89%\" (its Metric line "
          "says "
          "80%, copied from task 1; the figures use 89%)"}},
        {"lstm-lm",
         "wikitext2",
         {"perplexity", 70, "seed 004, task 3a: \"Time to Perplexity of 70 on validation set\""}},
        {"gnmt", "wmt", {"bleu", 24, "seed 004, task 4a: \"Time to BLEU-Score of 24.0 on test set\""}},
        {"transformer", "wmt", {"bleu", 25, "seed 004, task 4b: \"Time to BLEU-Score of 25.0 on test set\""}},
    };
    for (const Row& row : rows)
        if (workload == row.workload && dataset == row.dataset) return row.target;
    return std::nullopt;
}

double defaultTarget(const WorkloadInfo& workload, const std::string& dataset) {
    const std::optional<SeedTarget> seed = seedTarget(workload.name, dataset);
    return seed && seed->metric == workload.eval_metric ? seed->value : 0;
}

std::string presetRefusal(const std::string& workload, const std::string& preset) {
    if (workload != "llama") return "";
    const auto refusal = [](const char* parameters, const char* bytes) {
        return std::string("Llama-2 ") + parameters +
               " trained data-parallel keeps a whole replica on every GPU: " +
               "fp32 weights, gradients and Adam's two moments, 16 bytes a parameter, " + bytes +
               ", beyond any one GPU (80 GB H100, 141 GB H200). It needs its state sharded across GPUs "
               "(FSDP: MaxText's Llama-2 recipe trains 70B with FSDP=64), which the data-parallel engine "
               "does not have; run MaxText's recipe for it as a benchmark of its own";
    };
    if (preset == "13b") return refusal("13B", "208 GB");
    if (preset == "70b") return refusal("70B", "1.1 TB");
    return "";
}

} // namespace scalebench
