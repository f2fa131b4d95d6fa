// Specification of the comparison of two sessions: figures matched by workload, dataset and ranks with the
// difference in percent, and only the settings that differ.
#include "plan_writer.h"
#include "run_plan.h"
#include "session_comparison.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>

using namespace scalebench;

namespace {

RunResult trainingRun(int ranks, double samples_per_s, double step_ms, std::optional<double> accuracy = 0.9) {
    RunResult r{
        "resnet20-n" + std::to_string(ranks), "resnet20", "fashion-mnist", ranks, 0, RunStatus::Ok, "", {}};
    r.figures.steady_steps = 20;
    r.figures.samples_per_s = samples_per_s;
    r.figures.breakdown = {step_ms / 1e3,       0.1 * step_ms / 1e3,  0.3 * step_ms / 1e3,
                           0.4 * step_ms / 1e3, 0.15 * step_ms / 1e3, 0.05 * step_ms / 1e3,
                           0.2 * step_ms / 1e3};
    r.figures.final_loss = 0.5;
    r.figures.final_eval = accuracy;
    return r;
}

RunResult sweepRun(int ranks, std::vector<double> busbw) {
    RunResult r{
        "sweep-n" + std::to_string(ranks), "allreduce-sweep", "none", ranks, 0, RunStatus::Ok, "", {}};
    std::int64_t bytes = 1024;
    for (double bw : busbw) {
        CollectiveRecord c;
        c.collective = "allreduce";
        c.dtype = "float32";
        c.bytes = bytes;
        c.ranks = ranks;
        c.busbw_gbps = bw;
        c.correct = true;
        r.collectives.push_back(c);
        bytes *= 4;
    }
    return r;
}

const FigureComparison& find(const std::vector<FigureComparison>& rows, const std::string& workload,
                             int ranks, const std::string& figure) {
    auto it = std::find_if(rows.begin(), rows.end(), [&](const FigureComparison& f) {
        return f.workload == workload && f.ranks == ranks && f.figure == figure;
    });
    REQUIRE(it != rows.end());
    return *it;
}

} // namespace

TEST_CASE(
    "compared figures give A, B and (B - A) / A in percent for runs matched by workload, dataset and ranks",
    "[core][comparison]") {
    // A: 1000 and 1800 samples/s at 1 and 2 ranks, two repeats at 2 ranks; B: 10% faster at 2 ranks.
    std::vector<RunResult> a = {trainingRun(1, 1000, 256), trainingRun(2, 1700, 300),
                                trainingRun(2, 1900, 270)};
    std::vector<RunResult> b = {trainingRun(1, 1000, 256), trainingRun(2, 1980, 250)};
    const auto rows = compareFigures(a, b);

    const auto& throughput = find(rows, "resnet20", 2, "samples/s");
    CHECK(*throughput.a == Approx(1800)); // mean over the two repeats
    CHECK(*throughput.b == Approx(1980));
    CHECK(*throughput.percent == Approx(10));
    CHECK(throughput.better == Better::Higher);

    const auto& step = find(rows, "resnet20", 2, "step time");
    CHECK(step.unit == "ms");
    CHECK(*step.a == Approx(285));
    CHECK(*step.percent == Approx((250.0 - 285) / 285 * 100));
    CHECK(step.better == Better::Lower);
    CHECK(*find(rows, "resnet20", 2, "exposed communication").a == Approx(0.15 * 285));
    CHECK(*find(rows, "resnet20", 2, "hidden communication").b == Approx(0.2 * 250));
    CHECK(find(rows, "resnet20", 2, "hidden communication").better == Better::Neither);

    // Speedup and efficiency within each session: S(2) = X(2) / X(1), E(2) = S(2) * 1 / 2.
    CHECK(*find(rows, "resnet20", 2, "speedup").a == Approx(1.8));
    CHECK(*find(rows, "resnet20", 2, "speedup").b == Approx(1.98));
    CHECK(*find(rows, "resnet20", 2, "efficiency").a == Approx(90));
    CHECK(*find(rows, "resnet20", 1, "efficiency").percent == Approx(0));
    CHECK(*find(rows, "resnet20", 2, "accuracy").a == Approx(90));
    CHECK(find(rows, "resnet20", 2, "final loss").better == Better::Lower);
}

