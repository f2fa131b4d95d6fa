// AdamW through PyTorch's fused multi-tensor kernel (at::_fused_adamw_: one kernel launch for many tensors on
// a GPU, a vectorised loop on the CPU), the update of torch.optim.AdamW(fused=True). Its state and its
// checkpoints are LibTorch AdamW's (AdamWParamState: step, exp_avg, exp_avg_sq), so a checkpoint written with
// either optimizer loads into the other.
#pragma once

#include <torch/optim/adamw.h>

namespace scalebench {

// Per tensor p with gradient g at step t (as torch::optim::AdamW):
//   p *= 1 - lr x weight_decay;  m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
//   p -= lr / (1 - b1^t) x m / (sqrt(v) / sqrt(1 - b2^t) + eps)
// The step count goes to the kernel as a device tensor, so a step reads nothing back to the host. amsgrad
// and maximize are refused.
class FusedAdamW : public torch::optim::AdamW {
  public:
    FusedAdamW(const std::vector<torch::optim::OptimizerParamGroup>& groups,
               torch::optim::AdamWOptions defaults);
    torch::Tensor step(LossClosure closure = nullptr) override;
};

} // namespace scalebench
