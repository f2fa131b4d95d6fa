// Verdicts on a session's runs: each figure a plan's references bound, pass or fail, and each figure's change
// against a baseline session, a regression only where it is beyond the noise of the repeats.
#pragma once

#include "change_or_noise.h"
#include "reference.h"
#include "results_table.h"

#include <optional>
#include <string>
#include <vector>

namespace scalebench {

enum class Outcome { Pass, Fail, NoReference };

// One run's figure against the reference that bounds it (or a run no reference bounds).
struct ReferenceVerdict {
    std::string run;
    std::string figure; // "" where no reference applies to the run
    Outcome outcome = Outcome::NoReference;
    std::optional<double> measured{};
    std::optional<Reference> reference{};
    std::string text; // "samples_per_s 1093.2 samples/s: pass (reference 1200, from 1080 to 1320)"
};

// The figure `figure` of a run as a reference reads it; none where the run has none (a target not reached,
// no collective of that size).
std::optional<double> referenceFigureOf(const RunResult& run, const RunScaling& scaling,
                                        const Reference& ref);

// Every successful or failed run against the references whose workload, ranks and cluster it matches: one
// verdict per matching reference, or one NoReference verdict where none matches. A run that failed, or has no
// value for the figure, fails the reference.
std::vector<ReferenceVerdict> referenceVerdicts(const std::vector<RunResult>& results,
                                                const std::vector<Reference>& references,
                                                const std::string& cluster);

// One figure of one series and rank count, this session against the baseline's (changeOrNoise over the
// successful repeats of each).
struct RegressionVerdict {
    std::string series; // the series' label
    int ranks = 0;
    std::string figure; // "samples/s", "step time", ...
    bool higher_is_better = true;
    ChangeVerdict change;
    bool regression = false;  // a change in the worse direction
    bool improvement = false; // a change in the better direction
};
std::vector<RegressionVerdict> regressionVerdicts(const std::vector<RunResult>& baseline,
                                                  const std::vector<RunResult>& current, double threshold);

// The verdicts as text, for --batch and the report; "" where there are none.
std::string formatVerdicts(const std::vector<ReferenceVerdict>& references,
                           const std::vector<RegressionVerdict>& regressions, const std::string& baseline);
// Whether any reference failed or any figure regressed: --batch exits 3.
bool verdictsFail(const std::vector<ReferenceVerdict>& references,
                  const std::vector<RegressionVerdict>& regressions);

// JUnit XML (one testsuite, one testcase per run and figure: a failed reference or a regression is a
// <failure>, a failed run an <error>), for CI systems that read it.
std::string junitXml(const std::string& suite, const std::vector<RunResult>& results,
                     const std::vector<ReferenceVerdict>& references,
                     const std::vector<RegressionVerdict>& regressions);

} // namespace scalebench
