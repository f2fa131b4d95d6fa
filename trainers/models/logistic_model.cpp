// Logistic regression (MLBench task 2) and its regularised binary cross-entropy.
#include "logistic_model.h"

#include <torch/torch.h>

namespace scalebench {

LogisticModelImpl::LogisticModelImpl(int64_t features)
    : linear(register_module("linear", torch::nn::Linear(features, 1))) {}

torch::Tensor LogisticModelImpl::forward(const torch::Tensor& x) {
    return linear->forward(x).squeeze(1);
}

torch::Tensor LogisticModelImpl::regularisedLoss(const torch::Tensor& logits, const torch::Tensor& labels,
                                                 double l2) {
    // With logits rather than probabilities: the same value as BCE(sigmoid(logits)), without its log(0).
    auto loss = torch::binary_cross_entropy_with_logits(logits, labels);
    if (l2 > 0) {
        auto squared = torch::zeros({}, logits.options());
        for (const auto& p : parameters())
            squared = squared + p.pow(2).sum();
        loss = loss + (l2 / 2) * squared;
    }
    return loss;
}

} // namespace scalebench
