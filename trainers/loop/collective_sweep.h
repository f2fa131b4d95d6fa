// The collective sweep (MLBench task 0, extended to every collective), timed like nccl-tests: per message
// size, warm-up calls, then timed calls; the mean time per call averaged across ranks; one more call whose
// every element is checked; one record per size.
#pragma once

#include "communicator.h"
#include "engine_options.h"
#include "metric_writer.h"

#include <mpi.h>
#include <nlohmann/json.hpp>

namespace scalebench {

// The sweep's combinations of collective, dtype, reduction and placement, in the order they run. Throws
// std::invalid_argument with the backend's reason for a combination asked for explicitly that it lacks;
// with placement "both", in-place variants the backend lacks are left out and named in `skipped`.
struct SweepCase {
    Collective collective = Collective::AllReduce;
    DType dtype = DType::Float32;
    ReduceOp op = ReduceOp::Sum;
    bool in_place = false;
};
std::vector<SweepCase> sweepCases(const EngineOptions& options, const Communicator& comm,
                                  std::vector<std::string>& skipped);

// comm runs the collectives; mpi averages the times and agrees on correctness. writer: rank 0's metric
// stream, nullptr on the other ranks. Returns false if any result was wrong.
bool runCollectiveSweep(const EngineOptions& options, const std::vector<SweepCase>& cases, Communicator& comm,
                        MPI_Comm mpi, MetricWriter* writer);

} // namespace scalebench
