// Synchronous data parallelism: every gradient, and the loss, averaged across ranks in one flat MPI
// all-reduce.
#include "gradient_allreduce.h"

#include "mpi_check.h"

#include <torch/torch.h>

namespace scalebench {

GradientAllReduce::GradientAllReduce(std::vector<torch::Tensor> parameters, MPI_Comm comm)
    : parameters_(std::move(parameters)), comm_(comm) {
    int64_t elements = 0;
    for (const auto& p : parameters_)
        elements += p.numel();
    flat_ = torch::zeros({elements + 1}, torch::kFloat32);
    MPI_CHECK(MPI_Comm_size(comm_, &ranks_));
}

double GradientAllReduce::average(double local_loss) {
    torch::NoGradGuard no_grad;
    int64_t offset = 0;
    for (const auto& p : parameters_) {
        auto slice = flat_.narrow(0, offset, p.numel());
        if (p.grad().defined())
            slice.copy_(p.grad().reshape(-1)); // logical order, whatever the memory format
        else
            slice.zero_();
        offset += p.numel();
    }
    flat_[offset] = local_loss;
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, flat_.data_ptr<float>(), static_cast<int>(flat_.numel()), MPI_FLOAT,
                            MPI_SUM, comm_));
    flat_.div_(ranks_);
    offset = 0;
    for (auto& p : parameters_) {
        if (p.grad().defined()) p.mutable_grad().copy_(flat_.narrow(0, offset, p.numel()).view(p.sizes()));
        offset += p.numel();
    }
    return flat_[offset].item<double>();
}

void GradientAllReduce::broadcastParameters() {
    torch::NoGradGuard no_grad;
    for (auto& p : parameters_) {
        auto values = p.detach().contiguous();
        MPI_CHECK(MPI_Bcast(values.data_ptr<float>(), static_cast<int>(values.numel()), MPI_FLOAT, 0, comm_));
        p.copy_(values);
    }
}

} // namespace scalebench
