// LIBSVM text data ("label index:value index:value ...", 1-based ascending indices), the format of the
// epsilon data set of MLBench task 2: one rank's disjoint shard as dense features and 0/1 labels.
#pragma once

#include <cstdint>
#include <filesystem>
#include <torch/types.h>

namespace scalebench {

struct LibsvmShard {
    torch::Tensor features;    // (N, F) float32; indices absent from a line are 0
    torch::Tensor labels;      // (N) float32, 1 for the positive class (+1 or 1), 0 for the other (-1 or 0)
    int64_t feature_count = 0; // F
    int64_t size() const { return labels.size(0); }
};

// Lines rank, rank + ranks, rank + 2 ranks, ... (empty lines and '#' comments skipped, not counted) of path.
// feature_count > 0: the stated width, and an index beyond it is an error; 0: the largest index in the file
// (every rank reads every line's last index, so every rank finds the same width). Throws std::runtime_error
// naming the file and the line for a missing file, a malformed line, a label other than +1, -1, 1, 0, or
// an index out of range or not ascending.
LibsvmShard readLibsvmShard(const std::filesystem::path& path, int rank, int ranks,
                            int64_t feature_count = 0);

} // namespace scalebench
