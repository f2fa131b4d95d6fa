// Reads the keys of one TOML table for scalebench's files (plans, clusters): unknown keys refused with a near
// match, every problem named by file, line and key.
#include "toml_table_reader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace scalebench {
namespace {

std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string closest(const std::string& key, const std::vector<std::string>& known) {
    std::string best;
    std::size_t best_distance = 3; // suggest only near misses
    for (const auto& k : known) {
        std::size_t d = editDistance(key, k);
        if (d < best_distance) best = k, best_distance = d;
    }
    return best;
}

} // namespace

std::string joinedWords(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) {
        if (!out.empty()) out += ", ";
        out += w;
    }
    return out;
}

toml::table parseTomlDocument(const std::string& text, const std::string& file_name) {
    try {
        return toml::parse(text, file_name);
    } catch (const toml::parse_error& e) {
        throw PlanError(file_name, static_cast<int>(e.source().begin.line), "",
                        "not valid TOML: " + std::string(e.description()));
    }
}

std::string readTomlFile(const std::filesystem::path& path, const std::string& what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw PlanError(path.string(), 0, "", "cannot read the " + what);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

TableReader::TableReader(const toml::table& table, std::string file, std::string where,
                         std::vector<std::string> known)
    : table_(table), file_(std::move(file)), where_(std::move(where)), known_(std::move(known)) {
    for (auto&& [key, node] : table_) {
        const std::string name(key.str());
        if (std::find(known_.begin(), known_.end(), name) != known_.end()) continue;
        const std::string hint = closest(name, known_);
        fail(node, name,
             "unknown key '" + name + "'" +
                 (hint.empty() ? " (known keys: " + joinedWords(known_) + ")"
                               : " (did you mean '" + hint + "'?)"));
    }
}

void TableReader::fail(const toml::node& node, const std::string& key, const std::string& problem) const {
    fail(static_cast<int>(node.source().begin.line), key, problem);
}

std::string TableReader::where(const toml::node& node) const {
    return file_ + ":" + std::to_string(node.source().begin.line) + ": " +
           (where_.empty() ? "" : "in " + where_ + ": ");
}

void TableReader::fail(int line, const std::string& key, const std::string& problem) const {
    throw PlanError(file_, line, key, where_.empty() ? problem : "in " + where_ + ": " + problem);
}

std::string TableReader::text(const std::string& key, std::string fallback, bool required) const {
    const toml::node* node = table_.get(key);
    if (!node) {
        if (required) fail(line(), key, "missing key '" + key + "'");
        return fallback;
    }
    if (auto v = node->value<std::string>()) return *v;
    fail(*node, key, "'" + key + "' must be a string");
}

int TableReader::integer(const std::string& key, int fallback, int minimum) const {
    const toml::node* node = table_.get(key);
    if (!node) return fallback;
    auto v = node->as_integer();
    if (!v) fail(*node, key, "'" + key + "' must be an integer");
    if (v->get() < minimum)
        fail(*node, key,
             "'" + key + "' must be at least " + std::to_string(minimum) + ", not " +
                 std::to_string(v->get()));
    if (v->get() > std::numeric_limits<int>::max())
        fail(*node, key, "'" + key + "' is " + std::to_string(v->get()) + ": far too large");
    return static_cast<int>(v->get());
}

double TableReader::real(const std::string& key, double fallback) const {
    const toml::node* node = table_.get(key);
    if (!node) return fallback;
    auto v = node->value<double>(); // integers convert too
    if (!v || *v <= 0) fail(*node, key, "'" + key + "' must be a positive number");
    // TOML's nan and inf: no setting means either (nan passed the test above, and never equals itself).
    if (!std::isfinite(*v))
        fail(*node, key, "'" + key + "' must be a positive number, not " + (std::isnan(*v) ? "nan" : "inf"));
    return *v;
}

double TableReader::number(const std::string& key, double fallback) const {
    const toml::node* node = table_.get(key);
    if (!node) return fallback;
    auto v = node->value<double>();
    if (!v || !std::isfinite(*v)) fail(*node, key, "'" + key + "' must be a finite number");
    return *v;
}

bool TableReader::boolean(const std::string& key, bool fallback) const {
    const toml::node* node = table_.get(key);
    if (!node) return fallback;
    auto v = node->as_boolean();
    if (!v) fail(*node, key, "'" + key + "' must be true or false");
    return v->get();
}

std::vector<int> TableReader::positiveIntegers(const std::string& key) const {
    const toml::node* node = table_.get(key);
    if (!node) fail(line(), key, "missing key '" + key + "'");
    std::vector<int> out;
    if (auto v = node->as_integer()) {
        if (v->get() > std::numeric_limits<int>::max())
            fail(*node, key, "'" + key + "' is " + std::to_string(v->get()) + ": far too large");
        out.push_back(static_cast<int>(v->get()));
    } else if (auto array = node->as_array()) {
        for (const auto& element : *array) {
            auto i = element.as_integer();
            if (!i) fail(element, key, "'" + key + "' must hold integers");
            if (i->get() > std::numeric_limits<int>::max()) // would wrap to another count
                fail(element, key, "'" + key + "' holds " + std::to_string(i->get()) + ": far too large");
            out.push_back(static_cast<int>(i->get()));
        }
    } else {
        fail(*node, key, "'" + key + "' must be an integer or a list of integers");
    }
    if (out.empty()) fail(*node, key, "'" + key + "' is empty");
    for (int n : out)
        if (n < 1) fail(*node, key, "'" + key + "' must be positive, got " + std::to_string(n));
    return out;
}

std::vector<std::string> TableReader::texts(const std::string& key) const {
    const toml::node* node = table_.get(key);
    std::vector<std::string> out;
    if (!node) return out;
    auto array = node->as_array();
    if (!array) fail(*node, key, "'" + key + "' must be a list of strings");
    for (const auto& element : *array) {
        auto v = element.value<std::string>();
        if (!v) fail(element, key, "'" + key + "' must hold strings");
        out.push_back(*v);
    }
    return out;
}

} // namespace scalebench
