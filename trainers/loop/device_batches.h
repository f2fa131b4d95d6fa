// This rank's batches on its training device. On a GPU each batch is made on the host, put in pinned memory
// and copied without blocking on a stream of its own one step ahead (prefetch(), once the step before has
// been enqueued), so the copy overlaps that step; the compute stream waits for the copy, the host does not.
// A batch's device memory is allocated on the copy stream and recorded for the compute stream, so it is
// never reused while a kernel queued on the compute stream may still read it.
// On the CPU a batch is the workload's own, made when it is taken: the loop is the same.
#pragma once

#include "workload.h"

#include <c10/core/Event.h>
#include <c10/core/Stream.h>
#include <optional>

namespace scalebench {

class DeviceBatches {
  public:
    DeviceBatches(Workload& workload, const torch::Device& device);

    // This step's batch on the device: the prefetched one, else one made now.
    Batch take();
    // The data pass (0-based) of the batch take() returned last.
    int64_t epoch() const { return epoch_; }
    // GPU: makes the next batch now and starts its copy. Call it only when a step follows at once (no
    // checkpoint or evaluation between): the workload's data position moves on. Nothing on the CPU.
    void prefetch();

  private:
    struct Prepared {
        Batch batch;
        int64_t epoch = 0;
    };
    Prepared prepare(); // makes a batch and, on a GPU, starts its copy

    Workload& workload_;
    torch::Device device_;
    std::optional<Prepared> next_;
    int64_t epoch_ = 0;
    std::optional<c10::Stream> compute_stream_, copy_stream_;
    std::optional<c10::Event> copied_; // GPU: recorded on the copy stream after the last copy
};

} // namespace scalebench
