// A straggler on purpose: the engine at 3 ranks under real mpirun with --slow-rank 2, and the console's
// slow-rank finding naming that rank and its host from the records the engine wrote.
#include "engine_run.h"
#include "slow_rank_finding.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace scalebench;

TEST_CASE("a rank slowed on purpose at 3 ranks is the one the slow-rank finding names, with its host",
          "[integration][engine][stragglers]") {
    // Three ranks on a shared CPU: the two others' compute can differ 2x (seen: 46 and 90 ms), and with 3
    // ranks that difference is the MAD, so the threshold is up to 2 + 3 x 1.4826 = 6.4 times the faster
    // one's; a factor of 10 stays above it (3 was missed once under load).
    TemporaryFolder folder;
    const EngineRun run = runEngine(folder, 3,
                                    {"--dataset", "synthetic-cifar", "--steps", "12", "--batch-per-rank",
                                     "16", "--eval-every", "0", "--eval-samples", "50", "--warmup-steps", "0",
                                     "--slow-rank", "2", "--slow-factor", "10"});
    INFO(run.output);
    REQUIRE(run.status == 0);
    const auto headers = recordsOf<HeaderRecord>(run);
    REQUIRE(headers.size() == 1);
    const std::vector<std::string> hosts = hostsOfRanks(headers[0].json);
    REQUIRE(hosts.size() == 3);
    REQUIRE_FALSE(hosts[2].empty());

    const SlowRankFinding finding = findSlowRanks(recordsOf<RankTimesRecord>(run), hosts);
    INFO(describeSlowRanks(finding));
    CHECK(finding.decidable);
    REQUIRE(finding.compute_s.size() == 3);
    INFO("median compute ms: " << finding.compute_s[0] * 1e3 << ", " << finding.compute_s[1] * 1e3 << ", "
                               << finding.compute_s[2] * 1e3);
    REQUIRE(finding.slow_ranks.size() == 1);
    CHECK(finding.slow_ranks[0].rank == 2);
    CHECK(finding.slow_ranks[0].host == hosts[2]);
    CHECK(finding.slow_nodes == std::vector<std::string>{hosts[2]});
    CHECK_THAT(describeSlowRanks(finding), Catch::StartsWith("slow rank 2 on " + hosts[2] + ": compute "));
}
