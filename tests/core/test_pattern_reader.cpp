// Specification of user-defined output formats (core/formats/pattern_format.h,
// core/formats/pattern_reader.h): each shipped definition on its trainer's documented lines
// (tests/data/formats), then what any definition does with cut, interleaved, CRLF and huge input, and how a
// bad definition is refused.
#include "file_text.h"
#include "pattern_format.h"
#include "pattern_reader.h"
#include "reading_in_chunks.h"
#include "run_plan.h"
#include "shipped_formats.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

using namespace scalebench;

namespace {

const std::filesystem::path kLogs = SCALEBENCH_SOURCE_DIR "/tests/data/formats";
const std::filesystem::path kDefinitions = SCALEBENCH_SOURCE_DIR "/resources/formats";

using Read = ReadText;

PatternFormat shipped(const std::string& name) {
    const auto text = shippedFormatText(name);
    REQUIRE(text.has_value());
    return readPatternFormat(*text, name + ".toml");
}

Read readWith(const PatternFormat& format, const std::string& text, int ranks = 1, std::size_t chunk = 0) {
    const auto reader = makePatternReader(format, OutputContext{ranks, "python"});
    return Read{readInChunks(*reader, text, chunk)};
}

// A definition of one step line "step N loss L time T" (T in ms), for the cases every definition shares.
PatternFormat plainFormat() {
    return readPatternFormat(R"(
name = "plain"
[[line]]
marker = "step "
pattern = 'step (?<step>\d+) loss (?<loss>\S+) time (?<step_time>\S+) ms$'
[units]
step_time = "ms"
)",
                             "plain.toml");
}

// The message of the PlanError that reading `toml` throws.
std::string refusal(const std::string& toml) {
    try {
        readPatternFormat(toml, "mine.toml");
    } catch (const PlanError& e) {
        return e.what();
    }
    FAIL("the definition was accepted:\n" << toml);
    return {};
}

} // namespace

TEST_CASE("scalebench ships definitions for Megatron-LM, NeMo and torchtitan, each as its file says",
          "[core][pattern]") {
    CHECK(shippedFormatNames() == std::vector<std::string>{"megatron-lm", "nemo", "torchtitan"});
    for (const std::string& name : shippedFormatNames()) {
        CAPTURE(name);
        // Compiled in at build time, byte for byte the file in resources/formats/.
        CHECK(shippedFormatText(name) == fileText(kDefinitions / (name + ".toml")));
        CHECK(shipped(name).name == name);
    }
    CHECK_FALSE(shippedFormatText("megatron").has_value());
}

TEST_CASE(
    "megatron-lm.toml reads training_log lines as steps: ms per iteration, TFLOP/s/GPU x GPUs, batch / time",
    "[core][pattern]") {
    const Read read = readWith(shipped("megatron-lm"), fileText(kLogs / "megatron-lm.log"), 8);
    CHECK(read.broken_count == 0);
    const auto steps = read.all<StepRecord>();
    REQUIRE(steps.size() == 4);
    CHECK(steps[1].step == 20);
    CHECK(steps[1].step_s == Approx(1.0124));
    CHECK(steps[1].loss == Approx(10.43251));
    CHECK(steps[1].model_flops_per_s == Approx(205.5e12 * 8));
    CHECK(steps[1].samples_per_s == Approx(16 / 1.0124));
    CHECK_FALSE(steps[1].mfu.has_value());
    // Iteration 10 was all skipped fp16 iterations: Megatron printed no lm loss.
    CHECK(steps[0].step == 10);
    CHECK(steps[0].loss == 0);
    // Megatron logs every 10 iterations the mean of 10: the elapsed time counts the iterations since the last
    // line (the first line, one).
    CHECK(steps[0].elapsed_s == Approx(1.1476));
    CHECK(steps[1].elapsed_s == Approx(1.1476 + 10 * 1.0124));

    const HeaderRecord header = read.all<HeaderRecord>().at(0);
    CHECK(header.workload == "megatron-lm");
    CHECK(header.ranks == 8);
    CHECK(header.steps == 1000); // "iteration 10/ 1000"
    CHECK(std::holds_alternative<HeaderRecord>(read.records.front()));
    CHECK(std::holds_alternative<SummaryRecord>(read.records.back()));
}

