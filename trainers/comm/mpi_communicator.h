// The MPI backend of Communicator: OpenMPI's nonblocking collectives (MPI_Iallreduce, ...) on host memory;
// fp16 and bf16 reductions through MPI operations of our own (MPI has no 16-bit floating-point types).
#pragma once

#include "communicator.h"
#include "mpi_check.h"

#include <cstring>
#include <functional>
#include <mpi.h>

namespace scalebench {

// One collective resolved to the MPI call that makes it. run() is that blocking call and its finishing step,
// defined here so that a timed loop holding an MpiCall issues MPI directly, as osu_allreduce's loop does
// (through the Communicator interface, the indirect calls cost a 4-byte all-reduce on 2 cores ~0.02 of its
// ~0.33 us).
struct MpiCall {
    Collective collective = Collective::AllReduce;
    const void* send = nullptr; // MPI_IN_PLACE when in place
    void* receive = nullptr;
    int count = 0;
    MPI_Datatype type = MPI_FLOAT;
    MPI_Op op = MPI_SUM;
    int root = 0;
    MPI_Comm comm = MPI_COMM_NULL;
    const void* copy_from = nullptr; // broadcast out of place at the root: copied to receive before the call
    std::size_t copy_bytes = 0;
    std::function<void()> finish; // what must follow the call's completion (average, in-place reduce-scatter)

    void run() const {
        switch (collective) {
        case Collective::AllReduce:
            MPI_CHECK(MPI_Allreduce(send, receive, count, type, op, comm));
            break;
        case Collective::AllGather: // in place, MPI ignores the send count and type
            MPI_CHECK(MPI_Allgather(send, count, type, receive, count, type, comm));
            break;
        case Collective::ReduceScatter:
            MPI_CHECK(MPI_Reduce_scatter_block(send, receive, count, type, op, comm));
            break;
        case Collective::Broadcast:
            if (copy_bytes > 0) std::memcpy(receive, copy_from, copy_bytes);
            MPI_CHECK(MPI_Bcast(receive, count, type, root, comm));
            break;
        case Collective::AllToAll:
            MPI_CHECK(MPI_Alltoall(send, count, type, receive, count, type, comm));
            break;
        }
        if (finish) finish();
    }
    // Starts the nonblocking call; `finish` is the caller's to run once it has completed.
    void start(MPI_Request* request) const;
};

class MpiCommunicator : public Communicator {
  public:
    // comm: the ranks taking part; it must outlive this object.
    explicit MpiCommunicator(MPI_Comm comm);
    ~MpiCommunicator() override;
    MpiCommunicator(const MpiCommunicator&) = delete;
    MpiCommunicator& operator=(const MpiCommunicator&) = delete;

    std::string backend() const override { return "mpi"; }
    std::string description() const override;
    // Where this MPI library says it is CUDA-aware (Open MPI's MPIX_Query_cuda_support).
    bool acceptsDeviceMemory() const override;
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    void checkSupported(Collective collective, DType dtype, ReduceOp op, bool in_place) const override;
    std::unique_ptr<CommWork> start(const CollectiveCall& call) override;
    // Blocking MPI calls: Open MPI's nonblocking collectives (libnbc) cost small messages about 1 us more.
    void run(const CollectiveCall& call) override;
    // The MPI arguments of a call: in-place buffers, datatype and operation; throws when MPI's int counts
    // cannot hold it.
    MpiCall resolve(const CollectiveCall& call) const;

  private:
    MPI_Comm comm_;
    int rank_ = 0;
    int size_ = 1;
    MPI_Op half_sum_ = MPI_OP_NULL;     // fp16 carried as MPI_UINT16_T
    MPI_Op bfloat16_sum_ = MPI_OP_NULL; // bf16 carried as MPI_UINT16_T
};

} // namespace scalebench
