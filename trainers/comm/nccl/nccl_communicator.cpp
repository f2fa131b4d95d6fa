// The NCCL backend of Communicator: NCCL collectives on GPU memory, on a stream of its own.
#include "nccl_communicator.h"

#include "bounded_wait.h"
#include "device_check.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

namespace scalebench {
namespace {

ncclDataType_t ncclType(DType d) {
    switch (d) {
    case DType::Float32:
        return ncclFloat32;
    case DType::Float16:
        return ncclFloat16;
    case DType::BFloat16:
        return ncclBfloat16;
    }
    return ncclFloat32;
}

void freeDevice(void* p) {
    cudaFree(p);
} // a destructor cannot report; cudaFree fails only on a bad pointer

struct EventDestroy {
    void operator()(CUevent_st* event) const { cudaEventDestroy(event); }
};

// Finished when the event recorded after the collective on the communicator's stream has passed. wait()
// gives up after the timeout, or at NCCL's first asynchronous error, calling give_up (the communicator's
// abort) and throwing an error that names the rank.
class NcclWork : public CommWork {
  public:
    NcclWork(cudaStream_t stream, ncclComm_t comm, double timeout_s, std::function<void()> give_up)
        : comm_(comm), timeout_s_(timeout_s), give_up_(std::move(give_up)) {
        cudaEvent_t event = nullptr;
        CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
        event_.reset(event);
        CUDA_CHECK(cudaEventRecord(event_.get(), stream));
    }
    bool test() override {
        if (done_) return true;
        const cudaError_t state = cudaEventQuery(event_.get());
        if (state == cudaErrorNotReady) return false;
        CUDA_CHECK(state);
        done_ = true;
        return true;
    }
    void wait() override {
        if (done_) return;
        ncclResult_t async_error = ncclSuccess;
        const auto state = [&] {
            if (test()) return WorkState::Done;
            if (ncclCommGetAsyncError(comm_, &async_error) == ncclSuccess && async_error != ncclSuccess &&
                async_error != ncclInProgress)
                return WorkState::Failed;
            return WorkState::Pending;
        };
        const auto describe = [&](bool failed, double waited_s) {
            char host[256] = {};
            gethostname(host, sizeof host - 1);
            const std::string where = "nccl: rank " + std::to_string(deviceCheckRank()) + " on " + host;
            if (failed)
                return where + ": a collective failed (" + ncclGetErrorString(async_error) +
                       "); communicator aborted";
            return where + ": a collective did not finish within " +
                   std::to_string(static_cast<int>(waited_s)) + " s (--nccl-timeout-s " +
                   std::to_string(static_cast<int>(timeout_s_)) +
                   "): a peer rank died or hangs; communicator aborted";
        };
        waitWithin(state, std::chrono::duration<double>(timeout_s_), give_up_, describe);
        done_ = true;
    }

