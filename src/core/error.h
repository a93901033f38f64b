// User-facing errors: every error a user can cause is a warpsim::Error with a location.
#pragma once
#include <stdexcept>
#include <string>

namespace warpsim {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// Error with a file:line:col location prefix.
class LocatedError : public Error {
 public:
  LocatedError(const std::string& file, int line, int col, const std::string& what)
      : Error(file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + what),
        file_(file),
        line_(line),
        col_(col) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int col() const { return col_; }

 private:
  std::string file_;
  int line_, col_;
};

}  // namespace warpsim

namespace warpsim {
// A configured limit (cycles, instructions, memory) stopped the run; statistics so far are valid.
class LimitError : public Error {
 public:
  using Error::Error;
};
// No warp made progress for the watchdog period.
class DeadlockError : public Error {
 public:
  using Error::Error;
};
}  // namespace warpsim
