// The console's command line, written once: every option (its value, help, default and what it sets) and
// every command (its word, arguments, options and what it sets), with the lookups that the parser
// (console_options.cpp) and the help (console_help.cpp) share.
#pragma once

#include "console_options.h"

#include <string>
#include <vector>

namespace scalebench::console_cli {

using Arguments = std::vector<std::string>;

// An option: how the help shows it, its default there, and what it sets (throwing std::invalid_argument on a
// bad value).
struct Option {
    std::string name;       // without dashes: "poll-ms"
    std::string value_name; // "MS"; empty for a switch
    std::string description;
    std::string (*shown_default)(const ConsoleOptions& defaults); // nullptr: none worth showing
    void (*take)(ConsoleOptions& o, const std::string& value);
    std::vector<std::string> aliases{}; // other names: "o" for -o
};

// A command: the word that names it, its arguments, what it does, the options that apply to it and what it
// sets from its arguments (throwing std::invalid_argument on a bad one). The window is the command without a
// word. A new command is one entry of commands() (with its Mode) and its handler in app/main.cpp.
struct Command {
    std::string name; // "" for the window
    ConsoleOptions::Mode mode;
    std::vector<std::string> arguments; // "PLAN": shown in the help, and exactly this many are taken
    std::string summary;
    std::vector<std::string> options; // names in options()
    void (*take)(ConsoleOptions& o, const Arguments& arguments);
};

// The flag forms scheduled jobs still use: the flag's value is the command's first argument
// (--compare A B is compare A B).
struct OldForm {
    std::string flag;
    std::string command;
};

// Every option, in the order the help lists them.
const std::vector<Option>& options();
// Every command, the window first.
const std::vector<Command>& commands();
// --batch PLAN, --compare A B, --add-clusters FILE.
const std::vector<OldForm>& oldForms();

// The option of that name; a name the table lacks is a bug (std::logic_error).
const Option& option(const std::string& name);
// The command of that word ("" for the window); nullptr for none.
const Command* command(const std::string& name);
bool applies(const Command& c, const std::string& option_name);
// "the window" or "run", for the commands an option applies to.
std::string commandsTaking(const std::string& option_name);

// The options before any word of the command line: the store, the engine and the folders where they are
// found on this machine.
ConsoleOptions defaults();

// The words with `separator` between them.
std::string joined(const std::vector<std::string>& words, const std::string& separator);

} // namespace scalebench::console_cli
