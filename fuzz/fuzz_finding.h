// What a fuzz target counts as a finding: a broken invariant, or an exception that is not a parser's refusal.
#pragma once

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <typeinfo>

namespace scalebench::fuzz {

// Ends the run as a crash, after saying what broke; libFuzzer keeps the input that did it.
[[noreturn]] inline void finding(const std::string& what) {
    std::fprintf(stderr, "[fuzz] finding: %s\n", what.c_str());
    std::fflush(stderr);
    __builtin_trap();
}

inline void require(bool holds, const char* invariant) {
    if (!holds) finding(std::string("broken invariant: ") + invariant);
}

// Runs `parse` on one input. A std::runtime_error (PlanError, TransportError, ...) with a message is the
// parser's refusal of bad input: `parse` did not finish, and false is returned. Anything else thrown is a
// finding: an empty message, or a std::exception that says nothing about the input (std::out_of_range "stoi",
// std::bad_variant_access, nlohmann's type_error); what is not a std::exception escapes to libFuzzer, which
// reports it as a deadly signal.
template <typename Parse> bool parsedOrRefused(Parse&& parse) {
    try {
        parse();
        return true;
    } catch (const std::runtime_error& e) {
        const char* message = e.what();
        if (message == nullptr || *message == '\0')
            finding(std::string("a refusal without a message: ") + typeid(e).name());
        return false;
    } catch (const std::exception& e) {
        finding(std::string("not a refusal: ") + typeid(e).name() + ": " + e.what());
    }
}

} // namespace scalebench::fuzz
