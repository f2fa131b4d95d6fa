// MPI_CHECK: every MPI call reports the call, host, rank and source line when it fails (nccl-tests'
// TESTCHECK).
#pragma once

#include <mpi.h>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace scalebench {

[[noreturn]] inline void throwMpiError(int code, const char* call, const char* file, int line) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, text, &length);
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    throw std::runtime_error(std::string(call) + " failed on " + host + " rank " + std::to_string(rank) +
                             " at " + file + ":" + std::to_string(line) + ": " + std::string(text, length));
}

} // namespace scalebench

#define MPI_CHECK(call)                                                                                      \
    do {                                                                                                     \
        const int mpi_check_code_ = (call);                                                                  \
        if (mpi_check_code_ != MPI_SUCCESS)                                                                  \
            ::scalebench::throwMpiError(mpi_check_code_, #call, __FILE__, __LINE__);                         \
    } while (0)
