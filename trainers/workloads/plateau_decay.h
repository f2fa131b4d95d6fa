// MLBench tasks 1 and 2's learning-rate decay (seed 004): "We reduce the learning rate when a plateau in the
// validation loss is reached for 2 consecutive epochs", judged once an epoch.
#pragma once

#include <cstdint>
#include <limits>
#include <torch/serialize/archive.h>

namespace scalebench {

class PlateauDecay {
  public:
    // MLBench's "2 consecutive epochs".
    static constexpr int64_t kPatience = 2;

    // Each decay multiplies the learning rate by `factor` (MLBench gives none: each workload says whose it
    // takes).
    explicit PlateauDecay(double factor) : decay_(factor) {}

    // An evaluation's held-out loss after `completed_epochs` whole passes over the training data (counted
    // from every rank's samples, so that every rank judges alike). Only the first evaluation after each epoch
    // boundary is judged: against the best loss so far; after kPatience judged epochs without a lower one the
    // factor is multiplied by the decay and the count starts again.
    void observe(int64_t completed_epochs, double held_out_loss);
    // What the learning rate is multiplied by: 1, then factor, factor^2, ...
    double factor() const { return factor_; }

    // Checkpoints: one float64 tensor "plateau" (factor, best loss, epochs without improvement, judged
    // epoch).
    void save(torch::serialize::OutputArchive& archive) const;
    void load(torch::serialize::InputArchive& archive);

  private:
    double decay_ = 0.1;
    double factor_ = 1;
    double best_loss_ = std::numeric_limits<double>::infinity();
    int64_t epochs_without_improvement_ = 0;
    int64_t judged_epoch_ = 0;
};

} // namespace scalebench
