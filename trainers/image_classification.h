// MLBench task 1: ResNet image classification (ResNet-20 on Fashion-MNIST or CIFAR-shaped data), SGD with
// Nesterov momentum, the learning rate scaled linearly with the ranks after a warm-up; top-1 accuracy.
#pragma once

#include "image_data.h"
#include "resnet.h"
#include "workload.h"

namespace scalebench {

class ImageClassification : public Workload {
  public:
    ImageClassification(const EngineOptions& options, const World& world);

    torch::nn::Module& module() override { return *model_; }
    std::unique_ptr<torch::optim::Optimizer> makeOptimizer() override;
    Batch nextBatch() override;
    torch::Tensor forwardLoss(const Batch& batch) override;
    double learningRate(int64_t step) const override;
    EvalMetric evalMetric() const override { return {"accuracy", true}; }
    Evaluation evaluate() override;
    int64_t epoch() const override { return batches_.epoch(); }
    nlohmann::json hyperparameters() const override;
    nlohmann::json headerFields() const override;
    nlohmann::json mllogFields() const override;
    void saveState(torch::serialize::OutputArchive& archive) const override { batches_.saveState(archive); }
    void loadState(torch::serialize::InputArchive& archive) override { batches_.loadState(archive); }

  private:
    EngineOptions options_;
    World world_;
    // held_out_ and model_ come before batches_: the constructor fills them while it makes the sampler.
    LabelledImages held_out_;
    CifarResNet model_{nullptr};
    BatchSampler batches_;
    int64_t warmup_steps_ = 0;
};

} // namespace scalebench
