// The Gloo backend of Communicator: LibTorch's c10d::ProcessGroupGloo on host memory.
#include "gloo_communicator.h"

#include <ATen/ATen.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <unistd.h>

namespace scalebench {
namespace {

at::ScalarType scalarType(DType d) {
    switch (d) {
    case DType::Float32:
        return at::kFloat;
    case DType::Float16:
        return at::kHalf;
    case DType::BFloat16:
        return at::kBFloat16;
    }
    return at::kFloat;
}

// A host buffer seen as a 1-D tensor, without copying or owning it.
at::Tensor view(const void* data, std::int64_t elements, DType dtype) {
    return at::from_blob(const_cast<void*>(data), {elements}, at::TensorOptions().dtype(scalarType(dtype)));
}

class GlooWork : public CommWork {
  public:
    GlooWork(c10::intrusive_ptr<c10d::Work> work, std::function<void()> finish)
        : work_(std::move(work)), finish_(std::move(finish)) {}
    ~GlooWork() override {
        try {
            if (!done_) work_->wait(); // the buffers may go away after this
        } catch (...) {
        }
    }
    bool test() override {
        if (!done_ && work_->isCompleted()) wait();
        return done_;
    }
    void wait() override {
        if (done_) return;
        try {
            work_->wait();
        } catch (const std::exception& e) {
            done_ = true;
            throw std::runtime_error(std::string("gloo: ").append(e.what()));
        }
        done_ = true;
        if (finish_) finish_();
    }

  private:
    c10::intrusive_ptr<c10d::Work> work_;
    std::function<void()> finish_;
    bool done_ = false;
};

std::string hostName() {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return host;
}

} // namespace

GlooCommunicator::GlooCommunicator(int rank, int size, const ShareAddress& share) : rank_(rank), size_(size) {
    c10d::TCPStoreOptions options;
    options.isServer = rank == 0;
    options.numWorkers = static_cast<std::size_t>(size);
    options.waitWorkers = false;
    StoreAddress address;
    if (rank == 0) {
        options.port = 0; // a free port
        address.host = hostName();
        auto store = c10::make_intrusive<c10d::TCPStore>(address.host, options);
        address.port = store->getPort();
        store_ = store;
        share(address);
    } else {
        address = share(address);
        options.port = static_cast<std::uint16_t>(address.port);
        store_ = c10::make_intrusive<c10d::TCPStore>(address.host, options);
    }
    rendezvous_ = "TCPStore " + address.host + ":" + std::to_string(address.port);
    join();
}

GlooCommunicator::GlooCommunicator(int rank, int size, const std::string& store_file)
    : rank_(rank), size_(size), rendezvous_("FileStore " + store_file) {
    store_ = c10::make_intrusive<c10d::FileStore>(store_file, size);
    join();
}

GlooCommunicator::~GlooCommunicator() = default;

void GlooCommunicator::join() {
    auto options = c10d::ProcessGroupGloo::Options::create();
    options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    options->threads = 1; // one worker: our collectives run one after another, and cores are scarce
    try {
        group_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store_, rank_, size_, options);
    } catch (const std::exception& e) {
        throw std::runtime_error("gloo: cannot join " + std::to_string(size_) + " ranks through " +
                                 rendezvous_ + ": " + e.what());
    }
}

std::string GlooCommunicator::description() const {
    return "c10d::ProcessGroupGloo (LibTorch) on host memory, rendezvous by " + rendezvous_ +
           "; average = sum / ranks; out-of-place all-reduce and broadcast copy into the result first";
}

void GlooCommunicator::checkSupported(Collective collective, DType, ReduceOp, bool in_place) const {
    if (collective == Collective::AllToAll && in_place)
        throw std::invalid_argument("gloo: all-to-all in place is not supported (c10d's alltoall_base needs "
                                    "separate input and output)");
}

std::unique_ptr<CommWork> GlooCommunicator::start(const CollectiveCall& c) {
    const int n = size_;
    std::function<void()> finish;
    c10::intrusive_ptr<c10d::Work> work;
    auto* receive = static_cast<char*>(c.receive);
    const auto* send = static_cast<const char*>(c.send);
    const std::size_t bytes = static_cast<std::size_t>(c.count) * dtypeBytes(c.dtype);
    try {
        switch (c.collective) {
        case Collective::AllReduce: {
            checkSupported(c.collective, c.dtype, c.op, send == receive);
            std::vector<at::Tensor> tensors{view(receive, c.count, c.dtype)};
            if (send != receive) std::memcpy(receive, send, bytes);
            work = group_->allreduce(tensors, c10d::AllreduceOptions{});
            if (c.op == ReduceOp::Average) finish = [t = tensors[0], n]() mutable { t.div_(n); };
            break;
        }
        case Collective::AllGather: {
            auto output = view(receive, c.count * n, c.dtype);
            auto input = view(send, c.count, c.dtype);
            work = group_->_allgather_base(output, input, c10d::AllgatherOptions{});
            break;
        }
        case Collective::ReduceScatter: {
            const bool in_place = receive == send + rank_ * bytes;
            checkSupported(c.collective, c.dtype, c.op, in_place);
            auto input = view(send, c.count * n, c.dtype);
            auto output = view(receive, c.count, c.dtype);
            work = group_->_reduce_scatter_base(output, input, c10d::ReduceScatterOptions{});
            if (c.op == ReduceOp::Average) finish = [t = output, n]() mutable { t.div_(n); };
            break;
        }
        case Collective::Broadcast: {
            if (send != receive && rank_ == c.root) std::memcpy(receive, send, bytes);
            std::vector<at::Tensor> tensors{view(receive, c.count, c.dtype)};
            c10d::BroadcastOptions options;
            options.rootRank = c.root;
            work = group_->broadcast(tensors, options);
            break;
        }
        case Collective::AllToAll: {
            checkSupported(c.collective, c.dtype, c.op, send == receive);
            auto output = view(receive, c.count * n, c.dtype);
            auto input = view(send, c.count * n, c.dtype);
            std::vector<int64_t> equal_splits; // empty: count elements to and from every rank
            work = group_->alltoall_base(output, input, equal_splits, equal_splits, c10d::AllToAllOptions{});
            break;
        }
        }
    } catch (const std::invalid_argument&) {
        throw;
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("gloo: ") + collectiveName(c.collective) + " of " +
                                 std::to_string(c.count) + " " + dtypeName(c.dtype) + " failed: " + e.what());
    }
    return std::make_unique<GlooWork>(std::move(work), std::move(finish));
}

} // namespace scalebench
