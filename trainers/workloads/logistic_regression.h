// MLBench task 2: L2-regularised logistic regression on LIBSVM data (epsilon) or synthetic epsilon-shaped
// data, plain synchronous SGD with the learning rate scaled linearly with the ranks and multiplied by 0.75
// when the held-out loss plateaus; held-out accuracy, with the held-out regularised log-loss beside it.
#pragma once

#include "image_data.h"
#include "logistic_model.h"
#include "plateau_decay.h"
#include "workload.h"

namespace scalebench {

class LogisticRegression : public Workload {
  public:
    LogisticRegression(const EngineOptions& options, const World& world);

    torch::nn::Module& module() override { return *model_; }
    std::unique_ptr<torch::optim::Optimizer> makeOptimizer() override;
    Batch nextBatch() override;
    torch::Tensor forwardLoss(const Batch& batch) override;
    double learningRate(int64_t step) const override;
    void afterEvaluation(const Evaluation& evaluation) override;
    EvalMetric evalMetric() const override { return {"accuracy", true}; }
    Evaluation evaluate() override;
    int64_t epoch() const override { return batches_.epoch(); }
    int64_t trainingSamples() const override { return train_samples_; }
    double trainingFlopsPerStep() const override;
    nlohmann::json hyperparameters() const override;
    nlohmann::json headerFields() const override;
    void saveState(torch::serialize::OutputArchive& archive) const override;
    void loadState(torch::serialize::InputArchive& archive) override;

  private:
    EngineOptions options_;
    World world_;
    // held_out_ and model_ come before batches_: the constructor fills them while it makes the sampler.
    LabelledImages held_out_; // features (N, F) as "images", labels (N) float 0/1
    int64_t features_ = 0;
    LogisticModel model_{nullptr};
    int64_t train_samples_ = 0; // all ranks' training samples together (one epoch)
    BatchSampler batches_;
    int64_t warmup_steps_ = 0;
    int64_t steps_taken_ = 0; // batches drawn so far
    // learningRate's factor. MLBench task 2 (seed 004) gives no factor: 0.75 is MLBench's reference code for
    // task 2 (ReduceLROnPlateau(factor=0.75)).
    PlateauDecay plateau_{0.75};
};

} // namespace scalebench
