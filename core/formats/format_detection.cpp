// Which format a log is in, told from its content (format_detection.h).
#include "format_detection.h"

#include "output_formats.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace scalebench {
namespace {

FormatTrial tryFormat(const std::string& format, const std::string& text, const OutputContext& context) {
    const auto reader = makeOutputReader(format, context);
    std::vector<MetricRecord> records = reader->feed(text);
    const auto rest = reader->finish();
    records.insert(records.end(), rest.begin(), rest.end());
    FormatTrial trial{format};
    for (const MetricRecord& record : records)
        trial.records += std::holds_alternative<HeaderRecord>(record) ? 0 : 1;
    trial.broken = reader->brokenLineCount();
    if (!reader->brokenLines().empty())
        trial.first_broken = fmt::format("line {}: {}", reader->brokenLines().front().line_number,
                                         reader->brokenLines().front().reason);
    return trial;
}

} // namespace

DetectedFormat detectFormat(const std::string& text, const OutputContext& context) {
    DetectedFormat detected;
    const FormatTrial* best = nullptr;
    for (const std::string& format : kOutputFormats)
        detected.trials.push_back(tryFormat(format, text, context));
    for (const FormatTrial& t : detected.trials)
        if (t.records > 0 &&
            (!best || t.records > best->records || (t.records == best->records && t.broken < best->broken)))
            best = &t;
    if (best) {
        detected.format = best->format;
        return detected;
    }
    // The closest: the reader that took the most lines for its own, though it could read none of them.
    const FormatTrial* closest = nullptr;
    for (const FormatTrial& t : detected.trials)
        if (t.broken > 0 && (!closest || t.broken > closest->broken)) closest = &t;
    detected.refusal = fmt::format("no format reads it (tried {})", fmt::join(kOutputFormats, ", "));
    if (closest)
        detected.refusal += fmt::format("; closest: {}, {} line(s) it could not read, the first {}",
                                        closest->format, closest->broken, closest->first_broken);
    else
        detected.refusal += "; none took a line for its own";
    return detected;
}

} // namespace scalebench
