// The report's Projection section: per training series, the performance model's table at the measured rank
// counts and 2, 8 and 64 times the largest (formatProjection's figures, notes and marks), and each gradient
// bucket's measured all-reduce against the sweep's time for its size, with its reading.
#pragma once

#include "report_inputs.h"
#include "session_projection.h"

#include <QString>
#include <string>
#include <vector>

namespace scalebench {

// The rank counts the report projects to: every measured one, then 2, 8 and 64 x the largest measured.
std::vector<int> reportProjectionRanks(const ModelInputs& inputs);

// The <section id="projection">; where a series cannot be projected (no sweep, no buckets), project()'s
// reason in its table's place. "" where there is no training series and no error.
QString projectionSection(const ReportProjection& projection);

} // namespace scalebench
