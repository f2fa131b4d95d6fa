// What a run of a plan will be submitted as, before it is: the plan builder's preview is the command line or
// sbatch script the runner stores and submits, made by the same jobRequestFor() and the same scheduler.
#pragma once

#include "cluster_settings.h"
#include "job_request.h"
#include "run_plan.h"

#include <filesystem>
#include <string>

namespace scalebench {

// The engine as jobs on this machine see it: a path made absolute (jobs run in their attempt's folder, where
// a relative one would not lead to it), a bare name as it is (found on PATH).
std::string localEnginePath(const std::string& engine);

// The site a preview shows before a session exists: on this machine `engine` (made absolute, as the runner
// does) and `out_dir`; on a cluster its remote_root's sessions/ and the deployed engine, whose source hash
// shows as HASH (it is known once the engine is packed at launch). The session's number and UUID show as N
// and UUID (run_folder.h).
LaunchSite previewSite(const ClusterSettings& cluster, const std::string& engine,
                       const std::filesystem::path& out_dir, const std::string& store_id);

// The command line (this machine) or sbatch script (a cluster) of `run` at `site`, byte for byte what the
// scheduler submits and the store keeps. Throws std::invalid_argument for a run that cannot become a job
// there (a bad variable name, a line break in a directive).
std::string submittedCommand(const RunSpec& run, const LaunchSite& site);

} // namespace scalebench
