// The ranks of a run as the engine sees them, over MPI_COMM_WORLD.
#include "world.h"

#include "mpi_check.h"

#include <cstdio>
#include <sched.h>
#include <unistd.h>
#include <vector>

namespace scalebench {

World joinWorld() {
    World w;
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &w.rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &w.ranks));
    MPI_Comm node;
    MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank, MPI_INFO_NULL, &node));
    MPI_CHECK(MPI_Comm_size(node, &w.local_ranks));
    MPI_CHECK(MPI_Comm_rank(node, &w.local_rank));
    MPI_CHECK(MPI_Comm_free(&node));
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    w.host = host;
    return w;
}

std::string cpuAffinityList() {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) return "";
    std::string list;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (!CPU_ISSET(cpu, &mask)) continue;
        int last = cpu;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &mask))
            ++last;
        if (!list.empty()) list += ',';
        list += std::to_string(cpu);
        if (last > cpu) list += '-' + std::to_string(last);
        cpu = last;
    }
    return list;
}

nlohmann::json gatherRanks(const World& w) {
    constexpr int kHostBytes = 64, kCpusBytes = 64;
    struct Entry {
        char host[kHostBytes];
        char cpus[kCpusBytes];
        long pid;
    } mine{}, none{};
    std::snprintf(mine.host, kHostBytes, "%s", w.host.c_str());
    std::snprintf(mine.cpus, kCpusBytes, "%s", cpuAffinityList().c_str());
    mine.pid = static_cast<long>(getpid());
    std::vector<Entry> all(static_cast<std::size_t>(w.ranks), none);
    MPI_CHECK(
        MPI_Gather(&mine, sizeof(Entry), MPI_BYTE, all.data(), sizeof(Entry), MPI_BYTE, 0, MPI_COMM_WORLD));
    nlohmann::json out = nlohmann::json::array();
    for (int r = 0; r < w.ranks; ++r)
        out.push_back({{"rank", r}, {"host", all[r].host}, {"pid", all[r].pid}, {"cpus", all[r].cpus}});
    return out;
}

void sumAcrossRanks(std::span<double> values) {
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM,
                            MPI_COMM_WORLD));
}

} // namespace scalebench
