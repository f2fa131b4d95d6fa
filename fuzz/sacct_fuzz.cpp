// Fuzz target: sacct --parsable2's output (parseSacct): job lines kept, step lines (17.batch) skipped.
#include "fuzz_finding.h"
#include "slurm_output.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace scalebench;
    const std::string output(reinterpret_cast<const char*>(data), size);
    std::vector<SlurmJobInfo> jobs;
    if (!fuzz::parsedOrRefused([&] { jobs = parseSacct(output); })) return 0;
    for (const SlurmJobInfo& job : jobs) {
        fuzz::require(job.id.find('.') == std::string::npos, "a job step is not a job");
        fuzz::require(job.exit_status >= 0, "an exit status is never negative");
        fuzz::require(slurmState(job.slurm_state) == job.state, "the state is the Slurm state's");
    }
    return 0;
}
