// Specification of the MaxText reader: the step line of MaxText's Llama-2 70B recipe (seed 003) and MaxText
// output (tests/data/maxtext) as step records with the recipe's last-step figures, and every damaged step
// line counted, never fatal.
#include "file_text.h"
#include "maxtext_reader.h"
#include "reading_in_chunks.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

using namespace scalebench;

namespace {

const std::filesystem::path kFixtures = SCALEBENCH_SOURCE_DIR "/tests/data/maxtext";
const std::filesystem::path kRegressions = SCALEBENCH_SOURCE_DIR "/fuzz/regressions/maxtext";

// MaxText's Llama-2 70B recipe (seed 003), line 7: its `grep 'completed step:' ... | tail -1` at 64 GPUs.
const std::string kSeedLine = "completed step: 49, seconds: 7.908, TFLOP/s/device: 460.480, Tokens/s/device: "
                              "1035.970, total_weights: 524288, loss: 0.000";

struct Read : ReadText {

    std::vector<StepRecord> steps() const {
        std::vector<StepRecord> out;
        for (const auto& r : records)
            if (const auto* s = std::get_if<StepRecord>(&r)) out.push_back(*s);
        return out;
    }
};

// Feeds `text` in chunks of `chunk` bytes (0: all at once), then finishes.
Read readMaxText(const std::string& text, int devices, std::size_t chunk = 0) {
    MaxTextReader reader(OutputContext{devices, "python3"});
    Read read{readInChunks(reader, text, chunk)};
    return read;
}

} // namespace

TEST_CASE("seed 003's own step line gives the recipe's figures at 64 GPUs", "[core][maxtext]") {
    const Read read = readMaxText(kSeedLine + "\n", 64);
    REQUIRE(read.records.size() == 3); // header, step, summary
    CHECK(std::holds_alternative<HeaderRecord>(read.records[0]));
    const StepRecord step = std::get<StepRecord>(read.records[1]);
    CHECK(step.step == 49);
    CHECK(step.step_s == Approx(7.908));
    CHECK(step.loss == 0.0);
    CHECK(step.tokens_per_s == Approx(1035.970 * 64));
    CHECK(step.model_flops_per_s == Approx(460.480e12 * 64));
    CHECK(step.samples_per_s == 0); // no sequence length printed
    CHECK(step.elapsed_s == Approx(7.908));
    CHECK(step.data_s == 0);
    CHECK(step.forward_s == 0);
    CHECK(step.backward_s == 0);
    CHECK(step.allreduce_s == 0);
    CHECK(step.optimizer_s == 0);
    CHECK_FALSE(step.mfu.has_value());

    const HeaderRecord header = std::get<HeaderRecord>(read.records[0]);
    CHECK(header.version == 1);
    CHECK(header.workload == "maxtext");
    CHECK(header.ranks == 64);
    CHECK(read.headerJson()["devices"] == 64);
    CHECK(read.headerJson()["tool"] == "maxtext");

    const SummaryRecord summary = std::get<SummaryRecord>(read.records[2]);
    CHECK(summary.steps == 49);
    CHECK(summary.wall_s == Approx(7.908));
    const nlohmann::json figures = read.summaryJson();
    CHECK(figures["seconds_per_step"] == 7.908);
    CHECK(figures["tokens_per_s_per_device"] == 1035.970);
    CHECK(figures["tflops_per_device"] == 460.480);
    CHECK(figures["tokens_per_s"].get<double>() == Approx(66302.08));
    // MaxText's Llama-2 70B recipe (seed 003): "1e12 / 66298.43 / 86400 = 174.57 days" (its tokens/s from
    // 4096 x 128 / 7.908); from MaxText's Tokens/s/device x 64 the same to the recipe's two decimals.
    CHECK(figures["days_to_1T_tokens"].get<double>() == Approx(174.57).margin(0.005));
    CHECK(figures["median_steps"] == 0);
    CHECK(read.broken_count == 0);
}

