// CUDA_CHECK and NCCL_CHECK, the engine's one way to call the CUDA runtime and NCCL: a failed call throws
// naming the call, the host, the rank (where one is known), the source line and the library's own error text
// (nccl-tests' TESTCHECK, llm.c's ncclCheck). NCCL_CHECK exists where nccl.h is on the include path.
#pragma once

#include <cuda_runtime.h>
#include <stdexcept>
#include <string>
#include <unistd.h>
#if __has_include(<nccl.h>)
#include <nccl.h>
#endif

namespace scalebench {

// The rank named in error messages: the NCCL backend sets it; -1 (none named) before, as in the GPU inventory
// the engine takes before it trains.
inline int& deviceCheckRank() {
    static int rank = -1;
    return rank;
}

// "cudaErrorInsufficientDriver (CUDA driver version is insufficient for CUDA runtime version)"
inline std::string cudaErrorText(cudaError_t code) {
    return std::string(cudaGetErrorName(code)) + " (" + cudaGetErrorString(code) + ")";
}

[[noreturn]] inline void throwDeviceError(const std::string& error, const char* call, const char* file,
                                          int line) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const std::string rank = deviceCheckRank() >= 0 ? " rank " + std::to_string(deviceCheckRank()) : "";
    throw std::runtime_error(std::string(call) + " failed on " + host + rank + " at " + file + ":" +
                             std::to_string(line) + ": " + error);
}

} // namespace scalebench

#define CUDA_CHECK(call)                                                                                     \
    do {                                                                                                     \
        const cudaError_t cuda_check_code_ = (call);                                                         \
        if (cuda_check_code_ != cudaSuccess)                                                                 \
            ::scalebench::throwDeviceError(::scalebench::cudaErrorText(cuda_check_code_), #call, __FILE__,   \
                                           __LINE__);                                                        \
    } while (0)

#if __has_include(<nccl.h>)
#define NCCL_CHECK(call)                                                                                     \
    do {                                                                                                     \
        const ncclResult_t nccl_check_code_ = (call);                                                        \
        if (nccl_check_code_ != ncclSuccess)                                                                 \
            ::scalebench::throwDeviceError(ncclGetErrorString(nccl_check_code_), #call, __FILE__, __LINE__); \
    } while (0)
#endif
