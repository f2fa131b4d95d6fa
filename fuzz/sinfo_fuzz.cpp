// Fuzz target: sinfo --Node's output (parseSinfoNodes): a node, its state and why it is down.
#include "fuzz_finding.h"
#include "slurm_output.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace scalebench;
    const std::string output(reinterpret_cast<const char*>(data), size);
    std::vector<SlurmNodeInfo> nodes;
    if (!fuzz::parsedOrRefused([&] { nodes = parseSinfoNodes(output); })) return 0;
    for (const SlurmNodeInfo& node : nodes) {
        fuzz::require(node.name.find('\n') == std::string::npos, "a node is one line");
        isFailedNodeState(node.state);
    }
    return 0;
}
