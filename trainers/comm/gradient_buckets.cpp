// Synchronous data parallelism in gradient buckets, reduced by a communication thread while backward runs.
#include "gradient_buckets.h"

#include <algorithm>
#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>
#include <torch/torch.h>

namespace scalebench {
namespace {

double seconds(GradientBuckets::Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

// Runs after AccumulateGrad has written the parameter's .grad (DDP's reducer hooks the same place).
struct BucketHook : torch::autograd::PostAccumulateGradHook {
    BucketHook(GradientBuckets& buckets, std::size_t index) : buckets_(buckets), index_(index) {}
    void operator()(const torch::autograd::Variable&) override { buckets_.gradientReady(index_); }
    GradientBuckets& buckets_;
    std::size_t index_;
};

} // namespace

GradientBuckets::GradientBuckets(std::vector<torch::Tensor> parameters, Communicator& comm,
                                 double first_bucket_mib, double bucket_mib, bool overlap)
    : parameters_(std::move(parameters)), comm_(comm), overlap_(overlap) {
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
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
        Bucket& bucket = buckets_[b];
        std::int64_t n = 0;
        for (std::size_t i : bucket.parameters)
            n += parameters_[i].numel();
        if (b + 1 == buckets_.size()) ++n; // the loss
        bucket.flat = torch::zeros({n}, torch::kFloat32);
        if (comm_.deviceMemory()) bucket.device = comm_.allocate(static_cast<std::size_t>(n) * sizeof(float));
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

void GradientBuckets::broadcastParameters() {
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> flat_parts;
    for (const auto& p : parameters_)
        flat_parts.push_back(p.detach().to(torch::kFloat32).reshape(-1));
    auto flat = torch::cat(flat_parts).contiguous(); // (elements) float32
    const auto bytes = static_cast<std::size_t>(flat.numel()) * sizeof(float);
    void* data = flat.data_ptr();
    CommBuffer device;
    if (comm_.deviceMemory()) {
        device = comm_.allocate(bytes);
        comm_.upload(device.get(), data, bytes);
        data = device.get();
    }
    comm_.run({Collective::Broadcast, data, data, flat.numel(), DType::Float32, ReduceOp::Sum, 0});
    if (device) comm_.download(flat.data_ptr(), device.get(), bytes);
    std::int64_t offset = 0;
    for (auto& p : parameters_) {
        p.copy_(flat.narrow(0, offset, p.numel()).view(p.sizes()));
        offset += p.numel();
    }
}

void GradientBuckets::beginStep(double local_loss) {
    std::lock_guard lock(mutex_);
    std::fill(ready_.begin(), ready_.end(), 0);
    for (auto& b : buckets_)
        b.pending = static_cast<int>(b.parameters.size());
    auto& last = buckets_.back().flat;
    last[last.numel() - 1] = local_loss;
    next_launch_ = 0;
    completed_ = 0;
    error_ = nullptr;
    backward_done_ = false;
}

void GradientBuckets::copyIn(std::size_t index) {
    torch::NoGradGuard no_grad;
    const auto& p = parameters_[index];
    const Slot& slot = slots_[index];
    auto destination = buckets_[slot.bucket].flat.narrow(0, slot.offset, p.numel()).view(p.sizes());
    if (p.grad().defined())
        destination.copy_(p.grad()); // logical order, whatever the memory format
    else
        destination.zero_(); // a parameter that took no part in this step
}

void GradientBuckets::gradientReady(std::size_t index) {
    copyIn(index);
    std::lock_guard lock(mutex_);
    markReady(index);
}

void GradientBuckets::markReady(std::size_t index) {
    if (ready_[index]) return;
    ready_[index] = 1;
    --buckets_[slots_[index].bucket].pending;
    // Buckets start in bucket order on every rank, so the ranks' collectives match.
    const std::size_t before = next_launch_;
    while (next_launch_ < buckets_.size() && buckets_[next_launch_].pending == 0)
        queue_.push_back(next_launch_++);
    if (next_launch_ != before) queued_.notify_one();
}

GradientBuckets::StepCommunication GradientBuckets::finishStep(Clock::time_point backward_end) {
    backward_done_ = true; // the communication thread stops sleeping between polls
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        bool missing = false;
        {
            std::lock_guard lock(mutex_);
            missing = !ready_[i];
        }
        if (missing) {
            copyIn(i);
            std::lock_guard lock(mutex_);
            markReady(i);
        }
    }
    {
        std::unique_lock lock(mutex_);
        finished_.wait(lock, [&] { return completed_ == buckets_.size(); });
        if (error_) std::rethrow_exception(error_);
    }
    torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        auto& p = parameters_[i];
        if (!p.grad().defined()) continue;
        const Slot& slot = slots_[i];
        p.mutable_grad().copy_(buckets_[slot.bucket].flat.narrow(0, slot.offset, p.numel()).view(p.sizes()));
    }
    StepCommunication result;
    result.exposed_s = seconds(Clock::now() - backward_end);
    // The union of the intervals [start, min(end, backward_end)]: buckets run one after another, but count
    // any overlap once.
    Clock::time_point covered = Clock::time_point::min();
    for (const auto& b : buckets_) { // in start order
        const auto from = std::max(b.start, covered);
        const auto to = std::min(b.end, backward_end);
        if (to > from) result.hidden_s += seconds(to - from);
        covered = std::max(covered, to);
    }
    const auto& last = buckets_.back().flat;
    result.mean_loss = last[last.numel() - 1].item<double>();
    return result;
}

void GradientBuckets::communicate() {
    using namespace std::chrono_literals;
    for (;;) {
        std::size_t index = 0;
        {
            std::unique_lock lock(mutex_);
            queued_.wait(lock, [&] { return stop_ || !queue_.empty(); });
            if (queue_.empty()) return; // stopping
            index = queue_.front();
            queue_.pop_front();
        }
        Bucket& b = buckets_[index];
        b.start = Clock::now();
        std::exception_ptr error;
        try {
            void* data = b.flat.data_ptr();
            const auto bytes = static_cast<std::size_t>(b.flat.numel()) * sizeof(float);
            if (b.device) {
                comm_.upload(b.device.get(), data, bytes);
                data = b.device.get();
            }
            auto work = comm_.start(
                {Collective::AllReduce, data, data, b.flat.numel(), DType::Float32, ReduceOp::Average});
            // While backward computes, poll with growing sleeps so this thread leaves the compute threads
            // their cores; once the step waits for us, block.
            auto pause = 20us;
            while (!work->test()) {
                if (backward_done_) {
                    work->wait();
                    break;
                }
                std::this_thread::sleep_for(pause);
                pause = std::min<std::chrono::microseconds>(pause * 2, 500us);
            }
            if (b.device) comm_.download(b.flat.data_ptr(), b.device.get(), bytes);
        } catch (...) {
            error = std::current_exception();
        }
        b.end = Clock::now();
        {
            std::lock_guard lock(mutex_);
            if (error && !error_) error_ = error;
            ++completed_;
        }
        finished_.notify_all();
    }
}

} // namespace scalebench
