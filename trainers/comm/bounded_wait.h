// Waiting for a collective with a deadline: a rank whose peers died must stop with an error naming itself,
// never hang (NCCL has no timeout of its own; PyTorch's ProcessGroupNCCL watchdog aborts after its timeout).
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace scalebench {

enum class WorkState { Pending, Done, Failed };

// Polls `state` until it says Done. When it says Failed, or is still Pending after `timeout`, calls
// `give_up` (e.g. ncclCommAbort, so that the kernels waiting for dead peers end) and throws
// std::runtime_error(`describe(failed, waited_s)`). Yields the processor between polls.
void waitWithin(const std::function<WorkState()>& state, std::chrono::duration<double> timeout,
                const std::function<void()>& give_up,
                const std::function<std::string(bool failed, double waited_s)>& describe);

} // namespace scalebench
