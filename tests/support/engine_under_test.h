// The scalebench-engine that the tests launch on this machine: the one built beside them, or the one
// SCALEBENCH_TEST_ENGINE names (make test runs the tests labelled "engine" again with the cuda preset's
// engine).
#pragma once

#include <cstdlib>
#include <string>

namespace scalebench {

inline std::string engineUnderTest() {
    const char* chosen = std::getenv("SCALEBENCH_TEST_ENGINE");
    return chosen != nullptr && *chosen != '\0' ? chosen : SCALEBENCH_ENGINE_PATH;
}

} // namespace scalebench
