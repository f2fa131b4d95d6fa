// Injection through the plan file: hostile text in every plan key a user writes is refused with a message
// naming the key, or arrives where it goes as exactly what was written (the sweep: injection_sweep.h).
//
// The plan file's fields, and where each goes:
//   name            SQL (sessions.name), progress lines; the plan builder writes it back as TOML
//   description     SQL (sessions.plan_text, the plan as read); the plan builder writes it back
//   [[run]] workload, dataset, preset, backend, device, precision, collectives (choices): the run's name,
//                   hence its folder, and the engine's argv; key names (unknown keys)
//   data_dir        the engine's argv (--data-dir, under the cluster's data_root): mpirun's argv here, the
//                   srun/mpirun line of the sbatch script on a cluster; SQL (runs.command)
//   env names       `mpirun -x NAME=value` here, `export NAME='value'` in the sbatch script
//   env values      the same
#include "cluster_settings.h"
#include "injection_sweep.h"
#include "plan_writer.h"
#include "run_plan.h"
#include "session_store.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

using namespace scalebench;
using namespace scalebench::injection;
namespace fs = std::filesystem;

TEST_CASE("every payload in a free-text plan key is stored and written back byte for byte", "[integration]") {
    for (const auto& p : payloads()) {
        for (const std::string key : {"name", "description"}) {
            INFO(key << " = " << p.label);
            const std::string field = "plan " + key;
            const auto [text, line] = planWith(key + " = " + tomlString(p.text), true);
            RunPlan plan;
            if (const std::string why = refusal([&] { plan = parsePlanText(text, "p.toml"); }, key, line);
                !why.empty()) {
                note(p, field, "refused", why);
                continue;
            }
            const std::string value = key == "name" ? plan.name : plan.description;
            CHECK(value == p.text);
            // SQL: the name and the plan's text come back from the store as they went in.
            SessionStore& store = sweepStore().store;
            const std::int64_t id = store.createSession(plan.name, plan.source_text, "local");
            const auto row = store.session(id);
            REQUIRE(row);
            CHECK(row->name == plan.name);
            CHECK(row->plan_text == text);
            // The plan builder's TOML reads back to the same text.
            const RunPlan again = parsePlanText(writePlanToml(plan), "written.toml");
            CHECK((key == "name" ? again.name : again.description) == p.text);
            const bool intact = row->name == plan.name && row->plan_text == text &&
                                (key == "name" ? again.name : again.description) == p.text;
            note(p, field, intact ? "quoted" : "ALTERED",
                 intact ? "SQL round trip and plan writer round trip byte for byte"
                        : "stored or written back otherwise");
        }
    }
    CHECK(SweepStore::schemaOf(sweepStore().file) == sweepStore().schema);
}

TEST_CASE("every payload in a plan key that must be one of a list is refused naming the key",
          "[integration]") {
    struct Key {
        std::string key, line, workload;
    };
    for (const auto& p : payloads()) {
        const std::string q = tomlString(p.text);
        for (const Key& k : std::vector<Key>{{"workload", "workload = " + q, ""},
                                             {"dataset", "dataset = " + q, "resnet20"},
                                             {"preset", "preset = " + q, "llama"},
                                             {"backend", "backend = " + q, "resnet20"},
                                             {"device", "device = " + q, "resnet20"},
                                             {"precision", "precision = " + q, "resnet20"},
                                             {"collectives", "collectives = [" + q + "]", "allreduce-sweep"},
                                             {"[[run]] key names", q + " = 1", "resnet20"},
                                             {"env", "env = { " + q + " = \"v\" }", "resnet20"}}) {
            INFO(k.key << " = " << p.label);
            std::string text = "name = \"injection\"\n\n[[run]]\nranks = [1]\n" +
                               (k.workload.empty() ? "" : "workload = \"" + k.workload + "\"\n") + k.line +
                               "\n";
            const int line = k.workload.empty() ? 5 : 6;
            const std::string key = k.key == "[[run]] key names" ? p.text : k.key;
            const std::string why = refusal([&] { parsePlanText(text, "p.toml"); }, key, line);
            if (why.empty() && k.key == "env" && isEnvironmentVariableName(p.text)) {
                note(p, "plan env name", "accepted", "a variable name a shell accepts (letters only)");
                continue;
            }
            CHECK_FALSE(why.empty());
            note(p, "plan " + (k.key == "env" ? std::string("env name") : k.key),
                 why.empty() ? "ACCEPTED" : "refused", why);
        }
    }
}

TEST_CASE("every payload in a plan's data_dir or env value reaches the engine as one word, here and on Slurm",
          "[integration]") {
    const ClusterSettings cluster = sweepCluster();
    const std::string engine = (sandbox().bin() / "engine").string();
    for (const auto& p : payloads()) {
        for (const std::string key : {"data_dir", "env"}) {
            INFO(key << " = " << p.label);
            const std::string field = key == "env" ? "plan env value" : "plan data_dir";
            const auto [text, line] =
                planWith(key == "env" ? "env = { INJECTED = " + tomlString(p.text) + " }"
                                      : "data_dir = " + tomlString(p.text));
            RunPlan plan;
            if (const std::string why = refusal([&] { plan = parsePlanText(text, "p.toml"); }, key, line);
                !why.empty()) {
                note(p, field, "refused", why);
                continue;
            }
            const RunSpec run = expandPlan(plan).at(0);
            // Here: mpirun's argv as the runner spawns it, and the stored command run again by /bin/sh.
            const fs::path out = sandbox().folder.path / "out";
            const LocalLaunch here = launchHere(plan, out, engine);
            const std::string expected_dir = key == "env" ? SCALEBENCH_DATA_ROOT "/fashion-mnist"
                                             : p.text.starts_with("/")
                                                 ? p.text
                                                 : std::string(SCALEBENCH_DATA_ROOT) + "/" + p.text;
            CHECK(after(here.argv, "--data-dir") == expected_dir);
            CHECK(here.replayed == here.argv);
            if (key == "env") CHECK(after(here.argv, "-x") == "INJECTED=" + p.text);
            CHECK(here.escaped.empty());
            CHECK_FALSE(fs::exists(sandbox().canary()));
            // On Slurm: the script run by bash, srun's argv and the variable its ranks get.
            const SlurmLaunch slurm = launchOnSlurm(cluster, run);
            INFO(slurm.error);
            CHECK(slurm.error.empty());
            CHECK(
                after(slurm.srun, "--data-dir") ==
                (p.text.starts_with("/") || key == "env" ? expected_dir : cluster.data_root + "/" + p.text));
            if (key == "env") CHECK(slurm.injected == p.text);
            CHECK_FALSE(slurm.canary);
            CHECK(slurm.escaped.empty());
            const bool intact = after(here.argv, "--data-dir") == expected_dir &&
                                here.replayed == here.argv && here.escaped.empty() && !slurm.canary &&
                                slurm.escaped.empty() && slurm.error.empty() &&
                                (key != "env" || slurm.injected == p.text);
            note(p, field, intact ? "quoted" : "BROKEN",
                 intact
                     ? "one argv word byte for byte: mpirun here (and the stored command replayed by sh), "
                       "srun from the sbatch script run by bash; no canary, no file outside the run's folder"
                     : "argv or files differ: " + slurm.error);
        }
    }
}
