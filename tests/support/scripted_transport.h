// A Transport for unit tests: answers each command from a script (by the command's first word) and records
// every command it was asked to run, like MoleQueue's DummySshCommand.
#pragma once

#include "transport.h"

#include <map>
#include <string>
#include <vector>

class ScriptedTransport final : public scalebench::Transport {
  public:
    std::map<std::string, scalebench::CommandResult> answers; // first word of a command -> its result
    std::vector<std::string> commands;                        // every command run, in order

    scalebench::CommandResult run(const std::string& command) override {
        commands.push_back(command);
        auto it = answers.find(command.substr(0, command.find(' ')));
        return it == answers.end() ? scalebench::CommandResult{127, "", "not scripted: " + command}
                                   : it->second;
    }
    void upload(const std::filesystem::path&, const std::string& remote) override {
        commands.push_back("upload " + remote);
    }
    void download(const std::string& remote, const std::filesystem::path&) override {
        commands.push_back("download " + remote);
    }
    std::optional<std::string> readFrom(const std::string&, std::int64_t, std::size_t) override {
        return std::nullopt;
    }
    std::string describe() const override { return "scripted"; }
};