TEST_CASE("megatron-lm.toml reads the validation loss and its PPL as evaluations, and not the test set's",
          "[core][pattern]") {
    const Read read = readWith(shipped("megatron-lm"), fileText(kLogs / "megatron-lm.log"), 8);
    const auto evals = read.all<EvalRecord>();
    // "iteration 40" during training; "iteration 40 on validation set" after it is the same step again, and
    // "on test set" is not a validation.
    REQUIRE(evals.size() == 1);
    CHECK(evals[0].step == 40);
    CHECK(evals[0].metric == "perplexity");
    CHECK(evals[0].value == Approx(4028.411));
    CHECK(evals[0].loss == Approx(8.301548));
    const SummaryRecord summary = read.all<SummaryRecord>().at(0);
    CHECK(summary.eval_metric == "perplexity");
    CHECK(summary.final_eval == Approx(4028.411));
}

TEST_CASE("nemo.toml reads ProgressPrinter lines by global step, the recipe README's own line among them",
          "[core][pattern]") {
    const Read read = readWith(shipped("nemo"), fileText(kLogs / "nemo.log"), 8);
    CHECK(read.broken_count == 0);
    const auto steps = read.all<StepRecord>();
    REQUIRE(steps.size() == 4);
    CHECK(steps[0].step == 0); // the first line has no consumed_samples
    CHECK(steps[0].step_s == Approx(31.52));
    // The README's line, verbatim: 8192 x 128 / 12.39 = 84631 tokens/s is its arithmetic; ours is samples/s.
    CHECK(steps[3].step == 49);
    CHECK(steps[3].loss == Approx(11.96));
    CHECK(steps[3].step_s == Approx(12.39));
    CHECK(steps[3].samples_per_s == Approx(128 / 12.39));
    CHECK(steps[3].tokens_per_s == 0); // no tokens_per_sec_per_gpu without NeMo's throughput callback
    CHECK(steps[3].elapsed_s == Approx(31.52 + 12.44 + 12.4 + 47 * 12.39));
}

TEST_CASE("nemo.toml reads tokens_per_sec_per_gpu times the GPUs where the line has it", "[core][pattern]") {
    const std::string line =
        "[2025-11-20T14:55:23+08:00] retraining/0 Training epoch 0, iteration 97/99 | lr: "
        "1.469e-05 | global_batch_size: 128 | global_step: 97 | reduced_train_loss: 6.265 | "
        "train_step_timing in s: 12.22 | tokens_per_sec_per_gpu: 1.073e+04 | consumed_samples: "
        "12544\n";
    const auto steps = readWith(shipped("nemo"), line, 8).all<StepRecord>();
    REQUIRE(steps.size() == 1);
    CHECK(steps[0].step == 97);
    CHECK(steps[0].tokens_per_s == Approx(1.073e4 * 8));
}

TEST_CASE("torchtitan.toml reads coloured step lines, thousands separators and mfu in %", "[core][pattern]") {
    const Read read = readWith(shipped("torchtitan"), fileText(kLogs / "torchtitan.log"), 8);
    CHECK(read.broken_count == 0);
    const auto steps = read.all<StepRecord>();
    REQUIRE(steps.size() == 3);
    CHECK(steps[0].step == 1);
    CHECK(steps[1].step == 10);
    CHECK(steps[1].loss == Approx(10.0321));
    CHECK(steps[1].tokens_per_s == Approx(7412.0 * 8)); // "tps: 7,412" per device
    CHECK(steps[1].model_flops_per_s == Approx(429.27e12 * 8));
    REQUIRE(steps[1].mfu.has_value());
    CHECK(*steps[1].mfu == Approx(0.4340));
    CHECK(steps[2].loss == Approx(8.3307)); // "loss:  8.3307", right-aligned in 7
    CHECK(steps[2].step_s == 0);            // torchtitan prints no step time

    // The same lines without colours (metrics.disable_color_printing) read alike.
    std::string plain = fileText(kLogs / "torchtitan.log");
    for (auto at = plain.find('\x1b'); at != std::string::npos; at = plain.find('\x1b'))
        plain.erase(at, plain.find('m', at) - at + 1);
    CHECK(readWith(shipped("torchtitan"), plain, 8).records == read.records);
}

