// Synchronous data parallelism in flat gradient buckets, reduced by a communication thread while backward
// runs.
#include "gradient_buckets.h"

#include <algorithm>
#include <c10/core/DeviceGuard.h>
#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>
#include <torch/torch.h>

namespace scalebench {
namespace {

double seconds(GradientBuckets::Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

// Runs after AccumulateGrad has added the parameter's gradient into its bucket view (DDP's reducer hooks the
// same place). On a GPU the addition is enqueued, not done: the bucket's ready event orders what follows.
struct BucketHook : torch::autograd::PostAccumulateGradHook {
    BucketHook(GradientBuckets& buckets, std::size_t index) : buckets_(buckets), index_(index) {}
    void operator()(const torch::autograd::Variable&) override { buckets_.gradientReady(index_); }
    GradientBuckets& buckets_;
    std::size_t index_;
};

// The union of the intervals [start, min(end, backward_end)], in start order: buckets run one after another,
// but any overlap counts once.
template <typename Time>
double hiddenSeconds(const std::vector<std::pair<Time, Time>>& intervals, Time backward_end,
                     double (*length)(Time, Time)) {
    double hidden = 0;
    std::optional<Time> covered;
    for (const auto& [start, end] : intervals) {
        const Time from = covered ? std::max(start, *covered) : start;
        const Time to = std::min(end, backward_end);
        if (to > from) hidden += length(from, to);
        covered = covered ? std::max(*covered, to) : to;
    }
    return hidden;
}

// A host collective: poll with growing sleeps while backward computes, so this thread leaves the compute
// threads their cores; once the step waits for us, block.
void waitLeavingCores(CommWork& work, const std::atomic<bool>& backward_done) {
    using namespace std::chrono_literals;
    auto pause = 20us;
    while (!work.test()) {
        if (backward_done) {
            work.wait();
            return;
        }
        std::this_thread::sleep_for(pause);
        pause = std::min<std::chrono::microseconds>(pause * 2, 500us);
    }
}

// The gradient view of `p` at `offset` in `flat`: with the parameter's own strides where it is dense (a
// channels-last weight gets a channels-last gradient, as DDP's bucket views), else contiguous.
torch::Tensor gradientView(const torch::Tensor& flat, const torch::Tensor& p, std::int64_t offset) {
    if (p.is_non_overlapping_and_dense()) return flat.as_strided(p.sizes(), p.strides(), offset);
    return flat.narrow(0, offset, p.numel()).view(p.sizes());
}

} // namespace

GradientBuckets::GradientBuckets(std::vector<torch::Tensor> parameters, Communicator& comm,
                                 double first_bucket_mib, double bucket_mib, bool overlap)
    : parameters_(std::move(parameters)), comm_(comm), overlap_(overlap),
      device_(parameters_.empty() ? torch::Device(torch::kCPU) : parameters_.front().device()) {
    if (parameters_.empty()) throw std::invalid_argument("gradient buckets: the model has no parameters");
    for (const auto& p : parameters_) {
        if (p.device() != device_)
            throw std::invalid_argument("gradient buckets: parameters on " + device_.str() + " and " +
                                        p.device().str() + "; a rank's model lives on one device");
        if (p.scalar_type() != torch::kFloat32)
            throw std::invalid_argument("gradient buckets: a " + std::string(c10::toString(p.scalar_type())) +
                                        " parameter; master weights are float32");
    }
    if (comm_.deviceMemory() && !onDevice())
        throw std::invalid_argument(
            "--backend " + comm_.backend() +
            " reduces GPU memory, and this rank's model is on the CPU: train with "
            "--device cuda (or auto on a node with GPUs), or use --backend mpi or gloo");
    const auto elements = [](double mib) {
        return static_cast<std::int64_t>(mib * 1024 * 1024 / sizeof(float));
    };
    const std::int64_t capacity = elements(bucket_mib),
                       first_capacity = elements(std::min(first_bucket_mib, bucket_mib));
    slots_.resize(parameters_.size());
    ready_.assign(parameters_.size(), 0);
    std::int64_t filled = 0;
    for (std::size_t i = parameters_.size(); i-- > 0;) { // backward order: the last registered first
        if (buckets_.empty() || filled >= (buckets_.size() == 1 ? first_capacity : capacity)) {
            buckets_.emplace_back();
            filled = 0;
        }
        slots_[i] = {buckets_.size() - 1, filled};
        buckets_.back().parameters.push_back(i);
        filled += parameters_[i].numel();
        elements_ += parameters_[i].numel();
    }
    const auto on_device = torch::TensorOptions(torch::kFloat32).device(device_);
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
        Bucket& bucket = buckets_[b];
        std::int64_t n = 0;
        for (std::size_t i : bucket.parameters)
            n += parameters_[i].numel();
        if (b + 1 == buckets_.size()) ++n; // the loss
        bucket.flat = torch::zeros({n}, on_device);
        if (onDevice()) {
            if (!comm_.acceptsDeviceMemory())
                bucket.host = torch::empty({n}, torch::TensorOptions(torch::kFloat32).pinned_memory(true));
            bucket.ready.emplace(device_.type(), c10::EventFlag::PYTORCH_DEFAULT); // no timing
            bucket.started.emplace(device_.type(), c10::EventFlag::BACKEND_DEFAULT);
            bucket.ended.emplace(device_.type(), c10::EventFlag::BACKEND_DEFAULT);
        }
    }
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        const Slot& slot = slots_[i];
        parameters_[i].mutable_grad() = gradientView(buckets_[slot.bucket].flat, parameters_[i], slot.offset);
    }
    if (onDevice()) {
        const c10::impl::VirtualGuardImpl guard(device_.type());
        compute_stream_ = guard.getStream(device_);
        comm_stream_ = guard.getStreamFromGlobalPool(device_);
        step_begin_.emplace(device_.type(), c10::EventFlag::BACKEND_DEFAULT);
        backward_end_.emplace(device_.type(), c10::EventFlag::BACKEND_DEFAULT);
    }
    if (overlap_)
        for (std::size_t i = 0; i < parameters_.size(); ++i)
            torch::autograd::impl::set_post_acc_grad_hooks(parameters_[i],
                                                           std::make_unique<BucketHook>(*this, i));
    thread_ = std::thread([this] { communicate(); });
}