TEST_CASE("a figure that is 0 in A or missing on one side has no percent and says why",
          "[core][comparison]") {
    std::vector<RunResult> a = {trainingRun(1, 1000, 256), trainingRun(4, 3000, 90)};
    a[0].figures.breakdown.comm_hidden_s = 0;
    std::vector<RunResult> b = {trainingRun(1, 1100, 240), trainingRun(8, 5000, 60)};
    const auto rows = compareFigures(a, b);

    const auto& hidden = find(rows, "resnet20", 1, "hidden communication");
    CHECK(*hidden.a == 0);
    CHECK_FALSE(hidden.percent);
    CHECK(hidden.note == "A is 0: percent undefined");
    CHECK(find(rows, "resnet20", 4, "samples/s").note == "only in A");
    CHECK_FALSE(find(rows, "resnet20", 4, "samples/s").b);
    CHECK(find(rows, "resnet20", 8, "samples/s").note == "only in B");
    CHECK(*find(rows, "resnet20", 8, "samples/s").b == 5000);

    // Failed runs give no figures.
    a.push_back(trainingRun(2, 500, 500));
    a.back().status = RunStatus::Failed;
    const auto with_failed = compareFigures(a, b);
    CHECK(std::none_of(with_failed.begin(), with_failed.end(),
                       [](const FigureComparison& f) { return f.ranks == 2; }));
}

TEST_CASE("collective sweeps are compared by their peak bus bandwidth", "[core][comparison]") {
    const auto rows =
        compareFigures({sweepRun(2, {0.5, 2.0, 4.0, 3.5})}, {sweepRun(2, {0.4, 2.5, 5.0, 4.9})});
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].figure == "peak busbw mpi allreduce float32 sum");
    CHECK(rows[0].unit == "GB/s");
    CHECK(*rows[0].a == 4.0);
    CHECK(*rows[0].b == 5.0);
    CHECK(*rows[0].percent == Approx(25));
    CHECK(rows[0].better == Better::Higher);
}

TEST_CASE("JSON and TOML settings flatten to key paths", "[core][comparison]") {
    const auto json =
        flattenJson(R"({"host":"login1","port":22,"modules":["cuda/12","openmpi"],"gpu":{"per_node":4}})");
    CHECK(json.at("host") == "login1");
    CHECK(json.at("port") == "22");
    CHECK(json.at("modules[1]") == "openmpi");
    CHECK(json.at("gpu.per_node") == "4");
    CHECK(flattenJson("{oops").count("(unparsable)") == 1);

    const auto toml =
        flattenToml("name = \"q\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2]\nlr = 0.02\n");
    CHECK(toml.at("name") == "q");
    CHECK(toml.at("run[0].workload") == "resnet20");
    CHECK(toml.at("run[0].ranks[1]") == "2");
    CHECK(toml.at("run[0].lr") == "0.02");
    CHECK(flattenToml("lr = 0.1\nbucket_mb = 12.5\n").at("lr") ==
          "0.1"); // as written, not 0.10000000000000001
    const auto broken = flattenToml("name = \n");
    REQUIRE(broken.count("(unparsable)") == 1);
    CHECK(broken.at("(unparsable)").starts_with("line 1"));
}

TEST_CASE("the settings comparison lists only keys that differ or exist on one side", "[core][comparison]") {
    ComparedSession a{"last week",
                      {},
                      {},
                      "name = \"nightly\"\n[[run]]\nworkload = \"resnet20\"\nranks = 1\nsteps = 200\n",
                      R"({"host":"login1","partition":"gpu"})"};
    ComparedSession b{"tonight",
                      {},
                      {},
                      "name = \"nightly\"\n[[run]]\nworkload = \"resnet20\"\nranks = 1\nsteps = 400\n",
                      R"({"host":"login1","partition":"gpu","account":"ml"})"};
    a.stored_plan = readStoredPlan(1, a.plan_text);
    b.stored_plan = readStoredPlan(2, b.plan_text);
    a.run_headers = {
        R"({"type":"header","ranks":1,"versions":{"libtorch":"2.10.0"},"hosts":[{"host":"n1","pid":11}],"unix_time":1})",
        R"({"type":"header","ranks":2,"versions":{"libtorch":"2.10.0"},"hosts":[{"host":"n1","pid":12},{"host":"n2","pid":13}],"unix_time":2})"};
    b.run_headers = {
        R"({"type":"header","ranks":1,"versions":{"libtorch":"2.11.0"},"hosts":[{"host":"n1","pid":21}],"unix_time":3})",
        R"({"type":"header","ranks":2,"versions":{"libtorch":"2.11.0"},"hosts":[{"host":"n1","pid":22},{"host":"n3","pid":23}],"unix_time":4})"};
    const auto diff = compareSettings(a, b);

    std::vector<std::string> keys;
    for (const auto& d : diff)
        keys.push_back(d.key);
    // Versions and hosts are what ran, not what was asked for: the capsules compare them
    // (test_run_capsule.cpp).
    CHECK(keys == std::vector<std::string>{"cluster.account", "plan.run[0].steps"});
    CHECK_FALSE(diff[0].a);
    CHECK(*diff[0].b == "ml");
    CHECK(*diff[1].a == "200");
    CHECK(*diff[1].b == "400");
    CHECK(compareSettings(a, a).empty());
}

