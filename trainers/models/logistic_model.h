// Logistic regression (MLBench task 2): one linear layer whose logit gives P(label 1), and MLBench's
// regularised binary cross-entropy (BCELossRegularized: BCE + l2 / 2 x the squared norm of every parameter).
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/types.h>

namespace scalebench {

class LogisticModelImpl : public torch::nn::Module {
  public:
    explicit LogisticModelImpl(int64_t features);
    // x: (B, F) -> logits (B); sigmoid(logit) = P(label 1)
    torch::Tensor forward(const torch::Tensor& x);
    // Mean BCE of logits (B) against labels (B, 0 or 1) + l2 / 2 x sum of every parameter's squared norm.
    torch::Tensor regularisedLoss(const torch::Tensor& logits, const torch::Tensor& labels, double l2);

    torch::nn::Linear linear{nullptr};
};
TORCH_MODULE(LogisticModel);

} // namespace scalebench
