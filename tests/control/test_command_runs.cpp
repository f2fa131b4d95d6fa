// Specification of command runs: a [[run]] that names a program of its own (nccl-tests, OSU, an MLPerf
// container) instead of a workload, planned, written back, and rendered as the engine's runs are: the same
// ranks sweep, repeats and environment, its standard output or its own file read by its format's reader, and
// on Slurm its container through pyxis.
#include "job_preview.h"
#include "job_request.h"
#include "local_scheduler.h"
#include "output_formats.h"
#include "plan_writer.h"
#include "run_output.h"
#include "run_plan.h"
#include "shell_words.h"
#include "slurm_job_script.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

using namespace scalebench;

namespace {
RunPlan planOf(const std::string& run_table) {
    return parsePlanText("name = \"theirs\"\n[[run]]\n" + run_table, "theirs.toml");
}

std::string refusalOf(const std::string& run_table) {
    try {
        planOf(run_table);
    } catch (const PlanError& e) {
        return e.what();
    }
    return "accepted";
}

ClusterSettings gpuCluster() {
    ClusterSettings c;
    c.name = "dgx";
    c.host = "head";
    c.remote_root = "/home/me/sb";
    c.gpus_per_node = 8;
    c.tasks_per_node = 8;
    c.launcher = ClusterSettings::Launcher::SrunPmix;
    return c;
}

const char* const kNcclTestsInContainer =
    "command = \"/nccl-tests/build/all_reduce_perf -b 8 -e 8G -f 2 -g 1\"\n"
    "format = \"nccl-tests\"\n"
    "ranks = [8, 16]\n"
    "gpus_per_node = 8\n"
    "container_image = \"nvcr.io#nvidia/pytorch:24.04-py3\"\n"
    "container_mounts = [\"/scratch/nccl-tests:/nccl-tests:ro\"]\n"
    "env = { NCCL_DEBUG = \"INFO\" }\n";
} // namespace

TEST_CASE("a command run names its program, its output's format and the ranks it runs at", "[core][plan]") {
    const RunPlan plan = planOf("command = \"osu_allreduce -m 4:4194304 -i 100 -x 10\"\nformat = \"osu\"\n"
                                "ranks = [1, 2]\n");
    REQUIRE(plan.groups.size() == 1);
    const RunGroup& g = plan.groups[0];
    CHECK(g.isCommand());
    CHECK(g.command.argv ==
          std::vector<std::string>{"osu_allreduce", "-m", "4:4194304", "-i", "100", "-x", "10"});
    CHECK(g.command.format == "osu");
    CHECK(g.command.output.empty()); // its standard output
    CHECK(g.workload == "osu_allreduce");
    CHECK(g.dataset.empty());
    const auto runs = expandPlan(plan);
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].name == "osu_allreduce-n1-r1");
    CHECK(runs[1].name == "osu_allreduce-n2-r1");
    CHECK(outputFileOf(runs[0]) == "output.log");
}

TEST_CASE("a command may be a list of words, and repeats and environment apply as to the engine's runs",
          "[core][plan]") {
    const RunPlan plan = parsePlanText("name = \"p\"\nrepeats = 2\n[[run]]\n"
                                       "command = [\"sh\", \"-c\", \"exec osu_bcast -f\"]\nformat = \"osu\"\n"
                                       "ranks = 2\nenv = { OMPI_MCA_btl = \"self,vader\" }\n",
                                       "p.toml");
    const auto runs = expandPlan(plan);
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].group.command.argv == std::vector<std::string>{"sh", "-c", "exec osu_bcast -f"});
    CHECK(runs[1].name == "sh-n2-r2");
    CHECK(runs[1].environment.at("OMPI_MCA_btl") == "self,vader");
}

TEST_CASE("a command group's name names its runs and stands as their workload", "[core][plan]") {
    const auto runs =
        expandPlan(planOf("name = \"maxtext-llama2-70b\"\ncommand = [\"python3\", \"train.py\"]\n"
                          "format = \"maxtext\"\nranks = [64, 128]\n"));
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].name == "maxtext-llama2-70b-n64-r1");
    CHECK(runs[1].group.workload == "maxtext-llama2-70b");
    CHECK_THAT(refusalOf("name = \"my run\"\ncommand = \"x\"\nformat = \"osu\"\nranks = 1\n"),
               Catch::StartsWith("theirs.toml:3:") && Catch::Contains("'name' names the group's runs"));
    const RunPlan named = planOf("name = \"bert\"\ncommand = \"x\"\nformat = \"mllog\"\nranks = 8\n");
    CHECK(parsePlanText(writePlanToml(named), "again.toml").groups[0] == named.groups[0]);
}

