// A global batch split over ranks and gradient accumulation (MLPerf's per-GPU batch x accumulation, seed
// 000's config_1cc_1x8x48x1): the console checks a plan with it, the engine trains with it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace scalebench::engine_cli {

struct BatchSplit {
    int batch_per_rank = 1; // samples of one micro-batch on one rank
    int accumulation = 1;   // micro-batches whose gradients add up to one step
};

// global_batch samples a step over `ranks` ranks, no micro-batch above most_per_rank: the accumulation A is
// the least for which global_batch / (ranks x A) <= most_per_rank, and ranks x A must divide global_batch.
// Throws std::invalid_argument naming the numbers where it does not, or where the batch is smaller than the
// ranks.
inline BatchSplit splitGlobalBatch(std::int64_t global_batch, int ranks, int most_per_rank) {
    const auto numbers = [&] {
        return "global_batch " + std::to_string(global_batch) + " over " + std::to_string(ranks) +
               (ranks == 1 ? " rank" : " ranks") + " with batch_per_rank at most " +
               std::to_string(most_per_rank);
    };
    if (global_batch < ranks)
        throw std::invalid_argument(numbers() + ": fewer samples than ranks, each rank needs one");
    const std::int64_t per_rank_step = static_cast<std::int64_t>(ranks) * most_per_rank;
    const std::int64_t accumulation = (global_batch + per_rank_step - 1) / per_rank_step; // ceil
    const std::int64_t micro_batches = accumulation * ranks;
    if (global_batch % micro_batches != 0)
        throw std::invalid_argument(numbers() + ": needs gradient accumulation " +
                                    std::to_string(accumulation) + ", and " + std::to_string(global_batch) +
                                    " does not divide into " + std::to_string(micro_batches) +
                                    " equal micro-batches (ranks x " + std::to_string(accumulation) + ")");
    return {static_cast<int>(global_batch / micro_batches), static_cast<int>(accumulation)};
}

} // namespace scalebench::engine_cli
