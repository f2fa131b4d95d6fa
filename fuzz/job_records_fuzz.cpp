// Fuzz target: scontrol --oneliner show job and the jobcomp/filetxt log (parseJobRecords), key=value lines.
#include "fuzz_finding.h"
#include "slurm_output.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace scalebench;
    const std::string output(reinterpret_cast<const char*>(data), size);
    std::vector<SlurmJobInfo> jobs;
    if (!fuzz::parsedOrRefused([&] { jobs = parseJobRecords(output); })) return 0;
    for (const SlurmJobInfo& job : jobs) {
        fuzz::require(job.exit_status >= 0, "an exit status is never negative");
        fuzz::require(slurmState(job.slurm_state) == job.state, "the state is the Slurm state's");
    }
    return 0;
}