TEST_CASE("a command written as a string is split as a shell splits a simple command, and nothing more",
          "[core][plan]") {
    CHECK(splitCommandLine("a 'b c' \"d e\" f\\ g") == std::vector<std::string>{"a", "b c", "d e", "f g"});
    CHECK(splitCommandLine("  all_reduce_perf   -b 8  ") ==
          std::vector<std::string>{"all_reduce_perf", "-b", "8"});
    CHECK(splitCommandLine("echo '$HOME'") == std::vector<std::string>{"echo", "$HOME"});
    for (const char* shell_only : {"osu_allreduce > out", "a | b", "a; b", "a && b", "echo $HOME",
                                   "echo `id`", "echo \"$HOME\"", "a 'b"})
        CHECK_THROWS_WITH(splitCommandLine(shell_only), Catch::Contains("[\"sh\", \"-c\", \"...\"]"));
    CHECK_THAT(refusalOf("command = \"osu_allreduce > out.txt\"\nformat = \"osu\"\nranks = 1\n"),
               Catch::StartsWith("theirs.toml:3:") && Catch::Contains("'>'"));
}

TEST_CASE("a command run refuses the engine's settings, an unknown format and what it cannot use, by line",
          "[core][plan]") {
    CHECK_THAT(refusalOf("command = \"osu_allreduce\"\nformat = \"osu\"\nranks = 1\nsteps = 10\n"),
               Catch::StartsWith("theirs.toml:6:") && Catch::Contains("'steps' is a setting of the engine"));
    CHECK_THAT(
        refusalOf("command = \"osu_allreduce\"\nformat = \"osu\"\nranks = 1\nworkload = \"resnet20\"\n"),
        Catch::Contains("'workload' is a setting of the engine"));
    CHECK_THAT(refusalOf("command = \"osu_allreduce\"\nformat = \"osv\"\nranks = 1\n"),
               Catch::StartsWith("theirs.toml:4:") && Catch::Contains("nccl-tests, nccl-tests-json, osu") &&
                   Catch::Contains("'osv'"));
    CHECK_THAT(refusalOf("command = \"osu_allreduce\"\nranks = 1\n"), Catch::Contains("'format'"));
    CHECK_THAT(
        refusalOf("command = \"all_reduce_perf -J r.json\"\nformat = \"nccl-tests-json\"\nranks = 1\n"),
        Catch::Contains("name it in 'output'"));
    CHECK_THAT(refusalOf("command = \"x\"\nformat = \"osu\"\nranks = 1\noutput = \"../other/run.txt\"\n"),
               Catch::Contains("no '..'"));
    CHECK_THAT(refusalOf("command = \"x\"\nformat = \"osu\"\nranks = 1\noutput = \"/tmp/run.txt\"\n"),
               Catch::Contains("not absolute"));
    CHECK_THAT(refusalOf("command = \"x\"\nformat = \"osu\"\nranks = 1\ncontainer_mounts = \"/a:/a\"\n"),
               Catch::Contains("needs a 'container_image'"));
    CHECK_THAT(refusalOf("command = \"x\"\nformat = \"osu\"\nranks = 1\ncontainer_image = \"a b\"\n"),
               Catch::Contains("without blanks or commas"));
    CHECK_THAT(refusalOf("command = []\nformat = \"osu\"\nranks = 1\n"), Catch::Contains("names no program"));
    CHECK_THAT(refusalOf("workload = \"resnet20\"\nranks = 1\nformat = \"osu\"\n"),
               Catch::Contains("'format' belongs to a [[run]] with a 'command'"));
    CHECK_THAT(refusalOf("command = \"x\"\nformat = \"osu\"\nranks = 1\ncontainer_imag = \"i\"\n"),
               Catch::Contains("did you mean 'container_image'"));
}

TEST_CASE("a command run is written back as it was read", "[core][plan]") {
    const RunPlan plan = planOf(kNcclTestsInContainer);
    const RunPlan again = parsePlanText(writePlanToml(plan), "again.toml");
    REQUIRE(again.groups.size() == 1);
    CHECK(again.groups[0] == plan.groups[0]);
    const RunPlan json = planOf("command = [\"all_reduce_perf\", \"-J\", \"result.json\"]\n"
                                "format = \"nccl-tests-json\"\noutput = \"result.json\"\nranks = 2\n");
    CHECK(parsePlanText(writePlanToml(json), "again.toml").groups[0] == json.groups[0]);
}

