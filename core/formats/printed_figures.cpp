// Numbers as benchmark tools print them in their text output.
#include "printed_figures.h"

#include <charconv>
#include <cmath>

namespace scalebench {

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(kBlanks);
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(kBlanks) - first + 1);
}

bool wholeNumber(std::string_view text, std::int64_t& value) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

bool number(std::string_view text, double& value) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

int decimals(std::string_view figure) {
    const auto point = figure.find('.');
    return point == std::string_view::npos ? 0 : static_cast<int>(figure.size() - point - 1);
}

std::string shown(std::string_view text) {
    return "'" + std::string(text.substr(0, 40)) + (text.size() > 40 ? "...'" : "'");
}

} // namespace scalebench
