// Numbers as benchmark tools print them in their text output (OSU's tables, MaxText's step lines): whole
// numbers and finite decimals read exactly, their printed precision, blanks trimmed, a short quote for
// errors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace scalebench {

inline constexpr std::string_view kBlanks = " \t";

// The text without blanks at either end.
std::string_view trimmed(std::string_view text);
// The whole text is one integer in int64's range.
bool wholeNumber(std::string_view text, std::int64_t& value);
// The whole text is one finite number.
bool number(std::string_view text, double& value);
// Digits after the decimal point ("0.41" -> 2): a tool printing one precision shows a cut figure by fewer.
int decimals(std::string_view figure);
// The first 40 bytes, quoted, for an error that names what it could not read.
std::string shown(std::string_view text);

} // namespace scalebench
