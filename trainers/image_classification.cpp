// MLBench task 1: ResNet image classification with SGD, linear scaling and warm-up; top-1 accuracy.
#include "image_classification.h"

#include <cmath>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

struct Shards {
    LabelledImages train, held_out;
    int64_t in_channels = 3;
};

Shards loadShards(const EngineOptions& o, const World& w) {
    if (o.dataset == "fashion-mnist") {
        Shards s{loadFashionMnistShard(o.data_dir, "train", w.rank, w.ranks),
                 loadFashionMnistShard(o.data_dir, "t10k", w.rank, w.ranks), 1};
        const int64_t kept = std::min<int64_t>(s.held_out.size(), o.eval_samples / w.ranks + 1);
        s.held_out = {s.held_out.images.narrow(0, 0, kept), s.held_out.labels.narrow(0, 0, kept)};
        return s;
    }
    if (o.dataset == "synthetic-cifar")
        return {syntheticCifar(8 * o.batch_per_rank, o.seed + w.rank),
                syntheticCifar(std::max(1, o.eval_samples / w.ranks), o.seed + 1000 + w.rank), 3};
    throw std::invalid_argument("--dataset: " + o.workload + " has no dataset '" + o.dataset +
                                "' (known: fashion-mnist, synthetic-cifar)");
}

} // namespace

ImageClassification::ImageClassification(const EngineOptions& options, const World& world)
    : options_(options), world_(world), batches_([&] {
          Shards shards = loadShards(options, world);
          held_out_ = shards.held_out;
          model_ = CifarResNet(shards.in_channels, 10, 20);
          return BatchSampler(shards.train, options.batch_per_rank,
                              static_cast<uint64_t>(options.seed) * 7919 + static_cast<uint64_t>(world.rank));
      }()) {
    useChannelsLast(*model_);
    warmup_steps_ = options.warmup_steps >= 0
                        ? options.warmup_steps
                        : static_cast<int64_t>(std::log2(world.ranks) *
                                               static_cast<double>(batches_.batchesPerEpoch()));
}

std::unique_ptr<torch::optim::Optimizer> ImageClassification::makeOptimizer() {
    return std::make_unique<torch::optim::SGD>(
        model_->parameters(),
        torch::optim::SGDOptions(options_.lr).momentum(0.9).nesterov(true).weight_decay(1e-4));
}

Batch ImageClassification::nextBatch() {
    auto [images, labels] = batches_.next(); // images: (B, C, H, W), labels: (B)
    const int64_t samples = labels.size(0);
    return {{images.contiguous(torch::MemoryFormat::ChannelsLast), labels}, samples, 0};
}

torch::Tensor ImageClassification::forwardLoss(const Batch& batch) {
    auto logits = model_->forward(batch.tensors[0]); // (B, 10)
    return torch::cross_entropy_loss(logits, batch.tensors[1]);
}

// Linear warm-up from lr to lr x ranks (MLBench task 1: linear scaling rule, Goyal et al.).
double ImageClassification::learningRate(int64_t step) const {
    const double target = options_.lr * world_.ranks;
    if (warmup_steps_ <= 0 || step >= warmup_steps_) return target;
    return options_.lr +
           (target - options_.lr) * static_cast<double>(step) / static_cast<double>(warmup_steps_);
}

// Accuracy and loss over every rank's share of the held-out samples.
Evaluation ImageClassification::evaluate() {
    constexpr int64_t kEvalBatch = 500;
    torch::NoGradGuard no_grad;
    model_->eval();
    double sums[3] = {0, 0, 0}; // correct, loss x samples, samples
    for (int64_t start = 0; start < held_out_.size(); start += kEvalBatch) {
        const int64_t n = std::min(kEvalBatch, held_out_.size() - start);
        auto images = held_out_.images.narrow(0, start, n).contiguous(torch::MemoryFormat::ChannelsLast);
        auto logits = model_->forward(images); // (n, 10)
        auto labels = held_out_.labels.narrow(0, start, n);
        sums[0] += logits.argmax(1).eq(labels).sum().item<double>();
        sums[1] += torch::cross_entropy_loss(logits, labels).item<double>() * static_cast<double>(n);
        sums[2] += static_cast<double>(n);
    }
    sumAcrossRanks(sums);
    model_->train();
    return {sums[0] / sums[2], sums[1] / sums[2]};
}

nlohmann::json ImageClassification::hyperparameters() const {
    return {{"steps", options_.steps},
            {"batch_per_rank", options_.batch_per_rank},
            {"global_batch", static_cast<int64_t>(options_.batch_per_rank) * world_.ranks},
            {"base_lr", options_.lr},
            {"peak_lr", options_.lr * world_.ranks},
            {"warmup_steps", warmup_steps_},
            {"optimizer", "SGD nesterov momentum 0.9 weight_decay 1e-4"},
            {"seed", options_.seed}};
}

nlohmann::json ImageClassification::mllogFields() const {
    return {{"opt_name", "sgd"},
            {"opt_weight_decay", 1e-4},
            {"train_samples", batches_.batchesPerEpoch() * options_.batch_per_rank * world_.ranks},
            {"eval_samples", held_out_.size() * world_.ranks}};
}

nlohmann::json ImageClassification::headerFields() const {
    return {{"memory_format", "channels_last"}};
}

} // namespace scalebench