TEST_CASE("a stored session loads for comparison with its results and run headers", "[core][comparison]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "sessions.sqlite");
    const auto session = store.createSession("nightly", "name = \"nightly\"", "local");
    const auto run =
        store.createRun(session, {"resnet20-n1", "resnet20", "fashion-mnist", 1, 0, "mpirun ..."});
    store.startRun(run, "42");
    std::vector<MetricRecord> records{HeaderRecord{1, "resnet20", "fashion-mnist", 1,
                                                   R"({"type":"header","versions":{"libtorch":"2.11.0"}})"}};
    for (int i = 1; i <= 20; ++i)
        records.push_back(StepRecord{i, 1.0, 500, 0.256, 0.01, 0.1, 0.12, 0.0, 0.026, 0.256 * i, 0.0, 0.0,
                                     0.0, std::nullopt});
    store.appendRecords(run, records);
    store.finishRun(run, {RunStatus::Ok, "", 0, ""});

    const ComparedSession loaded = loadComparedSession(store, store.sessions().front());
    CHECK(loaded.name == "nightly");
    REQUIRE(loaded.results.size() == 1);
    CHECK(loaded.results[0].figures.samples_per_s == Approx(500));
    REQUIRE(loaded.run_headers.size() == 1);
    CHECK(flattenJson(loaded.run_headers[0]).at("versions.libtorch") == "2.11.0");
}

TEST_CASE(
    "the terminal comparison names both sessions, every figure with its change, and each differing setting",
    "[core][compare]") {
    FigureComparison faster{"resnet20",     "synthetic", 2,     "samples/s", "samples/s",
                            Better::Higher, 100.0,       125.0, 25.0};
    FigureComparison only_a{"resnet20", "synthetic", 4, "samples/s", "samples/s", Better::Higher, 300.0};
    only_a.note = "only in A";
    faster.change = changeOrNoise({99, 100, 101}, {124, 125, 126}, 0.05);
    const std::string text =
        formatComparison("1 monday", "2 tuesday", {faster, only_a},
                         {{"plan.run[0].backend", "mpi", "gloo"}, {"cluster.host", std::nullopt, "hpc"}});
    INFO(text);
    CHECK_THAT(text, Catch::Contains("A: 1 monday") && Catch::Contains("B: 2 tuesday"));
    CHECK_THAT(text, Catch::Contains("100 samples/s") && Catch::Contains("125 samples/s") &&
                         Catch::Contains("+25.0% better"));
    CHECK_THAT(text, Catch::Contains("300 samples/s") && Catch::Contains("only in A"));
    CHECK_THAT(text, Catch::Contains("settings that differ: 2"));
    CHECK_THAT(text, Catch::Contains("  plan.run[0].backend\n    A: mpi\n    B: gloo\n"));
    CHECK_THAT(text, Catch::Contains("  cluster.host\n    A: (not set)\n    B: hpc\n"));
}

