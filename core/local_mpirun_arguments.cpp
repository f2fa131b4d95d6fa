// The mpirun command line of one run on this machine: what LocalScheduler launches, and what the plan builder
// previews.
#include "local_mpirun_arguments.h"

#include "run_plan.h"

#include <stdexcept>

namespace scalebench {

std::vector<std::string> localMpirunArguments(int ranks, const std::vector<std::string>& program,
                                              const std::map<std::string, std::string>& environment) {
    std::vector<std::string> argv = {"mpirun",          "-np",       std::to_string(ranks),
                                     "--oversubscribe", "--bind-to", "none"};
    for (const auto& [name, value] : environment) {
        if (!isEnvironmentVariableName(name))
            throw std::invalid_argument("'" + name + "' is not an environment variable name");
        argv.emplace_back("-x");
        argv.push_back(name + "=" + value);
    }
    argv.insert(argv.end(), program.begin(), program.end());
    return argv;
}

} // namespace scalebench