  private:
    std::unique_ptr<CUevent_st, EventDestroy> event_;
    ncclComm_t comm_;
    double timeout_s_;
    std::function<void()> give_up_;
    bool done_ = false;
};

} // namespace

void NcclCommunicator::CommDestroy::operator()(ncclComm* comm) const {
    ncclCommDestroy(comm);
}
void NcclCommunicator::StreamDestroy::operator()(CUstream_st* stream) const {
    cudaStreamDestroy(stream);
}

NcclCommunicator::ShareBytes NcclCommunicator::shareThroughFile(const std::string& path, int rank) {
    return [path, rank](char* bytes, std::size_t length) {
        namespace fs = std::filesystem;
        if (rank == 0) {
            const std::string partial = path + ".partial";
            std::ofstream(partial, std::ios::binary).write(bytes, static_cast<std::streamsize>(length));
            fs::rename(partial, path); // the others never see half a file
            return;
        }
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(5);
        while (!fs::exists(path) || fs::file_size(path) != length) {
            if (std::chrono::steady_clock::now() > give_up)
                throw std::runtime_error("nccl: rank 0 did not write the unique id to " + path +
                                         " within 5 minutes");
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        std::ifstream(path, std::ios::binary).read(bytes, static_cast<std::streamsize>(length));
    };
}

NcclCommunicator::NcclCommunicator(int rank, int size, const ChooseDevice& choose_device,
                                   const ShareBytes& share, double timeout_s)
    : rank_(rank), size_(size), timeout_s_(timeout_s) {
    deviceCheckRank() = rank;
    int devices = 0;
    const cudaError_t found = cudaGetDeviceCount(&devices);
    if (found != cudaSuccess || devices == 0)
        throw std::runtime_error("nccl: no usable CUDA device on this host: cudaGetDeviceCount: " +
                                 (found != cudaSuccess ? cudaErrorText(found) : std::string("0 devices")));
    device_ = choose_device(devices); // the GPU the rank's model is on
    CUDA_CHECK(cudaSetDevice(device_));
    cudaDeviceProp properties{};
    CUDA_CHECK(cudaGetDeviceProperties(&properties, device_));
    device_name_ = properties.name;
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    stream_.reset(stream);

    ncclUniqueId id{};
    if (rank == 0) NCCL_CHECK(ncclGetUniqueId(&id));
    share(id.internal, sizeof id.internal);
    ncclComm_t comm = nullptr;
    NCCL_CHECK(ncclCommInitRank(&comm, size, id, rank));
    comm_.reset(comm);
}

NcclCommunicator::~NcclCommunicator() = default;

std::string NcclCommunicator::libraryVersion() {
    int version = 0;
    ncclGetVersion(&version);
    return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
           std::to_string(version % 100);
}

void NcclCommunicator::abort() {
    if (!comm_) return;
    ncclCommAbort(comm_.release()); // not ncclCommDestroy: that waits for the kernels of dead peers
}

std::string NcclCommunicator::description() const {
    return "NCCL " + libraryVersion() + " on GPU memory (" + device_name_ +
           "), ncclAvg for average, all-to-all as grouped ncclSend/ncclRecv";
}

void NcclCommunicator::checkSupported(Collective collective, DType, ReduceOp, bool in_place) const {
    if (collective == Collective::AllToAll && in_place)
        throw std::invalid_argument("nccl: all-to-all in place is not supported (grouped ncclSend/ncclRecv "
                                    "would overwrite blocks still to be sent)");
}

std::unique_ptr<CommWork> NcclCommunicator::start(const CollectiveCall& c) {
    const auto* send = static_cast<const char*>(c.send);
    auto* receive = static_cast<char*>(c.receive);
    checkSupported(c.collective, c.dtype, c.op, send == receive);
    if (!comm_)
        throw std::runtime_error("nccl: rank " + std::to_string(rank_) +
                                 ": communicator aborted after a failed or timed-out collective");
    CUDA_CHECK(cudaSetDevice(device_));
    const auto count = static_cast<std::size_t>(c.count);
    const ncclDataType_t type = ncclType(c.dtype);
    const ncclRedOp_t op = c.op == ReduceOp::Sum ? ncclSum : ncclAvg;
    ncclComm_t comm = comm_.get();
    cudaStream_t stream = c.stream ? static_cast<cudaStream_t>(c.stream) : stream_.get();
    switch (c.collective) {
    case Collective::AllReduce:
        NCCL_CHECK(ncclAllReduce(send, receive, count, type, op, comm, stream));
        break;
    case Collective::AllGather:
        NCCL_CHECK(ncclAllGather(send, receive, count, type, comm, stream));
        break;
    case Collective::ReduceScatter:
        NCCL_CHECK(ncclReduceScatter(send, receive, count, type, op, comm, stream));
        break;
    case Collective::Broadcast:
        NCCL_CHECK(ncclBroadcast(send, receive, count, type, c.root, comm, stream));
        break;
    case Collective::AllToAll: {
        const std::size_t block = count * dtypeBytes(c.dtype);
        NCCL_CHECK(ncclGroupStart());
        for (int peer = 0; peer < size_; ++peer) {
            NCCL_CHECK(ncclSend(send + peer * block, count, type, peer, comm, stream));
            NCCL_CHECK(ncclRecv(receive + peer * block, count, type, peer, comm, stream));
        }
        NCCL_CHECK(ncclGroupEnd());
        break;
    }
    }
    return std::make_unique<NcclWork>(stream, comm, timeout_s_, [this] { abort(); });
}

CommBuffer NcclCommunicator::allocate(std::size_t bytes) const {
    CUDA_CHECK(cudaSetDevice(device_));
    void* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, bytes > 0 ? bytes : 1));
    return CommBuffer(p, CommBufferFree{&freeDevice});
}

void NcclCommunicator::upload(void* buffer, const void* host, std::size_t bytes) const {
    CUDA_CHECK(cudaSetDevice(device_)); // the calling thread may not have chosen it yet
    CUDA_CHECK(cudaMemcpyAsync(buffer, host, bytes, cudaMemcpyHostToDevice, stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

void NcclCommunicator::download(void* host, const void* buffer, std::size_t bytes) const {
    CUDA_CHECK(cudaSetDevice(device_)); // the calling thread may not have chosen it yet
    CUDA_CHECK(cudaMemcpyAsync(host, buffer, bytes, cudaMemcpyDeviceToHost, stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

} // namespace scalebench