TEST_CASE("on this machine a command runs under mpirun as it is, its standard output in its folder",
          "[remote][plan]") {
    const RunSpec run = expandPlan(planOf("command = \"osu_allreduce -f\"\nformat = \"osu\"\nranks = 2\n"
                                          "container_image = \"ignored/here:1\"\n"))
                            .at(0);
    const JobRequest job = jobRequestFor(run, {localMachine(), "unused", "/out", {"store", 1, "uuid"}});
    CHECK(job.program == std::vector<std::string>{"osu_allreduce", "-f"});
    CHECK(job.output == "output.log");
    CHECK(job.output_from_stdout);
    CHECK(job.ranks == 2);
    const std::string line = LocalScheduler().commandLine(job);
    CHECK_THAT(line, Catch::StartsWith("mpirun -np 2 ") && Catch::EndsWith(" osu_allreduce -f > output.log"));
    CHECK_THAT(line, !Catch::Contains("ignored/here")); // no container runtime here: the command as it is
}

TEST_CASE("a command that writes its own file is read from it, and its standard output stays a log",
          "[remote][plan]") {
    const RunSpec run =
        expandPlan(planOf("command = \"all_reduce_perf -J result.json\"\n"
                          "format = \"nccl-tests-json\"\noutput = \"result.json\"\nranks = 1\n"))
            .at(0);
    const JobRequest job = jobRequestFor(run, {localMachine(), "unused", "/out", {"store", 1, "uuid"}});
    CHECK(job.output == "result.json");
    CHECK_FALSE(job.output_from_stdout);
    CHECK_THAT(LocalScheduler().commandLine(job), Catch::EndsWith("all_reduce_perf -J result.json"));
}

TEST_CASE("a container run's sbatch script starts the command in its image through pyxis, one task per GPU",
          "[remote][plan][slurm]") {
    const auto runs = expandPlan(planOf(kNcclTestsInContainer));
    REQUIRE(runs.size() == 2);
    const JobRequest job =
        jobRequestFor(runs[1], {gpuCluster(), "unused", "/home/me/sb/sessions", {"store", 3, "uuid"}});
    const std::string script = renderSbatchScript(gpuCluster(), job);
    CHECK_THAT(script, Catch::Contains("#SBATCH --nodes=2\n") && Catch::Contains("#SBATCH --ntasks=16\n") &&
                           Catch::Contains("#SBATCH --ntasks-per-node=8\n") &&
                           Catch::Contains("#SBATCH --gpus-per-node=8\n"));
    CHECK_THAT(script, Catch::Contains("export NCCL_DEBUG=INFO\n"));
    const std::string run_dir = job.run_dir;
    CHECK_THAT(script,
               Catch::Contains("\nsrun --mpi=pmix '--container-image=nvcr.io#nvidia/pytorch:24.04-py3' "
                               "--container-mounts=" +
                               run_dir + ":" + run_dir +
                               ",/scratch/nccl-tests:/nccl-tests:ro --container-workdir=\"$PWD\" "
                               "/nccl-tests/build/all_reduce_perf -b 8 -e 8G -f 2 -g 1 > output.log\n"));
    CHECK_THAT(script, Catch::Contains("# container: pyxis starts nvcr.io#nvidia/pytorch:24.04-py3"));
}

TEST_CASE("a container run goes through srun even where the cluster launches the engine with mpirun",
          "[remote][plan][slurm]") {
    ClusterSettings cluster = gpuCluster();
    cluster.launcher = ClusterSettings::Launcher::Mpirun;
    const RunSpec run = expandPlan(planOf(kNcclTestsInContainer)).at(0);
    const std::string script = renderSbatchScript(cluster, jobRequestFor(run, {cluster, "e", "/s", {}}));
    CHECK_THAT(script,
               Catch::Contains("\nsrun --mpi=pmix '--container-image=") && !Catch::Contains("mpirun"));
    // Without a container, the cluster's launcher as for the engine, and the output redirected the same way.
    const RunSpec plain = expandPlan(planOf("command = \"all_reduce_perf -g 1\"\nformat = \"nccl-tests\"\n"
                                            "ranks = 8\n"))
                              .at(0);
    CHECK_THAT(renderSbatchScript(cluster, jobRequestFor(plain, {cluster, "e", "/s", {}})),
               Catch::Contains("\nmpirun -np 8 --bind-to none all_reduce_perf -g 1 > output.log\n"));
}