TEST_CASE("the constructed 64-GPU recipe log reads each step once, the last one as the seed's",
          "[core][maxtext]") {
    const std::string text = fileText(kFixtures / "llama2-70b-64gpu.log");
    REQUIRE_FALSE(text.empty());
    const Read read = readMaxText(text, 64);
    CHECK(read.broken_count == 0);
    const auto steps = read.steps();
    REQUIRE(steps.size() == 50); // every step printed by hosts 0 and 1, read once
    for (std::size_t i = 0; i < steps.size(); ++i)
        CHECK(steps[i].step == static_cast<std::int64_t>(i));
    double elapsed = 0;
    for (const auto& s : steps)
        elapsed += s.step_s;
    CHECK(steps.back().elapsed_s == Approx(elapsed));
    CHECK(steps.back().step_s == Approx(7.908));
    // max_target_length 4096 printed: samples/s = tokens/s / 4096
    CHECK(steps.back().samples_per_s == Approx(1035.970 * 64 / 4096));

    REQUIRE(read.all<HeaderRecord>().size() == 1);
    CHECK(std::holds_alternative<HeaderRecord>(read.records.front()));
    const nlohmann::json header = read.headerJson();
    CHECK(header["per_device_batch_size"] == 2.0);
    CHECK(header["max_target_length"] == 4096);
    CHECK(header["maxtext_num_devices"] == 64);
    CHECK(header["number_parameters_billion"] == 68.977);

    REQUIRE(read.all<SummaryRecord>().size() == 1);
    CHECK(std::holds_alternative<SummaryRecord>(read.records.back()));
    const SummaryRecord summary = read.all<SummaryRecord>().at(0);
    CHECK(summary.steps == 49);
    CHECK(summary.wall_s == Approx(elapsed));
    const nlohmann::json figures = read.summaryJson();
    CHECK(figures["seconds_per_step"] == 7.908);
    CHECK(figures["tokens_per_s_per_device"] == 1035.970);
    CHECK(figures["tflops_per_device"] == 460.480);
    CHECK(figures["days_to_1T_tokens"].get<double>() == Approx(174.57).margin(0.005));
    // The recipe's own arithmetic, digit for digit: 4096 * 128 / 7.908 = 66298.43; 174.57 days.
    CHECK(figures["recipe_global_batch"] == 128);
    CHECK(figures["recipe_tokens_per_s"].get<double>() == Approx(66298.43).margin(0.005));
    // 1e12 / 66298.43 / 86400 = 174.5754: the recipe writes 174.57 (cut, not rounded, at two decimals)
    CHECK(figures["recipe_days_to_1T_tokens"].get<double>() == Approx(174.57).margin(0.01));
    CHECK(figures["median_steps"] == 49);
    CHECK(figures["median_over"] == "steps after the first");
    CHECK(figures["median_seconds_per_step"].get<double>() > 7.85);
    CHECK(figures["median_seconds_per_step"].get<double>() < 8.05);
}

TEST_CASE("MaxText's documented deepseek2-16b output on 4 TPU devices", "[core][maxtext]") {
    const Read read = readMaxText(fileText(kFixtures / "deepseek2-16b-v5p-8-docs.log"), 4);
    CHECK(read.broken_count == 0);
    const auto steps = read.steps();
    REQUIRE(steps.size() == 10);
    CHECK(steps[9].step_s == Approx(5.667));
    CHECK(steps[9].tokens_per_s == Approx(8672.758 * 4));
    CHECK(steps[9].samples_per_s == Approx(8672.758 * 4 / 2048));
    CHECK(steps[9].loss == Approx(10.374));
    const nlohmann::json figures = read.summaryJson();
    CHECK(figures["recipe_global_batch"] == 96);
    // Median of steps 1..9's seconds: 0.319, 5.402, 5.658, 5.667, 5.668 x3, 5.669 x2 -> 5.668
    CHECK(figures["median_seconds_per_step"].get<double>() == Approx(5.668));
}

