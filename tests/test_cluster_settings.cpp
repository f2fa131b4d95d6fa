// Specification of cluster files: [[cluster]] tables in TOML, mistakes named by line and key, kept as JSON.
#include "cluster_settings.h"
#include "run_plan.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("a cluster file gives every setting of how jobs are shaped and where they go", "[core][cluster]") {
    const auto clusters = parseClusterText(R"(
[[cluster]]
name = "prod"
host = "head.example.org"
user = "alice"
port = 2222
identity_files = ["~/.ssh/id_ed25519"]
partition = "gpu"
tasks_per_node = 8
gpus_per_node = 8
setup = ["module load cuda/12.4"]
launcher = "mpirun"
container_image = "nvcr.io#nvidia/pytorch:24.04-py3"
[cluster.nccl_env]
NCCL_IB_HCA = "mlx5"
)",
                                           "clusters.toml");
    REQUIRE(clusters.size() == 1);
    const ClusterSettings& c = clusters[0];
    CHECK(c.port == 2222);
    CHECK(c.gpus_per_node == 8);
    CHECK(c.launcher == ClusterSettings::Launcher::Mpirun);
    CHECK(c.nccl_env.at("NCCL_IB_HCA") == "mlx5");
    CHECK(c.exclusive); // the default: benchmarks want whole nodes

    const ClusterSettings back = clusterFromJson(clusterToJson(c));
    CHECK(clusterToJson(back) == clusterToJson(c));
}

TEST_CASE("a mistake in a cluster file is named by file, line and key", "[core][cluster]") {
    const std::string head = "[[cluster]]\nname = \"c\"\nhost = \"h\"\n";
    CHECK_THROWS_WITH(parseClusterText(head + "partiton = \"gpu\"\n", "c.toml"),
                      Catch::Contains("c.toml:4:") && Catch::Contains("did you mean 'partition'?"));
    CHECK_THROWS_WITH(parseClusterText(head + "launcher = \"ssh\"\n", "c.toml"),
                      Catch::Contains("'launcher' must be \"srun-pmix\" or \"mpirun\""));
    CHECK_THROWS_WITH(parseClusterText("[[cluster]]\nname = \"c\"\n", "c.toml"),
                      Catch::Contains("missing key 'host'"));
    CHECK_THROWS_WITH(parseClusterText(head + "exclusive = \"yes\"\n", "c.toml"),
                      Catch::Contains("must be true or false"));
}
