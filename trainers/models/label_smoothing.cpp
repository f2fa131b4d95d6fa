// Label-smoothed negative log-likelihood over the tokens that are not padding.
#include "label_smoothing.h"

#include <torch/torch.h>

namespace scalebench {

torch::Tensor labelSmoothedLoss(const torch::Tensor& logits, const torch::Tensor& targets, double smoothing,
                                int64_t padding_id) {
    auto log_probabilities = torch::log_softmax(logits.to(torch::kFloat32), -1); // (B, T, V)
    auto nll = -log_probabilities.gather(-1, targets.unsqueeze(-1)).squeeze(-1); // (B, T)
    auto smooth = -log_probabilities.mean(-1);                                   // (B, T)
    auto kept = targets.ne(padding_id).to(torch::kFloat32);                      // (B, T)
    auto per_token = (1.0 - smoothing) * nll + smoothing * smooth;
    return (per_token * kept).sum() / kept.sum().clamp_min(1.0);
}

} // namespace scalebench
