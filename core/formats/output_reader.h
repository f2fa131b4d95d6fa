// What reads a run's output as it grows: bytes in (any split), complete lines to the format's parser (or the
// bytes themselves, for a format not made of lines), metric records out; what the format cannot read is
// counted and named, never fatal. The engine's metric stream and every outside tool's output (nccl-tests,
// OSU, ...) are read through it.
#pragma once

#include "metric_record.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace scalebench {

// What a reader of an outside tool's output knows besides the text: the tool prints neither the launcher's
// rank count (OSU) nor always which collective it ran (nccl-tests' tables name none).
struct OutputContext {
    int ranks = 1;       // processes the launcher started; 0 where nobody said (an import without --ranks)
    std::string program; // the command's program without its folder: "all_reduce_perf", "osu_allreduce"
    // Dense peak TFLOP/s of one device at the run's precision (the plan's or import's peak_tflops), for the
    // MFU of a trainer that prints its model TFLOP/s but no peak (MaxText); 0: unknown, no MFU.
    double peak_tflops = 0;
};

struct BrokenLine {
    std::int64_t line_number = 0; // 1-based line in the output
    std::string reason;
    std::string text; // first 120 bytes of the line
};

class OutputReader {
  public:
    virtual ~OutputReader() = default;

    // Feeds the next bytes of the output (any split); returns the records whose lines became complete.
    std::vector<MetricRecord> feed(std::string_view bytes);
    // Reads what is left after the output ended (a last line without a newline), and whatever the format
    // gives only at its end.
    std::vector<MetricRecord> finish();

    // Bytes consumed as complete lines: where a resumed read of the same file must start.
    std::int64_t consumedBytes() const { return consumed_; }
    std::int64_t linesSeen() const { return lines_; }
    const std::vector<BrokenLine>& brokenLines() const { return broken_; }
    std::int64_t brokenLineCount() const { return broken_count_; }

  protected:
    // The bytes of each feed() as they arrive, before readLine sees the lines they complete: for a format
    // that is not made of lines (nccl-tests' JSON is one line that grows while the test runs).
    virtual void readBytes(std::string_view /*bytes*/, std::vector<MetricRecord>& /*out*/) {}
    // One complete line, without its '\n' and a '\r' before it.
    virtual void readLine(std::string_view line, std::vector<MetricRecord>& out) = 0;
    // After the last line: a format that knows more only at its end says it here.
    virtual void readEnd(std::vector<MetricRecord>& /*out*/) {}
    // The line being read (readLine's) could not be read, for `reason`.
    void countBroken(std::string_view line, std::string reason);
    // Something that is not the line being read (a JSON value readBytes met) could not be read: `text`
    // begins on line `line_number` (1-based).
    void countBroken(std::int64_t line_number, std::string_view text, std::string reason);
    // The 1-based number of the line being read.
    std::int64_t lineNumber() const { return lines_; }
    // The line being read is the output's last and has no newline: the only line that can have been cut
    // short (a run killed while writing it). Readers read any other line's figures as they stand (any
    // decimals), and call only this one cut.
    bool lineIsUnterminated() const { return unterminated_; }

  private:
    void takeLine(std::string_view line, std::vector<MetricRecord>& out);

    std::string pending_;
    std::int64_t consumed_ = 0;
    std::int64_t lines_ = 0;
    std::int64_t broken_count_ = 0;
    bool unterminated_ = false;
    std::vector<BrokenLine> broken_; // the first kMaxKeptBroken, so memory stays bounded
};

} // namespace scalebench
