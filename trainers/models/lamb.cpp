// LAMB: Adam's update per tensor, scaled by the trust ratio |weights| / |update|.
#include "lamb.h"

#include <cmath>
#include <torch/torch.h>

namespace scalebench {

void LambOptions::serialize(torch::serialize::OutputArchive& archive) const {
    _TORCH_OPTIM_SERIALIZE_TORCH_ARG(lr);
    _TORCH_OPTIM_SERIALIZE_TORCH_ARG(betas);
    _TORCH_OPTIM_SERIALIZE_TORCH_ARG(eps);
    _TORCH_OPTIM_SERIALIZE_TORCH_ARG(weight_decay);
}

void LambOptions::serialize(torch::serialize::InputArchive& archive) {
    _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, lr);
    _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(betas_t, betas);
    _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, eps);
    _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, weight_decay);
}

void LambParamState::serialize(torch::serialize::OutputArchive& archive) const {
    _TORCH_OPTIM_SERIALIZE_TORCH_ARG(step);
    _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg);
    _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg_sq);
}

void LambParamState::serialize(torch::serialize::InputArchive& archive) {
    _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(int64_t, step);
    _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg);
    _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_sq);
}

torch::Tensor Lamb::step(LossClosure closure) {
    torch::NoGradGuard no_grad;
    torch::Tensor loss;
    if (closure) {
        at::AutoGradMode enable_grad(true);
        loss = closure();
    }
    for (auto& group : param_groups()) {
        const auto& o = static_cast<const LambOptions&>(group.options());
        const auto [beta1, beta2] = o.betas();
        for (auto& p : group.params()) {
            if (!p.grad().defined()) continue;
            const auto& g = p.grad();
            auto& slot = state()[p.unsafeGetTensorImpl()];
            if (!slot) {
                auto fresh = std::make_unique<LambParamState>();
                fresh->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
                fresh->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
                slot = std::move(fresh);
            }
            auto& s = static_cast<LambParamState&>(*slot);
            s.step(s.step() + 1);
            s.exp_avg().mul_(beta1).add_(g, 1 - beta1);
            s.exp_avg_sq().mul_(beta2).addcmul_(g, g, 1 - beta2);
            const double correction1 = 1 - std::pow(beta1, static_cast<double>(s.step()));
            const double correction2 = 1 - std::pow(beta2, static_cast<double>(s.step()));
            auto update = (s.exp_avg() / correction1) / ((s.exp_avg_sq() / correction2).sqrt() + o.eps());
            if (o.weight_decay() != 0) update.add_(p, o.weight_decay());
            const auto weight_norm = p.norm(), update_norm = update.norm();
            // r = |p| / |u| where both are positive, else 1 (on the device: no synchronisation).
            const auto ratio = torch::where((weight_norm > 0).logical_and(update_norm > 0),
                                            weight_norm / update_norm, torch::ones_like(weight_norm));
            p.sub_(update * ratio * o.lr());
        }
    }
    return loss;
}

void Lamb::save(torch::serialize::OutputArchive& archive) const {
    torch::optim::serialize<LambParamState, LambOptions>(archive, *this);
}

void Lamb::load(torch::serialize::InputArchive& archive) {
    torch::optim::serialize<LambParamState, LambOptions>(archive, *this);
}

} // namespace scalebench
