// Specification of the MLPerf Training log reader: logs written by mlperf-logging's own mllog
// (tests/data/mllog) as header, eval and summary records, with time to train as the result summarizer
// computes it.
#include "analysis.h"
#include "file_text.h"
#include "mllog_reader.h"
#include "reading_in_chunks.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace scalebench;
using nlohmann::json;

namespace {

const std::filesystem::path kFixtures = SCALEBENCH_SOURCE_DIR "/tests/data/mllog";

using Read = ReadText;

// Feeds `text` in chunks of `chunk` bytes (0: all at once), then finishes.
Read readMllog(const std::string& text, std::size_t chunk = 0, int ranks = 8) {
    MllogReader reader(OutputContext{ranks, "python"});
    Read read = readInChunks(reader, text, chunk);
    REQUIRE(read.broken_count == static_cast<std::int64_t>(read.broken.size()));
    return read;
}

template <typename Record> std::vector<Record> all(const Read& read) {
    std::vector<Record> out;
    for (const auto& r : read.records)
        if (const auto* x = std::get_if<Record>(&r)) out.push_back(*x);
    return out;
}

// time_ms of the file's first line logging `key`, read from the file itself.
double timeOf(const std::string& text, const std::string& key) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const auto at = line.find(":::MLLOG ");
        if (at == std::string::npos) continue;
        const json j = json::parse(line.substr(at + 9));
        if (j["key"] == key) return j["time_ms"].get<double>();
    }
    FAIL("no " << key << " in the log");
    return 0;
}

std::string withEachLine(const std::string& text,
                         const std::function<std::string(const std::string&)>& change) {
    std::istringstream lines(text);
    std::string out;
    for (std::string line; std::getline(lines, line);)
        out += change(line);
    return out;
}

} // namespace

TEST_CASE("MLLOG bert run that converged", "[core][mllog]") {
    const std::string text = fileText(kFixtures / "bert_success.log");
    REQUIRE(!text.empty());
    const Read read = readMllog(text);
    CHECK(read.broken.empty());
    REQUIRE(read.records.size() == 5);
    REQUIRE(std::holds_alternative<HeaderRecord>(read.records.front()));
    REQUIRE(std::holds_alternative<SummaryRecord>(read.records.back()));

    const auto header = std::get<HeaderRecord>(read.records.front());
    CHECK(header.version == 1);
    CHECK(header.workload == "bert");
    CHECK(header.dataset.empty());
    CHECK(header.ranks == 8);
    CHECK(header.steps == 0);
    const json h = json::parse(header.json);
    CHECK(h["tool"] == "mllog");
    CHECK(h["benchmark"] == "bert");
    CHECK(h["submission"]["org"] == "scalebench");
    CHECK(h["submission"]["division"] == "closed");
    CHECK(h["submission"]["platform"] == "1xDGX-H100");
    CHECK(h["hyperparameters"]["global_batch_size"] == 448);
    CHECK(h["hyperparameters"]["opt_base_learning_rate"] == 0.00096);
    CHECK(h["hyperparameters"]["seed"] == 12345);
    CHECK(!h["hyperparameters"].contains("cache_clear"));
    CHECK(!h["hyperparameters"].contains("train_samples")); // logged after run_start

    const double start = timeOf(text, "run_start");
    const auto evals = all<EvalRecord>(read);
    REQUIRE(evals.size() == 3);
    CHECK(evals[0].step == 150528); // samples_count, before epoch_num
    CHECK(evals[2].step == 3 * 150528);
    CHECK(evals[2].metric == "accuracy");
    CHECK(evals[2].value == 0.7213);
    CHECK(evals[0].elapsed_s == Approx((timeOf(text, "eval_accuracy") - start) / 1000));

    const auto summary = std::get<SummaryRecord>(read.records.back());
    const double stop = timeOf(text, "run_stop");
    CHECK(summary.wall_s == (stop - start) / 1000);
    CHECK(summary.target_reached);
    CHECK(summary.time_to_target_s == summary.wall_s);
    CHECK(summary.final_eval == 0.7213);
    CHECK(summary.target == Approx(72.0));
    const json s = json::parse(summary.json);
    CHECK(s["type"] == "summary");
    CHECK(s["steps"] == 0);
    CHECK(s["mlperf"]["status"] == "success");
    CHECK(s["mlperf"]["benchmark"] == "bert");
    CHECK(s["mlperf"]["division"] == "closed");
    CHECK(s["mlperf"]["time_to_train_min"].get<double>() == (stop - start) / 60 / 1000);
    CHECK(s["mlperf"]["samples_to_converge"] == 3 * 150528);
}

