// The MPI backend of Communicator: OpenMPI's nonblocking collectives on host memory.
#include "mpi_communicator.h"

#include <c10/util/BFloat16.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> // Open MPI's extensions: MPIX_Query_cuda_support
#endif
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
           "in sweeps; average = sum / ranks; fp16 and bf16 reduced by an MPI_Op of our own in fp32";
}

bool MpiCommunicator::acceptsDeviceMemory() const {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() == 1; // built with CUDA, and the library loaded at run time says so
#else
    return false;
#endif
}

void MpiCommunicator::checkSupported(Collective, DType, ReduceOp, bool) const {
    // Every collective, dtype, reduction and placement of the interface.
}

void MpiCall::start(MPI_Request* request) const {
    switch (collective) {
    case Collective::AllReduce:
        MPI_CHECK(MPI_Iallreduce(send, receive, count, type, op, comm, request));
        break;
    case Collective::AllGather:
        MPI_CHECK(MPI_Iallgather(send, count, type, receive, count, type, comm, request));
        break;
    case Collective::ReduceScatter:
        MPI_CHECK(MPI_Ireduce_scatter_block(send, receive, count, type, op, comm, request));
        break;
    case Collective::Broadcast:
        if (copy_bytes > 0) std::memcpy(receive, copy_from, copy_bytes);
        MPI_CHECK(MPI_Ibcast(receive, count, type, root, comm, request));
        break;
    case Collective::AllToAll:
        MPI_CHECK(MPI_Ialltoall(send, count, type, receive, count, type, comm, request));
        break;
    }
}

MpiCall MpiCommunicator::resolve(const CollectiveCall& c) const {
    checkSupported(c.collective, c.dtype, c.op, false);
    if (c.count * size_ > INT_MAX)
        throw std::invalid_argument("mpi: " + std::to_string(c.count) + " elements exceed MPI's int counts");
    MpiCall m;
    m.collective = c.collective;
    m.count = static_cast<int>(c.count);
    m.type = c.dtype == DType::Float32 ? MPI_FLOAT : MPI_UINT16_T;
    m.op = c.dtype == DType::Float32 ? MPI_SUM : (c.dtype == DType::Float16 ? half_sum_ : bfloat16_sum_);
    m.root = c.root;
    m.comm = comm_;
    const std::size_t bytes = static_cast<std::size_t>(c.count) * dtypeBytes(c.dtype);
    auto* receive = static_cast<char*>(c.receive);
    auto* send = static_cast<char*>(const_cast<void*>(c.send));
    const bool average = isReduction(c.collective) && c.op == ReduceOp::Average;
    const int ranks = size_;
    const auto divide = [receive, count = m.count, dtype = c.dtype, ranks] {
        divideBy(receive, count, dtype, ranks);
    };
    m.send = send;
    m.receive = receive;
    switch (c.collective) {
    case Collective::AllReduce:
    case Collective::AllToAll:
        if (send == receive) m.send = MPI_IN_PLACE;
        break;
    case Collective::AllGather:
        if (send == receive + rank_ * bytes) m.send = MPI_IN_PLACE;
        break;
    case Collective::ReduceScatter:
        if (receive == send + rank_ * bytes) {
            // MPI leaves the in-place result at the front of the buffer; NCCL's layout wants it at rank x
            // count.
            m.send = MPI_IN_PLACE;
            m.receive = send;
            m.finish = [send, receive, bytes, average, divide] {
                if (send != receive) std::memmove(receive, send, bytes);
                if (average) divide();
            };
            return m;
        }
        break;
    case Collective::Broadcast:
        if (send != receive && rank_ == c.root) {
            m.copy_from = send;
            m.copy_bytes = bytes;
        }
        break;
    }
    if (average) m.finish = divide;
    return m;
}

std::unique_ptr<CommWork> MpiCommunicator::start(const CollectiveCall& call) {
    MpiCall resolved = resolve(call);
    MPI_Request request = MPI_REQUEST_NULL;
    resolved.start(&request);
    return std::make_unique<MpiWork>(request, std::move(resolved.finish));
}

void MpiCommunicator::run(const CollectiveCall& call) {
    resolve(call).run();
}

} // namespace scalebench