TEST_CASE("chunked feeding gives what the whole output at once gives", "[core][maxtext]") {
    const std::string text = fileText(kFixtures / "llama2-70b-64gpu.log");
    const Read whole = readMaxText(text, 64);
    for (const std::size_t chunk : {1, 7, 64, 4096}) {
        const Read chunked = readMaxText(text, 64, chunk);
        CHECK(chunked.records == whole.records);
        CHECK(chunked.broken_count == whole.broken_count);
    }
}

TEST_CASE("prefixes before the step line are skipped: logging, srun and mpirun tags", "[core][maxtext]") {
    for (const std::string prefix :
         {"", "0: ", "[1,0]<stdout>:", "I1209 10:12:13.456789 140 max_logging.py:27] ",
          "12: [1,3]<stdout>: "}) {
        const Read read = readMaxText(prefix + kSeedLine + "\n", 8);
        CAPTURE(prefix);
        REQUIRE(read.steps().size() == 1);
        CHECK(read.steps()[0].step == 49);
        CHECK(read.broken_count == 0);
    }
}

TEST_CASE("interleaved ranks: other output between, each step read once from its first copy",
          "[core][maxtext]") {
    const Read read =
        readMaxText("0: Config param max_target_length: 2048\n"
                    "1: completed step: 0, seconds: 9.000, TFLOP/s/device: 1.000, Tokens/s/device: "
                    "2.000, total_weights: 10, loss: 5.000\n"
                    "0: completed step: 0, seconds: 9.100, TFLOP/s/device: 1.000, Tokens/s/device: "
                    "2.000, total_weights: 10, loss: 5.000\n"
                    "3: W1209 some XLA warning, with a comma: and a colon\n"
                    "0: completed step: 1, seconds: 1.000, TFLOP/s/device: 9.000, Tokens/s/device: "
                    "18.000, total_weights: 10, loss: 4.000\n"
                    "1: completed step: 1, seconds: 1.100, TFLOP/s/device: 9.000, Tokens/s/device: "
                    "18.000, total_weights: 10, loss: 4.000\n",
                    2);
    CHECK(read.broken_count == 0);
    const auto steps = read.steps();
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].step_s == 9.0);
    CHECK(steps[1].step_s == 1.0);
    CHECK(steps[1].elapsed_s == Approx(10.0));
    CHECK(steps[1].samples_per_s == Approx(36.0 / 2048));
}

TEST_CASE("older MaxText lines without Tokens/s/device, and MTP's extra losses", "[core][maxtext]") {
    const Read older = readMaxText("completed step: 3, seconds: 2.000, TFLOP/s/device: 100.000, loss: 7.250\n"
                                   "completed step: 4, seconds: 2.000, TFLOP/s: 100.000, loss: 7.000\n",
                                   4);
    CHECK(older.broken_count == 0);
    REQUIRE(older.steps().size() == 2);
    CHECK(older.steps()[0].tokens_per_s == 0);
    CHECK(older.steps()[1].model_flops_per_s == Approx(400e12));
    CHECK(older.summaryJson()["days_to_1T_tokens"] == 0.0);

    const Read mtp = readMaxText(kSeedLine + ", main_model_loss: 0.000, mtp_loss: 0.000\n", 64);
    CHECK(mtp.broken_count == 0);
    CHECK(mtp.steps().size() == 1);
}

TEST_CASE("CRLF line ends read as LF ones", "[core][maxtext]") {
    const Read read = readMaxText("Config param max_target_length: 4096\r\n" + kSeedLine + "\r\n", 64);
    CHECK(read.broken_count == 0);
    REQUIRE(read.steps().size() == 1);
    CHECK(read.steps()[0].loss == 0.0);
    CHECK(read.headerJson()["max_target_length"] == 4096);
}

