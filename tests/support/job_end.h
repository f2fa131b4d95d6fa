// Waits for a job that a test submitted to end: polls its scheduler until the job's state is final.
#pragma once

#include "scheduler.h"

#include <chrono>
#include <string>
#include <thread>

namespace scalebench {

// The job's status once its state is final, or its last status after a minute (the test then fails on it).
// poll_every: the pause between polls.
inline JobStatus waitForEnd(Scheduler& scheduler, const std::string& job_id,
                            std::chrono::milliseconds poll_every = std::chrono::milliseconds(50)) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
        JobStatus s = scheduler.poll({job_id}).at(job_id);
        if (isFinal(s.state) || std::chrono::steady_clock::now() > deadline) return s;
        std::this_thread::sleep_for(poll_every);
    }
}

} // namespace scalebench
