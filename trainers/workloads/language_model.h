// MLBench task 3: an AWD-LSTM language model on WikiText-2 (or synthetic Markov text), synchronous SGD with
// AWD-LSTM's random sequence lengths, the learning rate scaled by seq_len / bptt and warmed up to
// lr x sqrt(ranks), gradient-norm clipping, activation regularisation, weight drop, and the switch to
// averaged SGD when the validation loss stalls; validation perplexity.
#pragma once

#include "awd_lstm.h"
#include "workload.h"

namespace scalebench {

class LanguageModel : public Workload {
  public:
    LanguageModel(const EngineOptions& options, const World& world);

    torch::nn::Module& module() override { return *model_; }
    std::unique_ptr<torch::optim::Optimizer> makeOptimizer() override;
    Batch nextBatch() override;
    torch::Tensor forwardLoss(const Batch& batch) override;
    void beforeOptimizerStep() override;
    void afterOptimizerStep() override;
    double learningRate(int64_t step) const override;
    void afterEvaluation(const Evaluation& evaluation) override;
    EvalMetric evalMetric() const override { return {"perplexity", false}; }
    Evaluation evaluate() override;
    int64_t epoch() const override { return epoch_; }
    bool hasLstms() const override { return true; } // fp16 on a GPU only
    // Sequences of bptt tokens in a pass over every rank's shard: what --epochs and per-epoch evaluation
    // count.
    int64_t trainingSamples() const override;
    double trainingFlopsPerStep() const override;
    nlohmann::json hyperparameters() const override;
    nlohmann::json headerFields() const override;
    void saveState(torch::serialize::OutputArchive& archive) const override;
    void loadState(torch::serialize::InputArchive& archive) override;

    // The sampled sequence length of step (1-based), the same on every rank: bptt, or bptt / 2 with
    // probability 0.05, plus Normal(0, 5), at least 5 (MLBench task 3, AWD-LSTM's main.py).
    int64_t sequenceLength(int64_t step) const;

  private:
    EngineOptions options_;
    World world_;
    int64_t bptt_ = 70;
    torch::Tensor train_;    // (rows, batch_per_rank) this rank's shard in columns
    torch::Tensor held_out_; // (rows, eval columns) this rank's share of the validation tokens
    int64_t vocabulary_ = 0;
    AwdLstm model_{nullptr};
    LstmState state_; // carried across batches, detached
    int64_t position_ = 0, epoch_ = 0, steps_ = 0;
    int64_t warmup_steps_ = 0;
    // Averaged SGD (afterEvaluation): the held-out losses judged so far (one an epoch), and from the switch
    // on the mean of the weights after every step since (one tensor a parameter, in parameters() order).
    std::vector<double> judged_losses_;
    int64_t judged_epoch_ = 0;
    bool averaging_ = false;
    int64_t averaged_steps_ = 0;
    std::vector<torch::Tensor> averages_;

    // Whole passes over this rank's training text so far (the same on every rank: equal shards, one length).
    int64_t completedEpochs() const;
};

} // namespace scalebench
