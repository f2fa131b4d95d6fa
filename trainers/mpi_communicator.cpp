// The MPI backend of Communicator: OpenMPI's nonblocking collectives on host memory.
#include "mpi_communicator.h"

#include "mpi_check.h"

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <climits>
#include <cstring>
#include <functional>

namespace scalebench {
namespace {

template <typename Half> void sumHalves(void* in, void* inout, int* length, MPI_Datatype*) {
    const auto* a = static_cast<const Half*>(in);
    auto* b = static_cast<Half*>(inout);
    for (int i = 0; i < *length; ++i)
        b[i] = Half(static_cast<float>(a[i]) + static_cast<float>(b[i]));
}

template <typename Value> void divide(void* data, std::int64_t count, int ranks) {
    auto* v = static_cast<Value*>(data);
    for (std::int64_t i = 0; i < count; ++i)
        v[i] = Value(static_cast<float>(v[i]) / static_cast<float>(ranks));
}

void divideBy(void* data, std::int64_t count, DType dtype, int ranks) {
    switch (dtype) {
    case DType::Float32:
        divide<float>(data, count, ranks);
        break;
    case DType::Float16:
        divide<c10::Half>(data, count, ranks);
        break;
    case DType::BFloat16:
        divide<c10::BFloat16>(data, count, ranks);
        break;
    }
}

class MpiWork : public CommWork {
  public:
    MpiWork(MPI_Request request, std::function<void()> finish)
        : request_(request), finish_(std::move(finish)) {}
    ~MpiWork() override {
        if (!done_) MPI_Wait(&request_, MPI_STATUS_IGNORE); // the buffers may go away after this
    }
    bool test() override {
        if (done_) return true;
        int flag = 0;
        MPI_CHECK(MPI_Test(&request_, &flag, MPI_STATUS_IGNORE));
        if (flag) complete();
        return done_;
    }
    void wait() override {
        if (done_) return;
        MPI_CHECK(MPI_Wait(&request_, MPI_STATUS_IGNORE));
        complete();
    }

