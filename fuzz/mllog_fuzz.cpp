// Fuzz target: MLPerf Training's MLLOG lines (MllogReader) fed in chunks as a tail reads them; the input's
// first bytes choose where the chunks split. Invariants: chunks give what the whole output at once gives;
// nothing thrown; at most one header and one summary; every record's figures finite.
#include "chunked_output.h"
#include "mllog_reader.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using namespace scalebench;

void requireSound(const std::vector<MetricRecord>& records) {
    std::size_t headers = 0;
    std::size_t summaries = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (const auto* h = std::get_if<HeaderRecord>(&records[i])) {
            fuzz::require(i == 0, "the header comes first");
            fuzz::require(h->version == 1 && h->ranks == 4, "the header carries the launcher's ranks");
            ++headers;
        } else if (const auto* e = std::get_if<EvalRecord>(&records[i])) {
            fuzz::require(std::isfinite(e->value) && std::isfinite(e->elapsed_s),
                          "an eval's figures are finite");
        } else if (const auto* s = std::get_if<SummaryRecord>(&records[i])) {
            fuzz::require(std::isfinite(s->wall_s), "a summary's time is finite");
            fuzz::require(s->target_reached == s->time_to_target_s.has_value(),
                          "a time to target exactly when the run succeeded");
            ++summaries;
        } else {
            fuzz::require(false, "only headers, evals and summaries");
        }
    }
    fuzz::require(headers <= 1 && summaries <= 1, "one header and one summary at most");
}

} // namespace

// Input: one byte N (split count, 0..15); N 16-bit split offsets; then the output.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::ChunkedInput in = fuzz::chunkedInput(data, size);
    if (!in.usable) return 0;
    const OutputContext context{4, "python"};
    fuzz::ReadOutput whole;
    fuzz::ReadOutput chunked;
    const bool tolerant = fuzz::parsedOrRefused([&] {
        MllogReader at_once(context), in_chunks(context);
        whole = fuzz::readInChunks(at_once, in.output, {});
        chunked = fuzz::readInChunks(in_chunks, in.output, in.splits);
    });
    fuzz::require(tolerant, "the reader is tolerant: a broken line is counted, never thrown");
    fuzz::requireSameReading(whole, chunked, in.output.size());
    fuzz::require(whole.broken <= whole.lines, "no more broken lines than lines");
    requireSound(whole.records);
    return 0;
}
