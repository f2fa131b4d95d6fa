// A fresh folder under the system's temporary directory for one piece of work, removed with everything in it
// when the object goes.
#pragma once

#include <filesystem>
#include <string>

namespace scalebench {

class ScratchFolder {
  public:
    // The folder is named PREFIX-XXXXXX; throws TransportError when it cannot be made.
    explicit ScratchFolder(const std::string& prefix);
    ~ScratchFolder();
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;

    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

} // namespace scalebench
