// scalebench --batch PLAN --dry-run --cluster NAME as a user runs it: each run's sbatch script and the
// engine's deployment printed without connecting to the cluster; and the engine's CMake advice when
// configured as on a cluster (SCALEBENCH_ENGINE_ONLY), which must say what to install or load there, not "run
// scripts/setup.sh".
#include "child_process.h"
#include "console_run.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <arpa/inet.h>
#include <catch2/catch.hpp>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

using namespace scalebench;

namespace {
// A loopback TCP port that listens but never answers: a client that connects is seen, and gets no banner.
struct SilentPort {
    int fd = -1;
    int port = 0;
    SilentPort() {
        fd = socket(AF_INET, SOCK_STREAM, 0);
        REQUIRE(fd >= 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        REQUIRE(listen(fd, 4) == 0);
        socklen_t size = sizeof address;
        REQUIRE(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0);
        port = ntohs(address.sin_port);
    }
    ~SilentPort() { close(fd); }
    bool connectedTo() const {
        pollfd p{fd, POLLIN, 0};
        return poll(&p, 1, 0) > 0;
    }
};

std::string lineStartingWith(const std::string& text, const std::string& prefix) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind(prefix, 0) == 0) return line;
    return "";
}

void writeClusters(const std::filesystem::path& file, int port) {
    std::ofstream(file) << "[[cluster]]\n"
                        << "name = \"prod\"\n"
                        << "host = \"127.0.0.1\"\n"
                        << "port = " << port << "\n"
                        << "user = \"alice\"\n"
                        << "remote_root = \"/scratch/alice/sb\"\n"
                        << "partition = \"gpu\"\n"
                        << "tasks_per_node = 2\n"
                        << "time_limit = \"00:20:00\"\n"
                        << "setup = [\"module load cuda/12.4\"]\n"
                        << "[[cluster]]\n"
                        << "name = \"backup\"\n"
                        << "host = \"backup.example.org\"\n";
}
} // namespace

TEST_CASE("a dry run on a cluster prints each run's sbatch script and the engine's deployment, connecting to "
          "nothing",
          "[cli][dry-run]") {
    TemporaryFolder folder;
    SilentPort head;
    writeClusters(folder.path / "clusters.toml", head.port);
    const std::string db = (folder.path / "sessions.db").string();
    REQUIRE(runConsole(folder, {"--add-clusters", (folder.path / "clusters.toml").string(), "--db", db})
                .exit_status == 0);
    const std::string store_id = SessionStore(db).storeId();

    const ConsoleRun dry = runConsole(folder, {"--batch", SCALEBENCH_SOURCE_DIR "/tests/data/two_ranks.toml",
                                               "--dry-run", "--cluster", "prod", "--db", db});
    INFO(dry.printed());
    CHECK(dry.exit_status == 0);
    CHECK_FALSE(head.connectedTo()); // not even a TCP connection to the head node
    const std::string& out = dry.out;
    CHECK_THAT(out, Catch::Contains("plan 'two-ranks': 4 runs on cluster 'prod'"));
    // The deployment: the sources' hash names the engine's folder; the build job's command.
    CHECK_THAT(out, Catch::Contains("/scratch/alice/sb/engine/") &&
                        Catch::Contains("cmake -S . -B build/release $generator -DCMAKE_BUILD_TYPE=Release "
                                        "-DSCALEBENCH_ENGINE_ONLY=ON") &&
                        Catch::Contains("#SBATCH --job-name=scalebench-build-"));
    // Every run's script, in the folder runFolder() gives a session not yet created.
    const std::string session = "/scratch/alice/sb/sessions/" + store_id + "/session-N-UUID/";
    CHECK_THAT(out, Catch::Contains(session + "resnet20-synthetic-cifar-n1-r1/job.sbatch") &&
                        Catch::Contains(session + "resnet20-synthetic-cifar-n2-r2/job.sbatch"));
    CHECK_THAT(out, Catch::Contains("#SBATCH --partition=gpu") &&
                        Catch::Contains("#SBATCH --time=00:20:00") && Catch::Contains("#SBATCH --nodes=1") &&
                        Catch::Contains("#SBATCH --ntasks=2") && Catch::Contains("module load cuda/12.4"));
    const std::string launch =
        lineStartingWith(out, "srun --mpi=pmix /scratch"); // a run's (the build's: bash)
    CHECK_THAT(launch, Catch::Matches(
                           "srun --mpi=pmix /scratch/alice/sb/engine/[0-9a-f]{16}/src/build/release/trainers/"
                           "scalebench-engine .*--metrics metrics.jsonl.*"));
    CHECK_THAT(out, !Catch::Contains("mpirun -np")); // not the local command lines
    CHECK(SessionStore(db).sessions().empty());

    SECTION("a cluster the store does not know is refused, naming the ones it knows") {
        const ConsoleRun unknown =
            runConsole(folder, {"--batch", SCALEBENCH_SOURCE_DIR "/tests/data/two_ranks.toml", "--dry-run",
                                "--cluster", "nosuch", "--db", db});
        CHECK(unknown.exit_status == 2);
        CHECK_THAT(unknown.err,
                   Catch::Contains("no cluster 'nosuch'") && Catch::Contains("(known: backup, prod)"));
    }
    SECTION("--check is only for a dry run on a cluster") {
        const ConsoleRun check = runConsole(
            folder, {"--batch", SCALEBENCH_SOURCE_DIR "/tests/data/two_ranks.toml", "--check", "--db", db});
        CHECK(check.exit_status == 2);
        CHECK_THAT(check.err, Catch::Contains("--check: only with --dry-run --cluster NAME"));
    }
}

