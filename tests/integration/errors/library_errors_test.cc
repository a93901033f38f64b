// Bad inputs through the library API: the error type, its location, and the replay of every
// kept fuzzer input (tests/data/errors/fuzz/TARGET/) and seed (fuzz/corpus/TARGET/) through
// the same code the fuzz target runs. A replayed input must load or throw warpsim::Error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "../../../fuzz/fuzz_inputs.h"
#include "cli_util.h"
#include "config/config_loader.h"
#include "core/error.h"
#include "ptx/parser.h"

// The fatbinary extractor is a separate library that may be absent from a tree.
#if __has_include("fatbin/fatbin.cc")
#define WARPSIM_ERRORS_HAVE_FATBIN 1
#include "../../../fuzz/fatbin_input.h"
#else
#define WARPSIM_ERRORS_HAVE_FATBIN 0
#endif

namespace warpsim::errtest {
namespace {

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::string s = read_text(path);
  return std::vector<uint8_t>(s.begin(), s.end());
}

// Every regular file under the kept crash inputs and the seeds of `target`.
std::vector<std::string> replay_inputs(const std::string& target) {
  std::vector<std::string> files;
  for (std::string dir : {std::string(WARPSIM_SOURCE_DIR) + "/tests/data/errors/fuzz/" + target,
                          std::string(WARPSIM_SOURCE_DIR) + "/fuzz/corpus/" + target}) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.is_regular_file()) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Replays each input; returns how many were replayed.
template <class F>
size_t replay(const std::string& target, F&& one_input) {
  size_t n = 0;
  for (const auto& path : replay_inputs(target)) {
    SCOPED_TRACE(path);
    std::vector<uint8_t> bytes = read_bytes(path);
    try {
      one_input(bytes.data(), bytes.size());
    } catch (const Error&) {
      // A user error is the right answer to a bad input.
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a warpsim::Error: " << e.what();
    }
    ++n;
  }
  return n;
}

TEST(FuzzReplay, PtxInputs) { EXPECT_GT(replay("ptx", fuzz::ptx_input), 0u); }
TEST(FuzzReplay, TraceInputs) { EXPECT_GT(replay("trace", fuzz::trace_input), 0u); }
TEST(FuzzReplay, ConfigInputs) { EXPECT_GT(replay("config", fuzz::config_input), 0u); }
TEST(FuzzReplay, FatbinInputs) {
#if WARPSIM_ERRORS_HAVE_FATBIN
  EXPECT_GT(replay("fatbin", fuzz::fatbin_input), 0u);
#else
  GTEST_SKIP() << "no fatbinary extractor in this tree";
#endif
}

TEST(LibraryErrors, MalformedPtxIsALocatedError) {
  std::string text = read_text(data("malformed.ptx"));
  try {
    ptx::parse_module(text, "malformed.ptx");
    ADD_FAILURE() << "malformed PTX accepted";
  } catch (const LocatedError& e) {
    EXPECT_EQ(e.file(), "malformed.ptx");
    EXPECT_EQ(e.line(), 15);
    EXPECT_EQ(e.col(), 2);
  }
}

TEST(LibraryErrors, UnknownInstructionIsALocatedError) {
  std::string text = read_text(data("unknown_inst.ptx"));
  auto bytes = std::vector<uint8_t>(text.begin(), text.end());
  try {
    fuzz::ptx_input(bytes.data(), bytes.size());
    ADD_FAILURE() << "unknown instruction accepted";
  } catch (const LocatedError& e) {
    EXPECT_EQ(e.line(), 13);
    EXPECT_NE(std::string(e.what()).find("frobnicate.u32"), std::string::npos) << e.what();
  }
}

TEST(LibraryErrors, ConfigErrorsNameTheKey) {
  GpuConfig cfg;
  try {
    apply_overrides(cfg, {"core.num_sms=0"});
    ADD_FAILURE() << "core.num_sms=0 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("core.num_sms"), std::string::npos) << e.what();
  }
  try {
    apply_toml(cfg, "[core]\nnum_sms = \"many\"\n", "bad.toml");
    ADD_FAILURE() << "a string for num_sms accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.toml:2:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("core.num_sms"), std::string::npos) << e.what();
  }
}

TEST(LibraryErrors, TruncatedFatbinary) {
#if WARPSIM_ERRORS_HAVE_FATBIN
  // The first 700 of the 1152 bytes of vector_add_plain.fatbin (tests/data/fatbin): an empty
  // container (a 16-byte header declaring no entries), then one at offset 0x10 whose header
  // declares 1152 - 32 = 1120 bytes of entries, where 700 - 16 = 684 bytes are left.
  std::vector<uint8_t> bytes = read_bytes(data("truncated.fatbin"));
  ASSERT_EQ(bytes.size(), 700u);
  try {
    fatbin::parse(bytes.data(), bytes.size());
    ADD_FAILURE() << "truncated fatbinary accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "fatbinary at offset 0x10: container of 16 + 1120 bytes exceeds the 684 bytes available");
  }
#else
  GTEST_SKIP() << "no fatbinary extractor in this tree";
#endif
}

}  // namespace
}  // namespace warpsim::errtest
