// Helpers of the tests that run SshTransport against the test cluster's sshds (tests/remote/test_ssh_*.cpp,
// tests/remote/test_jump_host.cpp, tests/control/test_connection_kills.cpp): files and key pairs made here,
// the error a transport throws, the fixture's processes (its recorded daemons and their per-connection
// children), its authorized_keys, and the ssh config of a head behind its bastion. Needs only the remote
// library, as scalebench_jump_host_tests links nothing more.
#pragma once

#include "file_text.h"
#include "local_transport.h"
#include "shell_words.h"
#include "ssh_transport.h"
#include "transport.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace scalebench {

// The folder of the test cluster the CTest fixture started (SCALEBENCH_TEST_CLUSTER).
inline std::filesystem::path testClusterDir() {
    const char* dir = std::getenv("SCALEBENCH_TEST_CLUSTER");
    REQUIRE(dir != nullptr);
    return dir;
}

inline void spit(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The message of the TransportError that action throws.
inline std::string errorOf(const std::function<void()>& action) {
    try {
        action();
    } catch (const TransportError& error) {
        return error.what();
    }
    FAIL("no TransportError");
    return "";
}

// Runs a command here; it must succeed.
inline std::string runHere(const std::string& command) {
    const CommandResult result = LocalTransport().run(command);
    INFO(command << "\n" << result.err);
    REQUIRE(result.exit_status == 0);
    return result.out;
}

// A fresh ed25519 key pair at folder/name (and name.pub).
inline std::filesystem::path newKey(const std::filesystem::path& folder, const std::string& name,
                                    const std::string& passphrase = "") {
    const std::filesystem::path key = folder / name;
    runHere(std::string("ssh-keygen -q -t ed25519 -C test -N ")
                .append(shellQuote(passphrase))
                .append(" -f ")
                .append(shellQuote(key.string())));
    return key;
}

// "type base64" of a public key file.
inline std::string keyFieldsOf(const std::filesystem::path& public_key) {
    std::istringstream words(fileText(public_key));
    std::string type, base64;
    words >> type >> base64;
    return type + " " + base64;
}

// --- processes of the fixture's sshds and of the tests
// ------------------------------------------------------------

// Fields of /proc/PID/stat from field 3 (state) on; empty when the process is gone.
inline std::vector<std::string> statFields(pid_t pid) {
    const std::string stat = fileText(std::filesystem::path("/proc") / std::to_string(pid) / "stat");
    const auto end_of_name = stat.rfind(") "); // the command name may hold spaces and parentheses
    if (end_of_name == std::string::npos) return {};
    std::istringstream rest(stat.substr(end_of_name + 2));
    std::vector<std::string> fields;
    for (std::string field; rest >> field;)
        fields.push_back(field);
    return fields;
}

inline bool alive(pid_t pid) { // as the fixture sees it: a zombie is gone
    const auto fields = statFields(pid);
    return !fields.empty() && fields[0] != "Z" && fields[0] != "X";
}

inline std::string startTime(pid_t pid) { // field 22, as the fixture records it
    const auto fields = statFields(pid);
    return fields.size() > 19 ? fields[19] : "";
}

// The live processes below root (children, their children, ...), root not included.
inline std::vector<pid_t> descendants(pid_t root) {
    std::vector<std::pair<pid_t, pid_t>> parents; // (pid, ppid)
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        const auto fields = statFields(std::stoi(name));
        if (fields.size() > 1 && alive(std::stoi(name)))
            parents.emplace_back(std::stoi(name), std::stoi(fields[1]));
    }
    std::vector<pid_t> found{root};
    for (std::size_t i = 0; i < found.size(); ++i)
        for (const auto& [pid, ppid] : parents)
            if (ppid == found[i] && std::find(found.begin(), found.end(), pid) == found.end())
                found.push_back(pid);
    found.erase(found.begin());
    return found;
}

// The PID of the fixture's daemon `name` ("sshd", "bastion-sshd"): its live line in DIR/pids, the process
// still the one recorded (same start time), as `cluster_fixture.sh stop` finds it.
inline pid_t fixturePid(const std::string& name) {
    std::ifstream pids(testClusterDir() / "pids");
    pid_t found = 0;
    std::string recorded, pid, start;
    while (pids >> recorded >> pid >> start)
        if (recorded == name && alive(std::stoi(pid)) && startTime(std::stoi(pid)) == start)
            found = std::stoi(pid);
    REQUIRE(found > 0);
    return found;
}