TEST_CASE("a dry run on a cluster, with a store that does not exist names the cluster and creates no store",
          "[cli][dry-run]") {
    TemporaryFolder folder;
    const auto db = folder.path / "none.db";
    const ConsoleRun dry = runConsole(folder, {"--batch", SCALEBENCH_SOURCE_DIR "/tests/data/two_ranks.toml",
                                               "--dry-run", "--cluster", "prod", "--db", db.string()});
    CHECK(dry.exit_status == 2);
    CHECK_THAT(dry.err, Catch::Contains("no cluster 'prod'") && Catch::Contains("--add-clusters"));
    CHECK_FALSE(std::filesystem::exists(db));
}

TEST_CASE("a dry run on a cluster kept with a bad setting (an older store's) names the problem, not a script",
          "[cli][dry-run]") {
    TemporaryFolder folder;
    const auto db = folder.path / "old.db";
    {
        SessionStore store(db);
        ClusterSettings c;
        c.name = "old";
        c.host = "head";
        c.time_limit = "$(reboot)"; // what a store written before settings were checked may keep
        store.saveCluster(c);
    }
    const ConsoleRun dry = runConsole(folder, {"--batch", SCALEBENCH_SOURCE_DIR "/tests/data/two_ranks.toml",
                                               "--dry-run", "--cluster", "old", "--db", db.string()});
    CHECK(dry.exit_status == 2);
    CHECK_THAT(dry.err, Catch::Contains("cluster 'old'") && Catch::Contains("$(reboot)"));
    CHECK_THAT(dry.out, !Catch::Contains("#SBATCH"));
}

namespace {
// Configures the engine alone as the deployment job does on a cluster, with these extra cache entries;
// CMake's output.
std::string configureEngineOnly(const TemporaryFolder& folder, const std::vector<std::string>& definitions) {
    std::vector<std::string> argv = {"cmake",
                                     "-S",
                                     SCALEBENCH_SOURCE_DIR,
                                     "-B",
                                     (folder.path / "build").string(),
                                     "-DSCALEBENCH_ENGINE_ONLY=ON",
                                     "-DSCALEBENCH_NCCL=OFF"};
    argv.insert(argv.end(), definitions.begin(), definitions.end());
    ChildProcess cmake(argv, (folder.path / "out.log").string(), (folder.path / "err.log").string());
    const int status = cmake.wait().status;
    const std::string printed = fileText(folder.path / "out.log") + fileText(folder.path / "err.log");
    INFO(printed);
    CHECK(status != 0);
    return printed;
}
} // namespace

TEST_CASE("the engine configured for a cluster says what to install there when torch or gloo is missing",
          "[integration][engine-advice]") {
    TemporaryFolder folder;
    SECTION("a torch_python without torch") {
        const std::string printed = configureEngineOnly(folder, {"-DSCALEBENCH_PYTHON=/usr/bin/python3"});
        CHECK_THAT(printed, Catch::Contains("/usr/bin/python3 has no torch package") &&
                                Catch::Contains("/usr/bin/python3 -m pip install torch") &&
                                Catch::Contains("torch_python"));
        CHECK_THAT(printed, !Catch::Contains("scripts/setup.sh"));
    }
    SECTION("no gloo headers where the build looks") {
        const std::string printed = configureEngineOnly(
            folder, {"-DSCALEBENCH_PYTHON=" SCALEBENCH_SOURCE_DIR "/.venv/bin/python",
                     "-DSCALEBENCH_GLOO_INCLUDE_DIR=" + (folder.path / "nogloo").string()});
        CHECK_THAT(printed, Catch::Contains("gloo headers") && Catch::Contains("gloo/rendezvous/store.h") &&
                                Catch::Contains("setup") && Catch::Contains("CPATH"));
        CHECK_THAT(printed,
                   !Catch::Contains("scripts/setup.sh") && !Catch::Contains("install libgloo-dev ("));
    }
}