namespace {

// Two runs of a session as the engine writes their headers (trainers/loop/training_loop.cpp headerRecord).
std::vector<std::string> sampleRunHeaders() {
    std::vector<std::string> headers;
    for (int ranks : {1, 2}) {
        std::string header =
            R"({"type":"header","version":1,"workload":"resnet20","dataset":"fashion-mnist",)";
        header += R"("ranks":)" + std::to_string(ranks) + R"(,"hosts":[)";
        for (int rank = 0; rank < ranks; ++rank) {
            if (rank > 0) header += ",";
            header += R"({"rank":)" + std::to_string(rank) + R"(,"host":"n1","pid":)" +
                      std::to_string(100 * ranks + rank) + R"(,"cpus":"0-3"})";
        }
        header += R"(],"versions":{"engine":"0.9.0","libtorch":"2.10.0","mpi":"Open MPI v4.1.6"},)"
                  R"("mpi_thread":"multiple","unix_time":1700000000.5,"threads_per_rank":4,)"
                  R"("hyperparameters":{"base_lr":0.1,"momentum":0.9},"backend":"mpi",)"
                  R"("bucket_mb":25,"overlap":true,"precision":"fp32"})";
        headers.push_back(header);
    }
    return headers;
}

ClusterSettings sampleCluster() {
    ClusterSettings c;
    c.name = "prod";
    c.host = "login1";
    c.port = 22;
    c.identity_files = {"~/.ssh/id_ed25519"};
    c.partition = "gpu";
    c.tasks_per_node = 4;
    c.gpus_per_node = 4;
    c.setup_lines = {"module load cuda/12.4", "module load openmpi"};
    c.nccl_env = {{"NCCL_IB_HCA", "mlx5"}};
    return c;
}

ComparedSession sampleSession() {
    ComparedSession s{"sample"};
    s.plan_text = "name = \"nightly\"\ndescription = \"resnet scaling\"\nrepeats = 2\n"
                  "[[run]]\nworkload = \"resnet20\"\nranks = [1, 2, 4]\nsteps = 200\nlr = 0.1\n"
                  "overlap = true\nbackend = \"mpi\"\nenv = { NCCL_DEBUG = \"INFO\" }\n"
                  "[[run]]\nworkload = \"allreduce-sweep\"\nranks = [2]\ncollectives = [\"allreduce\"]\n";
    s.stored_plan = readStoredPlan(1, s.plan_text);
    s.cluster_json = clusterToJson(sampleCluster());
    s.run_headers = sampleRunHeaders();
    return s;
}

void replaceOnce(std::string& text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    INFO("'" << from << "' in " << text);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
}

using Change = std::function<void(ComparedSession&)>;

Change inPlan(std::string from, std::string to) {
    return [=](ComparedSession& s) {
        replaceOnce(s.plan_text, from, to);
        s.stored_plan = readStoredPlan(1, s.plan_text); // as the store would read the changed plan
    };
}
Change inCluster(std::function<void(ClusterSettings&)> change) {
    return [=](ComparedSession& s) {
        ClusterSettings c = sampleCluster();
        change(c);
        s.cluster_json = clusterToJson(c);
    };
}
// In the header of one run (0 or 1), or of both (-1).
Change inHeaders(int run, std::string from, std::string to) {
    return [=](ComparedSession& s) {
        for (int i = 0; i < static_cast<int>(s.run_headers.size()); ++i)
            if (run < 0 || run == i) replaceOnce(s.run_headers[static_cast<std::size_t>(i)], from, to);
    };
}

struct OneDifference {
    std::string key;
    std::optional<std::string> a; // absent: the key is not there
    std::optional<std::string> b;
    Change change_b; // what B does differently from A
};

} // namespace

