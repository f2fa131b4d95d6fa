// The injection sweep's harness (injection_sweep.h): the sandbox and its recorders, the payloads and the
// report, the sweep's store, and the launches here and on Slurm.
#include "injection_sweep.h"

#include "engine_deployment.h"
#include "file_text.h"
#include "job_request.h"
#include "local_scheduler.h"
#include "local_transport.h"
#include "session_runner.h"
#include "slurm_scheduler.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sqlite3.h>

namespace fs = std::filesystem;

namespace scalebench::injection {

namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
        text.replace(at, from.size(), to);
    return text;
}

// Text as the report shows it: printable ASCII as is, '|' and the rest escaped, long text cut.
std::string shown(const std::string& text, std::size_t most = 48) {
    std::string out;
    for (unsigned char c : text.substr(0, most)) {
        if (c == '|')
            out += "\\|";
        else if (c >= 0x20 && c < 0x7f)
            out += char(c);
        else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        }
    }
    if (text.size() > most) out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

struct Row {
    std::string payload, label, field, outcome, detail;
};

struct Report {
    std::vector<Row> rows;
    ~Report() {
        const char* file = std::getenv("SCALEBENCH_INJECTION_REPORT");
        if (!file || rows.empty()) return;
        std::ofstream out(file);
        out << "| payload | bytes | field | outcome | detail |\n| --- | --- | --- | --- | --- |\n";
        for (const auto& r : rows)
            out << "| " << r.label << ": `" << shown(r.payload) << "` | " << r.payload.size() << " | "
                << r.field << " | " << r.outcome << " | " << shown(r.detail, 200) << " |\n";
    }
};

Report& report() {
    static Report r;
    return r;
}

} // namespace

// ---- The watched folder: canary, recorders, and what was there before -------------------------------------

Sandbox::Sandbox() {
    for (const auto& f : {bin(), records(), home()})
        fs::create_directories(f);
    // Writes the argv of its first call (NUL-separated) and the injected variables it sees, then runs
    // what a launcher would only where told to (srun's shim: a build job's /bin/bash -c).
    const std::string recorder = "#!/bin/bash\n"
                                 "name=${0##*/}\n"
                                 "[ -e \"$SCALEBENCH_RECORDS/$name.argv\" ] || " // the first call's
                                 "printf '%s\\0' \"$@\" > \"$SCALEBENCH_RECORDS/$name.argv\"\n"
                                 "if [ \"${INJECTED+set}\" ]; then printf '%s' \"$INJECTED\" > "
                                 "\"$SCALEBENCH_RECORDS/$name.INJECTED\"; fi\n"
                                 "if [ \"${NCCL_INJECTED+set}\" ]; then printf '%s' \"$NCCL_INJECTED\" > "
                                 "\"$SCALEBENCH_RECORDS/$name.NCCL_INJECTED\"; fi\n";
    shim("mpirun", recorder);
    shim("engine", recorder);
    shim("cmake", recorder);
    shim("srun", recorder + "while [ \"${1#--}\" != \"$1\" ]; do shift; done\n"
                            "if [ \"$1\" = /bin/bash ]; then exec \"$@\"; fi\n");
    // sbatch runs the script at once, as Slurm would on a node, where it was submitted from.
    shim("sbatch", recorder + "bash \"${@: -1}\" > stdout.log 2> stderr.log\necho 4242\n");
    shim("squeue", recorder);
    shim("sacct", recorder + "if [ \"${SCALEBENCH_NO_ACCOUNTING-}\" ]; then exit 1; fi\n"
                             "echo '4242|COMPLETED|0:0|node1'\n");
    shim("tail", recorder);
    shim("scontrol", recorder);
    shim("scancel", recorder);
    shim("sinfo", recorder);
}

void Sandbox::shim(const std::string& name, const std::string& text) const {
    std::ofstream(bin() / name) << text;
    fs::permissions(bin() / name, fs::perms::owner_all);
}