// One plan per seed experiment the engine can run (resources/plans/seeds/), each value commented
// with the seed's words. Those that need GPUs run here as a dry run on a cluster with GPUs: every run's
// sbatch script, one task per GPU, nothing connected to.
TEST_CASE("every seed plan runs as a dry run on a GPU cluster, its runs' engine lines carrying the seed's "
          "settings",
          "[cli][dry-run]") {
    TemporaryFolder folder;
    SilentPort head;
    std::ofstream(folder.path / "clusters.toml")
        << "[[cluster]]\nname = \"gpus\"\nhost = \"127.0.0.1\"\n"
        << "port = " << head.port << "\nuser = \"alice\"\n"
        << "remote_root = \"/scratch/alice/sb\"\npartition = \"gpu\"\n"
        << "tasks_per_node = 8\ngpus_per_node = 8\n"
        << "data_root = \"/datasets\"\n";
    const std::string db = (folder.path / "sessions.db").string();
    REQUIRE(runConsole(folder, {"--add-clusters", (folder.path / "clusters.toml").string(), "--db", db})
                .exit_status == 0);
    int plans = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(SCALEBENCH_SOURCE_DIR "/resources/plans/seeds")) {
        if (entry.path().extension() != ".toml") continue;
        ++plans;
        const ConsoleRun dry =
            runConsole(folder, {"run", entry.path().string(), "--dry-run", "--cluster", "gpus", "--db", db});
        INFO(entry.path().filename().string() << "\n" << dry.printed());
        CHECK(dry.exit_status == 0);
        CHECK_THAT(dry.out, Catch::Contains("#SBATCH --partition=gpu"));
        CHECK(dry.err.find("warning") == std::string::npos); // no old keys
    }
    CHECK(plans >= 9);
    CHECK_FALSE(head.connectedTo());

    const ConsoleRun task1 = runConsole(
        folder, {"run", SCALEBENCH_SOURCE_DIR "/resources/plans/seeds/mlbench-task1a-resnet20-cifar10.toml",
                 "--dry-run", "--cluster", "gpus", "--db", db});
    CHECK_THAT(task1.out, Catch::Contains("--data-dir /datasets/cifar-10-batches-bin") &&
                              Catch::Contains("--epochs 164") && Catch::Contains("--target 80") &&
                              Catch::Contains("--eval-every -1") && Catch::Contains("--batch-per-rank 128"));
    const ConsoleRun bert = runConsole(
        folder, {"run", SCALEBENCH_SOURCE_DIR "/resources/plans/seeds/mlperf-bert-seed000-8-to-64.toml",
                 "--dry-run", "--cluster", "gpus", "--db", db});
    // Lambda's MLPerf BERT runs (seed 000), one config file per GPU count (config_1cc_1x8x48x1 ... 8x8x36x1):
    // per-GPU batch 48, 24, 12, 36 at 8, 16, 32, 64 GPUs.
    CHECK_THAT(bert.out, Catch::Contains("--batch-per-rank 48") && Catch::Contains("--batch-per-rank 24") &&
                             Catch::Contains("--batch-per-rank 12") &&
                             Catch::Contains("--batch-per-rank 36"));
}

// nccl-tests in an NGC container beside the engine's NCCL sweep, on a GPU cluster: pyxis' options
// on srun, the run's folder mounted, the command's output in its attempt's folder; nothing connected to.
TEST_CASE("the nccl-tests example plan's container runs show their pyxis job scripts in a dry run",
          "[cli][dry-run]") {
    TemporaryFolder folder;
    SilentPort head;
    std::ofstream(folder.path / "clusters.toml")
        << "[[cluster]]\nname = \"gpus\"\nhost = \"127.0.0.1\"\nport = " << head.port
        << "\nuser = \"alice\"\nremote_root = \"/scratch/alice/sb\"\ntasks_per_node = 8\ngpus_per_node = 8\n";
    const std::string db = (folder.path / "sessions.db").string();
    REQUIRE(runConsole(folder, {"--add-clusters", (folder.path / "clusters.toml").string(), "--db", db})
                .exit_status == 0);
    const ConsoleRun dry =
        runConsole(folder, {"run", SCALEBENCH_SOURCE_DIR "/resources/plans/nccl-tests-gpu-cluster.toml",
                            "--dry-run", "--cluster", "gpus", "--db", db});
    INFO(dry.printed());
    CHECK(dry.exit_status == 0);
    CHECK_THAT(dry.out,
               Catch::Contains("all_reduce_perf-n16-r1/job.sbatch") &&
                   Catch::Contains("#SBATCH --nodes=2\n#SBATCH --ntasks=16\n") &&
                   Catch::Contains("\nsrun --mpi=pmix '--container-image=nvcr.io#nvidia/pytorch:24.04-py3' "
                                   "--container-mounts=/scratch/alice/sb/sessions/") &&
                   Catch::Contains(":/nccl-tests:ro --container-workdir=\"$PWD\" "
                                   "/nccl-tests/build/all_reduce_perf -b 8 -e 8G -f 2 -g 1 -w 5 -n 20 "
                                   "> output.log\n"));
    // The engine's sweep beside it is deployed as always.
    CHECK_THAT(dry.out,
               Catch::Contains("allreduce-sweep-none-nccl-n8-r1") && Catch::Contains("--backend nccl"));
    CHECK_FALSE(head.connectedTo());
}

