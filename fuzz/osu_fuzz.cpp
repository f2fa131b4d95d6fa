// Fuzz target: OSU Micro-Benchmarks' output (OsuLatencyReader) fed in chunks as a tail reads it; the input's
// first bytes choose the launch (program, ranks) and where the chunks split. Invariants: chunks give what the
// whole output at once gives; nothing thrown; at most one record or broken line per line; every record's
// figures finite and consistent.
#include "bus_bandwidth.h"
#include "fuzz_finding.h"
#include "osu_output.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

using namespace scalebench;

struct ReadOutput {
    std::vector<MetricRecord> records;
    std::int64_t lines = 0;
    std::int64_t broken = 0;
    std::vector<BrokenLine> kept_broken;
    std::int64_t consumed = 0;
};

// Feeds the output in the chunks that end at `splits` (ascending offsets), then finishes it.
ReadOutput readOutput(const OutputContext& context, std::string_view output,
                      const std::vector<std::size_t>& splits) {
    OsuLatencyReader reader(context);
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

bool sameBroken(const std::vector<BrokenLine>& a, const std::vector<BrokenLine>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const BrokenLine& x, const BrokenLine& y) {
        return x.line_number == y.line_number && x.reason == y.reason && x.text == y.text;
    });
}

void requireSound(const CollectiveRecord& c, int ranks) {
    fuzz::require(c.ranks == ranks && ranks >= 1, "a record carries the launcher's positive rank count");
    fuzz::require(c.bytes > 0 && c.elements > 0 && c.elements <= c.bytes, "a record moves whole elements");
    fuzz::require(std::isfinite(c.time_s) && c.time_s > 0, "a record's time is positive and finite");
    fuzz::require(std::isfinite(c.algbw_gbps) && std::isfinite(c.busbw_gbps),
                  "a record's bandwidths are finite");
    fuzz::require(c.busbw_gbps == c.algbw_gbps * busBandwidthFactor(c.collective, c.ranks),
                  "busbw is algbw x nccl-tests' factor");
    fuzz::require(c.tool == "osu" && c.backend == "mpi", "a record says OSU measured it over MPI");
    fuzz::require(c.checked || !c.correct, "an unchecked row is not called correct");
}

constexpr std::array<std::string_view, 8> kPrograms{
    "osu_allreduce", "osu_allgather", "osu_reduce_scatter", "osu_bcast",
    "osu_alltoall",  "osu_reduce",    "osu_barrier",        ""};

} // namespace

// Input: one byte N (split count, 0..15); one byte for the launch: program (low 3 bits, kPrograms) and ranks
// (the high 5 bits minus 1: -1..30); N 16-bit split offsets; then the output.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::size_t count = data[0] % 16;
    if (size < 2 + 2 * count) return 0;
    const OutputContext context{(data[1] >> 3) - 1, std::string(kPrograms[data[1] & 7])};
    const std::string_view output(reinterpret_cast<const char*>(data) + 2 + 2 * count, size - 2 - 2 * count);
    std::vector<std::size_t> splits;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t offset = data[2 + 2 * i] | (static_cast<std::size_t>(data[3 + 2 * i]) << 8);
        splits.push_back(output.empty() ? 0 : offset % (output.size() + 1));
    }
    std::sort(splits.begin(), splits.end());

    ReadOutput whole;
    ReadOutput chunked;
    const bool tolerant = fuzz::parsedOrRefused([&] {
        whole = readOutput(context, output, {});
        chunked = readOutput(context, output, splits);
    });
    fuzz::require(tolerant, "the reader is tolerant: a broken line is counted, never thrown");

    fuzz::require(whole.records == chunked.records, "chunks give the whole output's records");
    fuzz::require(whole.lines == chunked.lines, "chunks give the whole output's line count");
    fuzz::require(whole.broken == chunked.broken, "chunks give the whole output's broken lines");
    fuzz::require(sameBroken(whole.kept_broken, chunked.kept_broken), "chunks give the same broken lines");
    fuzz::require(whole.consumed == static_cast<std::int64_t>(output.size()), "finish consumes everything");
    fuzz::require(whole.broken <= whole.lines, "no more broken lines than lines");
    fuzz::require(whole.records.size() + static_cast<std::size_t>(whole.broken) <=
                      static_cast<std::size_t>(whole.lines),
                  "one record or one broken line at most per line");
    for (const auto& record : whole.records) {
        if (const auto* c = std::get_if<CollectiveRecord>(&record))
            requireSound(*c, context.ranks);
        else
            fuzz::require(std::holds_alternative<HeaderRecord>(record),
                          "only headers and collective records");
    }
    return 0;
}
