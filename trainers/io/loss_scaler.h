// Dynamic loss scaling for fp16 training (MLBench's FP16Optimizer, seed 004): the loss is multiplied by a
// scale before backward, the gradients divided by it after the all-reduce; a step whose gradients hold an
// inf or a NaN is skipped and the scale divided by the factor; after `window` clean steps in a row the scale
// is multiplied by the factor, up to a maximum.
#pragma once

#include <cstdint>
#include <limits>

namespace scalebench {

struct LossScalerOptions {
    // MLBench's Transformer (seed 004, task 4b): initial_scale = 2**7, scale_factor = 2, scale_window = 2000,
    // no max_scale. Its GNMT (task 4a) uses 2**10, 2, 128 and max_scale = 2**13.
    double initial_scale = 128;
    double factor = 2;
    std::int64_t window = 2000;
    double max_scale = std::numeric_limits<double>::infinity();
    // fairseq's --min-loss-scale: an overflow at this scale means the loss itself diverged.
    double min_scale = 1e-4;
};

class LossScaler {
  public:
    // What a checkpoint keeps.
    struct State {
        double scale = 0;
        std::int64_t clean_steps = 0; // since the last overflow or growth
        std::int64_t skipped_steps = 0;
    };

    // Throws std::invalid_argument for a factor not above 1, a window below 1, or scales out of order.
    explicit LossScaler(LossScalerOptions options = {});

    // The scale to multiply the loss by in this step.
    double scale() const { return state_.scale; }
    // After the gradients were unscaled and checked: true when the optimizer may step. An overflow skips the
    // step and divides the scale (not below min_scale); a clean step counts towards the window, whose end
    // multiplies the scale (not above max_scale). Throws std::runtime_error on an overflow at min_scale.
    bool update(bool overflow);

    std::int64_t skippedSteps() const { return state_.skipped_steps; }
    const LossScalerOptions& options() const { return options_; }
    State state() const { return state_; }
    void restore(const State& state) { state_ = state; }

  private:
    LossScalerOptions options_;
    State state_;
};

} // namespace scalebench
