// Host clocks on the CPU, device events on a GPU.
#include "step_clock.h"

#include <c10/core/impl/VirtualGuardImpl.h>

namespace scalebench {

StepClock::StepClock(const torch::Device& device) : device_(device) {
    if (!device.is_cuda()) return;
    stream_ = c10::impl::VirtualGuardImpl(device.type()).getStream(device);
}

void StepClock::mark(Mark m) {
    if (m == Start) {
        marks_.clear();
        host_.clear();
    }
    marks_.push_back(m);
    host_.push_back(Clock::now());
    if (!onDevice()) return;
    if (events_.size() < marks_.size())
        events_.emplace_back(device_.type(), c10::EventFlag::BACKEND_DEFAULT); // with timing
    events_[marks_.size() - 1].record(*stream_);
}

void StepClock::finish() {
    if (onDevice() && !marks_.empty()) events_[marks_.size() - 1].synchronize();
}

double StepClock::between(std::size_t from, std::size_t to) const {
    if (onDevice()) return events_[from].elapsedTime(events_[to]) / 1000; // milliseconds
    return std::chrono::duration<double>(host_[to] - host_[from]).count();
}

double StepClock::seconds(Mark from, Mark to) const {
    std::size_t first = marks_.size(), last = marks_.size();
    for (std::size_t i = 0; i < marks_.size(); ++i) {
        if (marks_[i] == from && first == marks_.size()) first = i;
        if (marks_[i] == to) last = i;
    }
    if (first == marks_.size() || last == marks_.size()) return 0;
    return between(first, last);
}

double StepClock::phaseSeconds(Mark end) const {
    double total = 0;
    for (std::size_t i = 1; i < marks_.size(); ++i)
        if (marks_[i] == end) total += between(i - 1, i);
    return total;
}

} // namespace scalebench
