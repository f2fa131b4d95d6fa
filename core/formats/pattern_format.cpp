// A user-defined output format read from its TOML definition: named-group patterns as std::regex, units as
// factors.
#include "pattern_format.h"

#include "toml_table_reader.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace scalebench {
namespace {

// A pattern longer than this is not a line's layout but a mistake (or a fuzzer's): refused.
constexpr std::size_t kMaxPatternBytes = 1000;
// libstdc++ compiles a{n,m} into m copies of a: a pattern whose repeats multiply past this many states
// (a{100} nested in (...){100}) is refused before std::regex builds it.
constexpr double kMaxCompiledStates = 5000;

// libstdc++'s default executor backtracks, recursively: ((a*)*)*c takes exponential time on a line of a's,
// and a long line deep recursion. Its extension __polynomial matches with the Thompson NFA instead (time
// linear in the line and the states, no recursion per character) and refuses back-references, which only
// backtracking can match.
#ifdef __GLIBCXX__
constexpr auto kRegexOptions =
    std::regex::ECMAScript | std::regex::optimize | std::regex_constants::__polynomial;
#else
constexpr auto kRegexOptions = std::regex::ECMAScript | std::regex::optimize;
#endif

const std::vector<std::string> kFieldNames = {"step",  "steps",        "loss",    "step_time", "throughput",
                                              "batch", "tokens_per_s", "tflops",  "mfu",       "elapsed",
                                              "eval",  "eval_loss",    "workload"};

bool startsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

std::string column(std::size_t at) {
    return "at column " + std::to_string(at + 1);
}

// The end of the character class that starts at `open` ('['): the index of its closing ']'; npos where it has
// none. Escapes and POSIX classes ([:digit:]) inside it are skipped.
std::size_t classEnd(std::string_view p, std::size_t open) {
    std::size_t j = open + 1;
    if (j < p.size() && p[j] == '^') ++j;
    while (j < p.size() && p[j] != ']') {
        if (p[j] == '\\') {
            j += 2;
        } else if (p[j] == '[' && j + 1 < p.size() &&
                   (p[j + 1] == ':' || p[j + 1] == '.' || p[j + 1] == '=')) {
            const auto close = p.find(std::string{p[j + 1], ']'}, j + 2);
            if (close == std::string_view::npos) return std::string_view::npos;
            j = close + 2;
        } else {
            ++j;
        }
    }
    return j < p.size() ? j : std::string_view::npos;
}

bool validGroupName(std::string_view name) {
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
    return std::all_of(name.begin(), name.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Roughly the states libstdc++ compiles an ECMAScript pattern to: one an atom, a {n,m} repeat max(n, m)
// copies of what it repeats. Stops counting once past kMaxCompiledStates.
double compiledStates(std::string_view p) {
    std::vector<double> groups{0}; // the states of each open group, the whole pattern first
    double last = 0;               // the states of the atom a quantifier would repeat
    for (std::size_t i = 0; i < p.size() && groups.front() <= kMaxCompiledStates;) {
        const char c = p[i];
        if (c == '\\') {
            last = 1, groups.back() += 1, i += 2;
        } else if (c == '[') {
            const std::size_t end = classEnd(p, i);
            last = 1, groups.back() += 1, i = end == std::string_view::npos ? p.size() : end + 1;
        } else if (c == '(') {
            groups.push_back(1);
            i += startsWith(p.substr(i), "(?") ? 3 : 1;
        } else if (c == ')') {
            last = groups.size() > 1 ? groups.back() : 1;
            if (groups.size() > 1) groups.pop_back();
            groups.back() += last, ++i;
        } else if (c == '{') {
            std::size_t j = i + 1;
            double most = 0;
            double bound = 0;
            while (j < p.size() && (std::isdigit(static_cast<unsigned char>(p[j])) || p[j] == ',')) {
                if (p[j] == ',') {
                    bound = 0;
                } else {
                    bound = std::min(bound * 10 + (p[j] - '0'), 1e9);
                    most = std::max(most, bound);
                }
                ++j;
            }
            if (j < p.size() && p[j] == '}' && j > i + 1) {
                groups.back() += last * std::max(most - 1, 0.0);
                last *= std::max(most, 1.0);
                i = j + 1;
            } else {
                last = 1, groups.back() += 1, ++i;
            }
        } else if (c == '*' || c == '+' || c == '?' || c == '|') {
            ++i;
        } else {
            last = 1, groups.back() += 1, ++i;
        }
    }
    return groups.front();
}

std::optional<PatternField> fieldNamed(const std::string& name) {
    const auto at = std::find(kFieldNames.begin(), kFieldNames.end(), name);
    if (at == kFieldNames.end()) return std::nullopt;
    return static_cast<PatternField>(at - kFieldNames.begin());
}

// The pattern's named groups as the fields they give, each field once; `node` is the pattern's, for messages.
void readGroups(const TableReader& r, const toml::node& node,
                const std::vector<std::pair<std::string, int>>& names, PatternLine& line) {
    for (const auto& [name, number] : names) {
        const auto field = fieldNamed(name);
        if (!field)
            r.fail(node, "pattern",
                   "'pattern' names the group (?<" + name +
                       ">...): no such field (fields: " + joinedWords(kFieldNames) + ")");
        if (line.group(*field))
            r.fail(node, "pattern", "'pattern' names the group (?<" + name + ">...) twice");
        line.groups.emplace_back(*field, number);
    }
}

// The line's pattern as std::regex's ECMAScript, its named groups as fields, and the regex compiled: one
// that names something else or would compile too large is refused.
void compilePattern(const TableReader& r, const toml::node& node, PatternLine& line) {
    std::vector<std::pair<std::string, int>> names;
    try {
        line.ecmascript = ecmascriptPattern(line.pattern, names);
    } catch (const std::invalid_argument& e) {
        r.fail(node, "pattern", "'pattern' " + std::string(e.what()));
    }
    readGroups(r, node, names, line);
    if (compiledStates(line.ecmascript) > kMaxCompiledStates)
        r.fail(node, "pattern",
               "'pattern' repeats so much ({n,m} inside {n,m}) that it would compile to more than " +
                   std::to_string(static_cast<int>(kMaxCompiledStates)) + " states");
    try {
        line.regex = std::regex(line.ecmascript, kRegexOptions);
    } catch (const std::regex_error& e) {
        r.fail(node, "pattern",
               "'pattern' is not a regular expression std::regex reads: " + std::string(e.what()));
    }
}

// What a match of the line gives, by its groups: a header, a step or an evaluation; groups that do not go
// together are refused.
void readKind(const TableReader& r, const toml::node& node, PatternLine& line) {
    const bool has_step = line.group(PatternField::Step).has_value();
    const bool has_eval = line.group(PatternField::Eval) || line.group(PatternField::EvalLoss);
    const bool has_step_figures = std::any_of(line.groups.begin(), line.groups.end(), [](const auto& group) {
        return group.first != PatternField::Step && group.first != PatternField::Steps &&
               group.first != PatternField::Workload && group.first != PatternField::Eval &&
               group.first != PatternField::EvalLoss;
    });
    if (line.groups.empty())
        r.fail(node, "pattern",
               "'pattern' names no field: give it named groups, e.g. (?<step>\\d+) (fields: " +
                   joinedWords(kFieldNames) + ")");
    if (!has_step) {
        if (has_eval || has_step_figures)
            r.fail(
                node, "pattern",
                "'pattern' has no (?<step>...) group: only a step or evaluation line gives figures (a line "
                "without a step may give only workload and steps)");
        line.kind = PatternLineKind::Header;
    } else if (has_eval) {
        if (has_step_figures)
            r.fail(node, "pattern",
                   "'pattern' gives both a step's figures and an evaluation's (eval, eval_loss): write two "
                   "[[line]] "
                   "tables");
        line.kind = PatternLineKind::Eval;
    }

    if (line.group(PatternField::Batch) && !line.group(PatternField::StepTime) &&
        !line.group(PatternField::Throughput))
        r.fail(node, "pattern",
               "'pattern' has (?<batch>...) but no (?<step_time>...): samples/s is the batch over the step "
               "time");
}

// What (?<eval>...) measures: required with that group, refused without it; "loss" where neither.
void readEvalMetric(const TableReader& r, const toml::table& table, const toml::node& pattern,
                    PatternLine& line) {
    if (const toml::node* metric = table.get("eval_metric")) {
        line.eval_metric = r.text("eval_metric", "");
        if (!line.group(PatternField::Eval))
            r.fail(*metric, "eval_metric",
                   "'eval_metric' names what (?<eval>...) measures, and the pattern has none");
        if (line.eval_metric.empty()) r.fail(*metric, "eval_metric", "'eval_metric' is empty");
    } else if (line.group(PatternField::Eval)) {
        r.fail(pattern, "eval_metric",
               "missing key 'eval_metric': say what (?<eval>...) measures (perplexity, accuracy, bleu, ...)");
    } else {
        line.eval_metric = "loss";
    }
}

PatternLine readLine(const toml::table& table, const std::string& source, int index) {
    const TableReader r(table, source, "[[line]] #" + std::to_string(index),
                        {"pattern", "marker", "eval_metric"});
    PatternLine line;
    line.definition_line = r.line();
    line.pattern = r.text("pattern", "", true);
    const toml::node& node = *table.get("pattern");
    if (line.pattern.empty()) r.fail(node, "pattern", "'pattern' is empty");
    if (line.pattern.size() > kMaxPatternBytes)
        r.fail(node, "pattern",
               "'pattern' is " + std::to_string(line.pattern.size()) + " bytes: more than " +
                   std::to_string(kMaxPatternBytes) + " is not one line's layout");
    compilePattern(r, node, line);
    readKind(r, node, line);
    line.marker = r.text("marker", "");
    readEvalMetric(r, table, node, line);
    return line;
}

// One [units] key: its value, and the node for a message.
struct UnitText {
    std::string text;
    const toml::node* node = nullptr;
};

UnitText unitText(const TableReader& r, const toml::table& table, const std::string& key) {
    return {r.text(key, ""), table.get(key)};
}

double secondsPer(const TableReader& r, const UnitText& unit, const std::string& key) {
    if (!unit.node) return 1;
    static const std::vector<std::pair<std::string, double>> kUnits = {
        {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"min", 60}, {"h", 3600}};
    for (const auto& [name, seconds] : kUnits)
        if (unit.text == name) return seconds;
    r.fail(*unit.node, key, "'" + key + "' is in s, ms, us, min or h, not '" + unit.text + "'");
}

// Whether a rate is per device: "<what>" (the run's) or "<what>/device" (also "/GPU").
bool perDevice(const TableReader& r, const UnitText& unit, const std::string& key, const std::string& what) {
    if (!unit.node || unit.text == what) return false;
    if (unit.text == what + "/device" || unit.text == what + "/GPU" || unit.text == what + "/gpu")
        return true;
    r.fail(*unit.node, key,
           "'" + key + "' is in " + what + " or " + what + "/device, not '" + unit.text + "'");
}

PatternUnits readUnits(const toml::table& table, const std::string& source, const PatternFormat& format) {
    const std::vector<std::string> keys = {"step_time",    "elapsed", "throughput",
                                           "tokens_per_s", "tflops",  "mfu"};
    const TableReader r(table, source, "[units]", keys);
    for (const std::string& key : keys) {
        const toml::node* node = table.get(key);
        if (!node) continue;
        const PatternField field = *fieldNamed(key);
        const bool captured =
            std::any_of(format.lines.begin(), format.lines.end(),
                        [&](const PatternLine& line) { return line.group(field).has_value(); });
        if (!captured)
            r.fail(*node, key, "[units] gives '" + key + "', but no pattern has a (?<" + key + ">...) group");
    }
    PatternUnits units;
    units.step_time_s = secondsPer(r, unitText(r, table, "step_time"), "step_time");
    units.elapsed_s = secondsPer(r, unitText(r, table, "elapsed"), "elapsed");
    units.throughput_per_device = perDevice(r, unitText(r, table, "throughput"), "throughput", "samples/s");
    units.tokens_per_device = perDevice(r, unitText(r, table, "tokens_per_s"), "tokens_per_s", "tokens/s");
    units.tflops_per_device = perDevice(r, unitText(r, table, "tflops"), "tflops", "TFLOP/s");
    if (const UnitText mfu = unitText(r, table, "mfu"); mfu.node) {
        if (mfu.text == "fraction") {
            units.mfu_fraction = 1;
        } else if (mfu.text != "%") {
            r.fail(*mfu.node, "mfu", "'mfu' is in % or fraction, not '" + mfu.text + "'");
        }
    }
    return units;
}

} // namespace

const std::vector<std::string>& patternFieldNames() {
    return kFieldNames;
}

const std::string& patternFieldName(PatternField field) {
    return kFieldNames.at(static_cast<std::size_t>(field));
}

std::optional<int> PatternLine::group(PatternField field) const {
    for (const auto& [f, number] : groups)
        if (f == field) return number;
    return std::nullopt;
}

std::string ecmascriptPattern(std::string_view p, std::vector<std::pair<std::string, int>>& names) {
    std::string out;
    int groups = 0;
    int open = 0;
    for (std::size_t i = 0; i < p.size();) {
        const char c = p[i];
        if (c == '\\') {
            if (i + 1 >= p.size()) throw std::invalid_argument("ends with a lone backslash");
            out += p.substr(i, 2);
            i += 2;
        } else if (c == '[') {
            const std::size_t end = classEnd(p, i);
            if (end == std::string_view::npos)
                throw std::invalid_argument("has a character class '[' " + column(i) +
                                            " that is never closed");
            out += p.substr(i, end - i + 1);
            i = end + 1;
        } else if (c == '(') {
            ++open;
            const std::string_view rest = p.substr(i + 1);
            if (!startsWith(rest, "?")) {
                ++groups;
                out += '(';
                ++i;
                continue;
            }
            if (startsWith(rest, "?:") || startsWith(rest, "?=") || startsWith(rest, "?!")) {
                out += p.substr(i, 3);
                i += 3;
                continue;
            }
            if (startsWith(rest, "?<=") || startsWith(rest, "?<!"))
                throw std::invalid_argument("has a lookbehind (" + std::string(rest.substr(0, 3)) + " " +
                                            column(i) + ": std::regex's ECMAScript has none");
            std::size_t name_at = 0;
            if (startsWith(rest, "?<")) {
                name_at = i + 3;
            } else if (startsWith(rest, "?P<")) {
                name_at = i + 4;
            } else {
                throw std::invalid_argument("has '(" + std::string(rest.substr(0, 2)) + "' " + column(i) +
                                            ": ECMAScript knows (?:...), (?=...), (?!...) and named groups "
                                            "(?<name>...), not inline flags or "
                                            "(?P=name)");
            }
            const std::size_t close = p.find('>', name_at);
            if (close == std::string_view::npos)
                throw std::invalid_argument("has a group name " + column(i) + " without its closing '>'");
            const std::string name(p.substr(name_at, close - name_at));
            if (!validGroupName(name))
                throw std::invalid_argument("has a group name '" + name + "' " + column(i) +
                                            ": a name is letters, digits and _");
            names.emplace_back(name, ++groups);
            out += '(';
            i = close + 1;
        } else {
            if (c == ')') {
                if (open == 0)
                    throw std::invalid_argument("has a ')' " + column(i) + " that closes no group");
                --open;
            }
            out += c;
            ++i;
        }
    }
    if (open > 0)
        throw std::invalid_argument("has " + std::to_string(open) + " group(s) never closed with ')'");
    return out;
}

PatternFormat readPatternFormat(std::string_view toml_text, const std::string& source) {
    const toml::table root = parseTomlDocument(std::string(toml_text), source);
    TableReader r(root, source, "", {"name", "description", "thousands_separator", "line", "units"});
    PatternFormat format;
    format.source = source;
    format.name = r.text("name", "", true);
    const bool plain_name = std::all_of(format.name.begin(), format.name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
    if (format.name.empty() || format.name.size() > 64 || !plain_name)
        r.fail(*root.get("name"), "name",
               "'name' is 1 to 64 letters, digits, '-', '_' and '.', not '" + format.name.substr(0, 64) +
                   "'");
    format.description = r.text("description", "");
    format.thousands_separator = r.text("thousands_separator", "");
    if (const toml::node* node = root.get("thousands_separator")) {
        const std::string& s = format.thousands_separator;
        if (s.size() != 1 || std::isdigit(static_cast<unsigned char>(s[0])) ||
            std::string_view(".+-eE").find(s[0]) != std::string_view::npos)
            r.fail(
                *node, "thousands_separator",
                "'thousands_separator' is one character that is not part of a number (',', '_', ' '), not '" +
                    s.substr(0, 8) + "'");
    }
    format.lines = readArrayOfTables(root, source, "line", r, readLine);
    if (const toml::node* units = root.get("units")) {
        const toml::table* table = units->as_table();
        if (!table) r.fail(*units, "units", "'units' must be a table: [units]");
        format.units = readUnits(*table, source, format);
    }
    return format;
}

} // namespace scalebench
