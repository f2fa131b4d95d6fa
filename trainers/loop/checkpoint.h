// Checkpoints of a data-parallel training run, for --checkpoint-dir, --checkpoint-every and --resume.
//
// DIR/checkpoint-STEP.pt (rank 0): the step, the ranks, the precision, the parameters (the same on every
// rank), the optimizer's state and the loss scaler's. DIR/checkpoint-STEP.rankR.pt (every rank R): what
// differs by rank: the module's buffers (e.g. batch-norm running statistics, which are not averaged), the
// workload's state (its data position) and the LibTorch random generator. Each file is written to a ".tmp"
// name and renamed; rank 0 writes its file only after every rank's file is in place, so a checkpoint-STEP.pt
// that exists is complete.
#pragma once

#include "loss_scaler.h"
#include "workload.h"
#include "world.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace scalebench {

// What a checkpoint saves and restores.
struct TrainingState {
    torch::nn::Module& model;
    torch::optim::Optimizer& optimizer;
    Workload& workload;
    LossScaler* scaler; // fp16 only, else nullptr
    std::string precision;
};

// DIR/checkpoint-STEP.pt and DIR/checkpoint-STEP.rankR.pt.
std::filesystem::path checkpointPath(const std::string& dir, std::int64_t step);
std::filesystem::path rankCheckpointPath(const std::string& dir, std::int64_t step, int rank);

// Collective: writes the checkpoint of step (see above) and returns the path of its rank-0 file. Creates dir.
std::filesystem::path saveCheckpoint(const std::string& dir, std::int64_t step, const TrainingState& state,
                                     const World& world);

// Collective: loads the newest checkpoint in dir (rank 0 chooses it) and returns its step. Throws
// std::runtime_error when dir holds none, and naming the file when a file is missing, corrupt or from a run
// with another number of ranks or another model.
std::int64_t loadNewestCheckpoint(const std::string& dir, const TrainingState& state, const World& world);

} // namespace scalebench
