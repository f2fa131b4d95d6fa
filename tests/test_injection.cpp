// Injection: hostile text through every field a user controls that reaches a shell, a job script, a file name
// or SQL. Each is refused with a message naming its field, or arrives where it goes as exactly what was
// written: nothing it says runs, and nothing is written outside the folder it names.
//
// The fields, and where each goes (read from the code: core/run_plan.cpp, core/cluster_settings.cpp,
// core/job_request.cpp, remote/slurm_job_script.cpp, remote/local_mpirun_arguments.cpp,
// remote/slurm_scheduler.cpp, remote/engine_deployment.cpp, control/session_runner.cpp,
// control/console_options.cpp, core/session_store.cpp):
//   plan file     name            SQL (sessions.name), progress lines; the plan builder writes it back as
//   TOML
//                 description     SQL (sessions.plan_text, the plan as read); the plan builder writes it back
//                 [[run]] workload, dataset, preset, backend, device, precision, collectives (choices): the
//                 run's
//                                 name, hence its folder, and the engine's argv; key names (unknown keys)
//                 data_dir        the engine's argv (--data-dir, under the cluster's data_root): mpirun's
//                 argv
//                                 here, the srun/mpirun line of the sbatch script on a cluster; SQL
//                                 (runs.command)
//                 env names       `mpirun -x NAME=value` here, `export NAME='value'` in the sbatch script
//                 env values      the same
//   cluster file  name            SQL (clusters.name), --cluster lookups
//                 host, user      libssh (and ssh's ProxyCommand, where a ssh config's ProxyCommand takes %h
//                 %r) identity_files, known_hosts: libssh's file paths (known_hosts also a jump host's ssh
//                 -o) remote_root     shell commands on the head (mkdir -p, cd, tar, test -x, tail), the
//                 script's
//                                 `cd RUN_DIR`, the engine's path in every job, the engine's build job
//                 torch_python    the build job's `command -v PYTHON`; the --check script's argument
//                 data_root       the engine's argv (--data-dir)
//                 partition, account, constraint, time_limit: #SBATCH lines (partition: scontrol show
//                 partition) setup           shell lines of every job: shell code by design, run as written
//                 nccl_env names and values: `export NAME='value'` lines of every job
//                 container_image srun's argv (--container-image=IMAGE)
//                 jobcomp_log     `tail -n 10000 FILE` on the head
//                 launcher        a choice
//                 all of them     SQL (clusters.settings_json, sessions.cluster_json)
//   command line  --out           run folders (mkdir -p, mkdir), results.csv; --db the store's file;
//                 --cluster       an SQL lookup; --engine the program every rank runs (mpirun's argv)
//
// Shell forms are executed by the real /bin/sh and /bin/bash with the scheduler's commands (mpirun, srun,
// sbatch, squeue, sacct, scontrol, cmake) shadowed on PATH by recorders that write the argv they were given;
// every executing payload touches a canary file in a watched folder, whose whole tree is compared before and
// after. SCALEBENCH_INJECTION_REPORT=FILE writes every payload x field with its outcome (bench/results/).
#include "child_process.h"
#include "cluster_settings.h"
#include "console_options.h"
#include "console_run.h"
#include "engine_deployment.h"
#include "file_text.h"
#include "job_preview.h"
#include "job_request.h"
#include "local_mpirun_arguments.h"
#include "local_scheduler.h"
#include "local_transport.h"
#include "plan_writer.h"
#include "run_plan.h"
#include "session_runner.h"
#include "session_site.h"
#include "session_store.h"
#include "shell_words.h"
#include "slurm_job_script.h"
#include "slurm_scheduler.h"
#include "ssh_transport.h"
#include "temporary_folder.h"

#include <QString>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sqlite3.h>
#include <sstream>
#include <unistd.h>

using namespace scalebench;
namespace fs = std::filesystem;

namespace {

// ---- The watched folder: canary, recorders, and what was there before -------------------------------------

// Where everything of the sweep happens; a payload that runs touches canary().
struct Sandbox {
    TemporaryFolder folder;
    fs::path bin() const { return folder.path / "bin"; }
    fs::path records() const { return folder.path / "records"; }
    fs::path canary() const { return folder.path / "canary"; }
    // The working folder of commands: deep enough that ../../.. stays inside the sandbox.
    fs::path home() const { return folder.path / "home" / "a" / "b" / "c" / "d"; }

