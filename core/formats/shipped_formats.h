// The format definitions scalebench ships (resources/formats/*.toml), compiled into the binary at build time
// so that an installed console needs no resource path.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// The shipped definitions' names (each file's name without .toml: "megatron-lm", "nemo", "torchtitan"),
// sorted.
std::vector<std::string> shippedFormatNames();
// The TOML text of the shipped definition `name`, for readPatternFormat; nullopt where none is shipped by
// that name.
std::optional<std::string> shippedFormatText(const std::string& name);

} // namespace scalebench
