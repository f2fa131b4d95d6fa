// clip_grad_norm_ as multi-tensor kernels that stay on the device.
#include "gradient_clipping.h"

#include <ATen/ops/_foreach_mul.h>
#include <ATen/ops/_foreach_norm.h>
#include <ATen/ops/linalg_vector_norm.h>
#include <ATen/ops/stack.h>
#include <torch/torch.h>

namespace scalebench {

torch::Tensor clipGradNorm(const std::vector<torch::Tensor>& parameters, double max_norm) {
    std::vector<torch::Tensor> grads;
    for (const auto& p : parameters)
        if (p.grad().defined()) grads.push_back(p.grad());
    if (grads.empty()) return torch::zeros({});
    torch::NoGradGuard no_grad;
    const auto norms = at::_foreach_norm(grads, 2);
    const auto total = at::linalg_vector_norm(at::stack(norms), 2);
    const auto scale = torch::clamp_max(max_norm / (total + 1e-6), 1.0);
    at::_foreach_mul_(grads, scale);
    return total;
}

} // namespace scalebench
