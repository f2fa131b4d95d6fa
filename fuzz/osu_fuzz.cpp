// Fuzz target: OSU Micro-Benchmarks' output (OsuLatencyReader) fed in chunks as a tail reads it; the input's
// first bytes choose the launch (program, ranks) and where the chunks split. Invariants: chunks give what the
// whole output at once gives; nothing thrown; at most one record or broken line per line; every record's
// figures finite and consistent.
#include "bus_bandwidth.h"
#include "chunked_output.h"
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
    const fuzz::ChunkedInput in = fuzz::chunkedInput(data, size, 1);
    if (!in.usable) return 0;
    const OutputContext context{(in.head[0] >> 3) - 1, std::string(kPrograms[in.head[0] & 7])};
    fuzz::ReadOutput whole;
    fuzz::ReadOutput chunked;
    const bool tolerant = fuzz::parsedOrRefused([&] {
        OsuLatencyReader at_once(context), in_chunks(context);
        whole = fuzz::readInChunks(at_once, in.output, {});
        chunked = fuzz::readInChunks(in_chunks, in.output, in.splits);
    });
    fuzz::require(tolerant, "the reader is tolerant: a broken line is counted, never thrown");
    fuzz::requireSameReading(whole, chunked, in.output.size());
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
