// Small CIFAR-10 binary files for tests: records of 1 label byte + 3 x 32 x 32 pixel bytes, written the way
// the real data_batch_N.bin and test_batch.bin are.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace scalebench {

// Record i of a file (global index first + i) has label (first + i) % 10, a red plane whose first pixel holds
// the global index (for shard tests, index < 256) and every other pixel 20 x label + noise (a learnable
// signal that survives crops and flips).
inline void writeCifar10File(const std::filesystem::path& path, int first, int records) {
    std::ofstream out(path, std::ios::binary);
    uint32_t noise = 12345;
    for (int i = 0; i < records; ++i) {
        const int index = first + i;
        const auto label = static_cast<uint8_t>(index % 10);
        std::vector<uint8_t> record(1 + 3 * 32 * 32);
        record[0] = label;
        for (std::size_t p = 1; p < record.size(); ++p) {
            noise = noise * 1664525u + 1013904223u;
            record[p] = static_cast<uint8_t>(20 * label + (noise >> 28));
        }
        record[1] = static_cast<uint8_t>(index);
        out.write(reinterpret_cast<const char*>(record.data()), static_cast<std::streamsize>(record.size()));
    }
}

// data_batch_1.bin .. data_batch_5.bin with per_file records each (global indices 0 .. 5 per_file - 1) and
// test_batch.bin with test_records.
inline void writeCifar10Folder(const std::filesystem::path& dir, int per_file, int test_records) {
    for (int f = 0; f < 5; ++f)
        writeCifar10File(dir / ("data_batch_" + std::to_string(f + 1) + ".bin"), f * per_file, per_file);
    writeCifar10File(dir / "test_batch.bin", 0, test_records);
}

} // namespace scalebench
