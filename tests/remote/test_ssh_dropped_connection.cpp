// SshTransport across a dropped connection: the test cluster's real sshd (tests/cluster/cluster_fixture.sh,
// started by CTest's fixture) stopped and started again under a growing file followed with no byte lost or
// doubled, a session whose stored records equal the remote file, and a command cut off, not run again.
#include "file_text.h"
#include "metric_stream_parser.h"
#include "run_folder.h"
#include "run_plan.h"
#include "session_runner.h"
#include "session_store.h"
#include "shell_words.h"
#include "slurm_scheduler.h"
#include "ssh_test_cluster.h"
#include "ssh_test_support.h"
#include "ssh_transport.h"
#include "temporary_folder.h"

#include <algorithm>
#include <arpa/inet.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <spawn.h>
#include <sstream>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace scalebench;
using Catch::Matchers::Contains;
using namespace std::chrono_literals;

extern char** environ;

namespace {

// ---- The fixture's sshd, stopped and started again ------------------------------------------------------

bool accepts(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
    close(fd);
    return ok;
}

// The fixture's sshd (its live line in DIR/pids). stop() kills it and its per-connection processes, so that
// open connections drop; start() runs its command line again as cluster_fixture.sh does (setsid, output
// appended to its log) and records it in DIR/pids, where `cluster_fixture.sh stop` finds it. A stopped sshd
// is started again when this object goes, so that the cluster is left as found.
class FixtureSshd {
  public:
    explicit FixtureSshd(const TestCluster& cluster)
        : dir_(cluster.dir), port_(std::stoi(cluster["SSH_PORT"])), pid_(fixturePid("sshd")) {
        // NUL-separated arguments; but sshd overwrites them with its process title, one string:
        // "sshd: /usr/sbin/sshd -D -f DIR/ssh/sshd_config -E DIR/log/sshd.log [listener] 0 of 10-100
        // startups". The fixture's DIR holds no spaces, so splitting the title at spaces gives the arguments
        // back.
        std::string cmdline = fileText(std::filesystem::path("/proc") / std::to_string(pid_) / "cmdline");
        const std::string title = "sshd: ";
        if (cmdline.rfind(title, 0) == 0) {
            cmdline = cmdline.substr(title.size(), cmdline.find(" [listener]") - title.size());
            std::replace(cmdline.begin(), cmdline.end(), ' ', '\0');
        }
        std::istringstream fields(cmdline);
        for (std::string argument; std::getline(fields, argument, '\0');)
            if (!argument.empty()) arguments_.push_back(argument);
        INFO(cmdline);
        REQUIRE(arguments_.size() > 1);
        REQUIRE(arguments_[0] == "/usr/sbin/sshd");
    }
    FixtureSshd(const FixtureSshd&) = delete;
    FixtureSshd& operator=(const FixtureSshd&) = delete;
    ~FixtureSshd() {
        if (stopped_) start();
    }

    void stop() {
        std::vector<pid_t> doomed = descendants(pid_);
        doomed.push_back(pid_);
        killAndWait(doomed);
        stopped_ = true;
    }

