// Reader of the IDX format of (Fashion-)MNIST, plain or gzip-compressed: dimensions and unsigned bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace scalebench {

struct IdxArray {
    std::vector<std::int64_t> dims; // e.g. {60000, 28, 28} for images, {60000} for labels
    std::vector<std::uint8_t> data; // row-major
};

// Throws std::runtime_error naming the file and what is wrong (missing, truncated, not IDX, not unsigned
// bytes).
IdxArray readIdxFile(const std::filesystem::path& path);

} // namespace scalebench
