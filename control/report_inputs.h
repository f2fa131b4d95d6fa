// What a stored session's report is made from, read from the store below the views: the session, its
// results, its baseline's, its runs' capsules and what the performance model projects from.
#pragma once

#include "analysis.h"
#include "results_table.h"
#include "run_capsule.h"
#include "session_projection.h"
#include "stored_rows.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// The session the report judges each figure against (report --baseline): none where `asked` ("last") found
// none, and the page says so.
struct ReportBaseline {
    std::string asked; // as the user named it: an id, a name, "last"
    std::optional<SessionRow> session{};
    std::vector<RunResult> results{};
};

// What the report projects from: the session's model inputs, or why they could not be read.
struct ReportProjection {
    std::vector<SeriesModelInputs> series{};
    std::string error{}; // sessionModelInputs' exception text
};

struct ReportInputs {
    SessionRow session;
    std::vector<RunResult> results;
    std::optional<ReportBaseline> baseline; // none where the report was asked for without one
    std::vector<RunCapsule> capsules;
    ReportProjection projection;
};

// The report's inputs for `session` (an id or a name: the newest of that name) of the store `db`, against
// `baseline` where not empty. Throws naming the problem: no store, an unknown session or baseline.
ReportInputs readReportInputs(const std::filesystem::path& db, const std::string& session,
                              const std::string& baseline, StepTimeConvention convention);

} // namespace scalebench
