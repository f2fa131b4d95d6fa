// A problem in what a user wrote (a plan, a cluster file, a format definition, model inputs), named by its
// file, line and key.
#pragma once

#include <stdexcept>
#include <string>

namespace scalebench {

// A plan that cannot be used; the message names the file, the line and the key.
class PlanError : public std::runtime_error {
  public:
    PlanError(const std::string& file, int line, const std::string& key, const std::string& problem);
    const std::string& file() const { return file_; }
    int line() const { return line_; }
    const std::string& key() const { return key_; }

  private:
    std::string file_;
    int line_;
    std::string key_;
};

} // namespace scalebench
