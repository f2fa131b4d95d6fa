// Synchronous data parallelism: every gradient, and the loss, averaged across ranks in one flat MPI
// all-reduce.
#pragma once

#include <mpi.h>
#include <torch/types.h>
#include <vector>

namespace scalebench {

class GradientAllReduce {
  public:
    GradientAllReduce(std::vector<torch::Tensor> parameters, MPI_Comm comm);

    // Averages the gradients in place across ranks; returns the mean of local_loss across ranks.
    double average(double local_loss);
    // Copies rank 0's parameter values to every rank.
    void broadcastParameters();
    int64_t elements() const { return flat_.numel() - 1; }

  private:
    std::vector<torch::Tensor> parameters_;
    torch::Tensor flat_; // (elements + 1) float32: the gradients back to back, then the loss
    MPI_Comm comm_;
    int ranks_ = 1;
};

} // namespace scalebench
