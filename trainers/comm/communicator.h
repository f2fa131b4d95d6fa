// Collective communication among the ranks of a run, on raw buffers, behind one interface with three
// backends (MPI, Gloo through LibTorch's c10d, NCCL on GPU memory); calls return a handle to wait on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace scalebench {

enum class Collective { AllReduce, AllGather, ReduceScatter, Broadcast, AllToAll };
enum class ReduceOp { Sum, Average };
enum class DType { Float32, Float16, BFloat16 };

// The names of the metric stream (docs/metric-stream.md): allreduce, float32, sum, ...
inline const char* collectiveName(Collective c) {
    switch (c) {
    case Collective::AllReduce:
        return "allreduce";
    case Collective::AllGather:
        return "allgather";
    case Collective::ReduceScatter:
        return "reducescatter";
    case Collective::Broadcast:
        return "broadcast";
    case Collective::AllToAll:
        return "alltoall";
    }
    return "?";
}
inline const char* dtypeName(DType d) {
    switch (d) {
    case DType::Float32:
        return "float32";
    case DType::Float16:
        return "float16";
    case DType::BFloat16:
        return "bfloat16";
    }
    return "?";
}
inline const char* reduceOpName(ReduceOp op) {
    return op == ReduceOp::Sum ? "sum" : "avg";
}
inline std::size_t dtypeBytes(DType d) {
    return d == DType::Float32 ? 4 : 2;
}
inline bool isReduction(Collective c) {
    return c == Collective::AllReduce || c == Collective::ReduceScatter;
}

// One collective call. `count` is elements: of the whole buffer for all-reduce and broadcast; of one rank's
// block for all-gather (send count), reduce-scatter (receive count) and all-to-all (elements sent to each
// peer), whose large buffer holds count x ranks elements (NCCL's convention). In place (NCCL's layout):
// all-reduce and broadcast with send == receive; all-gather with send == receive + rank x count;
// reduce-scatter with receive == send + rank x count; all-to-all with send == receive.
struct CollectiveCall {
    Collective collective = Collective::AllReduce;
    const void* send = nullptr;
    void* receive = nullptr;
    std::int64_t count = 0;
    DType dtype = DType::Float32;
    ReduceOp op = ReduceOp::Sum; // reductions only
    int root = 0;                // broadcast only
    // Device backends: the stream (a cudaStream_t) to enqueue the call on, ordered after what was enqueued
    // there before; nullptr: the backend's own stream. Host backends ignore it.
    void* stream = nullptr;
};

// A started collective. test() advances it and says whether it has finished; wait() blocks until it has.
// Either may throw the backend's error. The buffers must stay alive until it has finished.
class CommWork {
  public:
    virtual ~CommWork() = default;
    virtual bool test() = 0;
    virtual void wait() = 0;
};

// Memory a backend's collectives work on: host memory for MPI and Gloo, device memory for NCCL.
struct CommBufferFree {
    void (*release)(void*) = nullptr;
    void operator()(void* p) const {
        if (p && release) release(p);
    }
};
using CommBuffer = std::unique_ptr<void, CommBufferFree>;

class Communicator {
  public:
    virtual ~Communicator() = default;
    virtual std::string backend() const = 0; // mpi, gloo, nccl
    virtual std::string description() const = 0;
    virtual int rank() const = 0;
    virtual int size() const = 0;

    // Throws std::invalid_argument naming the backend and what it lacks.
    virtual void checkSupported(Collective collective, DType dtype, ReduceOp op, bool in_place) const = 0;
    // Starts the call (asynchronously where the backend can); checkSupported first.
    virtual std::unique_ptr<CommWork> start(const CollectiveCall& call) = 0;
    // Runs the call to completion (the timed loop of a sweep on host memory).
    virtual void run(const CollectiveCall& call) { start(call)->wait(); }

    // Buffers the collectives can use, and copies between them and host memory (blocking).
    virtual bool deviceMemory() const { return false; }
    // Whether start() may also be handed GPU memory (fp32): a device backend, or an MPI built CUDA-aware.
    virtual bool acceptsDeviceMemory() const { return deviceMemory(); }
    virtual CommBuffer allocate(std::size_t bytes) const;
    virtual void upload(void* buffer, const void* host, std::size_t bytes) const;
    virtual void download(void* host, const void* buffer, std::size_t bytes) const;
};

} // namespace scalebench
