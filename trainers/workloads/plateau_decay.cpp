// MLBench's plateau decay of the learning rate, judged at the first evaluation after each epoch boundary.
#include "plateau_decay.h"

#include <torch/torch.h>

namespace scalebench {

void PlateauDecay::observe(int64_t completed_epochs, double held_out_loss) {
    if (completed_epochs <= judged_epoch_) return;
    judged_epoch_ = completed_epochs;
    if (held_out_loss < best_loss_) {
        best_loss_ = held_out_loss;
        epochs_without_improvement_ = 0;
    } else if (++epochs_without_improvement_ >= kPatience) {
        factor_ *= decay_;
        epochs_without_improvement_ = 0;
    }
}

void PlateauDecay::save(torch::serialize::OutputArchive& archive) const {
    archive.write("plateau",
                  torch::tensor({factor_, best_loss_, static_cast<double>(epochs_without_improvement_),
                                 static_cast<double>(judged_epoch_)},
                                torch::kFloat64));
}

void PlateauDecay::load(torch::serialize::InputArchive& archive) {
    torch::Tensor state;
    archive.read("plateau", state);
    factor_ = state[0].item<double>();
    best_loss_ = state[1].item<double>();
    epochs_without_improvement_ = static_cast<int64_t>(state[2].item<double>());
    judged_epoch_ = static_cast<int64_t>(state[3].item<double>());
}

} // namespace scalebench
