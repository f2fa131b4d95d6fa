// Specification of the engine's parts without LibTorch: the IDX reader, the command line, fp16 loss scaling
// and the MLPerf compliance log.
#include "engine_options.h"
#include "file_text.h"
#include "idx_file.h"
#include "launch_environment.h"
#include "loss_scaler.h"
#include "message_sizes.h"
#include "mllog_writer.h"
#include "mlperf_benchmark.h"
#include "temporary_folder.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <zlib.h>

using namespace scalebench;

namespace {
const std::vector<unsigned char> kImages = {0, 0, 8, 3, 0, 0, 0, 2, 0, 0,  0,  2,
                                            0, 0, 0, 3, // 2 images of 2x3
                                            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
void writePlain(const std::filesystem::path& p, const std::vector<unsigned char>& bytes) {
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}
void writeGzip(const std::filesystem::path& p, const std::vector<unsigned char>& bytes) {
    gzFile f = gzopen(p.c_str(), "wb");
    gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(f);
}
} // namespace

TEST_CASE("IDX files are read plain or gzip-compressed", "[engine][data]") {
    TemporaryFolder folder;
    writePlain(folder.path / "images", kImages);
    writeGzip(folder.path / "images.gz", kImages);
    for (const char* name : {"images", "images.gz"}) {
        const IdxArray a = readIdxFile(folder.path / name);
        CHECK(a.dims == std::vector<std::int64_t>{2, 2, 3});
        REQUIRE(a.data.size() == 12);
        CHECK(a.data[11] == 12);
    }
}

TEST_CASE("broken IDX files are refused with the file and the problem", "[engine][data]") {
    TemporaryFolder folder;
    auto truncated = kImages;
    truncated.resize(20);
    writePlain(folder.path / "truncated", truncated);
    CHECK_THROWS_WITH(readIdxFile(folder.path / "truncated"), Catch::Contains("truncated data"));
    writePlain(folder.path / "floats", {0, 0, 0x0D, 1, 0, 0, 0, 1, 0, 0, 0, 0});
    CHECK_THROWS_WITH(readIdxFile(folder.path / "floats"), Catch::Contains("is not unsigned byte"));
    writePlain(folder.path / "text", {'h', 'e', 'l', 'l', 'o'});
    CHECK_THROWS_WITH(readIdxFile(folder.path / "text"), Catch::Contains("bad magic"));
    CHECK_THROWS_WITH(readIdxFile(folder.path / "missing"), Catch::Contains("missing: cannot open"));
}

TEST_CASE("Debian's Fashion-MNIST test labels: 10,000 labels of 10 classes", "[engine][data]") {
    const IdxArray labels = readIdxFile("/usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz");
    CHECK(labels.dims == std::vector<std::int64_t>{10000});
    std::vector<int> per_class(10);
    for (auto l : labels.data) {
        REQUIRE(l < 10);
        ++per_class[l];
    }
    CHECK(per_class == std::vector<int>(10, 1000));
}

TEST_CASE("the engine's command line names a wrong option and its problem", "[engine]") {
    const EngineOptions o = parseEngineOptions({"--metrics", "m.jsonl", "--steps", "50", "--lr", "0.1"});
    CHECK(o.steps == 50);
    CHECK(o.lr == 0.1);
    CHECK_THROWS_WITH(parseEngineOptions({"--steps", "50"}), Catch::Contains("--metrics"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--steps", "many"}),
                      "--steps: 'many' is not a whole number");
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--steps", "0"}), Catch::Contains("at least 1"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--stpes", "5"}),
                      Catch::StartsWith("unknown option '--stpes'"));
}

TEST_CASE("sweep sizes: MLBench task 0's 80 sizes of logspace(0, 8, 80) are 80 distinct whole sizes",
          "[engine]") {
    // MLBench task 0 (seed 004): "tensors of increasing size in np.logspace(0, 8, num=80)". Rounded, the
    // first values are 1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 10, 13 (77 distinct); a repeat takes the next whole size
    // up.
    const auto mlbench = logspaceSizes(8, 80);
    REQUIRE(mlbench.size() == 80);
    CHECK(std::vector<std::int64_t>(mlbench.begin(), mlbench.begin() + 13) ==
          std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 16});
    CHECK(mlbench.back() == 100000000);
    CHECK(std::adjacent_find(mlbench.begin(), mlbench.end(),
                             [](std::int64_t a, std::int64_t b) { return b <= a; }) == mlbench.end());
    for (std::size_t i = 11; i < mlbench.size(); ++i) // from 13 elements up, numpy's value rounded
        CHECK(mlbench[i] == std::llround(std::pow(10.0, 8.0 * static_cast<double>(i) / 79)));
    CHECK(logspaceSizes(6, 13) == std::vector<std::int64_t>{1, 3, 10, 32, 100, 316, 1000, 3162, 10000, 31623,
                                                            100000, 316228, 1000000});
    CHECK(logspaceSizes(1, 10) == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    // More points than whole sizes up to 10^max: refused, not silently fewer.
    CHECK_THROWS_WITH(logspaceSizes(1, 11), Catch::Contains("11 sizes") && Catch::Contains("10"));
}

