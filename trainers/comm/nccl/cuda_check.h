// CUDA_CHECK and NCCL_CHECK: every CUDA runtime and NCCL call reports the call, host, rank, source line and
// the library's own error text when it fails (nccl-tests' TESTCHECK, llm.c's ncclCheck).
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace scalebench {

// The rank named in error messages; the NCCL backend sets it (this library does not use MPI).
inline int& deviceCheckRank() {
    static int rank = -1;
    return rank;
}

[[noreturn]] inline void throwDeviceError(const std::string& error, const char* call, const char* file,
                                          int line) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    throw std::runtime_error(std::string(call) + " failed on " + host + " rank " +
                             std::to_string(deviceCheckRank()) + " at " + file + ":" + std::to_string(line) +
                             ": " + error);
}

} // namespace scalebench

#define CUDA_CHECK(call)                                                                                     \
    do {                                                                                                     \
        const cudaError_t cuda_check_code_ = (call);                                                         \
        if (cuda_check_code_ != cudaSuccess)                                                                 \
            ::scalebench::throwDeviceError(std::string(cudaGetErrorName(cuda_check_code_)) + ": " +          \
                                               cudaGetErrorString(cuda_check_code_),                         \
                                           #call, __FILE__, __LINE__);                                       \
    } while (0)

#define NCCL_CHECK(call)                                                                                     \
    do {                                                                                                     \
        const ncclResult_t nccl_check_code_ = (call);                                                        \
        if (nccl_check_code_ != ncclSuccess)                                                                 \
            ::scalebench::throwDeviceError(ncclGetErrorString(nccl_check_code_), #call, __FILE__, __LINE__); \
    } while (0)
