// What the session store hands its readers: a session, its runs and their attempts as stored, and the plan a
// session ran, read once by the store. Plain data, no SQLite: views and reports include this, never the
// store (session_store.h).
#pragma once

#include "run_plan.h"
#include "run_status.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace scalebench {

// The plan a session ran, as the store reads it back with the session: the store is the one place that parses
// a stored plan, and a plan that no longer reads is named, never passed over.
struct StoredPlan {
    std::optional<RunPlan> plan; // none where the session stored none (an import) or its text no longer reads
    // Why there is no plan although one was stored: "the plan stored with session 7 no longer reads: ...".
    std::string problem;
    // The plan's runs by name (expandPlan), made where they are used, not with every row read; none without a
    // plan.
    std::map<std::string, RunSpec> runs() const;
};

// How the store reads a session's stored plan (the one reader of stored plans; a session built by hand, as in
// tests, is given its plan with it).
StoredPlan readStoredPlan(std::int64_t session_id, const std::string& plan_text);

struct SessionRow {
    std::int64_t id = 0;
    std::string name;
    std::string started_at; // UTC, ISO 8601
    std::string finished_at;
    SessionStatus status = SessionStatus::Running;
    std::string cluster;
    int run_count = 0;
    std::string plan_text{};    // the plan's TOML as it was run
    std::string cluster_json{}; // the cluster's settings then; empty on this machine
    std::string uuid{};         // random, 32 hex digits: names the session's folders where it runs
    std::string owner{};        // HOST:PID of the console that started it
    StoredPlan stored_plan{};   // plan_text, read
};

// What a run is, as the store is told when it creates it (SessionStore::createRun): the stored run's own
// part of RunRow.
struct RunIdentity {
    std::string name;
    std::string workload;
    std::string dataset;
    int ranks = 0;
    int repeat = 0;
    std::string command; // what was launched, to reproduce the run; "imported from ..." for an import
    // What the run was (its record, run_record.h): every setting it ran with, as the plan made it. None for
    // an imported run, or where it does not read; then RunRow::spec_problem says why.
    std::optional<RunSpec> spec{};
    // An imported run's file by its content (contentDigest): the same file imported again is known by it; ""
    // for a run scalebench ran.
    std::string source_digest{};
};

// A run as stored: what it is, and what the store learned of it since.
struct RunRow : RunIdentity {
    std::int64_t id = 0;
    std::int64_t session_id = 0;
    RunStatus status = RunStatus::Pending;
    std::string error;
    std::string header_json;
    std::string summary_json;
    std::int64_t broken_lines = 0;
    std::int64_t step_count = 0;
    std::string started_at;
    std::string finished_at;
    std::string job_id;    // the scheduler's: mpirun's PID, or the Slurm job id
    std::string nodes;     // where it ran
    std::string run_dir{}; // its folder where it ran: job script, stdout.log, stderr.log, attempt-K/
    int attempt = 0;       // the scheduler's attempt whose records are stored (Slurm requeues: 1, 2, ...)
    // Why `spec` is none although the run stored a record: "run 12's record does not read: ...".
    std::string spec_problem{};
};

// A stored run, where it is: what runFromSource answers.
struct SourceRun {
    std::int64_t session_id = 0;
    std::int64_t run_id = 0;
    std::string run_name;
    std::string session_name;
};

// An earlier attempt of a run that the scheduler started again (a requeue after a node failure, a
// preemption): its records stay in its own metric file, the store keeps why and where it ended.
struct AttemptRow {
    int attempt = 0;
    std::string ended; // Slurm's reason or state: NODE_FAIL, PREEMPTED, requeued, ...
    std::string nodes;
    std::int64_t last_step = 0;
    std::string ended_at;
};

} // namespace scalebench
