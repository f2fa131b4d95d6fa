// Fuzz target: known_hosts files as scalebench reads them when a host key changed (recordedHostKeysInText:
// each line through libssh's ssh_known_hosts_parse_line). Input: the host on the first line, then the file.
#include "fuzz_finding.h"
#include "known_hosts.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace scalebench;
    const std::string input(reinterpret_cast<const char*>(data), size);
    const auto newline = input.find('\n');
    if (newline == std::string::npos) return 0;
    const std::string host = input.substr(0, newline);
    const std::string text = input.substr(newline + 1);
    std::vector<std::string> keys;
    if (!fuzz::parsedOrRefused([&] { keys = recordedHostKeysInText(text, "known_hosts", host); })) return 0;
    for (const std::string& key : keys) {
        fuzz::require(key.find(" SHA256:") != std::string::npos, "a recorded key has its fingerprint");
        fuzz::require(key.find("(known_hosts:") != std::string::npos, "a recorded key names its line");
    }
    return 0;
}
