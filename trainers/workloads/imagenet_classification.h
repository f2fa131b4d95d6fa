// MLPerf Training's image classification as a proxy: ResNet-50 v1.5 on ImageNet-shaped synthetic data (1000
// classes, --preset picks the image side, 224 by default), SGD with momentum, label smoothing, a linear
// warm-up and polynomial decay; top-1 accuracy.
#pragma once

#include "image_data.h"
#include "resnet.h"
#include "resnet50.h"
#include "workload.h"

namespace scalebench {

class ImageNetClassification : public Workload {
  public:
    ImageNetClassification(const EngineOptions& options, const World& world);

    torch::nn::Module& module() override { return *model_; }
    std::unique_ptr<torch::optim::Optimizer> makeOptimizer() override;
    Batch nextBatch() override;
    torch::Tensor forwardLoss(const Batch& batch) override;
    double learningRate(int64_t step) const override;
    EvalMetric evalMetric() const override { return {"accuracy", true}; }
    Evaluation evaluate() override;
    int64_t epoch() const override { return batches_.epoch(); }
    double trainingFlopsPerStep() const override;
    nlohmann::json hyperparameters() const override;
    nlohmann::json headerFields() const override;
    nlohmann::json mllogFields() const override;

  private:
    double peakLearningRate() const;

    EngineOptions options_;
    World world_;
    int64_t side_ = 224; // image side in pixels (--preset)
    LabelledImages held_out_;
    ResNet50 model_{nullptr};
    BatchSampler batches_;
    int64_t warmup_steps_ = 0;
};

} // namespace scalebench