std::optional<std::vector<std::string>> Sandbox::argv(const std::string& name) const {
    const fs::path file = records() / (name + ".argv");
    if (!fs::exists(file)) return std::nullopt;
    const std::string text = fileText(file);
    std::vector<std::string> words;
    for (std::size_t start = 0, end; start < text.size(); start = end + 1) {
        end = text.find('\0', start);
        words.push_back(text.substr(start, end - start));
    }
    return words;
}

std::optional<std::string> Sandbox::variable(const std::string& program, const std::string& name) const {
    const fs::path file = records() / (program + "." + name);
    if (!fs::exists(file)) return std::nullopt;
    return fileText(file);
}

void Sandbox::forget() const {
    fs::remove_all(records());
    fs::create_directories(records());
    fs::remove(canary());
}

std::set<fs::path> Sandbox::tree() const {
    std::set<fs::path> paths;
    for (auto it = fs::recursive_directory_iterator(folder.path); it != fs::recursive_directory_iterator();
         ++it)
        if (!it->path().string().starts_with(records().string())) paths.insert(it->path());
    return paths;
}

Sandbox& sandbox() {
    static Sandbox s;
    return s;
}

ShadowedCommands::ShadowedCommands() : path_(std::getenv("PATH")), cwd_(fs::current_path()) {
    setenv("PATH", (sandbox().bin().string() + ":" + path_).c_str(), 1);
    setenv("SCALEBENCH_RECORDS", sandbox().records().c_str(), 1);
    fs::current_path(sandbox().home());
}

ShadowedCommands::~ShadowedCommands() {
    setenv("PATH", path_.c_str(), 1);
    fs::current_path(cwd_);
}

std::vector<std::string> escapedPaths(const std::set<fs::path>& before,
                                      const std::vector<fs::path>& allowed) {
    std::vector<std::string> roots;
    std::set<std::string> on_the_way;
    for (const auto& a : allowed) {
        std::string root = a.lexically_normal().string();
        while (root.size() > 1 && root.back() == '/')
            root.pop_back();
        roots.push_back(root);
        fs::path prefix;
        for (const auto& part : a) {
            prefix /= part;
            std::string folder = prefix.lexically_normal().string();
            while (folder.size() > 1 && folder.back() == '/')
                folder.pop_back();
            on_the_way.insert(folder);
        }
    }
    std::vector<std::string> out;
    for (const auto& p : sandbox().tree()) {
        if (before.contains(p)) continue;
        const std::string path = p.lexically_normal().string();
        const bool inside =
            on_the_way.contains(path) || std::any_of(roots.begin(), roots.end(), [&](const auto& r) {
                return path == r || path.starts_with(r + "/");
            });
        if (!inside) out.push_back(path);
    }
    return out;
}

void removeNew(const std::set<fs::path>& before) {
    const std::string store = (sandbox().folder.path / "store").string();
    for (const auto& p : sandbox().tree()) {
        std::error_code ignored;
        if (!before.contains(p) && !p.string().starts_with(store)) fs::remove_all(p, ignored);
    }
}

std::string placed(const std::string& path) {
    return path.starts_with("/") ? (sandbox().folder.path / "root").string() + path : path;
}

// ---- Payloads and the report ------------------------------------------------------------------------------

