// The clock of a training step's phases. On the CPU, the host's time at each mark; on a GPU, an event that
// the compute stream records at each mark (the time the device got there), read once after the step's end, so
// the step is never stopped to be timed.
#pragma once

#include <array>
#include <c10/core/Event.h>
#include <c10/core/Stream.h>
#include <chrono>
#include <optional>
#include <torch/types.h>

namespace scalebench {

class StepClock {
  public:
    using Clock = std::chrono::steady_clock;
    // The step's boundaries: its start, then the end of data, forward, backward, all-reduce and optimizer.
    enum Mark { Start, Data, Forward, Backward, AllReduce, Optimizer };
    static constexpr int kMarks = Optimizer + 1;

    explicit StepClock(const torch::Device& device);

    // The host's time, and on a GPU an event recorded on the current stream.
    void mark(Mark m);
    // After the last mark: waits until the device has got there (nothing on the CPU).
    void finish();
    // Between two marks of this step, after finish().
    double seconds(Mark from, Mark to) const;
    bool onDevice() const { return !events_.empty(); }

  private:
    std::array<Clock::time_point, kMarks> host_{};
    std::vector<c10::Event> events_; // GPU only: one per mark
    std::optional<c10::Stream> stream_;
};

} // namespace scalebench
