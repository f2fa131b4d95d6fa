// scalebench import FILE...: logs of runs that already happened (nccl-tests, OSU, MLLOG, MaxText, a metric
// stream), each read by its format's reader into one stored session, so that they sit beside the runs
// scalebench launched.
#pragma once

#include "console_options.h"

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace scalebench {

class SessionStore;

// Logs to read into one new session, and how (the command line's import options; the window's File > Import).
struct ImportRequest {
    std::vector<std::filesystem::path> files;
    std::string format;       // a reader's (kOutputFormats); "": each file's, told from its content
    std::string session_name; // the new session's
    int ranks = 0;            // of each run, where its log does not say; 0: not given (OutputContext::ranks)
    double peak_tflops = 0;   // one device's dense peak, for MFU (OutputContext::peak_tflops); 0: none
};
struct ImportedFile {
    std::filesystem::path file;
    std::string run_name;
    std::string error;    // why it gave no record ("" when it did): its run is stored as failed
    std::string format{}; // what it was read as (the request's, or detected); "" where it could not be read
    // Where a file of the same content was imported before (then nothing is stored for it): "already in the
    // store: run 'x' of session 3 'y' ..."; "" otherwise.
    std::string already{};
    std::string description; // what it gave: records by type, broken lines, the trainer's own figures
};
struct ImportOutcome {
    std::int64_t session_id = 0;
    std::vector<ImportedFile> files; // in the request's order
    int failed() const;
};

// One run per file in one new session (one per collective or benchmark where a file holds several), named
// after the file; its ranks from its log where it says them. A file whose content the store already holds
// (an earlier import of it) is named and not stored again.
// A file that cannot be read or gives no record is stored as a failed run naming why, and the others kept.
// Throws where the store cannot be written; an unknown format is std::invalid_argument.
ImportOutcome importLogs(SessionStore& store, const ImportRequest& request);

// One run per file, named after it, its ranks from its log where it says them (else --ranks); prints what
// each file gave and the results. 0: every file read; 1: a file gave no record or could not be read (the
// others are kept); 2: the store cannot be used.
int importRuns(const ConsoleOptions& options, std::ostream& out, std::ostream& err);

} // namespace scalebench
