// Specification of a run's capsule (what ran, exactly: job script, engine sources, versions, container,
// nodes, environment, plan) and of what differs between two sessions' capsules.
#include "run_capsule.h"
#include "session_comparison.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

const char* const kSlurmScript = "#!/bin/bash\n"
                                 "#SBATCH --job-name=scalebench-resnet20-n4-r1\n"
                                 "#SBATCH --nodes=2\n"
                                 "#SBATCH --chdir=/scratch/sb/runs/0f3a/session-7-c37c/resnet20-n4-r1\n"
                                 "cd /scratch/sb/runs/0f3a/session-7-c37c/resnet20-n4-r1/attempt-0\n"
                                 "srun --mpi=pmix --container-image=nvcr.io/nvidia/pytorch:25.01-py3 "
                                 "--container-mounts=/data:/data scalebench-engine --steps 200\n";

const char* const kHeader =
    R"({"type":"header","versions":{"engine":"0.1.0","source":"5d41402abc4b2a76","libtorch":"2.11.0",)"
    R"("mpi":"Open MPI v4.1.4"},"cuda_driver":"13.0","cuda_runtime":"13.0","nccl":"2.27.3",)"
    R"("gpus":[{"name":"NVIDIA H100 80GB HBM3"},{"name":"NVIDIA H100 80GB HBM3"}],)"
    R"("cpu_kernels":{"cpu_model":"Intel(R) Xeon(R) Platinum 8480+"},)"
    R"("hosts":[{"host":"gpu-a1","pid":11,"rank":0,"cpus":"0-55"},{"host":"gpu-a2","pid":12,"rank":1}],)"
    R"("environment":{"NCCL_IB_HCA":"mlx5","OMP_NUM_THREADS":"8"},"threads_per_rank":8})";

SessionRow sessionWithPlan(const std::string& plan) {
    SessionRow s;
    s.id = 7;
    s.name = "nightly";
    s.plan_text = plan;
    return s;
}

RunRow run(const std::string& name, const std::string& command, const std::string& header,
           const std::string& nodes) {
    RunRow r;
    r.id = 1;
    r.session_id = 7;
    r.name = name;
    r.command = command;
    r.header_json = header;
    r.nodes = nodes;
    r.run_dir = "/scratch/sb/runs/0f3a/session-7-c37c/" + name;
    return r;
}

RunCapsule sampleCapsule(const std::string& name = "resnet20-n4-r1", const std::string& header = kHeader,
                         const std::string& nodes = "gpu-a[1-2]",
                         const std::string& plan = "name = \"n\"\n") {
    return runCapsule(sessionWithPlan(plan), run(name, kSlurmScript, header, nodes));
}

std::vector<std::string> keys(const std::vector<CapsuleEntry>& entries) {
    std::vector<std::string> out;
    for (const auto& e : entries)
        out.push_back(e.key);
    return out;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

} // namespace

