// Helpers shared by the trace front end tests.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace warpsim::trace_test {

inline std::string data_dir() { return std::string(WARPSIM_SOURCE_DIR) + "/tests/data/traces"; }
inline std::string sample_dir() { return "/work/shared/reference/accelsim-trace-vectoradd"; }

// A fresh directory under the system temp dir, removed when the object goes away.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    // Parameterised tests' names hold '/': one directory level, so that removing it leaves nothing.
    std::string name =
        "warpsim_trace_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" + info->name();
    std::replace(name.begin(), name.end(), '/', '_');
    path_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string str() const { return path_.string(); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `text` to `name` in the directory and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream out(file(name), std::ios::binary);
    out << text;
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace warpsim::trace_test
