// The scalebench command line parsed: the window by default, or a command (run PLAN, compare A B,
// add-clusters FILE, import FILE...), its arguments and options checked against the tables of
// console_option_table.h; and where the store, the engine and the window's runs are by default.
#include "console_options.h"

#include "console_option_table.h"
#include "install_layout.h"
#include "system_limits.h"

#include <QCommandLineParser>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <unistd.h>

namespace scalebench {

using namespace console_cli; // the tables of options and commands

std::string defaultEnginePath() {
    if (const auto self = runningExecutable(); !self.empty()) {
        for (const char* relative : {"../trainers/scalebench-engine", "scalebench-engine"}) {
            const auto candidate = self.parent_path() / relative;
            if (access(candidate.c_str(), X_OK) == 0)
                return std::filesystem::weakly_canonical(candidate).string();
        }
    }
    return "scalebench-engine";
}

std::filesystem::path windowRunsFolder(const std::filesystem::path& store) {
    std::error_code ignored;
    return std::filesystem::absolute(store, ignored).parent_path() / "runs";
}

std::filesystem::path defaultStorePath() {
    if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data)
        return std::filesystem::path(data) / "scalebench" / "sessions.db";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".local/share/scalebench/sessions.db";
    return "scalebench-sessions.db";
}

namespace {

std::string helpFor(const std::string& command_name) {
    return command_name.empty() ? "scalebench --help" : "scalebench " + command_name + " --help";
}

// Edits (insert, delete, replace, swap two neighbours) from a to b: "bacth" is one from "batch".
std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min(
                {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

// "; did you mean --batch?" for a name a typo or two away from a known one (not for short names: "-x").
std::string nearest(const std::string& name, const std::vector<std::string>& known,
                    const std::string& prefix) {
    for (const auto& k : known)
        if (const std::size_t d = editDistance(name, k); d <= 2 && 3 * d <= name.size())
            return "; did you mean " + prefix + k + "?";
    return "";
}

// The unknown option as it was written ("-x", "--bacth"), without a value after '='.
std::string asGiven(const std::string& name, const Arguments& arguments) {
    for (const auto& a : arguments)
        if (const std::string flag = a.substr(0, a.find('=')); flag == "-" + name || flag == "--" + name)
            return flag;
    return "--" + name;
}

// Every option of the table, the old flag forms, --help and --version.
void declareOptions(QCommandLineParser& parser) {
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    for (const Option& o : options()) {
        QStringList names{QString::fromStdString(o.name)};
        for (const auto& alias : o.aliases)
            names << QString::fromStdString(alias);
        parser.addOption(o.value_name.empty()
                             ? QCommandLineOption(names)
                             : QCommandLineOption(names, QString(), QString::fromStdString(o.value_name)));
    }
    for (const OldForm& f : oldForms())
        parser.addOption(
            QCommandLineOption(QString::fromStdString(f.flag), QString(), QStringLiteral("VALUE")));
    parser.addOption(QCommandLineOption(QStringList{QStringLiteral("h"), QStringLiteral("help")}));
    parser.addOption(QCommandLineOption(QStringLiteral("version")));
}

// Parses the words; an unknown option is named with the nearest known one, other errors in Qt's words.
void parseWords(QCommandLineParser& parser, const std::vector<std::string>& arguments) {
    QStringList words{QStringLiteral("scalebench")}; // parse() skips the program's name
    for (const auto& a : arguments)
        words << QString::fromStdString(a);
    if (parser.parse(words)) return;
    if (!parser.unknownOptionNames().isEmpty()) {
        const std::string name = parser.unknownOptionNames().front().toStdString();
        std::vector<std::string> known{"help", "version"};
        for (const Option& o : options())
            known.push_back(o.name);
        for (const OldForm& f : oldForms())
            known.push_back(f.flag);
        throw ConsoleUsageError(
            "unknown option '" + asGiven(name, arguments) + "'" + nearest(name, known, "--"), helpFor(""));
    }
    std::string error = parser.errorText().toStdString(); // "Missing value after '--db'."
    if (!error.empty() && error.back() == '.') error.pop_back();
    if (!error.empty()) error[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(error[0])));
    throw ConsoleUsageError(error, helpFor(""));
}

// The command the words ask for, its arguments, and how the user wrote it ("run" or "--batch"; "" for the
// window).
struct ChosenCommand {
    const Command* command = nullptr;
    Arguments arguments;
    std::string shown;
};

// An old flag form, else the first word, else the window.
ChosenCommand chooseCommand(const QCommandLineParser& parser) {
    ChosenCommand chosen{command(""), {}, ""};
    for (const QString& p : parser.positionalArguments())
        chosen.arguments.push_back(p.toStdString());
    for (const OldForm& f : oldForms()) {
        if (!parser.isSet(QString::fromStdString(f.flag))) continue;
        if (!chosen.shown.empty())
            throw ConsoleUsageError(chosen.shown + " and --" + f.flag + ": one command at a time",
                                    helpFor(""));
        chosen.command = command(f.command);
        chosen.shown = "--" + f.flag;
        chosen.arguments.insert(chosen.arguments.begin(),
                                parser.value(QString::fromStdString(f.flag)).toStdString());
    }
    if (!chosen.shown.empty() || chosen.arguments.empty()) return chosen;
    const std::string& word = chosen.arguments.front();
    chosen.command = command(word);
    if (!chosen.command || word.empty()) {
        std::vector<std::string> names;
        for (const Command& c : commands())
            if (!c.name.empty()) names.push_back(c.name);
        const bool plan_file = word.size() > 5 && word.substr(word.size() - 5) == ".toml";
        throw ConsoleUsageError(
            "unknown command '" + word + "' (commands: " + joined(names, ", ") + ")" +
                (plan_file ? "; to run a plan: scalebench run " + word : nearest(word, names, "")),
            helpFor(""));
    }
    chosen.shown = chosen.command->name;
    chosen.arguments.erase(chosen.arguments.begin());
    return chosen;
}

// The options given, each refused where the command does not take it or its value is bad.
void takeOptions(const QCommandLineParser& parser, const ChosenCommand& chosen, ConsoleOptions& o,
                 const std::string& help) {
    for (const Option& option : options()) {
        const QString name = QString::fromStdString(option.name);
        if (!parser.isSet(name)) continue;
        if (!applies(*chosen.command, option.name)) {
            const std::string where = commandsTaking(option.name);
            throw ConsoleUsageError(
                "--" + option.name + ": only " +
                    (where == "the window" ? "for the window (no command)" : "with " + where) +
                    (chosen.shown.empty() ? "" : ", not with " + chosen.shown),
                help);
        }
        try {
            // An empty path or name ("--out \"$DIR\"" with DIR unset) would mean the current folder or
            // nothing.
            if (!option.value_name.empty() && parser.value(name).isEmpty())
                throw std::invalid_argument("empty: give a " + option.value_name);
            if (parser.value(name).toStdString().size() > kMostPathBytes)
                throw std::invalid_argument("longer than any path or name (" +
                                            std::to_string(kMostPathBytes) + " bytes, PATH_MAX)");
            option.take(o, parser.value(name).toStdString());
        } catch (const std::invalid_argument& e) {
            throw ConsoleUsageError("--" + option.name + ": " + e.what(), help);
        }
    }
}

// The command's positional arguments: as many as it takes, each checked by the command.
void takeArguments(const ChosenCommand& chosen, ConsoleOptions& o, const std::string& help) {
    const Command& c = *chosen.command;
    const Arguments& rest = chosen.arguments;
    if (rest.size() < c.arguments.size())
        throw ConsoleUsageError(chosen.shown + ": missing " + c.arguments[rest.size()] + " (" + chosen.shown +
                                    " " + joined(c.arguments, " ") + ")",
                                help);
    // "FILE...": one or more.
    const bool many = !c.arguments.empty() && c.arguments.back().ends_with("...");
    if (rest.size() > c.arguments.size() && !many)
        throw ConsoleUsageError((chosen.shown.empty() ? "" : chosen.shown + ": ") + "unexpected argument '" +
                                    rest[c.arguments.size()] + "'",
                                help);
    if (!c.take) return;
    try {
        c.take(o, rest);
    } catch (const std::invalid_argument& e) {
        throw ConsoleUsageError(chosen.shown + ": " + e.what(), help);
    }
}

} // namespace

ConsoleOptions parseConsoleOptions(const std::vector<std::string>& arguments) {
    QCommandLineParser parser;
    declareOptions(parser);
    parseWords(parser, arguments);
    const ChosenCommand chosen = chooseCommand(parser);
    const std::string help = helpFor(chosen.command->name);

    ConsoleOptions o = defaults();
    if (parser.isSet(QStringLiteral("help"))) {
        o.mode = ConsoleOptions::Mode::Help;
        o.help_command = chosen.command->name;
        return o;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        o.mode = ConsoleOptions::Mode::Version;
        return o;
    }
    o.mode = chosen.command->mode;
    takeOptions(parser, chosen, o, help);
    takeArguments(chosen, o, help);
    // The window's runs go beside its store, wherever the window was started; a command's where it is run.
    if (o.mode == ConsoleOptions::Mode::Gui) o.out_dir = windowRunsFolder(o.db);
    if (o.check && (!o.dry_run || o.cluster.empty()))
        throw ConsoleUsageError("--check: only with --dry-run --cluster NAME", help);
    return o;
}

} // namespace scalebench
