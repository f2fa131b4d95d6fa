// MLBench task 1: ResNet image classification with SGD, linear scaling, warm-up and plateau decay; top-1
// accuracy.
#include "image_classification.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

// He et al. 2015, section 4.2 (MLBench task 1's preprocessing): 4 pixels padded on each side, a random 32 x
// 32 crop, random horizontal flip.
constexpr int64_t kCropPadding = 4;

struct Shards {
    LabelledImages train, held_out;
    int64_t in_channels = 3;
};

LabelledImages firstSamples(const LabelledImages& data, int64_t count) {
    const int64_t kept = std::min<int64_t>(data.size(), count);
    return {data.images.narrow(0, 0, kept), data.labels.narrow(0, 0, kept)};
}

Shards loadShards(const EngineOptions& o, const World& w) {
    // --eval-samples 0: the whole held-out set (MLBench task 1 evaluates on all 10,000 CIFAR-10 test images);
    // synthetic data has no set of its own, and makes kSyntheticHeldOut images.
    const int64_t held_out_share = o.eval_samples > 0 ? o.eval_samples / w.ranks + 1 : INT64_MAX;
    const int synthetic_held_out = syntheticHeldOut(o);
    if (o.dataset == "fashion-mnist")
        return {loadFashionMnistShard(o.data_dir, "train", w.rank, w.ranks),
                firstSamples(loadFashionMnistShard(o.data_dir, "t10k", w.rank, w.ranks), held_out_share), 1};
    if (o.dataset == "cifar10")
        return {loadCifar10Shard(o.data_dir, "train", w.rank, w.ranks),
                firstSamples(loadCifar10Shard(o.data_dir, "test", w.rank, w.ranks), held_out_share), 3};
    if (o.dataset == "synthetic-cifar")
        return {syntheticCifar(8 * o.batch_per_rank, o.seed + w.rank),
                syntheticCifar(std::max(1, synthetic_held_out / w.ranks), o.seed + 1000 + w.rank), 3};
    throw std::invalid_argument("--dataset: " + o.workload + " has no dataset '" + o.dataset +
                                "' (known: fashion-mnist, cifar10, synthetic-cifar)");
}

// resnet20 -> 20, resnet56 -> 56 (CifarResNet checks 6n + 2).
int64_t depthOf(const std::string& workload) {
    const std::string prefix = "resnet";
    if (workload.rfind(prefix, 0) != 0 || workload.size() == prefix.size())
        throw std::invalid_argument("--workload: '" + workload + "' is not resnetN");
    return std::stoll(workload.substr(prefix.size()));
}

} // namespace

ImageClassification::ImageClassification(const EngineOptions& options, const World& world)
    : options_(options), world_(world), depth_(depthOf(options.workload)), batches_([&] {
          Shards shards = loadShards(options, world);
          held_out_ = shards.held_out;
          model_ = CifarResNet(shards.in_channels, 10, depth_);
          augment_ = options.dataset == "cifar10" && options.augmentation == "standard";
          return BatchSampler(shards.train, options.batch_per_rank,
                              static_cast<uint64_t>(options.seed) * 7919 + static_cast<uint64_t>(world.rank));
      }()),
      augmentation_random_(static_cast<uint64_t>(options.seed) * 104729 + static_cast<uint64_t>(world.rank)) {
    useChannelsLast(*model_);
    warmup_steps_ =
        options.warmup_steps >= 0
            ? options.warmup_steps
            : static_cast<int64_t>(
                  std::log2(world.ranks) * static_cast<double>(batches_.batchesPerEpoch()) /
                  static_cast<double>(accumulationOf(options, world))); // steps of log2(ranks) epochs
}

std::unique_ptr<torch::optim::Optimizer> ImageClassification::makeOptimizer() {
    return std::make_unique<torch::optim::SGD>(
        model_->parameters(),
        torch::optim::SGDOptions(options_.lr).momentum(0.9).nesterov(true).weight_decay(1e-4));
}

