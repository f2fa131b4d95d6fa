// Specification of the metric stream parser: records from any split of the bytes, broken lines counted, never
// fatal.
#include "analysis.h"
#include "metric_stream_parser.h"
#include "results_table.h"

#include <catch2/catch.hpp>

using namespace scalebench;

namespace {
const std::string kHeader =
    R"({"type":"header","version":1,"workload":"resnet20","dataset":"fashion-mnist","ranks":2})";
std::string step(int n, double loss) {
    return R"({"type":"step","step":)" + std::to_string(n) + R"(,"loss":)" + std::to_string(loss) +
           R"(,"samples_per_s":500,"step_s":0.5,"data_s":0.01,"forward_s":0.15,"backward_s":0.3,"allreduce_s":0.03,"optimizer_s":0.01})";
}
} // namespace

TEST_CASE("records come out whole whatever the chunks the bytes arrive in", "[core][stream]") {
    const std::string stream = kHeader + "\n" + step(1, 2.3) + "\n" + step(2, 2.1) + "\n";
    for (std::size_t chunk : {1, 7, 64, 100000}) {
        MetricStreamParser parser;
        std::vector<MetricRecord> records;
        for (std::size_t at = 0; at < stream.size(); at += chunk) {
            auto got = parser.feed(std::string_view(stream).substr(at, chunk));
            records.insert(records.end(), got.begin(), got.end());
        }
        REQUIRE(records.size() == 3);
        CHECK(std::get<HeaderRecord>(records[0]).ranks == 2);
        CHECK(std::get<StepRecord>(records[2]).loss == Approx(2.1));
        CHECK(std::get<StepRecord>(records[2]).allreduce_s == Approx(0.03));
        CHECK(parser.consumedBytes() == static_cast<std::int64_t>(stream.size()));
        CHECK(parser.brokenLineCount() == 0);
    }
}

TEST_CASE("garbage lines are counted with their line numbers and the good records around them kept",
          "[core][stream]") {
    MetricStreamParser parser;
    auto records =
        parser.feed(kHeader + "\n" + "}}} not json\n" + step(1, 2.3) + "\n" + R"({"type":"step","step":2})" +
                    "\n" + "[1,2,3]\n" + "\n" + step(3, 1.9) + "\n");
    CHECK(records.size() == 3);
    REQUIRE(parser.brokenLineCount() == 3);
    const auto& broken = parser.brokenLines();
    CHECK(broken[0].line_number == 2);
    CHECK_THAT(broken[0].reason, Catch::StartsWith("not JSON"));
    CHECK(broken[1].line_number == 4);
    CHECK(broken[1].reason == "'step' record without number 'loss'");
    CHECK(broken[2].reason == "not a JSON object");
}

// Found by fuzz_metric_stream (fuzz/regressions/metric_stream): a version of 1e300 was cast to int, which is
// undefined (UBSan: "1e+300 is outside the range of representable values of type 'int'").
TEST_CASE("a count out of its integer's range makes the line broken, naming the key", "[core][stream]") {
    MetricStreamParser parser;
    auto records = parser.feed(R"({"type":"header","version":1e300,"workload":"w","dataset":"d","ranks":2})"
                               "\n"
                               R"({"type":"error","rank":2147483648,"message":"x"})"
                               "\n"
                               R"({"type":"step","step":-9.3e18,"loss":1,"samples_per_s":1,"step_s":1})"
                               "\n"
                               R"({"type":"error","rank":2147483647,"message":"the last int"})"
                               "\n");
    REQUIRE(records.size() == 1);
    CHECK(std::get<ErrorRecord>(records[0]).rank == 2147483647);
    REQUIRE(parser.brokenLineCount() == 3);
    CHECK(parser.brokenLines()[0].reason == "'header' record with 'version' 1e+300, out of range");
    CHECK(parser.brokenLines()[1].reason == "'error' record with 'rank' 2147483648.0, out of range");
    CHECK_THAT(parser.brokenLines()[2].reason, Catch::StartsWith("'step' record with 'step' -9.3e+18"));
}

TEST_CASE("records of types from a newer engine are skipped, not counted as broken", "[core][stream]") {
    MetricStreamParser parser;
    auto records = parser.feed(R"({"type":"gpu_power","watts":700})"
                               "\n" +
                               step(1, 2.0) + "\n");
    CHECK(records.size() == 1);
    CHECK(parser.brokenLineCount() == 0);
}

