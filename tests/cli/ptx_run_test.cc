// `warpsim run file.ptx` with a launch description or inline launch flags, through the real
// binary: statistics JSON, dumped buffers checked against a CPU reference, and errors.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "runtime/launch_spec.h"

namespace warpsim {
namespace {

namespace fs = std::filesystem;

struct CliResult {
  int rc = -1;
  std::string output;  // stdout and stderr
};

class CliPtxRun : public ::testing::Test {
 protected:
  fs::path dir;
  void SetUp() override {
    dir = fs::temp_directory_path() / ("warpsim_cli_ptx_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  static std::string kernel(const char* name) {
    return std::string(WARPSIM_SOURCE_DIR) + "/tests/data/kernels/" + name + ".ptx";
  }
  std::string path(const char* name) const { return (dir / name).string(); }
  void write(const char* name, const std::string& text) const { std::ofstream(dir / name) << text; }

  CliResult run(const std::string& args) const {
    std::string out = path("cli_output.txt");
    std::string cmd = std::string(WARPSIM_BINARY) + " run " + args + " > '" + out + "' 2>&1";
    CliResult r;
    int st = std::system(cmd.c_str());
    r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    std::ifstream f(out);
    std::stringstream ss;
    ss << f.rdbuf();
    r.output = ss.str();
    return r;
  }
  nlohmann::json read_json(const char* name) const {
    std::ifstream f(dir / name);
    if (!f) return nlohmann::json();
    return nlohmann::json::parse(f);
  }
};

TEST_F(CliPtxRun, LaunchDescriptionRunsOnTheTimingModel) {
  // triad(a, b, c, s, n): c[i] = a[i] + s * b[i] in a grid-stride loop (512 threads, 1000 elements).
  write("launch.toml",
        "kernel = \"triad\"\n"
        "grid = 2\n"
        "block = [256, 1, 1]\n"
        "dump = \"" +
            path("buffers.json") +
            "\"\n"
            "args = [\n"
            "  \"buffer f32 n=1000 fill=random seed=3 min=-1 max=1 dump name=a\",\n"
            "  \"buffer f32 n=1000 fill=iota start=0.5 step=0.25 dump name=b\",\n"
            "  \"buffer f32 n=1000 dump name=c\",\n"
            "  \"f32 2.0\",\n"
            "  \"s32 1000\",\n"
            "]\n");
  CliResult r =
      run("'" + kernel("bench_mem") + "' --launch '" + path("launch.toml") + "' --json '" + path("stats.json") + "'");
  ASSERT_EQ(r.rc, 0) << r.output;
  EXPECT_NE(r.output.find("triad"), std::string::npos) << r.output;

  nlohmann::json stats = read_json("stats.json");
  ASSERT_TRUE(stats.is_object()) << r.output;
  EXPECT_EQ(stats["workload"], "bench_mem.ptx:triad");
  EXPECT_EQ(stats["verification"], "not checked");
  ASSERT_EQ(stats["kernels"].size(), 1u);
  const auto& k = stats["kernels"][0];
  EXPECT_EQ(k["name"], "triad");
  EXPECT_EQ(k["grid"], nlohmann::json({2, 1, 1}));
  EXPECT_EQ(k["block"], nlohmann::json({256, 1, 1}));
  EXPECT_GT(k["warp_insts"].get<uint64_t>(), 0u);
  EXPECT_GT(k["kernel_cycles"].get<uint64_t>(), 0u);
  // 1000 elements: 2000 loads and 1000 stores of 4 bytes by threads; each of the 16 warps makes
  // 2 passes (the second covers 488 elements), so at least 32 warp-level stores.
  EXPECT_GE(stats["total"]["mem_insts"]["global_stores"].get<uint64_t>(), 32u);

  nlohmann::json dump = read_json("buffers.json");
  ASSERT_EQ(dump["buffers"].size(), 3u);
  EXPECT_EQ(dump["kernel"], "triad");
  const auto& a = dump["buffers"][0]["values"];
  const auto& b = dump["buffers"][1]["values"];
  const auto& c = dump["buffers"][2]["values"];
  EXPECT_EQ(dump["buffers"][2]["name"], "c");
  ASSERT_EQ(a.size(), 1000u);
  ASSERT_EQ(c.size(), 1000u);
  bool varied = false;
  for (size_t i = 0; i < 1000; ++i) {
    float av = a[i].get<float>(), bv = b[i].get<float>();
    ASSERT_GE(av, -1.0f);
    ASSERT_LT(av, 1.0f);
    varied |= av != a[0].get<float>();
    ASSERT_EQ(bv, 0.5f + 0.25f * float(i)) << i;
    ASSERT_EQ(c[i].get<float>(), std::fma(2.0f, bv, av)) << i;
  }
  EXPECT_TRUE(varied);
}

TEST_F(CliPtxRun, InlineFlagsAndMarkedDump) {
  // saxpy(n, a, x, y): y[i] = a * x[i] + y[i] for i < n.
  // Each --arg takes one value, so the PTX file may follow them.
  CliResult r =
      run("--grid 3 --block 128 --arg 's32 300' --arg 'f32 3' --arg 'buffer f32 n=300 fill=iota'"
          " --arg 'buffer f32 n=320 fill=const value=1 dump' --dump '" +
          path("y.json") + "' -q '" + kernel("vecadd") + "'");
  ASSERT_EQ(r.rc, 0) << r.output;
  nlohmann::json dump = read_json("y.json");
  ASSERT_EQ(dump["buffers"].size(), 1u);  // only the marked buffer
  EXPECT_EQ(dump["kernel"], "saxpy");     // the module's only kernel
  EXPECT_EQ(dump["buffers"][0]["arg"], 3);
  EXPECT_EQ(dump["buffers"][0]["name"], "arg3");
  const auto& y = dump["buffers"][0]["values"];
  ASSERT_EQ(y.size(), 320u);
  for (int i = 0; i < 320; ++i) ASSERT_EQ(y[i].get<float>(), i < 300 ? 3.0f * float(i) + 1.0f : 1.0f) << i;
}

TEST_F(CliPtxRun, SameSeedSameInputs) {
  // Random fills without an explicit seed follow --seed (plus the argument index).
  auto once = [&](const char* out, int seed) {
    CliResult r = run("'" + kernel("vecadd") +
                      "' --grid 1 --block 64 --arg 's32 64' --arg 'f32 1'"
                      " --arg 'buffer f32 n=64 fill=random' --arg 'buffer f32 n=64' --seed " +
                      std::to_string(seed) + " --dump '" + path(out) + "' -q");
    EXPECT_EQ(r.rc, 0) << r.output;
    return read_json(out)["buffers"];
  };
  auto x1 = once("d1.json", 5), x2 = once("d2.json", 5), x3 = once("d3.json", 6);
  ASSERT_EQ(x1.size(), 2u);
  EXPECT_EQ(x1, x2);
  EXPECT_NE(x1[0]["values"], x3[0]["values"]);
  EXPECT_EQ(x1[1]["values"], x1[0]["values"]);  // y = 1 * x + 0
}

TEST_F(CliPtxRun, ErrorsAreReportedWithNonZeroExit) {
  const std::string vec = "'" + kernel("vecadd") + "'";
  CliResult r = run(vec + " --block 64 --arg 's32 1'");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.output.find("needs a grid and a block"), std::string::npos) << r.output;

