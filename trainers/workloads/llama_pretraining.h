// LLM pre-training in the shape of MaxText's Llama-2 recipe (seed 003): a Llama decoder (tiny, small, 7b,
// 13b, 70b) on synthetic tokens, next-token cross-entropy, AdamW with Llama 2's hyper-parameters, cosine
// schedule with warm-up, gradient clipping 1.0; held-out next-token loss; model FLOPs by the recipe's formula
// (MFU).
#pragma once

#include "llama.h"
#include "synthetic_tokens.h"
#include "workload.h"

namespace scalebench {

class LlamaPretraining : public Workload {
  public:
    LlamaPretraining(const EngineOptions& options, const World& world);

    torch::nn::Module& module() override { return *model_; }
    std::unique_ptr<torch::optim::Optimizer> makeOptimizer() override;
    Batch nextBatch() override;
    torch::Tensor forwardLoss(const Batch& batch) override;
    void beforeOptimizerStep() override;
    double learningRate(int64_t step) const override;
    EvalMetric evalMetric() const override { return {"loss", false}; }
    Evaluation evaluate() override;
    int64_t epoch() const override { return 0; } // an endless synthetic stream
    double trainingFlopsPerStep() const override;
    nlohmann::json hyperparameters() const override;
    nlohmann::json headerFields() const override;
    nlohmann::json mllogFields() const override;
    void saveState(torch::serialize::OutputArchive& archive) const override;
    void loadState(torch::serialize::InputArchive& archive) override;

  private:
    EngineOptions options_;
    World world_;
    std::string preset_;
    int64_t seq_len_ = 0;
    int64_t warmup_steps_ = 0;
    Llama model_{nullptr};
    SyntheticTokens train_tokens_;
};

} // namespace scalebench
