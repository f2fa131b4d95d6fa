// Cluster settings: read from a user's TOML file, kept in the session store as JSON.
#include "cluster_settings.h"

#include "system_limits.h"
#include "toml_table_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <type_traits>

namespace scalebench {
namespace {

bool isControl(char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
}
bool hasControl(const std::string& s, bool tab_allowed = false) {
    return std::any_of(s.begin(), s.end(),
                       [&](char c) { return isControl(c) && !(tab_allowed && c == '\t'); });
}
bool hasSpaceOrControl(const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char c) { return c == ' ' || isControl(c); });
}
// As OpenSSH's ssh takes a host or login name (valid_hostname, valid_ruser; CVE-2023-51385): not starting
// with '-', no space, control character or shell metacharacter. An ssh config's ProxyCommand gets them
// through %h and %r, unquoted, in a shell, whether OpenSSH's or libssh's runs it.
bool isLoginName(const std::string& s) {
    return !s.empty() && s[0] != '-' && !hasSpaceOrControl(s) &&
           s.find_first_of("'`\"$\\;&<>|(){}") == std::string::npos;
}
// A path as a file system and a shell word take it: one line, no control characters, at most PATH_MAX - 1
// bytes.
bool isOneLine(const std::string& s) {
    return !hasControl(s) && s.size() <= kMostPathBytes;
}
bool isDigits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}
bool isAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
// As Slurm names partitions, accounts and clusters: letters, digits, '_', '.' and '-'.
bool isSlurmName(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(),
                                     [](char c) { return isAlnum(c) || c == '_' || c == '.' || c == '-'; });
}
std::vector<std::string> split(const std::string& s, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t at; (at = s.find(separator, start)) != std::string::npos; start = at + 1)
        parts.push_back(s.substr(start, at - start));
    parts.push_back(s.substr(start));
    return parts;
}
// sbatch --time: "minutes", "minutes:seconds", "hours:minutes:seconds", "days-hours", "days-hours:minutes",
// "days-hours:minutes:seconds", or UNLIMITED / INFINITE (any case).
bool isSlurmTime(const std::string& s) {
    std::string upper;
    for (char c : s)
        upper += (c >= 'a' && c <= 'z') ? char(c - 'a' + 'A') : c;
    if (upper == "UNLIMITED" || upper == "INFINITE") return true;
    const std::size_t dash = s.find('-');
    if (dash != std::string::npos && !isDigits(s.substr(0, dash))) return false;
    const auto parts = split(dash == std::string::npos ? s : s.substr(dash + 1), ':');
    return parts.size() <= 3 && std::all_of(parts.begin(), parts.end(), isDigits);
}
// A Slurm feature expression: names, counts and the operators & | , [ ] * : ! ( ).
bool isConstraint(const std::string& s) {
    return std::all_of(s.begin(), s.end(), [](char c) {
        return isAlnum(c) || std::string_view("_.-&|,[]*:!()").find(c) != std::string_view::npos;
    });
}
// ISO 4217's alphabetic code: three upper-case letters (USD, EUR, CHF).
bool isCurrencyCode(const std::string& s) {
    return s.size() == 3 && std::all_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}