GradientBuckets::~GradientBuckets() {
    if (overlap_)
        for (auto& p : parameters_)
            torch::autograd::impl::set_post_acc_grad_hooks(p, nullptr);
    {
        std::lock_guard lock(mutex_);
        queue_.clear(); // left after an error: the other ranks may never take part
        stop_ = true;
    }
    queued_.notify_all();
    thread_.join();
}

std::vector<std::int64_t> GradientBuckets::bucketElements() const {
    std::vector<std::int64_t> sizes;
    for (const auto& b : buckets_)
        sizes.push_back(b.flat.numel());
    return sizes;
}

std::string GradientBuckets::path() const {
    if (!onDevice()) return "host";
    if (comm_.deviceMemory()) return "device";
    return comm_.acceptsDeviceMemory() ? "device memory through CUDA-aware " + comm_.backend()
                                       : "staged through pinned host memory";
}

void GradientBuckets::broadcastParameters() {
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> flat_parts;
    for (const auto& p : parameters_)
        flat_parts.push_back(p.detach().reshape(-1));
    auto flat = torch::cat(flat_parts); // (elements) float32, contiguous, on the device
    // The backend works on its own memory: device memory once the copy is done, or host memory.
    auto buffer = comm_.deviceMemory() || !onDevice() ? flat : flat.to(torch::kCPU);
    if (compute_stream_) compute_stream_->synchronize();
    comm_.run({Collective::Broadcast, buffer.data_ptr(), buffer.data_ptr(), buffer.numel(), DType::Float32,
               ReduceOp::Sum, 0});
    if (!buffer.is_same(flat)) flat.copy_(buffer);
    std::int64_t offset = 0;
    for (auto& p : parameters_) {
        p.copy_(flat.narrow(0, offset, p.numel()).view(p.sizes()));
        offset += p.numel();
    }
}

void GradientBuckets::accumulate(bool first) {
    if (first) {
        torch::NoGradGuard no_grad;
        for (auto& b : buckets_)
            b.flat.zero_(); // the gradients: views of it
    }
    std::lock_guard lock(mutex_);
    accumulating_ = true;
}

void GradientBuckets::beginStep(const torch::Tensor& local_loss, bool zero) {
    // The origin of the buckets' times: before the zeroing, so it is where the caller's clock marked the
    // forward pass's end (StepClock's Forward mark just before: nothing runs between the two).
    step_begin_time_ = Clock::now();
    if (step_begin_) step_begin_->record(*compute_stream_);
    torch::NoGradGuard no_grad;
    if (zero)
        for (auto& b : buckets_)
            b.flat.zero_(); // the gradients: views of it
    auto& last = buckets_.back().flat;
    last.narrow(0, last.numel() - 1, 1).copy_(local_loss.detach().reshape({1}));
    std::lock_guard lock(mutex_);
    accumulating_ = false;
    std::fill(ready_.begin(), ready_.end(), 0);
    for (auto& b : buckets_)
        b.pending = static_cast<int>(b.parameters.size());
    next_launch_ = 0;
    completed_ = 0;
    error_ = nullptr;
    backward_done_ = false;
}

void GradientBuckets::gradientReady(std::size_t index) {
    std::lock_guard lock(mutex_);
    if (accumulating_) return; // the step's last micro-batch starts the buckets
    markReady(index);
}

void GradientBuckets::markReady(std::size_t index) {
    if (ready_[index]) return;
    ready_[index] = 1;
    --buckets_[slots_[index].bucket].pending;
    // Buckets start in bucket order on every rank, so the ranks' collectives match.
    const std::size_t before = next_launch_;
    while (next_launch_ < buckets_.size() && buckets_[next_launch_].pending == 0) {
        Bucket& full = buckets_[next_launch_];
        if (full.ready) full.ready->record(*compute_stream_); // after the kernels that filled it
        queue_.push_back(next_launch_++);
    }
    if (next_launch_ != before) queued_.notify_one();
}

