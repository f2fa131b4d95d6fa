// What the analysis views' tests share (tests/ui/test_analysis_charts.cpp and its siblings): sample data (a
// training session's runs, collective sweeps, per-rank times, a compared session) and a widget shown
// offscreen. Each model runs under QAbstractItemModelTester with kFatal.
#pragma once

#include "metric_record.h"
#include "run_capsule.h"
#include "run_result.h"
#include "session_comparison.h"
#include "stored_rows.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QSize>
#include <QWidget>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace scalebench {

inline constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

// Shows a widget off screen at the size screenshots use and lets it lay out: a chart's layout request may
// post further ones (legend, view update), so the event loop runs three passes, not one (the Collectives
// chart test failed once on a loaded machine, not reproduced since; one pass was the suspect).
inline void showOffscreen(QWidget& widget, QSize size = {1000, 600}) {
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.resize(size);
    widget.show();
    for (int pass = 0; pass < 3; ++pass)
        QCoreApplication::processEvents();
}

// A finished training run: its throughput, and its step of `step_ms` broken down with the given fractions of
// hidden and exposed communication.
inline RunResult trainingRun(const std::string& workload, int ranks, int repeat, double samples_per_s,
                             double step_ms, double hidden_fraction, double comm_fraction) {
    RunResult r{workload + "-n" + std::to_string(ranks) + "-r" + std::to_string(repeat),
                workload,
                "synthetic",
                ranks,
                repeat,
                RunStatus::Ok,
                "",
                {}};
    const double s = step_ms / 1e3;
    const double comm = comm_fraction * s;
    r.figures.steady_steps = 40;
    r.figures.samples_per_s = samples_per_s;
    r.figures.breakdown = {s, 0.05 * s, 0.3 * s, 0.55 * s - comm, comm, 0.1 * s, hidden_fraction * s};
    r.figures.final_loss = 0.4;
    r.figures.final_eval = 0.88;
    return r;
}

// ResNet-20 at 1, 2, 4 and 8 ranks, two repeats each: communication grows with the rank count.
inline std::vector<RunResult> sampleTrainingSession(double speed = 1.0) {
    std::vector<RunResult> runs;
    const std::vector<std::tuple<int, double, double, double>> shape = {
        {1, 1000, 0.0, 0.0}, {2, 1900, 0.08, 0.04}, {4, 3600, 0.12, 0.08}, {8, 6400, 0.15, 0.14}};
    for (const auto& [ranks, throughput, hidden, comm] : shape)
        for (int repeat = 0; repeat < 2; ++repeat) {
            const double x = throughput * speed * (repeat ? 1.02 : 0.98);
            runs.push_back(trainingRun("resnet20", ranks, repeat, x, 256.0 * ranks / x * 1e3, hidden, comm));
        }
    return runs;
}

// All-reduce sweeps of mpi and nccl at 2 and 4 ranks, 1 KiB to 64 MiB.
inline std::vector<CollectiveRecord> sampleSweeps() {
    std::vector<CollectiveRecord> records;
    for (const std::string backend : {"mpi", "nccl"})
        for (int ranks : {2, 4})
            for (std::int64_t bytes = 1024; bytes <= (std::int64_t{64} << 20); bytes *= 4) {
                CollectiveRecord c;
                c.backend = backend;
                c.collective = "allreduce";
                c.dtype = "float32";
                c.ranks = ranks;
                c.bytes = bytes;
                c.elements = bytes / 4;
                c.repetitions = 20;
                // A latency of 20 us (mpi) or 8 us (nccl) and a link of 10 or 40 GB/s.
                const double latency = backend == "mpi" ? 20e-6 : 8e-6, link = backend == "mpi" ? 10e9 : 40e9;
                c.time_s = latency + bytes / link;
                c.algbw_gbps = bytes / c.time_s / 1e9;
                c.busbw_gbps = c.algbw_gbps * 2.0 * (ranks - 1) / ranks;
                c.correct = true;
                records.push_back(c);
            }
    return records;
}

// Four ranks, rank 2 computes 20% longer; everyone's step waits for it.
inline std::vector<RankTimesRecord> sampleRankTimes(int ranks = 4) {
    std::vector<RankTimesRecord> records;
    for (int step = 1; step <= 30; ++step) {
        RankTimesRecord r{step, {}, {}};
        for (int rank = 0; rank < ranks; ++rank) {
            const double compute = rank == 2 ? 0.120 : 0.100 + 0.001 * (rank % 5);
            r.compute_s.push_back(compute);
            r.step_s.push_back(0.130);
        }
        records.push_back(r);
    }
    return records;
}

// The sample session as compared: its plan (with `steps`), its cluster, LibTorch's version, a job's capsule.
inline ComparedSession sampleComparedSession(const std::string& name, double speed,
                                             const std::string& libtorch, int steps) {
    ComparedSession s{name, sampleTrainingSession(speed)};
    s.plan_text = "name = \"nightly\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2, 4, 8]\nsteps = " +
                  std::to_string(steps) + "\n";
    s.stored_plan = readStoredPlan(1, s.plan_text);
    s.cluster_json = R"({"name":"prod","host":"login1","partition":"gpu"})";
    s.run_headers = {R"({"type":"header","versions":{"libtorch":")" + libtorch +
                     R"("},"threads_per_rank":4,"unix_time":1})"};
    SessionRow session;
    session.name = name;
    session.plan_text = s.plan_text;
    RunRow run;
    run.name = "resnet20-fashion-mnist-n1-r1";
    run.header_json = s.run_headers[0];
    run.command =
        "#!/bin/bash\n#SBATCH --nodes=1\nsrun scalebench-engine --steps " + std::to_string(steps) + "\n";
    s.capsules = {runCapsule(session, run)};
    return s;
}

} // namespace scalebench
