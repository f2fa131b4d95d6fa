// Synchronous data parallelism in gradient buckets (PyTorch DDP's reducer): parameters grouped in reverse
// registration order into buckets of a given size (the first one smaller, as DDP's); a bucket is averaged
// across ranks by a communication thread as soon as backward has produced all its gradients, while backward
// goes on; the step waits for the rest after backward. The local loss rides in the last bucket.
#pragma once

#include "communicator.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <torch/types.h>
#include <vector>

namespace scalebench {

class GradientBuckets {
  public:
    using Clock = std::chrono::steady_clock;

    // Communication of one step, measured (seconds).
    struct StepCommunication {
        double hidden_s = 0;  // while backward was still running: the union of the buckets' communication
                              // intervals before backward ended
        double exposed_s = 0; // from the end of backward until every bucket was reduced and copied back
        double mean_loss = 0; // the local losses averaged across ranks
    };

    // Bucket sizes in MiB: the first bucket (the last layers, whose gradients come first) is closed at
    // min(first_bucket_mib, bucket_mib), the others at bucket_mib. overlap false: no hooks; every bucket is
    // reduced after backward (the baseline).
    GradientBuckets(std::vector<torch::Tensor> parameters, Communicator& comm, double first_bucket_mib,
                    double bucket_mib, bool overlap);
    ~GradientBuckets();
    GradientBuckets(const GradientBuckets&) = delete;
    GradientBuckets& operator=(const GradientBuckets&) = delete;

    std::int64_t elements() const { return elements_; }
    std::size_t bucketCount() const { return buckets_.size(); }
    std::vector<std::int64_t> bucketElements() const;

    // Copies rank 0's parameter values to every rank through the communicator.
    void broadcastParameters();
    // Before backward.
    void beginStep(double local_loss);
    // After backward returned at backward_end: starts the buckets not started yet, waits for all, and writes
    // the averaged gradients back into the parameters' grad.
    StepCommunication finishStep(Clock::time_point backward_end);

    // Called by the post-accumulate-grad hook of parameter `index` (the autograd thread).
    void gradientReady(std::size_t index);

  private:
    struct Bucket {
        std::vector<std::size_t> parameters; // indices, in the order they sit in `flat`
        torch::Tensor flat;                  // (elements [+ 1 for the loss]) float32, host
        CommBuffer device;                   // the backend's copy when it works on device memory
        int pending = 0;                     // gradients not yet copied in this step
        Clock::time_point start, end;        // this step's communication
    };
    struct Slot {
        std::size_t bucket = 0;
        std::int64_t offset = 0;
    };

    void copyIn(std::size_t index);
    void markReady(std::size_t index); // under mutex_
    void communicate();                // the communication thread

    std::vector<torch::Tensor> parameters_;
    Communicator& comm_;
    bool overlap_;
    std::int64_t elements_ = 0;
    std::vector<Bucket> buckets_;
    std::vector<Slot> slots_;
    std::vector<char> ready_; // per parameter, this step

    std::mutex mutex_;
    std::condition_variable queued_, finished_;
    std::deque<std::size_t> queue_; // buckets for the communication thread, in bucket order
    std::size_t next_launch_ = 0;
    std::size_t completed_ = 0;
    std::exception_ptr error_;
    bool stop_ = false;
    std::atomic<bool> backward_done_{false};
    std::thread thread_;
};

} // namespace scalebench