Batch ImageClassification::nextBatch() {
    auto [images, labels] = batches_.next(); // images: (B, C, H, W), labels: (B)
    if (augment_) images = randomCropAndFlip(images, kCropPadding, augmentation_random_);
    ++steps_taken_;
    const int64_t samples = labels.size(0);
    return {{images.contiguous(torch::MemoryFormat::ChannelsLast), labels}, samples, 0};
}

torch::Tensor ImageClassification::forwardLoss(const Batch& batch) {
    auto logits = model_->forward(batch.tensors[0]); // (B, 10)
    return torch::cross_entropy_loss(logits, batch.tensors[1]);
}

// MLBench task 1 (seed 004): linear warm-up from lr to lr x ranks over the first log2(ranks) epochs (the
// linear scaling rule of Goyal et al.), then lr x ranks divided by 10 at each plateau of the held-out loss.
double ImageClassification::learningRate(int64_t step) const {
    const double target = options_.lr * world_.ranks;
    if (warmup_steps_ <= 0 || step >= warmup_steps_) return target * plateau_.factor();
    return (options_.lr +
            (target - options_.lr) * static_cast<double>(step) / static_cast<double>(warmup_steps_)) *
           plateau_.factor();
}

// The plateau rule (PlateauDecay), judged once an epoch: epochs completed from every rank's samples.
void ImageClassification::afterEvaluation(const Evaluation& evaluation) {
    // Whole passes over the training data: every rank draws batchesPerEpoch() batches a pass.
    plateau_.observe(steps_taken_ / std::max<int64_t>(1, batches_.batchesPerEpoch()), evaluation.loss);
}

Evaluation evaluateClassifier(torch::nn::Module& model,
                              const std::function<torch::Tensor(const torch::Tensor&)>& logits_of,
                              const LabelledImages& held_out, int64_t batch) {
    torch::NoGradGuard no_grad;
    model.eval();
    const torch::Device device = deviceOf(model);
    double sums[3] = {0, 0, 0}; // correct, loss x samples, samples
    for (int64_t start = 0; start < held_out.size(); start += batch) {
        const int64_t n = std::min(batch, held_out.size() - start);
        auto images =
            held_out.images.narrow(0, start, n).to(device).contiguous(torch::MemoryFormat::ChannelsLast);
        auto logits = logits_of(images); // (n, classes)
        auto labels = held_out.labels.narrow(0, start, n).to(device);
        sums[0] += logits.argmax(1).eq(labels).sum().item<double>();
        sums[1] += torch::cross_entropy_loss(logits, labels).item<double>() * static_cast<double>(n);
        sums[2] += static_cast<double>(n);
    }
    sumAcrossRanks(sums);
    model.train();
    return {sums[0] / sums[2], sums[1] / sums[2]};
}

// Accuracy and loss over every rank's share of the held-out samples.
Evaluation ImageClassification::evaluate() {
    return evaluateClassifier(
        *model_, [this](const torch::Tensor& x) { return model_->forward(x); }, held_out_, 500);
}

nlohmann::json ImageClassification::hyperparameters() const {
    return withRunHyperparameters(
        options_, world_,
        {{"depth", depth_},
         {"peak_lr", options_.lr * world_.ranks},
         {"warmup_steps", warmup_steps_},
         {"lr_decay", "x0.1 after 2 epochs without a lower held-out loss"},
         {"optimizer", "SGD nesterov momentum 0.9 weight_decay 1e-4"},
         {"augmentation", augment_ ? "random crop (padding 4), horizontal flip" : "none"}});
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

void ImageClassification::saveState(torch::serialize::OutputArchive& archive) const {
    batches_.saveState(archive); // the data position, then the schedule's plateau state
    archive.write("steps_taken", torch::tensor(steps_taken_, torch::kInt64));
    plateau_.save(archive);
}

void ImageClassification::loadState(torch::serialize::InputArchive& archive) {
    batches_.loadState(archive);
    torch::Tensor steps;
    archive.read("steps_taken", steps);
    steps_taken_ = steps.item<int64_t>();
    plateau_.load(archive);
}

} // namespace scalebench
