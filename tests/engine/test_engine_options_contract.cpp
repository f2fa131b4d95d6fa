// Specification of the engine's command line as a contract between the two programs: what the console renders
// for a run (core/plans/engine_invocation.cpp) is what the engine parses (trainers/io/engine_options.cpp),
// option by option, both read from one table (protocol/engine_option_table.h).
#include "engine_invocation.h"
#include "engine_options.h"
#include "option_values.h"
#include "run_plan.h"

#include <catch2/catch.hpp>
#include <toml++/toml.h>

using namespace scalebench;
using engine_cli::Kind;

namespace {
using testing::otherThan;

std::vector<std::string> withoutProgram(const std::vector<std::string>& words) {
    return {words.begin() + 1, words.end()};
}
} // namespace

TEST_CASE(
    "every plan key the console renders reaches the engine's parser with its value, none at its default",
    "[contract]") {
    RunSpec run;
#define SCALEBENCH_SET_OTHER(name, kind, accepts, scope, help, ...)                                          \
    run.group.name = otherThan<Kind::kind>(engine_cli::defaults::name, accepts);
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_SET_OTHER)
#undef SCALEBENCH_SET_OTHER
    const EngineOptions parsed =
        parseEngineOptions(withoutProgram(engineArguments(run, "engine", "m.jsonl")));
#define SCALEBENCH_CHECK_SAME(name, kind, accepts, scope, help, ...)                                         \
    INFO(#name);                                                                                             \
    CHECK(parsed.name == run.group.name);                                                                    \
    CHECK_FALSE(parsed.name == engine_cli::defaults::name);
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_CHECK_SAME)
#undef SCALEBENCH_CHECK_SAME
    // How the engine measures: at the table's default, said on the command line.
#define SCALEBENCH_CHECK_METHOD(name, kind, accepts, scope, help, ...)                                       \
    CHECK(parsed.name == engine_cli::defaults::name);
    SCALEBENCH_METHOD_OPTIONS(SCALEBENCH_CHECK_METHOD)
#undef SCALEBENCH_CHECK_METHOD
    CHECK(parsed.metrics == "m.jsonl");
}

namespace {
// A plan with every key of the table, each set in some [[run]] to a value its reader would not otherwise
// give.
const std::string kEveryKeyPlan = R"(name = "every key"
[[run]]
workload = "allreduce-sweep"
ranks = 2
steps = 7
threads_per_rank = 1
seed = 9
sweep_points = 12
sweep_max_log10 = 5.5
repetitions = 20
warmup_iterations = 2
backend = "gloo"
collectives = ["allreduce", "broadcast"]
dtypes = ["bfloat16"]
ops = ["avg"]
in_place = "both"

[[run]]
workload = "llama"
ranks = 2
batch_per_rank = 3
global_batch = 12
epochs = 1.5
data_dir = "/data/tokens"
lr = 0.125
warmup_steps = 4
eval_every = 5
eval_samples = 6
bucket_mb = 0.5
overlap = false
precision = "bf16"
target = 3.5
preset = "tiny"
seq_len = 64
check_device = true

[[run]]
workload = "resnet20"
dataset = "synthetic-cifar"
ranks = 2
device = "cpu"
peak_tflops = 2.5
)";

// The value a [[run]] table's TOML holds for a key, read by toml++ itself (not by the plan reader).
template <Kind K> engine_cli::Value<K> tomlValue(const toml::node& node) {
    if constexpr (K == Kind::Text) {
        return node.value<std::string>().value();
    } else if constexpr (K == Kind::Int) {
        return static_cast<int>(node.value<std::int64_t>().value());
    } else if constexpr (K == Kind::Real) {
        return node.is_integer() ? static_cast<double>(node.value<std::int64_t>().value())
                                 : node.value<double>().value();
    } else if constexpr (K == Kind::Switch) {
        return node.value<bool>().value();
    } else {
        std::vector<std::string> items;
        for (const toml::node& item : *node.as_array())
            items.push_back(item.value<std::string>().value());
        return items;
    }
}

// The plan text without the line that sets `key` in the `run`-th [[run]] table.
std::string withoutKey(const std::string& text, std::size_t run, const std::string& key) {
    std::size_t at = 0;
    for (std::size_t i = 0; i <= run; ++i)
        at = text.find("[[run]]", at) + 1;
    const std::size_t line = text.find("\n" + key + " = ", at);
    REQUIRE(line != std::string::npos);
    return text.substr(0, line) + text.substr(text.find('\n', line + 1));
}
} // namespace

