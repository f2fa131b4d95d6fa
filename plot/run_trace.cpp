// A run's step and evaluation series, with their block summaries and steady-state throughput kept up.
#include "run_trace.h"

#include <algorithm>

namespace scalebench {

void RunTrace::append(const std::vector<MetricRecord>& records) {
    for (const auto& record : records) {
        if (const auto* s = std::get_if<StepRecord>(&record)) {
            step.push_back(static_cast<double>(s->step));
            elapsed_s.push_back(s->elapsed_s);
            loss.push_back(s->loss);
            samples_per_s.push_back(s->samples_per_s);
            step_ms.push_back(s->step_s * 1e3);
            forward_ms.push_back(s->forward_s * 1e3);
            backward_ms.push_back(s->backward_s * 1e3);
            exposed_comm_ms.push_back(s->allreduce_s * 1e3);
            hidden_comm_ms.push_back(s->comm_hidden_s * 1e3);
        } else if (const auto* e = std::get_if<EvalRecord>(&record)) {
            eval_step.push_back(static_cast<double>(e->step));
            eval_elapsed_s.push_back(e->elapsed_s);
            eval_value.push_back(e->value);
        }
    }
    for (int s = 0; s < SeriesCount; ++s)
        blocks[s].extend(series(static_cast<Series>(s)));
    if (const auto steady = steady_median_.update(samples_per_s)) steady_samples_per_s = steady;
}

void RunTrace::reserve(std::size_t steps) {
    steps = std::min(steps, kMaxReservedSteps);
    if (step.capacity() >= steps) return;
    for (std::vector<double>* v : {&step, &elapsed_s, &loss, &samples_per_s, &step_ms, &forward_ms,
                                   &backward_ms, &exposed_comm_ms, &hidden_comm_ms})
        v->reserve(steps);
    steady_median_.reserve(steps);
}

const std::vector<double>& RunTrace::series(Series s) const {
    switch (s) {
    case SamplesPerS:
        return samples_per_s;
    case StepMs:
        return step_ms;
    case ForwardMs:
        return forward_ms;
    case BackwardMs:
        return backward_ms;
    case ExposedCommMs:
        return exposed_comm_ms;
    case HiddenCommMs:
        return hidden_comm_ms;
    case Loss:
    case SeriesCount:
        break;
    }
    return loss;
}

} // namespace scalebench