const std::vector<Payload>& payloads() {
    static const std::vector<Payload> list = [] {
        using namespace std::string_literals;
        const std::vector<Payload> templates = {
            {"semicolon", "x; touch @C@"},
            {"pipe", "x | touch @C@"},
            {"and", "x && touch @C@"},
            {"or", "false || touch @C@"},
            {"background", "x & touch @C@"},
            {"command substitution", "$(touch @C@)"},
            {"backticks", "`touch @C@`"},
            {"IFS", ";${IFS}touch${IFS}@C@"},
            {"single quote break", "'; touch @C@; '"},
            {"double quote break", "\"; touch @C@; \""},
            {"backslash quote", "\\'; touch @C@ #"},
            {"quoted substitution", "\"$(touch @C@)\""},
            {"escaped substitution", "\\$(touch @C@)"},
            {"arithmetic", "$((1+1))$(touch @C@)"},
            {"process substitution", "<(touch @C@)"},
            {"redirect", "x > @C@"},
            {"append redirect", "x >> @C@"},
            {"stderr redirect", "x 2>@C@"},
            {"brace expansion", "{a,b}$(touch @C@)"},
            {"newline command", "x\ntouch @C@"},
            {"carriage return", "x\rtouch @C@"},
            {"CRLF", "x\r\ntouch @C@"},
            {"NUL inside", "x\0; touch @C@"s},
            {"NUL alone", "\0"s},
            {"SBATCH via newline", "x\n#SBATCH --wrap=\"touch @C@\""},
            {"SBATCH partition", "x\n#SBATCH --partition=evil"},
            {"comment", "x # rest"},
            {"history", "!!"},
            {"variable", "$HOME"},
            {"double dash option", "--help"},
            {"option with value", "--output=@C@"},
            {"leading dash", "-rf"},
            {"lone dash", "-"},
            {"tail follow", "-f"},
            {"glob", "*"},
            {"tilde", "~"},
            {"tilde user", "~root/x"},
            {"traversal", "../../../../escape"},
            {"absolute", "/etc/passwd"},
            {"absolute traversal", "/tmp/../etc/x"},
            {"dot", "."},
            {"dot dot", ".."},
            {"spaces", "my data dir"},
            {"empty", ""},
            {"blank", " "},
            {"tab", "\t"},
            {"64 KiB", std::string(64 * 1024, 'a')},
            {"1 MiB", std::string(1024 * 1024, 'b')},
            {"invalid UTF-8", "x\xff\xfey"},
            {"overlong UTF-8", "\xc0\xaf"},
            {"lone continuation", "\x80"},
            {"TOML quote break", "\"\nname = \"x"},
            {"TOML triple quotes", "''' \"\"\" x"},
            {"SQL drop", "'); DROP TABLE runs;--"},
            {"SQL or", "\" OR 1=1 --"},
            {"fullwidth semicolon", "x\xef\xbc\x9btouch @C@"},
            {"fullwidth dollar", "\xef\xbc\x84(touch @C@)"},
            {"right-to-left override", "x\xe2\x80\xaeyz"},
            {"zero width space", "x\xe2\x80\x8by"},
            {"printf specifiers", "%n%s%x%p"},
            {"fmt braces", "{} {0} {:>99999999}"},
            {"Slurm filename patterns", "%j-%u-%x-%A"},
            {"percent", "%%"},
            {"terminal escape", "\x1b]0;owned\x07"},
            {"DEL", "x\x7fy"},
            {"assignment", "A=b"},
        };
        std::vector<Payload> out;
        for (const auto& p : templates)
            out.push_back({p.label, replaced(p.text, "@C@", sandbox().canary().string())});
        return out;
    }();
    return list;
}

void note(const Payload& p, const std::string& field, const std::string& outcome, const std::string& detail) {
    report().rows.push_back({p.text, p.label, field, outcome, detail});
}

// ---- Plans and the store ----------------------------------------------------------------------------------

std::pair<std::string, int> planWith(const std::string& line, bool top, const std::string& workload) {
    std::string text = "# injection\n";
    if (!top || !line.starts_with("name")) text += "name = \"injection\"\n";
    const int at = top ? 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n')) : 0;
    if (top) text += line + "\n";
    text += "\n[[run]]\nworkload = \"" + workload + "\"\nranks = [1]\n";
    if (!top) text += line + "\n";
    return {text, top ? at : static_cast<int>(std::count(text.begin(), text.end(), '\n'))};
}

std::string refusal(const std::function<void()>& parse, const std::string& key, int line) {
    try {
        parse();
    } catch (const PlanError& e) {
        const std::string message = e.what();
        INFO(message);
        if (e.key() != key) { // only where no key can be named: the TOML itself does not read
            CHECK(e.key().empty());
            CHECK(e.line() == line);
            CHECK_THAT(message, Catch::Contains("not valid TOML"));
        }
        CHECK_FALSE(message.empty());
        return message;
    }
    return "";
}

