// Runs the scalebench executable as a user would, to the end, with its output kept in a test's folder.
#pragma once

#include "child_process.h"
#include "file_text.h"
#include "temporary_folder.h"

#include <string>
#include <vector>

struct ConsoleRun {
    int exit_status = 0;
    std::string out;
    std::string err;
    std::string printed() const { return out + err; }
};

inline ConsoleRun runConsole(const TemporaryFolder& folder, const std::vector<std::string>& arguments) {
    std::vector<std::string> argv = {SCALEBENCH_CLI_PATH};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    scalebench::ChildProcess cli(argv, (folder.path / "out.log").string(),
                                 (folder.path / "err.log").string());
    const int status = cli.wait().status;
    return {status, fileText(folder.path / "out.log"), fileText(folder.path / "err.log")};
}
