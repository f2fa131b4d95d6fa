// Host memory for the backends whose collectives work on it (MPI, Gloo).
#include "communicator.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <unistd.h>

namespace scalebench {

// Page-aligned, as osu_allreduce's buffers (allocate_memory_coll): a small message then never shares a cache
// line or page with the heap's other data.
CommBuffer Communicator::allocate(std::size_t bytes) const {
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* p = nullptr;
    if (posix_memalign(&p, page, bytes > 0 ? bytes : 1) != 0) throw std::bad_alloc();
    return CommBuffer(p, CommBufferFree{&std::free});
}

void Communicator::upload(void* buffer, const void* host, std::size_t bytes) const {
    std::memcpy(buffer, host, bytes);
}

void Communicator::download(void* host, const void* buffer, std::size_t bytes) const {
    std::memcpy(host, buffer, bytes);
}

} // namespace scalebench
