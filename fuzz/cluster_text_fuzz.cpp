// Fuzz target: cluster files ([[cluster]] TOML, parseClusterText), then what the store and the Clusters tab
// do with each cluster read: its problems (clusterProblems) and the JSON round trip of the session store.
#include "cluster_settings.h"
#include "fuzz_finding.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace scalebench;
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<ClusterSettings> clusters;
    if (!fuzz::parsedOrRefused([&] { clusters = parseClusterText(text, "fuzz.toml"); })) return 0;
    for (const ClusterSettings& cluster : clusters) {
        std::vector<ClusterProblem> problems;
        fuzz::require(fuzz::parsedOrRefused([&] { problems = clusterProblems(cluster); }),
                      "clusterProblems names problems, it does not throw");
        for (const ClusterProblem& problem : problems) {
            fuzz::require(!problem.key.empty(), "a problem names its key");
            fuzz::require(!problem.problem.empty(), "a problem says what is wrong");
        }
        std::string json;
        std::string again;
        const bool round_trip = fuzz::parsedOrRefused([&] {
            json = clusterToJson(cluster);
            again = clusterToJson(clusterFromJson(json));
        });
        if (!round_trip) fuzz::finding("the store's JSON of a cluster read does not read back: " + json);
        fuzz::require(again == json, "the store's JSON reads back to the same cluster");
    }
    return 0;
}
