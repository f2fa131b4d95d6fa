// Fuzz target: trainer logs read with a user-defined format (PatternReader), fed in chunks as a tail reads
// them; the input's first byte after the split count chooses a shipped definition (Megatron-LM, NeMo,
// torchtitan) or, for every fourth value, a definition read from the input itself (readPatternFormat) up to
// its first NUL byte. Invariants: a definition is read or refused with a PlanError naming its source; the
// reader never throws; chunks give what the whole log at once gives; one header first, one summary last;
// steps and evaluations rise; every figure finite.
#include "chunked_output.h"
#include "pattern_format.h"
#include "pattern_reader.h"
#include "run_plan.h"
#include "shipped_formats.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace {

using namespace scalebench;

void requireSound(const StepRecord& s) {
    fuzz::require(s.step >= 0, "a step number is not negative");
    fuzz::require(std::isfinite(s.step_s) && s.step_s >= 0, "a step's time is finite and not negative");
    for (const double figure : {s.loss, s.samples_per_s, s.tokens_per_s, s.model_flops_per_s, s.elapsed_s})
        fuzz::require(std::isfinite(figure), "a step's figures are finite");
    fuzz::require(!s.mfu || std::isfinite(*s.mfu), "an mfu is finite");
}

// The definition the input chooses; nullopt where the input's own definition was refused.
std::optional<PatternFormat> definition(std::uint8_t choice, std::string_view& output) {
    static const std::vector<std::string> names = shippedFormatNames();
    if (const std::size_t index = choice % 4; index < 3 && index < names.size()) {
        static std::vector<PatternFormat> shipped;
        if (shipped.empty())
            for (const std::string& name : names)
                shipped.push_back(readPatternFormat(*shippedFormatText(name), name + ".toml"));
        return shipped[index];
    }
    const auto nul = output.find('\0');
    const std::string_view text = output.substr(0, nul);
    output = nul == std::string_view::npos ? std::string_view() : output.substr(nul + 1);
    try {
        return readPatternFormat(text, "fuzz.toml");
    } catch (const PlanError& e) {
        fuzz::require(std::string_view(e.what()).substr(0, 10) == "fuzz.toml:",
                      "a refusal names the definition");
        return std::nullopt;
    } catch (const std::exception& e) {
        fuzz::finding(std::string("a definition refused without a PlanError: ") + e.what());
    }
}

} // namespace

// Input: one byte N (split count, 0..15); one byte choosing the definition; one byte for the ranks (minus 1:
// -1..254); N 16-bit split offsets; then the output (for a definition of its own: the TOML, a NUL, the log).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::ChunkedInput in = fuzz::chunkedInput(data, size, 2);
    if (!in.usable) return 0;
    std::string_view output = in.output;
    const std::optional<PatternFormat> format = definition(in.head[0], output);
    if (!format) return 0;
    // Split offsets into what is left of the output after the definition.
    std::vector<std::size_t> splits;
    for (const std::size_t split : in.splits)
        splits.push_back(std::min(split, output.size()));
    const OutputContext context{static_cast<int>(in.head[1]) - 1, "python"};
    fuzz::ReadOutput whole;
    fuzz::ReadOutput chunked;
    const bool tolerant = fuzz::parsedOrRefused([&] {
        PatternReader at_once(*format, context), in_chunks(*format, context);
        whole = fuzz::readInChunks(at_once, output, {});
        chunked = fuzz::readInChunks(in_chunks, output, splits);
    });
    fuzz::require(tolerant, "the reader is tolerant: a broken line is counted, never thrown");
    fuzz::requireSameReading(whole, chunked, output.size());

    std::size_t read_lines = 0; // steps and evaluations: at most one a line, besides the broken ones
    std::int64_t last_step = -1;
    std::int64_t last_eval = -1;
    for (std::size_t i = 0; i < whole.records.size(); ++i) {
        const MetricRecord& record = whole.records[i];
        if (const auto* s = std::get_if<StepRecord>(&record)) {
            requireSound(*s);
            fuzz::require(s->step > last_step, "steps rise");
            last_step = s->step;
            ++read_lines;
        } else if (const auto* e = std::get_if<EvalRecord>(&record)) {
            fuzz::require(e->step > last_eval, "evaluations rise");
            fuzz::require(std::isfinite(e->value) && std::isfinite(e->loss), "an evaluation is finite");
            last_eval = e->step;
            ++read_lines;
        } else if (std::holds_alternative<HeaderRecord>(record)) {
            fuzz::require(i == 0, "the header comes first, once");
        } else if (const auto* summary = std::get_if<SummaryRecord>(&record)) {
            fuzz::require(i + 1 == whole.records.size(), "the summary comes last");
            fuzz::require(summary->steps == last_step && std::isfinite(summary->wall_s) &&
                              std::isfinite(summary->samples_per_s),
                          "the summary names the last step and finite figures");
        } else {
            fuzz::require(false, "only header, step, evaluation and summary records");
        }
    }
    fuzz::require(read_lines + static_cast<std::size_t>(whole.broken) <=
                      static_cast<std::size_t>(whole.lines),
                  "one step, evaluation or broken line at most per line");
    return 0;
}
