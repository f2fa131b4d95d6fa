// Gradient-norm clipping without a host read: torch.nn.utils.clip_grad_norm_ with foreach, for every workload
// that clips (Llama, BERT, AWD-LSTM, GNMT).
#pragma once

#include <torch/types.h>
#include <vector>

namespace scalebench {

// Scales the gradients of `parameters` by min(1, max_norm / (|g| + 1e-6)), |g| the L2 norm of all of them
// together (LibTorch's clip_grad_norm_). The tensors' norms come from one multi-tensor kernel
// (at::_foreach_norm), the total and the scale stay on the device: nothing waits for the GPU. Returns the
// total norm as a 0-dim tensor on the gradients' device (0 where no parameter has a gradient).
torch::Tensor clipGradNorm(const std::vector<torch::Tensor>& parameters, double max_norm);

} // namespace scalebench