bool isUpperEnvironmentName(const std::string& s) {
    return !s.empty() && !(s[0] >= '0' && s[0] <= '9') && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

const char* const kLauncherNames[] = {"srun-pmix", "mpirun"}; // in the order of cluster_key::Launcher

// One [[cluster]] key as its row says; left out, `value` stays the default.
template <cluster_key::Kind K>
void readKey(const TableReader& r, const toml::table& table, const char* key, int least,
             cluster_key::Value<K>& value) {
    using cluster_key::Kind;
    const toml::node* node = table.get(key);
    const bool required = std::string_view(key) == "name" || std::string_view(key) == "host";
    if (!node && !required) return;
    if constexpr (K == Kind::Text) {
        value = r.text(key, value, required);
    } else if constexpr (K == Kind::Int) {
        value = r.integer(key, value, least);
    } else if constexpr (K == Kind::Switch) {
        value = r.boolean(key, value);
    } else if constexpr (K == Kind::Texts) {
        value = r.texts(key);
    } else if constexpr (K == Kind::Number) {
        value = r.number(key, value);
    } else if constexpr (K == Kind::Env) {
        const toml::table* t = node->as_table();
        if (!t) r.fail(*node, key, std::string("'") + key + "' must be a table of NAME = \"value\"");
        for (auto&& [name, entry] : *t) {
            const toml::node& item = entry;
            const std::optional<std::string> v = item.value<std::string>();
            if (!v)
                r.fail(item, std::string(name.str()), std::string("'") + key + "' values must be strings");
            value[std::string(name.str())] = *v;
        }
    } else {
        const std::string name = r.text(key, "");
        if (name == kLauncherNames[1])
            value = cluster_key::Launcher::Mpirun;
        else if (name != kLauncherNames[0])
            r.fail(*node, key, std::string("'") + key + "' must be \"srun-pmix\" or \"mpirun\"");
    }
}

ClusterSettings readCluster(const toml::table& table, const std::string& file, int index) {
    std::vector<std::string> known;
#define SCALEBENCH_CLUSTER_KEY_NAME(key, ...) known.push_back(#key);
    SCALEBENCH_CLUSTER_KEYS(SCALEBENCH_CLUSTER_KEY_NAME)
#undef SCALEBENCH_CLUSTER_KEY_NAME
    TableReader r(table, file, "[[cluster]] #" + std::to_string(index), known);
    ClusterSettings c;
#define SCALEBENCH_READ_CLUSTER_KEY(key, member, kind, least, ...)                                           \
    readKey<cluster_key::Kind::kind>(r, table, #key, least, c.member);
    SCALEBENCH_CLUSTER_KEYS(SCALEBENCH_READ_CLUSTER_KEY)
#undef SCALEBENCH_READ_CLUSTER_KEY
    const auto problems = clusterProblems(c);
    if (!problems.empty()) {
        // Reported where the value is written: its key's line, or its entry's in a list or in nccl_env.
        const ClusterProblem& p = problems.front();
        const toml::node* node = table.get(p.key);
        if (node && p.item >= 0 && node->as_array() && p.item < static_cast<int>(node->as_array()->size()))
            node = node->as_array()->get(static_cast<std::size_t>(p.item));
        else if (node && !p.variable.empty() && node->as_table() && node->as_table()->get(p.variable))
            node = node->as_table()->get(p.variable);
        if (node) r.fail(*node, p.key, p.problem);
        r.fail(r.line(), p.key, p.problem);
    }
    return c;
}

} // namespace

ClusterSettings localMachine() {
    ClusterSettings c;
    c.name = kLocalClusterName;
    c.launcher = ClusterSettings::Launcher::Mpirun;
    c.time_limit.clear();
    c.exclusive = false;
    return c;
}

bool isLocalMachine(const ClusterSettings& cluster) {
    return cluster.name == kLocalClusterName && cluster.host.empty();
}

std::vector<ClusterSettings> parseClusterText(const std::string& text, const std::string& file_name) {
    const toml::table root = parseTomlDocument(text, file_name);
    TableReader r(root, file_name, "", {"cluster"});
    return readArrayOfTables(root, file_name, "cluster", r, readCluster);
}

std::vector<ClusterSettings> parseClusterFile(const std::filesystem::path& path) {
    return parseClusterText(readTomlFile(path, "cluster file"), path.string());
}

std::string quotedSetting(const std::string& value) {
    std::string out = "'";
    for (char c : value) {
        if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (isControl(c)) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
            out += hex;
        } else
            out += c;
    }
    return out + "'";
}