TEST_CASE("MLLOG resnet run that aborted", "[core][mllog]") {
    const std::string text = fileText(kFixtures / "resnet_aborted.log");
    const Read read = readMllog(text);
    CHECK(read.broken.empty());
    const auto headers = all<HeaderRecord>(read);
    REQUIRE(headers.size() == 1);
    CHECK(headers[0].workload == "resnet");
    CHECK(json::parse(headers[0].json)["hyperparameters"]["lars_opt_base_learning_rate"] == 10.5);
    const auto evals = all<EvalRecord>(read);
    REQUIRE(evals.size() == 2);
    CHECK(evals[0].step == 4); // epoch_num: the log has no samples_count
    CHECK(evals[1].step == 8);
    CHECK(evals[1].value == 0.4019);
    const auto summaries = all<SummaryRecord>(read);
    REQUIRE(summaries.size() == 1);
    CHECK(!summaries[0].target_reached);
    CHECK(!summaries[0].time_to_target_s);
    const double minutes = (timeOf(text, "run_stop") - timeOf(text, "run_start")) / 60 / 1000;
    const json s = json::parse(summaries[0].json);
    CHECK(s["mlperf"]["status"] == "aborted");
    CHECK(s["mlperf"]["time_to_train_min"].get<double>() == minutes);
    CHECK(s["mlperf"]["epochs_to_converge"] == 8);
}

TEST_CASE(
    "MLLOG of the engine's llama as llama31_8b reads its evaluations as a log perplexity to go below 3.3",
    "[core][mllog]") {
    const Read read = readMllog(fileText(kFixtures / "engine_llama.log"), 0, 2);
    CHECK(read.broken.empty());
    const auto evals = all<EvalRecord>(read);
    REQUIRE(evals.size() == 2);
    CHECK(evals[0].metric == "log_perplexity");
    CHECK(evals[0].step == 30 * 16); // samples_count
    CHECK(evals[1].loss == evals[1].value);
    const auto summaries = all<SummaryRecord>(read);
    REQUIRE(summaries.size() == 1);
    CHECK(summaries[0].eval_metric == "log_perplexity");
    CHECK(summaries[0].target == 3.3);
    CHECK(summaries[0].best_eval == std::min(evals[0].value, evals[1].value));
    CHECK(json::parse(summaries[0].json)["mlperf"]["benchmark"] == "llama31_8b");
}

TEST_CASE("MLLOG evaluations by what they measure: Stable Diffusion's FID and CLIP, HPC's eval_error",
          "[core][mllog]") {
    // Two lines of NVIDIA's Stable Diffusion result (training_results_v4.0, eos_n8_ngc24.04_nemo, result_0).
    const std::string sd =
        ":::MLLOG {\"time_ms\": 1715152000000, \"key\": \"submission_benchmark\", \"value\": "
        "\"stable_diffusion\"}\n"
        ":::MLLOG {\"time_ms\": 1715152000001, \"event_type\": \"INTERVAL_START\", \"key\": \"run_start\"}\n"
        ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1715152441205, \"event_type\": \"POINT_IN_TIME\", "
        "\"key\": "
        "\"eval_accuracy\", \"value\": 101.65608201066408, \"metadata\": {\"file\": "
        "\"/workspace/sd/infer_and_eval.py\", \"lineno\": 198, \"samples_count\": 2048000, \"metric\": "
        "\"FID\"}}\n"
        ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1715152448950, \"event_type\": \"POINT_IN_TIME\", "
        "\"key\": "
        "\"eval_accuracy\", \"value\": 0.15625567734241486, \"metadata\": {\"file\": "
        "\"/workspace/sd/infer_and_eval.py\", \"lineno\": 228, \"samples_count\": 2048000, \"metric\": "
        "\"CLIP\"}}\n"
        ":::MLLOG {\"time_ms\": 1715152500000, \"key\": \"run_stop\", \"metadata\": {\"status\": "
        "\"success\"}}\n";
    const Read read = readMllog(sd);
    CHECK(read.broken.empty());
    const auto evals = all<EvalRecord>(read);
    REQUIRE(evals.size() == 2);
    CHECK((evals[0].metric == "fid" && evals[0].step == 2048000));
    CHECK((evals[1].metric == "clip" && evals[1].step == 2048000));
    const auto summaries = all<SummaryRecord>(read);
    REQUIRE(summaries.size() == 1);
    CHECK(summaries[0].eval_metric == "fid"); // the target's metric: FID <= 90
    CHECK(summaries[0].final_eval == Approx(101.65608201066408));
    CHECK(formatEvalValue("fid", 101.656) == "FID 101.66");
    CHECK(formatEvalValue("clip", 0.15626) == "CLIP 0.1563");
    CHECK(formatEvalValue("log_perplexity", 5.55) == "log ppl 5.5500");

    // HPE+LBNL's OpenCatalyst on Perlmutter (MLPerf HPC v3.0): its eval_error, to go below 0.036.
    const Read oc20 = readMllog(fileText(std::filesystem::path(SCALEBENCH_SOURCE_DIR) /
                                         "tests/data/mlperf/public/hpc_results_v3.0/HPE+LBNL/results/"
                                         "perlmutter_128x4/strong/oc20/result_1.txt"));
    CHECK(oc20.broken.empty());
    const auto errors = all<EvalRecord>(oc20);
    REQUIRE_FALSE(errors.empty());
    for (const EvalRecord& e : errors)
        CHECK(e.metric == "error");
    REQUIRE(all<SummaryRecord>(oc20).size() == 1);
    CHECK(all<SummaryRecord>(oc20)[0].target == Approx(0.036));
    CHECK(*all<SummaryRecord>(oc20)[0].final_eval <= 0.036);
}

