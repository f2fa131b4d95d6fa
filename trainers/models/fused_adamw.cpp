// AdamW's update for every tensor of a group in one fused kernel call (at::_fused_adamw_).
#include "fused_adamw.h"

#include <ATen/ops/_fused_adamw.h>
#include <map>
#include <stdexcept>

namespace scalebench {

FusedAdamW::FusedAdamW(const std::vector<torch::optim::OptimizerParamGroup>& groups,
                       torch::optim::AdamWOptions defaults)
    : torch::optim::AdamW(groups, defaults) {
    for (const auto& group : param_groups())
        if (static_cast<const torch::optim::AdamWOptions&>(group.options()).amsgrad())
            throw std::invalid_argument("FusedAdamW: amsgrad is not supported");
}

torch::Tensor FusedAdamW::step(LossClosure closure) {
    torch::NoGradGuard no_grad;
    torch::Tensor loss;
    if (closure) {
        const at::AutoGradMode enable_grad(true);
        loss = closure();
    }
    using torch::optim::AdamWParamState;
    struct Tensors {
        std::vector<torch::Tensor> params, grads, exp_avgs, exp_avg_sqs;
    };
    for (auto& group : param_groups()) {
        const auto& o = static_cast<const torch::optim::AdamWOptions&>(group.options());
        // By step count after this step and device: one kernel call each (normally one in all).
        std::map<std::pair<int64_t, std::string>, Tensors> calls;
        for (auto& p : group.params()) {
            if (!p.grad().defined()) continue;
            auto found = state_.find(p.unsafeGetTensorImpl());
            if (found == state_.end()) {
                auto fresh = std::make_unique<AdamWParamState>();
                fresh->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
                fresh->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
                found = state_.emplace(p.unsafeGetTensorImpl(), std::move(fresh)).first;
            }
            auto& s = static_cast<AdamWParamState&>(*found->second);
            s.step(s.step() + 1);
            Tensors& call = calls[{s.step(), p.device().str()}];
            call.params.push_back(p);
            call.grads.push_back(p.grad());
            call.exp_avgs.push_back(s.exp_avg());
            call.exp_avg_sqs.push_back(s.exp_avg_sq());
        }
        for (const auto& [key, call] : calls) {
            const auto step =
                torch::full({}, static_cast<double>(key.first),
                            torch::TensorOptions().dtype(torch::kFloat32).device(call.params[0].device()));
            const std::vector<torch::Tensor> steps(call.params.size(), step);
            at::_fused_adamw_(call.params, call.grads, call.exp_avgs, call.exp_avg_sqs, {}, steps, o.lr(),
                              std::get<0>(o.betas()), std::get<1>(o.betas()), o.weight_decay(), o.eps(),
                              /*amsgrad=*/false, /*maximize=*/false);
        }
    }
    return loss;
}

} // namespace scalebench