TEST_CASE("a run's capsule holds its job script, engine sources, versions, container, nodes, environment and "
          "plan",
          "[core][capsule]") {
    const RunCapsule c = sampleCapsule();
    CHECK(c.run == "resnet20-n4-r1");
    CHECK(keys(c.entries) ==
          std::vector<std::string>{"job script", "engine source", "versions.engine", "versions.libtorch",
                                   "versions.mpi", "versions.cuda driver", "versions.cuda runtime",
                                   "versions.nccl", "gpus", "cpu", "container.image", "container.digest",
                                   "nodes", "hosts", "environment.NCCL_IB_HCA", "environment.OMP_NUM_THREADS",
                                   "plan"});
    // The run's and its session's folders differ on every session: written <run folder> and <session folder>.
    CHECK(c.value("job script") == "#!/bin/bash\n"
                                   "#SBATCH --job-name=scalebench-resnet20-n4-r1\n"
                                   "#SBATCH --nodes=2\n"
                                   "#SBATCH --chdir=<run folder>\n"
                                   "cd <run folder>/attempt-0\n"
                                   "srun --mpi=pmix --container-image=nvcr.io/nvidia/pytorch:25.01-py3 "
                                   "--container-mounts=/data:/data scalebench-engine --steps 200\n");
    CHECK(c.value("engine source") == "5d41402abc4b2a76");
    CHECK(c.value("versions.nccl") == "2.27.3");
    CHECK(c.value("gpus") == "NVIDIA H100 80GB HBM3\nNVIDIA H100 80GB HBM3");
    CHECK(c.value("container.image") == "nvcr.io/nvidia/pytorch:25.01-py3");
    CHECK(c.value("container.digest") == "(not pinned: a tag is resolved when the job starts)");
    CHECK(c.value("hosts") == "rank 0: gpu-a1 (CPUs 0-55)\nrank 1: gpu-a2");
    CHECK(c.value("environment.NCCL_IB_HCA") == "mlx5");
    CHECK(c.value("plan") == "name = \"n\"\n");
    CHECK(c.value("threads_per_rank").empty()); // a setting, compared with the settings

    SECTION("a pinned image names its digest") {
        const std::string pinned = replaced(kSlurmScript, "pytorch:25.01-py3", "pytorch@sha256:0123abcd");
        const RunCapsule p = runCapsule(sessionWithPlan(""), run("r", pinned, kHeader, ""));
        CHECK(p.value("container.digest") == "sha256:0123abcd");
    }
    SECTION("a run on this machine without a header (it failed first) has its command and nothing it "
            "cannot know") {
        const RunCapsule local =
            runCapsule(sessionWithPlan(""), run("r", "mpirun -np 2 scalebench-engine", "", ""));
        CHECK(keys(local.entries) == std::vector<std::string>{"job script"});
        const RunCapsule broken = runCapsule(sessionWithPlan(""), run("r", "mpirun", "{\"versions\":", ""));
        CHECK(keys(broken.entries) == std::vector<std::string>{"job script"});
    }
}

TEST_CASE("the settings comparison leaves versions, hosts, GPUs and environment to the capsules",
          "[core][capsule]") {
    for (const char* key :
         {"versions.libtorch", "versions", "hosts[1].host", "gpus[0].name", "environment.NCCL_ALGO",
          "cpu_kernels.cpu_model", "cuda_driver", "cuda_runtime", "nccl"})
        CHECK(capsuleHeaderKey(key));
    for (const char* key : {"threads_per_rank", "hyperparameters.lr", "nccl_env", "gpu_count", "version"})
        CHECK_FALSE(capsuleHeaderKey(key));
}

TEST_CASE("two texts differ by the lines only one has, numbered on its side", "[core][capsule]") {
    CHECK(differingLines("a\nb\nc\n", "a\nb\nc\n") == std::pair<std::string, std::string>{"", ""});
    CHECK(differingLines("a\nb\nc\n", "a\nB\nc\n") ==
          std::pair<std::string, std::string>{"line 2: b", "line 2: B"});
    CHECK(differingLines("a\nc\n", "a\nb\nc\nd\n") ==
          std::pair<std::string, std::string>{"", "line 2: b\nline 4: d"});
    CHECK(differingLines("x\ny\n", "") == std::pair<std::string, std::string>{"line 1: x\nline 2: y", ""});
}