TEST_CASE("the summary gives the median of each figure over the step lines after the first, beside the last",
          "[core][pattern]") {
    const Read read = readWith(shipped("megatron-lm"), fileText(kLogs / "megatron-lm.log"), 8);
    const SummaryRecord summary = read.all<SummaryRecord>().at(0);
    CHECK(summary.steps == 40);
    CHECK(summary.final_loss == Approx(8.412733));
    CHECK(summary.samples_per_s == Approx(16 / 1.0039)); // median of 20, 30, 40's
    CHECK(summary.wall_s == Approx(1.1476 + 10 * (1.0124 + 0.9981 + 1.0039)));
    const nlohmann::json json = read.summaryJson();
    CHECK(json["tool"] == "megatron-lm");
    CHECK(json["median_seconds_per_step"] == Approx(1.0039));
    CHECK(json["last_seconds_per_step"] == Approx(1.0039));
    CHECK(json["median_model_flops_per_s"] == Approx(207.2e12 * 8));
    CHECK_FALSE(json.contains("median_tokens_per_s")); // Megatron prints no tokens/s
}

TEST_CASE("a line cut after its marker is counted broken, never read as a smaller figure",
          "[core][pattern]") {
    const std::string whole =
        " [2024-06-03 10:15:24] iteration       20/    1000 | consumed samples:          320 | "
        "elapsed time per iteration (ms): 1012.4 | learning rate: 3.000000E-05 | global batch "
        "size:    16 | lm loss: 1.043251E+01 | loss scale: 65536.0 | number of skipped "
        "iterations:   0 | number of nan iterations:   0 |";
    for (const std::size_t cut :
         {whole.find("(ms): 10") + 8, whole.find("lm loss: 1.04") + 13, whole.size() - 2}) {
        CAPTURE(cut);
        const Read read = readWith(shipped("megatron-lm"), whole.substr(0, cut) + "\n" + whole + "\n");
        CHECK(read.all<StepRecord>().size() == 1); // the whole line only
        REQUIRE(read.broken.size() == 1);
        CHECK(read.broken[0].line_number == 1);
        CHECK_THAT(read.broken[0].reason, Catch::Contains("holds '| consumed samples:'") &&
                                              Catch::Contains("megatron-lm.toml:") &&
                                              Catch::Contains("a cut line"));
    }
    // Cut before the marker: nothing tells it from any other line, and it is skipped.
    CHECK(readWith(shipped("megatron-lm"), whole.substr(0, 40) + "\n").broken_count == 0);
}

TEST_CASE("interleaved ranks: each step is read once, from its first copy, whatever the rank's prefix",
          "[core][pattern]") {
    const std::string log = "0: step 1 loss 2.5 time 100.0 ms\n"
                            "[1,0]<stdout>:step 1 loss 2.5 time 101.0 ms\n"
                            "1: step 1 loss 2.5 time 102.0 ms\n"
                            "1: step 2 loss 2.25 time 90.0 ms\n"
                            "0: step 2 loss 2.25 time 91.0 ms\n"
                            "0: step 3 loss 2.0 time 80.0 ms\n";
    const Read read = readWith(plainFormat(), log, 2);
    const auto steps = read.all<StepRecord>();
    REQUIRE(steps.size() == 3);
    CHECK(steps[0].step_s == Approx(0.100));
    CHECK(steps[1].step_s == Approx(0.090));
    CHECK(steps[2].step_s == Approx(0.080));
    CHECK(read.broken_count == 0);
    CHECK(read.all<HeaderRecord>().size() == 1);
}

TEST_CASE("CRLF lines read as LF lines, and any chunks as the whole", "[core][pattern]") {
    const std::string lf = fileText(kLogs / "megatron-lm.log");
    std::string crlf;
    for (const char c : lf)
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const Read whole = readWith(shipped("megatron-lm"), lf, 8);
    CHECK(readWith(shipped("megatron-lm"), crlf, 8).records == whole.records);
    for (const std::size_t chunk : {1, 7, 100})
        CHECK(readWith(shipped("megatron-lm"), crlf, 8, chunk).records == whole.records);
    // The last line without its newline is read at the end.
    CHECK(readWith(plainFormat(), "step 1 loss 2.5 time 100.0 ms").all<StepRecord>().size() == 1);
}