TEST_CASE("MLLOG read in chunks reads as whole", "[core][mllog]") {
    for (const char* file : {"bert_success.log", "resnet_aborted.log"}) {
        const std::string text = fileText(kFixtures / file);
        const Read whole = readMllog(text);
        for (std::size_t chunk : {1, 7, 100, 4096}) {
            const Read chunked = readMllog(text, chunk);
            CHECK(chunked.records == whole.records);
            CHECK(chunked.broken.size() == whole.broken.size());
        }
    }
}

TEST_CASE("MLLOG CRLF line ends", "[core][mllog]") {
    const std::string text = fileText(kFixtures / "bert_success.log");
    const Read crlf = readMllog(withEachLine(text, [](const std::string& l) { return l + "\r\n"; }));
    CHECK(crlf.broken.empty());
    CHECK(crlf.records == readMllog(text).records);
}

TEST_CASE("MLLOG ranks interleaved and duplicated", "[core][mllog]") {
    const std::string text = fileText(kFixtures / "bert_success.log");
    // Every rank logs every line, behind the launcher's tag, among other output.
    const std::string mixed = withEachLine(text, [](const std::string& l) {
        return "0: " + l + "\n[1,1]<stdout>:" + l + "\nINFO:root:step 10 loss 7.1\n" +
               "1: 2024-01-01 10:00:00 INFO " + l + "\n";
    });
    const Read read = readMllog(mixed);
    CHECK(read.broken.empty());
    CHECK(read.records == readMllog(text).records);
}

TEST_CASE("MLLOG truncated last line", "[core][mllog]") {
    const std::string text = fileText(kFixtures / "bert_success.log");
    const std::string cut = text.substr(0, text.rfind(":::MLLOG") + 40);
    const Read read = readMllog(cut);
    REQUIRE(read.broken.size() == 1);
    CHECK(read.broken[0].line_number == 30);
    CHECK(read.broken[0].reason.find("JSON") != std::string::npos);
    CHECK(all<EvalRecord>(read).size() == 3);
    // Cut after run_start, before run_stop: a run without a time to train, which MLPerf counts as failed.
    REQUIRE(all<SummaryRecord>(read).size() == 1);
    const auto summary = nlohmann::json::parse(all<SummaryRecord>(read)[0].json);
    CHECK(summary["mlperf"]["status"] == "cut");
    CHECK_FALSE(summary["mlperf"].contains("time_to_train_min"));
}

TEST_CASE("MLLOG numbers beyond double", "[core][mllog]") {
    const std::string text =
        ":::MLLOG {\"time_ms\": 1e400, \"key\": \"run_start\"}\n"
        ":::MLLOG {\"time_ms\": 1000, \"key\": \"run_start\"}\n"
        ":::MLLOG {\"time_ms\": 2000, \"key\": \"eval_accuracy\", \"value\": 1e999}\n"
        ":::MLLOG {\"time_ms\": 3000, \"key\": \"eval_accuracy\", \"value\": 0.5, "
        "\"metadata\": {\"samples_count\": 1e30, \"epoch_num\": 99999999999999999999999}}\n"
        ":::MLLOG {\"time_ms\": 4000, \"key\": \"run_stop\", \"metadata\": {\"status\": "
        "\"success\"}}\n";
    const Read read = readMllog(text);
    REQUIRE(read.broken.size() == 2);
    CHECK(read.broken[0].line_number == 1);
    CHECK(read.broken[1].line_number == 3);
    const auto evals = all<EvalRecord>(read);
    REQUIRE(evals.size() == 1);
    CHECK(evals[0].step == 1); // neither count fits: the evaluation's ordinal
    CHECK(evals[0].elapsed_s == 2.0);
    REQUIRE(all<SummaryRecord>(read).size() == 1);
    CHECK(all<SummaryRecord>(read)[0].wall_s == 3.0);
}

TEST_CASE("MLLOG times too far apart", "[core][mllog]") {
    const Read read =
        readMllog(":::MLLOG {\"time_ms\": 1.7e308, \"key\": \"run_start\"}\n"
                  ":::MLLOG {\"time_ms\": -1.7e308, \"key\": \"eval_accuracy\", \"value\": 0.5}\n"
                  ":::MLLOG {\"time_ms\": -1.7e308, \"key\": \"run_stop\"}\n");
    CHECK(read.broken.size() == 2);
    CHECK(all<EvalRecord>(read).empty());
    // Its run_stop broken: the run is cut, without a time to train.
    REQUIRE(all<SummaryRecord>(read).size() == 1);
    CHECK(nlohmann::json::parse(all<SummaryRecord>(read)[0].json)["mlperf"]["status"] == "cut");
}
