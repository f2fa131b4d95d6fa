// Transport: how the console reaches the machine where runs happen (this one, or a cluster's head node).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace scalebench {

class TransportError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct CommandResult {
    int exit_status = 0; // the command's exit status; 128 + N when signal N ended it
    std::string out;
    std::string err;
};

class Transport {
  public:
    virtual ~Transport() = default;

    // Runs a shell command to completion.
    virtual CommandResult run(const std::string& command) = 0;
    virtual void upload(const std::filesystem::path& local, const std::string& remote) = 0;
    virtual void download(const std::string& remote, const std::filesystem::path& local) = 0;
    // Up to max_bytes of a (growing) file from byte offset on; std::nullopt while the file does not exist.
    virtual std::optional<std::string> readFrom(const std::string& path, std::int64_t offset,
                                                std::size_t max_bytes) = 0;
    // Where commands run, for messages: "this machine", "user@head:22".
    virtual std::string describe() const = 0;
};

// Runs `step`, and again when the connection drops under it (a TransportError: the transport reconnects at
// the next call), `tries` times in all. Only for steps that do the same done twice as once: mkdir -p, an
// upload, a command that records its own first run (SlurmScheduler's submission).
template <typename Step> auto repeatedOnDrop(Step step, int tries = 4) {
    for (int tried = 1;; ++tried) {
        try {
            return step();
        } catch (const TransportError&) {
            if (tried >= tries) throw;
        }
    }
}

} // namespace scalebench
