// Synchronous data-parallel training of any workload: the timed phases of a step (data, forward, backward,
// exposed all-reduce, optimizer), gradients averaged in buckets while backward runs, evaluation on a
// schedule, the stop at a target, and the metric stream (rank 0).
#pragma once

#include "engine_options.h"
#include "workload.h"
#include "world.h"

namespace scalebench {

// Trains options.workload for options.steps steps or until options.target is reached. Throws on a
// non-finite loss and on any failure of the workload, the data or the communicator.
void trainWorkload(const EngineOptions& options, const World& world);

// Every parameter group of the optimizer at learning rate lr (the workload's schedule, step by step).
void setLearningRate(torch::optim::Optimizer& optimizer, double lr);

// The header fields every engine run writes (workload, dataset, ranks, hosts, versions, time).
nlohmann::json headerRecord(const EngineOptions& options, const World& world, const nlohmann::json& hosts);

} // namespace scalebench
