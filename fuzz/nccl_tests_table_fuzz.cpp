// Fuzz target: nccl-tests' text output (NcclTestsTableReader) fed in chunks as a tail reads it; the input's
// first bytes choose where the chunks split. Invariants: chunks give what the whole output at once gives; the
// reader is tolerant; a line gives records or a broken entry, never both, and at most three records (a run's
// header and a row's two, or the header and a summary).
#include "fuzz_finding.h"
#include "nccl_tests_table_reader.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

using namespace scalebench;

const OutputContext kContext{2, "all_reduce_perf"};

struct ReadOutput {
    std::vector<MetricRecord> records;
    std::int64_t lines = 0;
    std::int64_t broken = 0;
    std::vector<BrokenLine> kept_broken;
    std::int64_t consumed = 0;
};

// Feeds the output in the chunks that end at `splits` (ascending offsets), then finishes it.
ReadOutput read(std::string_view output, const std::vector<std::size_t>& splits) {
    NcclTestsTableReader reader(kContext);
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
    fuzz::require(reader.consumedBytes() <= static_cast<std::int64_t>(output.size()),
                  "no more consumed than fed");
    take(reader.finish());
    out.lines = reader.linesSeen();
    out.broken = reader.brokenLineCount();
    out.kept_broken = reader.brokenLines();
    out.consumed = reader.consumedBytes();
    return out;
}

// Feeds one line at a time: each gives records or one broken entry, never both, and at most three records.
ReadOutput readLineByLine(std::string_view output) {
    NcclTestsTableReader reader(kContext);
    ReadOutput out;
    const auto check = [&](std::vector<MetricRecord> records, std::int64_t broken_before) {
        const std::int64_t broken = reader.brokenLineCount() - broken_before;
        fuzz::require(broken <= 1, "one broken entry at most per line");
        fuzz::require(records.empty() || broken == 0, "a line gives records or a broken entry, not both");
        fuzz::require(records.size() <= 3, "three records at most per line");
        out.records.insert(out.records.end(), records.begin(), records.end());
    };
    std::size_t start = 0;
    for (std::size_t nl; (nl = output.find('\n', start)) != std::string_view::npos; start = nl + 1) {
        const std::int64_t before = reader.brokenLineCount();
        check(reader.feed(output.substr(start, nl + 1 - start)), before);
    }
    const std::int64_t before = reader.brokenLineCount();
    check(reader.feed(output.substr(start)), before);
    check(reader.finish(), before);
    out.lines = reader.linesSeen();
    out.broken = reader.brokenLineCount();
    return out;
}

bool sameBroken(const std::vector<BrokenLine>& a, const std::vector<BrokenLine>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const BrokenLine& x, const BrokenLine& y) {
        return x.line_number == y.line_number && x.reason == y.reason && x.text == y.text;
    });
}

} // namespace

// Input: one byte N (split count, 0..15), N 16-bit split offsets, then the output.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::size_t count = data[0] % 16;
    if (size < 1 + 2 * count) return 0;
    const std::string_view output(reinterpret_cast<const char*>(data) + 1 + 2 * count, size - 1 - 2 * count);
    std::vector<std::size_t> splits;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t offset = data[1 + 2 * i] | (static_cast<std::size_t>(data[2 + 2 * i]) << 8);
        splits.push_back(output.empty() ? 0 : offset % (output.size() + 1));
    }
    std::sort(splits.begin(), splits.end());

    ReadOutput whole;
    ReadOutput chunked;
    ReadOutput by_line;
    const bool tolerant = fuzz::parsedOrRefused([&] {
        whole = read(output, {});
        chunked = read(output, splits);
        by_line = readLineByLine(output);
    });
    fuzz::require(tolerant, "the reader is tolerant: a broken line is counted, never thrown");

    fuzz::require(whole.records == chunked.records, "chunks give the whole output's records");
    fuzz::require(whole.lines == chunked.lines, "chunks give the whole output's line count");
    fuzz::require(whole.broken == chunked.broken, "chunks give the whole output's broken lines");
    fuzz::require(sameBroken(whole.kept_broken, chunked.kept_broken), "chunks give the same broken lines");
    fuzz::require(whole.records == by_line.records, "lines one at a time give the whole output's records");
    fuzz::require(whole.broken == by_line.broken, "lines one at a time give the whole output's broken lines");
    fuzz::require(whole.consumed == static_cast<std::int64_t>(output.size()), "finish consumes everything");
    fuzz::require(whole.broken <= whole.lines, "no more broken lines than lines");
    for (const MetricRecord& record : whole.records)
        if (const auto* c = std::get_if<CollectiveRecord>(&record))
            fuzz::require(c->time_s >= 0 && c->algbw_gbps >= 0 && c->busbw_gbps >= 0 && c->bytes >= 0 &&
                              c->elements >= 0 && c->time_s == c->time_s,
                          "a record's figures are finite and not negative");
    return 0;
}