TEST_CASE("the preview of a command run is its job script, as --dry-run and the plan builder show it",
          "[control][preview]") {
    const RunSpec run = expandPlan(planOf(kNcclTestsInContainer)).at(0);
    const LaunchSite site = previewSite(gpuCluster(), "unused", "/home/me/sb/sessions", "store");
    const std::string preview = submittedCommand(run, site);
    CHECK_THAT(preview, Catch::StartsWith("#!/bin/bash\n") && Catch::Contains("--container-image=") &&
                            Catch::Contains("/session-N-UUID/all_reduce_perf-n8-r1"));
}

TEST_CASE("every format a plan may name has its reader, and a run's reader is its format's", "[core][plan]") {
    for (const auto& format : kOutputFormats)
        CHECK(makeOutputReader(format, {2, "all_reduce_perf"}) != nullptr);
    CHECK_THROWS_WITH(makeOutputReader("osv", {}), Catch::Contains("'osv'"));
    // An nccl-tests run's output, read by the reader its plan names, gives collective records of nccl-tests.
    const RunSpec run = expandPlan(planOf("command = \"all_reduce_perf -b 8 -e 128M -f 2 -g 1\"\n"
                                          "format = \"nccl-tests\"\nranks = 2\n"))
                            .at(0);
    const auto reader = outputReaderOf(run);
    std::ifstream file(SCALEBENCH_SOURCE_DIR "/tests/data/nccl-tests/all_reduce_v2.19.6_two_ranks.txt");
    REQUIRE(file);
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    auto records = reader->feed(text);
    const auto rest = reader->finish();
    records.insert(records.end(), rest.begin(), rest.end());
    std::size_t collectives = 0;
    for (const auto& record : records)
        if (const auto* c = std::get_if<CollectiveRecord>(&record)) {
            ++collectives;
            CHECK(c->tool == "nccl-tests");
            CHECK(c->collective == "allreduce");
        }
    CHECK(collectives == 10); // 5 sizes, in and out of place
    CHECK(reader->brokenLineCount() == 0);
}

TEST_CASE(
    "a command's format may name a user-defined format: a shipped definition, one in the user's formats "
    "folder, or a definition file",
    "[core][plan][pattern]") {
    const RunPlan shipped =
        planOf("command = \"torchrun pretrain_gpt.py\"\nformat = \"megatron-lm\"\nranks = 8\n");
    CHECK(shipped.groups[0].command.format == "megatron-lm");
    CHECK(outputReaderOf(expandPlan(shipped).front()) != nullptr);

    const std::filesystem::path folder =
        std::filesystem::temp_directory_path() / ("scalebench-formats-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "my-trainer.toml") << "name = \"my-trainer\"\n[[line]]\n"
                                                 "pattern = 'step (?<step>\\d+) loss (?<loss>[\\d.]+)'\n";
    std::ofstream(folder / "broken.toml") << "name = \"broken\"\n[[line]]\npattern = 'step (?<stpe>\\d+)'\n";
    ::setenv("SCALEBENCH_FORMATS", folder.c_str(), 1);
    const RunPlan user = planOf("command = \"my_trainer\"\nformat = \"my-trainer\"\nranks = 2\n");
    const auto reader = outputReaderOf(expandPlan(user).front());
    const auto records = reader->feed("step 1 loss 2.5\nstep 2 loss 2.25\n");
    CHECK(std::count_if(records.begin(), records.end(),
                        [](const MetricRecord& r) { return std::holds_alternative<StepRecord>(r); }) == 2);
    const std::string by_path = (folder / "my-trainer.toml").string();
    CHECK(planOf("command = \"my_trainer\"\nformat = \"" + by_path + "\"\nranks = 2\n")
              .groups[0]
              .command.format == by_path);
    const auto listed = availableFormats();
    CHECK(std::find(listed.begin(), listed.end(), "my-trainer") != listed.end());
    CHECK(std::find(listed.begin(), listed.end(), "torchtitan") != listed.end());

    CHECK_THAT(refusalOf("command = \"x\"\nformat = \"broken\"\nranks = 2\n"),
               Catch::StartsWith("theirs.toml:4:") &&
                   Catch::Contains("'format': " + (folder / "broken.toml").string() + ":3:") &&
                   Catch::Contains("(?<stpe>...)"));
    CHECK_THAT(refusalOf("command = \"x\"\nformat = \"megatron\"\nranks = 2\n"),
               Catch::Contains("no output format 'megatron'") &&
                   Catch::Contains("megatron-lm, nemo, torchtitan") && Catch::Contains("my-trainer"));
    ::unsetenv("SCALEBENCH_FORMATS");
    std::filesystem::remove_all(folder);
}
