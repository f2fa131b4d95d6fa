// Follows a run's growing output (its metric file, or a command's output) through a Transport, from the byte
// offset where the last read stopped, read by the reader of its format.
#pragma once

#include "metric_stream_parser.h"
#include "transport.h"

#include <memory>

namespace scalebench {

class MetricFileTail {
  public:
    static constexpr std::size_t kChunkBytes = 1 << 20;

    MetricFileTail(Transport& transport, std::string path,
                   std::unique_ptr<OutputReader> reader = std::make_unique<MetricStreamParser>())
        : transport_(transport), path_(std::move(path)), parser_(std::move(reader)) {}

    // The records completed since the last call (reads until the file has nothing new).
    std::vector<MetricRecord> poll();
    // poll(), then the last line even without its newline: call once the writer has ended.
    std::vector<MetricRecord> finish();

    std::int64_t offset() const { return offset_; }
    const OutputReader& parser() const { return *parser_; }

  private:
    Transport& transport_;
    std::string path_;
    std::int64_t offset_ = 0; // bytes read so far
    std::unique_ptr<OutputReader> parser_;
};

} // namespace scalebench
