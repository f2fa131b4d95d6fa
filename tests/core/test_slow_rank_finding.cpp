// Specification of the slow-rank finding: which ranks and nodes a run's per-rank compute times flag.
#include "slow_rank_finding.h"

#include <catch2/catch.hpp>
#include <random>

using namespace scalebench;

namespace {

// `steps` records (the first a tenth of them warm-up) of `ranks` ranks computing `compute_s` seconds a step,
// each time multiplied by 1 + a uniform draw in [-noise, noise] and by the rank's own factor.
std::vector<RankTimesRecord> rankTimes(int ranks, int steps, double compute_s, double noise,
                                       const std::vector<double>& factor = {}) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> jitter(-noise, noise);
    std::vector<RankTimesRecord> records;
    for (int step = 1; step <= steps; ++step) {
        RankTimesRecord r{step, {}, {}};
        for (int rank = 0; rank < ranks; ++rank) {
            const double f = static_cast<std::size_t>(rank) < factor.size() ? factor[rank] : 1.0;
            const double c = compute_s * f * (1 + jitter(random)) * (step == 1 ? 5 : 1);
            r.compute_s.push_back(c);
            r.step_s.push_back(c + 0.002);
        }
        records.push_back(r);
    }
    return records;
}

const std::vector<std::string> kHosts = {"node1", "node1", "node2", "node2"};

} // namespace

TEST_CASE("a rank slowed 30 percent is flagged with its node", "[core][analysis]") {
    const SlowRankFinding f = findSlowRanks(rankTimes(4, 50, 0.030, 0.02, {1, 1, 1, 1.3}), kHosts);
    CHECK(f.decidable);
    CHECK(f.steady_steps == 45);
    REQUIRE(f.slow_ranks.size() == 1);
    CHECK(f.slow_ranks[0].rank == 3);
    CHECK(f.slow_ranks[0].host == "node2");
    CHECK(f.slow_ranks[0].compute_s == Approx(0.039).epsilon(0.03));
    CHECK(f.ranks_median_s == Approx(0.030).epsilon(0.03));
    CHECK(f.slow_nodes == std::vector<std::string>{"node2"});
    const std::string text = describeSlowRanks(f);
    CHECK_THAT(text,
               Catch::Matches("slow rank 3 on node2: compute 3\\d\\.\\d ms median vs 30\\.\\d ms for the "
                              "ranks' median \\(\\+3\\d %\\)\nslow node node2 \\(ranks 3\\)\n"));
}

TEST_CASE("uniform noise across ranks flags nothing", "[core][analysis]") {
    for (int ranks : {3, 4, 8, 16}) {
        const SlowRankFinding f = findSlowRanks(rankTimes(ranks, 40, 0.030, 0.03), kHosts);
        CHECK(f.decidable);
        CHECK(f.slow_ranks.empty());
        CHECK(f.slow_nodes.empty());
        CHECK(describeSlowRanks(f).empty());
    }
}

TEST_CASE("identical ranks never flag: the minimum margin holds where the spread is zero",
          "[core][analysis]") {
    const SlowRankFinding f = findSlowRanks(rankTimes(4, 20, 0.030, 0, {1, 1, 1, 1.04}), kHosts);
    CHECK(f.decidable);
    CHECK(f.threshold_s == Approx(0.030 * 1.05));
    CHECK(f.slow_ranks.empty());
}

TEST_CASE("with fewer than 3 ranks the finding cannot tell", "[core][analysis]") {
    for (int ranks : {0, 1, 2}) {
        const SlowRankFinding f = findSlowRanks(rankTimes(ranks, 20, 0.030, 0, {1, 2}), kHosts);
        CHECK_FALSE(f.decidable);
        CHECK(f.slow_ranks.empty());
        CHECK(describeSlowRanks(f).empty());
    }
}

TEST_CASE("a slow node is one with slow ranks, named once", "[core][analysis]") {
    const SlowRankFinding f = findSlowRanks(rankTimes(8, 30, 0.030, 0.01, {1, 1, 1, 1, 1, 1, 1.4, 1.5}),
                                            {"a", "a", "b", "b", "c", "c", "d", "d"});
    REQUIRE(f.slow_ranks.size() == 2);
    CHECK(f.slow_ranks[0].rank == 6);
    CHECK(f.slow_ranks[1].rank == 7);
    CHECK(f.slow_nodes == std::vector<std::string>{"d"});
    CHECK_THAT(describeSlowRanks(f), Catch::EndsWith("slow node d (ranks 6, 7)\n"));
}

TEST_CASE("a rank without a host in the header is flagged without a node", "[core][analysis]") {
    const SlowRankFinding f = findSlowRanks(rankTimes(3, 20, 0.030, 0, {1, 1, 2}), {});
    REQUIRE(f.slow_ranks.size() == 1);
    CHECK(f.slow_ranks[0].host.empty());
    CHECK(f.slow_nodes.empty());
    CHECK_THAT(describeSlowRanks(f), Catch::StartsWith("slow rank 2: compute 60.0 ms"));
}

TEST_CASE("each rank's host comes from the header's hosts list", "[core][analysis]") {
    CHECK(hostsOfRanks(
              R"({"type":"header","hosts":[{"rank":0,"host":"n1","pid":1},{"rank":1,"host":"n2"}]})") ==
          std::vector<std::string>{"n1", "n2"});
    CHECK(hostsOfRanks(R"({"hosts":[{"host":"n1"},{"host":"n3"}]})") == std::vector<std::string>{"n1", "n3"});
    CHECK(hostsOfRanks(R"({"hosts":[{"rank":1,"host":"n2"}]})") == std::vector<std::string>{"", "n2"});
    CHECK(hostsOfRanks("not json").empty());
    CHECK(hostsOfRanks(R"({"type":"header"})").empty());
}
