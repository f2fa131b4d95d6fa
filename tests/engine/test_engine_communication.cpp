// The engine's communication under real mpirun: every collective on every CPU backend gives correct results
// at 2 and 3 ranks, its records parse in core with nccl-tests' bus bandwidth, bucketed and overlapped
// gradient averaging trains to the same parameters as the baseline (each bucket's all-reduce timed on the
// step's time line), and NCCL without a GPU fails plainly.
#include "analysis.h"
#include "engine_run.h"
#include "temporary_folder.h"
#include "training_outcome.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <unistd.h>

using namespace scalebench;

TEST_CASE(
    "every collective, dtype, reduction and placement is correct on the MPI and Gloo backends at 2 and 3 "
    "ranks, with nccl-tests' bus bandwidth",
    "[integration][engine][communication]") {
    const std::string backend = GENERATE(as<std::string>{}, "mpi", "gloo");
    const int ranks = GENERATE(2, 3);
    INFO(backend << " at " << ranks << " ranks");
    TemporaryFolder folder;
    const EngineRun run = runEngine(folder, ranks,
                                    {"--workload",
                                     "allreduce-sweep",
                                     "--backend",
                                     backend,
                                     "--sweep-max-log10",
                                     "3",
                                     "--sweep-points",
                                     "5",
                                     "--repetitions",
                                     "3",
                                     "--warmup-iterations",
                                     "1",
                                     "--collectives",
                                     "allreduce,allgather,reducescatter,broadcast,alltoall",
                                     "--dtypes",
                                     "float32,float16,bfloat16",
                                     "--ops",
                                     "sum,avg",
                                     "--in-place",
                                     "both"});
    INFO(run.output);
    REQUIRE(run.status == 0);
    const auto records = recordsOf<CollectiveRecord>(run);

    // (collective, dtype, op, in place) -> sizes timed
    std::map<std::tuple<std::string, std::string, std::string, bool>, int> cases;
    for (const auto& c : records) {
        INFO(c.collective << " " << c.dtype << " " << c.op << (c.in_place ? " in place " : " ")
                          << c.elements);
        CHECK(c.correct);
        CHECK(c.backend == backend);
        CHECK(c.ranks == ranks);
        CHECK(c.repetitions == 3);
        CHECK(c.bytes == c.elements * (c.dtype == "float32" ? 4 : 2));
        CHECK(c.time_s > 0);
        CHECK(c.algbw_gbps == Approx(static_cast<double>(c.bytes) / c.time_s / 1e9));
        CHECK(c.busbw_gbps == Approx(c.algbw_gbps * busBandwidthFactor(c.collective, ranks)));
        if (c.collective != "allreduce" && c.collective != "broadcast") CHECK(c.elements % ranks == 0);
        ++cases[{c.collective, c.dtype, c.op, c.in_place}];
    }
    // Reductions: 3 dtypes x 2 ops x 2 placements; the others 3 dtypes x 2 placements, except all-to-all in
    // place, which Gloo lacks.
    const int alltoall_cases = backend == "gloo" ? 3 : 6;
    CHECK(cases.size() == static_cast<std::size_t>(12 + 12 + 6 + 6 + alltoall_cases));
    for (const auto& [key, sizes] : cases)
        CHECK(sizes == 5); // 1, 6, 32, 178, 1000 elements: distinct totals at 2 and 3 ranks

    const auto header = nlohmann::json::parse(recordsOf<HeaderRecord>(run).front().json);
    CHECK(header["backend"] == backend);
    if (backend == "gloo") CHECK(header["skipped"].size() == 3);
}

