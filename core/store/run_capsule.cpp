// What ran, exactly: a run's capsule assembled from the store, and what differs between two sessions'
// capsules.
#include "run_capsule.h"

#include "session_store.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

namespace scalebench {
namespace {

using nlohmann::json;

// Every occurrence of `from` in `text` replaced by `to`.
void replaceAll(std::string& text, const std::string& from, const std::string& to) {
    if (from.empty()) return;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

// The script with this run's folder written <run folder> and its session's folder <session folder>.
std::string placeIndependentScript(std::string script, const std::string& run_dir) {
    if (run_dir.empty()) return script;
    replaceAll(script, run_dir, "<run folder>");
    const std::string session_dir = std::filesystem::path(run_dir).parent_path().string();
    if (session_dir.size() > 1) replaceAll(script, session_dir, "<session folder>");
    return script;
}

// The image pyxis was told to start (`--container-image=IMAGE` or `--container-image IMAGE`), or empty.
std::string containerImage(const std::string& script) {
    const std::string option = "--container-image";
    const std::size_t at = script.find(option);
    if (at == std::string::npos) return "";
    std::size_t begin = at + option.size();
    if (begin < script.size() && (script[begin] == '=' || script[begin] == ' ')) ++begin;
    std::size_t end = script.find_first_of(" \t\n\"'\\", begin);
    if (end == std::string::npos) end = script.size();
    return script.substr(begin, end - begin);
}

// A scalar of the header as text: strings unquoted, numbers and booleans as JSON; null and absent: empty.
std::string scalar(const json& header, const char* key) {
    const auto it = header.find(key);
    if (it == header.end() || it->is_null() || it->is_structured()) return "";
    return it->is_string() ? it->get<std::string>() : it->dump();
}

void addHeaderEntries(const json& header, std::vector<CapsuleEntry>& out) {
    auto add = [&](std::string key, std::string value) {
        if (!value.empty()) out.push_back({std::move(key), std::move(value)});
    };
    const json versions = header.value("versions", json::object());
    if (versions.is_object()) {
        add("engine source", scalar(versions, "source"));
        for (const char* name : {"engine", "libtorch", "mpi"})
            add(std::string("versions.") + name, scalar(versions, name));
    }
    add("versions.cuda driver", scalar(header, "cuda_driver"));
    add("versions.cuda runtime", scalar(header, "cuda_runtime"));
    add("versions.nccl", scalar(header, "nccl"));
    if (const auto gpus = header.find("gpus"); gpus != header.end() && gpus->is_array()) {
        std::string names;
        for (const json& gpu : *gpus)
            names += (names.empty() ? "" : "\n") + (gpu.is_object() ? scalar(gpu, "name") : gpu.dump());
        add("gpus", names);
    }
    if (const auto cpu = header.find("cpu_kernels"); cpu != header.end() && cpu->is_object())
        add("cpu", scalar(*cpu, "cpu_model"));
}

void addPlacementEntries(const json& header, std::vector<CapsuleEntry>& out) {
    const auto hosts = header.find("hosts");
    if (hosts == header.end() || !hosts->is_array()) return;
    std::string text;
    for (const json& host : *hosts) {
        if (!host.is_object()) continue;
        text += (text.empty() ? "" : "\n") + ("rank " + scalar(host, "rank") + ": " + scalar(host, "host"));
        if (const std::string cpus = scalar(host, "cpus"); !cpus.empty()) text += " (CPUs " + cpus + ")";
    }
    if (!text.empty()) out.push_back({"hosts", text});
}

void addEnvironmentEntries(const json& header, std::vector<CapsuleEntry>& out) {
    const auto environment = header.find("environment");
    if (environment == header.end() || !environment->is_object()) return;
    for (const auto& [name, value] : environment->items()) // sorted by name
        out.push_back({"environment." + name, value.is_string() ? value.get<std::string>() : value.dump()});
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

} // namespace

std::string RunCapsule::value(const std::string& key) const {
    for (const CapsuleEntry& e : entries)
        if (e.key == key) return e.value;
    return "";
}

RunCapsule runCapsule(const SessionRow& session, const RunRow& run) {
    RunCapsule capsule{run.name};
    auto& out = capsule.entries;
    const std::string script = placeIndependentScript(run.command, run.run_dir);
    if (!script.empty()) out.push_back({"job script", script});
    json header = json::object();
    if (!run.header_json.empty()) header = json::parse(run.header_json, nullptr, /*allow_exceptions=*/false);
    if (!header.is_object()) header = json::object(); // a header that does not parse tells nothing
    addHeaderEntries(header, out);
    if (const std::string image = containerImage(run.command); !image.empty()) {
        out.push_back({"container.image", image});
        const std::size_t pinned = image.find("@sha256:");
        out.push_back({"container.digest", pinned == std::string::npos
                                               ? "(not pinned: a tag is resolved when the job starts)"
                                               : image.substr(pinned + 1)});
    }
    if (!run.nodes.empty()) out.push_back({"nodes", run.nodes});
    addPlacementEntries(header, out);
    addEnvironmentEntries(header, out);
    if (!session.plan_text.empty()) out.push_back({"plan", session.plan_text});
    return capsule;
}

bool capsuleHeaderKey(const std::string& key) {
    for (const char* prefix : {"versions", "hosts", "gpus", "environment", "cpu_kernels"})
        if (key.starts_with(prefix) && (key.size() == std::strlen(prefix) ||
                                        key[std::strlen(prefix)] == '.' || key[std::strlen(prefix)] == '['))
            return true;
    return key == "cuda_driver" || key == "cuda_runtime" || key == "nccl";
}

std::pair<std::string, std::string> differingLines(const std::string& a, const std::string& b) {
    const std::vector<std::string> la = lines(a), lb = lines(b);
    const std::size_t n = la.size(), m = lb.size();
    // common[i][j]: the longest common subsequence of la[i..] and lb[j..]
    std::vector<std::vector<std::size_t>> common(n + 1, std::vector<std::size_t>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            common[i][j] =
                la[i] == lb[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
    std::string only_a, only_b;
    auto note = [](std::string& side, std::size_t index, const std::string& line) {
        side += (side.empty() ? "" : "\n") + ("line " + std::to_string(index + 1) + ": " + line);
    };
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && la[i] == lb[j]) {
            ++i;
            ++j;
        } else if (j == m || (i < n && common[i + 1][j] >= common[i][j + 1])) {
            note(only_a, i, la[i]);
            ++i;
        } else {
            note(only_b, j, lb[j]);
            ++j;
        }
    }
    return {only_a, only_b};
}

SessionCapsule sessionCapsule(const std::vector<RunCapsule>& runs) {
    SessionCapsule out;
    if (runs.empty()) return out;
    auto everyRunHas = [&](const CapsuleEntry& e) {
        return std::all_of(runs.begin(), runs.end(), [&](const RunCapsule& r) {
            return std::find(r.entries.begin(), r.entries.end(), e) != r.entries.end();
        });
    };
    for (const CapsuleEntry& e : runs.front().entries)
        if (everyRunHas(e)) out.shared.push_back(e);
    for (const RunCapsule& r : runs) {
        std::vector<CapsuleEntry> own;
        for (const CapsuleEntry& e : r.entries)
            if (std::find(out.shared.begin(), out.shared.end(), e) == out.shared.end()) own.push_back(e);
        if (!own.empty()) out.per_run.emplace_back(r.run, std::move(own));
    }
    return out;
}

std::vector<RunCapsule> loadCapsules(const SessionStore& store, const SessionRow& session) {
    std::vector<RunCapsule> out;
    for (const RunRow& run : store.runs(session.id))
        out.push_back(runCapsule(session, run));
    return out;
}

} // namespace scalebench
