// scalebench --help and scalebench COMMAND --help: usage lines, commands, options with their defaults and the
// exit codes, from the tables of console_option_table.h.
#include "console_option_table.h"
#include "console_options.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace scalebench {

using namespace console_cli; // the tables of options and commands

namespace {

// Words filled into lines of `width`, the lines after the first indented by `indent`.
std::string wrapped(const std::string& text, std::size_t indent, std::size_t first_column,
                    std::size_t width = 110) {
    std::istringstream words(text);
    std::string word, out;
    std::size_t column = first_column;
    bool line_start = true;
    while (words >> word) {
        if (!line_start && column + 1 + word.size() > width) {
            out += "\n" + std::string(indent, ' ');
            column = indent;
            line_start = true;
        }
        if (!line_start) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
        line_start = false;
    }
    return out;
}

std::string usageLine(const Command& c) {
    std::string line = "scalebench";
    if (!c.name.empty()) line += " " + c.name;
    for (const auto& a : c.arguments)
        line += " " + a;
    for (const auto& name : c.options) {
        const Option& o = option(name);
        line += " [--" + name + (o.value_name.empty() ? "" : " " + o.value_name) + "]";
    }
    return line;
}

std::string optionLines(const std::vector<std::string>& names, bool show_commands) {
    const ConsoleOptions d = defaults();
    std::string text;
    for (const auto& name : names) {
        const Option& o = option(name);
        std::string left = "  --" + name + (o.value_name.empty() ? "" : " " + o.value_name);
        left.resize(std::max<std::size_t>(left.size() + 2, 24), ' ');
        std::string description = show_commands ? commandsTaking(name) + ": " + o.description : o.description;
        if (o.shown_default) description += " (default: " + o.shown_default(d) + ")";
        text += left + wrapped(description, 24, left.size()) + "\n";
    }
    return text;
}

std::string exitCodes() {
    return "Exit codes:\n"
           "  0    done (run: every run succeeded)\n"
           "  1    run: a run failed\n"
           "  2    the command line, the plan, the store or the cluster cannot be used\n"
           "  3    run: every run succeeded, but a figure failed its reference or regressed against the "
           "baseline\n"
           "  130  run: interrupted by SIGINT (Ctrl-C): the session's jobs cancelled and what they wrote "
           "stored;\n"
           "       a second interrupt leaves at once\n"
           "  143  run: interrupted by SIGTERM, likewise\n";
}

} // namespace

std::string consoleUsage(const std::string& command_name) {
    const Command* one = command_name.empty() ? nullptr : command(command_name);
    std::string text;
    if (one) {
        const auto old = std::find_if(oldForms().begin(), oldForms().end(),
                                      [&](const OldForm& f) { return f.command == one->name; });
        text += "usage: " + wrapped(usageLine(*one), 18, 7) + "\n";
        if (old != oldForms().end())
            text += "       (the older form --" + old->flag + " " + joined(one->arguments, " ") +
                    " still works)\n";
        std::string summary = one->summary;
        summary[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(summary[0])));
        text += "\n" + wrapped(summary, 0, 0) + ".\n\nOptions:\n" + optionLines(one->options, false) +
                "  -h, --help            this help\n\n" + exitCodes() +
                "\nscalebench --help lists every command.\n";
        return text;
    }
    std::string prefix = "usage: ";
    for (const Command& c : commands()) {
        text += prefix + wrapped(usageLine(c), 18, 7) + "\n";
        prefix = "       ";
    }
    text += prefix + "scalebench --version\n" + prefix + "scalebench [COMMAND] --help\n\nCommands:\n";
    for (const Command& c : commands()) {
        std::string left =
            "  " + (c.name.empty() ? std::string("(none)") : c.name + " " + joined(c.arguments, " "));
        left.resize(std::max<std::size_t>(left.size() + 2, 22), ' ');
        text += left + wrapped(c.summary, 22, left.size()) + "\n";
    }
    std::vector<std::string> names;
    for (const Option& o : options())
        names.push_back(o.name);
    text += "\nOptions (the commands they apply to):\n" + optionLines(names, true) +
            "  --version             print the version and exit\n"
            "  -h, --help            this help; after a command, that command's help\n\n" +
            exitCodes() + "\nThe older forms still work:";
    for (const OldForm& f : oldForms())
        text += std::string(&f == &oldForms().front() ? " " : ", ") + "--" + f.flag + " " +
                joined(command(f.command)->arguments, " ") + " (" + f.command + ")";
    return text + ".\n";
}

} // namespace scalebench
