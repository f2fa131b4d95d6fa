// Incremental, tolerant parser of the JSON-lines metric stream: complete lines in, records out, broken lines
// counted.
#pragma once

#include "output_reader.h"

namespace scalebench {

// The engine's own output: one JSON object a line (docs/metric-stream.md).
class MetricStreamParser : public OutputReader {
  protected:
    void readLine(std::string_view line, std::vector<MetricRecord>& out) override;
};

} // namespace scalebench
