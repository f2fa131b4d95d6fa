// LocalTransport: runs commands and reads files on this machine.
#pragma once

#include "transport.h"

namespace scalebench {

class LocalTransport final : public Transport {
  public:
    CommandResult run(const std::string& command) override;
    void upload(const std::filesystem::path& local, const std::string& remote) override;
    void download(const std::string& remote, const std::filesystem::path& local) override;
    std::optional<std::string> readFrom(const std::string& path, std::int64_t offset,
                                        std::size_t max_bytes) override;
    std::string describe() const override { return "this machine"; }
};

} // namespace scalebench
