// Which format a log is in, told from its content: every built-in reader reads it, and the one that reads
// records wins. What an import without --format uses.
#pragma once

#include "output_reader.h"

#include <optional>
#include <string>
#include <vector>

namespace scalebench {

struct FormatTrial {
    std::string format;         // one of kOutputFormats
    std::size_t records = 0;    // what it read besides a header: steps, evaluations, sizes, a summary
    std::int64_t broken = 0;    // lines it took for its own and could not read
    std::string first_broken{}; // "line 17: no loss field"
};

struct DetectedFormat {
    std::optional<std::string> format; // none where no reader read a record
    std::vector<FormatTrial> trials;   // every reader's, in kOutputFormats' order
    // Where none read: "no format reads it (tried nccl-tests, ...; closest: osu, 3 broken lines, the first
    // line 5: ...)"; "" where one did.
    std::string refusal;
};

// The format whose reader reads the most records from `text`, the fewest broken lines deciding a tie.
DetectedFormat detectFormat(const std::string& text, const OutputContext& context);

} // namespace scalebench
