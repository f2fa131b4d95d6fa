// Follows a run's growing output through a Transport, from the byte offset where the last read stopped.
#include "metric_file_tail.h"

namespace scalebench {

std::vector<MetricRecord> MetricFileTail::poll() {
    std::vector<MetricRecord> records;
    for (;;) {
        std::optional<std::string> bytes;
        try {
            bytes = transport_.readFrom(path_, offset_, kChunkBytes);
        } catch (const TransportError&) {
            if (records.empty()) throw;
            break; // hand over what was read: the offset has moved past it; the next poll meets the error
                   // again
        }
        if (!bytes || bytes->empty()) break;
        offset_ += static_cast<std::int64_t>(bytes->size());
        auto parsed = parser_->feed(*bytes);
        records.insert(records.end(), std::make_move_iterator(parsed.begin()),
                       std::make_move_iterator(parsed.end()));
        if (bytes->size() < kChunkBytes) break;
    }
    return records;
}

std::vector<MetricRecord> MetricFileTail::finish() {
    std::vector<MetricRecord> records = poll();
    auto last = parser_->finish();
    records.insert(records.end(), last.begin(), last.end());
    return records;
}

} // namespace scalebench
