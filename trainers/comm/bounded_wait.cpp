// Polling a collective's completion against a deadline.
#include "bounded_wait.h"

#include <stdexcept>
#include <thread>

namespace scalebench {

void waitWithin(const std::function<WorkState()>& state, std::chrono::duration<double> timeout,
                const std::function<void()>& give_up,
                const std::function<std::string(bool failed, double waited_s)>& describe) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(timeout);
    for (unsigned polls = 0;; ++polls) {
        const WorkState now = state();
        if (now == WorkState::Done) return;
        const bool failed = now == WorkState::Failed;
        if (failed || Clock::now() >= deadline) {
            const double waited_s = std::chrono::duration<double>(Clock::now() - start).count();
            give_up();
            throw std::runtime_error(describe(failed, waited_s));
        }
        // Spin briefly (a collective usually ends within microseconds of the first poll), then sleep a
        // little.
        if (polls < 1000)
            std::this_thread::yield();
        else
            std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

} // namespace scalebench
