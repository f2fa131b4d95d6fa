// Label-smoothed negative log-likelihood (MLBench's LabelSmoothing criterion, Szegedy et al. 2016), the loss
// of the translation workloads.
#pragma once

#include <torch/types.h>

namespace scalebench {

// logits: (B, T, V), targets: (B, T) with padding_id where there is no token. The mean over the tokens that
// are not padding of (1 - smoothing) * -log p(target) + smoothing * mean over the vocabulary of -log p(v).
torch::Tensor labelSmoothedLoss(const torch::Tensor& logits, const torch::Tensor& targets, double smoothing,
                                int64_t padding_id);

} // namespace scalebench
