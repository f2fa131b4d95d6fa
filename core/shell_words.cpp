// Quoting for POSIX shells: a word (a path, a job name from a plan) reaches a remote shell as one literal
// word.
#include "shell_words.h"

namespace scalebench {

std::string shellQuote(const std::string& word) {
    constexpr const char* kSafe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%";
    if (!word.empty() && word.find_first_not_of(kSafe) == std::string::npos) return word;
    std::string out = "'";
    for (char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

std::string shellJoin(const std::vector<std::string>& words) {
    std::string line;
    for (const auto& word : words) {
        if (!line.empty()) line += ' ';
        line += shellQuote(word);
    }
    return line;
}

} // namespace scalebench