  r = run(vec + " --grid 1 --block 64 --arg 's32 64' --arg 'f32 1'");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.output.find("kernel takes 4 arguments, 2 given"), std::string::npos) << r.output;

  r = run(vec + " --grid 1 --block 64 --arg 'f64 1' --arg 'f32 1' --arg 'u64 0' --arg 'u64 0'");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.output.find("has 8 bytes, parameter 'saxpy_param_0' has 4"), std::string::npos) << r.output;

  r = run(vec + " --grid 1 --block 64 --arg 'buffer f32 fill=random'");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.output.find("n=<count>"), std::string::npos) << r.output;

  r = run(vec + " --grid 0,1 --block 64");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.output.find("--grid"), std::string::npos) << r.output;

  r = run(vec + " --kernel nope --grid 1 --block 1");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.output.find("no kernel named 'nope' (kernels: saxpy)"), std::string::npos) << r.output;

  // A launch description with an unknown key: located error in the TOML file.
  write("bad.toml", "grid = 1\nblock = 32\nthreads = 4\n");
  r = run(vec + " --launch '" + path("bad.toml") + "'");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.output.find("bad.toml:3:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("unknown key 'threads'"), std::string::npos) << r.output;

  // Malformed PTX: located error, non-zero exit.
  write("broken.ptx",
        ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n  frobnicate.u32 %r1;\n}\n");
  r = run("'" + path("broken.ptx") + "' --grid 1 --block 32");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.output.find("broken.ptx:6:"), std::string::npos) << r.output;

  // A memory error in the kernel names the kernel and the address.
  r = run(vec + " --grid 1 --block 64 --arg 's32 64' --arg 'f32 1' --arg 'u64 0' --arg 'u64 0'");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.output.find("out-of-bounds global read"), std::string::npos) << r.output;

  r = run("vecadd --kernel saxpy");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.output.find("apply to PTX files"), std::string::npos) << r.output;
}

