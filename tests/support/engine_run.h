// The engine run under real mpirun for a test: its exit status, its output and its metric stream parsed by
// core (tests of the engine's communication and of its workloads).
#pragma once

#include "child_process.h"
#include "engine_under_test.h"
#include "file_text.h"
#include "metric_stream_parser.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace scalebench {

struct EngineRun {
    int status = 0;
    std::string output; // stdout and stderr of every rank and of mpirun
    std::vector<MetricRecord> records;
};

// mpirun --oversubscribe -np ranks scalebench-engine --metrics folder/metrics_name arguments..., with
// `environment`
// ("NAME=value") added to this process's for mpirun and every rank.
inline EngineRun runEngine(const TemporaryFolder& folder, int ranks,
                           const std::vector<std::string>& arguments,
                           const std::string& metrics_name = "metrics.jsonl",
                           std::vector<std::string> environment = {}) {
    std::vector<std::string> argv = {"mpirun",
                                     "--oversubscribe",
                                     "-np",
                                     std::to_string(ranks),
                                     engineUnderTest(),
                                     "--metrics",
                                     (folder.path / metrics_name).string()};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    if (geteuid() == 0)
        environment.insert(environment.end(),
                           {"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"});
    const auto log = (folder.path / (metrics_name + ".log")).string();
    ChildProcess engine(argv, log, log, environment);
    EngineRun run;
    run.status = engine.wait().status;
    run.output = fileText(log);
    MetricStreamParser parser;
    run.records = parser.feed(fileText(folder.path / metrics_name));
    CHECK(parser.brokenLineCount() == 0);
    return run;
}

template <typename Record> std::vector<Record> recordsOf(const EngineRun& run) {
    std::vector<Record> out;
    for (const auto& r : run.records)
        if (std::holds_alternative<Record>(r)) out.push_back(std::get<Record>(r));
    return out;
}

inline std::vector<float> floatsIn(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<float> values;
    float v = 0;
    while (in.read(reinterpret_cast<char*>(&v), sizeof v))
        values.push_back(v);
    return values;
}

} // namespace scalebench
