// MLBench task 2: L2-regularised logistic regression, synchronous SGD, lr scaled by the ranks and decayed on
// a plateau of the held-out loss; held-out accuracy and regularised log-loss.
#include "logistic_regression.h"

#include "libsvm_file.h"

#include <ATen/CPUGeneratorImpl.h>
#include <cmath>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

// MLBench task 2: BCELossRegularized(l1 = 0, l2 = 0.0000025).
constexpr double kL2 = 2.5e-6;
// epsilon's width (the LIBSVM site's epsilon_normalized: 400,000 training and 100,000 test rows).
constexpr int64_t kEpsilonFeatures = 2000;
// synthetic-epsilon: rows from a low-dimensional latent space (plus isotropic noise), so that plain SGD
// learns in a few hundred samples where 2000 isotropic dimensions would need tens of thousands.
constexpr int64_t kLatentDimensions = 16;
constexpr double kIsotropicNoise = 0.3;    // share of a row's norm outside the latent space
constexpr double kLabelNoise = 0.3;        // std of the noise added to the (unit-std) margin: ~10% flipped
constexpr uint64_t kHyperplaneSeed = 2000; // the same hyperplane for every run and rank

struct Shards {
    LibsvmShard train, held_out;
};

// samples rows of width 2000 and norm ~1 (epsilon's rows are normalised), labels 1 where a fixed random
// hyperplane's margin plus noise is positive.
LibsvmShard syntheticEpsilon(int64_t samples, uint64_t seed) {
    auto fixed = at::make_generator<at::CPUGeneratorImpl>(kHyperplaneSeed);
    const auto basis =
        std::get<0>(torch::linalg_qr(torch::randn({kEpsilonFeatures, kLatentDimensions}, fixed))); // (F, k)
    const auto hyperplane = torch::randn({kLatentDimensions}, fixed);
    const auto direction = hyperplane / hyperplane.norm(); // (k), unit

    auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    const auto latent = torch::randn({samples, kLatentDimensions}, gen); // (N, k), unit std
    const auto noise = torch::randn({samples, kEpsilonFeatures}, gen);   // (N, F)
    const auto margin = latent.matmul(direction) + kLabelNoise * torch::randn({samples}, gen); // (N)
    auto features = std::sqrt(1 - kIsotropicNoise * kIsotropicNoise) / std::sqrt(double(kLatentDimensions)) *
                        latent.matmul(basis.t()) +
                    kIsotropicNoise / std::sqrt(double(kEpsilonFeatures)) * noise; // (N, F), rows of norm ~1
    return {features.contiguous(), margin.gt(0).to(torch::kFloat32), kEpsilonFeatures};
}

Shards loadShards(const EngineOptions& o, const World& w) {
    if (o.dataset == "libsvm") {
        const std::filesystem::path dir(o.data_dir);
        LibsvmShard train = readLibsvmShard(dir / "train.libsvm", w.rank, w.ranks);
        LibsvmShard held_out = readLibsvmShard(dir / "test.libsvm", w.rank, w.ranks, train.feature_count);
        const int64_t kept = heldOutPerRank(o, w, held_out.size()); // 0: the whole test set
        held_out.features = held_out.features.narrow(0, 0, kept);
        held_out.labels = held_out.labels.narrow(0, 0, kept);
        return {std::move(train), std::move(held_out)};
    }
    if (o.dataset == "synthetic-epsilon") {
        const auto seed = static_cast<uint64_t>(o.seed) * 7919 + static_cast<uint64_t>(w.rank);
        return {syntheticEpsilon(32 * static_cast<int64_t>(o.batch_per_rank), 2 * seed),
                syntheticEpsilon(std::max(1, syntheticHeldOut(o) / w.ranks), 2 * seed + 1)};
    }
    throw std::invalid_argument("--dataset: " + o.workload + " has no dataset '" + o.dataset +
                                "' (known: libsvm, synthetic-epsilon)");
}

} // namespace

LogisticRegression::LogisticRegression(const EngineOptions& options, const World& world)
    : options_(options), world_(world), batches_([&] {
          Shards shards = loadShards(options, world);
          held_out_ = {shards.held_out.features, shards.held_out.labels};
          features_ = shards.train.feature_count;
          model_ = LogisticModel(features_);
          double samples[1] = {static_cast<double>(shards.train.size())};
          sumAcrossRanks(samples);
          train_samples_ = static_cast<int64_t>(samples[0]);
          return BatchSampler({shards.train.features, shards.train.labels}, options.batch_per_rank,
                              static_cast<uint64_t>(options.seed) * 7919 + static_cast<uint64_t>(world.rank));
      }()) {
    warmup_steps_ = std::max(0, options.warmup_steps); // -1: none (MLBench task 2 scales without warm-up)
}

