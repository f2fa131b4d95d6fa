// Checks a cluster before anything is submitted to it: the connection, Slurm, the partition, and what the
// engine's build needs there, each with what to do when it is missing.
#include "cluster_readiness.h"

#include "connection_check.h"
#include "session_site.h"
#include "shell_words.h"
#include "slurm_output.h"
#include "ssh_transport.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace scalebench {
namespace {

using Verdict = ReadinessItem::Verdict;

std::string firstLine(const std::string& text) {
    const auto start = text.find_first_not_of(" \t\n");
    if (start == std::string::npos) return "";
    return text.substr(start, text.find('\n', start) - start);
}

std::vector<std::string> fields(const std::string& line, char separator) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string field; std::getline(in, field, separator);)
        out.push_back(field);
    return out;
}

// "3.25" from CMakeLists.txt's cmake_minimum_required(VERSION 3.25); "" when there is none.
std::string requiredCMake(const std::filesystem::path& engine_sources) {
    std::ifstream in(engine_sources / "CMakeLists.txt");
    std::stringstream text;
    text << in.rdbuf();
    std::smatch m;
    const std::string s = text.str();
    if (std::regex_search(s, m, std::regex(R"(cmake_minimum_required\s*\(\s*VERSION\s+([0-9.]+))")))
        return m[1];
    return "";
}

// a >= b for dotted versions ("3.25.1" >= "3.25").
bool versionAtLeast(const std::string& a, const std::string& b) {
    const auto x = fields(a, '.'), y = fields(b, '.');
    for (std::size_t i = 0; i < std::max(x.size(), y.size()); ++i) {
        const int p = i < x.size() ? std::atoi(x[i].c_str()) : 0,
                  q = i < y.size() ? std::atoi(y[i].c_str()) : 0;
        if (p != q) return p > q;
    }
    return true;
}

// Prints need|NAME|ok or missing|DETAIL for each thing the engine's build job needs, after the cluster's
// setup lines, as the job's shell would find it. $1: torch_python; $2: "gpu" when jobs get GPUs.
const char* kBuildNeedsScript = R"SH(
need() { printf 'need|%s|%s|%s\n' "$1" "$2" "$3"; }
cc=${CC:-cc}; cxx=${CXX:-c++}
if command -v "$cxx" >/dev/null && command -v "$cc" >/dev/null; then
  need "C++ compiler" ok "$(command -v "$cxx"): $("$cxx" --version 2>&1 | head -n 1)"
else need "C++ compiler" missing "$cxx or $cc"; fi
if command -v cmake >/dev/null; then need CMake ok "$(cmake --version | head -n 1)"; else need CMake missing ""; fi
if command -v mpicc >/dev/null; then need MPI ok "$(command -v mpicc); $(mpirun --version 2>&1 | head -n 1)"
else need MPI missing ""; fi
# Where CMake's find_path looks (the engine's CMakeLists add CPATH and CPLUS_INCLUDE_PATH for gloo).
dirs="${CPATH:-}:${CPLUS_INCLUDE_PATH:-}"
IFS=:
for p in ${CMAKE_PREFIX_PATH:-}; do dirs="$dirs:$p/include"; done
for p in $PATH; do dirs="$dirs:${p%/bin}/include"; done
unset IFS
dirs="$dirs:/usr/local/include:/usr/include"
header() { local IFS=:; for d in $dirs; do if [ -n "$d" ] && [ -f "$d/$1" ]; then echo "$d/$1"; return 0; fi; done; return 1; }
for h in "gloo headers|gloo/rendezvous/store.h" "zlib|zlib.h" "nlohmann-json|nlohmann/json.hpp"; do
  if f=$(header "${h#*|}"); then need "${h%%|*}" ok "$f"; else need "${h%%|*}" missing "${h#*|}"; fi
done
if ! python=$(command -v "$1"); then need torch missing no-python
else
  root=$("$python" -c "import importlib.util,os; s=importlib.util.find_spec('torch'); print(os.path.dirname(s.origin) if s else '')" 2>/dev/null)
  if [ -n "$root" ] && [ -f "$root/lib/libtorch_cpu.so" ]; then
    need torch ok "$(sed -n "s/^__version__ = '\(.*\)'.*/\1/p" "$root/version.py") in $root ($python)"
  else need torch missing no-torch; fi