TEST_CASE("every plan key is read from its line as written, and what is read is what the engine runs",
          "[contract]") {
    const RunPlan plan = parsePlanText(kEveryKeyPlan, "every.toml");
    const toml::table document = toml::parse(kEveryKeyPlan);
    const toml::array& tables = *document["run"].as_array();
    REQUIRE(plan.groups.size() == tables.size());
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const toml::table& table = *tables[i].as_table();
        const RunGroup& group = plan.groups[i];
        // What the TOML says is what the reader read, key by key.
#define SCALEBENCH_CHECK_READ(name, kind, accepts, scope, help, ...)                                         \
    if (const toml::node* node = table.get(#name)) {                                                         \
        INFO("[[run]] " << i + 1 << ": " #name);                                                             \
        CHECK(group.name == tomlValue<Kind::kind>(*node));                                                   \
    }
        SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_CHECK_READ)
#undef SCALEBENCH_CHECK_READ
    }
    // Every key of the table is written somewhere, and there its line matters: without it the run differs (a
    // key that the reader ignored and the engine defaulted alike would read the same without its line).
#define SCALEBENCH_CHECK_MATTERS(name, kind, accepts, scope, help, ...)                                      \
    {                                                                                                        \
        bool matters = false;                                                                                \
        for (std::size_t i = 0; i < tables.size() && !matters; ++i) {                                        \
            if (!tables[i].as_table()->get(#name)) continue;                                                 \
            try {                                                                                            \
                const RunPlan without = parsePlanText(withoutKey(kEveryKeyPlan, i, #name), "every.toml");    \
                matters = !(without.groups.at(i).name == plan.groups[i].name);                               \
            } catch (const PlanError&) {                                                                     \
                matters = true; /* refused without it: the line was read */                                  \
            }                                                                                                \
        }                                                                                                    \
        INFO(#name);                                                                                         \
        CHECK(matters);                                                                                      \
    }
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_CHECK_MATTERS)
#undef SCALEBENCH_CHECK_MATTERS
    // Expanded and rendered, every run's keys reach the engine's parser as the plan reader read them.
    for (const RunSpec& run : expandPlan(plan)) {
        const EngineOptions parsed =
            parseEngineOptions(withoutProgram(engineArguments(run, "engine", "m.jsonl")));
        const std::string& run_name = run.name; // `name` in the macro below is each row's member
#define SCALEBENCH_CHECK_SAME(name, kind, accepts, scope, help, ...)                                         \
    INFO(run_name << ": " #name);                                                                            \
    CHECK(parsed.name == run.group.name);
        SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_CHECK_SAME)
#undef SCALEBENCH_CHECK_SAME
    }
}

TEST_CASE("the engine names an unknown option, a value its option does not take, and a missing value",
          "[contract]") {
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--stpes", "5"}), Catch::Contains("'--stpes'"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--steps", "0"}),
                      Catch::Contains("--steps") && Catch::Contains("at least 1"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--steps", "5x"}), Catch::Contains("'5x'"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--target-accuracy", "1.5"}),
                      Catch::Contains("at most 1"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--backend", "mpich"}),
                      Catch::Contains("'mpich'") && Catch::Contains("mpi, gloo, nccl"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--collectives", "allreduce,gather"}),
                      Catch::Contains("'gather'"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--overlap", "maybe"}),
                      Catch::Contains("yes or no"));
    CHECK_THROWS_WITH(parseEngineOptions({"--metrics", "m", "--seed"}),
                      Catch::Contains("--seed: needs a value"));
    CHECK_THROWS_WITH(parseEngineOptions({"--steps", "5"}), Catch::Contains("--metrics"));
}

TEST_CASE("the engine's help lists every option of the table with its default", "[contract]") {
    const std::string usage = engineUsage();
#define SCALEBENCH_CHECK_LISTED(name, kind, accepts, scope, help, ...)                                       \
    CHECK_THAT(usage, Catch::Contains(engine_cli::optionName(#name) + " ") && Catch::Contains(help));
    SCALEBENCH_ENGINE_OPTIONS(SCALEBENCH_CHECK_LISTED)
#undef SCALEBENCH_CHECK_LISTED
    CHECK_THAT(usage, Catch::Contains("default: 100")); // --steps
    CHECK_THAT(usage, Catch::Contains("default: back-to-back"));
}
