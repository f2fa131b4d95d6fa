// MLBench task 1: ResNet image classification (ResNet-20 or ResNet-56, by the workload's name) on CIFAR-10,
// Fashion-MNIST or CIFAR-shaped synthetic data; SGD with Nesterov momentum, the learning rate scaled linearly
// with the ranks over a warm-up and divided by 10 when the held-out loss plateaus; top-1 accuracy.
#pragma once

#include "image_data.h"
#include "plateau_decay.h"
#include "resnet.h"
#include "workload.h"

#include <functional>
#include <random>

namespace scalebench {

// Top-1 accuracy and mean cross-entropy of `model` over every rank's share of `held_out`, in batches of
// `batch` channels-last images; collective. Leaves the model in training mode.
Evaluation evaluateClassifier(torch::nn::Module& model,
                              const std::function<torch::Tensor(const torch::Tensor&)>& logits_of,
                              const LabelledImages& held_out, int64_t batch);

class ImageClassification : public Workload {
  public:
    ImageClassification(const EngineOptions& options, const World& world);

    torch::nn::Module& module() override { return *model_; }
    std::unique_ptr<torch::optim::Optimizer> makeOptimizer() override;
    Batch nextBatch() override;
    torch::Tensor forwardLoss(const Batch& batch) override;
    double learningRate(int64_t step) const override;
    void afterEvaluation(const Evaluation& evaluation) override;
    EvalMetric evalMetric() const override { return {"accuracy", true}; }
    Evaluation evaluate() override;
    int64_t epoch() const override { return batches_.epoch(); }
    nlohmann::json hyperparameters() const override;
    nlohmann::json headerFields() const override;
    nlohmann::json mllogFields() const override;
    void saveState(torch::serialize::OutputArchive& archive) const override;
    void loadState(torch::serialize::InputArchive& archive) override;

  private:
    EngineOptions options_;
    World world_;
    int64_t depth_ = 20; // from the workload's name: resnet20, resnet56
    // held_out_ and model_ come before batches_: the constructor fills them while it makes the sampler.
    LabelledImages held_out_;
    CifarResNet model_{nullptr};
    bool augment_ = false; // random crop (padding 4) and horizontal flip: CIFAR-10's training batches
    BatchSampler batches_;
    std::mt19937_64 augmentation_random_;
    int64_t warmup_steps_ = 0;
    int64_t steps_taken_ = 0; // batches drawn so far
    // learningRate's factor. MLBench task 1 (seed 004) gives no factor: 0.1 is PyTorch ReduceLROnPlateau's
    // default and He et al.'s step.
    PlateauDecay plateau_{0.1};
};

} // namespace scalebench
