// The image workloads (MLBench task 1, MLPerf-style ResNet-50) under real mpirun: a few steps with the loss
// going down, their data formats, and plain errors for bad names and bad data.
#include "engine_run.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("an unknown workload or dataset ends the run with an error record naming it", "[workloads]") {
    TemporaryFolder folder;
    const EngineRun unknown = runEngine(folder, 1, {"--workload", "resnet2000"}, "unknown.jsonl");
    CHECK(unknown.status != 0);
    const auto errors = recordsOf<ErrorRecord>(unknown);
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0].message, Catch::Contains("unknown workload 'resnet2000'") && Catch::Contains("resnet20"));

    const EngineRun dataset = runEngine(folder, 1, {"--dataset", "mnist"}, "dataset.jsonl");
    CHECK(dataset.status != 0);
    REQUIRE(recordsOf<ErrorRecord>(dataset).size() == 1);
    CHECK_THAT(recordsOf<ErrorRecord>(dataset)[0].message,
               Catch::Contains("no dataset 'mnist'") && Catch::Contains("fashion-mnist"));
}
