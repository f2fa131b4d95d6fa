// Host clocks on the CPU, device events on a GPU.
#include "step_clock.h"

#include <c10/core/impl/VirtualGuardImpl.h>

namespace scalebench {

StepClock::StepClock(const torch::Device& device) {
    if (!device.is_cuda()) return;
    for (int m = 0; m < kMarks; ++m)
        events_.emplace_back(device.type(), c10::EventFlag::BACKEND_DEFAULT); // with timing
    stream_ = c10::impl::VirtualGuardImpl(device.type()).getStream(device);
}

void StepClock::mark(Mark m) {
    host_[m] = Clock::now();
    if (onDevice()) events_[m].record(*stream_);
}

void StepClock::finish() {
    if (onDevice()) events_[Optimizer].synchronize();
}

double StepClock::seconds(Mark from, Mark to) const {
    if (onDevice()) return events_[from].elapsedTime(events_[to]) / 1000; // milliseconds
    return std::chrono::duration<double>(host_[to] - host_[from]).count();
}

} // namespace scalebench
