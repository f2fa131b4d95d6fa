// The all-reduce sweep (MLBench task 0), timed like nccl-tests: per message size, warm-up calls, then timed
// calls; the mean time per call averaged across ranks; every element of the result checked; one record per
// size.
#pragma once

#include "engine_options.h"
#include "metric_writer.h"

#include <mpi.h>

namespace scalebench {

// writer: rank 0's metric stream, nullptr on the other ranks. Returns false if any result was wrong.
bool runAllreduceSweep(const EngineOptions& options, MPI_Comm comm, MetricWriter* writer);

} // namespace scalebench
