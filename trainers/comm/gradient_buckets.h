// Synchronous data parallelism in gradient buckets (PyTorch DDP's reducer): parameters grouped in reverse
// registration order into flat buckets of a given size (the first one smaller, as DDP's), on the parameters'
// device, with every parameter's gradient a view of its bucket, so backward accumulates into the buckets
// themselves. A bucket is averaged across ranks as soon as backward has produced all its gradients, while
// backward goes on; the step waits for the rest after backward. The local loss rides in the last bucket.
//
// On a GPU with a device backend (NCCL) nothing waits on the host inside the step: a bucket's collective is
// enqueued on a stream of its own after an event that backward's stream records once the bucket is full, and
// the compute stream waits for the collectives' end events before the optimizer. Host backends (MPI, Gloo)
// on GPU buckets go through pinned host memory, or straight to a CUDA-aware MPI.
#pragma once

#include "communicator.h"

#include <atomic>
#include <c10/core/Event.h>
#include <c10/core/Stream.h>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <torch/types.h>
#include <vector>

namespace scalebench {

class GradientBuckets {
  public:
    using Clock = std::chrono::steady_clock;

    // One bucket's all-reduce in one step: when it started and ended, seconds since beginStep (where the
    // step's last micro-batch goes into backward). On the CPU the host's clock around the backend's call and
    // its wait; on a GPU events on the communication stream around the collective (NCCL: when the stream
    // reached it and when its kernel ended; host backends: the staging copies included).
    struct BucketTime {
        double start_s = 0, end_s = 0;
    };
    // Communication of one step, read after the step's end.
    struct StepCommunication {
        double hidden_s = 0;  // while backward was still running: the union of the buckets' communication
                              // intervals before backward ended, seconds
        double mean_loss = 0; // the local losses averaged across ranks
        std::vector<BucketTime> buckets; // in bucket order
    };

    // Bucket sizes in MiB: the first bucket (the last layers, whose gradients come first) is closed at
    // min(first_bucket_mib, bucket_mib), the others at bucket_mib. overlap false: every bucket is reduced
    // after backward (the baseline). The parameters' gradients become views of the buckets (float32, on the
    // parameters' device, with the parameters' strides); nothing may replace them (zero them with
    // beginStep, never with the optimizer's zero_grad). Throws std::invalid_argument when the backend
    // cannot reach the parameters' memory (NCCL with parameters on the CPU).
    GradientBuckets(std::vector<torch::Tensor> parameters, Communicator& comm, double first_bucket_mib,
                    double bucket_mib, bool overlap);
    ~GradientBuckets();
    GradientBuckets(const GradientBuckets&) = delete;
    GradientBuckets& operator=(const GradientBuckets&) = delete;

    std::int64_t elements() const { return elements_; }
    std::size_t bucketCount() const { return buckets_.size(); }
    std::vector<std::int64_t> bucketElements() const;
    // How the buckets reach the backend: "device" (its collectives on device memory, ordered by events),
    // "host" (CPU buckets), "device memory through CUDA-aware mpi" or "staged through pinned host memory"
    // (GPU buckets, host backend).
    std::string path() const;
    // The bucket a parameter's gradient lives in (tests: the gradients alias the buckets).
    const torch::Tensor& bucket(std::size_t index) const { return buckets_[index].flat; }

    // Copies rank 0's parameter values to every rank through the communicator.
    void broadcastParameters();
    // Gradient accumulation: after the forward of a micro-batch that is not the step's last, before its
    // backward, which then adds its gradients into the buckets and starts no communication. first: zeroes
    // every gradient before (the step's first micro-batch).
    void accumulate(bool first);
    // After forward, before backward: zeroes every gradient (zero false: keeps what accumulate()'s
    // micro-batches added) and writes the local loss (a scalar tensor on the parameters' device; not read on
    // the host) into the last bucket. This backward averages the buckets.
    void beginStep(const torch::Tensor& local_loss, bool zero = true);
    // After backward has returned (been enqueued, on a GPU): starts the buckets not started yet and makes the
    // current stream wait for all (on the CPU: waits for them).
    void finishStep();
    // After the step's end: the step's communication (waits for the device where there is one).
    StepCommunication collect();

    // Called by the post-accumulate-grad hook of parameter `index` (the autograd thread).
    void gradientReady(std::size_t index);

  private:
    struct Bucket {
        std::vector<std::size_t> parameters; // indices, in the order they sit in `flat`
        torch::Tensor flat;                  // (elements [+ 1 for the loss]) float32, on the device
        torch::Tensor host;                  // staged: its pinned host copy
        int pending = 0;                     // gradients not yet produced in this step
        Clock::time_point start, end;        // this step's communication, CPU buckets
        std::optional<c10::Event> ready;     // GPU: recorded on the compute stream when the bucket is full
        std::optional<c10::Event> started;   // GPU: on the communication stream, before its collective
        std::optional<c10::Event> ended;     // GPU: on the communication stream, after it
    };
    struct Slot {
        std::size_t bucket = 0;
        std::int64_t offset = 0;
    };

    bool onDevice() const { return device_.is_cuda(); }
    void markReady(std::size_t index); // under mutex_
    void communicate();                // the communication thread
    void reduce(Bucket& b);            // one bucket's collective, on the communication thread

    std::vector<torch::Tensor> parameters_;
    Communicator& comm_;
    bool overlap_;
    torch::Device device_;
    std::int64_t elements_ = 0;
    std::vector<Bucket> buckets_;
    std::vector<Slot> slots_;
    std::vector<char> ready_; // per parameter, this step

    // GPU: the stream backward runs on (the current one when the buckets were made), the communication
    // stream, and the events that bracket the step's backward.
    std::optional<c10::Stream> compute_stream_, comm_stream_;
    std::optional<c10::Event> step_begin_, backward_end_;
    Clock::time_point step_begin_time_, backward_end_time_; // CPU: the host's clock at the same places

    std::mutex mutex_;
    std::condition_variable queued_, finished_;
    std::deque<std::size_t> queue_; // buckets for the communication thread, in bucket order
    std::size_t next_launch_ = 0;
    std::size_t completed_ = 0;
    std::exception_ptr error_;
    bool stop_ = false;
    std::atomic<bool> backward_done_{false};
    bool accumulating_ = false; // a micro-batch's backward that only adds into the buckets (under mutex_)
    std::thread thread_;
};

} // namespace scalebench