TEST_CASE("the sweep's check finds one rank's wrong result: every record says incorrect and the engine fails",
          "[integration][engine][communication]") {
    // SCALEBENCH_FAULT_CORRUPT_RESULT=1: rank 1 changes the last element of every result it receives.
    const std::string backend = GENERATE(as<std::string>{}, "mpi", "gloo");
    INFO(backend);
    TemporaryFolder folder;
    const EngineRun run =
        runEngine(folder, 2,
                  {"--workload", "allreduce-sweep", "--backend", backend, "--sweep-max-log10", "2",
                   "--sweep-points", "3", "--repetitions", "2", "--collectives",
                   "allreduce,allgather,broadcast", "--dtypes", "float32,bfloat16"},
                  "metrics.jsonl", {"SCALEBENCH_FAULT_CORRUPT_RESULT=1"});
    INFO(run.output);
    CHECK(run.status != 0);
    const auto records = recordsOf<CollectiveRecord>(run);
    std::set<std::string> collectives;
    for (const auto& c : records) {
        INFO(c.collective << " " << c.dtype << " " << c.elements);
        CHECK_FALSE(c.correct);
        collectives.insert(c.collective);
    }
    CHECK(collectives == std::set<std::string>{"allreduce", "allgather", "broadcast"});
    REQUIRE(recordsOf<ErrorRecord>(run).size() == 1);
    CHECK_THAT(recordsOf<ErrorRecord>(run)[0].message, Catch::Contains("correct is false"));
}

TEST_CASE("a sweep timed per call, as OSU times it, says so in its header and checks every result",
          "[integration][engine][communication]") {
    TemporaryFolder folder;
    const EngineRun run = runEngine(folder, 2,
                                    {"--workload", "allreduce-sweep", "--sweep-max-log10", "4",
                                     "--sweep-points", "5", "--repetitions", "10", "--timing", "per-call"});
    INFO(run.output);
    REQUIRE(run.status == 0);
    const auto headers = recordsOf<HeaderRecord>(run);
    REQUIRE(headers.size() == 1);
    CHECK_THAT(headers[0].json, Catch::Contains("\"timing\":\"per-call\""));
    // What MPI_Init gives osu_allreduce: Open MPI locks every call at any level above it.
    CHECK_THAT(headers[0].json, Catch::Contains("\"mpi_thread\":\"single\""));
    const auto records = recordsOf<CollectiveRecord>(run);
    REQUIRE(records.size() == 5); // 1, 10, 100, 1000, 10000 elements
    for (const auto& c : records) {
        CHECK(c.correct);
        CHECK(c.time_s > 0);
    }
}

TEST_CASE("a hand calculation gives the sweep's bus bandwidth: all-gather of 1000 float32 at 2 ranks",
          "[integration][engine][communication]") {
    TemporaryFolder folder;
    const EngineRun run =
        runEngine(folder, 2,
                  {"--workload", "allreduce-sweep", "--sweep-max-log10", "3", "--sweep-points", "1",
                   "--repetitions", "5", "--collectives", "allgather"});
    INFO(run.output);
    REQUIRE(run.status == 0);
    const auto records = recordsOf<CollectiveRecord>(run);
    REQUIRE(records.size() == 1);
    const CollectiveRecord& c = records[0];
    CHECK(c.collective == "allgather");
    CHECK(c.elements == 1000); // 500 per rank; the record gives the gathered buffer (nccl-tests)
    CHECK(c.bytes == 4000);
    CHECK(c.busbw_gbps == Approx(4000.0 / c.time_s / 1e9 * 1 / 2));
}

