// Two sessions side by side: every figure of runs matched by (workload, dataset, settings, ranks) with the
// difference in percent, and the settings (plan, cluster, run headers) that differ between them.
#pragma once

#include "change_or_noise.h"
#include "figure_registry.h"
#include "results_table.h"
#include "run_capsule.h"
#include "stored_rows.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

class SessionStore;

// One side of a comparison: a session's results and what it ran with.
struct ComparedSession {
    std::string name;
    std::vector<RunResult> results{};
    std::vector<std::string>
        run_headers{};                  // the runs' header_json (versions, hosts, threads, hyper-parameters)
    std::string plan_text{};            // the plan's TOML as stored with the session
    std::string cluster_json{};         // the cluster's settings (clusterToJson); empty on this machine
    std::vector<RunCapsule> capsules{}; // what each run ran, exactly (run_capsule.h)
    StoredPlan stored_plan{};           // plan_text as the store read it (readStoredPlan)
};

// A stored session's name, results (loadSessionResults), run headers, plan text, cluster settings and the
// runs' capsules.
ComparedSession loadComparedSession(const SessionStore& store, const SessionRow& session,
                                    StepTimeConvention convention = StepTimeConvention::SteadyStateMedian);

struct FigureComparison {
    std::string workload;
    std::string dataset;
    int ranks = 0;
    std::string figure; // "samples/s", "step time", "peak busbw mpi allreduce float32 sum", ...
    std::string unit;   // "samples/s", "ms", "x", "%", "GB/s", "" for loss
    Better better = Better::Neither;
    std::optional<double> a{};
    std::optional<double> b{};
    std::optional<double> percent{}; // (B - A) / A * 100; absent when A is 0 or one side has no value
    std::string note{}; // why percent is absent: "only in A", "only in B", "A is 0: percent undefined"
    // Whether B differs from A beyond the noise of their repeats (changeOrNoise); none for a figure that is
    // not a mean over repeats (speedup, a sweep's peak, an MLPerf score).
    std::optional<ChangeVerdict> change{};
    // The settings the matched runs share beyond workload and dataset that tell their series apart: those
    // that change what is measured (preset, precision, sequence length, batch, device) and any that differ
    // between series within either session ("precision=bf16 preset=tiny"); empty where the runs have none.
    std::string settings{};
    int decimals = 2; // the window shows it with (its row in figure_registry.h; an evaluation metric's style)
};

// Training figures are means over the successful repeats with steady-state steps of each (workload, dataset,
// ranks): samples/s, step time and each part of its breakdown (ms), speedup and efficiency (S(N) =
// X(N)/X(N0), E(N) = S(N) * N0/N within each session), final loss and accuracy. Collective sweeps give the
// peak busbw of each (backend, collective, dtype, op, in-place) sweep, mean over repeats. Sorted by workload,
// dataset, ranks.
// Each figure that is a mean over repeats is judged by changeOrNoise at `threshold`: only a change beyond the
// noise is better or worse. The derived figures are judged over their repeats too: each repeat's speedup
// X_i(N) / mean X(N0) (efficiency, compute-only speedup and time-to-target speedup alike), each repeat's
// communication share and each run's peak busbw. Only MLPerf's scores (one per series) go unjudged.
std::vector<FigureComparison> compareFigures(const std::vector<RunResult>& a, const std::vector<RunResult>& b,
                                             double threshold = 0.05);
// 1: B is better beyond the noise, -1: worse, 0: neither (within noise, cannot tell, no direction, one value
// a side). The only rule by which Compare, --compare and the exports call a change better or worse.
int changeDirection(const FigureComparison& figure);
// "better", "worse", "within noise", "cannot tell" (fewer repeats a side than changeOrNoise needs), "one
// value a side" (a figure that is not a mean over repeats), "changed" where no direction is better.
std::string judgement(const FigureComparison& figure);

// A change in percent as Compare and --compare write it: "+10.0%", "-9.1%"; one that rounds to nothing is
// "0.0%", never "-0.0%" or "+0.0%".
std::string percentText(double percent);

// How many figures each judgement got: better and worse beyond the noise, within noise, cannot tell (one
// value a side counts here too), and changed (beyond the noise, without a better direction).
struct JudgementCounts {
    int better = 0;
    int worse = 0;
    int within_noise = 0;
    int cannot_tell = 0;
    int changed = 0;
};
JudgementCounts countJudgements(const std::vector<FigureComparison>& figures);
// "2 better, 1 worse, 10 within noise, 3 cannot tell" (", 1 changed" only where some did).
std::string describeCounts(const JudgementCounts& counts);

struct SettingDifference {
    std::string key;                // "plan.run[0].steps", "cluster.host", "run header.versions.libtorch"
    std::optional<std::string> a{}; // absent: the key does not exist on that side
    std::optional<std::string> b{};
};

// Only the keys whose values differ or that exist on one side, sorted by key. Run headers are merged over
// each session's runs: a key's value is its distinct values joined with " | ". Process ids and start times
// are left out (they differ on every run), and so are what the capsules hold (versions, hosts, GPUs,
// environment: capsuleHeaderKey), compared by compareCapsules.
std::vector<SettingDifference> compareSettings(const ComparedSession& a, const ComparedSession& b);

// What differs between the capsules of A's and B's runs, runs paired by name (where no name is shared, in
// order): per key, A's value and B's (multi-line values: only the differing lines, differingLines). A
// difference shared by every pair is listed once; one that only some pairs have names them:
// "nodes (resnet20-n2-r1)". Runs without a partner: key "runs only in one session".
std::vector<SettingDifference> compareCapsules(const std::vector<RunCapsule>& a,
                                               const std::vector<RunCapsule>& b);

// Key paths ("a.b[2].c") to values (strings unquoted, other scalars as JSON). Text that does not parse gives
// one key, "(unparsable)", holding the parser's message.
std::map<std::string, std::string> flattenJson(const std::string& json);
std::map<std::string, std::string> flattenToml(const std::string& toml);

} // namespace scalebench

namespace scalebench {

// The comparison as text for the terminal (`scalebench --compare A B`): every figure with A, B and the change
// in percent, then the settings that differ, then what differs in what ran (the runs' capsules).
std::string formatComparison(const std::string& name_a, const std::string& name_b,
                             const std::vector<FigureComparison>& figures,
                             const std::vector<SettingDifference>& settings,
                             const std::vector<SettingDifference>& capsules = {});

} // namespace scalebench