// MLBench task 2: CentralizedSGD(momentum=0, nesterov=False, weight_decay=0, dampening=0); the L2 term is
// in the loss.
std::unique_ptr<torch::optim::Optimizer> LogisticRegression::makeOptimizer() {
    return std::make_unique<torch::optim::SGD>(model_->parameters(), torch::optim::SGDOptions(options_.lr));
}

Batch LogisticRegression::nextBatch() {
    auto [features, labels] = batches_.next(); // features: (B, F), labels: (B)
    ++steps_taken_;
    const int64_t samples = labels.size(0);
    return {{features, labels}, samples, 0};
}

torch::Tensor LogisticRegression::forwardLoss(const Batch& batch) {
    return model_->regularisedLoss(model_->forward(batch.tensors[0]), batch.tensors[1], kL2);
}

// MLBench task 2: lr scaled from eta to eta x k for k ranks (linearly over --warmup-steps when given), then
// multiplied by 0.75 at each plateau of the held-out loss.
double LogisticRegression::learningRate(int64_t step) const {
    const double target = options_.lr * world_.ranks;
    if (warmup_steps_ <= 0 || step >= warmup_steps_) return target * plateau_.factor();
    return (options_.lr +
            (target - options_.lr) * static_cast<double>(step) / static_cast<double>(warmup_steps_)) *
           plateau_.factor();
}

// MLBench task 2 (seed 004): "We reduce the learning rate when a plateau in the validation loss is reached
// for 2 consecutive epochs" (PlateauDecay), judged once an epoch: epochs completed from every rank's samples.
void LogisticRegression::afterEvaluation(const Evaluation& evaluation) {
    plateau_.observe(steps_taken_ * options_.batch_per_rank * world_.ranks /
                         std::max<int64_t>(1, train_samples_),
                     evaluation.loss);
}

// Accuracy (a logit above 0 predicts label 1; MLBench task 2's target (seed 004) is "test accuracy of 89%")
// and the regularised log-loss (the training objective) over every rank's share of the held-out samples; the
// regulariser is added once, not once per rank.
Evaluation LogisticRegression::evaluate() {
    torch::NoGradGuard no_grad;
    model_->eval();
    const torch::Device device = deviceOf(*model_);
    const auto logits = model_->forward(held_out_.images.to(device)); // (N)
    const auto labels = held_out_.labels.to(device);                  // (N) 0 or 1
    double sums[3] = {
        torch::binary_cross_entropy_with_logits(logits, labels, {}, {}, at::Reduction::Sum).item<double>(),
        logits.gt(0).eq(labels.gt(0.5)).sum().item<double>(), static_cast<double>(held_out_.size())};
    sumAcrossRanks(sums);
    double squared = 0;
    for (const auto& p : model_->parameters())
        squared += p.pow(2).sum().item<double>();
    model_->train();
    return {sums[1] / sums[2], sums[0] / sums[2] + kL2 / 2 * squared};
}

// Forward and backward of a (B, F) x (F) product: 2 B F multiply-adds each way, three products in all.
double LogisticRegression::trainingFlopsPerStep() const {
    return 6.0 * static_cast<double>(options_.batch_per_rank) * static_cast<double>(features_);
}

nlohmann::json LogisticRegression::hyperparameters() const {
    return withRunHyperparameters(options_, world_,
                                  {{"peak_lr", options_.lr * world_.ranks},
                                   {"warmup_steps", warmup_steps_},
                                   {"lr_decay", "x0.75 after 2 epochs without a lower held-out loss"},
                                   {"optimizer", "SGD momentum 0 weight_decay 0"},
                                   {"loss", "binary cross-entropy + l2 / 2 x squared parameter norm"},
                                   {"l2", kL2},
                                   {"features", features_}});
}

nlohmann::json LogisticRegression::headerFields() const {
    return {{"features", features_},
            {"eval_value", "held-out accuracy: a logit above 0 predicts label 1"},
            {"eval_loss", "held-out binary cross-entropy + l2 / 2 x squared norm"}};
}

void LogisticRegression::saveState(torch::serialize::OutputArchive& archive) const {
    batches_.saveState(archive); // the data position, then the plateau rule's state
    archive.write("steps_taken", torch::tensor(steps_taken_, torch::kInt64));
    plateau_.save(archive);
}

void LogisticRegression::loadState(torch::serialize::InputArchive& archive) {
    batches_.loadState(archive);
    torch::Tensor steps;
    archive.read("steps_taken", steps);
    steps_taken_ = steps.item<int64_t>();
    plateau_.load(archive);
}

} // namespace scalebench
