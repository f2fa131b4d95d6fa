// The clock of a training step's phases. On the CPU, the host's time at each mark; on a GPU, an event that
// the compute stream records at each mark (the time the device got there), read once after the step's end, so
// the step is never stopped to be timed. With gradient accumulation the data, forward and backward marks come
// once per micro-batch, and a phase's time is the sum over them.
#pragma once

#include <c10/core/Event.h>
#include <c10/core/Stream.h>
#include <chrono>
#include <optional>
#include <torch/types.h>
#include <vector>

namespace scalebench {

class StepClock {
  public:
    using Clock = std::chrono::steady_clock;
    // The step's boundaries: its start, then the end of data, forward, backward (once per micro-batch),
    // all-reduce and optimizer.
    enum Mark { Start, Data, Forward, Backward, AllReduce, Optimizer };
    static constexpr int kMarks = Optimizer + 1;

    explicit StepClock(const torch::Device& device);

    // The host's time, and on a GPU an event recorded on the current stream. Start begins a new step.
    void mark(Mark m);
    // After the last mark: waits until the device has got there (nothing on the CPU).
    void finish();
    // From the first `from` of this step to its last `to`, after finish().
    double seconds(Mark from, Mark to) const;
    // The phase that ends at `end`: every `end` mark of this step less the mark just before it, added up;
    // the phases add up to seconds(Start, Optimizer).
    double phaseSeconds(Mark end) const;
    bool onDevice() const { return stream_.has_value(); }

  private:
    double between(std::size_t from, std::size_t to) const; // two marks of marks_, seconds

    std::vector<Mark> marks_;             // this step's, in order
    std::vector<Clock::time_point> host_; // one per mark
    std::vector<c10::Event> events_;      // GPU only: the first marks_.size() are this step's
    std::optional<c10::Stream> stream_;
    torch::Device device_;
};

} // namespace scalebench
