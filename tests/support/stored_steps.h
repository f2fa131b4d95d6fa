// A step record as the store tests write one: step n, its loss falling as 2 / n, 500 samples/s, a quarter of
// a second a step (0.1 s forward, 0.15 s backward).
#pragma once

#include "metric_record.h"

#include <cstdint>

namespace scalebench {

inline StepRecord storedStep(std::int64_t n) {
    StepRecord s;
    s.step = n;
    s.loss = 2.0 / static_cast<double>(n);
    s.samples_per_s = 500;
    s.step_s = 0.25;
    s.forward_s = 0.1;
    s.backward_s = 0.15;
    return s;
}

} // namespace scalebench
