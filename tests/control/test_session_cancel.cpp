// A session the user cancels is stored as `cancelled`, however the cancellation reached its runs: the whole
// session at once (even while its last run is being submitted), or every run one by one from the Runs tab.
// Run folders are stored absolute, whatever folder the console was started in.
#include "local_scheduler.h"
#include "local_transport.h"
#include "run_plan.h"
#include "session_runner.h"
#include "session_site.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

using namespace scalebench;

namespace {

// Runs nothing: every job runs until it is cancelled (or at once completes, for ids in `completed`).
// `on_submit` is called as each job is submitted (while the runner starts it, after the runner's last look at
// the cancel request of the whole session).
class UntilCancelled final : public Scheduler {
  public:
    std::string submit(const JobRequest&) override {
        const std::string id = std::to_string(++submitted);
        if (on_submit) on_submit(id);
        return id;
    }
    std::map<std::string, JobStatus> poll(const std::vector<std::string>& ids) override {
        std::map<std::string, JobStatus> states;
        for (const auto& id : ids)
            states[id].state = cancelled.count(id)   ? JobState::Cancelled
                               : completed.count(id) ? JobState::Completed
                                                     : JobState::Running;
        return states;
    }
    void cancel(const std::string& id) override { cancelled.insert(id); }
    std::string commandLine(const JobRequest&) const override { return "true"; }
    ClusterSettings machine() const override { return localMachine(); }

    int submitted = 0;
    std::set<std::string> cancelled;
    std::set<std::string> completed; // these complete at their first poll
    std::function<void(const std::string& id)> on_submit;
};

const char* const kTwoRuns = "name = \"cancel\"\n[[run]]\nworkload = \"logistic-regression\"\n"
                             "dataset = \"synthetic-epsilon\"\nranks = [1, 2]\nsteps = 5\n";

SessionRunnerSettings settingsIn(const TemporaryFolder& folder) {
    return {{localMachine(), "engine", (folder.path / "out").string(), {}}, std::chrono::milliseconds(1)};
}

} // namespace

TEST_CASE("a session cancelled while its last run is being submitted is stored as cancelled, not failed",
          "[control][cancel]") {
    const TemporaryFolder folder;
    SessionStore store(folder.path / "s.db");
    UntilCancelled scheduler;
    LocalTransport transport;
    SessionRunner runner(store, scheduler, transport, settingsIn(folder), [](const std::string&) {});
    // The first run completes; the user presses Cancel session just as the second (last) run is submitted.
    scheduler.completed = {"1"};
    scheduler.on_submit = [&](const std::string& id) {
        if (id == "2") runner.requestCancelAll();
    };
    const SessionOutcome outcome = runner.run(parsePlanText(kTwoRuns, "cancel.toml"));
    const std::int64_t session = outcome.session_id;
    CHECK(outcome.cancelled);
    CHECK(outcome.failed_runs == 0); // cancelled by the user is not failed
    CHECK(outcome.cancelled_runs == 1);
    CHECK(storedWord(store.session(session)->status) == "cancelled");
    const auto runs = store.runs(session);
    REQUIRE(runs.size() == 2);
    CHECK(storedWord(runs[0].status) == "ok");
    CHECK(storedWord(runs[1].status) == "cancelled");
    CHECK_THAT(runs[1].error, Catch::Contains("cancelled by the user"));
}

TEST_CASE("a session whose every run the user cancelled one by one is stored as cancelled",
          "[control][cancel]") {
    const TemporaryFolder folder;
    SessionStore store(folder.path / "s.db");
    UntilCancelled scheduler;
    LocalTransport transport;
    SessionRunnerSettings settings = settingsIn(folder);
    SessionRunner runner(store, scheduler, transport, settings, [](const std::string&) {});
    // Each run, once submitted, is cancelled as the Runs tab's "Cancel run" does (by its run id).
    scheduler.on_submit = [&](const std::string&) {
        for (const RunRow& run : store.runs(store.sessions().front().id))
            runner.requestCancel(run.id);
    };
    const SessionOutcome outcome = runner.run(parsePlanText(kTwoRuns, "cancel.toml"));
    CHECK(scheduler.submitted == 2);
    CHECK(outcome.failed_runs == 0);
    CHECK(outcome.cancelled_runs == 2);
    CHECK(storedWord(store.session(outcome.session_id)->status) == "cancelled");
    for (const RunRow& run : store.runs(outcome.session_id))
        CHECK(storedWord(run.status) == "cancelled");
}

TEST_CASE("a job cancelled by someone else than the user (scancel on the cluster) still fails the session",
          "[control][cancel]") {
    const TemporaryFolder folder;
    SessionStore store(folder.path / "s.db");
    UntilCancelled scheduler;
    scheduler.on_submit = [&](const std::string& id) { scheduler.cancelled.insert(id); };
    LocalTransport transport;
    SessionRunner runner(store, scheduler, transport, settingsIn(folder), [](const std::string&) {});
    const SessionOutcome outcome = runner.run(parsePlanText(kTwoRuns, "cancel.toml"));
    CHECK(outcome.failed_runs == 2);
    CHECK(outcome.cancelled_runs == 0);
    CHECK(storedWord(store.session(outcome.session_id)->status) == "failed");
}

TEST_CASE("run folders on this machine are stored absolute, though the console's --out was relative",
          "[control]") {
    const TemporaryFolder folder;
    const auto was = std::filesystem::current_path();
    std::filesystem::current_path(folder.path);
    SessionStore store(folder.path / "s.db");
    ConsoleOptions options;
    options.out_dir = "out/quickstart"; // as `make quickstart` gives it
    options.engine = "engine";
    Site site = localSite(options);
    UntilCancelled scheduler;
    SessionRunner runner(store, scheduler, *site.transport, site.settings, [](const std::string&) {});
    scheduler.on_submit = [&](const std::string&) { runner.requestCancelAll(); };
    const SessionOutcome outcome = runner.run(parsePlanText(kTwoRuns, "cancel.toml"));
    std::filesystem::current_path(was);
    const auto runs = store.runs(outcome.session_id);
    REQUIRE(runs.size() == 1);
    INFO(runs[0].run_dir);
    CHECK(std::filesystem::path(runs[0].run_dir).is_absolute());
    CHECK(runs[0].run_dir.rfind((folder.path / "out/quickstart").string(), 0) == 0);
}
