// Values of the engine option table's kinds for the tests that drive every row: one the row accepts that is
// not a given value (the contract test, the plan writer's round trip).
#pragma once

#include "engine_option_table.h"

#include <string>

namespace scalebench::testing {

// A value of the row's kind that the row accepts and that is not `value`: another accepted word (or `value`
// with
// "-other" where any text goes), 3 more, 2.5 more (0.375 within a LEAST..MOST range), the other switch, or
// every item a list accepts.
template <engine_cli::Kind K>
engine_cli::Value<K> otherThan(const engine_cli::Value<K>& value, const std::string& accepts) {
    using engine_cli::Kind;
    if constexpr (K == Kind::Text) {
        if (accepts.empty()) return value + "-other";
        for (const auto& word : engine_cli::splitWords(accepts, '|'))
            if (word != value) return word;
        return value;
    } else if constexpr (K == Kind::Int) {
        return value + 3;
    } else if constexpr (K == Kind::Real) {
        return accepts.find("..") != std::string::npos ? value + 0.375 : value + 2.5;
    } else if constexpr (K == Kind::Switch) {
        return !value;
    } else {
        return engine_cli::splitWords(accepts, '|');
    }
}

} // namespace scalebench::testing
