// Fuzz target: the metric stream (MetricStreamParser) fed in chunks as a tail reads it; the input's first
// bytes choose where the chunks split. Invariant: chunks give what the whole stream at once gives.
#include "chunked_output.h"
#include "metric_stream_parser.h"

using namespace scalebench;

// Input: one byte N (split count, 0..15), N 16-bit split offsets, then the stream.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::ChunkedInput in = fuzz::chunkedInput(data, size);
    if (!in.usable) return 0;
    fuzz::ReadOutput whole;
    fuzz::ReadOutput chunked;
    const bool tolerant = fuzz::parsedOrRefused([&] {
        MetricStreamParser at_once, in_chunks;
        whole = fuzz::readInChunks(at_once, in.output, {});
        chunked = fuzz::readInChunks(in_chunks, in.output, in.splits);
    });
    fuzz::require(tolerant, "the parser is tolerant: a broken line is counted, never thrown");
    fuzz::requireSameReading(whole, chunked, in.output.size());
    fuzz::require(whole.broken <= whole.lines, "no more broken lines than lines");
    fuzz::require(whole.records.size() + static_cast<std::size_t>(whole.broken) <=
                      static_cast<std::size_t>(whole.lines),
                  "one record or one broken line at most per line");
    return 0;
}