fi
if [ "$2" = gpu ]; then
  if command -v nvcc >/dev/null; then need "CUDA (for NCCL)" ok "$(nvcc --version | tail -n 1)"
  else need "CUDA (for NCCL)" note "no nvcc: the engine is built without its NCCL backend (a module load of CUDA in the setup lines gives it)"; fi
fi
)SH";

// What to do on the cluster when a build need is missing.
std::string buildAdvice(const ClusterSettings& cluster, const std::string& what, const std::string& detail) {
    if (what == "C++ compiler")
        return "no " + detail +
               " after the cluster's setup lines: add a compiler (C++20: GCC 10 or newer), e.g. " +
               "`module load gcc` in `setup`";
    if (what == "CMake")
        return "no cmake after the cluster's setup lines: `module load cmake` in `setup`, or " +
               std::string("`python3 -m pip install --user cmake`");
    if (what == "MPI")
        return "no mpicc after the cluster's setup lines: add your site's MPI, e.g. `module load openmpi` in "
               "`setup` (Open MPI with PMIx for launcher srun-pmix)";
    if (what == "gloo headers")
        return detail +
               " is in no include folder the build searches: install gloo's headers (Debian and Ubuntu: "
               "libgloo-dev), or put a folder that holds gloo/ on CPATH in `setup` (`export "
               "CPATH=/path/to/include:$CPATH`)";
    if (what == "zlib")
        return "zlib.h not found: install zlib's headers (zlib1g-dev, zlib-devel) or `module load zlib` in "
               "`setup`";
    if (what == "nlohmann-json")
        return "nlohmann/json.hpp not found: install nlohmann-json (nlohmann-json3-dev, json-devel), or "
               "unpack "
               "its release and export CMAKE_PREFIX_PATH to it in `setup`";
    if (what == "torch") {
        const std::string python = cluster.torch_python;
        if (detail == "no-python")
            return "no Python '" + python +
                   "' (torch_python) after the cluster's setup lines: set torch_python " +
                   "to a Python there, or `module load` one in `setup`";
        return python + " has no torch package with LibTorch: " + python +
               " -m pip install torch (the CPU-only wheel: --index-url "
               "https://download.pytorch.org/whl/cpu), " +
               "or set torch_python to a Python that has it";
    }
    return detail;
}

} // namespace

int ClusterReadiness::problems() const {
    int n = 0;
    for (const auto& item : items)
        n += item.verdict == Verdict::Missing;
    return n;
}

