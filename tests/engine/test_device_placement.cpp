// One CUDA device per rank: a per-task CUDA_VISIBLE_DEVICES binding, else Open MPI's, Slurm's or MPI's
// node-local rank; a local rank without a GPU of its own is refused with everything needed to fix the launch.
#include "device_placement.h"

#include <catch2/catch.hpp>
#include <map>

using namespace scalebench;

namespace {

EnvironmentLookup environmentOf(std::map<std::string, std::string> variables) {
    return [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
        const auto it = variables.find(name);
        if (it == variables.end()) return std::nullopt;
        return it->second;
    };
}

} // namespace

TEST_CASE("a rank bound to one GPU by CUDA_VISIBLE_DEVICES uses device 0 whatever its local rank",
          "[engine]") {
    const auto placement = placeOnDevice(
        environmentOf(
            {{"CUDA_VISIBLE_DEVICES", "3"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "3"}, {"SLURM_LOCALID", "3"}}),
        1, 7, 3);
    CHECK(placement.device == 0);
    CHECK(placement.source == "CUDA_VISIBLE_DEVICES=3");
    CHECK(placeOnDevice(environmentOf({{"CUDA_VISIBLE_DEVICES", "GPU-5f3c0e2a"}}), 1, 0, 0).source ==
          "CUDA_VISIBLE_DEVICES=GPU-5f3c0e2a");
    CHECK(placeOnDevice(environmentOf({{"CUDA_VISIBLE_DEVICES", "2,"}}), 1, 0, 0).device == 0);
}

TEST_CASE("a one-GPU binding the process cannot see is refused", "[engine]") {
    CHECK_THROWS_WITH(placeOnDevice(environmentOf({{"CUDA_VISIBLE_DEVICES", "7"}}), 0, 2, 0),
                      Catch::Contains("rank 2") && Catch::Contains("CUDA_VISIBLE_DEVICES=7") &&
                          Catch::Contains("0 CUDA device(s)"));
}

TEST_CASE("with several GPUs visible, Open MPI's local rank picks the device", "[engine]") {
    const auto placement = placeOnDevice(environmentOf({{"CUDA_VISIBLE_DEVICES", "0,1,2,3"},
                                                        {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                                                        {"SLURM_LOCALID", "2"}}),
                                         4, 5, 3);
    CHECK(placement.device == 1);
    CHECK(placement.source == "OMPI_COMM_WORLD_LOCAL_RANK=1");
    // CUDA_VISIBLE_DEVICES unset: every GPU of the node is visible.
    CHECK(placeOnDevice(environmentOf({{"OMPI_COMM_WORLD_LOCAL_RANK", "7"}}), 8, 15, 0).device == 7);
}

TEST_CASE("without Open MPI's variable, Slurm's SLURM_LOCALID picks the device", "[engine]") {
    const auto placement = placeOnDevice(environmentOf({{"SLURM_LOCALID", "2"}}), 4, 6, 0);
    CHECK(placement.device == 2);
    CHECK(placement.source == "SLURM_LOCALID=2");
}

TEST_CASE("without a launcher's variable, MPI's node-local rank picks the device", "[engine]") {
    const auto placement = placeOnDevice(environmentOf({}), 2, 3, 1);
    CHECK(placement.device == 1);
    CHECK(placement.source == "MPI local rank 1");
    CHECK(placeOnDevice(environmentOf({{"CUDA_VISIBLE_DEVICES", "0,1"}}), 2, 0, 0).device == 0);
}

TEST_CASE("a local rank without a GPU of its own is refused with the rank, the source and the devices",
          "[engine]") {
    CHECK_THROWS_WITH(
        placeOnDevice(environmentOf({{"CUDA_VISIBLE_DEVICES", "0,1"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "2"}}),
                      2, 6, 2),
        Catch::Contains("rank 6") && Catch::Contains("local rank 2") &&
            Catch::Contains("OMPI_COMM_WORLD_LOCAL_RANK=2") && Catch::Contains("2 CUDA device(s)") &&
            Catch::Contains("CUDA_VISIBLE_DEVICES=0,1") && Catch::Contains("NCCL refuses"));
    CHECK_THROWS_WITH(placeOnDevice(environmentOf({}), 1, 1, 1),
                      Catch::Contains("MPI local rank 1") && Catch::Contains("CUDA_VISIBLE_DEVICES unset"));
    CHECK_THROWS_WITH(placeOnDevice(environmentOf({{"SLURM_LOCALID", "0"}}), 0, 0, 0),
                      Catch::Contains("SLURM_LOCALID=0") && Catch::Contains("0 CUDA device(s)"));
    // An empty list hides every GPU.
    CHECK_THROWS_WITH(placeOnDevice(environmentOf({{"CUDA_VISIBLE_DEVICES", ""}}), 0, 0, 0),
                      Catch::Contains("CUDA_VISIBLE_DEVICES="));
}

TEST_CASE("a local-rank variable that is not a number is refused by name", "[engine]") {
    CHECK_THROWS_WITH(placeOnDevice(environmentOf({{"OMPI_COMM_WORLD_LOCAL_RANK", "one"}}), 4, 1, 1),
                      Catch::Contains("OMPI_COMM_WORLD_LOCAL_RANK='one'"));
    CHECK_THROWS_WITH(placeOnDevice(environmentOf({{"SLURM_LOCALID", "-1"}}), 4, 1, 1),
                      Catch::Contains("SLURM_LOCALID='-1'"));
    CHECK_THROWS_WITH(placeOnDevice(environmentOf({{"SLURM_LOCALID", ""}}), 4, 1, 1),
                      Catch::Contains("SLURM_LOCALID=''"));
}

TEST_CASE("the process environment is read through the same lookup", "[engine]") {
    CHECK_FALSE(processEnvironment()("SCALEBENCH_SURELY_UNSET_VARIABLE_42"));
    CHECK(processEnvironment()("PATH").has_value());
}
