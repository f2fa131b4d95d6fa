// Where a run's files live on the machine that runs it: one folder per store, session and run, one per
// scheduler attempt inside it, and none of them ever reused. Every caller (runner, schedulers, dry run, plan
// preview) takes its paths from here.
#pragma once

#include <cstdint>
#include <string>

namespace scalebench {

// What makes a session's folder unique: the store's random id (two stores on one cluster never share a
// folder) and the session's UUID (a copied store does not either); the number is there for people reading the
// path.
struct SessionFolderKey {
    std::string store_id;     // SessionStore::storeId()
    std::int64_t session_id;  // 0: not created yet (dry runs, previews): shown as N
    std::string session_uuid; // SessionRow::uuid
};

inline constexpr const char* kMetricFileName = "metrics.jsonl";
// The engine's MLPerf compliance log in the attempt's folder, where a plan asks for one (`mllog = true`).
inline constexpr const char* kMllogFileName = "mllog.txt";
// Where the launcher writes a command run's standard output when the command writes no file for the console.
inline constexpr const char* kCommandOutputFileName = "output.log";

// ROOT/STORE_ID/session-N-UUID
std::string sessionFolder(const std::string& sessions_root, const SessionFolderKey& key);
// ROOT/STORE_ID/session-N-UUID/RUN: the job's script and the launcher's stdout.log and stderr.log.
std::string runFolder(const std::string& sessions_root, const SessionFolderKey& key,
                      const std::string& run_name);
// RUN/attempt-K: where attempt K of the job runs and writes its metric stream. K is Slurm's
// SLURM_RESTART_COUNT (0 for the first start; a requeued job runs again as attempt 1, 2, ...).
std::string attemptFolder(const std::string& run_folder, int attempt);
// RUN/attempt-K/FILE: what the job's program writes there (JobRequest::output; the engine's metrics.jsonl).
std::string metricFile(const std::string& run_folder, int attempt, const std::string& file = kMetricFileName);

} // namespace scalebench
