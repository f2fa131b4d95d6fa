// Fuzz target: MaxText's console output (MaxTextReader) fed in chunks as a tail reads it; the input's first
// byte chooses the device count and the next ones where the chunks split. Invariants: chunks give what the
// whole output at once gives; nothing thrown; one header before the first step, steps rising, one summary
// last; every figure finite.
#include "chunked_output.h"
#include "maxtext_reader.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <variant>

namespace {

using namespace scalebench;

void requireSound(const StepRecord& s) {
    fuzz::require(s.step >= 0, "a step number is not negative");
    fuzz::require(std::isfinite(s.step_s) && s.step_s > 0, "a step's time is positive and finite");
    for (const double figure : {s.loss, s.samples_per_s, s.tokens_per_s, s.model_flops_per_s, s.elapsed_s})
        fuzz::require(std::isfinite(figure), "a step's figures are finite");
    fuzz::require(s.elapsed_s >= s.step_s, "elapsed time includes the step");
    fuzz::require(!s.mfu.has_value(), "MaxText states no peak: no MFU");
}

} // namespace

// Input: one byte N (split count, 0..15); one byte for the devices (minus 1: -1..254); N 16-bit split
// offsets; then the output.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::ChunkedInput in = fuzz::chunkedInput(data, size, 1);
    if (!in.usable) return 0;
    const OutputContext context{static_cast<int>(in.head[0]) - 1, "python3"};
    fuzz::ReadOutput whole;
    fuzz::ReadOutput chunked;
    const bool tolerant = fuzz::parsedOrRefused([&] {
        MaxTextReader at_once(context), in_chunks(context);
        whole = fuzz::readInChunks(at_once, in.output, {});
        chunked = fuzz::readInChunks(in_chunks, in.output, in.splits);
    });
    fuzz::require(tolerant, "the reader is tolerant: a broken line is counted, never thrown");
    fuzz::requireSameReading(whole, chunked, in.output.size());
    fuzz::require(whole.broken <= whole.lines, "no more broken lines than lines");

    std::size_t steps = 0;
    std::int64_t last_step = -1;
    for (std::size_t i = 0; i < whole.records.size(); ++i) {
        const MetricRecord& record = whole.records[i];
        if (const auto* s = std::get_if<StepRecord>(&record)) {
            requireSound(*s);
            fuzz::require(s->step > last_step, "steps rise");
            last_step = s->step;
            ++steps;
        } else if (std::holds_alternative<HeaderRecord>(record)) {
            fuzz::require(i == 0, "the header comes first, once");
        } else if (const auto* summary = std::get_if<SummaryRecord>(&record)) {
            fuzz::require(i + 1 == whole.records.size(), "the summary comes last");
            fuzz::require(summary->steps == last_step && std::isfinite(summary->wall_s),
                          "the summary names the last step and a finite time");
        } else {
            fuzz::require(false, "only header, step and summary records");
        }
    }
    fuzz::require(steps + static_cast<std::size_t>(whole.broken) <= static_cast<std::size_t>(whole.lines),
                  "one step or one broken line at most per line");
    fuzz::require(whole.records.empty() || steps > 0, "records only where a step was read");
    return 0;
}