TEST_CASE(
    "bucketed gradients averaged while backward runs train to the same parameters as one all-reduce after "
    "backward, on MPI and Gloo",
    "[integration][engine][communication][outcome]") {
    TemporaryFolder folder;
    const std::vector<std::string> training = {
        "--steps", "3",         "--batch-per-rank", "16", "--eval-samples", "50", "--warmup-steps",
        "0",       "--dataset", "synthetic-cifar"};
    auto train = [&](const std::string& name, std::vector<std::string> options) {
        options.insert(options.end(), training.begin(), training.end());
        options.insert(options.end(), {"--dump-parameters", (folder.path / (name + ".bin")).string()});
        EngineRun run = runEngine(folder, 2, options, name + ".jsonl");
        INFO(run.output);
        REQUIRE(run.status == 0);
        return run;
    };
    const EngineRun baseline = train("baseline", {"--backend", "mpi", "--overlap", "no"});
    const EngineRun mpi = train("mpi", {"--backend", "mpi", "--bucket-mb", "0.05"});
    const EngineRun gloo = train("gloo", {"--backend", "gloo", "--bucket-mb", "0.05"});

    const auto reference = floatsIn(folder.path / "baseline.bin");
    const auto baseline_header = nlohmann::json::parse(recordsOf<HeaderRecord>(baseline).front().json);
    REQUIRE(reference.size() == baseline_header["parameters"].get<std::size_t>());
    for (const char* name : {"mpi", "gloo"}) {
        INFO(name);
        const auto values = floatsIn(folder.path / (std::string(name) + ".bin"));
        REQUIRE(values.size() == reference.size());
        double largest = 0;
        for (std::size_t i = 0; i < values.size(); ++i)
            largest = std::max(largest, std::abs(static_cast<double>(values[i]) - reference[i]));
        // fp32; averaging 2 ranks is exact in any bucket order
        CHECK_OUTCOME_BELOW(std::string("largest parameter difference from the baseline, ") + name, largest,
                            1e-5);
    }

    for (const EngineRun* run : {&baseline, &mpi, &gloo}) {
        const auto header = nlohmann::json::parse(recordsOf<HeaderRecord>(*run).front().json);
        const bool overlap = header["overlap"].get<bool>();
        INFO(header["allreduce"]);
        const auto steps = recordsOf<StepRecord>(*run);
        REQUIRE(steps.size() == 3);
        double hidden = 0;
        for (const auto& s : steps) {
            CHECK(s.data_s + s.forward_s + s.backward_s + s.allreduce_s + s.optimizer_s ==
                  Approx(s.step_s).epsilon(1e-9));
            CHECK(s.comm_hidden_s >= 0);
            CHECK(s.comm_hidden_s <= s.backward_s);
            hidden += s.comm_hidden_s;
        }
        if (overlap)
            CHECK(hidden > 0); // the first buckets are reduced while backward goes on
        else
            CHECK(hidden == 0);
        const auto rank_times = recordsOf<RankTimesRecord>(*run);
        REQUIRE(rank_times.size() == 3);
        for (const auto& r : rank_times) {
            REQUIRE(r.step_s.size() == 2);
            REQUIRE(r.compute_s.size() == 2);
            for (int rank = 0; rank < 2; ++rank) {
                CHECK(r.compute_s[rank] > 0);
                CHECK(r.compute_s[rank] <= r.step_s[rank]);
            }
        }
        CHECK(steps[0].loss == Approx(recordsOf<StepRecord>(baseline)[0].loss).epsilon(1e-6));

        // Each bucket's all-reduce, every step: its bytes, and its start and end on the step's time line.
        const auto elements = header["bucket_elements"].get<std::vector<std::int64_t>>();
        const auto buckets = recordsOf<BucketTimesRecord>(*run);
        REQUIRE(buckets.size() == steps.size());
        for (std::size_t i = 0; i < buckets.size(); ++i) {
            const BucketTimesRecord& b = buckets[i];
            const StepRecord& s = steps[i];
            INFO("step " << b.step);
            CHECK(b.step == s.step);
            REQUIRE(b.bytes.size() == elements.size());
            std::int64_t bytes = 0;
            for (std::size_t k = 0; k < b.bytes.size(); ++k) {
                CHECK(b.bytes[k] == elements[k] * 4);
                bytes += b.bytes[k];
            }
            CHECK(bytes == (header["parameters"].get<std::int64_t>() + 1) * 4); // fp32; the loss rides along
            const double backward_end = s.data_s + s.forward_s + s.backward_s;
            constexpr double kRounding = 1e-6; // the record's times are rounded to the microsecond
            for (std::size_t k = 0; k < b.bytes.size(); ++k) {
                INFO("bucket " << k << ": " << b.start_s[k] << " s to " << b.end_s[k] << " s of "
                               << s.step_s);
                CHECK(b.start_s[k] >= 0);
                CHECK(b.start_s[k] <= b.end_s[k]);
                CHECK(b.end_s[k] <= s.step_s + kRounding);
                CHECK(b.end_s[k] <= backward_end + s.allreduce_s + kRounding);
                if (!overlap) CHECK(b.start_s[k] >= backward_end - kRounding); // all after backward
            }
            CHECK(b.start_s.front() < b.end_s.back());
            if (overlap) CHECK(b.start_s.front() < backward_end); // reduced while backward goes on
        }
    }
    const auto mpi_header = nlohmann::json::parse(recordsOf<HeaderRecord>(mpi).front().json);
    CHECK(mpi_header["backend"] == "mpi");
    CHECK(mpi_header["mpi_thread"] == "multiple"); // the buckets' communication thread calls MPI too
    CHECK(mpi_header["bucket_mb"] == 0.05);
    CHECK(mpi_header["bucket_elements"].size() > 4);
    // Default sizes, as DDP's: a first bucket of 1 MiB (262,144 floats, closed by the parameter that fills
    // it), then 25 MiB, which ResNet-20's other gradients and the loss fit in.
    const auto buckets = baseline_header["bucket_elements"].get<std::vector<std::int64_t>>();
    CHECK(baseline_header["first_bucket_mb"] == 1);
    REQUIRE(buckets.size() == 2);
    CHECK(buckets[0] >= 262144);
    CHECK(buckets[0] + buckets[1] == baseline_header["parameters"].get<std::int64_t>() + 1);
}

