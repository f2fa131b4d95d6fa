// Dynamic loss scaling for fp16 training: skip on overflow and shrink, grow after a window of clean steps.
#include "loss_scaler.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace scalebench {

LossScaler::LossScaler(LossScalerOptions options) : options_(options) {
    if (!(options_.factor > 1)) throw std::invalid_argument("loss scaling: the factor must be above 1");
    if (options_.window < 1) throw std::invalid_argument("loss scaling: the window must be at least 1 step");
    if (!(options_.min_scale > 0 && options_.min_scale <= options_.initial_scale &&
          options_.initial_scale <= options_.max_scale))
        throw std::invalid_argument("loss scaling: needs 0 < min_scale <= initial_scale <= max_scale");
    state_.scale = options_.initial_scale;
}

bool LossScaler::update(bool overflow) {
    if (overflow) {
        if (state_.scale <= options_.min_scale)
            throw std::runtime_error("loss scaling: the gradients overflow at the minimum scale " +
                                     std::to_string(options_.min_scale) + ": the loss is probably exploding");
        state_.scale = std::max(options_.min_scale, state_.scale / options_.factor);
        state_.clean_steps = 0;
        ++state_.skipped_steps;
        return false;
    }
    if (++state_.clean_steps >= options_.window) {
        state_.scale = std::min(options_.max_scale, state_.scale * options_.factor);
        state_.clean_steps = 0;
    }
    return true;
}

} // namespace scalebench