TEST_CASE("huge numbers: a step beyond int64 or a figure beyond double is a broken line naming the field",
          "[core][pattern]") {
    const Read read = readWith(plainFormat(),
                               "step 99999999999999999999 loss 2.5 time 100.0 ms\n"
                               "step 1 loss 1e999 time 100.0 ms\n"
                               "step 1 loss 2.5 time 1e400 ms\n"
                               "step 1 loss 2.5 time 1e307 ms\n" // 1e304 s: finite, but elapsed too...
                               "step 9223372036854775807 loss 2.5 time 1e307 ms\n"
                               "step 2 loss nan time 100.0 ms\n"
                               "step 3 loss 2.5 time 0 ms\n");
    REQUIRE(read.broken.size() == 6);
    CHECK_THAT(read.broken[0].reason, Catch::Contains("step '99999999999999999999' is not a step number"));
    CHECK_THAT(read.broken[1].reason, Catch::Contains("loss '1e999' is not a finite number"));
    CHECK_THAT(read.broken[2].reason, Catch::Contains("step_time '1e400' is not a finite number"));
    // Line 4 is read (1e304 s); line 5's 2^63-1 steps since then make the elapsed time infinite.
    CHECK(read.broken[3].line_number == 5);
    CHECK_THAT(read.broken[3].reason, Catch::Contains("elapsed time infinite"));
    CHECK_THAT(read.broken[4].reason, Catch::Contains("loss 'nan' is not a finite number"));
    CHECK_THAT(read.broken[5].reason, Catch::Contains("step_time '0' is not positive"));
    const auto steps = read.all<StepRecord>();
    REQUIRE(steps.size() == 1);
    CHECK(steps[0].step_s == Approx(1e304));
}

// Found by fuzz_pattern (fuzz/regressions/pattern/step-time-group-unmatched): a step_time group in one branch
// of an alternation that the line took the other way was read as a time of nothing (an empty optional
// dereferenced).
TEST_CASE(
    "a step line whose pattern's step_time group went unmatched has no step time, and is not refused for it",
    "[core][pattern]") {
    const PatternFormat format = readPatternFormat(R"(
name = "either"
[[line]]
marker = "step "
pattern = 'step (?<step>\d+) loss (?<loss>\S+)( time (?<step_time>\S+) ms| done)$'
[units]
step_time = "ms"
)",
                                                   "either.toml");
    const Read read =
        readWith(format, "step 1 loss 2.5 done\nstep 2 loss 2.25 time 90.0 ms\nstep 3 loss 2 time 0 ms\n");
    REQUIRE(read.broken.size() == 1);
    CHECK(read.broken[0].line_number == 3);
    CHECK_THAT(read.broken[0].reason, Catch::Contains("step_time '0' is not positive"));
    const auto steps = read.all<StepRecord>();
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].step_s == 0); // none printed
    CHECK(steps[1].step_s == Approx(0.09));
}

TEST_CASE("per-device figures are times the launcher's ranks, and a rank count below 1 breaks only them",
          "[core][pattern]") {
    const PatternFormat format = readPatternFormat(R"(
name = "rates"
[[line]]
pattern = 'it (?<step>\d+): (?<throughput>\S+) samples/s, (?<tokens_per_s>\S+) tok/s, (?<tflops>\S+) TFLOPs, mfu (?<mfu>\S+)'
[units]
throughput = "samples/s/GPU"
tokens_per_s = "tokens/s"
tflops = "TFLOP/s/device"
mfu = "fraction"
)",
                                                   "rates.toml");
    const auto steps =
        readWith(format, "it 5: 10 samples/s, 4000 tok/s, 100.5 TFLOPs, mfu 0.41\n", 4).all<StepRecord>();
    REQUIRE(steps.size() == 1);
    CHECK(steps[0].samples_per_s == Approx(40));
    CHECK(steps[0].tokens_per_s == Approx(4000)); // the run's already
    CHECK(steps[0].model_flops_per_s == Approx(402e12));
    CHECK(steps[0].mfu == Approx(0.41));
    const Read no_ranks = readWith(format, "it 5: 10 samples/s, 4000 tok/s, 100.5 TFLOPs, mfu 0.41\n", 0);
    REQUIRE(no_ranks.broken.size() == 1);
    CHECK_THAT(no_ranks.broken[0].reason, Catch::Contains("device count 0 is not positive"));
}