// Kills the processes (SIGKILL) and waits, 5 s at most, until none is alive; those that are children of this
// process are reaped.
inline void killAndWait(const std::vector<pid_t>& doomed) {
    for (pid_t pid : doomed)
        kill(pid, SIGKILL);
    const auto gone = [](pid_t pid) {
        waitpid(pid, nullptr, WNOHANG); // reaps it when it is a child of ours
        return !alive(pid);
    };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!std::all_of(doomed.begin(), doomed.end(), gone) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

// The fixture's authorized_keys (the head's and the bastion's) with one more key for the length of a test
// (replaced whole, never half-written).
class ExtraAuthorizedKey {
  public:
    explicit ExtraAuthorizedKey(const std::filesystem::path& public_key)
        : path_(testClusterDir() / "ssh" / "authorized_keys"), original_(fileText(path_)) {
        replace(original_ + fileText(public_key));
    }
    ~ExtraAuthorizedKey() { replace(original_); }
    ExtraAuthorizedKey(const ExtraAuthorizedKey&) = delete;
    ExtraAuthorizedKey& operator=(const ExtraAuthorizedKey&) = delete;

  private:
    void replace(const std::string& content) {
        const std::filesystem::path next = path_.string() + ".next";
        spit(next, content);
        std::filesystem::permissions(
            next, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                      std::filesystem::perms::group_read | std::filesystem::perms::others_read);
        std::filesystem::rename(next, path_);
    }
    std::filesystem::path path_;
    std::string original_;
};

// --- a head behind the fixture's bastion
// ------------------------------------------------------------------------------

// An ssh config as a user behind a bastion has it: `Host head` with `ProxyJump bastion`, and `Host bastion`.
// The bastion's lines can be changed or added to (its Port, its IdentityFile).
struct JumpConfig {
    std::string bastion_port;
    std::string bastion_key;
    std::string head_extra; // more lines for Host head
    bool proxy_command =
        false; // the head through a ProxyCommand that does what ProxyJump does, not ProxyJump

    std::string text(const std::map<std::string, std::string>& env,
                     const std::filesystem::path& folder) const {
        const std::string proxy =
            proxy_command
                ? "ProxyCommand ssh -F " + (folder / "config").string() + " -o BatchMode=yes" +
                      " -o UserKnownHostsFile=" + (folder / "known_hosts").string() + " -W [%h]:%p bastion"
                : "ProxyJump bastion";
        return "Host head\n  HostName " + env.at("SSH_HOST") + "\n  Port " + env.at("SSH_PORT") +
               "\n  User " + env.at("SSH_USER") + "\n  " + proxy + "\n" + head_extra +
               "\nHost bastion\n  HostName " + env.at("SSH_HOST") + "\n  Port " + bastion_port + "\n  User " +
               env.at("SSH_USER") + "\n  IdentityFile " + bastion_key + "\n  IdentitiesOnly yes\n";
    }
};

// Settings for `head` through the bastion, with the config and known_hosts written into folder.
inline SshSettings jumpSettings(const std::map<std::string, std::string>& env,
                                const std::filesystem::path& folder, JumpConfig config = {}) {
    if (config.bastion_port.empty()) config.bastion_port = env.at("BASTION_PORT");
    if (config.bastion_key.empty()) config.bastion_key = env.at("SSH_KEY");
    spit(folder / "config", config.text(env, folder));
    std::filesystem::copy_file(env.at("SSH_KNOWN_HOSTS"), folder / "known_hosts",
                               std::filesystem::copy_options::overwrite_existing);
    SshSettings settings;
    settings.host = "head";
    settings.identity_files = {env.at("SSH_KEY")};
    settings.known_hosts_file = (folder / "known_hosts").string();
    settings.config_file = (folder / "config").string();
    return settings;
}

// Kills the per-connection processes of a fixture sshd (not the listener): every session through it drops,
// and new ones are taken at once.
inline void dropSessionsOf(const std::string& daemon) {
    const std::vector<pid_t> sessions = descendants(fixturePid(daemon));
    REQUIRE_FALSE(sessions.empty());
    killAndWait(sessions);
}

} // namespace scalebench
