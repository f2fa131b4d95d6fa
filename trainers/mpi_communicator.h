// The MPI backend of Communicator: OpenMPI's nonblocking collectives (MPI_Iallreduce, ...) on host memory;
// fp16 and bf16 reductions through MPI operations of our own (MPI has no 16-bit floating-point types).
#pragma once

#include "communicator.h"

#include <functional>
#include <mpi.h>

namespace scalebench {

class MpiCommunicator : public Communicator {
  public:
    // comm: the ranks taking part; it must outlive this object.
    explicit MpiCommunicator(MPI_Comm comm);
    ~MpiCommunicator() override;
    MpiCommunicator(const MpiCommunicator&) = delete;
    MpiCommunicator& operator=(const MpiCommunicator&) = delete;

    std::string backend() const override { return "mpi"; }
    std::string description() const override;
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    void checkSupported(Collective collective, DType dtype, ReduceOp op, bool in_place) const override;
    std::unique_ptr<CommWork> start(const CollectiveCall& call) override;
    // Blocking MPI calls: Open MPI's nonblocking collectives (libnbc) cost small messages about 1 us more.
    void run(const CollectiveCall& call) override;

  private:
    // Issues the call, blocking (request unused) or not; returns what must run once it completed.
    template <bool kBlocking> std::function<void()> issue(const CollectiveCall& call, MPI_Request* request);
    MPI_Comm comm_;
    int rank_ = 0;
    int size_ = 1;
    MPI_Op half_sum_ = MPI_OP_NULL;     // fp16 carried as MPI_UINT16_T
    MPI_Op bfloat16_sum_ = MPI_OP_NULL; // bf16 carried as MPI_UINT16_T
};

} // namespace scalebench
