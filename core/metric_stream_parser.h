// Incremental, tolerant parser of the JSON-lines metric stream: complete lines in, records out, broken lines
// counted.
#pragma once

#include "metric_record.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace scalebench {

struct BrokenLine {
    std::int64_t line_number = 0; // 1-based line in the stream
    std::string reason;
    std::string text; // first 120 bytes of the line
};

class MetricStreamParser {
  public:
    // Feeds the next bytes of the stream (any split); returns the records whose lines became complete.
    std::vector<MetricRecord> feed(std::string_view bytes);
    // Parses what is left after the stream ended (a last line without a newline).
    std::vector<MetricRecord> finish();

    // Bytes consumed as complete lines: where a resumed read of the same file must start.
    std::int64_t consumedBytes() const { return consumed_; }
    std::int64_t linesSeen() const { return lines_; }
    const std::vector<BrokenLine>& brokenLines() const { return broken_; }
    std::int64_t brokenLineCount() const { return broken_count_; }

  private:
    void parseLine(std::string_view line, std::vector<MetricRecord>& out);

    std::string pending_;
    std::int64_t consumed_ = 0;
    std::int64_t lines_ = 0;
    std::int64_t broken_count_ = 0;
    std::vector<BrokenLine> broken_; // the first kMaxKeptBroken, so memory stays bounded
};

} // namespace scalebench
