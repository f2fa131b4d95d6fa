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

} // namespace scalebench
