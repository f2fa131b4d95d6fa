// MLBench task 4: machine translation, GNMT (4a, WMT16 en-de) or the Transformer (4b, WMT17 en-de), Adam
// with the reference's warm-up and decay, label smoothing 0.1, the Transformer's loss normalised by the
// tokens of all ranks; evaluated by beam search (greedy beside it) and corpus BLEU on MLBench's words.
#pragma once

#include "gnmt.h"
#include "parallel_text.h"
#include "transformer.h"
#include "workload.h"

#include <optional>

namespace scalebench {

class Translation : public Workload {
  public:
    Translation(const EngineOptions& options, const World& world);

    torch::nn::Module& module() override;
    std::unique_ptr<torch::optim::Optimizer> makeOptimizer() override;
    Batch nextBatch() override;
    torch::Tensor forwardLoss(const Batch& batch) override;
    void beforeOptimizerStep() override;
    double learningRate(int64_t step) const override;
    EvalMetric evalMetric() const override { return {"bleu", true}; }
    Evaluation evaluate() override;
    int64_t epoch() const override { return sampler_->epoch(); }
    int64_t trainingSamples() const override { return train_samples_; } // sentence pairs, every rank's
    nlohmann::json hyperparameters() const override;
    nlohmann::json headerFields() const override;
    nlohmann::json mllogFields() const override;
    // MLBench's FP16Optimizer settings (seed 004): task 4a's for GNMT, task 4b's for the Transformer.
    LossScalerOptions lossScaling() const override;
    bool hasLstms() const override { return isGnmt(); }

  private:
    bool isGnmt() const { return !gnmt_.is_empty(); }
    // (B, T, V) logits with teacher forcing.
    torch::Tensor logits(const torch::Tensor& source, const torch::Tensor& lengths,
                         const torch::Tensor& target_in);

    EngineOptions options_;
    World world_;
    Vocabulary vocabulary_;
    std::optional<PairSampler> sampler_;
    SentencePairs held_out_;
    Gnmt gnmt_{nullptr};
    Transformer transformer_{nullptr};
    int64_t train_samples_ = 0;   // every rank's training sentence pairs together (one epoch)
    int64_t eval_samples_ = 0;    // every rank's held-out sentence pairs together
    int64_t max_length_ = 0;      // training sentences longer than this are left out (tokens)
    int64_t max_test_length_ = 0; // held-out sentences longer than this are left out (tokens)
    int64_t warmup_steps_ = 0;
};

} // namespace scalebench
