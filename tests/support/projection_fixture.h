// The performance model's recorded session (tests/data/projection: ResNet-20 at 1 and 2 ranks and the MPI
// all-reduce sweep, run once on the development VM) stored as the runner stores one.
#pragma once

#include "file_text.h"
#include "metric_stream_parser.h"
#include "run_plan.h"
#include "session_store.h"

#include <filesystem>

// Every run's records, each run finished ok on host "vm"; the session's id. With cluster_json
// (clusterToJson): the session ran on that cluster.
inline std::int64_t storeProjectionFixture(scalebench::SessionStore& store,
                                           const std::string& cluster_json = "") {
    using namespace scalebench;
    const std::filesystem::path folder =
        std::filesystem::path(SCALEBENCH_SOURCE_DIR) / "tests/data/projection";
    const std::string plan = fileText(folder / "plan.toml");
    const std::int64_t session = store.createSession(
        "projection-fixture", plan, cluster_json.empty() ? "local" : "fixture-cluster", cluster_json);
    for (const RunSpec& spec : expandPlan(parsePlanText(plan, "plan.toml"))) {
        const std::int64_t run = store.createRun(session, {spec.name, spec.group.workload, spec.group.dataset,
                                                           spec.ranks, spec.repeat, "mpirun ...", spec});
        MetricStreamParser parser;
        store.appendRecords(run, parser.feed(fileText(folder / (spec.name + ".jsonl"))));
        store.finishRun(run, {RunStatus::Ok, "", 0, "vm"});
    }
    store.finishSession(session, SessionStatus::Ok);
    return session;
}
