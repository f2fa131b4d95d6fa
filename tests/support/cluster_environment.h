// The test cluster that CTest's fixture started (tests/cluster/cluster_fixture.sh): the KEY=value lines of
// its cluster.env, in the folder SCALEBENCH_TEST_CLUSTER names.
#pragma once

#include "file_text.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

namespace scalebench {

inline std::map<std::string, std::string> clusterEnvironment() {
    const char* dir = std::getenv("SCALEBENCH_TEST_CLUSTER");
    REQUIRE(dir != nullptr);
    std::map<std::string, std::string> env;
    std::istringstream lines(fileText(std::filesystem::path(dir) / "cluster.env"));
    for (std::string line; std::getline(lines, line);) {
        const auto eq = line.find('=');
        if (eq == std::string::npos || line[0] == '#') continue;
        std::string value = line.substr(eq + 1);
        if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"'))
            value = value.substr(1, value.size() - 2);
        env[line.substr(0, eq)] = value;
    }
    REQUIRE(env.contains("SSH_PORT"));
    return env;
}

// A [[cluster]] table named `name` for the test cluster: its sshd, its user's key and known_hosts, the
// engine's root the fixture built into, `torch_python` (this checkout's .venv/bin/python); `extra` lines are
// appended.
inline std::string testClusterToml(const std::map<std::string, std::string>& env, const std::string& name,
                                   const std::string& torch_python, const std::string& extra = "") {
    return "[[cluster]]\nname = \"" + name + "\"\nhost = \"127.0.0.1\"\nport = " + env.at("SSH_PORT") +
           "\nuser = \"" + env.at("SSH_USER") + "\"\nidentity_files = [\"" + env.at("SSH_KEY") +
           "\"]\nknown_hosts = \"" + env.at("SSH_KNOWN_HOSTS") + "\"\nremote_root = \"" +
           env.at("SCALEBENCH_ROOT") + "\"\ntorch_python = \"" + torch_python +
           "\"\ntasks_per_node = 1\nexclusive = false\npoll_seconds = 1\n" + extra;
}

} // namespace scalebench
