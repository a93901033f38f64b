#include "core/json_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace warpsim {

void write_file_atomic(const std::string& path, const std::string& contents) {
  namespace fs = std::filesystem;
  fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path());
  std::string tmp = fmt::format("{}.tmp.{}", path, getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw Error(fmt::format("cannot write '{}': {}", tmp, std::strerror(errno)));
  size_t off = 0;
  while (off < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + off, contents.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw Error(fmt::format("cannot write '{}': {}", tmp, std::strerror(e)));
    }
    off += size_t(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(tmp.c_str());
    throw Error(fmt::format("cannot write '{}': {}", tmp, std::strerror(errno)));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    throw Error(fmt::format("cannot rename '{}' to '{}': {}", tmp, path, std::strerror(errno)));
  }
}

void write_json_atomic(const std::string& path, const nlohmann::json& j) { write_file_atomic(path, j.dump(1) + "\n"); }

}  // namespace warpsim
