// The format definitions scalebench ships, as core/CMakeLists.txt embeds them from resources/formats/.
#include "shipped_formats.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace scalebench {
namespace {

// name, TOML text: one entry a file of resources/formats/, generated at configure time.
const std::vector<std::pair<std::string_view, std::string_view>> kShippedFormats = {
#include "shipped_formats.inc"
};

} // namespace

std::vector<std::string> shippedFormatNames() {
    std::vector<std::string> names;
    for (const auto& [name, text] : kShippedFormats)
        names.emplace_back(name);
    std::sort(names.begin(), names.end());
    return names;
}

std::optional<std::string> shippedFormatText(const std::string& name) {
    for (const auto& [shipped, text] : kShippedFormats)
        if (shipped == name) return std::string(text);
    return std::nullopt;
}

} // namespace scalebench