namespace {

void add(ClusterReadiness& r, Verdict verdict, std::string what, std::string detail) {
    r.items.push_back({verdict, std::move(what), std::move(detail)});
}

// The host key and the login, as the Clusters tab's "Test connection" checks them; false where the check
// stops.
bool checkLogin(const ClusterSettings& cluster, const ConnectionReport& connection, ClusterReadiness& r) {
    if (!connection.reachable) {
        add(r, Verdict::Missing, "connection", connection.error);
        return false;
    }
    const HostKeyFinding& key = connection.host_key;
    if (key.state == HostKeyState::Changed) {
        std::string recorded;
        for (const auto& line : key.recorded)
            recorded += (recorded.empty() ? "" : "; ") + line;
        add(r, Verdict::Missing, "host key",
            key.key_type + " " + key.fingerprint + " of " + key.host + " is NOT the key " +
                key.known_hosts_file + " records (" + recorded +
                "): refused; find out why before anything else");
        return false;
    }
    if (key.state == HostKeyState::Unknown) {
        add(r, Verdict::Missing, "host key",
            key.key_type + " " + key.fingerprint + " of " + key.host + " is not in " + key.known_hosts_file +
                (cluster.trust_on_first_use
                     ? ": --batch would add it (trust_on_first_use = true); the check does not"
                     : ": --batch refuses it; compare it with the fingerprint your admins publish, then "
                       "trust it "
                       "(the Clusters tab's Test connection, or ssh-keyscan into that file)"));
        return false;
    }
    add(r, Verdict::Ok, "host key",
        key.key_type + " " + key.fingerprint + ", known in " + key.known_hosts_file);
    if (!connection.logged_in) {
        add(r, Verdict::Missing, "login", connection.error);
        return false;
    }
    add(r, Verdict::Ok, "login", connection.where + " (host " + connection.remote_host + ")");
    return true;
}

// Slurm's commands, as the scheduler runs them (straight over SSH, without the setup lines), the partition
// and srun's PMIx; returns the login's home folder.
std::string checkSlurm(const ClusterSettings& cluster, const std::string& where, Transport& transport,
                       ClusterReadiness& r) {
    const CommandResult slurm =
        transport.run("for c in sbatch squeue scancel scontrol sacct; do if p=$(command -v \"$c\"); then "
                      "echo \"slurm|$c|$p|$(\"$c\" --version 2>/dev/null | head -n 1)\"; else echo "
                      "\"slurm|$c||\"; fi; done; "
                      "echo \"home|$(pwd)\"");
    std::string home;
    std::istringstream lines(slurm.out);
    for (std::string line; std::getline(lines, line);) {
        const auto f = fields(line, '|');
        if (f.size() >= 2 && f[0] == "home") home = f[1];
        if (f.size() < 3 || f[0] != "slurm") continue;
        const std::string& command = f[1];
        const std::string version = f.size() > 3 ? " (" + f[3] + ")" : "";
        if (!f[2].empty())
            add(r, Verdict::Ok, command, f[2] + version);
        else if (command == "sacct")
            add(r, Verdict::Note, command,
                "not found (optional: final job states then come from scontrol and jobcomp_log)");
        else
            add(r, Verdict::Missing, command,
                "not in the PATH of a command run over SSH (ssh " + where + " " + command +
                    "): is this the cluster's login node? Slurm's client commands must be there");
    }
    std::string partitions; // as sinfo lists them, the default marked with '*'
    for (const std::string& p : parseSinfoPartitions(transport.run("sinfo -h -o %P").out))
        partitions += (partitions.empty() ? "" : ", ") + p;
    if (!cluster.partition.empty()) {
        const CommandResult p = transport.run("scontrol show partition " + shellQuote(cluster.partition));
        const std::string what = "partition '" + cluster.partition + "'";
        const std::string state = p.exit_status == 0 ? partitionState(p.out) : "";
        if (!state.empty())
            add(r, state == "UP" ? Verdict::Ok : Verdict::Missing, what,
                "State=" + state + (state == "UP" ? "" : ": jobs there would wait"));
        else
            add(r, Verdict::Missing, what,
                "not on this cluster (partitions: " + (partitions.empty() ? "none listed" : partitions) +
                    "): set partition to one of them, or leave it out for the default (marked *)");
    } else {
        add(r, Verdict::Ok, "partition", "none set: Slurm's default (partitions: " + partitions + ")");
    }
    if (cluster.launcher == ClusterSettings::Launcher::SrunPmix) {
        if (offersPmix(transport.run("srun --mpi=list 2>&1").out))
            add(r, Verdict::Ok, "srun --mpi=pmix", "offered by srun --mpi=list");
        else
            add(r, Verdict::Missing, "srun --mpi=pmix",
                "srun --mpi=list does not offer pmix: set launcher = \"mpirun\" (the job script then "
                "runs "
                "mpirun inside the allocation)");
    }
    return home;
}

// What the engine's build job needs, checked on the head node after the cluster's setup lines as in its
// script.
void checkEngineBuild(const ClusterSettings& cluster, const std::filesystem::path& engine_sources,
                      Transport& transport, ClusterReadiness& r) {
    add(r, Verdict::Note, "the engine's build",
        "what it needs is checked here on the head node after the cluster's " +
            std::to_string(cluster.setup_lines.size()) +
            " setup line(s); its job runs on a compute node, which needs the same");
    std::string script;
    for (const auto& line : cluster.setup_lines)
        script += line + "\n";
    script += kBuildNeedsScript;
    const CommandResult needs =
        transport.run("bash -c " + shellQuote(script) + " check " + shellQuote(cluster.torch_python) +
                      (cluster.gpus_per_node > 0 ? " gpu" : " cpu"));
    const std::string cmake_needed = requiredCMake(engine_sources);
    std::istringstream need_lines(needs.out);
    int found = 0;
    for (std::string line; std::getline(need_lines, line);) {
        const auto f = fields(line, '|');
        if (f.size() < 3 || f[0] != "need") continue;
        ++found;
        const std::string& what = f[1];
        const std::string detail = f.size() > 3 ? f[3] : "";
        if (f[2] == "note") {
            add(r, Verdict::Note, what, detail);
        } else if (f[2] != "ok") {
            add(r, Verdict::Missing, what, buildAdvice(cluster, what, detail));
        } else if (what == "CMake" && !cmake_needed.empty()) {
            std::smatch v;
            const bool new_enough =
                std::regex_search(detail, v, std::regex(R"(([0-9]+\.[0-9]+(\.[0-9]+)?))")) &&
                versionAtLeast(v[1], cmake_needed);
            if (new_enough)
                add(r, Verdict::Ok, what, detail + " (the engine needs " + cmake_needed + " or newer)");
            else
                add(r, Verdict::Missing, what,
                    detail + ": the engine needs " + cmake_needed + " or newer: `module load cmake` in " +
                        "`setup`, or `python3 -m pip install --user cmake`");
        } else {
            add(r, Verdict::Ok, what, detail);
        }
    }
    if (found == 0)
        add(r, Verdict::Missing, "setup lines",
            "the check of the build's needs printed nothing (exit " + std::to_string(needs.exit_status) +
                "): " + firstLine(needs.err));
}

} // namespace

