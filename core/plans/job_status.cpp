// Names of job states, for messages and the store.
#include "job_status.h"

namespace scalebench {

const char* toString(JobState state) {
    switch (state) {
    case JobState::Pending:
        return "pending";
    case JobState::Running:
        return "running";
    case JobState::Completed:
        return "completed";
    case JobState::Failed:
        return "failed";
    case JobState::Cancelled:
        return "cancelled";
    case JobState::Requeued:
        return "requeued";
    case JobState::Timeout:
        return "timeout";
    case JobState::NodeFail:
        return "node failure";
    case JobState::OutOfMemory:
        return "out of memory";
    case JobState::Preempted:
        return "preempted";
    }
    return "unknown";
}

} // namespace scalebench
