// Specification of local remote work: commands, reading growing files from an offset, mpirun jobs and their
// states.
#include "file_text.h"
#include "job_end.h"
#include "local_mpirun_arguments.h"
#include "local_scheduler.h"
#include "local_transport.h"
#include "metric_file_tail.h"
#include "run_folder.h"
#include "shell_words.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <thread>

using namespace scalebench;

TEST_CASE("a local command gives its exit status, output and error output", "[remote]") {
    LocalTransport local;
    const CommandResult r = local.run("echo out; echo err >&2; exit 3");
    CHECK(r.exit_status == 3);
    CHECK(r.out == "out\n");
    CHECK(r.err == "err\n");
    CHECK(local.run("kill -9 $$").exit_status == 128 + 9);
}

TEST_CASE("a growing file is read from any byte offset: a missing one reads as nothing yet", "[remote]") {
    TemporaryFolder folder;
    LocalTransport local;
    const auto file = (folder.path / "metrics.jsonl").string();
    CHECK_FALSE(local.readFrom(file, 0, 100).has_value());
    std::ofstream(file) << "0123456789";
    CHECK(local.readFrom(file, 4, 3) == "456");
    CHECK(local.readFrom(file, 8, 100) == "89");
    CHECK(local.readFrom(file, 10, 100) == "");
}

TEST_CASE("the metric tail hands over each record once, however the writer splits its lines", "[remote]") {
    TemporaryFolder folder;
    LocalTransport local;
    const auto file = (folder.path / "metrics.jsonl").string();
    MetricFileTail tail(local, file);
    CHECK(tail.poll().empty()); // not written yet
    std::ofstream out(file);
    out << R"({"type":"step","step":1,"loss":2.0,"samples_per_s":1,"step_s":1})"
           "\n"
        << R"({"type":"step","step":2,"lo)" << std::flush;
    CHECK(tail.poll().size() == 1);
    out << R"(ss":1.5,"samples_per_s":1,"step_s":1})"
           "\n"
        << std::flush;
    const auto second = tail.poll();
    REQUIRE(second.size() == 1);
    CHECK(std::get<StepRecord>(second[0]).loss == 1.5);
    CHECK(tail.poll().empty());
    CHECK(tail.offset() == static_cast<std::int64_t>(std::filesystem::file_size(file)));
}

TEST_CASE("an mpirun job that succeeds, fails or is cancelled ends in that state", "[remote][mpi]") {
    TemporaryFolder folder;
    LocalScheduler scheduler;
    JobRequest job{
        .name = "ok", .program = {"/bin/true"}, .ranks = 2, .run_dir = (folder.path / "ok").string()};
    CHECK(scheduler.commandLine(job) == shellJoin(localMpirunArguments(job)));
    std::filesystem::create_directories(job.run_dir);
    CHECK(waitForEnd(scheduler, scheduler.submit(job)).state == JobState::Completed);

    job.run_dir = (folder.path / "next").string(); // every job in a folder of its own
    std::filesystem::create_directories(job.run_dir);
    SECTION("a rank that exits non-zero fails the job, with mpirun's words in the detail") {
        job.program = {"/bin/sh", "-c", "echo 'rank broke' >&2; exit 3"};
        const JobStatus s = waitForEnd(scheduler, scheduler.submit(job));
        CHECK(s.state == JobState::Failed);
        CHECK(s.exit_status != 0);
        CHECK_THAT(s.detail, Catch::Contains("rank broke"));
    }
    SECTION("a cancelled job is cancelled, not failed") {
        job.program = {"/bin/sleep", "60"};
        const std::string id = scheduler.submit(job);
        CHECK(scheduler.poll({id}).at(id).state == JobState::Running);
        scheduler.cancel(id);
        CHECK(waitForEnd(scheduler, id).state == JobState::Cancelled);
    }
}

TEST_CASE("a job runs in its attempt's new folder, and never in one that exists", "[remote][mpi]") {
    TemporaryFolder folder;
    LocalScheduler scheduler;
    const auto run_dir = folder.path / "run";
    std::filesystem::create_directories(run_dir);
    const JobRequest job{
        .name = "here", .program = {"/bin/sh", "-c", "pwd > where.txt"}, .run_dir = run_dir.string()};
    CHECK(waitForEnd(scheduler, scheduler.submit(job)).state == JobState::Completed);
    CHECK(fileText(attemptFolder(run_dir.string(), 0) + "/where.txt") ==
          std::filesystem::canonical(attemptFolder(run_dir.string(), 0)).string() + "\n");
    // The same folder again (a reused run folder): refused before anything starts, naming the folder.
    CHECK_THROWS_WITH(scheduler.submit(job), Catch::Contains(attemptFolder(run_dir.string(), 0)) &&
                                                 Catch::Contains("exists already"));
}