TEST_CASE("each setting of the plan, the cluster and the runs is reported when it alone differs, with its A "
          "and B values",
          "[core][compare]") {
    const auto none = std::nullopt;
    const std::vector<OneDifference> table = {
        // The plan: its own keys, then each kind of run group value.
        {"plan.name", "nightly", "weekly", inPlan("\"nightly\"", "\"weekly\"")},
        {"plan.description", "resnet scaling", "resnet", inPlan("resnet scaling", "resnet")},
        {"plan.repeats", "2", "5", inPlan("repeats = 2", "repeats = 5")},
        {"plan.run[0].steps", "200", "400", inPlan("steps = 200", "steps = 400")},
        // A key left out compares as its default (the effective value), not as "(not set)".
        {"plan.run[0].steps", "200", std::to_string(RunGroup{}.steps), inPlan("steps = 200\n", "")},
        {"plan.run[0].seed", std::to_string(RunGroup{}.seed), "7",
         inPlan("steps = 200\n", "steps = 200\nseed = 7\n")},
        {"plan.run[0].lr", "0.1", "0.05", inPlan("lr = 0.1", "lr = 0.05")},
        {"plan.run[0].overlap", "true", "false", inPlan("overlap = true", "overlap = false")},
        {"plan.run[0].backend", "mpi", "nccl", inPlan("backend = \"mpi\"", "backend = \"nccl\"")},
        {"plan.run[0].ranks[2]", "4", "8", inPlan("[1, 2, 4]", "[1, 2, 8]")},
        {"plan.run[0].ranks[3]", none, "8", inPlan("[1, 2, 4]", "[1, 2, 4, 8]")},
        {"plan.run[0].env.NCCL_DEBUG", "INFO", "WARN", inPlan("\"INFO\"", "\"WARN\"")},
        {"plan.run[0].env.OMP_NUM_THREADS", none, "4",
         inPlan("\"INFO\"", "\"INFO\", OMP_NUM_THREADS = \"4\"")},
        {"plan.run[1].collectives[0]", "allreduce", "allgather",
         inPlan("[\"allreduce\"]", "[\"allgather\"]")},
        // The cluster: text, numbers, switches, lists and tables.
        {"cluster.name", "prod", "staging", inCluster([](ClusterSettings& c) { c.name = "staging"; })},
        {"cluster.host", "login1", "login2", inCluster([](ClusterSettings& c) { c.host = "login2"; })},
        {"cluster.user", "", "me", inCluster([](ClusterSettings& c) { c.user = "me"; })},
        {"cluster.port", "22", "2222", inCluster([](ClusterSettings& c) { c.port = 2222; })},
        {"cluster.identity_files[1]", none, "~/.ssh/b",
         inCluster([](ClusterSettings& c) { c.identity_files.push_back("~/.ssh/b"); })},
        {"cluster.known_hosts", "", "~/kh", inCluster([](ClusterSettings& c) { c.known_hosts = "~/kh"; })},
        {"cluster.trust_on_first_use", "false", "true",
         inCluster([](ClusterSettings& c) { c.trust_on_first_use = true; })},
        {"cluster.remote_root", "scalebench", "sb",
         inCluster([](ClusterSettings& c) { c.remote_root = "sb"; })},
        {"cluster.torch_python", "python3", "py",
         inCluster([](ClusterSettings& c) { c.torch_python = "py"; })},
        {"cluster.partition", "gpu", "h100", inCluster([](ClusterSettings& c) { c.partition = "h100"; })},
        {"cluster.account", "", "ml", inCluster([](ClusterSettings& c) { c.account = "ml"; })},
        {"cluster.constraint", "", "a100", inCluster([](ClusterSettings& c) { c.constraint = "a100"; })},
        {"cluster.time_limit", "01:00:00", "02:00:00",
         inCluster([](ClusterSettings& c) { c.time_limit = "02:00:00"; })},
        {"cluster.tasks_per_node", "4", "8", inCluster([](ClusterSettings& c) { c.tasks_per_node = 8; })},
        {"cluster.gpus_per_node", "4", "8", inCluster([](ClusterSettings& c) { c.gpus_per_node = 8; })},
        {"cluster.gres_syntax", "false", "true", inCluster([](ClusterSettings& c) { c.gres_syntax = true; })},
        {"cluster.exclusive", "true", "false", inCluster([](ClusterSettings& c) { c.exclusive = false; })},
        {"cluster.setup[1]", "module load openmpi", "module load mpich",
         inCluster([](ClusterSettings& c) { c.setup_lines[1] = "module load mpich"; })},
        {"cluster.nccl_env.NCCL_IB_HCA", "mlx5", "mlx5_0",
         inCluster([](ClusterSettings& c) { c.nccl_env["NCCL_IB_HCA"] = "mlx5_0"; })},
        {"cluster.nccl_env.NCCL_DEBUG", none, "INFO",
         inCluster([](ClusterSettings& c) { c.nccl_env["NCCL_DEBUG"] = "INFO"; })},
        {"cluster.container_image", "", "nvcr.io/pytorch",
         inCluster([](ClusterSettings& c) { c.container_image = "nvcr.io/pytorch"; })},
        {"cluster.launcher", "srun-pmix", "mpirun",
         inCluster([](ClusterSettings& c) { c.launcher = ClusterSettings::Launcher::Mpirun; })},
        {"cluster.poll_seconds", "5", "30", inCluster([](ClusterSettings& c) { c.poll_seconds = 30; })},
        {"cluster.jobcomp_log", "", "/var/log/slurm/jobcomp.log",
         inCluster([](ClusterSettings& c) { c.jobcomp_log = "/var/log/slurm/jobcomp.log"; })},
        // The runs' headers: threads and hyper-parameters, merged over the runs (versions and placement are
        // in
        // the capsules).
        {"run header.mpi_thread", "multiple", "single", inHeaders(-1, "multiple", "single")},
        {"run header.threads_per_rank", "4", "8",
         inHeaders(-1, "\"threads_per_rank\":4", "\"threads_per_rank\":8")},
        {"run header.hyperparameters.momentum", "0.9", "0.0",
         inHeaders(-1, "\"momentum\":0.9", "\"momentum\":0.0")},
        {"run header.backend", "mpi", "nccl", inHeaders(-1, "\"backend\":\"mpi\"", "\"backend\":\"nccl\"")},
        {"run header.bucket_mb", "25", "50", inHeaders(-1, "\"bucket_mb\":25", "\"bucket_mb\":50")},
        {"run header.overlap", "true", "false", inHeaders(-1, "\"overlap\":true", "\"overlap\":false")},
        {"run header.precision", "fp32", "bf16", inHeaders(-1, "\"fp32\"", "\"bf16\"")},
        {"run header.loss_scaling.window", none, "2000",
         inHeaders(-1, "\"precision\":\"fp32\"",
                   "\"precision\":\"fp32\",\"loss_scaling\":{\"window\":2000}")},
    };
    const ComparedSession a = sampleSession();
    REQUIRE(compareSettings(a, a).empty());
    for (const OneDifference& row : table) {
        ComparedSession b = a;
        row.change_b(b);
        INFO(row.key << ": " << row.a.value_or("(not set)") << " -> " << row.b.value_or("(not set)"));
        const auto diff = compareSettings(a, b);
        REQUIRE(diff.size() == 1);
        CHECK(diff[0].key == row.key);
        CHECK(diff[0].a == row.a);
        CHECK(diff[0].b == row.b);
        const auto back = compareSettings(b, a); // the other way round
        REQUIRE(back.size() == 1);
        CHECK(back[0].a == row.b);
        CHECK(back[0].b == row.a);
        const std::string text = formatComparison("A", "B", {}, diff);
        CHECK_THAT(text, Catch::Contains("settings that differ: 1\n  " + row.key +
                                         "\n    A: " + row.a.value_or("(not set)") +
                                         "\n    B: " + row.b.value_or("(not set)") + "\n"));
    }
}

