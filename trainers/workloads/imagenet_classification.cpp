// MLPerf Training's image classification as a proxy: ResNet-50 v1.5 on ImageNet-shaped synthetic data.
#include "imagenet_classification.h"

#include "image_classification.h"

#include <cmath>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

// The MLPerf ResNet-50 reference's hyper-parameters (the seeds name none; docs/workloads.md):
constexpr int64_t kClasses = 1000;        // ImageNet-1k
constexpr double kMomentum = 0.9;         // SGD momentum
constexpr double kWeightDecay = 1e-4;     // on convolution and classifier weights, not on BatchNorm or biases
constexpr double kLabelSmoothing = 0.1;   // of the training loss
constexpr double kReferenceBatch = 256;   // --lr is per 256 images, scaled linearly with the global batch
constexpr double kEndLearningRate = 1e-4; // where the polynomial decay ends, at the last step
constexpr double kDecayPower = 2;         // polynomial decay's power
constexpr int64_t kSyntheticBatches = 4;  // the synthetic training set: this many batches of each rank
constexpr int64_t kEvalBatch = 64;        // held-out images a forward pass

int64_t imageSide(const EngineOptions& o) {
    if (o.preset.empty()) return 224;
    std::size_t used = 0;
    int64_t side = 0;
    try {
        side = std::stoll(o.preset, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != o.preset.size() || side < 32)
        throw std::invalid_argument("--preset: " + o.workload +
                                    " takes the image side in pixels (32 or more, " +
                                    "224 by default), not '" + o.preset + "'");
    return side;
}

} // namespace

ImageNetClassification::ImageNetClassification(const EngineOptions& options, const World& world)
    : options_(options), world_(world), side_(imageSide(options)), batches_([&] {
          if (options.dataset != "synthetic-imagenet")
              throw std::invalid_argument("--dataset: " + options.workload + " has no dataset '" +
                                          options.dataset + "' (known: synthetic-imagenet)");
          held_out_ = syntheticImages(std::max(1, options.eval_samples / world.ranks), side_, kClasses,
                                      options.seed + 1000 + world.rank);
          model_ = ResNet50(kClasses, 64);
          return BatchSampler(syntheticImages(kSyntheticBatches * options.batch_per_rank, side_, kClasses,
                                              options.seed + world.rank),
                              options.batch_per_rank,
                              static_cast<uint64_t>(options.seed) * 7919 + static_cast<uint64_t>(world.rank));
      }()) {
    useChannelsLast(*model_);
    // The reference warms up over a number of epochs; synthetic data has none, so a tenth of the run.
    warmup_steps_ = options.warmup_steps >= 0 ? options.warmup_steps : options.steps / 10;
}

// Weight decay on the convolution and classifier weights only (the reference leaves BatchNorm's scale and
// shift and the biases out).
std::unique_ptr<torch::optim::Optimizer> ImageNetClassification::makeOptimizer() {
    std::vector<torch::Tensor> decayed, plain;
    for (const auto& p : model_->parameters())
        (p.dim() > 1 ? decayed : plain).push_back(p);
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(
        decayed, std::make_unique<torch::optim::SGDOptions>(
                     torch::optim::SGDOptions(options_.lr).momentum(kMomentum).weight_decay(kWeightDecay)));
    groups.emplace_back(plain, std::make_unique<torch::optim::SGDOptions>(
                                   torch::optim::SGDOptions(options_.lr).momentum(kMomentum)));
    return std::make_unique<torch::optim::SGD>(std::move(groups), torch::optim::SGDOptions(options_.lr));
}

Batch ImageNetClassification::nextBatch() {
    auto [images, labels] = batches_.next(); // images: (B, 3, side, side), labels: (B)
    const int64_t samples = labels.size(0);
    return {{images.contiguous(torch::MemoryFormat::ChannelsLast), labels}, samples, 0};
}

torch::Tensor ImageNetClassification::forwardLoss(const Batch& batch) {
    auto logits = model_->forward(batch.tensors[0]); // (B, 1000)
    return torch::nn::functional::cross_entropy(
        logits, batch.tensors[1],
        torch::nn::functional::CrossEntropyFuncOptions().label_smoothing(kLabelSmoothing));
}

double ImageNetClassification::peakLearningRate() const {
    return options_.lr * static_cast<double>(globalBatchOf(options_, world_)) / kReferenceBatch;
}

// Linear warm-up from 0 to the peak, then polynomial decay (power 2) to 1e-4 at the last step (--steps).
double ImageNetClassification::learningRate(int64_t step) const {
    const double peak = peakLearningRate();
    if (step <= warmup_steps_) return peak * static_cast<double>(step) / static_cast<double>(warmup_steps_);
    const double decay_steps = std::max<double>(1, static_cast<double>(options_.steps - warmup_steps_));
    const double remaining = std::max(0.0, 1 - static_cast<double>(step - warmup_steps_) / decay_steps);
    return kEndLearningRate +
           (std::max(peak, kEndLearningRate) - kEndLearningRate) * std::pow(remaining, kDecayPower);
}

// Top-1 accuracy and loss (without smoothing) over every rank's share of the held-out images.
Evaluation ImageNetClassification::evaluate() {
    return evaluateClassifier(
        *model_, [this](const torch::Tensor& x) { return model_->forward(x); }, held_out_, kEvalBatch);
}

// Forward + backward = 3 forward passes of this rank's batch.
double ImageNetClassification::trainingFlopsPerStep() const {
    return 3 * resnet50ForwardFlops(side_, kClasses) * options_.batch_per_rank;
}

nlohmann::json ImageNetClassification::hyperparameters() const {
    return withRunHyperparameters(
        options_, world_,
        {{"image_side", side_},
         {"lr_reference_batch", kReferenceBatch},
         {"peak_lr", peakLearningRate()},
         {"end_lr", kEndLearningRate},
         {"warmup_steps", warmup_steps_},
         {"lr_decay", "polynomial, power 2, to end_lr at the last step"},
         {"optimizer", "SGD momentum 0.9 weight_decay 1e-4 (not on BatchNorm or biases)"},
         {"label_smoothing", kLabelSmoothing}});
}

// Every rank holds the same number of synthetic held-out images.
nlohmann::json ImageNetClassification::mllogFields() const {
    return {{"opt_name", "sgd"}, {"eval_samples", held_out_.size() * world_.ranks}};
}

nlohmann::json ImageNetClassification::headerFields() const {
    return {{"memory_format", "channels_last"},
            {"image_side", side_},
            {"model_flops_per_sample", 3 * resnet50ForwardFlops(side_, kClasses)}};
}

} // namespace scalebench
