// The whole content of a file as a string (empty when it cannot be read), for tests that check what was
// written.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

inline std::string fileText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}