std::string SweepStore::schemaOf(const fs::path& file) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, "SELECT group_concat(sql, ';') FROM sqlite_master ORDER BY name", -1, &s, nullptr);
    std::string schema;
    if (s && sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
        schema = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    sqlite3_close(db);
    return schema;
}

SweepStore::SweepStore()
    : store((fs::create_directories(file.parent_path()), file)), schema(schemaOf(file)) {}

SweepStore& sweepStore() {
    static SweepStore s;
    return s;
}

// ---- Launches ---------------------------------------------------------------------------------------------

LocalLaunch launchHere(const RunPlan& plan, const fs::path& out_dir, const std::string& engine) {
    SessionStore& store = sweepStore().store;
    ShadowedCommands shadowed;
    sandbox().forget();
    const auto before = sandbox().tree();
    LocalScheduler scheduler;
    LocalTransport transport;
    SessionRunner real(store, scheduler, transport,
                       {{localMachine(), engine, std::filesystem::path(out_dir).string(), {}},
                        std::chrono::milliseconds(10)},
                       [](const std::string&) {});
    const SessionOutcome outcome = real.run(plan);
    LocalLaunch launch;
    launch.session = *store.session(outcome.session_id);
    launch.row = store.runs(outcome.session_id).at(0);
    launch.argv = sandbox().argv("mpirun").value_or(std::vector<std::string>{"(mpirun never ran)"});
    launch.escaped = escapedPaths(before, {fs::absolute(out_dir), sweepStore().file.parent_path()});
    sandbox().forget();
    if (!launch.row.command.empty()) {
        transport.run(launch.row.command);
        launch.replayed = sandbox().argv("mpirun").value_or(std::vector<std::string>{"(never ran)"});
    }
    removeNew(before);
    return launch;
}

std::string after(const std::vector<std::string>& argv, const std::string& option) {
    const auto it = std::find(argv.begin(), argv.end(), option);
    return it == argv.end() || it + 1 == argv.end() ? "(no " + option + ")" : *(it + 1);
}

ClusterSettings sweepCluster() {
    ClusterSettings c;
    c.name = "sweep";
    c.host = "head";
    c.remote_root = (sandbox().folder.path / "remote").string();
    c.time_limit = "10";
    return c;
}

SlurmLaunch launchOnSlurm(const ClusterSettings& cluster, const RunSpec& run) {
    static std::int64_t launches = 0;
    ShadowedCommands shadowed;
    sandbox().forget();
    const auto before = sandbox().tree();
    SlurmLaunch launch;
    const std::string root = fs::absolute(cluster.remote_root).string();
    const LaunchSite site{
        cluster,
        deployedEngine(cluster.remote_root, "HASH"),
        cluster.remote_root + "/sessions",
        {"STORE", ++launches, "UUID"}}; // a session of its own: run folders are never reused
    try {
        LocalTransport transport;
        SlurmScheduler slurm(transport, cluster);
        const JobRequest job = jobRequestFor(run, site);
        launch.script = slurm.commandLine(job);
        const std::string id = slurm.submit(job);
        slurm.poll({id});
    } catch (const std::exception& e) {
        launch.error = e.what();
    }
    launch.srun = sandbox()
                      .argv(cluster.launcher == ClusterSettings::Launcher::Mpirun ? "mpirun" : "srun")
                      .value_or(std::vector<std::string>{});
    const std::string launcher = cluster.launcher == ClusterSettings::Launcher::Mpirun ? "mpirun" : "srun";
    launch.injected = sandbox().variable(launcher, "INJECTED");
    launch.nccl_injected = sandbox().variable(launcher, "NCCL_INJECTED");
    launch.canary = fs::exists(sandbox().canary());
    launch.escaped = escapedPaths(before, {root});
    removeNew(before);
    return launch;
}

} // namespace scalebench::injection