    Sandbox() {
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
    void shim(const std::string& name, const std::string& text) const {
        std::ofstream(bin() / name) << text;
        fs::permissions(bin() / name, fs::perms::owner_all);
    }
    // What a recorder was given, and forget it.
    std::optional<std::vector<std::string>> argv(const std::string& name) const {
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
    std::optional<std::string> variable(const std::string& program, const std::string& name) const {
        const fs::path file = records() / (program + "." + name);
        if (!fs::exists(file)) return std::nullopt;
        return fileText(file);
    }
    void forget() const {
        fs::remove_all(records());
        fs::create_directories(records());
        fs::remove(canary());
    }
    // Every path in the sandbox but the recorders' own.
    std::set<fs::path> tree() const {
        std::set<fs::path> paths;
        for (auto it = fs::recursive_directory_iterator(folder.path);
             it != fs::recursive_directory_iterator(); ++it)
            if (!it->path().string().starts_with(records().string())) paths.insert(it->path());
        return paths;
    }
};

Sandbox& sandbox() {
    static Sandbox s;
    return s;
}

// The scheduler's commands resolve to the recorders, commands run in the sandbox's home, while it lives.
class ShadowedCommands {
  public:
    ShadowedCommands() : path_(std::getenv("PATH")), cwd_(fs::current_path()) {
        setenv("PATH", (sandbox().bin().string() + ":" + path_).c_str(), 1);
        setenv("SCALEBENCH_RECORDS", sandbox().records().c_str(), 1);
        fs::current_path(sandbox().home());
    }
    ~ShadowedCommands() {
        setenv("PATH", path_.c_str(), 1);
        fs::current_path(cwd_);
    }

  private:
    std::string path_;
    fs::path cwd_;
};

// Paths new in the sandbox that are neither under one of `allowed` nor a folder on the way to one (mkdir -p
// makes each folder its path names: "a/tmp/../etc" makes a/tmp too).
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

// Removes what is new in the sandbox (a launch's folders) but the sweep's store: the next launch's comparison
// reads a small tree.
void removeNew(const std::set<fs::path>& before) {
    const std::string store = (sandbox().folder.path / "store").string();
    for (const auto& p : sandbox().tree()) {
        std::error_code ignored;
        if (!before.contains(p) && !p.string().starts_with(store)) fs::remove_all(p, ignored);
    }
}

// ---- Payloads ---------------------------------------------------------------------------------------------

struct Payload {
    std::string label;
    std::string text;
};

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
        text.replace(at, from.size(), to);
    return text;
}

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

// ---- The report -------------------------------------------------------------------------------------------

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

void note(const Payload& p, const std::string& field, const std::string& outcome, const std::string& detail) {
    report().rows.push_back({p.text, p.label, field, outcome, detail});
}

// ---- Plans ------------------------------------------------------------------------------------------------

// A plan of one run with `line` in its [[run]] table (or at the top with `top`), and the line it is on.
std::pair<std::string, int> planWith(const std::string& line, bool top = false,
                                     const std::string& workload = "resnet20") {
    std::string text = "# injection\n";
    if (!top || !line.starts_with("name")) text += "name = \"injection\"\n";
    const int at = top ? 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n')) : 0;
    if (top) text += line + "\n";
    text += "\n[[run]]\nworkload = \"" + workload + "\"\nranks = [1]\n";
    if (!top) text += line + "\n";
    return {text, top ? at : static_cast<int>(std::count(text.begin(), text.end(), '\n'))};
}

// Refused naming the key; where the TOML itself cannot be read (there is no key yet to name), refused as
// not valid TOML at the key's line. The message, else "".
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

// The store every plan and cluster of the sweep goes into, and what its schema was at the start.
struct SweepStore {
    fs::path file = sandbox().folder.path / "store" / "sessions.db";
    SessionStore store;
    std::string schema;
    // Every table's and index's CREATE statement.
    static std::string schemaOf(const fs::path& file) {
        sqlite3* db = nullptr;
        sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
        sqlite3_stmt* s = nullptr;
        sqlite3_prepare_v2(db, "SELECT group_concat(sql, ';') FROM sqlite_master ORDER BY name", -1, &s,
                           nullptr);
        std::string schema;
        if (s && sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
            schema = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
        sqlite3_finalize(s);
        sqlite3_close(db);
        return schema;
    }
    SweepStore() : store((fs::create_directories(file.parent_path()), file)), schema(schemaOf(file)) {}
};

SweepStore& sweepStore() {
    static SweepStore s;
    return s;
}

// The run through the real SessionRunner on this machine (LocalTransport, LocalScheduler, mpirun a recorder):
// what mpirun was given, the stored run, and the command stored for it run again by /bin/sh.
struct LocalLaunch {
    std::vector<std::string> argv, replayed;
    RunRow row;
    SessionRow session;
    std::vector<std::string> escaped;
};

LocalLaunch launchHere(const RunPlan& plan, const fs::path& out_dir, const std::string& engine) {
    SessionStore& store = sweepStore().store;
    ShadowedCommands shadowed;
    sandbox().forget();
    const auto before = sandbox().tree();
    LocalScheduler scheduler;
    LocalTransport transport;
    SessionRunner real(store, scheduler, transport, {engine, out_dir, std::chrono::milliseconds(10)},
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

// The words after `option` in argv.
std::string after(const std::vector<std::string>& argv, const std::string& option) {
    const auto it = std::find(argv.begin(), argv.end(), option);
    return it == argv.end() || it + 1 == argv.end() ? "(no " + option + ")" : *(it + 1);
}

// A cluster of the sweep: every job's files under the sandbox.
ClusterSettings sweepCluster() {
    ClusterSettings c;
    c.name = "sweep";
    c.host = "head";
    c.remote_root = (sandbox().folder.path / "remote").string();
    c.time_limit = "10";
    return c;
}

// The job through the real SlurmScheduler over LocalTransport: sbatch (a recorder) runs the script with the
// real bash; what srun was given and the variables it saw.
struct SlurmLaunch {
    std::string error; // submit's or poll's refusal
    std::vector<std::string> srun;
    std::optional<std::string> injected, nccl_injected;
    std::string script;
    std::vector<std::string> escaped;
    bool canary = false;
};

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

} // namespace

TEST_CASE("every payload in a free-text plan key is stored and written back byte for byte", "[integration]") {
    for (const auto& p : payloads()) {
        for (const std::string key : {"name", "description"}) {
            INFO(key << " = " << p.label);
            const std::string field = "plan " + key;
            const auto [text, line] = planWith(key + " = " + tomlString(p.text), true);
            RunPlan plan;
            if (const std::string why = refusal([&] { plan = parsePlanText(text, "p.toml"); }, key, line);
                !why.empty()) {
                note(p, field, "refused", why);
                continue;
            }
            const std::string value = key == "name" ? plan.name : plan.description;
            CHECK(value == p.text);
            // SQL: the name and the plan's text come back from the store as they went in.
            SessionStore& store = sweepStore().store;
            const std::int64_t id = store.createSession(plan.name, plan.source_text, "local");
            const auto row = store.session(id);
            REQUIRE(row);
            CHECK(row->name == plan.name);
            CHECK(row->plan_text == text);
            // The plan builder's TOML reads back to the same text.
            const RunPlan again = parsePlanText(writePlanToml(plan), "written.toml");
            CHECK((key == "name" ? again.name : again.description) == p.text);
            const bool intact = row->name == plan.name && row->plan_text == text &&
                                (key == "name" ? again.name : again.description) == p.text;
            note(p, field, intact ? "quoted" : "ALTERED",
                 intact ? "SQL round trip and plan writer round trip byte for byte"
                        : "stored or written back otherwise");
        }
    }
    CHECK(SweepStore::schemaOf(sweepStore().file) == sweepStore().schema);
}

TEST_CASE("every payload in a plan key that must be one of a list is refused naming the key",
          "[integration]") {
    struct Key {
        std::string key, line, workload;
    };
    for (const auto& p : payloads()) {
        const std::string q = tomlString(p.text);
        for (const Key& k : std::vector<Key>{{"workload", "workload = " + q, ""},
                                             {"dataset", "dataset = " + q, "resnet20"},
                                             {"preset", "preset = " + q, "llama"},
                                             {"backend", "backend = " + q, "resnet20"},
                                             {"device", "device = " + q, "resnet20"},
                                             {"precision", "precision = " + q, "resnet20"},
                                             {"collectives", "collectives = [" + q + "]", "allreduce-sweep"},
                                             {"[[run]] key names", q + " = 1", "resnet20"},
                                             {"env", "env = { " + q + " = \"v\" }", "resnet20"}}) {
            INFO(k.key << " = " << p.label);
            std::string text = "name = \"injection\"\n\n[[run]]\nranks = [1]\n" +
                               (k.workload.empty() ? "" : "workload = \"" + k.workload + "\"\n") + k.line +
                               "\n";
            const int line = k.workload.empty() ? 5 : 6;
            const std::string key = k.key == "[[run]] key names" ? p.text : k.key;
            const std::string why = refusal([&] { parsePlanText(text, "p.toml"); }, key, line);
            if (why.empty() && k.key == "env" && isEnvironmentVariableName(p.text)) {
                note(p, "plan env name", "accepted", "a variable name a shell accepts (letters only)");
                continue;
            }
            CHECK_FALSE(why.empty());
            note(p, "plan " + (k.key == "env" ? std::string("env name") : k.key),
                 why.empty() ? "ACCEPTED" : "refused", why);
        }
    }
}

TEST_CASE("every payload in a plan's data_dir or env value reaches the engine as one word, here and on Slurm",
          "[integration]") {
    const ClusterSettings cluster = sweepCluster();
    const std::string engine = (sandbox().bin() / "engine").string();
    for (const auto& p : payloads()) {
        for (const std::string key : {"data_dir", "env"}) {
            INFO(key << " = " << p.label);
            const std::string field = key == "env" ? "plan env value" : "plan data_dir";
            const auto [text, line] =
                planWith(key == "env" ? "env = { INJECTED = " + tomlString(p.text) + " }"
                                      : "data_dir = " + tomlString(p.text));
            RunPlan plan;
            if (const std::string why = refusal([&] { plan = parsePlanText(text, "p.toml"); }, key, line);
                !why.empty()) {
                note(p, field, "refused", why);
                continue;
            }
            const RunSpec run = expandPlan(plan).at(0);
            // Here: mpirun's argv as the runner spawns it, and the stored command run again by /bin/sh.
            const fs::path out = sandbox().folder.path / "out";
            const LocalLaunch here = launchHere(plan, out, engine);
            const std::string expected_dir = key == "env" ? SCALEBENCH_DATA_ROOT "/fashion-mnist"
                                             : p.text.starts_with("/")
                                                 ? p.text
                                                 : std::string(SCALEBENCH_DATA_ROOT) + "/" + p.text;
            CHECK(after(here.argv, "--data-dir") == expected_dir);
            CHECK(here.replayed == here.argv);
            if (key == "env") CHECK(after(here.argv, "-x") == "INJECTED=" + p.text);
            CHECK(here.escaped.empty());
            CHECK_FALSE(fs::exists(sandbox().canary()));
            // On Slurm: the script run by bash, srun's argv and the variable its ranks get.
            const SlurmLaunch slurm = launchOnSlurm(cluster, run);
            INFO(slurm.error);
            CHECK(slurm.error.empty());
            CHECK(
                after(slurm.srun, "--data-dir") ==
                (p.text.starts_with("/") || key == "env" ? expected_dir : cluster.data_root + "/" + p.text));
            if (key == "env") CHECK(slurm.injected == p.text);
            CHECK_FALSE(slurm.canary);
            CHECK(slurm.escaped.empty());
            const bool intact = after(here.argv, "--data-dir") == expected_dir &&
                                here.replayed == here.argv && here.escaped.empty() && !slurm.canary &&
                                slurm.escaped.empty() && slurm.error.empty() &&
                                (key != "env" || slurm.injected == p.text);
            note(p, field, intact ? "quoted" : "BROKEN",
                 intact
                     ? "one argv word byte for byte: mpirun here (and the stored command replayed by sh), "
                       "srun from the sbatch script run by bash; no canary, no file outside the run's folder"
                     : "argv or files differ: " + slurm.error);
        }
    }
}

namespace {

// A cluster file of one [[cluster]] with `line` last, the sweep's settings for the keys before it (all but
// `key`), and the line it is on.
std::pair<std::string, int> clusterWith(const std::string& key, const std::string& line) {
    const ClusterSettings c = sweepCluster();
    std::string text = "[[cluster]]\n";
    int at = 2;
    for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{{"name", c.name},
                                                                               {"host", c.host},
                                                                               {"remote_root", c.remote_root},
                                                                               {"time_limit", c.time_limit}})
        if (k != key) text += k + " = " + tomlString(v) + "\n", ++at;
    return {text + line + "\n", at};
}

// A value for a path that is written to, placed in the sandbox: an absolute one under sandbox/root, a
// relative one relative to the sandbox's home (where commands run).
std::string placed(const std::string& path) {
    return path.starts_with("/") ? (sandbox().folder.path / "root").string() + path : path;
}

// A run of the sweep: resnet20 on fashion-mnist at one rank.
RunSpec sweepRun() {
    return expandPlan(parsePlanText(planWith("steps = 1").first, "sweep.toml")).at(0);
}

// The engine's deployment over LocalTransport with the recorders: the sources packed (a skeleton of the
// engine's), unpacked in REMOTE_ROOT/engine/HASH, the build job's script run by bash through srun, its cmake
// a recorder; then the build is found missing (cmake built nothing) and refused with its log.
struct DeployLaunch {
    std::string error;
    std::vector<std::string> cmake;
    std::vector<std::string> escaped;
    bool canary = false;
};

DeployLaunch deploy(const ClusterSettings& cluster) {
    const fs::path sources = sandbox().folder.path / "sources";
    for (const auto& f : {sources / "cmake", sources / "protocol", sources / "trainers"})
        fs::create_directories(f);
    std::ofstream(sources / "CMakeLists.txt") << "# skeleton\n";
    ShadowedCommands shadowed;
    sandbox().forget();
    const auto before = sandbox().tree();
    DeployLaunch launch;
    try {
        LocalTransport transport;
        SlurmScheduler slurm(transport, cluster);
        EngineDeployment(transport, slurm, cluster, sources)
            .ensure([](const std::string&) {}, std::chrono::seconds(30), std::chrono::seconds(3600));
    } catch (const std::exception& e) {
        launch.error = e.what();
    }
    launch.cmake = sandbox().argv("cmake").value_or(std::vector<std::string>{});
    launch.canary = fs::exists(sandbox().canary());
    launch.escaped = escapedPaths(before, {fs::absolute(cluster.remote_root)});
    removeNew(before);
    return launch;
}

// The number of #SBATCH directives sbatch reads: those before the script's first command.
int directiveCount(const std::string& script) {
    std::istringstream in(script);
    int count = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("#SBATCH"))
            ++count;
        else if (!line.starts_with("#") && !line.empty())
            break;
    }
    return count;
}

} // namespace

TEST_CASE("every payload in every cluster setting is refused naming the key, or reaches its job as written",
          "[integration]") {
    const std::vector<std::string> keys = {
        "name",      "host",           "user",          "identity_files",  "known_hosts", "remote_root",
        "data_root", "torch_python",   "partition",     "account",         "constraint",  "time_limit",
        "setup",     "nccl_env value", "nccl_env name", "container_image", "jobcomp_log", "launcher"};
    const int base_directives = directiveCount(renderSbatchScript(
        sweepCluster(), jobRequestFor(sweepRun(), {sweepCluster(), "engine", "/r/sessions", {"S", 1, "U"}})));
    for (const auto& p : payloads()) {
        const std::string q = tomlString(p.text);
        for (const auto& key : keys) {
            INFO(key << " = " << p.label);
            const std::string field = "cluster " + key;
            const std::string toml_key = key.starts_with("nccl_env") ? "nccl_env" : key;
            const std::string line = key == "identity_files" || key == "setup" ? key + " = [" + q + "]"
                                     : key == "nccl_env value" ? "nccl_env = { NCCL_INJECTED = " + q + " }"
                                     : key == "nccl_env name"  ? "nccl_env = { " + q + " = \"1\" }"
                                                               : key + " = " + q;
            const auto [text, at] = clusterWith(key, line);
            ClusterSettings c;
            if (const std::string why =
                    refusal([&] { c = parseClusterText(text, "clusters.toml").at(0); }, toml_key, at);
                !why.empty()) {
                note(p, field, "refused", why);
                continue;
            }
            // Kept in the store as JSON: the same settings come back.
            SessionStore& store = sweepStore().store;
            store.saveCluster(c);
            const auto kept = store.cluster(c.name);
            REQUIRE(kept);
            CHECK(clusterToJson(*kept) == clusterToJson(c));
            bool intact = clusterToJson(*kept) == clusterToJson(c);
            std::string how = "kept in the store as written (JSON in SQL)";
            const RunSpec run = sweepRun();
            if (p.text.empty() &&
                (key == "user" || key == "partition" || key == "account" || key == "constraint" ||
                 key == "time_limit" || key == "container_image" || key == "jobcomp_log")) {
                note(p, field, "default", "empty: none, the default (no directive, no option, no command)");
                continue;
            } else if (key == "remote_root" || key == "torch_python") {
                ClusterSettings used = c;
                // Absolute, as clusterSite makes it (`mkdir -p ROOT && cd ROOT && pwd` on the head, over
                // SSH).
                used.remote_root = (sandbox().home() / placed(c.remote_root)).lexically_normal().string();
                // The engine's folder is named by its sources' hash: a build job of its own for each payload.
                static int builds = 0;
                if (key == "torch_python")
                    used.remote_root =
                        (sandbox().folder.path / ("remote-" + std::to_string(++builds))).string();
                const SlurmLaunch job = launchOnSlurm(used, run);
                std::string outside;
                for (const auto& path : job.escaped)
                    outside += "\noutside: " + path;
                INFO(job.error << "\n" << job.script << outside);
                const std::string engine = deployedEngine(used.remote_root, "HASH");
                CHECK(job.error.empty());
                CHECK(std::find(job.srun.begin(), job.srun.end(), engine) != job.srun.end());
                const DeployLaunch build = deploy(used);
                INFO(build.error);
                CHECK(build.error.find("did not finish") == std::string::npos);
                REQUIRE_FALSE(build.cmake.empty());
                // What bash's `command -v` says for that very word, handed over as an argument (no quoting).
                const fs::path said = sandbox().folder.path / "command-v";
                ChildProcess({"/bin/bash", "-c", "command -v \"$1\"", "-", c.torch_python}, said.string(),
                             "/dev/null")
                    .wait();
                std::string python = fileText(said);
                if (!python.empty() && python.back() == '\n') python.pop_back();
                CHECK(build.cmake.back() == "-DSCALEBENCH_PYTHON=" + python);
                CHECK_FALSE(job.canary);
                CHECK_FALSE(build.canary);
                CHECK(job.escaped.empty());
                CHECK(build.escaped.empty());
                intact = intact && job.error.empty() && !job.canary && !build.canary && job.escaped.empty() &&
                         build.escaped.empty() && build.cmake.back() == "-DSCALEBENCH_PYTHON=" + python;
                how += "; the run's job (mkdir, cd, sbatch) and the engine's deployment (mkdir, tar, test, "
                       "the build job's cmake) run by sh and bash: no canary, files only under remote_root";
            } else if (key == "data_root" || key == "container_image" || key == "nccl_env value" ||
                       key == "partition" || key == "account" || key == "constraint" || key == "time_limit") {
                const SlurmLaunch job = launchOnSlurm(c, run);
                INFO(job.error << "\n" << job.script);
                CHECK(job.error.empty());
                CHECK_FALSE(job.canary);
                CHECK(job.escaped.empty());
                intact = intact && job.error.empty() && !job.canary && job.escaped.empty();
                if (key == "data_root") {
                    CHECK(after(job.srun, "--data-dir") == c.data_root + "/fashion-mnist");
                    intact = intact && after(job.srun, "--data-dir") == c.data_root + "/fashion-mnist";
                } else if (key == "container_image") {
                    const bool found = std::find(job.srun.begin(), job.srun.end(),
                                                 "--container-image=" + p.text) != job.srun.end();
                    CHECK(found);
                    intact = intact && found;
                } else if (key == "nccl_env value") {
                    CHECK(job.nccl_injected == p.text);
                    intact = intact && job.nccl_injected == p.text;
                } else {
                    const std::string directive =
                        "#SBATCH --" + (key == "time_limit" ? "time" : key) + "=" + p.text;
                    const bool found = job.script.find(directive + "\n") != std::string::npos;
                    CHECK(found);
                    CHECK(directiveCount(job.script) == base_directives + (key == "time_limit" ? 0 : 1));
                    intact = intact && found;
                }
                how +=
                    "; its job's script run by bash with srun a recorder: one word (one directive), byte for "
                    "byte, no canary";
            } else if (key == "jobcomp_log") {
                ShadowedCommands shadowed;
                sandbox().forget();
                setenv("SCALEBENCH_NO_ACCOUNTING", "1", 1);
                LocalTransport transport;
                SlurmScheduler slurm(transport, c);
                slurm.poll({"4242"});
                unsetenv("SCALEBENCH_NO_ACCOUNTING");
                const auto tail = sandbox().argv("tail").value_or(std::vector<std::string>{});
                CHECK(tail == std::vector<std::string>{"-n", "10000", p.text});
                CHECK_FALSE(p.text.starts_with("-")); // tail would read it as an option: -f follows forever
                CHECK_FALSE(fs::exists(sandbox().canary()));
                intact = intact && tail == std::vector<std::string>{"-n", "10000", p.text} &&
                         !p.text.starts_with("-") && !fs::exists(sandbox().canary());
                how += "; tail -n 10000 FILE run by sh: the file one word";
            } else if (key == "setup") {
                const std::string script =
                    renderSbatchScript(c, jobRequestFor(run, {c, "e", "/r", {"S", 1, "U"}}));
                CHECK(script.find("\n" + p.text + "\n") != std::string::npos);
                CHECK(directiveCount(script) == base_directives);
                how += "; shell code by design: written as one line after the directives (adds none), run as "
                       "written";
            } else if (key == "host" || key == "user") {
                // An ssh config whose ProxyCommand takes the host and the login (%h, %r), run by libssh's
                // shell.
                const fs::path config = sandbox().folder.path / "ssh_config";
                std::ofstream(config) << "Host *\n  ProxyCommand /bin/true %h %r\n";
                sandbox().forget();
                SshSettings ssh = sshSettings(c);
                ssh.config_file = config.string();
                ssh.known_hosts_file = (sandbox().folder.path / "known_hosts").string();
                ssh.connect_timeout_s = 2;
                ssh.max_reconnects = 0;
                try {
                    SshTransport connection(ssh);
                } catch (const std::exception&) {
                    // /bin/true is no ssh server: the connection fails, after the command ran
                }
                CHECK_FALSE(fs::exists(sandbox().canary()));
                intact = intact && !fs::exists(sandbox().canary());
                how += "; libssh's option, and %h %r of a ssh config's ProxyCommand run by sh: no canary";
            } else if (key == "identity_files" || key == "known_hosts") {
                how += "; reaches libssh as a file path (no shell)";
            }
            // setup is shell code the user writes; key files and known_hosts are paths libssh opens.
            const std::string accepted = key == "setup"                                    ? "shell code"
                                         : key == "identity_files" || key == "known_hosts" ? "libssh path"
                                                                                           : "quoted";
            note(p, field, intact ? accepted : "BROKEN", how);
        }
    }
    CHECK(SweepStore::schemaOf(sweepStore().file) == sweepStore().schema);
}

TEST_CASE("every payload in the command line's paths and names is refused, or names exactly that file",
          "[integration]") {
    const RunPlan plan = parsePlanText(planWith("steps = 1").first, "sweep.toml");
    for (const auto& p : payloads()) {
        for (const std::string option : {"out", "db", "engine", "cluster"}) {
            INFO("--" << option << " " << p.label);
            const std::string field = "--" + option;
            if (p.text.find('\0') != std::string::npos) {
                note(p, field, "unreachable", "a program's arguments are C strings: no NUL reaches them");
                continue;
            }
            ConsoleOptions o;
            try {
                o = parseConsoleOptions({"run", "plan.toml", "--" + option, p.text});
            } catch (const ConsoleUsageError& e) {
                CHECK(std::string(e.what()).find(option) != std::string::npos);
                note(p, field, "refused", e.what());
                continue;
            }
            const std::string value = option == "out"      ? o.out_dir.string()
                                      : option == "db"     ? o.db.string()
                                      : option == "engine" ? o.engine
                                                           : o.cluster;
            if (value != p.text) {
                // Qt reads the command line as UTF-8: bytes that are not become U+FFFD.
                CHECK_FALSE(QString::fromStdString(p.text).toStdString() == p.text);
                note(p, field, "altered",
                     "read by Qt as UTF-8: invalid bytes become U+FFFD (another name, "
                     "in the same folder)");
                continue;
            }
            std::string how;
            bool intact = true;
            if (option == "out" || option == "engine") {
                // As localSite() takes them where the console runs: the sessions' root absolute, the engine
                // absolute where it is a path.
                const fs::path out = sandbox().home() / (option == "out" ? placed(value) : "../out");
                std::string engine = (sandbox().bin() / "engine").string();
                if (option == "engine") {
                    ShadowedCommands in_home;
                    engine = localEnginePath(placed(value));
                }
                const LocalLaunch here = launchHere(plan, out, engine);
                std::string outside;
                for (const auto& path : here.escaped)
                    outside += "\noutside: " + path;
                INFO(here.row.error << outside);
                const auto workload = std::find(here.argv.begin(), here.argv.end(), "--workload");
                const std::string program =
                    workload == here.argv.begin() || workload == here.argv.end() ? "(none)" : *(workload - 1);
                const std::string& expected = engine;
                CHECK(program == expected);
                CHECK(here.replayed == here.argv);
                CHECK(here.escaped.empty());
                CHECK_FALSE(fs::exists(sandbox().canary()));
                intact = program == expected && here.replayed == here.argv && here.escaped.empty();
                how = option == "out"
                          ? "the run's folder made under it by sh (mkdir, quoted), mpirun started "
                            "there; no file outside it, no canary"
                          : "mpirun's program, one word (the stored command replayed by sh too)";
                if (!here.row.error.empty()) how += "; the run failed with: " + here.row.error;
            } else if (option == "db") {
                ShadowedCommands shadowed;
                const auto before = sandbox().tree();
                const fs::path file = placed(value);
                std::string error;
                try {
                    if (file.has_parent_path()) fs::create_directories(file.parent_path());
                    SessionStore store(file);
                    store.createSession(p.text, p.text, p.text);
                } catch (const std::exception& e) {
                    error = e.what();
                }
                const auto escaped = escapedPaths(before, {fs::absolute(file).parent_path()});
                CHECK(escaped.empty());
                intact = escaped.empty();
                removeNew(before);
                how = error.empty() ? "the store made at exactly that path" : "refused by SQLite: " + error;
            } else {
                SessionStore& store = sweepStore().store;
                const auto names = store.clusterNames();
                // The cluster sweep kept clusters under some of these names ("-rf", "."): found by exactly
                // that name.
                const auto found = store.cluster(value);
                CHECK((!found || found->name == value));
                CHECK(store.clusterNames() == names);
                intact = (!found || found->name == value) && store.clusterNames() == names;
                how = "an SQL parameter: the cluster of exactly that name or none, the clusters table "
                      "unchanged";
            }
            note(p, field, intact ? "quoted" : "BROKEN", how);
        }
    }
    CHECK(SweepStore::schemaOf(sweepStore().file) == sweepStore().schema);
}

TEST_CASE(
    "payloads in a plan's name, data_dir, env and --out reach the program as written through scalebench run",
    "[integration]") {
    // The real console and the real mpirun; the program every rank runs is a recorder (--engine).
    for (const std::string label : {"command substitution", "backticks", "IFS", "single quote break",
                                    "double quote break", "SQL drop", "Slurm filename patterns"}) {
        const Payload& p = *std::find_if(payloads().begin(), payloads().end(),
                                         [&](const Payload& x) { return x.label == label; });
        INFO(p.label);
        TemporaryFolder folder;
        sandbox().forget();
        const auto before = sandbox().tree();
        const fs::path out = sandbox().folder.path / ("out " + p.text.substr(0, 20));
        const std::string data_dir = "data " + p.text;
        const std::string env_value = p.text;
        std::ofstream(folder.path / "plan.toml")
            << "name = " << tomlString("e2e " + p.text) << "\n[[run]]\nworkload = \"resnet20\"\nranks = [1]\n"
            << "data_dir = " << tomlString(data_dir) << "\nenv = { INJECTED = " << tomlString(env_value)
            << " }\n";
        setenv("SCALEBENCH_RECORDS", sandbox().records().c_str(), 1);
        const ConsoleRun run =
            runConsole(folder, {"run", (folder.path / "plan.toml").string(), "--out", out.string(), "--db",
                                (folder.path / "s.db").string(), "--engine",
                                (sandbox().bin() / "engine").string(), "--poll-ms", "20"});
        INFO(run.printed());
        CHECK(run.exit_status == 0);
        const auto argv = sandbox().argv("engine").value_or(std::vector<std::string>{});
        CHECK(after(argv, "--data-dir") == std::string(SCALEBENCH_DATA_ROOT) + "/" + data_dir);
        CHECK(sandbox().variable("engine", "INJECTED") == env_value);
        CHECK_FALSE(fs::exists(sandbox().canary()));
        const auto escaped = escapedPaths(before, {out});
        CHECK(escaped.empty());
        SessionStore store(folder.path / "s.db");
        CHECK(store.sessions().at(0).name == "e2e " + p.text);
        const bool intact = run.exit_status == 0 &&
                            after(argv, "--data-dir") == std::string(SCALEBENCH_DATA_ROOT) + "/" + data_dir &&
                            sandbox().variable("engine", "INJECTED") == env_value &&
                            !fs::exists(sandbox().canary()) && escaped.empty() &&
                            store.sessions().at(0).name == "e2e " + p.text;
        for (const std::string field : {"plan name", "plan data_dir", "plan env value", "--out"})
            note(
                p, "scalebench run: " + field, intact ? "quoted" : "BROKEN",
                "the real console and mpirun; the rank's argv and environment as written, the session's name "
                "stored as written, files only under --out");
    }
}
