// Fuzz target: squeue's output (parseSqueue), both formats the console asks for; every job's state maps.
#include "fuzz_finding.h"
#include "slurm_output.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace scalebench;
    const std::string output(reinterpret_cast<const char*>(data), size);
    std::vector<SlurmJobInfo> jobs;
    if (!fuzz::parsedOrRefused([&] { jobs = parseSqueue(output); })) return 0;
    for (const SlurmJobInfo& job : jobs) {
        fuzz::require(job.restarts >= 0, "a restart count is never negative");
        fuzz::require(slurmState(job.slurm_state) == job.state, "the state is the Slurm state's");
        isUnsatisfiableReason(job.reason);
    }
    return 0;
}
