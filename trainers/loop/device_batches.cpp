// Batches made on the host and copied to the device one step ahead.
#include "device_batches.h"

#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>

namespace scalebench {

DeviceBatches::DeviceBatches(Workload& workload, const torch::Device& device)
    : workload_(workload), device_(device) {
    if (!device_.is_cuda()) return;
    const c10::impl::VirtualGuardImpl guard(device_.type());
    compute_stream_ = guard.getStream(device_);
    copy_stream_ = guard.getStreamFromGlobalPool(device_);
    copied_.emplace(device_.type(), c10::EventFlag::PYTORCH_DEFAULT);
}

DeviceBatches::Prepared DeviceBatches::prepare() {
    Prepared prepared{workload_.nextBatch(), workload_.epoch()};
    if (!device_.is_cuda()) return prepared;
    for (auto& tensor : prepared.batch.tensors) {
        const auto pinned = tensor.is_pinned() ? tensor : tensor.pin_memory();
        // Allocated and written on the copy stream, then marked as used by the compute stream: the caching
        // allocator hands the block out again only once the compute stream has passed every kernel queued on
        // it so far (the prefetcher of apex and torchvision). Allocated on the compute stream instead, the
        // block of a batch freed on the host while its backward is still queued went to the next batch at
        // once, and the next copy overwrote what that backward still read.
        const c10::StreamGuard on_copy_stream(*copy_stream_);
        auto on_device = torch::empty_like(pinned, pinned.options().device(device_).pinned_memory(false));
        on_device.copy_(pinned, /*non_blocking=*/true);
        on_device.record_stream(*compute_stream_);
        tensor = on_device;
    }
    copied_->record(*copy_stream_);
    return prepared;
}

Batch DeviceBatches::take() {
    Prepared prepared = next_ ? std::move(*next_) : prepare();
    next_.reset();
    if (copied_) copied_->block(*compute_stream_);
    epoch_ = prepared.epoch;
    return std::move(prepared.batch);
}

void DeviceBatches::prefetch() {
    if (device_.is_cuda() && !next_) next_ = prepare();
}

} // namespace scalebench
