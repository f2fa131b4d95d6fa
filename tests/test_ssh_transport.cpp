// SshTransport against the test cluster's real sshd (tests/cluster/cluster_fixture.sh, started by CTest's
// fixture): commands, SFTP round trips, host key checking, refused logins, and a growing file followed across
// a dropped connection. The sshd runs on this machine, so the tests write and check its files directly.
#include "child_process.h"
#include "file_text.h"
#include "local_transport.h"
#include "metric_stream_parser.h"
#include "session_runner.h"
#include "session_store.h"
#include "shell_words.h"
#include "slurm_scheduler.h"
#include "ssh_test_support.h"
#include "ssh_transport.h"
#include "temporary_folder.h"

#include <algorithm>
#include <arpa/inet.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <netinet/in.h>
#include <random>
#include <spawn.h>
#include <sstream>
#include <sys/socket.h>
#include <thread>

using namespace scalebench;
using Catch::Matchers::Contains;
using namespace std::chrono_literals;

extern char** environ;

namespace {
// What cluster.env says about the cluster the CTest fixture started (SSH_HOST, SSH_PORT, SSH_USER, SSH_KEY,
// ...).
struct TestCluster {
    std::filesystem::path dir;
    std::map<std::string, std::string> env;
    const std::string& operator[](const std::string& key) const { return env.at(key); }
    std::string hostPort() const { return env.at("SSH_HOST") + ":" + env.at("SSH_PORT"); }
};

TestCluster testCluster() {
    const char* dir = std::getenv("SCALEBENCH_TEST_CLUSTER");
    REQUIRE(dir != nullptr);
    TestCluster cluster{dir, {}};
    std::ifstream in(cluster.dir / "cluster.env");
    REQUIRE(in);
    std::string line;
    while (std::getline(in, line)) {
        const auto equals = line.find('=');
        if (line.empty() || line[0] == '#' || equals == std::string::npos) continue;
        std::string value = line.substr(equals + 1);
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
            value = value.substr(1, value.size() - 2);
        cluster.env[line.substr(0, equals)] = value;
    }
    unsetenv("SSH_AUTH_SOCK"); // the tests choose their keys: no agent of whoever runs them
    return cluster;
}

SshSettings settingsFor(const TestCluster& cluster) {
    SshSettings settings;
    settings.host = cluster["SSH_HOST"];
    settings.user = cluster["SSH_USER"];
    settings.port = std::stoi(cluster["SSH_PORT"]);
    settings.identity_files = {cluster["SSH_KEY"]};
    settings.known_hosts_file = cluster["SSH_KNOWN_HOSTS"];
    settings.config_file = ""; // not the ~/.ssh/config of whoever runs the tests
    return settings;
}

// "SHA256:..." of a public key file, as ssh-keygen prints it ("256 SHA256:... comment (ED25519)").
std::string fingerprintOf(const std::filesystem::path& public_key) {
    std::istringstream words(runHere(std::string("ssh-keygen -lf ").append(shellQuote(public_key.string()))));
    std::string bits, fingerprint;
    words >> bits >> fingerprint;
    REQUIRE_THAT(fingerprint, Catch::StartsWith("SHA256:"));
    return fingerprint;
}

// Removes a file the test made in the sshd's folder.
struct RemovedAtEnd {
    std::filesystem::path path;
    ~RemovedAtEnd() {
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
    }
};

// --- the fixture's sshd, stopped and started again
// ------------------------------------------------------------

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

TEST_CASE(
    "a command over ssh gives its exit status, output and error output, and quoted words arrive literally",
    "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    SshTransport ssh(settingsFor(cluster));
    CHECK(ssh.describe() == cluster["SSH_USER"] + "@" + cluster.hostPort());

    const CommandResult r = ssh.run("echo out; echo err >&2; exit 3");
    CHECK(r.exit_status == 3);
    CHECK(r.out == "out\n");
    CHECK(r.err == "err\n");
    CHECK(ssh.run("whoami").out == cluster["SSH_USER"] + "\n");
    CHECK(ssh.run("kill -TERM $$").exit_status == 128 + 15);
    CHECK(ssh.run("kill -KILL $$").exit_status == 128 + 9);

    const std::string word = "it's a \"test\" $HOME `id` $(id) ; | & < > * ? [x] {a,b} ~ # ! \\ \t end";
    const CommandResult printed = ssh.run(std::string("printf '%s' ").append(shellQuote(word)));
    CHECK(printed.exit_status == 0);
    CHECK(printed.out == word);

    // Both streams at once, larger than the channel's window: neither blocks the other.
    const CommandResult big =
        ssh.run("head -c 3000000 /dev/zero | tr '\\0' o; head -c 2000000 /dev/zero | tr '\\0' e >&2");
    CHECK(big.out == std::string(3000000, 'o'));
    CHECK(big.err == std::string(2000000, 'e'));

    // A probe before every operation (keepalive_s = 0) does not mistake a healthy connection for a dropped
    // one.
    SshSettings probing = settingsFor(cluster);
    probing.keepalive_s = 0;
    SshTransport probed(probing);
    for (int i = 0; i < 3; ++i)
        CHECK(probed.run("echo ok").out == "ok\n");
    CHECK(probed.reconnectCount() == 0);
}

TEST_CASE("files go up and come back over SFTP, a file reads from any offset, a missing one as nothing",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    SshTransport ssh(settingsFor(cluster));
    TemporaryFolder folder;
    std::string content(1 << 20, '\0'); // 1 MiB of binary bytes, NULs included
    std::mt19937 random(42);
    std::generate(content.begin(), content.end(), [&] { return static_cast<char>(random() & 0xff); });
    spit(folder.path / "up.bin", content);
    const std::string remote = cluster["SSH_WORKDIR"] + "/roundtrip-" + std::to_string(getpid()) + ".bin";
    const RemovedAtEnd removed{remote};

    ssh.upload(folder.path / "up.bin", remote);
    CHECK(fileText(remote) == content); // the sshd's machine is this one
    ssh.download(remote, folder.path / "down.bin");
    CHECK(fileText(folder.path / "down.bin") == content);

    CHECK(ssh.readFrom(remote, 0, 100) == content.substr(0, 100));
    CHECK(ssh.readFrom(remote, 500000, 300000) == content.substr(500000, 300000));
    CHECK(ssh.readFrom(remote, 1000000, 1 << 20) == content.substr(1000000)); // what is left: 48576 bytes
    CHECK(ssh.readFrom(remote, 1 << 20, 100) == std::string());
    CHECK_FALSE(ssh.readFrom(cluster["SSH_WORKDIR"] + "/no-such-file", 0, 100).has_value());
    CHECK_FALSE(ssh.readFrom("/no/such/folder/file", 0, 100).has_value());

    const std::string error = errorOf([&] { ssh.upload(folder.path / "up.bin", "/no/such/folder/file"); });
    CHECK_THAT(error,
               Contains(cluster.hostPort()) && Contains("/no/such/folder/file") && Contains("No such file"));
    CHECK_THAT(errorOf([&] { ssh.download("/no/such/file", folder.path / "x"); }), Contains("/no/such/file"));
}

TEST_CASE("host keys: a key in known_hosts, plain or hashed, is accepted", "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    CHECK(SshTransport(settingsFor(cluster)).run("true").exit_status == 0);

    TemporaryFolder folder;
    const auto hashed = folder.path / "known_hosts";
    std::filesystem::copy_file(cluster["SSH_KNOWN_HOSTS"], hashed);
    runHere(std::string("ssh-keygen -q -H -f ").append(shellQuote(hashed.string())));
    REQUIRE_THAT(fileText(hashed), Catch::StartsWith("|1|"));
    SshSettings settings = settingsFor(cluster);
    settings.known_hosts_file = hashed.string();
    CHECK(SshTransport(settings).run("true").exit_status == 0);
}

TEST_CASE("host keys: an unknown host is refused with its fingerprint, or added when trusted on first use",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    const std::string host_key = fingerprintOf(cluster.dir / "ssh" / "ssh_host_ed25519_key.pub");
    TemporaryFolder folder;
    SshSettings settings = settingsFor(cluster);
    settings.known_hosts_file = (folder.path / "empty_known_hosts").string();
    spit(settings.known_hosts_file, "");

    const std::string refused = errorOf([&] { SshTransport ssh(settings); });
    CHECK_THAT(refused, Contains("unknown") && Contains("SHA256:") && Contains(host_key) &&
                            Contains(cluster.hostPort()) && Contains(settings.known_hosts_file));

    settings.trust_on_first_use = true;
    CHECK(SshTransport(settings).run("true").exit_status == 0);
    const std::string entry =
        std::string("[").append(cluster["SSH_HOST"]).append("]:").append(cluster["SSH_PORT"]);
    CHECK_THAT(fileText(settings.known_hosts_file), Contains(entry + " ssh-ed25519 "));
    settings.trust_on_first_use = false; // the entry written is a real one
    CHECK(SshTransport(settings).run("true").exit_status == 0);

    // Trust on first use also creates a known_hosts file, and its folder, that do not exist yet.
    settings.trust_on_first_use = true;
    settings.known_hosts_file = (folder.path / "new" / "known_hosts").string();
    CHECK(SshTransport(settings).run("true").exit_status == 0);
    CHECK_FALSE(fileText(settings.known_hosts_file).empty());
}

TEST_CASE("host keys: a changed key is refused, trust on first use or not, with both fingerprints",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    const std::string host_key = fingerprintOf(cluster.dir / "ssh" / "ssh_host_ed25519_key.pub");
    TemporaryFolder folder;
    const auto impostor = newKey(folder.path, "other_host_key");
    const std::string recorded = fingerprintOf(impostor.string() + ".pub");
    const auto known_hosts = folder.path / "known_hosts";
    spit(known_hosts, std::string("[")
                          .append(cluster["SSH_HOST"])
                          .append("]:")
                          .append(cluster["SSH_PORT"])
                          .append(" ")
                          .append(keyFieldsOf(impostor.string() + ".pub"))
                          .append("\n"));
    runHere(std::string("ssh-keygen -q -H -f ").append(shellQuote(known_hosts.string())));

    SshSettings settings = settingsFor(cluster);
    settings.known_hosts_file = known_hosts.string();
    for (const bool trust : {false, true}) {
        settings.trust_on_first_use = trust;
        const std::string refused = errorOf([&] { SshTransport ssh(settings); });
        CHECK_THAT(refused, Contains("CHANGED") && Contains("man-in-the-middle") && Contains(host_key) &&
                                Contains(recorded) && Contains(cluster.hostPort()));
    }
    CHECK(fileText(known_hosts).find(cluster["SSH_PORT"]) ==
          std::string::npos); // still only the hashed entry
}

TEST_CASE("with no key file named, the ssh agent's key logs in", "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    TemporaryFolder folder;
    const std::string socket = (folder.path / "agent.sock").string();
    // A real ssh-agent of this test's own, in the foreground, stopped by PID when the test ends.
    ChildProcess agent({"ssh-agent", "-D", "-a", socket}, (folder.path / "agent.out").string(),
                       (folder.path / "agent.err").string());
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (!std::filesystem::exists(socket) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(20ms);
    REQUIRE(std::filesystem::exists(socket));
    const CommandResult added = LocalTransport().run("SSH_AUTH_SOCK=" + shellQuote(socket) + " ssh-add " +
                                                     shellQuote(cluster["SSH_KEY"]));
    INFO(added.err);
    REQUIRE(added.exit_status == 0);

    SshSettings settings = settingsFor(cluster);
    settings.identity_files.clear(); // nothing but the agent (this machine's ~/.ssh has no keys for sbtest)
    setenv("SSH_AUTH_SOCK", socket.c_str(), 1);
    std::string out;
    try {
        out = SshTransport(settings).run("echo through the agent").out;
    } catch (...) {
        unsetenv("SSH_AUTH_SOCK");
        throw;
    }
    unsetenv("SSH_AUTH_SOCK");
    CHECK(out == "through the agent\n");
}

TEST_CASE("a login with a key the server does not know is refused, naming user, host and the keys tried",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    TemporaryFolder folder;
    const auto stranger = newKey(folder.path, "stranger");
    SshSettings settings = settingsFor(cluster);
    settings.identity_files = {stranger.string(), (folder.path / "absent").string()};
    const std::string refused = errorOf([&] { SshTransport ssh(settings); });
    CHECK_THAT(refused,
               Contains(std::string("refused the login as '").append(cluster["SSH_USER"]).append("'")) &&
                   Contains(cluster.hostPort()) && Contains(stranger.string() + " (refused)") &&
                   Contains((folder.path / "absent").string() + " (missing)"));
}

TEST_CASE("an encrypted key is unlocked with the passphrase callback", "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    TemporaryFolder folder;
    const auto key = newKey(folder.path, "encrypted", "correct horse");
    const ExtraAuthorizedKey authorized(key.string() + ".pub");
    SshSettings settings = settingsFor(cluster);
    settings.identity_files = {key.string()};

    CHECK_THAT(errorOf([&] { SshTransport ssh(settings); }),
               Contains(key.string() + " (encrypted, and no passphrase was given"));
    settings.passphrase = [](const std::string&) { return std::string("wrong"); };
    CHECK_THAT(errorOf([&] { SshTransport ssh(settings); }), Contains("wrong passphrase"));

    std::vector<std::string> prompts;
    settings.passphrase = [&](const std::string& prompt) {
        prompts.push_back(prompt);
        return std::string("correct horse");
    };
    CHECK(SshTransport(settings).run("true").exit_status == 0);
    REQUIRE(prompts.size() == 1);
    CHECK_THAT(prompts[0], Contains(key.string()));
}

TEST_CASE("an ssh config's Host alias gives host name, user, port and key, and explicit settings win",
          "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    TemporaryFolder folder;
    const auto config = folder.path / "config";
    spit(config, std::string("Host sb-head\n  HostName ")
                     .append(cluster["SSH_HOST"])
                     .append("\n  Port ")
                     .append(cluster["SSH_PORT"])
                     .append("\n  User ")
                     .append(cluster["SSH_USER"])
                     .append("\n  IdentityFile ")
                     .append(cluster["SSH_KEY"])
                     .append("\n"));
    SshSettings settings;
    settings.host = "sb-head";
    settings.known_hosts_file = cluster["SSH_KNOWN_HOSTS"];
    settings.config_file = config.string();
    SshTransport ssh(settings);
    CHECK(ssh.describe() == cluster["SSH_USER"] + "@" + cluster.hostPort());
    CHECK(ssh.run("whoami").out == cluster["SSH_USER"] + "\n");

    settings.port = 1; // over the config's Port: nothing listens there
    CHECK_THAT(errorOf([&] { SshTransport refused(settings); }), Contains(cluster["SSH_HOST"] + ":1"));
}

TEST_CASE("nothing listening: the connection fails at once with the host and port", "[integration][ssh]") {
    const TestCluster cluster = testCluster();
    SshSettings settings = settingsFor(cluster);
    settings.port = 1; // nothing listens on tcpmux
    settings.connect_timeout_s = 10;
    const auto start = std::chrono::steady_clock::now();
    CHECK_THAT(errorOf([&] { SshTransport ssh(settings); }),
               Contains(cluster["SSH_HOST"] + ":1") && Contains("cannot connect"));
    // "At once": a refused connection is not retried or waited out. Loopback refuses in well under a
    // millisecond; the bound is a fifth of the connect timeout, so a busy machine cannot make it flaky while
    // a transport that waited for the timeout (or retried after a pause) fails.
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO("failed after " << seconds << " s");
    CHECK(seconds < settings.connect_timeout_s / 5.0);
}

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
    SessionRunner runner(store, slurm, ssh, {SCALEBENCH_ENGINE_PATH, out_dir, 200ms, "test", 4},
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

TEST_CASE("readFrom throughput and run latency over loopback (printed, not asserted)",
          "[integration][ssh][measure]") {
    const TestCluster cluster = testCluster();
    SshTransport ssh(settingsFor(cluster));
    constexpr std::size_t kFileBytes = 50'000'000;
    constexpr std::size_t kChunkBytes = 1 << 20; // as MetricFileTail reads
    std::string content(kFileBytes, '\0');
    std::mt19937 random(7);
    std::generate(content.begin(), content.end(), [&] { return static_cast<char>(random() & 0xff); });
    const std::string path = cluster["SSH_WORKDIR"] + "/throughput-" + std::to_string(getpid()) + ".bin";
    const RemovedAtEnd removed{path};
    spit(path, content);
    using Clock = std::chrono::steady_clock;
    const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };

    REQUIRE(ssh.readFrom(path, 0, kChunkBytes)); // warm-up
    std::string read;
    read.reserve(kFileBytes);
    const auto start = Clock::now();
    while (read.size() < kFileBytes) {
        const auto chunk = ssh.readFrom(path, static_cast<std::int64_t>(read.size()), kChunkBytes);
        REQUIRE(chunk.has_value());
        REQUIRE_FALSE(chunk->empty());
        read += *chunk;
    }
    const double read_s = seconds(Clock::now() - start);
    CHECK(read == content);

    TemporaryFolder folder;
    auto timed = [&](const std::function<void()>& action) {
        const auto begin = Clock::now();
        action();
        return seconds(Clock::now() - begin);
    };
    const double download_s = timed([&] { ssh.download(path, folder.path / "down.bin"); });
    const double upload_s = timed([&] { ssh.upload(folder.path / "down.bin", path + ".up"); });
    const RemovedAtEnd removed_upload{path + ".up"};
    CHECK(fileText(path + ".up") == content);

    ssh.run("true"); // warm-up
    std::vector<double> latencies_ms;
    for (int i = 0; i < 20; ++i)
        latencies_ms.push_back(1000 * timed([&] { ssh.run("true"); }));
    std::sort(latencies_ms.begin(), latencies_ms.end());
    const double median_ms = (latencies_ms[9] + latencies_ms[10]) / 2;

    const double megabytes = kFileBytes / 1e6;
    WARN("ssh over loopback: readFrom " << megabytes / read_s << " MB/s (50 MB in 1 MiB calls), download "
                                        << megabytes / download_s << " MB/s, upload " << megabytes / upload_s
                                        << " MB/s; run(\"true\") median " << median_ms << " ms (20 runs, min "
                                        << latencies_ms.front() << ", max " << latencies_ms.back() << ")");
}
