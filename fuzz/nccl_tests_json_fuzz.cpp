// Fuzz target: nccl-tests' JSON file (NcclTestsJsonReader) fed in chunks as a tail reads it while the test
// writes it; the input's first bytes choose where the chunks split. Invariants: chunks give what the whole
// file at once gives; the reader is tolerant; every record comes from an object ('{': a result gives three
// records at most, the header with its two); a broken entry begins at a byte that is not white space, or is
// the one that says the document was left unfinished.
#include "chunked_output.h"
#include "nccl_tests_json_reader.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

using namespace scalebench;

// Input: one byte N (split count, 0..15), N 16-bit split offsets, then the file.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::ChunkedInput in = fuzz::chunkedInput(data, size);
    if (!in.usable) return 0;
    const std::string_view file = in.output;
    fuzz::ReadOutput whole;
    fuzz::ReadOutput chunked;
    const bool tolerant = fuzz::parsedOrRefused([&] {
        NcclTestsJsonReader at_once({2, "all_reduce_perf"}), in_chunks({2, "all_reduce_perf"});
        whole = fuzz::readInChunks(at_once, file, {});
        chunked = fuzz::readInChunks(in_chunks, file, in.splits);
    });
    fuzz::require(tolerant, "the reader is tolerant: a broken value is counted, never thrown");
    fuzz::requireSameReading(whole, chunked, file.size());

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
