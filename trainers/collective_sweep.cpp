// The all-reduce sweep (MLBench task 0), timed like nccl-tests: per message size, warm-up calls, then timed
// calls; the mean time per call averaged across ranks; every element of the result checked; one record per
// size.
#include "collective_sweep.h"

#include "message_sizes.h"
#include "mpi_check.h"

#include <vector>

namespace scalebench {
namespace {
constexpr int kPattern = 7; // element i of rank r sends (r + 1) * (i % 7 + 1): sums stay exact in fp32
}

bool runAllreduceSweep(const EngineOptions& o, MPI_Comm comm, MetricWriter* writer) {
    int rank = 0, ranks = 1;
    MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MPI_CHECK(MPI_Comm_size(comm, &ranks));
    const double bus_factor = 2.0 * (ranks - 1) / ranks; // all-reduce (nccl-tests)
    const float rank_sum = static_cast<float>(ranks) * (ranks + 1) / 2;
    bool all_correct = true;
    for (const std::int64_t elements : logspaceSizes(o.sweep_max_log10, o.sweep_points)) {
        std::vector<float> send(static_cast<std::size_t>(elements)), receive(send.size());
        for (std::size_t i = 0; i < send.size(); ++i)
            send[i] = static_cast<float>((rank + 1) * (i % kPattern + 1));
        const int count = static_cast<int>(elements);
        for (int i = 0; i < o.warmup_iterations; ++i)
            MPI_CHECK(MPI_Allreduce(send.data(), receive.data(), count, MPI_FLOAT, MPI_SUM, comm));
        MPI_CHECK(MPI_Barrier(comm));
        const double start = MPI_Wtime();
        for (int i = 0; i < o.repetitions; ++i)
            MPI_CHECK(MPI_Allreduce(send.data(), receive.data(), count, MPI_FLOAT, MPI_SUM, comm));
        double seconds = (MPI_Wtime() - start) / o.repetitions; // per call, this rank
        MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_SUM, comm));
        seconds /= ranks; // averaged across ranks, as nccl-tests

        int correct = 1;
        for (std::size_t i = 0; i < receive.size() && correct; ++i)
            correct = receive[i] == rank_sum * static_cast<float>(i % kPattern + 1);
        MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &correct, 1, MPI_INT, MPI_LAND, comm));
        all_correct = all_correct && correct;

        const double bytes = static_cast<double>(elements) * sizeof(float);
        const double algbw = bytes / seconds / 1e9;
        if (writer)
            writer->write({{"type", "collective"},
                           {"collective", "allreduce"},
                           {"dtype", "float32"},
                           {"elements", elements},
                           {"bytes", elements * static_cast<std::int64_t>(sizeof(float))},
                           {"ranks", ranks},
                           {"repetitions", o.repetitions},
                           {"time_s", seconds},
                           {"algbw_gbps", algbw},
                           {"busbw_gbps", algbw * bus_factor},
                           {"correct", correct != 0}});
    }
    return all_correct;
}

} // namespace scalebench