    void start() {
        std::vector<char*> argv;
        for (auto& argument : arguments_)
            argv.push_back(argument.data());
        argv.push_back(nullptr);
        const std::string log = (dir_ / "log" / "sshd.log").string();
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
        posix_spawn_file_actions_addclosefrom_np(&actions, 3); // not our sockets, not ctest's pipes
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
        pid_t pid = 0;
        const int error = posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        if (error != 0) return; // the destructor calls this too: no REQUIRE here; the tests see sshd missing
        pid_ = pid;
        std::ofstream(dir_ / "pids", std::ios::app) << "sshd " << pid << " " << startTime(pid) << "\n";
        stopped_ = false;
        const auto deadline = std::chrono::steady_clock::now() + 10s;
        while (!accepts(port_) && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(20ms);
    }

  private:
    std::filesystem::path dir_;
    int port_ = 0;
    pid_t pid_ = 0;
    std::vector<std::string> arguments_;
    bool stopped_ = false;
};

} // namespace

TEST_CASE("a growing file is followed across a dropped connection: no byte lost, none doubled",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    const SshSettings settings = settingsFor(cluster);
    SshTransport ssh(settings);
    const std::string path = cluster["SSH_WORKDIR"] + "/growing-" + std::to_string(getpid()) + ".log";
    const RemovedAtEnd removed{path};
    std::ofstream writer(path, std::ios::binary | std::ios::app); // written here, where the sshd runs
    int lines = 0;
    const auto append = [&](int count) {
        for (int i = 0; i < count; ++i, ++lines)
            writer << "line " << lines << " " << std::string(lines % 97, 'x') << "\n";
        writer.flush();
    };
    std::string seen; // every chunk readFrom returned, in order
    const auto readNew = [&] {
        for (;;) {
            const auto chunk = ssh.readFrom(path, static_cast<std::int64_t>(seen.size()), 1000);
            REQUIRE(chunk.has_value());
            if (chunk->empty()) return;
            seen += *chunk;
        }
    };

    for (int i = 0; i < 10; ++i) {
        append(20);
        readNew();
    }
    FixtureSshd sshd(cluster);
    sshd.stop(); // the connection drops; the file keeps growing
    append(50);
    {
        std::jthread restart([&] {
            std::this_thread::sleep_for(1200ms);
            sshd.start();
        });
        // Meets the dropped connection, reconnects with back-off (0.5 s: refused, then 1 s more: up), reads
        // again.
        const auto chunk = ssh.readFrom(path, static_cast<std::int64_t>(seen.size()), 1000);
        REQUIRE(chunk.has_value());
        seen += *chunk;
    }
    CHECK(ssh.reconnectCount() == 1);
    for (int i = 0; i < 10; ++i) {
        append(20);
        readNew();
    }
    writer.close();
    readNew();
    const std::string written = fileText(path);
    CHECK(seen.size() == written.size());
    CHECK(seen == written);
    CHECK(SshTransport(settings).run("true").exit_status == 0); // the restarted sshd takes new connections
}

TEST_CASE(
    "a session over SSH survives a dropped connection: the stored records equal the remote file exactly",
    "[integration][ssh][slurm]") {
    const TestCluster cluster = testCluster();
    SshTransport ssh(settingsFor(cluster));
    ClusterSettings slurm_settings;
    slurm_settings.tasks_per_node = 1;
    slurm_settings.exclusive = false;
    SlurmScheduler slurm(ssh, slurm_settings);
    TemporaryFolder folder;
    const std::filesystem::path db = folder.path / "sessions.db";
    const std::string out_dir = cluster["SSH_WORKDIR"] + "/dropped-" + std::to_string(getpid());
    const RemovedAtEnd removed{out_dir};
    const RunPlan plan =
        parsePlanText("name = \"dropped\"\n[[run]]\nworkload = \"resnet20\"\n"
                      "dataset = \"synthetic-cifar\"\nranks = 2\nsteps = 120\nbatch_per_rank = 8\n"
                      "threads_per_rank = 1\n",
                      "dropped.toml");
    SessionStore store(db);
    std::vector<std::string> progress;
    SessionRunner runner(
        store, slurm, ssh,
        {{slurm.machine(), SCALEBENCH_ENGINE_PATH, std::filesystem::path(out_dir).string(), {}}, 200ms, 4},
        [&](const std::string& line) { progress.push_back(line); });

    FixtureSshd sshd(cluster);
    std::int64_t stored_before_drop = 0;
    std::jthread dropper([&] {
        // Once some records are stored, cut every ssh connection, and bring sshd back 2 s later.
        const auto deadline = std::chrono::steady_clock::now() + 120s;
        while (stored_before_drop < 10 && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(100ms);
            SessionStore reader(db);
            for (const auto& run : reader.runs(1))
                stored_before_drop = run.step_count;
        }
        sshd.stop();
        std::this_thread::sleep_for(2s);
        sshd.start();
    });
    const SessionOutcome outcome = runner.run(plan);
    dropper.join();
    std::string printed;
    for (const auto& line : progress)
        printed += line + "\n";
    INFO(printed);
    CHECK(stored_before_drop >= 10);
    CHECK(ssh.reconnectCount() >= 1);
    REQUIRE(outcome.failed_runs == 0);

    const auto runs = store.runs(outcome.session_id);
    REQUIRE(runs.size() == 1);
    MetricStreamParser parser;
    std::vector<StepRecord> remote;
    for (const auto& record : parser.feed(fileText(metricFile(runs[0].run_dir, 0))))
        if (auto* step = std::get_if<StepRecord>(&record)) remote.push_back(*step);
    const auto stored = store.steps(runs[0].id);
    REQUIRE(remote.size() == 120);
    REQUIRE(stored.size() == remote.size());
    for (std::size_t i = 0; i < stored.size(); ++i) {
        CHECK(stored[i].step == remote[i].step);
        CHECK(stored[i].loss == remote[i].loss);
    }
}

TEST_CASE("a command cut off by a dropped connection is not run again, and the next one reconnects",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    SshTransport ssh(settingsFor(cluster));
    const std::string counter = cluster["SSH_WORKDIR"] + "/runs-" + std::to_string(getpid());
    const RemovedAtEnd removed{counter};
    FixtureSshd sshd(cluster);
    std::string error;
    {
        std::jthread drop([&] {
            const auto deadline = std::chrono::steady_clock::now() + 10s;
            while (fileText(counter).empty() &&
                   std::chrono::steady_clock::now() < deadline) // the command has started
                std::this_thread::sleep_for(10ms);
            sshd.stop();
            sshd.start();
        });
        error = errorOf([&] {
            ssh.run(std::string("echo ran >> ").append(shellQuote(counter)).append("; sleep 3; echo done"));
        });
    }
    CHECK_THAT(error, Contains("not rerun") && Contains(cluster.hostPort()));
    CHECK(fileText(counter) == "ran\n");
    CHECK(ssh.run("echo again").out == "again\n");
    CHECK(ssh.reconnectCount() == 1);
}
