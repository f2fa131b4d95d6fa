// A command run of a real program printing a benchmark's real output: `sh -c` with printf, rank 0 only, of a
// recorded OSU run (tests/data/osu/), for the session tests of command runs on this machine and on the test
// cluster, where OSU itself is not built. Every line travels as one argument, so no file needs to be readable
// where the job runs.
#pragma once

#include "file_text.h"
#include "plan_writer.h"

#include <sstream>
#include <string>
#include <vector>

namespace scalebench {

// The fixture's lines.
inline std::vector<std::string> recordedLines(const std::string& fixture) {
    std::vector<std::string> lines;
    std::istringstream text(fileText(SCALEBENCH_SOURCE_DIR "/tests/data/osu/" + fixture));
    for (std::string line; std::getline(text, line);)
        lines.push_back(line);
    return lines;
}

// The fixture's table rows (lines that are neither blank nor OSU's '#' comments): one record each.
inline std::size_t recordedRows(const std::string& fixture) {
    std::size_t rows = 0;
    for (const auto& line : recordedLines(fixture))
        rows += !line.empty() && line[0] != '#';
    return rows;
}

// A plan of one command group at `ranks` whose rank 0 prints `fixture` (ranks > 0 print nothing, as OSU's).
inline std::string recordedOsuPlan(const std::string& fixture, const std::string& ranks) {
    // Rank 0 by the launcher's variable: srun's SLURM_PROCID, mpirun's OMPI_COMM_WORLD_RANK.
    std::string command = "[\"sh\", \"-c\", " +
                          tomlString("[ \"${SLURM_PROCID:-${OMPI_COMM_WORLD_RANK:-0}}\" = 0 ] || exit 0; "
                                     "printf '%s\\n' \"$@\"") +
                          ", \"osu_allreduce\"";
    for (const auto& line : recordedLines(fixture))
        command += ", " + tomlString(line);
    return "name = \"recorded osu\"\n[[run]]\ncommand = " + command +
           "]\nformat = \"osu\"\nranks = " + ranks + "\nthreads_per_rank = 1\n";
}

} // namespace scalebench
