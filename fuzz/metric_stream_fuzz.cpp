// Fuzz target: the metric stream (MetricStreamParser) fed in chunks as a tail reads it; the input's first
// bytes choose where the chunks split. Invariant: chunks give what the whole stream at once gives.
#include "fuzz_finding.h"
#include "metric_stream_parser.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

using namespace scalebench;

struct ParsedStream {
    std::vector<MetricRecord> records;
    std::int64_t lines = 0;
    std::int64_t broken = 0;
    std::vector<BrokenLine> kept_broken;
    std::int64_t consumed = 0;
};

// Feeds the stream in the chunks that end at `splits` (ascending offsets), then finishes it.
ParsedStream parsed(std::string_view stream, const std::vector<std::size_t>& splits) {
    MetricStreamParser parser;
    ParsedStream out;
    std::size_t start = 0;
    const auto take = [&](std::vector<MetricRecord> records) {
        out.records.insert(out.records.end(), records.begin(), records.end());
    };
    for (const std::size_t end : splits) {
        take(parser.feed(stream.substr(start, end - start)));
        start = end;
    }
    take(parser.feed(stream.substr(start)));
    const std::int64_t before_finish = parser.consumedBytes();
    fuzz::require(before_finish <= static_cast<std::int64_t>(stream.size()), "no more consumed than fed");
    take(parser.finish());
    out.lines = parser.linesSeen();
    out.broken = parser.brokenLineCount();
    out.kept_broken = parser.brokenLines();
    out.consumed = parser.consumedBytes();
    return out;
}

bool sameBroken(const std::vector<BrokenLine>& a, const std::vector<BrokenLine>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const BrokenLine& x, const BrokenLine& y) {
        return x.line_number == y.line_number && x.reason == y.reason && x.text == y.text;
    });
}

} // namespace

// Input: one byte N (split count, 0..15), N 16-bit split offsets, then the stream.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::size_t count = data[0] % 16;
    if (size < 1 + 2 * count) return 0;
    const std::string_view stream(reinterpret_cast<const char*>(data) + 1 + 2 * count, size - 1 - 2 * count);
    std::vector<std::size_t> splits;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t offset = data[1 + 2 * i] | (static_cast<std::size_t>(data[2 + 2 * i]) << 8);
        splits.push_back(stream.empty() ? 0 : offset % (stream.size() + 1));
    }
    std::sort(splits.begin(), splits.end());

    ParsedStream whole;
    ParsedStream chunked;
    const bool tolerant = fuzz::parsedOrRefused([&] {
        whole = parsed(stream, {});
        chunked = parsed(stream, splits);
    });
    fuzz::require(tolerant, "the parser is tolerant: a broken line is counted, never thrown");

    fuzz::require(whole.records == chunked.records, "chunks give the whole stream's records");
    fuzz::require(whole.lines == chunked.lines, "chunks give the whole stream's line count");
    fuzz::require(whole.broken == chunked.broken, "chunks give the whole stream's broken lines");
    fuzz::require(sameBroken(whole.kept_broken, chunked.kept_broken), "chunks give the same broken lines");
    fuzz::require(whole.consumed == static_cast<std::int64_t>(stream.size()), "finish consumes everything");
    fuzz::require(whole.broken <= whole.lines, "no more broken lines than lines");
    fuzz::require(whole.records.size() + static_cast<std::size_t>(whole.broken) <=
                      static_cast<std::size_t>(whole.lines),
                  "one record or one broken line at most per line");
    return 0;
}
