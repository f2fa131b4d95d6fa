// A Transport that connects to nothing: what renders scripts and packs sources for a cluster without reaching
// it (a dry run, the plan builder's preview). Anything that would reach the cluster throws std::logic_error.
#pragma once

#include "transport.h"

#include <stdexcept>
#include <string>

namespace scalebench {

class NoConnection final : public Transport {
  public:
    explicit NoConnection(std::string where) : where_(std::move(where)) {}
    CommandResult run(const std::string& command) override { refuse(command); }
    void upload(const std::filesystem::path& local, const std::string&) override {
        refuse("upload " + local.string());
    }
    void download(const std::string& remote, const std::filesystem::path&) override {
        refuse("download " + remote);
    }
    std::optional<std::string> readFrom(const std::string& path, std::int64_t, std::size_t) override {
        refuse("read " + path);
    }
    std::string describe() const override { return where_; }

  private:
    [[noreturn]] void refuse(const std::string& what) const {
        throw std::logic_error("nothing connects to " + where_ + " here (it was about to: " + what + ")");
    }
    std::string where_;
};

} // namespace scalebench