TEST_CASE("a last line without its newline is parsed when the stream ends", "[core][stream]") {
    MetricStreamParser parser;
    CHECK(parser.feed(step(1, 2.0)).empty());
    CHECK(parser.consumedBytes() == 0);
    CHECK(parser.finish().size() == 1);
}

TEST_CASE("eval, summary and error records carry their fields", "[core][stream]") {
    MetricStreamParser parser;
    auto records = parser.feed(
        R"({"type":"eval","step":100,"accuracy":0.81,"loss":0.5})"
        "\n"
        R"({"type":"summary","steps":100,"wall_s":60,"samples_per_s":400,"final_loss":0.4,"final_accuracy":null})"
        "\n"
        R"({"type":"error","rank":1,"message":"out of memory"})"
        "\n");
    REQUIRE(records.size() == 3);
    CHECK(std::get<EvalRecord>(records[0]).metric == "accuracy"); // a version-1 eval record: accuracy only
    CHECK(std::get<EvalRecord>(records[0]).value == Approx(0.81));
    CHECK_FALSE(std::get<SummaryRecord>(records[1]).final_eval.has_value());
    CHECK(std::get<ErrorRecord>(records[2]).message == "out of memory");
}

TEST_CASE("an eval record names its metric, and a language workload's steps carry tokens/s, FLOPs/s and MFU",
          "[core][stream]") {
    MetricStreamParser parser;
    auto records = parser.feed(
        R"({"type":"eval","step":40,"metric":"perplexity","value":143.5,"loss":4.966})"
        "\n"
        R"({"type":"step","step":1,"loss":5,"samples_per_s":8,"step_s":2,"tokens_per_s":16384,)"
        R"("model_flops_per_s":1.5e12,"mfu":0.25})"
        "\n"
        R"({"type":"summary","steps":40,"wall_s":60,"samples_per_s":8,"eval_metric":"perplexity",)"
        R"("final_value":143.5,"final_accuracy":null})"
        "\n");
    REQUIRE(records.size() == 3);
    const auto& eval = std::get<EvalRecord>(records[0]);
    CHECK(eval.metric == "perplexity");
    CHECK(eval.value == Approx(143.5));
    const auto& step = std::get<StepRecord>(records[1]);
    CHECK(step.tokens_per_s == Approx(16384));
    CHECK(step.model_flops_per_s == Approx(1.5e12));
    CHECK(step.mfu == Approx(0.25));
    const auto& summary = std::get<SummaryRecord>(records[2]);
    CHECK(summary.eval_metric == "perplexity");
    CHECK(summary.final_eval == Approx(143.5));
}

TEST_CASE(
    "a collective sweep record carries its size, time and bandwidths, which a hand calculation reproduces",
    "[core][stream]") {
    MetricStreamParser parser;
    const auto records = parser.feed(
        R"({"type":"collective","collective":"allreduce","dtype":"float32","elements":1000000,"bytes":4000000,)"
        R"("ranks":4,"repetitions":100,"time_s":0.0025,"algbw_gbps":1.6,"busbw_gbps":2.4,"correct":true})"
        "\n");
    REQUIRE(records.size() == 1);
    const auto& c = std::get<CollectiveRecord>(records[0]);
    CHECK(c.elements == 1000000);
    CHECK(c.correct);
    const double algbw = 4e6 / 0.0025 / 1e9; // bytes / time, GB/s
    CHECK(c.algbw_gbps == Approx(algbw));
    CHECK(c.busbw_gbps == Approx(algbw * busBandwidthFactor(c.collective, c.ranks))); // 2 (4-1)/4 = 1.5
}

TEST_CASE("per-rank step times arrive as one record per step, ranks in order", "[core][stream]") {
    MetricStreamParser parser;
    const auto records = parser.feed(
        R"({"type":"rank_times","step":7,"step_s":[0.5,0.5],"compute_s":[0.3,0.45]})"
        "\n"
        R"({"type":"rank_times","step":8,"step_s":[0.5,0.5],"compute_s":[0.3]})"
        "\n"
        R"({"type":"step","step":8,"loss":1,"samples_per_s":2,"step_s":0.5,"allreduce_s":0.01,"comm_hidden_s":0.2})"
        "\n");
    REQUIRE(records.size() == 2);
    const auto& ranks = std::get<RankTimesRecord>(records[0]);
    CHECK(ranks.step == 7);
    CHECK(ranks.compute_s == std::vector<double>{0.3, 0.45});
    CHECK(std::get<StepRecord>(records[1]).comm_hidden_s == Approx(0.2));
    REQUIRE(parser.brokenLineCount() == 1);
    CHECK_THAT(parser.brokenLines()[0].reason, Catch::Contains("2 step times but 1 compute times"));
}