// Llama-2 70B (and 13B) need FSDP, as MaxText's Llama-2 70B recipe (seed 003) shards it (FSDP=64 at 64 GPUs):
// a plan asking for them is refused with that reason, not attempted.
TEST_CASE("a plan asking for a model the data-parallel engine cannot hold is refused with the reason",
          "[cli][dry-run]") {
    TemporaryFolder folder;
    std::ofstream(folder.path / "llama70b.toml")
        << "name = \"seed003\"\n[[run]]\nworkload = \"llama\"\npreset = \"70b\"\nranks = [64]\n"
        << "gpus_per_node = 8\nseq_len = 4096\nprecision = \"bf16\"\n";
    const ConsoleRun refused = runConsole(folder, {"run", (folder.path / "llama70b.toml").string(),
                                                   "--dry-run", "--db", (folder.path / "s.db").string()});
    CHECK(refused.exit_status == 2);
    CHECK_THAT(refused.err, Catch::Contains("llama70b.toml:4:") &&
                                Catch::Contains("preset '70b' cannot run") && Catch::Contains("FSDP") &&
                                Catch::Contains("1.1 TB"));
}

namespace {
// scalebench with these arguments in an environment without a display: QT_QPA_PLATFORM as given, DISPLAY and
// WAYLAND_DISPLAY unset; stopped after 20 s at the most (a spinning console shows as exit status 124).
ConsoleRun runWithoutDisplay(const TemporaryFolder& folder, const std::string& platform,
                             const std::vector<std::string>& arguments) {
    std::vector<std::string> argv = {"env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY"};
    if (platform.empty())
        argv.insert(argv.end(), {"-u", "QT_QPA_PLATFORM"});
    else
        argv.push_back("QT_QPA_PLATFORM=" + platform);
    argv.insert(argv.end(), {"timeout", "20", SCALEBENCH_CLI_PATH});
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    ChildProcess cli(argv, (folder.path / "out.log").string(), (folder.path / "err.log").string());
    const int status = cli.wait().status;
    return {status, fileText(folder.path / "out.log"), fileText(folder.path / "err.log")};
}
} // namespace

TEST_CASE(
    "a command needs no display: a dry run with QT_QPA_PLATFORM=xcb and no DISPLAY prints what it prints "
    "without one",
    "[integration]") {
    TemporaryFolder folder;
    const std::vector<std::string> dry_run = {"run", SCALEBENCH_SOURCE_DIR "/resources/plans/quickstart.toml",
                                              "--dry-run", "--db", (folder.path / "s.db").string()};
    const auto start = std::chrono::steady_clock::now();
    const ConsoleRun on_xcb = runWithoutDisplay(folder, "xcb", dry_run);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(on_xcb.printed());
    CHECK(on_xcb.exit_status == 0);
    CHECK(seconds < 5);
    const ConsoleRun plain = runWithoutDisplay(folder, "", dry_run);
    CHECK(on_xcb.out == plain.out);
    CHECK_THAT(on_xcb.out, Catch::Contains("resnet20-fashion-mnist-n2-r1"));
}

TEST_CASE("the window without a display stops at once, naming the variable it needs", "[integration]") {
    TemporaryFolder folder;
    const std::vector<std::string> window = {"--db", (folder.path / "s.db").string()};
    const ConsoleRun on_xcb = runWithoutDisplay(folder, "xcb", window);
    CHECK(on_xcb.exit_status == 2);
    CHECK_THAT(on_xcb.err, Catch::Contains("needs a display") && Catch::Contains("DISPLAY is not set"));
    const ConsoleRun unset = runWithoutDisplay(folder, "", window);
    CHECK(unset.exit_status == 2);
    CHECK_THAT(unset.err, Catch::Contains("neither DISPLAY nor WAYLAND_DISPLAY is set"));
    CHECK_FALSE(std::filesystem::exists(folder.path / "s.db")); // it stopped before opening the store
}
