// Connection kills during streamed runs on the test cluster, direct and through its bastion: the processes
// that carry scalebench's SSH connection (the head sshd's session of it; through the bastion also the
// bastion's session and the jump's `ssh -W`) killed by PID at random moments of a session, from the
// submission of its four Slurm jobs to the end of their streams. Every run ends with exactly its own records:
// none lost, none doubled, none of another run. The jobs replay recorded engine streams
// (tests/support/replayed_stream.h), one seed each, so that a record in the wrong run shows.
// SCALEBENCH_CONNECTION_KILLS sets the kills per path (make test: 6; make soak: 100).
#include "cluster_environment.h"
#include "replayed_stream.h"
#include "run_folder.h"
#include "session_runner.h"
#include "session_store.h"
#include "slurm_scheduler.h"
#include "ssh_test_support.h"
#include "ssh_transport.h"
#include "temporary_folder.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <random>

using namespace scalebench;
using namespace std::chrono_literals;

namespace {

constexpr int kRuns = 4;                // jobs a session, all streaming at once: job k replays seed k
constexpr double kLinesPerSecond = 100; // 806 lines: 8 s of streaming a job

// What a kill ends: the per-connection processes of a fixture sshd ("sshd", "bastion-sshd"; the listener
// lives on and takes the reconnection), or "jump": this process's `ssh -W` to the head.
std::vector<pid_t> victims(const std::string& what) {
    return what == "jump" ? descendants(getpid()) : descendants(fixturePid(what));
}

SshSettings directSettings(const std::map<std::string, std::string>& env) {
    SshSettings settings;
    settings.host = env.at("SSH_HOST");
    settings.user = env.at("SSH_USER");
    settings.port = std::stoi(env.at("SSH_PORT"));
    settings.identity_files = {env.at("SSH_KEY")};
    settings.known_hosts_file = env.at("SSH_KNOWN_HOSTS");
    settings.config_file = "";
    return settings;
}

RunPlan replayPlan() {
    std::string text = "name = \"connection-kills\"\n";
    for (int seed = 1; seed <= kRuns; ++seed)
        text += fmt::format("[[run]]\nworkload = \"resnet20\"\ndataset = \"synthetic-cifar\"\nranks = 1\n"
                            "steps = 400\nbatch_per_rank = 4\nthreads_per_rank = 1\nseed = {}\n",
                            seed);
    return parsePlanText(text, "connection-kills.toml");
}

// Jobs of the store's latest session that Slurm has taken (their job ids stored).
int submitted(const std::filesystem::path& db) {
    SessionStore reader(db);
    std::int64_t latest = 0;
    for (const auto& session : reader.sessions())
        latest = std::max(latest, session.id);
    int jobs = 0;
    for (const auto& run : reader.runs(latest))
        jobs += run.job_id.empty() ? 0 : 1;
    return jobs;
}

struct ConnectionKillFigures {
    int kills = 0;
    int during_submissions = 0; // kills that came before the session's jobs were all submitted
    std::map<std::string, int> by_victim;
    int sessions = 0, failed_runs = 0;
    StoreTally tally;
};

} // namespace

