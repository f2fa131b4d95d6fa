// The GPU counts a new run group starts with: the powers of two up to what the plan's launch
// target runs at once, this machine's cores or a cluster node's GPUs, instead of 1, 2, 4, 8 everywhere.
#include "default_rank_counts.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("the powers of two up to a count start at 1 and stop at the count", "[core][plan]") {
    CHECK(powersOfTwoUpTo(0) == std::vector<int>{1});
    CHECK(powersOfTwoUpTo(1) == std::vector<int>{1});
    CHECK(powersOfTwoUpTo(2) == std::vector<int>{1, 2});
    CHECK(powersOfTwoUpTo(3) == std::vector<int>{1, 2});
    CHECK(powersOfTwoUpTo(8) == std::vector<int>{1, 2, 4, 8});
    CHECK(powersOfTwoUpTo(12) == std::vector<int>{1, 2, 4, 8});
    CHECK(powersOfTwoUpTo(1 << 30).back() == 1 << 30); // no overflow past the largest int power of two
    CHECK(powersOfTwoUpTo(0x7fffffff).back() == 1 << 30);
}

TEST_CASE("a plan for this machine asks for the powers of two up to its cores, one for a cluster up to a "
          "node's GPUs",
          "[core][plan]") {
    CHECK(defaultRankCounts(localMachine(), 2) == std::vector<int>{1, 2}); // a 2-core laptop: not 4 and 8
    CHECK(defaultRankCounts(localMachine(), 6) == std::vector<int>{1, 2, 4});
    CHECK(defaultRankCounts(localMachine(), 16) == std::vector<int>{1, 2, 4, 8, 16});
    CHECK(defaultRankCounts(localMachine(), 0) == std::vector<int>{1}); // cores unknown

    ClusterSettings gpus;
    gpus.name = "prod";
    gpus.host = "head.example.org";
    gpus.gpus_per_node = 4;
    gpus.tasks_per_node = 1;
    CHECK(ranksAtOnce(gpus, 2) == 4); // this machine's cores do not matter
    CHECK(defaultRankCounts(gpus, 2) == std::vector<int>{1, 2, 4});
    gpus.gpus_per_node = 8;
    CHECK(defaultRankCounts(gpus, 64) == std::vector<int>{1, 2, 4, 8});

    ClusterSettings cpus = gpus; // no GPUs: its ranks per node
    cpus.gpus_per_node = 0;
    cpus.tasks_per_node = 32;
    CHECK(defaultRankCounts(cpus, 2) == std::vector<int>{1, 2, 4, 8, 16, 32});
}
