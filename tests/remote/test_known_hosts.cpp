// Specification of reading known_hosts text (recordedHostKeysInText): which lines record a host's keys, as
// scalebench names them when a host key changed. Keys and hashes made with ssh-keygen (ssh-keygen -H for the
// hashed line).
#include "known_hosts.h"

#include <catch2/catch.hpp>

using namespace scalebench;

namespace {
const std::string kEd25519 =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGhOBv8rAPsnt3Fuc01bD/6PQEFYr3agh+i90iP+yNEL";
const std::string kEd25519Print = "ssh-ed25519 SHA256:Ng59RZQAWe+eNM0nFr2aNiIQ5/nTArE7N27kfV9Ns4k";
const std::string kEcdsa =
    "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBB6rdowZxpRpQIp2qNg"
    "ak4RnQirBwCOhYkPqsfn3h7I7h09L+buQZYpBYDILq7lpk2paAlLvaelkvJ6nWKEntjw=";
const std::string kEcdsaPrint = "ecdsa-sha2-nistp256 SHA256:ZT8rHKctuv8C/8QZ3y27d76/zMGCLdzNdn7UEBGMtfU";
} // namespace

TEST_CASE("known_hosts text gives a host's keys with their lines, plain, hashed or in a list",
          "[remote][ssh]") {
    const std::string text = "# keys of the cluster\n"
                             "\n"
                             "|1|EmtnvzKE1EYHYUbgrJ7oblsV5tk=|/wqBx8a4DYmK6LgJWqUFYaaaXYw= " +
                             kEd25519 + "\n" + "other.host " + kEd25519 + "\n" + "head.cluster,10.0.0.5 " +
                             kEcdsa + "\n" + "[head.cluster]:2222 " + kEd25519 + "\n";
    CHECK(recordedHostKeysInText(text, "kh", "head.cluster") ==
          std::vector<std::string>{kEd25519Print + " (kh:3)", kEcdsaPrint + " (kh:5)"});
    CHECK(recordedHostKeysInText(text, "kh", "[head.cluster]:2222") ==
          std::vector<std::string>{kEd25519Print + " (kh:6)"});
    CHECK(recordedHostKeysInText(text, "kh", "unknown.host").empty());
}

// Indented lines are read as libssh's own check (ssh_session_is_known_server) reads them: it passes the whole
// line to the same parser, which skips leading spaces but not a tab, so the keys listed are the keys
// compared.
TEST_CASE("known_hosts markers and non-entries record no key, indented lines count as libssh counts them",
          "[remote][ssh]") {
    const std::string text = "@cert-authority *.cluster " + kEd25519 + "\n" + "@revoked head.cluster " +
                             kEcdsa + "\n" + "head.cluster not-a-key-type AAAA\n" + "head.cluster\n" +
                             "head.cluster ssh-ed25519 !!!notbase64\n" + "  head.cluster " + kEd25519 + "\n" +
                             "\thead.cluster " + kEcdsa + "\n" + "head.cluster " + kEd25519 + "\n";
    CHECK(recordedHostKeysInText(text, "kh", "head.cluster") ==
          std::vector<std::string>{kEd25519Print + " (kh:6)", kEd25519Print + " (kh:8)"});
}
