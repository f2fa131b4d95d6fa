// What the output readers' tests share: a tool's text fed to its reader in chunks of a given size (as a tail
// reads a growing file), then finished; the records and broken lines it gave.
#pragma once

#include "output_reader.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace scalebench {

struct ReadText {
    std::vector<MetricRecord> records;
    std::vector<BrokenLine> broken; // the kept ones
    std::int64_t broken_count = 0;

    // The records of one type, in order.
    template <typename Record> std::vector<Record> all() const {
        std::vector<Record> out;
        for (const auto& r : records)
            if (const auto* x = std::get_if<Record>(&r)) out.push_back(*x);
        return out;
    }
    // The first summary's and header's JSON (throws where there is none).
    nlohmann::json summaryJson() const { return nlohmann::json::parse(all<SummaryRecord>().at(0).json); }
    nlohmann::json headerJson() const { return nlohmann::json::parse(all<HeaderRecord>().at(0).json); }
};

// Feeds `text` in chunks of `chunk` bytes (0: all at once), then finishes.
inline ReadText readInChunks(OutputReader& reader, const std::string& text, std::size_t chunk = 0) {
    ReadText read;
    const auto take = [&](std::vector<MetricRecord> records) {
        read.records.insert(read.records.end(), records.begin(), records.end());
    };
    const std::size_t step = chunk == 0 ? text.size() + 1 : chunk;
    for (std::size_t at = 0; at < text.size(); at += step)
        take(reader.feed(std::string_view(text).substr(at, step)));
    take(reader.finish());
    read.broken = reader.brokenLines();
    read.broken_count = reader.brokenLineCount();
    return read;
}

} // namespace scalebench
