// LAMB (You et al. 2020, "Large Batch Optimization for Deep Learning"), the optimizer of MLPerf's BERT: the
// Adam(W) update of each tensor, scaled by the trust ratio |weights| / |update| of that tensor.
#pragma once

#include <torch/optim/optimizer.h>
#include <torch/optim/serialize.h>
#include <tuple>

namespace scalebench {

struct LambOptions : public torch::optim::OptimizerCloneableOptions<LambOptions> {
    LambOptions(double lr = 1e-3) : lr_(lr) {}
    TORCH_ARG(double, lr);
    typedef std::tuple<double, double> betas_t;
    TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
    TORCH_ARG(double, eps) = 1e-6;
    TORCH_ARG(double, weight_decay) = 0.01;

  public:
    void serialize(torch::serialize::InputArchive& archive) override;
    void serialize(torch::serialize::OutputArchive& archive) const override;
    double get_lr() const override { return lr(); }
    void set_lr(const double lr) override { this->lr(lr); }
};

struct LambParamState : public torch::optim::OptimizerCloneableParamState<LambParamState> {
    TORCH_ARG(int64_t, step) = 0;
    TORCH_ARG(torch::Tensor, exp_avg);
    TORCH_ARG(torch::Tensor, exp_avg_sq);

  public:
    void serialize(torch::serialize::InputArchive& archive) override;
    void serialize(torch::serialize::OutputArchive& archive) const override;
};

// Per tensor p with gradient g, at step t (bias-corrected moments, as NVIDIA's FusedLAMB):
//   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2
//   u = (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps) + weight_decay x p
//   p -= lr x r x u,  r = |p| / |u| (1 when either norm is 0)
class Lamb : public torch::optim::Optimizer {
  public:
    explicit Lamb(const std::vector<torch::optim::OptimizerParamGroup>& groups, LambOptions defaults = {})
        : Optimizer(groups, std::make_unique<LambOptions>(defaults)) {}
    explicit Lamb(std::vector<torch::Tensor> params, LambOptions defaults = {})
        : Lamb({torch::optim::OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

    torch::Tensor step(LossClosure closure = nullptr) override;
    void save(torch::serialize::OutputArchive& archive) const override;
    void load(torch::serialize::InputArchive& archive) override;
};

} // namespace scalebench