void GradientBuckets::finishStep() {
    if (backward_end_) backward_end_->record(*compute_stream_);
    backward_end_time_ = Clock::now();
    backward_done_ = true; // the communication thread stops sleeping between polls
    std::unique_lock lock(mutex_);
    for (std::size_t i = 0; i < parameters_.size(); ++i)
        markReady(i); // those without a hook, or that took no part in this step
    finished_.wait(lock, [&] { return completed_ == buckets_.size(); });
    if (error_) std::rethrow_exception(error_);
    for (const auto& b : buckets_)
        if (b.ended) b.ended->block(*compute_stream_); // the optimizer reads the averages after them
}

GradientBuckets::StepCommunication GradientBuckets::collect() {
    StepCommunication result;
    if (onDevice()) {
        using Interval = std::pair<double, double>;
        std::vector<Interval> intervals; // milliseconds since the step's begin event
        for (const auto& b : buckets_) {
            b.ended->synchronize();
            intervals.push_back(
                Interval{step_begin_->elapsedTime(*b.started), step_begin_->elapsedTime(*b.ended)});
            result.buckets.push_back({intervals.back().first / 1000, intervals.back().second / 1000});
        }
        backward_end_->synchronize();
        result.hidden_s = hiddenSeconds<double>(intervals, step_begin_->elapsedTime(*backward_end_),
                                                [](double from, double to) { return (to - from) / 1000; });
    } else {
        std::vector<std::pair<Clock::time_point, Clock::time_point>> intervals;
        for (const auto& b : buckets_) {
            intervals.emplace_back(b.start, b.end);
            result.buckets.push_back(
                {seconds(b.start - step_begin_time_), seconds(b.end - step_begin_time_)});
        }
        result.hidden_s = hiddenSeconds<Clock::time_point>(
            intervals, backward_end_time_,
            [](Clock::time_point from, Clock::time_point to) { return seconds(to - from); });
    }
    const auto& last = buckets_.back().flat;
    result.mean_loss = last[last.numel() - 1].item<double>();
    return result;
}

void GradientBuckets::communicate() {
    std::optional<c10::DeviceGuard> on_device;
    if (onDevice()) on_device.emplace(device_);
    for (;;) {
        std::size_t index = 0;
        {
            std::unique_lock lock(mutex_);
            queued_.wait(lock, [&] { return stop_ || !queue_.empty(); });
            if (queue_.empty()) return; // stopping
            index = queue_.front();
            queue_.pop_front();
        }
        std::exception_ptr error;
        try {
            reduce(buckets_[index]);
        } catch (...) {
            error = std::current_exception();
        }
        {
            std::lock_guard lock(mutex_);
            if (error && !error_) error_ = error;
            ++completed_;
        }
        finished_.notify_all();
    }
}

void GradientBuckets::reduce(Bucket& b) {
    const std::int64_t n = b.flat.numel();
    if (!onDevice()) { // host buckets, host backend
        b.start = Clock::now();
        auto work = comm_.start({Collective::AllReduce, b.flat.data_ptr(), b.flat.data_ptr(), n,
                                 DType::Float32, ReduceOp::Average});
        waitLeavingCores(*work, backward_done_);
        b.end = Clock::now();
        return;
    }
    if (comm_.deviceMemory()) { // ordered on the device: nothing waits here
        b.ready->block(*comm_stream_);
        b.started->record(*comm_stream_);
        CollectiveCall call{Collective::AllReduce, b.flat.data_ptr(), b.flat.data_ptr(), n,
                            DType::Float32,        ReduceOp::Average};
        call.stream = comm_stream_->native_handle();
        comm_.start(call);
        b.ended->record(*comm_stream_);
        return;
    }
    // A host backend on GPU buckets: once backward has filled the bucket, on its memory where the backend is
    // CUDA-aware, else through the bucket's pinned host copy.
    b.ready->synchronize();
    b.started->record(*comm_stream_);
    if (comm_.acceptsDeviceMemory()) {
        auto work = comm_.start({Collective::AllReduce, b.flat.data_ptr(), b.flat.data_ptr(), n,
                                 DType::Float32, ReduceOp::Average});
        waitLeavingCores(*work, backward_done_);
        b.ended->record(*comm_stream_);
        return;
    }
    {
        const c10::StreamGuard on_comm_stream(*comm_stream_);
        b.host.copy_(b.flat); // blocking: done when it returns
    }
    auto work = comm_.start(
        {Collective::AllReduce, b.host.data_ptr(), b.host.data_ptr(), n, DType::Float32, ReduceOp::Average});
    waitLeavingCores(*work, backward_done_);
    {
        const c10::StreamGuard on_comm_stream(*comm_stream_);
        b.flat.copy_(b.host, /*non_blocking=*/true);
    }
    b.ended->record(*comm_stream_);
}

} // namespace scalebench