TEST_CASE("a truncated last line is broken, naming the field it was cut in", "[core][maxtext]") {
    const std::string full = kSeedLine + "\n";
    struct Cut {
        std::size_t length;
        const char* field;
    };
    // Cut inside loss ("loss: 0.0"), inside seconds ("seconds: 7.9"), after a comma, after the step number.
    for (const auto& [length, field] :
         {Cut{kSeedLine.size() - 2, "loss"}, Cut{kSeedLine.find("7.908") + 3, "seconds"},
          Cut{kSeedLine.find(" total_weights"), "loss"}, Cut{kSeedLine.find(','), "seconds"},
          Cut{kSeedLine.find("Tokens/s/device") + 5, "Token"}}) {
        const Read read = readMaxText(full + full.substr(0, length), 64);
        CAPTURE(full.substr(0, length));
        CHECK(read.steps().size() == 1);
        REQUIRE(read.broken_count == 1);
        CHECK(read.broken[0].line_number == 2);
        CHECK(read.broken[0].reason.find(field) != std::string::npos);
    }
}

TEST_CASE("figures read with any decimals, and only the output's unterminated last line is called cut",
          "[core][maxtext]") {
    // Another MaxText's formats: two and four decimals, a whole number.
    const std::string other =
        "completed step: 7, seconds: 7.91, TFLOP/s/device: 460.4801, Tokens/s/device: 1035, "
        "total_weights: 524288, loss: 1.25\n";
    const Read read = readMaxText(other, 64);
    CHECK(read.broken_count == 0);
    REQUIRE(read.steps().size() == 1);
    CHECK(read.steps()[0].step_s == Approx(7.91));
    CHECK(read.steps()[0].loss == Approx(1.25));
    CHECK(read.steps()[0].tokens_per_s == Approx(1035.0 * 64));
    // A whole line without its loss is broken for that, not "cut"; the same line at the end without a newline
    // is cut.
    const std::string no_loss = "completed step: 8, seconds: 7.908, TFLOP/s/device: 460.480";
    const Read inside = readMaxText(no_loss + "\n" + kSeedLine + "\n", 64);
    REQUIRE(inside.broken_count == 1);
    CHECK(inside.broken[0].reason == "no loss field");
    const Read last = readMaxText(kSeedLine + "\n" + no_loss, 64);
    REQUIRE(last.broken_count == 1);
    CHECK(last.broken[0].reason == "no loss field: the output ends inside this line (it was cut)");
    // A last line with all its fields reads, unless a figure has fewer decimals than the lines before.
    CHECK(readMaxText(kSeedLine + "\n" + kSeedLine, 64).broken_count == 0);
}

TEST_CASE("huge numbers are broken lines, never infinities", "[core][maxtext]") {
    const std::string beyond_int64 = "completed step: 9223372036854775808, seconds: 1.000, TFLOP/s/device: "
                                     "1.000, Tokens/s/device: 1.000, total_weights: 1, loss: 1.000\n";
    const std::string huge_seconds = "completed step: 1, seconds: 1e400, TFLOP/s/device: 1.000, "
                                     "Tokens/s/device: 1.000, total_weights: 1, loss: 1.000\n";
    const std::string overflowing = "completed step: 1, seconds: 1.000, TFLOP/s/device: 1e300.000, "
                                    "Tokens/s/device: 1.000, total_weights: 1, loss: 1.000\n";
    const std::string nan_loss = "completed step: 1, seconds: 1.000, TFLOP/s/device: 1.000, "
                                 "Tokens/s/device: 1.000, total_weights: 1, loss: nan\n";
    for (const auto& [text, field] :
         {std::pair{beyond_int64, "step"}, std::pair{huge_seconds, "seconds"},
          std::pair{overflowing, "TFLOP/s/device"}, std::pair{nan_loss, "loss"}}) {
        const Read read = readMaxText(text, 64);
        CAPTURE(text);
        CHECK(read.records.empty());
        REQUIRE(read.broken_count == 1);
        CHECK(read.broken[0].reason.find(field) != std::string::npos);
    }
}

TEST_CASE("no step lines give no records, and a non-positive device count breaks step lines",
          "[core][maxtext]") {
    CHECK(readMaxText("Config param steps: 50\nsome other line\n", 8).records.empty());
    const Read read = readMaxText(kSeedLine + "\n", 0);
    CHECK(read.records.empty());
    REQUIRE(read.broken_count == 1);
    CHECK(read.broken[0].reason.find("device count") != std::string::npos);
}
