// The Gloo backend of Communicator: LibTorch's c10d::ProcessGroupGloo on host memory, met through a
// c10d::TCPStore served by rank 0 or through a c10d::FileStore on a shared file system.
#pragma once

#include "communicator.h"

#include <c10/util/intrusive_ptr.h>
#include <functional>
#include <string>

namespace c10d {
class ProcessGroupGloo;
class Store;
} // namespace c10d

namespace scalebench {

class GlooCommunicator : public Communicator {
  public:
    struct StoreAddress {
        std::string host;
        int port = 0;
    };
    // Sends rank 0's address to every rank and returns it (the engine does it with MPI_Bcast).
    using ShareAddress = std::function<StoreAddress(const StoreAddress& mine)>;

    // TCP rendezvous: rank 0 serves a TCPStore on a free port of its host name; the others connect to it.
    GlooCommunicator(int rank, int size, const ShareAddress& share);
    // File rendezvous: every rank opens the same file (which must not be left over from another run).
    GlooCommunicator(int rank, int size, const std::string& store_file);
    ~GlooCommunicator() override;

    std::string backend() const override { return "gloo"; }
    std::string description() const override;
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    void checkSupported(Collective collective, DType dtype, ReduceOp op, bool in_place) const override;
    std::unique_ptr<CommWork> start(const CollectiveCall& call) override;

  private:
    void join(); // the process group over store_

    int rank_ = 0;
    int size_ = 1;
    std::string rendezvous_; // for the description
    c10::intrusive_ptr<c10d::Store> store_;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
};

} // namespace scalebench