TEST_CASE(
    "each bucket's all-reduce arrives as one record per step, buckets in order, and uneven arrays break it",
    "[core][stream]") {
    MetricStreamParser parser;
    const auto records = parser.feed(
        R"({"type":"buckets","step":3,"bytes":[4096,1048580],"start_s":[0.012,0.02],"end_s":[0.015,0.031]})"
        "\n"
        R"({"type":"buckets","step":4,"bytes":[4096,1048580],"start_s":[0.012],"end_s":[0.015,0.031]})"
        "\n"
        R"({"type":"buckets","step":6,"bytes":[-4],"start_s":[0.012],"end_s":[0.015]})"
        "\n"
        R"({"type":"buckets","step":7,"bytes":[],"start_s":[],"end_s":[]})"
        "\n" +
        step(7, 1.5) + "\n");
    REQUIRE(records.size() == 3);
    CHECK(std::get<BucketTimesRecord>(records[0]) ==
          BucketTimesRecord{3, {4096, 1048580}, {0.012, 0.02}, {0.015, 0.031}});
    CHECK(std::get<BucketTimesRecord>(records[1]).bytes.empty()); // a model without buckets: nothing to say
    CHECK(std::get<StepRecord>(records[2]).step_s == 0.5);        // the step's own figures untouched
    REQUIRE(parser.brokenLineCount() == 2);
    CHECK_THAT(parser.brokenLines()[0].reason, Catch::Contains("2 sizes, 1 starts and 2 ends"));
    CHECK_THAT(parser.brokenLines()[1].reason, Catch::Contains("negative 'bytes'"));
}

TEST_CASE("a collective record names its backend, reduction and whether it ran in place", "[core][stream]") {
    MetricStreamParser parser;
    const auto records = parser.feed(
        R"({"type":"collective","backend":"gloo","collective":"reducescatter","op":"avg","in_place":true,)"
        R"("dtype":"bfloat16","elements":8,"bytes":16,"ranks":2,"time_s":0.001})"
        "\n");
    REQUIRE(records.size() == 1);
    const auto& c = std::get<CollectiveRecord>(records[0]);
    CHECK(c.backend == "gloo");
    CHECK(c.op == "avg");
    CHECK(c.in_place);
    CHECK(c.dtype == "bfloat16");
}

TEST_CASE("a summary without throughput (an outside tool's, MLPerf's) reads with none", "[core][stream]") {
    MetricStreamParser parser;
    const auto records = parser.feed(R"({"type":"summary","steps":0,"wall_s":288.37,"target_reached":true,)"
                                     R"("mlperf":{"time_to_train_min":4.806,"status":"success"}})"
                                     "\n");
    REQUIRE(records.size() == 1);
    const auto& summary = std::get<SummaryRecord>(records[0]);
    CHECK(summary.samples_per_s == 0);
    CHECK(summary.wall_s == 288.37);
    CHECK(summary.target_reached);
    CHECK(parser.brokenLineCount() == 0);
}

// The device self-check's verdict as the engine wrote it (scalebench-engine --check-device yes --device cpu
// --steps 3 --workload llama --preset small --seq-len 32 --batch-per-rank 2, at 38c9132).
const char* const kDeviceCheckLine =
    R"({"checks":[{"max_abs_difference":0.0,"name":"rms_norm: fused kernel = x / sqrt(mean(x^2) + eps) x weight",)"
    R"("passed":true,"tolerance":0.0001},{"max_abs_difference":2.384185791015625e-07,"name":"rotary: cached )"
    R"(tables = reference formula","passed":true,"tolerance":0.0001},{"max_abs_difference":1.1920928955078125e-07,)"
    R"("name":"adamw: fused kernel = LibTorch AdamW, 3 steps","passed":true,"tolerance":1e-05},)"
    R"({"max_abs_difference":0.0,"name":"clipping: foreach norms = LibTorch clip_grad_norm_","passed":true,)"
    R"("tolerance":1e-06},{"again":[6.968806266784668,7.016097068786621,7.0337233543396],"losses":)"
    R"([6.968806266784668,7.016097068786621,7.0337233543396],"name":"the same seeded steps twice: bit-identical )"
    R"(losses","passed":true}],"device":"cpu","rank":0,"ranks_passed":true,"steps":3,"type":"device_check",)"
    R"("verdict":"pass","workload":"llama"})";