TEST_CASE("comparing capsules shows only what differs, once for every run or naming the runs",
          "[core][capsule]") {
    const std::vector<RunCapsule> a = {sampleCapsule("r1"), sampleCapsule("r2")};
    CHECK(compareCapsules(a, a).empty());

    SECTION("a version every run changed is one row") {
        const std::string newer = replaced(kHeader, "2.11.0", "2.12.0");
        const auto d = compareCapsules(a, {sampleCapsule("r1", newer), sampleCapsule("r2", newer)});
        REQUIRE(d.size() == 1);
        CHECK(d[0].key == "versions.libtorch");
        CHECK(d[0].a == "2.11.0");
        CHECK(d[0].b == "2.12.0");
    }
    SECTION("a node list one run changed names the run") {
        const auto d = compareCapsules(a, {sampleCapsule("r1"), sampleCapsule("r2", kHeader, "gpu-b[1-2]")});
        REQUIRE(d.size() == 1);
        CHECK(d[0].key == "nodes (r2)");
        CHECK(d[0].b == "gpu-b[1-2]");
    }
    SECTION("a changed plan shows its changed lines, an added variable its value, a removed one as not set") {
        const std::string env = replaced(kHeader, R"("OMP_NUM_THREADS":"8")", R"("NCCL_ALGO":"Ring")");
        const std::string plan = "name = \"n\"\nrepeats = 5\n";
        const auto d = compareCapsules(
            a, {sampleCapsule("r1", env, "gpu-a[1-2]", plan), sampleCapsule("r2", env, "gpu-a[1-2]", plan)});
        REQUIRE(d.size() == 3);
        CHECK(d[0].key == "environment.OMP_NUM_THREADS");
        CHECK_FALSE(d[0].b);
        CHECK(d[1].key == "plan");
        CHECK(d[1].a == "(no line that the other lacks)");
        CHECK(d[1].b == "line 2: repeats = 5");
        CHECK(d[2].key == "environment.NCCL_ALGO");
        CHECK_FALSE(d[2].a);
        CHECK(d[2].b == "Ring");
    }
    SECTION("runs without a partner are named") {
        const auto d = compareCapsules(a, {sampleCapsule("r1"), sampleCapsule("r3")});
        REQUIRE(d.size() == 1);
        CHECK(d[0].key == "runs only in one session");
        CHECK(d[0].a == "r2");
        CHECK(d[0].b == "r3");
    }
    SECTION("sessions whose runs share no name are paired in order") {
        const std::string newer = replaced(kHeader, "5d41402abc4b2a76", "7c211433f0207159");
        const auto d = compareCapsules({sampleCapsule("old-a")}, {sampleCapsule("new-a", newer)});
        REQUIRE(d.size() == 1);
        CHECK(d[0].key == "engine source");
    }
}

TEST_CASE("a session's capsule lists what every run shares once, then each run's own", "[core][capsule]") {
    const SessionCapsule s = sessionCapsule({sampleCapsule("r1"), sampleCapsule("r2", kHeader, "gpu-b1")});
    CHECK(std::count_if(s.shared.begin(), s.shared.end(), [](const auto& e) { return e.key == "nodes"; }) ==
          0);
    CHECK(std::count_if(s.shared.begin(), s.shared.end(),
                        [](const auto& e) { return e.key == "engine source"; }) == 1);
    REQUIRE(s.per_run.size() == 2);
    CHECK(s.per_run[0].first == "r1");
    CHECK(s.per_run[0].second == std::vector<CapsuleEntry>{{"nodes", "gpu-a[1-2]"}});
    CHECK(s.per_run[1].second == std::vector<CapsuleEntry>{{"nodes", "gpu-b1"}});
    CHECK(sessionCapsule({}).shared.empty());
}

TEST_CASE("the terminal comparison ends with what ran differently, multi-line values indented",
          "[core][capsule]") {
    const std::string text =
        formatComparison("A", "B", {}, {},
                         {{"job script", "line 3: srun --nodes=1", "line 3: srun --nodes=2"},
                          {"plan", "line 2: a = 1\nline 3: b = 2", std::nullopt}});
    CHECK_THAT(text,
               Catch::Contains("what ran differently (the runs' capsules): 2\n"
                               "  job script\n    A: line 3: srun --nodes=1\n    B: line 3: srun --nodes=2\n"
                               "  plan\n    A: line 2: a = 1\n       line 3: b = 2\n    B: (not set)\n"));
}
