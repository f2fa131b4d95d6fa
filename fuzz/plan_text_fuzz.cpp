// Fuzz target: a plan's TOML (parsePlanText), then what a plan goes through before it runs: its runs
// (expandPlan), each run's engine command line, and the plan writer's round trip to the same plan.
#include "engine_invocation.h"
#include "fuzz_finding.h"
#include "plan_writer.h"
#include "run_plan.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace scalebench;
    const std::string text(reinterpret_cast<const char*>(data), size);
    RunPlan plan;
    if (!fuzz::parsedOrRefused([&] { plan = parsePlanText(text, "fuzz.toml"); })) return 0;
    fuzz::require(plan.source_text == text, "the plan keeps its text as read");

    std::vector<RunSpec> runs;
    if (fuzz::parsedOrRefused([&] { runs = expandPlan(plan); })) {
        for (const RunSpec& run : runs) {
            fuzz::require(run.ranks >= 1, "a run has a rank");
            fuzz::require(!run.name.empty(), "a run has a name");
            fuzz::parsedOrRefused([&] { engineArguments(run, "scalebench-engine", "metrics.jsonl"); });
        }
    }

    // What "Save plan..." writes reads back to the same plan.
    const std::string written = writePlanToml(plan);
    RunPlan back;
    const bool reread = fuzz::parsedOrRefused([&] { back = parsePlanText(written, "written.toml"); });
    if (!reread) fuzz::finding("the written plan is refused:\n" + written);
    fuzz::require(back.name == plan.name, "the written plan keeps its name");
    fuzz::require(back.description == plan.description, "the written plan keeps its description");
    fuzz::require(back.repeats == plan.repeats, "the written plan keeps its repeats");
    fuzz::require(back.groups == plan.groups, "the written plan keeps its runs");
    return 0;
}
