// Renders a job as the mpirun command line of one run on this machine.
#include "local_mpirun_arguments.h"

#include "run_plan.h"

#include <algorithm>
#include <sched.h>
#include <stdexcept>

namespace scalebench {

int usableCpus() {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) return 1;
    return std::max(1, CPU_COUNT(&mask));
}

std::vector<std::string> localMpirunArguments(const JobRequest& job, int cpus) {
    const int ranks = job.ranks;
    const int threads_per_rank = job.threads_per_rank;
    const int threads = threads_per_rank > 0 ? threads_per_rank : std::max(1, cpus / std::max(1, ranks));
    std::vector<std::string> argv = {"mpirun", "-np", std::to_string(ranks)};
    if (static_cast<long>(ranks) * threads <= cpus)
        argv.insert(argv.end(), {"--use-hwthread-cpus", "--map-by", "slot:PE=" + std::to_string(threads),
                                 "--bind-to", "hwthread"});
    else
        argv.insert(argv.end(), {"--oversubscribe", "--bind-to", "none"});
    for (const auto& [name, value] : job.environment) {
        if (!isEnvironmentVariableName(name))
            throw std::invalid_argument("'" + name + "' is not an environment variable name");
        argv.emplace_back("-x");
        argv.push_back(name + "=" + value);
    }
    argv.insert(argv.end(), job.program.begin(), job.program.end());
    return argv;
}

} // namespace scalebench
