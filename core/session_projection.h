// What the performance model needs, read from a stored session: each training series' measured rank counts,
// the session's all-reduce sweep over that series' backend, its gradient buckets, batch, sequence length and
// where its nodes' boundaries lie.
#pragma once

#include "performance_model.h"
#include "session_store.h"

#include <string>
#include <vector>

namespace scalebench {

struct SeriesModelInputs {
    std::string label;   // seriesLabels' ("resnet20 fashion-mnist")
    std::string backend; // the gradients' backend (mpi, gloo, nccl): the sweep's
    ModelInputs inputs;
};

// One entry per training series with successful runs. Compute per step = step time - exposed communication,
// over the steady-state steps, mean and two sigma over repeats; the sweep: float32 all-reduce of the series'
// backend from every sweep run of the session (mean over repeats per rank count and size); buckets:
// header `bucket_elements` x 4 bytes (fp32 gradients); ranks per node: the cluster's tasks_per_node (on this
// machine: one node, every rank on it); CPUs per node (CPU training): the most CPUs a run's ranks
// were bound to on one host.
std::vector<SeriesModelInputs> sessionModelInputs(const SessionStore& store, const SessionRow& session);

// The number of CPUs in a Linux CPU list ("0-3,8" is 5); 0 for text that is not one.
int cpuListSize(const std::string& list);

} // namespace scalebench