TEST_CASE("the NCCL backend without a usable GPU fails with an error naming the problem",
          "[integration][engine]") {
    TemporaryFolder folder;
    const EngineRun run = runEngine(folder, 2,
                                    {"--workload", "allreduce-sweep", "--backend", "nccl",
                                     "--sweep-max-log10", "2", "--sweep-points", "3", "--repetitions", "2"});
    INFO(run.output);
    const auto errors = recordsOf<ErrorRecord>(run);
    // Whether this machine has an NVIDIA GPU is read from the driver's device files, not from the engine.
    if (std::filesystem::exists("/dev/nvidiactl") && std::filesystem::exists("/dev/nvidia0")) {
        REQUIRE(run.status == 0); // a machine with a GPU: then every result must be right
        CHECK(errors.empty());
        REQUIRE(!recordsOf<CollectiveRecord>(run).empty());
        for (const auto& c : recordsOf<CollectiveRecord>(run))
            CHECK(c.correct);
        return;
    }
    CHECK(run.status != 0);
    CHECK(recordsOf<CollectiveRecord>(run).empty());
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0].message,
               Catch::Contains("no usable CUDA device") || Catch::Contains("built without NCCL"));
}

TEST_CASE(
    "without a usable GPU, device cuda stops at start naming the cause, and auto trains on the CPU with "
    "its header saying why",
    "[integration][engine]") {
    if (std::filesystem::exists("/dev/nvidiactl") && std::filesystem::exists("/dev/nvidia0")) {
        WARN("this machine has an NVIDIA GPU: the no-GPU behaviour is not what it shows");
        return;
    }
    const std::vector<std::string> training = {"--workload",       "resnet20", "--dataset", "synthetic-cifar",
                                               "--batch-per-rank", "8",        "--steps",   "2",
                                               "--eval-samples",   "16"};
    TemporaryFolder folder;
    auto cuda_args = training;
    cuda_args.insert(cuda_args.end(), {"--device", "cuda"});
    const EngineRun cuda = runEngine(folder, 2, cuda_args, "cuda.jsonl");
    INFO(cuda.output);
    CHECK(cuda.status != 0);
    CHECK(recordsOf<StepRecord>(cuda).empty());
    const auto errors = recordsOf<ErrorRecord>(cuda);
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0].message, Catch::StartsWith("--device cuda: ") &&
                                      (Catch::Contains("built without LibTorch's CUDA libraries") ||
                                       Catch::Contains("sees no CUDA device")));

    auto auto_args = training;
    auto_args.insert(auto_args.end(), {"--device", "auto"});
    const EngineRun cpu = runEngine(folder, 2, auto_args, "auto.jsonl");
    INFO(cpu.output);
    REQUIRE(cpu.status == 0);
    CHECK(recordsOf<StepRecord>(cpu).size() == 2);
    const auto header = nlohmann::json::parse(recordsOf<HeaderRecord>(cpu).front().json);
    CHECK(header["device"]["requested"] == "auto");
    CHECK(header["device"]["type"] == "cpu");
    CHECK_THAT(header["device"]["reason"].get<std::string>(), Catch::StartsWith("no GPU: "));
    CHECK(header["gradient_path"] == "host");
    CHECK(header["peak_tflops"].is_null());
    CHECK(header["gpu_count"] == 0);
    CHECK(!header["gpu_unavailable"].get<std::string>().empty()); // the CUDA runtime's reason
}
