// The NCCL backend of Communicator: NCCL collectives on GPU memory, on a stream of its own.
#include "nccl_communicator.h"

#include "cuda_check.h"

#include <chrono>
#include <filesystem>
#include <fstream>
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

// Finished when the event recorded after the collective on the communicator's stream has passed.
class NcclWork : public CommWork {
  public:
    explicit NcclWork(cudaStream_t stream) {
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
        CUDA_CHECK(cudaEventSynchronize(event_.get()));
        done_ = true;
    }

  private:
    std::unique_ptr<CUevent_st, EventDestroy> event_;
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

NcclCommunicator::NcclCommunicator(int rank, int size, int local_rank, const ShareBytes& share)
    : rank_(rank), size_(size) {
    deviceCheckRank() = rank;
    int devices = 0;
    const cudaError_t found = cudaGetDeviceCount(&devices);
    if (found != cudaSuccess || devices == 0)
        throw std::runtime_error("nccl: no usable CUDA device on this host: cudaGetDeviceCount: " +
                                 (found != cudaSuccess ? std::string(cudaGetErrorName(found)) + " (" +
                                                             cudaGetErrorString(found) + ")"
                                                       : std::string("0 devices")));
    device_ = local_rank % devices;
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

std::string NcclCommunicator::description() const {
    int version = 0;
    ncclGetVersion(&version);
    return "NCCL " + std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
           std::to_string(version % 100) + " on GPU memory (" + device_name_ +
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
    return std::make_unique<NcclWork>(stream);
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