namespace {

using ClusterProblems = std::vector<ClusterProblem>;

// A key whose `value` is not one it takes: what it accepts; `item` is the entry at fault in a list,
// `variable` the one in nccl_env.
void addProblem(ClusterProblems& out, const std::string& key, const std::string& value,
                const std::string& accepted, int item = -1, const std::string& variable = "") {
    out.push_back({key, "'" + key + "' is " + quotedSetting(value) + ": " + accepted, item, variable});
}

void addIfBelow(ClusterProblems& out, const std::string& key, int value, int least) {
    if (value < least)
        out.push_back(
            {key,
             "'" + key + "' must be at least " + std::to_string(least) + ", not " + std::to_string(value), -1,
             ""});
}

// What a path setting accepts.
std::string oneLinePath() {
    return "a path on one line, without control characters, at most " + std::to_string(kMostPathBytes) +
           " bytes";
}

// What a setting that a command takes as an argument accepts besides.
std::string notAnOption() {
    return ", not starting with '-' (a command would read an option: write ./" + std::string("-NAME)");
}

// What each key's value may be: the rules the keys' table names (SCALEBENCH_CLUSTER_KEYS' `rule`), each
// adding a problem for a value it does not take; `least` is the row's.
namespace cluster_rule {

void anything(ClusterProblems&, const std::string&, const auto&, int) {}

void atLeast(ClusterProblems& out, const std::string& key, int value, int least) {
    addIfBelow(out, key, value, least);
}

// The cluster's name, and how ssh reaches its head node: host, user, port, key files, known hosts.
void clusterName(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (!isSlurmName(value))
        addProblem(out, key, value,
                   "a cluster's name is letters, digits, '.', '_' and '-' (it is what --cluster takes)");
}

// What OpenSSH's ssh takes as a host or login name.
std::string loginRule() {
    return "no spaces, control characters or shell metacharacters ' ` \" $ \\ ; & < > | ( ) "
           "{ }, not starting with '-' (as OpenSSH's ssh: a ProxyCommand gets it in a shell)";
}

void hostName(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (!isLoginName(value))
        addProblem(out, key, value,
                   "give the head node's host name, address or ~/.ssh/config Host alias: " + loginRule());
}

void loginNameOrNone(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (!value.empty() && !isLoginName(value))
        addProblem(out, key, value, "a login name (or none, for the ssh config's): " + loginRule());
}

void tcpPort(ClusterProblems& out, const std::string& key, int value, int) {
    if (value < 0 || value > 65535)
        out.push_back({key,
                       "'" + key + "' is " + std::to_string(value) +
                           ": a TCP port is 1 to 65535 (0: the ssh config's Port, else 22)",
                       -1, ""});
}

void keyFiles(ClusterProblems& out, const std::string& key, const std::vector<std::string>& files, int) {
    for (std::size_t i = 0; i < files.size(); ++i)
        if (files[i].empty() || !isOneLine(files[i]))
            addProblem(out, key, files[i], "each key file is " + oneLinePath(), static_cast<int>(i));
}

void oneLine(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (!isOneLine(value)) addProblem(out, key, value, oneLinePath());
}

// The folders and Python command on the cluster.
void remoteFolder(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (value.empty() || !isOneLine(value) || value[0] == '-')
        addProblem(out, key, value,
                   "scalebench's folder on the cluster: " + oneLinePath() + ", not empty" + notAnOption());
}

void pythonCommand(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (value.empty() || !isOneLine(value) || value[0] == '-')
        addProblem(out, key, value, "a Python command or " + oneLinePath() + notAnOption());
}

void absoluteFolder(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (value.empty() || value.front() != '/' || !isOneLine(value))
        addProblem(out, key, value,
                   "the folder of the cluster's data sets, as the compute nodes see it: an absolute path, " +
                       oneLinePath());
}

// What sbatch is asked for: partitions, account, constraint, time limit.
void partitions(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    bool names = true;
    for (const auto& name : split(value, ','))
        names = names && isSlurmName(name);
    if (!value.empty() && !names)
        addProblem(
            out, key, value,
            "Slurm partition names are letters, digits, '_', '.' and '-'; several are separated by commas");
}

void slurmAccount(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (!value.empty() && !isSlurmName(value))
        addProblem(out, key, value, "a Slurm account name is letters, digits, '_', '.' and '-'");
}

void featureExpression(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (!isConstraint(value))
        addProblem(out, key, value,
                   "a Slurm feature expression is feature names (letters, digits, '_', '.', '-') joined by & "
                   "| , with [ ] ( ) * : ! and no spaces");
}

void slurmTime(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (!value.empty() && !isSlurmTime(value))
        addProblem(
            out, key, value,
            "Slurm takes minutes, minutes:seconds, hours:minutes:seconds, days-hours, days-hours:minutes or "
            "days-hours:minutes:seconds (digits only), or UNLIMITED");
}

// What the job script sets up before the run: setup lines, NCCL variables, the container image.
void shellLines(ClusterProblems& out, const std::string& key, const std::vector<std::string>& lines, int) {
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (hasControl(lines[i], true))
            addProblem(out, key, lines[i], "each setup entry is one shell line, without control characters",
                       static_cast<int>(i));
}

void ncclVariables(ClusterProblems& out, const std::string& key,
                   const std::map<std::string, std::string>& variables, int) {
    for (const auto& [name, value] : variables) {
        if (!isUpperEnvironmentName(name))
            addProblem(out, key, name,
                       "a variable's name is upper-case letters, digits and '_', not starting with a digit",
                       -1, name);
        else if (value.find_first_of(std::string("\n\r\0", 3)) != std::string::npos)
            addProblem(out, key, value, name + "'s value must be on one line, without NUL", -1, name);
        else if (name.size() + 1 + value.size() >= kMostArgumentBytes)
            addProblem(out, key, value.substr(0, 64) + "...",
                       name + " is " + std::to_string(name.size() + 1 + value.size()) +
                           " bytes as NAME=value: a process gets at most " +
                           std::to_string(kMostArgumentBytes - 1),
                       -1, name);
    }
}

void imageName(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (hasSpaceOrControl(value) || value.size() > kMostPathBytes)
        addProblem(out, key, value,
                   "an image name without spaces or control characters, at most " +
                       std::to_string(kMostPathBytes) + " bytes");
}

// How a job is followed (Slurm's job completion log) and what it costs.
void jobcompLog(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (!isOneLine(value) || value.starts_with("-"))
        addProblem(out, key, value, oneLinePath() + notAnOption());
}

void price(ClusterProblems& out, const std::string& key, double value, int) {
    if (!std::isfinite(value) || value < 0)
        out.push_back({key,
                       fmt::format("'{}' is {}: a price is 0 (none) or more, in the cluster's currency per "
                                   "GPU-hour (on CPU runs, per rank-hour)",
                                   key, value),
                       -1, ""});
}

void currencyCode(ClusterProblems& out, const std::string& key, const std::string& value, int) {
    if (!isCurrencyCode(value))
        addProblem(out, key, value,
                   "three upper-case letters, as ISO 4217 writes a currency (USD, EUR, CHF)");
}

} // namespace cluster_rule

} // namespace

