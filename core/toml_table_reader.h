// Reads the keys of one TOML table for scalebench's files (plans, clusters): unknown keys refused with a near
// match, every problem named by file, line and key.
#pragma once

#include "run_plan.h"

#include <toml++/toml.h>

#include <string>
#include <vector>

namespace scalebench {

std::string joinedWords(const std::vector<std::string>& words);

class TableReader {
  public:
    // Refuses any key not in known, suggesting the nearest known key.
    TableReader(const toml::table& table, std::string file, std::string where, std::vector<std::string> known);

    [[noreturn]] void fail(const toml::node& node, const std::string& key, const std::string& problem) const;
    [[noreturn]] void fail(int line, const std::string& key, const std::string& problem) const;
    int line() const { return static_cast<int>(table_.source().begin.line); }

    std::string text(const std::string& key, std::string fallback, bool required = false) const;
    int integer(const std::string& key, int fallback, int minimum) const;
    double real(const std::string& key, double fallback) const;
    bool boolean(const std::string& key, bool fallback) const;
    std::vector<int> positiveIntegers(const std::string& key) const;
    std::vector<std::string> texts(const std::string& key) const; // a list of strings; empty when absent

  private:
    const toml::table& table_;
    std::string file_;
    std::string where_;
    std::vector<std::string> known_;
};

} // namespace scalebench
