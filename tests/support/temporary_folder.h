// A fresh folder under /tmp for one test, removed with everything in it when the test ends.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <unistd.h>

struct TemporaryFolder {
    std::filesystem::path path;
    TemporaryFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "scalebench-test-XXXXXX").string();
        if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary folder");
        path = pattern;
    }
    ~TemporaryFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};