TEST_CASE("what differs on every run, process ids, start times and the record type, is not a setting",
          "[core][compare]") {
    const ComparedSession a = sampleSession();
    for (const Change& change :
         {inHeaders(-1, "1700000000.5", "1800000000.25"), inHeaders(0, "\"pid\":100", "\"pid\":9"),
          inHeaders(1, "\"pid\":201", "\"pid\":77"), inHeaders(0, "\"header\"", "\"h\"")}) {
        ComparedSession b = a;
        change(b);
        CHECK(compareSettings(a, b).empty());
    }
}

namespace {

// One session of the quickstart's shape: resnet20 at 1 and 2 ranks, `repeats` repeats each, every figure
// jittered by at most +-`jitter` (relative) around the same values: the same plan run again.
std::vector<RunResult> quickstartSession(int repeats, double jitter, std::uint32_t seed) {
    std::vector<RunResult> runs;
    for (int ranks : {1, 2})
        for (int repeat = 0; repeat < repeats; ++repeat) {
            seed = seed * 1664525u + 1013904223u;
            const double wobble =
                1 + jitter * ((seed >> 8) % 2001 / 1000.0 - 1); // in [1 - jitter, 1 + jitter]
            RunResult r = trainingRun(ranks, 850.0 * ranks * 0.95 * wobble, 150.0 / wobble);
            r.name += "-r" + std::to_string(repeat + 1);
            runs.push_back(r);
        }
    return runs;
}

} // namespace

