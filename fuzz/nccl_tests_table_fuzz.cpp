// Fuzz target: nccl-tests' text output (NcclTestsTableReader) fed in chunks as a tail reads it; the input's
// first bytes choose where the chunks split. Invariants: chunks give what the whole output at once gives; the
// reader is tolerant; a line gives records or a broken entry, never both, and at most three records (a run's
// header and a row's two, or the header and a summary).
#include "chunked_output.h"
#include "nccl_tests_table_reader.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

using namespace scalebench;

const OutputContext kContext{2, "all_reduce_perf"};

// Feeds one line at a time: each gives records or one broken entry, never both, and at most three records.
fuzz::ReadOutput readLineByLine(std::string_view output) {
    NcclTestsTableReader reader(kContext);
    fuzz::ReadOutput out;
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

} // namespace

// Input: one byte N (split count, 0..15), N 16-bit split offsets, then the output.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::ChunkedInput in = fuzz::chunkedInput(data, size);
    if (!in.usable) return 0;
    const std::string_view output = in.output;
    fuzz::ReadOutput whole;
    fuzz::ReadOutput chunked;
    fuzz::ReadOutput by_line;
    const bool tolerant = fuzz::parsedOrRefused([&] {
        NcclTestsTableReader at_once(kContext), in_chunks(kContext);
        whole = fuzz::readInChunks(at_once, output, {});
        chunked = fuzz::readInChunks(in_chunks, output, in.splits);
        by_line = readLineByLine(output);
    });
    fuzz::require(tolerant, "the reader is tolerant: a broken line is counted, never thrown");
    fuzz::requireSameReading(whole, chunked, output.size());
    fuzz::require(whole.records == by_line.records, "lines one at a time give the whole output's records");
    fuzz::require(whole.broken == by_line.broken, "lines one at a time give the whole output's broken lines");
    fuzz::require(whole.broken <= whole.lines, "no more broken lines than lines");
    for (const MetricRecord& record : whole.records)
        if (const auto* c = std::get_if<CollectiveRecord>(&record))
            fuzz::require(c->time_s >= 0 && c->algbw_gbps >= 0 && c->busbw_gbps >= 0 && c->bytes >= 0 &&
                              c->elements >= 0 && c->time_s == c->time_s,
                          "a record's figures are finite and not negative");
    return 0;
}
