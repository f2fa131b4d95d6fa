// Host memory for the backends whose collectives work on it (MPI, Gloo).
#include "communicator.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace scalebench {

CommBuffer Communicator::allocate(std::size_t bytes) const {
    void* p = std::malloc(bytes > 0 ? bytes : 1);
    if (!p) throw std::bad_alloc();
    return CommBuffer(p, CommBufferFree{&std::free});
}

void Communicator::upload(void* buffer, const void* host, std::size_t bytes) const {
    std::memcpy(buffer, host, bytes);
}

void Communicator::download(void* host, const void* buffer, std::size_t bytes) const {
    std::memcpy(host, buffer, bytes);
}

} // namespace scalebench
