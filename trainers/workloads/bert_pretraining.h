// MLPerf-style BERT pre-training (the proxy of MLPerf Training's BERT): BERT-large (or tiny) with the
// masked-LM loss on learnable synthetic tokens (15% masked, 80/10/10), LAMB, linear warm-up and linear decay;
// held-out masked-LM accuracy (MLPerf's target: 0.72).
#pragma once

#include "bert.h"
#include "synthetic_tokens.h"
#include "workload.h"

namespace scalebench {

class BertPretraining : public Workload {
  public:
    BertPretraining(const EngineOptions& options, const World& world);

    torch::nn::Module& module() override { return *model_; }
    std::unique_ptr<torch::optim::Optimizer> makeOptimizer() override;
    Batch nextBatch() override;
    torch::Tensor forwardLoss(const Batch& batch) override;
    void beforeOptimizerStep() override;
    double learningRate(int64_t step) const override;
    EvalMetric evalMetric() const override { return {"accuracy", true}; }
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
    BertForMaskedLM model_{nullptr};
    SyntheticTokens train_tokens_;
    std::mt19937_64 masking_;
};

} // namespace scalebench
