// The test cluster's sshd as the SshTransport tests reach it (tests/remote/test_ssh_*.cpp): what cluster.env
// says about it, the settings that log in there, and a file a test made in its folder, removed at the end.
#pragma once

#include "ssh_transport.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <system_error>

namespace scalebench {

// What cluster.env says about the cluster the CTest fixture started (SSH_HOST, SSH_PORT, SSH_USER, SSH_KEY,
// ...).
struct TestCluster {
    std::filesystem::path dir;
    std::map<std::string, std::string> env;
    const std::string& operator[](const std::string& key) const { return env.at(key); }
    std::string hostPort() const { return env.at("SSH_HOST") + ":" + env.at("SSH_PORT"); }
};

// The cluster of SCALEBENCH_TEST_CLUSTER; SSH_AUTH_SOCK unset, so that only the keys a test names log in.
inline TestCluster testCluster() {
    const char* dir = std::getenv("SCALEBENCH_TEST_CLUSTER");
    REQUIRE(dir != nullptr);
    TestCluster cluster{dir, {}};
    std::ifstream in(cluster.dir / "cluster.env");
    REQUIRE(in);
    std::string line;
    while (std::getline(in, line)) {
        const auto equals = line.find('=');
        if (line.empty() || line[0] == '#' || equals == std::string::npos) continue;
        std::string value = line.substr(equals + 1);
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
            value = value.substr(1, value.size() - 2);
        cluster.env[line.substr(0, equals)] = value;
    }
    unsetenv("SSH_AUTH_SOCK"); // the tests choose their keys: no agent of whoever runs them
    return cluster;
}

// Settings that log in as the fixture's user with its key and known_hosts, and read no ssh config.
inline SshSettings settingsFor(const TestCluster& cluster) {
    SshSettings settings;
    settings.host = cluster["SSH_HOST"];
    settings.user = cluster["SSH_USER"];
    settings.port = std::stoi(cluster["SSH_PORT"]);
    settings.identity_files = {cluster["SSH_KEY"]};
    settings.known_hosts_file = cluster["SSH_KNOWN_HOSTS"];
    settings.config_file = ""; // not the ~/.ssh/config of whoever runs the tests
    return settings;
}

// Removes a file the test made in the sshd's folder.
struct RemovedAtEnd {
    std::filesystem::path path;
    ~RemovedAtEnd() {
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
    }
};

} // namespace scalebench
