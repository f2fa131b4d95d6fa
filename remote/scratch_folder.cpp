// A fresh folder under the system's temporary directory for one piece of work, removed with everything in it
// when the object goes.
#include "scratch_folder.h"

#include "transport.h"

#include <cstdlib>

namespace scalebench {

ScratchFolder::ScratchFolder(const std::string& prefix) {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (!mkdtemp(pattern.data()))
        throw TransportError("cannot create a temporary folder in " +
                             std::filesystem::temp_directory_path().string());
    path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

} // namespace scalebench
