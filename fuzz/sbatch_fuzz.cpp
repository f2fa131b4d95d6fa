// Fuzz target: sbatch --parsable's output (parseSbatchJobId): a job id, or a refusal naming what was printed.
#include "fuzz_finding.h"
#include "slurm_output.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace scalebench;
    const std::string output(reinterpret_cast<const char*>(data), size);
    std::string id;
    if (!fuzz::parsedOrRefused([&] { id = parseSbatchJobId(output); })) return 0;
    fuzz::require(!id.empty(), "a job id is never empty");
    fuzz::require(id.find_first_not_of("0123456789_") == std::string::npos, "a job id is digits and '_'");
    fuzz::require(output.find(id) != std::string::npos, "the job id is what sbatch printed");
    return 0;
}
