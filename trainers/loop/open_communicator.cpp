// The engine's choice of communication backend, with its rendezvous over MPI or a file.
#include "open_communicator.h"

#include "device_placement.h"
#include "gloo_communicator.h"
#include "mpi_check.h"
#include "mpi_communicator.h"
#ifdef SCALEBENCH_HAVE_NCCL
#include "nccl_communicator.h"
#endif

#include <cstdio>

namespace scalebench {

std::optional<std::string> ncclLibraryVersion() {
#ifdef SCALEBENCH_HAVE_NCCL
    return NcclCommunicator::libraryVersion();
#else
    return std::nullopt;
#endif
}

std::unique_ptr<Communicator> openCommunicator(const EngineOptions& o, MPI_Comm comm, int local_rank,
                                               std::optional<int> gpu) {
    int rank = 0, size = 1;
    MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MPI_CHECK(MPI_Comm_size(comm, &size));
    if (o.backend == "mpi") return std::make_unique<MpiCommunicator>(comm);
    if (o.backend == "gloo") {
        if (!o.rendezvous_file.empty())
            return std::make_unique<GlooCommunicator>(rank, size, o.rendezvous_file);
        return std::make_unique<GlooCommunicator>(
            rank, size, [comm](const GlooCommunicator::StoreAddress& mine) {
                struct {
                    char host[256];
                    int port;
                } wire{};
                std::snprintf(wire.host, sizeof wire.host, "%s", mine.host.c_str());
                wire.port = mine.port;
                MPI_CHECK(MPI_Bcast(&wire, sizeof wire, MPI_BYTE, 0, comm));
                return GlooCommunicator::StoreAddress{wire.host, wire.port};
            });
    }
    if (o.backend == "nccl") {
#ifdef SCALEBENCH_HAVE_NCCL
        const auto choose_device = [gpu, rank, local_rank](int visible_devices) {
            return gpu ? *gpu : placeOnDevice(processEnvironment(), visible_devices, rank, local_rank).device;
        };
        if (!o.rendezvous_file.empty())
            return std::make_unique<NcclCommunicator>(
                rank, size, choose_device, NcclCommunicator::shareThroughFile(o.rendezvous_file, rank),
                o.nccl_timeout_s);
        return std::make_unique<NcclCommunicator>(
            rank, size, choose_device,
            [comm](char* bytes, std::size_t length) {
                MPI_CHECK(MPI_Bcast(bytes, static_cast<int>(length), MPI_BYTE, 0, comm));
            },
            o.nccl_timeout_s);
#else
        (void)local_rank;
        (void)gpu;
        throw std::runtime_error(
            "--backend nccl: this engine was built without NCCL (the CUDA toolkit or NCCL "
            "was not found when it was built, or SCALEBENCH_NCCL=OFF)");
#endif
    }
    throw std::invalid_argument("--backend: unknown backend '" + o.backend + "'");
}

} // namespace scalebench