TEST_CASE("a (?<workload>) group names the header's workload, from a line before the steps or the step line",
          "[core][pattern]") {
    const PatternFormat format = readPatternFormat(R"(
name = "mine"
[[line]]
pattern = '^model: (?<workload>[\w.-]+), (?<steps>\d+) steps'
[[line]]
pattern = 'step (?<step>\d+) loss (?<loss>\S+)'
)",
                                                   "mine.toml");
    const Read read =
        readWith(format, "model: llama3-8b, 500 steps\nstep 1 loss 3.0\nmodel: other, 9 steps\n");
    const HeaderRecord header = read.all<HeaderRecord>().at(0);
    CHECK(header.workload == "llama3-8b");
    CHECK(header.steps == 500);
    CHECK(nlohmann::json::parse(header.json)["tool"] == "mine");
    CHECK(readWith(format, "step 1 loss 3.0\n").all<HeaderRecord>().at(0).workload == "mine");
}

TEST_CASE("named groups become ECMAScript's plain groups, numbered as written", "[core][pattern]") {
    std::vector<std::pair<std::string, int>> names;
    CHECK(ecmascriptPattern(R"((\w+) (?<step>\d+)(?:x)(?=y)(?!z) [(?<no>)] \(?<no>\) (?P<loss>[\d.]+))",
                            names) == R"((\w+) (\d+)(?:x)(?=y)(?!z) [(?<no>)] \(?<no>\) ([\d.]+))");
    CHECK(names == std::vector<std::pair<std::string, int>>{{"step", 2}, {"loss", 3}});
    for (const auto& [pattern, problem] : std::vector<std::pair<std::string, std::string>>{
             {"(?<=a)b", "lookbehind (?<= at column 1"},
             {"a(?i)b", "'(?i' at column 2"},
             {"(?P=step)", "'(?P' at column 1"},
             {"[abc", "character class '[' at column 1 that is never closed"},
             {"(a", "1 group(s) never closed"},
             {"a)", "')' at column 2 that closes no group"},
             {"(?<st-ep>\\d+)", "group name 'st-ep' at column 1"},
             {"(?<step\\d+)", "group name at column 1 without its closing '>'"},
             {"a\\", "lone backslash"}}) {
        CAPTURE(pattern);
        names.clear();
        CHECK_THROWS_WITH(ecmascriptPattern(pattern, names), Catch::Contains(problem));
    }
}