TEST(LaunchSpec, ParsesArgumentsAndDescriptions) {
  LaunchArg s = parse_launch_arg("s32 -5");
  EXPECT_EQ(s.kind, LaunchArg::Scalar);
  EXPECT_EQ(s.bits, 0xfffffffbu);
  EXPECT_EQ(parse_launch_arg("u64 0x10").bits, 16u);
  EXPECT_EQ(parse_launch_arg("f32 1.5").bits, 0x3fc00000u);
  EXPECT_EQ(parse_launch_arg("f64 -2").bits, 0xc000000000000000ull);
  EXPECT_EQ(parse_launch_arg("u8 255").bits, 255u);
  EXPECT_THROW(parse_launch_arg("u8 256"), Error);
  EXPECT_THROW(parse_launch_arg("u32 -1"), Error);
  EXPECT_THROW(parse_launch_arg("s8 --1"), Error);
  EXPECT_THROW(parse_launch_arg("s32 12abc"), Error);
  EXPECT_THROW(parse_launch_arg("int 3"), Error);
  LaunchArg b = parse_launch_arg("buffer s16 n=7 fill=random seed=9 min=-3 max=3 dump name=q");
  EXPECT_EQ(b.kind, LaunchArg::Buffer);
  EXPECT_EQ(b.type, ArgType::S16);
  EXPECT_EQ(b.count, 7u);
  EXPECT_EQ(b.fill, LaunchArg::Random);
  EXPECT_EQ(b.seed, 9u);
  EXPECT_TRUE(b.dump);
  EXPECT_EQ(b.name, "q");
  EXPECT_DOUBLE_EQ(b.a, -3.0);
  EXPECT_DOUBLE_EQ(b.b, 3.0);
  EXPECT_THROW(parse_launch_arg("buffer f32 n=4 fill=iota seed=1"), Error);  // seed is for random
  EXPECT_THROW(parse_launch_arg("buffer f32 n=4 fill=random min=2 max=1"), Error);
  EXPECT_THROW(parse_launch_arg("buffer f32 n=0"), Error);
  EXPECT_THROW(parse_launch_arg("buffer f32 n=4 colour=red"), Error);
  Dim3 d = parse_dim3("4,2", "--grid");
  EXPECT_EQ(d, (Dim3{4, 2, 1}));
  EXPECT_THROW(parse_dim3("1,2,3,4", "--grid"), Error);
  EXPECT_THROW(parse_dim3("x", "--grid"), Error);
  LaunchSpec spec = parse_launch_spec(
      "kernel = \"k\"\ngrid = \"8,2\"\nblock = [32, 4]\nshared = 1024\nargs = [\"u32 1\"]\n", "l.toml");
  EXPECT_EQ(spec.kernel, "k");
  EXPECT_EQ(spec.grid, (Dim3{8, 2, 1}));
  EXPECT_EQ(spec.block, (Dim3{32, 4, 1}));
  EXPECT_EQ(spec.shared, 1024u);
  ASSERT_EQ(spec.args.size(), 1u);
  try {
    parse_launch_spec("grid = 1\nargs = [\"u32 1\", \"buffer f32\"]\n", "l.toml");
    FAIL() << "expected an error";
  } catch (const LocatedError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find("n=<count>"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_launch_spec("grid = [1, 2, 3, 4]\n", "l.toml"), LocatedError);
  EXPECT_THROW(parse_launch_spec("shared = -1\n", "l.toml"), LocatedError);
  EXPECT_THROW(parse_launch_spec("grid = [\n", "l.toml"), LocatedError);
  EXPECT_FALSE(spec.memcheck);
  EXPECT_TRUE(parse_launch_spec("memcheck = true\n", "l.toml").memcheck);
  EXPECT_THROW(parse_launch_spec("memcheck = 1\n", "l.toml"), LocatedError);
}

}  // namespace
}  // namespace warpsim
