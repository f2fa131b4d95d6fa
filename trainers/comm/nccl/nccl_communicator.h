// The NCCL backend of Communicator: NCCL collectives on GPU memory, on the GPU the rank trains on, on a
// stream of its own; the communicator's unique id reaches every rank through MPI or a file. A wait gives up
// after a stated time (or at NCCL's first asynchronous error), aborts the communicator and names the rank.
#pragma once

#include "communicator.h"

#include <functional>
#include <memory>
#include <string>

struct ncclComm;
struct CUstream_st;

namespace scalebench {

class NcclCommunicator : public Communicator {
  public:
    // Sends rank 0's bytes to every rank (in place): the engine does it with MPI_Bcast.
    using ShareBytes = std::function<void(char* bytes, std::size_t length)>;
    // ShareBytes through a file every rank can reach: rank 0 writes it, the others wait for it (5 minutes).
    static ShareBytes shareThroughFile(const std::string& path, int rank);

    // The device index among the visible ones, given their count: the rank's training device (placeOnDevice).
    using ChooseDevice = std::function<int(int visible_devices)>;

    // Throws std::runtime_error naming the problem when there is no usable CUDA device (e.g.
    // cudaErrorInsufficientDriver) or NCCL cannot join the ranks. timeout_s: how long a wait for a collective
    // may take before this rank aborts the communicator and throws.
    NcclCommunicator(int rank, int size, const ChooseDevice& choose_device, const ShareBytes& share,
                     double timeout_s);
    ~NcclCommunicator() override;

    std::string backend() const override { return "nccl"; }
    std::string description() const override;
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    void checkSupported(Collective collective, DType dtype, ReduceOp op, bool in_place) const override;
    std::unique_ptr<CommWork> start(const CollectiveCall& call) override;

    bool deviceMemory() const override { return true; }
    CommBuffer allocate(std::size_t bytes) const override;
    void upload(void* buffer, const void* host, std::size_t bytes) const override;
    void download(void* host, const void* buffer, std::size_t bytes) const override;

    int device() const { return device_; }
    // The NCCL library's version as "2.28.9" (ncclGetVersion: the library loaded at run time).
    static std::string libraryVersion();

  private:
    struct CommDestroy {
        void operator()(ncclComm* comm) const;
    };
    struct StreamDestroy {
        void operator()(CUstream_st* stream) const;
    };

    int rank_ = 0;
    int size_ = 1;
    // After a failed or timed-out wait: ncclCommAbort, so that kernels waiting for dead peers end; comm_ is
    // empty then and every later collective fails saying so.
    void abort();

    int device_ = 0;
    double timeout_s_ = 600;
    std::string device_name_;
    std::unique_ptr<CUstream_st, StreamDestroy> stream_;
    std::unique_ptr<ncclComm, CommDestroy> comm_;
};

} // namespace scalebench