TEST_CASE("a bad definition is refused naming its file, line, key and what is wrong", "[core][pattern]") {
    SECTION("not TOML") {
        CHECK_THAT(refusal("name = \"x\"\n[[line]\n"), Catch::StartsWith("mine.toml:2: not valid TOML"));
    }
    SECTION("no name") {
        CHECK_THAT(refusal("[[line]]\npattern = '(?<step>\\d+)'\n"), Catch::Contains("missing key 'name'"));
    }
    SECTION("a name that is not a plain word") {
        CHECK_THAT(refusal("name = \"a b\"\n[[line]]\npattern = '(?<step>\\d+)'\n"),
                   Catch::StartsWith("mine.toml:1: 'name' is 1 to 64 letters"));
    }
    SECTION("no [[line]]") {
        CHECK_THAT(refusal("name = \"x\"\n"), Catch::Contains("the file has no [[line]] table"));
    }
    SECTION("a [[line]] without a pattern") {
        CHECK_THAT(refusal("name = \"x\"\n[[line]]\nmarker = \"step\"\n"),
                   Catch::StartsWith("mine.toml:2: in [[line]] #1: missing key 'pattern'"));
    }
    SECTION("an unknown key, with the nearest known one") {
        CHECK_THAT(
            refusal("name = \"x\"\n[[line]]\npatern = 'a'\n"),
            Catch::StartsWith("mine.toml:3: in [[line]] #1: unknown key 'patern' (did you mean 'pattern'?)"));
    }
    SECTION("an unknown field") {
        CHECK_THAT(
            refusal("name = \"x\"\n\n[[line]]\npattern = 'step (?<step>\\d+) loss (?<los>\\S+)'\n"),
            Catch::StartsWith("mine.toml:4: in [[line]] #1: 'pattern' names the group (?<los>...): no such "
                              "field (fields: step, steps, loss,"));
    }
    SECTION("a field named twice") {
        CHECK_THAT(refusal("name = \"x\"\n[[line]]\npattern = '(?<step>\\d+) (?<step>\\d+)'\n"),
                   Catch::Contains("names the group (?<step>...) twice"));
    }
    SECTION("a regular expression std::regex refuses") {
        CHECK_THAT(refusal("name = \"x\"\n[[line]]\npattern = '(?<step>\\d+) a{2,1}'\n"),
                   Catch::Contains("'pattern' is not a regular expression std::regex reads"));
        CHECK_THAT(refusal("name = \"x\"\n[[line]]\npattern = '(?<=x)(?<step>\\d+)'\n"),
                   Catch::Contains("lookbehind"));
    }
    SECTION("repeats that would compile to a huge automaton") {
        CHECK_THAT(refusal("name = \"x\"\n[[line]]\npattern = '(?<step>\\d+)((a{100}){100}){100}'\n"),
                   Catch::Contains("more than 5000 states"));
    }
    SECTION("a pattern without fields, or figures without a step") {
        CHECK_THAT(refusal("name = \"x\"\n[[line]]\npattern = 'step \\d+'\n"),
                   Catch::Contains("names no field"));
        CHECK_THAT(refusal("name = \"x\"\n[[line]]\npattern = 'loss (?<loss>\\S+)'\n"),
                   Catch::Contains("has no (?<step>...) group"));
    }
    SECTION("a step's and an evaluation's figures in one pattern") {
        CHECK_THAT(
            refusal("name = \"x\"\n[[line]]\npattern = '(?<step>\\d+) (?<loss>\\S+) (?<eval_loss>\\S+)'\n"),
            Catch::Contains("write two [[line]] tables"));
    }
    SECTION("an eval without what it measures") {
        CHECK_THAT(refusal("name = \"x\"\n[[line]]\npattern = '(?<step>\\d+) (?<eval>\\S+)'\n"),
                   Catch::Contains("missing key 'eval_metric'"));
        CHECK_THAT(
            refusal(
                "name = \"x\"\n[[line]]\npattern = '(?<step>\\d+) (?<loss>\\S+)'\neval_metric = \"bleu\"\n"),
            Catch::StartsWith("mine.toml:4:") && Catch::Contains("the pattern has none"));
    }
    SECTION("an unknown unit, or a unit for a field no pattern has") {
        CHECK_THAT(
            refusal("name = \"x\"\n[[line]]\npattern = '(?<step>\\d+) (?<step_time>\\S+)'\n[units]\n"
                    "step_time = \"sec\"\n"),
            Catch::StartsWith("mine.toml:5: in [units]: 'step_time' is in s, ms, us, min or h, not 'sec'"));
        CHECK_THAT(refusal("name = \"x\"\n[[line]]\npattern = '(?<step>\\d+) (?<tflops>\\S+)'\n[units]\n"
                           "tflops = \"TFLOPS\"\n"),
                   Catch::Contains("'tflops' is in TFLOP/s or TFLOP/s/device, not 'TFLOPS'"));
        CHECK_THAT(
            refusal("name = \"x\"\n[[line]]\npattern = '(?<step>\\d+)'\n[units]\nstep_time = \"ms\"\n"),
            Catch::Contains("[units] gives 'step_time', but no pattern has a (?<step_time>...) group"));
        CHECK_THAT(refusal("name = \"x\"\n[[line]]\npattern = '(?<step>\\d+)'\n[units]\nstep_tme = \"ms\"\n"),
                   Catch::Contains("unknown key 'step_tme' (did you mean 'step_time'?)"));
    }
    SECTION("a batch without a step time") {
        CHECK_THAT(refusal("name = \"x\"\n[[line]]\npattern = '(?<step>\\d+) (?<batch>\\d+)'\n"),
                   Catch::Contains("samples/s is the batch over the step time"));
    }
    SECTION("a thousands separator that is part of numbers") {
        CHECK_THAT(
            refusal("name = \"x\"\nthousands_separator = \".\"\n[[line]]\npattern = '(?<step>\\d+)'\n"),
            Catch::StartsWith("mine.toml:2: 'thousands_separator' is one character"));
    }
}

TEST_CASE("patterns match without backtracking: nested repeats take no exponential time, back-references are "
          "refused",
          "[core][pattern]") {
    const PatternFormat nested = readPatternFormat(
        "name = \"x\"\n[[line]]\npattern = '(?<step>\\d+)((((a*)*)*)*)*c'\n", "nested.toml");
    // A backtracking matcher takes minutes on this line; the Thompson NFA, microseconds.
    const Read read = readWith(nested, "1" + std::string(2000, 'a') + "\n1" + std::string(40, 'a') + "c\n");
    CHECK(read.all<StepRecord>().size() == 1);
    CHECK_THAT(refusal("name = \"x\"\n[[line]]\npattern = '(?<step>\\d+) (a)\\2'\n"),
               Catch::Contains("'pattern' is not a regular expression std::regex reads"));
}