TEST_CASE(
    "the same plan run twice is within noise or cannot tell for every figure, speedup and efficiency too",
    "[core][comparison]") {
    // Two runs of the quickstart showed "2 better in B, 14 worse", the speedup red.
    for (const int repeats : {2, 5}) {
        INFO(repeats << " repeats a side");
        const auto rows =
            compareFigures(quickstartSession(repeats, 0.03, 1), quickstartSession(repeats, 0.03, 7));
        for (const std::string figure : {"speedup", "efficiency", "communication share", "samples/s"}) {
            INFO(figure);
            const FigureComparison& f = find(rows, "resnet20", 2, figure);
            REQUIRE(f.change); // every figure of repeated runs is judged by changeOrNoise, derived ones too
            CHECK(f.change->kind ==
                  (repeats < kLeastRepeatsForChange ? ChangeKind::CannotTell : ChangeKind::Noise));
        }
        CHECK(percentText(-0.04) == "0.0%");
        CHECK(percentText(0.04) == "0.0%");
        CHECK(percentText(-9.09) == "-9.1%");
        // The terminal's comparison counts them the same way.
        const std::string judged =
            repeats < kLeastRepeatsForChange
                ? "0 better, 0 worse, 0 within noise, " + std::to_string(rows.size()) + " cannot tell"
                : "0 better, 0 worse, " + std::to_string(rows.size()) + " within noise, 0 cannot tell";
        CHECK_THAT(formatComparison("A", "B", rows, {}), Catch::Contains(judged));
        for (const FigureComparison& f : rows) {
            INFO(f.figure << " at " << f.ranks);
            CHECK(changeDirection(f) == 0);
            CHECK(judgement(f) == (repeats < kLeastRepeatsForChange ? "cannot tell" : "within noise"));
        }
    }
    // A real change at the same ranks is still called: B 30 % faster at 2 ranks only.
    auto faster = quickstartSession(5, 0.03, 7);
    for (RunResult& r : faster)
        if (r.ranks == 2) r.figures.samples_per_s *= 1.3;
    const auto rows = compareFigures(quickstartSession(5, 0.03, 1), faster);
    CHECK(judgement(find(rows, "resnet20", 2, "speedup")) == "better");
    CHECK(judgement(find(rows, "resnet20", 2, "efficiency")) == "better");
    CHECK(judgement(find(rows, "resnet20", 1, "speedup")) == "within noise"); // 1.0 against 1.0
}

TEST_CASE("the settings comparison compares effective plan values: a key left at its default equals it "
          "written out",
          "[core][comparison]") {
    // "lr 0.02 | (not set)" where B used the same lr by default.
    ComparedSession a{"written out",
                      {},
                      {},
                      "name = \"quickstart\"\n[[run]]\nworkload = \"resnet20\"\ndataset = \"fashion-mnist\"\n"
                      "ranks = [1, 2]\nbatch_per_rank = 128\nlr = 0.02\nsteps = 200\n"};
    ComparedSession b{
        "defaults",
        {},
        {},
        "name = \"quickstart\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2]\nsteps = 200\n"};
    // As the store reads a session's plan.
    const auto read = [](ComparedSession& s) { s.stored_plan = readStoredPlan(1, s.plan_text); };
    read(a);
    read(b);
    CHECK(compareSettings(a, b).empty());
    // The plan that left them out, written with every key: the workload's reference values filled in.
    const auto effective = flattenToml(writePlanToml(*b.stored_plan.plan, PlanKeys::Effective));
    CHECK(effective.at("run[0].lr") == "0.02");
    CHECK(effective.at("run[0].batch_per_rank") == "128");
    CHECK(effective.at("run[0].dataset") == "fashion-mnist");

    // A real difference still shows, with the default's value on the side that left it out.
    b.plan_text = "name = \"quickstart\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2]\nsteps = 200\n"
                  "lr = 0.05\n";
    read(b);
    const auto diff = compareSettings(a, b);
    REQUIRE(diff.size() == 1);
    CHECK(diff[0].key == "plan.run[0].lr");
    CHECK(diff[0].a == "0.02");
    CHECK(diff[0].b == "0.05");
    // A plan that no longer parses is compared as written, and why is one of the differences.
    b.plan_text = "name = \"quickstart\"\n[[run]]\nworkload = \"no-such-workload\"\n";
    read(b);
    const auto unread = compareSettings(a, b);
    const auto problem = std::find_if(unread.begin(), unread.end(),
                                      [](const SettingDifference& d) { return d.key == "plan.problem"; });
    REQUIRE(problem != unread.end());
    CHECK_FALSE(problem->a);
    CHECK_THAT(*problem->b, Catch::Contains("no longer reads") && Catch::Contains("no-such-workload"));
}
