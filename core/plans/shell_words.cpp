// Quoting for POSIX shells: a word (a path, a job name from a plan) reaches a remote shell as one literal
// word.
#include "shell_words.h"

#include <stdexcept>

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

std::vector<std::string> splitCommandLine(const std::string& line) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    const auto refuse = [&](const std::string& what) {
        throw std::invalid_argument(
            what + " in the command '" + line.substr(0, 200) +
            "': only a shell reads it; write the command as [\"sh\", \"-c\", \"...\"]");
    };
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == ' ' || c == '\t') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
            continue;
        }
        in_word = true;
        if (c == '\'') {
            const std::size_t end = line.find('\'', i + 1);
            if (end == std::string::npos) refuse("an unterminated '");
            word.append(line, i + 1, end - i - 1);
            i = end;
        } else if (c == '"') {
            for (++i;; ++i) {
                if (i >= line.size()) refuse("an unterminated \"");
                if (line[i] == '"') break;
                if (line[i] == '$' || line[i] == '`') refuse(std::string("'") + line[i] + "'");
                if (line[i] == '\\' && i + 1 < line.size() &&
                    std::string("\"\\$`").find(line[i + 1]) != std::string::npos)
                    ++i;
                word += line[i];
            }
        } else if (c == '\\') {
            if (i + 1 >= line.size()) refuse("a trailing \\");
            word += line[++i];
        } else if (std::string("|&;<>()$`\n\r").find(c) != std::string::npos) {
            refuse(c == '\n' || c == '\r' ? std::string("a line break") : std::string("'") + c + "'");
        } else {
            word += c;
        }
    }
    if (in_word) words.push_back(std::move(word));
    return words;
}

} // namespace scalebench