  private:
    void complete() {
        done_ = true;
        if (finish_) finish_();
    }
    MPI_Request request_;
    std::function<void()> finish_;
    bool done_ = false;
};

} // namespace

MpiCommunicator::MpiCommunicator(MPI_Comm comm) : comm_(comm) {
    MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
    MPI_CHECK(MPI_Comm_size(comm_, &size_));
    MPI_CHECK(MPI_Op_create(&sumHalves<c10::Half>, 1, &half_sum_));
    MPI_CHECK(MPI_Op_create(&sumHalves<c10::BFloat16>, 1, &bfloat16_sum_));
}

MpiCommunicator::~MpiCommunicator() {
    MPI_Op_free(&half_sum_);
    MPI_Op_free(&bfloat16_sum_);
}

std::string MpiCommunicator::description() const {
    return "MPI collectives on host memory: nonblocking (MPI_Iallreduce, ...) for gradient buckets, blocking "
           "in "
           "sweeps; average = sum / ranks; fp16 "
           "and bf16 reduced by an MPI_Op of our own in fp32";
}

void MpiCommunicator::checkSupported(Collective, DType, ReduceOp, bool) const {
    // Every collective, dtype, reduction and placement of the interface.
}

template <bool kBlocking>
std::function<void()> MpiCommunicator::issue(const CollectiveCall& c, [[maybe_unused]] MPI_Request* request) {
    checkSupported(c.collective, c.dtype, c.op, false);
    if (c.count > INT_MAX / size_)
        throw std::invalid_argument("mpi: " + std::to_string(c.count) + " elements exceed MPI's int counts");
    const int count = static_cast<int>(c.count);
    const std::size_t bytes = static_cast<std::size_t>(c.count) * dtypeBytes(c.dtype);
    const MPI_Datatype type = c.dtype == DType::Float32 ? MPI_FLOAT : MPI_UINT16_T;
    const MPI_Op sum =
        c.dtype == DType::Float32 ? MPI_SUM : (c.dtype == DType::Float16 ? half_sum_ : bfloat16_sum_);
    auto* receive = static_cast<char*>(c.receive);
    auto* send = static_cast<char*>(const_cast<void*>(c.send));
    const int ranks = size_;
    std::function<void()> finish;
    switch (c.collective) {
    case Collective::AllReduce:
        if constexpr (kBlocking)
            MPI_CHECK(MPI_Allreduce(send == receive ? MPI_IN_PLACE : send, receive, count, type, sum, comm_));
        else
            MPI_CHECK(MPI_Iallreduce(send == receive ? MPI_IN_PLACE : send, receive, count, type, sum, comm_,
                                     request));
        if (c.op == ReduceOp::Average)
            finish = [receive, count, dtype = c.dtype, ranks] { divideBy(receive, count, dtype, ranks); };
        break;
    case Collective::AllGather:
        if (send == receive + rank_ * bytes) {
            if constexpr (kBlocking)
                MPI_CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, receive, count, type, comm_));
            else
                MPI_CHECK(
                    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, receive, count, type, comm_, request));
        } else if constexpr (kBlocking) {
            MPI_CHECK(MPI_Allgather(send, count, type, receive, count, type, comm_));
        } else {
            MPI_CHECK(MPI_Iallgather(send, count, type, receive, count, type, comm_, request));
        }
        break;
    case Collective::ReduceScatter:
        if (receive == send + rank_ * bytes) {
            // MPI leaves the in-place result at the front of the buffer; NCCL's layout wants it at rank x
            // count.
            if constexpr (kBlocking)
                MPI_CHECK(MPI_Reduce_scatter_block(MPI_IN_PLACE, send, count, type, sum, comm_));
            else
                MPI_CHECK(MPI_Ireduce_scatter_block(MPI_IN_PLACE, send, count, type, sum, comm_, request));
            finish = [send, receive, bytes, count, op = c.op, dtype = c.dtype, ranks] {
                if (send != receive) std::memmove(receive, send, bytes);
                if (op == ReduceOp::Average) divideBy(receive, count, dtype, ranks);
            };
        } else {
            if constexpr (kBlocking)
                MPI_CHECK(MPI_Reduce_scatter_block(send, receive, count, type, sum, comm_));
            else
                MPI_CHECK(MPI_Ireduce_scatter_block(send, receive, count, type, sum, comm_, request));
            if (c.op == ReduceOp::Average)
                finish = [receive, count, dtype = c.dtype, ranks] { divideBy(receive, count, dtype, ranks); };
        }
        break;
    case Collective::Broadcast:
        if (send != receive && rank_ == c.root) std::memcpy(receive, send, bytes);
        if constexpr (kBlocking)
            MPI_CHECK(MPI_Bcast(receive, count, type, c.root, comm_));
        else
            MPI_CHECK(MPI_Ibcast(receive, count, type, c.root, comm_, request));
        break;
    case Collective::AllToAll:
        if (send == receive) {
            if constexpr (kBlocking)
                MPI_CHECK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, receive, count, type, comm_));
            else
                MPI_CHECK(
                    MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, receive, count, type, comm_, request));
        } else if constexpr (kBlocking) {
            MPI_CHECK(MPI_Alltoall(send, count, type, receive, count, type, comm_));
        } else {
            MPI_CHECK(MPI_Ialltoall(send, count, type, receive, count, type, comm_, request));
        }
        break;
    }
    return finish;
}

std::unique_ptr<CommWork> MpiCommunicator::start(const CollectiveCall& call) {
    MPI_Request request = MPI_REQUEST_NULL;
    std::function<void()> finish = issue<false>(call, &request);
    return std::make_unique<MpiWork>(request, std::move(finish));
}

void MpiCommunicator::run(const CollectiveCall& call) {
    const std::function<void()> finish = issue<true>(call, nullptr);
    if (finish) finish();
}

} // namespace scalebench