TEST_CASE("connection kills at random moments of streamed runs on the test cluster, direct and through the "
          "bastion, lose no record, double none and mix no runs",
          "[integration][ssh][slurm][connection-kills]") {
    const auto env = clusterEnvironment();
    REQUIRE(env.contains("BASTION_PORT"));
    unsetenv("SSH_AUTH_SOCK"); // the tests choose their keys: no agent of whoever runs them
    const int wanted = countFromEnvironment("SCALEBENCH_CONNECTION_KILLS", 6);
    const bool through_bastion = GENERATE(false, true);
    const std::string path = through_bastion ? "through the bastion" : "direct";
    INFO(path);
    TemporaryFolder folder;
    SshTransport ssh(through_bastion ? jumpSettings(env, folder.path) : directSettings(env));
    ClusterSettings cluster;
    cluster.tasks_per_node = 1;
    cluster.exclusive = false;
    SlurmScheduler slurm(ssh, cluster);
    // The jobs' folders and the replay where the cluster's user and nodes see them (the nodes share this
    // machine's files).
    const std::filesystem::path work = env.at("SSH_WORKDIR") + "/connection-kills-" +
                                       std::to_string(getpid()) + (through_bastion ? "-b" : "-d");
    REQUIRE(ssh.run("mkdir -p " + shellQuote(work.string())).exit_status == 0);
    struct Removed {
        std::filesystem::path path;
        ~Removed() {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    } removed{work};
    const auto engine = writeReplayEngine(work, kLinesPerSecond);
    const auto recordings = readRecordings();
    const RunPlan plan = replayPlan();
    const std::vector<std::string> targets = through_bastion
                                                 ? std::vector<std::string>{"bastion-sshd", "sshd", "jump"}
                                                 : std::vector<std::string>{"sshd"};
    std::mt19937 random(static_cast<unsigned>(countFromEnvironment("SCALEBENCH_KILLS_SEED", 20261126)));
    std::uniform_real_distribution<double> pause_s(0.2, 1.2);
    std::uniform_real_distribution<double> submitting_s(0.0, 0.3);

    const std::filesystem::path db = folder.path / "sessions.db";
    SessionStore store(db);
    ConnectionKillFigures figures;
    std::string printed;
    while (figures.kills < wanted) {
        std::vector<std::string> progress;
        SessionRunner runner(store, slurm, ssh,
                             {{slurm.machine(), engine.string(), (work / "out").string(), {}}, 200ms, kRuns},
                             [&](const std::string& line) { progress.push_back(line); });
        std::atomic<bool> over = false;
        std::jthread killer([&] {
            // At random moments from the session's start (its runs' folders made and jobs submitted) to its
            // end.
            // The first within the time the session's submissions take (a few tenths of a second here).
            bool first = true;
            while (!over && figures.kills < wanted) {
                std::this_thread::sleep_for(
                    std::chrono::duration<double>(first ? submitting_s(random) : pause_s(random)));
                first = false;
                if (over) break;
                const std::string& target = targets[random() % targets.size()];
                const auto doomed = victims(target);
                if (doomed.empty()) continue; // between a drop and its reconnection: nothing to kill
                const int reconnects = ssh.reconnectCount();
                killAndWait(doomed);
                ++figures.kills;
                figures.during_submissions += submitted(db) < kRuns ? 1 : 0;
                ++figures.by_victim[target];
                // The next kill is for the next connection: once this one has been made again.
                while (!over && ssh.reconnectCount() == reconnects)
                    std::this_thread::sleep_for(20ms);
            }
        });
        const SessionOutcome outcome = runner.run(plan);
        over = true;
        killer.join();
        ++figures.sessions;
        figures.failed_runs += outcome.failed_runs;
        for (const auto& line : progress)
            printed += line + "\n";
        const auto runs = store.runs(outcome.session_id);
        REQUIRE(runs.size() == kRuns);
        for (std::size_t k = 0; k < runs.size(); ++k) {
            INFO(runs[k].name << ": " << runs[k].status << " " << runs[k].error);
            CHECK(storedWord(runs[k].status) == "ok");
            const auto& recording = recordings.at(static_cast<std::int64_t>(k) + 1);
            figures.tally.add(compareWithRecording(store, runs[k].id, recording));
            // Its own job's stream, as the job wrote it in its folder.
            REQUIRE_FALSE(runs[k].run_dir.empty());
            MetricStreamParser parser;
            std::int64_t written = 0;
            for (const auto& record : parser.feed(fileText(metricFile(runs[k].run_dir, 0))))
                written += std::holds_alternative<StepRecord>(record) ? 1 : 0;
            CHECK(written == static_cast<std::int64_t>(recording.steps.size()));
        }
    }
    INFO(printed);

    std::string victims_line;
    for (const auto& [victim, count] : figures.by_victim)
        victims_line += fmt::format("{}{} {}", victims_line.empty() ? "" : ", ", count, victim);
    reportFigure(fmt::format("connection kills, {}: {} kills ({}; {} before the session's jobs were all "
                             "submitted) in {} sessions of {} streaming jobs, {} reconnections",
                             path, figures.kills, victims_line, figures.during_submissions, figures.sessions,
                             kRuns, ssh.reconnectCount()));
    reportFigure(fmt::format("  runs: {}, failed {}, whole {}; steps stored {}, lost {}, doubled {}, another "
                             "run's {}, runs with evaluations not their own {}",
                             figures.tally.runs, figures.failed_runs, figures.tally.complete_runs,
                             figures.tally.stored, figures.tally.lost, figures.tally.doubled,
                             figures.tally.foreign, figures.tally.evals_wrong));

    CHECK(figures.kills >= wanted);
    CHECK(figures.failed_runs == 0);
    CHECK(figures.tally.complete_runs == figures.tally.runs);
    CHECK(figures.tally.lost == 0);
    CHECK(figures.tally.doubled == 0);
    CHECK(figures.tally.foreign == 0);
    CHECK(figures.tally.evals_wrong == 0);
    CHECK(ssh.reconnectCount() >= figures.kills - figures.sessions); // a session's last kill may meet its end
}
