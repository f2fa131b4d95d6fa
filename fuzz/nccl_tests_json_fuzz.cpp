// Fuzz target: nccl-tests' JSON file (NcclTestsJsonReader) fed in chunks as a tail reads it while the test
// writes it; the input's first bytes choose where the chunks split. Invariants: chunks give what the whole
// file at once gives; the reader is tolerant; every record comes from an object ('{': a result gives three
// records at most, the header with its two); a broken entry begins at a byte that is not white space, or is
// the one that says the document was left unfinished.
#include "fuzz_finding.h"
#include "nccl_tests_json_reader.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

using namespace scalebench;

struct ReadFile {
    std::vector<MetricRecord> records;
    std::int64_t broken = 0;
    std::vector<BrokenLine> kept_broken;
    std::int64_t lines = 0;
    std::int64_t consumed = 0;
};

// Feeds the file in the chunks that end at `splits` (ascending offsets), then finishes it.
ReadFile read(std::string_view file, const std::vector<std::size_t>& splits) {
    NcclTestsJsonReader reader({2, "all_reduce_perf"});
    ReadFile out;
    std::size_t start = 0;
    const auto take = [&](std::vector<MetricRecord> records) {
        out.records.insert(out.records.end(), records.begin(), records.end());
    };
    for (const std::size_t end : splits) {
        take(reader.feed(file.substr(start, end - start)));
        start = end;
    }
    take(reader.feed(file.substr(start)));
    take(reader.finish());
    out.broken = reader.brokenLineCount();
    out.kept_broken = reader.brokenLines();
    out.lines = reader.linesSeen();
    out.consumed = reader.consumedBytes();
    return out;
}

bool sameBroken(const std::vector<BrokenLine>& a, const std::vector<BrokenLine>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const BrokenLine& x, const BrokenLine& y) {
        return x.line_number == y.line_number && x.reason == y.reason && x.text == y.text;
    });
}

} // namespace

// Input: one byte N (split count, 0..15), N 16-bit split offsets, then the file.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::size_t count = data[0] % 16;
    if (size < 1 + 2 * count) return 0;
    const std::string_view file(reinterpret_cast<const char*>(data) + 1 + 2 * count, size - 1 - 2 * count);
    std::vector<std::size_t> splits;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t offset = data[1 + 2 * i] | (static_cast<std::size_t>(data[2 + 2 * i]) << 8);
        splits.push_back(file.empty() ? 0 : offset % (file.size() + 1));
    }
    std::sort(splits.begin(), splits.end());

    ReadFile whole;
    ReadFile chunked;
    const bool tolerant = fuzz::parsedOrRefused([&] {
        whole = read(file, {});
        chunked = read(file, splits);
    });
    fuzz::require(tolerant, "the reader is tolerant: a broken value is counted, never thrown");

    fuzz::require(whole.records == chunked.records, "chunks give the whole file's records");
    fuzz::require(whole.broken == chunked.broken, "chunks give the whole file's broken entries");
    fuzz::require(sameBroken(whole.kept_broken, chunked.kept_broken), "chunks give the same broken entries");
    fuzz::require(whole.lines == chunked.lines, "chunks give the whole file's line count");
    fuzz::require(whole.consumed == static_cast<std::int64_t>(file.size()), "finish consumes everything");

    const auto objects = static_cast<std::size_t>(std::count(file.begin(), file.end(), '{'));
    fuzz::require(whole.records.size() <= 3 * objects, "three records at most per object");
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    const auto words =
        static_cast<std::int64_t>(std::count_if(file.begin(), file.end(), [&](char c) { return !blank(c); }));
    fuzz::require(whole.broken <= words + 1, "a broken entry begins at a byte that is not white space");
    const std::int64_t newlines = std::count(file.begin(), file.end(), '\n');
    for (const BrokenLine& b : whole.kept_broken)
        fuzz::require(b.line_number >= 1 && b.line_number <= newlines + 1,
                      "a broken entry names a line of the file");
    return 0;
}
