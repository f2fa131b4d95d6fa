// Quoting for POSIX shells: a word (a path, a job name from a plan) reaches a remote shell as one literal
// word.
#pragma once

#include <string>
#include <vector>

namespace scalebench {

// Returns the word unchanged when it holds only safe characters, else single-quoted.
std::string shellQuote(const std::string& word);
// The words quoted and joined by spaces: a command line that runs exactly these arguments.
std::string shellJoin(const std::vector<std::string>& words);
// A command line written as a shell would read a simple command: words split at blanks, '...' and "..."
// quoting, \ escaping. What only a shell could do (| & ; < > ( ) $ ` outside single quotes, a newline) and an
// unterminated quote are std::invalid_argument naming it: such a command is written as ["sh", "-c", "..."].
std::vector<std::string> splitCommandLine(const std::string& line);

} // namespace scalebench
