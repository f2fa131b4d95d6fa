// MPI for an in-process engine test: a singleton world of one rank, started on first use with the thread
// support the gradient buckets' communication thread needs, finalised at exit.
#pragma once

#include <cstdlib>
#include <mpi.h>

namespace scalebench {

inline MPI_Comm oneRankWorld() {
    static const bool started = [] {
        int threading = 0;
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1",
               0); // Open MPI refuses root without both (test containers run as root)
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
        MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &threading);
        std::atexit([] { MPI_Finalize(); });
        return true;
    }();
    (void)started;
    return MPI_COMM_WORLD;
}

} // namespace scalebench