TEST_CASE("the device self-check's verdict reads with each check, and the figure it was judged by",
          "[core][stream]") {
    MetricStreamParser parser;
    const auto records = parser.feed(std::string(kDeviceCheckLine) + "\n");
    REQUIRE(parser.brokenLineCount() == 0);
    REQUIRE(records.size() == 1);
    const auto& d = std::get<DeviceCheckRecord>(records[0]);
    CHECK(d.passed());
    CHECK(d.verdict == "pass");
    CHECK(d.ranks_passed);
    CHECK(d.device == "cpu");
    CHECK(d.workload == "llama");
    CHECK(d.steps == 3);
    REQUIRE(d.checks.size() == 5);
    CHECK(d.checks[1] == DeviceCheck{"rotary: cached tables = reference formula", true, "max_abs_difference",
                                     2.384185791015625e-07, 1e-4});
    // The same seeded steps twice are judged bit for bit: no figure, no tolerance.
    CHECK(d.checks[4] == DeviceCheck{"the same seeded steps twice: bit-identical losses", true, "", {}, {}});
    CHECK(formatDeviceCheck(d) == "device check on cpu: pass (5 of 5 checks)");
}

TEST_CASE(
    "a failed device check names its failed checks, and a verdict its checks contradict is a broken line",
    "[core][stream]") {
    MetricStreamParser parser;
    const auto records = parser.feed(
        R"({"type":"device_check","workload":"llama","device":"cuda:0","steps":6,"verdict":"fail",)"
        R"("ranks_passed":false,"checks":[{"name":"rms_norm","passed":true,"max_abs_difference":0,"tolerance":1e-4},)"
        R"({"name":"gpu against cpu","passed":false,"max_relative_difference":0.01,"tolerance":0.002},)"
        R"({"name":"prefetched = synchronous","passed":false}]})"
        "\n"
        R"({"type":"device_check","device":"cpu","steps":3,"verdict":"pass","checks":[{"name":"a","passed":false}]})"
        "\n"
        R"({"type":"device_check","device":"cpu","steps":3,"verdict":"maybe","checks":[]})"
        "\n"
        R"({"type":"device_check","device":"cpu","steps":3,"verdict":"fail","checks":[{"passed":false}]})"
        "\n"
        R"({"type":"device_check","device":"cpu","steps":3,"verdict":"fail"})"
        "\n");
    REQUIRE(records.size() == 1);
    const auto& d = std::get<DeviceCheckRecord>(records[0]);
    CHECK_FALSE(d.passed());
    CHECK(d.checks[1].figure == "max_relative_difference");
    CHECK(formatDeviceCheck(d) ==
          "device check on cuda:0: FAIL: gpu against cpu (max_relative_difference 0.01, tolerance 0.002); "
          "prefetched = synchronous");
    REQUIRE(parser.brokenLineCount() == 4);
    CHECK_THAT(parser.brokenLines()[0].reason, Catch::Contains("verdict pass but check 'a' failed"));
    CHECK_THAT(parser.brokenLines()[1].reason, Catch::Contains("verdict 'maybe', not pass or fail"));
    CHECK_THAT(parser.brokenLines()[2].reason, Catch::Contains("a check that is not {\"name\""));
    CHECK_THAT(parser.brokenLines()[3].reason, Catch::Contains("without array 'checks'"));
}

TEST_CASE("a failed device check whose rank 0 passed every check says another rank failed",
          "[core][stream]") {
    DeviceCheckRecord d{"resnet20", "cuda:0", 6, "fail", false, {{"rms_norm", true}, {"adamw", true}}};
    CHECK(formatDeviceCheck(d) ==
          "device check on cuda:0: FAIL: another rank's checks (rank 0 passed 2 of 2)");
}
