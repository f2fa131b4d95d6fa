// Reads the keys of one TOML table for scalebench's files (plans, clusters): unknown keys refused with a near
// match, every problem named by file, line and key.
#pragma once

#include "plan_error.h"

#include <filesystem>
#include <string>
#include <toml++/toml.h>
#include <vector>

namespace scalebench {

std::string joinedWords(const std::vector<std::string>& words);
// The TOML document in text; a syntax error becomes a PlanError with its line.
toml::table parseTomlDocument(const std::string& text, const std::string& file_name);
// A whole file as text; a file that cannot be read becomes a PlanError naming it.
std::string readTomlFile(const std::filesystem::path& path, const std::string& what);

class TableReader {
  public:
    // Refuses any key not in known, suggesting the nearest known key.
    TableReader(const toml::table& table, std::string file, std::string where,
                std::vector<std::string> known);

    [[noreturn]] void fail(const toml::node& node, const std::string& key, const std::string& problem) const;
    [[noreturn]] void fail(int line, const std::string& key, const std::string& problem) const;
    int line() const { return static_cast<int>(table_.source().begin.line); }
    // "plan.toml:7: in [[run]] #1: ": where a warning about this node starts, as an error's message would.
    std::string where(const toml::node& node) const;

    std::string text(const std::string& key, std::string fallback, bool required = false) const;
    int integer(const std::string& key, int fallback, int minimum) const;
    double real(const std::string& key, double fallback) const;   // a positive number
    double number(const std::string& key, double fallback) const; // any finite number
    bool boolean(const std::string& key, bool fallback) const;
    std::vector<int> positiveIntegers(const std::string& key) const;
    std::vector<std::string> texts(const std::string& key) const; // a list of strings; empty when absent

  private:
    const toml::table& table_;
    std::string file_;
    std::string where_;
    std::vector<std::string> known_;
};

// The [[NAME]] tables of a document, each handed to read(table, file_name, 1-based index); none is an error.
template <typename Read>
auto readArrayOfTables(const toml::table& root, const std::string& file_name, const std::string& name,
                       TableReader& reader, Read read) {
    const toml::node* node = root.get(name);
    if (!node) reader.fail(1, name, "the file has no [[" + name + "]] table");
    const toml::array* array = node->as_array();
    if (!array || !array->is_array_of_tables())
        reader.fail(*node, name, "'" + name + "' must be written as [[" + name + "]] tables");
    std::vector<decltype(read(std::declval<const toml::table&>(), file_name, 1))> out;
    int index = 1;
    for (const auto& element : *array)
        out.push_back(read(*element.as_table(), file_name, index++));
    return out;
}

} // namespace scalebench