TEST_CASE("the engine's communication options: backend, buckets, overlap and the sweep's cases", "[engine]") {
    const EngineOptions defaults = parseEngineOptions({"--metrics", "m"});
    CHECK(defaults.backend == "mpi");
    CHECK(defaults.bucket_mb == 25);      // PyTorch DDP's bucket_cap_mb
    CHECK(defaults.first_bucket_mb == 1); // and its _DEFAULT_FIRST_BUCKET_BYTES
    CHECK(defaults.overlap);
    CHECK(defaults.collectives == std::vector<std::string>{"allreduce"});
    CHECK(defaults.dtypes == std::vector<std::string>{"float32"});
    CHECK(defaults.ops == std::vector<std::string>{"sum"});
    CHECK(defaults.in_place == "no");
    CHECK(defaults.timing == "back-to-back"); // nccl-tests' loop
    CHECK(defaults.target_accuracy == 0);

    const EngineOptions o =
        parseEngineOptions({"--metrics", "m", "--backend", "gloo", "--bucket-mb", "0.5", "--first-bucket-mb",
                            "0.25", "--overlap", "no", "--collectives", "alltoall,allreduce,alltoall",
                            "--dtypes", "bfloat16,float16", "--ops", "avg", "--in-place", "both"});
    CHECK(o.backend == "gloo");
    CHECK(o.bucket_mb == 0.5);
    CHECK(o.first_bucket_mb == 0.25);
    CHECK_FALSE(o.overlap);
    CHECK(o.collectives == std::vector<std::string>{"alltoall", "allreduce"}); // repeats dropped
    CHECK(o.dtypes == std::vector<std::string>{"bfloat16", "float16"});
    CHECK(o.ops == std::vector<std::string>{"avg"});
    CHECK(o.in_place == "both");
    CHECK(parseEngineOptions({"--metrics", "m", "--timing", "per-call"}).timing == "per-call");
    CHECK(parseEngineOptions({"--metrics", "m", "--target-accuracy", "0.85"}).target_accuracy == 0.85);
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--target-accuracy", "85"}),
                      Catch::Contains("at most 1"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--timing", "osu"}),
                      Catch::Contains("unknown 'osu'"));

    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--backend", "ucc"}),
                      "--backend: unknown 'ucc' (known: mpi, gloo, nccl)");
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--backend", "mpi,gloo"}),
                      Catch::Contains("takes one value"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--collectives", "allreduce,reduce"}),
                      Catch::Contains("unknown 'reduce'"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--dtypes", "float64"}),
                      Catch::Contains("float64"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--bucket-mb", "-1"}),
                      Catch::Contains("at least 0"));
}

TEST_CASE("the loss scale grows by the factor after a window of clean steps, not before",
          "[engine][precision]") {
    LossScaler scaler({.initial_scale = 128, .factor = 2, .window = 3});
    CHECK(scaler.scale() == 128);
    CHECK(scaler.update(false));
    CHECK(scaler.update(false));
    CHECK(scaler.scale() == 128); // 2 clean steps of 3
    CHECK(scaler.update(false));
    CHECK(scaler.scale() == 256); // the window's end
    for (int i = 0; i < 3; ++i)
        CHECK(scaler.update(false));
    CHECK(scaler.scale() == 512);
    CHECK(scaler.skippedSteps() == 0);
}

TEST_CASE("an overflow skips the step, divides the scale and restarts the window", "[engine][precision]") {
    LossScaler scaler({.initial_scale = 1024, .factor = 2, .window = 2});
    CHECK(scaler.update(false));
    CHECK_FALSE(scaler.update(true)); // skipped
    CHECK(scaler.scale() == 512);
    CHECK(scaler.skippedSteps() == 1);
    CHECK(scaler.update(false)); // one clean step since the overflow: no growth yet
    CHECK(scaler.scale() == 512);
    CHECK(scaler.update(false));
    CHECK(scaler.scale() == 1024);
    CHECK_FALSE(scaler.update(true));
    CHECK_FALSE(scaler.update(true));
    CHECK(scaler.scale() == 256);
    CHECK(scaler.skippedSteps() == 3);
    CHECK(scaler.state().clean_steps == 0);
}

TEST_CASE("the loss scale stays within its maximum and minimum", "[engine][precision]") {
    // MLBench's GNMT (seed 004): initial 2^10, factor 2, window 128, max 2^13.
    LossScaler gnmt({.initial_scale = 1024, .factor = 2, .window = 128, .max_scale = 8192});
    for (int i = 0; i < 128 * 5; ++i)
        gnmt.update(false);
    CHECK(gnmt.scale() == 8192);

    LossScaler low({.initial_scale = 4, .factor = 2, .window = 10, .min_scale = 1});
    CHECK_FALSE(low.update(true));
    CHECK_FALSE(low.update(true));
    CHECK(low.scale() == 1);
    CHECK_THROWS_WITH(low.update(true), Catch::Contains("minimum scale") && Catch::Contains("exploding"));
}

TEST_CASE("the default loss scaling is MLBench's Transformer's and a scaler resumes from its state",
          "[engine][precision]") {
    LossScaler scaler;
    CHECK(scaler.scale() == 128);
    CHECK(scaler.options().factor == 2);
    CHECK(scaler.options().window == 2000);
    scaler.update(true);
    scaler.update(false);
    LossScaler resumed;
    resumed.restore(scaler.state());
    CHECK(resumed.scale() == 64);
    CHECK(resumed.state().clean_steps == 1);
    CHECK(resumed.skippedSteps() == 1);
    CHECK_THROWS_AS(LossScaler({.factor = 1}), std::invalid_argument);
    CHECK_THROWS_AS(LossScaler({.window = 0}), std::invalid_argument);
}

TEST_CASE("MLLOG lines are encoded as mlperf-logging 4.1.68's mllog writes them", "[engine][mllog]") {
    // Every expected line below is what mllog._encode_log of mlperf-logging 4.1.68 printed for the same
    // arguments (Python 3.11, without numpy), e.g.
    //   mllog._encode_log("", 1593472045000, "POINT_IN_TIME", "global_batch_size", 256,
    //                     {"file": "train.py", "lineno": 12})
    CHECK(MllogWriter::encode("", 1593472045000, "POINT_IN_TIME", "global_batch_size", 256,
                              {{"file", "train.py"}, {"lineno", 12}}) ==
          R"(:::MLLOG {"namespace": "", "time_ms": 1593472045000, "event_type": "POINT_IN_TIME", )"
          R"("key": "global_batch_size", "value": 256, "metadata": {"file": "train.py", "lineno": 12}})");
    CHECK(MllogWriter::encode("", 1, "INTERVAL_END", "run_stop", nullptr,
                              {{"file", "a.cpp"}, {"lineno", 3}, {"status", "success"}}) ==
          R"(:::MLLOG {"namespace": "", "time_ms": 1, "event_type": "INTERVAL_END", "key": "run_stop", )"
          R"("value": null, "metadata": {"file": "a.cpp", "lineno": 3, "status": "success"}})");
    CHECK(
        MllogWriter::encode("", 1, "POINT_IN_TIME", "eval_accuracy", 0.7512,
                            {{"epoch_num", 2}, {"samples_count", 1024}}) ==
        R"(:::MLLOG {"namespace": "", "time_ms": 1, "event_type": "POINT_IN_TIME", "key": "eval_accuracy", )"
        R"("value": 0.7512, "metadata": {"epoch_num": 2, "samples_count": 1024}})");
    // Values as given: strings, integers, floats as Python's repr (2.0 keeps its ".0"), booleans as JSON's;
    // non-ASCII is escaped.
    CHECK_THAT(MllogWriter::encode("", 1, "POINT_IN_TIME", "opt_name", "sgd", {}),
               Catch::Contains(R"("value": "sgd", "metadata": {}})"));
    CHECK_THAT(MllogWriter::encode("", 1, "POINT_IN_TIME", "opt_base_learning_rate", 1e-05, {}),
               Catch::Contains(R"("value": 1e-05,)"));
    CHECK_THAT(MllogWriter::encode("", 1, "POINT_IN_TIME", "opt_base_learning_rate", 2.0, {}),
               Catch::Contains(R"("value": 2.0,)"));
    CHECK_THAT(MllogWriter::encode("", 1, "POINT_IN_TIME", "x", 1e16, {}),
               Catch::Contains(R"("value": 1e+16,)"));
    CHECK_THAT(MllogWriter::encode("", 1, "POINT_IN_TIME", "cache_clear", true, {}),
               Catch::Contains(R"("value": true,)"));
    CHECK_THAT(MllogWriter::encode("", 1, "POINT_IN_TIME", "submission_org", "M\xc3\xbcnchen", {}),
               Catch::Contains(R"("value": "M\u00fcnchen",)"));
}

TEST_CASE("the MLLOG writer appends one line an event with its kind, the call site and the metadata",
          "[engine][mllog]") {
    TemporaryFolder folder;
    const auto path = (folder.path / "mllog.txt").string();
    const auto before = MllogWriter::nowMs();
    {
        MllogWriter log(path);
        log.start("run_start");
        log.event("eval_accuracy", 0.5, {{"epoch_num", 2}});
        log.end("run_stop", nullptr, {{"status", "aborted"}});
    }
    MllogWriter(path).event("seed", 7);
    const std::string text = fileText(path);
    std::vector<nlohmann::json> lines;
    std::size_t from = 0;
    while (from < text.size()) {
        const auto newline = text.find('\n', from);
        REQUIRE(newline != std::string::npos);
        const std::string line = text.substr(from, newline - from);
        REQUIRE(line.rfind(":::MLLOG ", 0) == 0);
        lines.push_back(nlohmann::json::parse(line.substr(9)));
        from = newline + 1;
    }
    REQUIRE(lines.size() == 4);
    CHECK(lines[0]["event_type"] == "INTERVAL_START");
    CHECK(lines[0]["key"] == "run_start");
    CHECK(lines[0]["namespace"] == "");
    CHECK(lines[0]["time_ms"].get<std::int64_t>() >= before);
    CHECK(lines[0]["metadata"]["file"] == "test_engine_io.cpp");
    CHECK(lines[0]["metadata"]["lineno"].get<int>() > 0);
    CHECK(lines[1]["event_type"] == "POINT_IN_TIME");
    CHECK(lines[1]["value"] == 0.5);
    CHECK(lines[1]["metadata"]["epoch_num"] == 2);
    CHECK(lines[2]["event_type"] == "INTERVAL_END");
    CHECK(lines[2]["metadata"]["status"] == "aborted");
    CHECK(lines[3]["key"] == "seed");
    CHECK(lines[3]["value"].is_number_integer());
    CHECK(lines[3]["value"] == 7);
    CHECK_THROWS_WITH(MllogWriter((folder.path / "no" / "such.txt").string()),
                      Catch::Contains("no/such.txt"));
}

TEST_CASE("each workload's MLPerf benchmark and the ruleset its MLLOG file is checked against, or none",
          "[engine][mllog]") {
    CHECK(mlperfBenchmarkOf("resnet20")->benchmark == "resnet");
    CHECK(mlperfBenchmarkOf("resnet50")->ruleset == "4.0.0");
    CHECK(mlperfBenchmarkOf("bert")->ruleset == "5.0.0");
    CHECK(mlperfBenchmarkOf("llama")->benchmark == "llama31_8b");
    CHECK(mlperfBenchmarkOf("llama")->ruleset == "6.1.0");
    CHECK(mlperfBenchmarkOf("gnmt")->ruleset == "0.7.0");
    CHECK_FALSE(mlperfBenchmarkOf("lstm-lm").has_value());
    CHECK_FALSE(mlperfBenchmarkOf("logistic-regression").has_value());
    CHECK_FALSE(mlperfBenchmarkOf("allreduce-sweep").has_value());
    const std::string usage = engineUsage();
    CHECK_THAT(usage, Catch::Contains("llama: llama31_8b (training 6.1.0)") &&
                          Catch::Contains("lstm-lm: none (its log names no submission_benchmark)"));
    CHECK(mlperfPrecision("fp32", false) == "fp32");
    CHECK(mlperfPrecision("fp32", true) == "tf32");
    CHECK(mlperfPrecision("bf16", true) == "bfloat16");
    CHECK(mlperfPrecision("fp16", false) == "fp16");
}

TEST_CASE(
    "the header keeps the NCCL, UCX and Open MPI settings of a launch, not what mpirun sets afresh each "
    "time",
    "[engine][environment]") {
    const char* entries[] = {"NCCL_DEBUG=INFO",
                             "NCCL_IB_HCA=mlx5_0,mlx5_1",
                             "UCX_TLS=rc,sm",
                             "OMPI_MCA_btl=^openib",
                             "OMPI_MCA_orte_hnp_uri=3395813376.0;tcp://10.0.0.1:41235",
                             "OMPI_MCA_ess_base_jobid=3395813377",
                             "OMPI_COMM_WORLD_RANK=0",
                             "PMIX_RANK=0",
                             "CUDA_VISIBLE_DEVICES=0,1",
                             "OMP_NUM_THREADS=4",
                             "HOME=/home/me",
                             "SSH_AUTH_SOCK=/tmp/agent",
                             "NO_EQUALS_SIGN",
                             nullptr};
    const auto kept = launchEnvironment(entries);
    CHECK(kept == std::map<std::string, std::string>{{"CUDA_VISIBLE_DEVICES", "0,1"},
                                                     {"NCCL_DEBUG", "INFO"},
                                                     {"NCCL_IB_HCA", "mlx5_0,mlx5_1"},
                                                     {"OMPI_MCA_btl", "^openib"},
                                                     {"OMP_NUM_THREADS", "4"},
                                                     {"UCX_TLS", "rc,sm"}});
    CHECK(launchEnvironment(nullptr).empty());
}
