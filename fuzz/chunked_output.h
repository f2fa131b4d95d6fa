// What the fuzz targets of output readers share (the metric stream, nccl-tests, OSU): the input's first bytes
// as the offsets where a tail's reads split the output, the output read in those chunks, and the invariants
// every OutputReader keeps: chunks give what the whole output at once gives, and finish consumes every byte.
#pragma once

#include "fuzz_finding.h"
#include "output_reader.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace scalebench::fuzz {

struct ReadOutput {
    std::vector<MetricRecord> records;
    std::int64_t lines = 0;
    std::int64_t broken = 0;
    std::vector<BrokenLine> kept_broken;
    std::int64_t consumed = 0;
};

// An input laid out as N (one byte, 0..15), `head` bytes of the target's own, N 16-bit split offsets, then
// the output; nothing where the input is too short for that.
struct ChunkedInput {
    bool usable = false;
    const std::uint8_t* head = nullptr;
    std::string_view output;
    std::vector<std::size_t> splits; // ascending offsets into output
};

inline ChunkedInput chunkedInput(const std::uint8_t* data, std::size_t size, std::size_t head = 0) {
    ChunkedInput in;
    if (size < 1 + head) return in;
    const std::size_t count = data[0] % 16;
    if (size < 1 + head + 2 * count) return in;
    in.usable = true;
    in.head = data + 1;
    const std::uint8_t* offsets = data + 1 + head;
    in.output =
        std::string_view(reinterpret_cast<const char*>(offsets + 2 * count), size - 1 - head - 2 * count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t offset = offsets[2 * i] | (static_cast<std::size_t>(offsets[2 * i + 1]) << 8);
        in.splits.push_back(in.output.empty() ? 0 : offset % (in.output.size() + 1));
    }
    std::sort(in.splits.begin(), in.splits.end());
    return in;
}

// Feeds the output to `reader` in the chunks that end at `splits`, then finishes it.
inline ReadOutput readInChunks(OutputReader& reader, std::string_view output,
                               const std::vector<std::size_t>& splits) {
    ReadOutput out;
    std::size_t start = 0;
    const auto take = [&](std::vector<MetricRecord> records) {
        out.records.insert(out.records.end(), records.begin(), records.end());
    };
    for (const std::size_t end : splits) {
        take(reader.feed(output.substr(start, end - start)));
        start = end;
    }
    take(reader.feed(output.substr(start)));
    require(reader.consumedBytes() <= static_cast<std::int64_t>(output.size()), "no more consumed than fed");
    take(reader.finish());
    out.lines = reader.linesSeen();
    out.broken = reader.brokenLineCount();
    out.kept_broken = reader.brokenLines();
    out.consumed = reader.consumedBytes();
    return out;
}

inline bool sameBroken(const std::vector<BrokenLine>& a, const std::vector<BrokenLine>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const BrokenLine& x, const BrokenLine& y) {
        return x.line_number == y.line_number && x.reason == y.reason && x.text == y.text;
    });
}

// The whole output and the same in chunks read alike, and finish consumed it all.
inline void requireSameReading(const ReadOutput& whole, const ReadOutput& chunked, std::size_t output_size) {
    require(whole.records == chunked.records, "chunks give the whole output's records");
    require(whole.lines == chunked.lines, "chunks give the whole output's line count");
    require(whole.broken == chunked.broken, "chunks give the whole output's broken lines");
    require(sameBroken(whole.kept_broken, chunked.kept_broken), "chunks give the same broken lines");
    require(whole.consumed == static_cast<std::int64_t>(output_size), "finish consumes everything");
}

} // namespace scalebench::fuzz
