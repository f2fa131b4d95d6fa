// Label-smoothed negative log-likelihood (MLBench's LabelSmoothing criterion, Szegedy et al. 2016), the loss
// of the translation workloads.
#pragma once

#include <torch/types.h>

namespace scalebench {

// logits: (B, T, V), targets: (B, T) with padding_id where there is no token. The mean over the tokens that
// are not padding of (1 - smoothing) * -log p(target) + smoothing * mean over the vocabulary of -log p(v).
torch::Tensor labelSmoothedLoss(const torch::Tensor& logits, const torch::Tensor& targets, double smoothing,
                                int64_t padding_id);

// fairseq's normalisation (MLBench task 4b, seed 004: gradients deflated by "full_batch_size ... the sum of
// number of tokens on this batch for each worker"): the factor by which a rank multiplies its mean loss over
// its own rank_tokens so that the gradient buckets' average over `ranks` ranks is the sum of every rank's
// token losses divided by global_tokens (the sum of every rank's tokens): ranks x rank_tokens /
// global_tokens. 1 when every rank has as many tokens; 0 for a rank without tokens (its mean is 0 too).
inline double globalTokenWeight(int64_t rank_tokens, int64_t global_tokens, int ranks) {
    if (global_tokens <= 0) return 0;
    return static_cast<double>(ranks) * static_cast<double>(rank_tokens) / static_cast<double>(global_tokens);
}

} // namespace scalebench