ClusterReadiness checkClusterReadiness(const ClusterSettings& cluster,
                                       const std::filesystem::path& engine_sources,
                                       const std::function<std::string(const std::string& root)>& engine_at,
                                       PlanNeeds needs) {
    ClusterReadiness r;
    r.remote_root = cluster.remote_root;
    const ConnectionReport connection = checkConnection(cluster);
    r.where = connection.where;
    if (!checkLogin(cluster, connection, r)) return r;
    try {
        SshSettings ssh = sshSettings(cluster);
        ssh.trust_on_first_use = false; // the key is known: nothing to add
        SshTransport transport(ssh);
        const std::string home = checkSlurm(cluster, connection.where, transport, r);
        if (needs.containers) {
            // pyxis adds --container-image to srun's options (a SPANK plugin): its help lists it.
            if (transport.run("srun --help 2>&1 | grep -q -- --container-image").exit_status == 0)
                add(r, Verdict::Ok, "pyxis", "srun takes --container-image (the plan's container runs)");
            else
                add(r, Verdict::Missing, "pyxis",
                    "srun --help lists no --container-image: the plan's container runs need Slurm's pyxis "
                    "plugin (github.com/NVIDIA/pyxis, with enroot) on this cluster, or leave out their "
                    "container_image");
        }
        if (!home.empty() && !cluster.remote_root.starts_with("/"))
            r.remote_root = home + "/" + cluster.remote_root;
        add(r, Verdict::Ok, "remote_root", r.remote_root);
        if (!needs.engine) {
            add(r, Verdict::Note, "engine", "not needed: every run of the plan is a command of its own");
            return r;
        }
        const std::string engine = engine_at(r.remote_root);
        if (transport.run("test -x " + shellQuote(engine)).exit_status == 0)
            add(r, Verdict::Ok, "engine", "built there already (" + engine + ")");
        else
            add(r, Verdict::Note, "engine",
                "not built there yet: the first --batch builds it by a Slurm job (minutes), into " + engine);
        checkEngineBuild(cluster, engine_sources, transport, r);
    } catch (const std::exception& e) {
        add(r, Verdict::Missing, "connection", e.what());
    }
    return r;
}

std::string formatReadiness(const ClusterReadiness& readiness) {
    std::string s;
    for (const auto& item : readiness.items) {
        const char* verdict = item.verdict == Verdict::Ok     ? "ok     "
                              : item.verdict == Verdict::Note ? "note   "
                                                              : "MISSING";
        s += std::string("  ") + verdict + " " + item.what + ": " + item.detail + "\n";
    }
    const int problems = readiness.problems();
    if (problems == 0)
        s += "check: everything the runs and the engine's build need is there (the build's needs were "
             "checked on "
             "the head node after the setup lines; its job runs on a compute node, which needs the same)\n";
    else
        s += "check: " + std::to_string(problems) + (problems == 1 ? " problem" : " problems") +
             " (MISSING above)\n";
    return s;
}

} // namespace scalebench
