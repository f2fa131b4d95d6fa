// A real engine run's metric stream, recorded once (tests/data/recorded/), replayed as a job's program by
// scalebench-metric-replay; and how a store's records of such a run compare with the recording: lost, doubled
// or another run's. Used by the reliability tests (kill -9 of the store, connection kills) and their soaks.
#pragma once

#include "file_text.h"
#include "metric_stream_parser.h"
#include "session_store.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

namespace scalebench {

// 400 steps of resnet20 on synthetic-cifar at one rank, batch 4, 4 evaluations: 806 records, 160 kB, one
// stream for each of the seeds 1 to 4 (tests/data/recorded/README.md).
inline const std::filesystem::path kRecordings = SCALEBENCH_SOURCE_DIR "/tests/data/recorded";
inline constexpr int kRecordedSeeds = 4;

struct Recording {
    std::vector<StepRecord> steps;
    std::vector<EvalRecord> evals;
};

inline Recording readRecording(int seed) {
    Recording recording;
    MetricStreamParser parser;
    for (const auto& record :
         parser.feed(fileText(kRecordings / ("seed-" + std::to_string(seed) + ".jsonl")))) {
        if (const auto* step = std::get_if<StepRecord>(&record)) recording.steps.push_back(*step);
        if (const auto* eval = std::get_if<EvalRecord>(&record)) recording.evals.push_back(*eval);
    }
    REQUIRE(parser.brokenLineCount() == 0);
    REQUIRE(recording.steps.size() == 400);
    return recording;
}

// The recordings of seeds 1 to kRecordedSeeds, by seed.
inline std::map<std::int64_t, Recording> readRecordings() {
    std::map<std::int64_t, Recording> recordings;
    for (int seed = 1; seed <= kRecordedSeeds; ++seed)
        recordings[seed] = readRecording(seed);
    return recordings;
}

// An executable in the engine's place (the console's --engine, or a runner's engine path): the recording of
// the run's seed replayed at `lines_per_second` (0: at full speed) into the --metrics file the job names.
inline std::filesystem::path writeReplayEngine(const std::filesystem::path& folder, double lines_per_second) {
    const std::filesystem::path script = folder / "replay-engine.sh";
    std::ofstream(script) << "#!/bin/sh\nexec " << SCALEBENCH_REPLAY_PATH << " --recordings "
                          << kRecordings.string() << " --lines-per-second " << lines_per_second
                          << " \"$@\"\n";
    using std::filesystem::perms;
    std::filesystem::permissions(script, perms::owner_all | perms::group_read | perms::group_exec |
                                             perms::others_read | perms::others_exec);
    return script;
}

// A run's stored records against the recording it replayed. The store holds, in order, a prefix of the
// recording (all of it once the run has ended): a step stored twice is doubled, one that is not the
// recording's at its place (another run's, or corrupt) is foreign, and a step missing before a stored one is
// lost.
struct StoredAgainstRecording {
    std::int64_t stored = 0;  // step records in the store
    std::int64_t doubled = 0; // step numbers stored more than once
    std::int64_t foreign = 0; // stored steps that differ from the recording's step of that number
    std::int64_t lost = 0;    // recorded steps missing below the highest one stored
    std::int64_t last = 0;    // the highest step stored
    bool evals_match = true;  // the evaluations stored are the recording's first ones, in order
    bool complete() const { return last == 400 && lost == 0 && doubled == 0 && foreign == 0; }
};

inline StoredAgainstRecording compareWithRecording(const SessionStore& store, std::int64_t run_id,
                                                   const Recording& recording) {
    StoredAgainstRecording found;
    std::map<std::int64_t, int> times_stored;
    for (const StepRecord& step : store.steps(run_id)) {
        ++found.stored;
        if (++times_stored[step.step] > 1) ++found.doubled;
        const bool known = step.step >= 1 && step.step <= static_cast<std::int64_t>(recording.steps.size());
        if (!known || recording.steps[static_cast<std::size_t>(step.step - 1)].loss != step.loss ||
            recording.steps[static_cast<std::size_t>(step.step - 1)].elapsed_s != step.elapsed_s)
            ++found.foreign;
        found.last = std::max(found.last, step.step);
    }
    for (std::int64_t s = 1; s < found.last; ++s)
        found.lost += times_stored.count(s) == 0 ? 1 : 0;
    const auto evals = store.evals(run_id);
    found.evals_match = evals.size() <= recording.evals.size();
    for (std::size_t i = 0; found.evals_match && i < evals.size(); ++i)
        found.evals_match =
            evals[i].step == recording.evals[i].step && evals[i].value == recording.evals[i].value;
    return found;
}

// How many records were lost, doubled or foreign over the runs of a store, and how many runs are whole.
struct StoreTally {
    std::int64_t runs = 0, complete_runs = 0, stored = 0, lost = 0, doubled = 0, foreign = 0, evals_wrong = 0;
    void add(const StoredAgainstRecording& run) {
        ++runs;
        complete_runs += run.complete() ? 1 : 0;
        stored += run.stored;
        lost += run.lost;
        doubled += run.doubled;
        foreign += run.foreign;
        evals_wrong += run.evals_match ? 0 : 1;
    }
};

// A figure of a soak: given to the environment's SCALEBENCH_SOAK_RESULTS file when set (make soak's
// bench/results/ report), printed always.
inline void reportFigure(const std::string& line) {
    std::cout << line << "\n";
    if (const char* file = std::getenv("SCALEBENCH_SOAK_RESULTS"))
        std::ofstream(file, std::ios::app) << line << "\n";
}

inline int countFromEnvironment(const char* name, int fallback) {
    const char* value = std::getenv(name);
    return value && *value ? std::atoi(value) : fallback;
}

} // namespace scalebench