// In the order of the keys' table (SCALEBENCH_CLUSTER_KEYS): reading a file reports the first.
std::vector<ClusterProblem> clusterProblems(const ClusterSettings& c) {
    ClusterProblems out;
#define SCALEBENCH_CLUSTER_RULE(key, member, kind, least, rule, ...)                                         \
    cluster_rule::rule(out, #key, c.member, least);
    SCALEBENCH_CLUSTER_KEYS(SCALEBENCH_CLUSTER_RULE)
#undef SCALEBENCH_CLUSTER_RULE
    return out;
}

namespace {
// A setting as the store's JSON holds it: the launcher by its name, the rest as they are.
template <typename T> nlohmann::json jsonValue(const T& value) {
    if constexpr (std::is_same_v<T, cluster_key::Launcher>)
        return kLauncherNames[static_cast<int>(value)];
    else
        return value;
}
template <typename T> void fromJson(const nlohmann::json& j, const char* key, T& value) {
    if (!j.contains(key)) return; // a store written before the key existed: its default
    if constexpr (std::is_same_v<T, cluster_key::Launcher>)
        value =
            j.at(key) == kLauncherNames[1] ? cluster_key::Launcher::Mpirun : cluster_key::Launcher::SrunPmix;
    else
        value = j.at(key).get<T>();
}
} // namespace

std::string clusterToJson(const ClusterSettings& c) {
    nlohmann::json j = nlohmann::json::object();
#define SCALEBENCH_CLUSTER_TO_JSON(key, member, ...) j[#key] = jsonValue(c.member);
    SCALEBENCH_CLUSTER_KEYS(SCALEBENCH_CLUSTER_TO_JSON)
#undef SCALEBENCH_CLUSTER_TO_JSON
    return j.dump();
}

ClusterSettings clusterFromJson(const std::string& text) {
    const auto j = nlohmann::json::parse(text);
    ClusterSettings c;
#define SCALEBENCH_CLUSTER_FROM_JSON(key, member, ...) fromJson(j, #key, c.member);
    SCALEBENCH_CLUSTER_KEYS(SCALEBENCH_CLUSTER_FROM_JSON)
#undef SCALEBENCH_CLUSTER_FROM_JSON
    return c;
}

} // namespace scalebench
