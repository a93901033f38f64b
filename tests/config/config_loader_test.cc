#include "config/config_loader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"

namespace fs = std::filesystem;
using namespace warpsim;

namespace {

// A scratch directory removed at the end of each test.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("warpsim_config_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    fs::path p = path_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

// Runs `f`, expecting a warpsim::Error, and returns its message.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no warpsim::Error thrown";
  return {};
}

template <class F>
LocatedError located_error_of(F&& f) {
  try {
    f();
  } catch (const LocatedError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected a LocatedError, got: " << e.what();
  }
  ADD_FAILURE() << "no LocatedError thrown";
  return LocatedError("", 0, 0, "");
}

uint64_t l2_total(const GpuConfig& c) {
  return uint64_t(c.l2.partitions) * c.l2.slices_per_partition * c.l2.cache.size;
}

double dram_gbps(const GpuConfig& c) { return c.dram.bytes_per_cycle * c.clock_mhz * c.l2.partitions / 1000.0; }

}  // namespace

// ---------------------------------------------------------------- presets

TEST(Presets, AllListedAndValid) {
  auto names = list_presets();
  for (const char* want : {"gtx480", "titanv", "rtx2060", "h100"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  for (const auto& n : names) {
    GpuConfig c = load_preset(n);  // validates
    EXPECT_EQ(c.name, n);
    EXPECT_NO_THROW(validate(c));
  }
}

// The identity a CUDA program sees comes from the preset file, for every preset there is.
TEST(Presets, EachNamesTheDeviceAProgramSees) {
  for (const auto& n : list_presets()) {
    GpuConfig c = load_preset(n);
    EXPECT_FALSE(c.device_name.empty()) << n << ": device_name";
    EXPECT_GE(c.global_memory, uint64_t(1) << 30) << n << ": global_memory";
    EXPECT_GE(c.compute_capability, 20u) << n;
  }
  // A preset that does not say falls back to "warpsim <name>" and 8 GiB.
  TempDir d;
  std::string path = d.write("bare.toml", "name = \"bare\"\n");
  GpuConfig bare = load_preset(path);
  EXPECT_EQ(bare.device_name, "");
  EXPECT_EQ(bare.global_memory, uint64_t(8) << 30);
  std::string msg = error_of([&] { load_preset(d.write("zero.toml", "global_memory = 0\n")); });
  EXPECT_NE(msg.find("global_memory"), std::string::npos) << msg;
  // cudaDeviceProp::name holds 255 characters and a terminator.
  msg = error_of([&] { load_preset(d.write("long.toml", "device_name = \"" + std::string(256, 'x') + "\"\n")); });
  EXPECT_NE(msg.find("device_name"), std::string::npos) << msg;
  EXPECT_NO_THROW(load_preset(d.write("fits.toml", "device_name = \"" + std::string(255, 'x') + "\"\n")));
}

TEST(Presets, H100CarriesTheMeasuredDeviceProperties) {
  GpuConfig c = load_preset("h100");  // data/reference/h100/microbench_original_hw.tsv
  EXPECT_EQ(c.core.num_sms, 132u);
  EXPECT_EQ(c.compute_capability, 90u);
  EXPECT_DOUBLE_EQ(c.clock_mhz, 1980.0);
  EXPECT_EQ(c.core.schedulers, 4u);
  EXPECT_EQ(c.core.max_threads, 2048u);
  EXPECT_EQ(c.core.max_ctas, 32u);
  EXPECT_EQ(c.core.registers, 65536u);
  EXPECT_EQ(c.core.shared_mem, 233472u);
  EXPECT_EQ(c.core.unified_l1_shared, 262144u);
  EXPECT_EQ(uint64_t(c.l2.cache.size) * c.l2.partitions * c.l2.slices_per_partition, 52428800u);
  EXPECT_NEAR(dram_gbps(c), 3352, 5);  // 5120-bit HBM3 at 2619 MHz, double data rate
}

TEST(Presets, Gtx480CarriesRlwsTableIII) {
  GpuConfig c = load_preset("gtx480");
  EXPECT_EQ(c.core.num_sms, 15u);
  EXPECT_EQ(c.core.schedulers, 2u);
  EXPECT_EQ(c.core.shared_mem, 48u * 1024);
  EXPECT_EQ(c.l1d.size, 16u * 1024);
  EXPECT_EQ(l2_total(c), 768u * 1024);
  EXPECT_EQ(c.core.registers, 32768u);
  EXPECT_EQ(c.core.max_threads, 1536u);
  EXPECT_EQ(c.core.max_warps, 1536u / 32);
  EXPECT_EQ(c.core.max_ctas, 8u);
  EXPECT_EQ(c.dram.scheduler, "frfcfs");
  // RLWS Sec. II-A: one MEM or SFU per SM per cycle, two SP (one per scheduler), shared units.
  EXPECT_FALSE(c.core.subcore);
  EXPECT_EQ(c.core.mem_issue_per_sm, 1u);
  EXPECT_EQ(c.core.sfu_issue_per_sm, 1u);
  EXPECT_EQ(c.units[int(Unit::SP)].count, 2u);
  // GTX 480 peak DRAM bandwidth: 384-bit GDDR5 at 3696 MT/s = 177.4 GB/s.
  EXPECT_NEAR(dram_gbps(c), 384.0 / 8 * 3.696, 0.1);
}

TEST(Presets, TitanVCarriesQawsTableIa) {
  GpuConfig c = load_preset("titanv");
  EXPECT_EQ(c.core.num_sms, 80u);
  EXPECT_EQ(c.core.schedulers, 4u);
  EXPECT_TRUE(c.core.subcore);
  EXPECT_EQ(c.core.shared_mem + c.l1d.size, 128u * 1024);  // L1 + SHM 128 KB
  EXPECT_EQ(l2_total(c), 4608u * 1024);                    // 4.5 MB
  // TITAN V HBM2: 3072-bit bus at 1.7 GT/s = 652.8 GB/s.
  EXPECT_NEAR(dram_gbps(c), 3072.0 / 8 * 1.7, 0.1);
}

TEST(Presets, Rtx2060CarriesJugglerTable2) {
  GpuConfig c = load_preset("rtx2060");
  EXPECT_EQ(c.core.num_sms, 30u);
  EXPECT_EQ(c.core.schedulers, 4u);
  EXPECT_TRUE(c.core.subcore);
  EXPECT_EQ(c.core.shared_mem, 64u * 1024);
  EXPECT_EQ(c.l1d.size, 64u * 1024);
  EXPECT_EQ(c.l1d.assoc, 0u);  // fully associative
  EXPECT_EQ(c.l1d.line, 128u);
  EXPECT_EQ(c.core.max_warps, 32u);
  EXPECT_EQ(c.core.max_threads, 1024u);
  EXPECT_EQ(c.l2.cache.size, 128u * 1024);  // per memory controller slice
  EXPECT_EQ(c.l2.cache.assoc, 16u);
  EXPECT_EQ(c.l2.cache.line, 128u);
  // RTX 2060 GDDR6: 192-bit bus at 14 GT/s = 336 GB/s.
  EXPECT_NEAR(dram_gbps(c), 192.0 / 8 * 14.0, 0.1);
}

TEST(Presets, UnknownPresetListsAvailable) {
  std::string msg = error_of([] { load_preset("gtx48"); });
  EXPECT_NE(msg.find("unknown GPU preset 'gtx48'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'gtx480'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("rtx2060"), std::string::npos) << msg;
  msg = error_of([] { load_preset("/nonexistent/dir/x.toml"); });
  EXPECT_NE(msg.find("not found"), std::string::npos) << msg;
}

TEST(Presets, ConfigDirEnvironmentVariableIsSearchedFirst) {
  TempDir d;
  d.write("gtx480.toml", "base = \"rtx2060\"\n[core]\nnum_sms = 3\n");
  d.write("mygpu.toml", "[core]\nnum_sms = 5\n");
  const char* old = std::getenv("WARPSIM_CONFIG_DIR");
  std::string saved = old ? old : "";
  ::setenv("WARPSIM_CONFIG_DIR", d.str().c_str(), 1);
  GpuConfig mine = load_preset("mygpu");
  GpuConfig shadow = load_preset("gtx480");  // the directory's own gtx480 wins
  auto names = list_presets();
  if (old)
    ::setenv("WARPSIM_CONFIG_DIR", saved.c_str(), 1);
  else
    ::unsetenv("WARPSIM_CONFIG_DIR");
  EXPECT_EQ(mine.core.num_sms, 5u);
  EXPECT_EQ(mine.name, "mygpu");
  EXPECT_EQ(shadow.core.num_sms, 3u);
  EXPECT_EQ(shadow.core.max_warps, load_preset("rtx2060").core.max_warps);
  EXPECT_NE(std::find(names.begin(), names.end(), "mygpu"), names.end());
}

// ---------------------------------------------------------------- TOML errors

TEST(TomlErrors, UnknownKeyNamesKeyFileLineAndValidKeys) {
  TempDir d;
  std::string path = d.write("bad.toml", "name = \"x\"\n\n[l1d]\nsize = 16384\nsise = 3\n");
  LocatedError e = located_error_of([&] { load_preset(path); });
  std::string msg = e.what();
  EXPECT_EQ(e.file(), path);
  EXPECT_EQ(e.line(), 5);
  EXPECT_EQ(e.col(), 1);
  EXPECT_NE(msg.find(path + ":5:1:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown config key 'l1d.sise'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'l1d.size'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("mshr_entries"), std::string::npos) << msg;  // lists the table's keys
}

TEST(TomlErrors, UnknownKeyWithoutCloseMatchListsTable) {
  GpuConfig c;
  std::string msg = error_of([&] { apply_toml(c, "[dram]\nflux_capacitor = 1\n", "t.toml"); });
  EXPECT_NE(msg.find("t.toml:2:1:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'dram.flux_capacitor'"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("did you mean"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Valid keys in [dram]: banks, row_bytes, tCL"), std::string::npos) << msg;
}

TEST(TomlErrors, UnknownTableSuggestsClosest) {
  GpuConfig c;
  LocatedError e = located_error_of([&] { apply_toml(c, "\n[l1x]\nsize = 1\n", "t.toml"); });
  std::string msg = e.what();
  EXPECT_EQ(e.line(), 2);
  EXPECT_NE(msg.find("unknown config table 'l1x'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'l1d'"), std::string::npos) << msg;
}

TEST(TomlErrors, BadChoiceNamesKeyAndValidValues) {
  GpuConfig c;
  LocatedError e = located_error_of([&] { apply_toml(c, "[l1d]\nwrite_policy = \"write_sometimes\"\n", "t.toml"); });
  std::string msg = e.what();
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.col(), 16);  // at the value
  EXPECT_NE(msg.find("'l1d.write_policy'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("write_back|write_through|write_evict"), std::string::npos) << msg;
}

TEST(TomlErrors, BadNumbersNameTheKey) {
  GpuConfig c;
  std::string msg = error_of([&] { apply_toml(c, "[core]\nnum_sms = -4\n", "t.toml"); });
  EXPECT_NE(msg.find("t.toml:2:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'core.num_sms'"), std::string::npos) << msg;
  msg = error_of([&] { apply_toml(c, "[core]\nsubcore = 3\n", "t.toml"); });
  EXPECT_NE(msg.find("'core.subcore'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("true|false"), std::string::npos) << msg;
  msg = error_of([&] { apply_toml(c, "clock_mhz = \"fast\"\n", "t.toml"); });
  EXPECT_NE(msg.find("'clock_mhz'"), std::string::npos) << msg;
  msg = error_of([&] { apply_toml(c, "[l1d]\nsize = [1, 2]\n", "t.toml"); });
  EXPECT_NE(msg.find("'l1d.size'"), std::string::npos) << msg;
  msg = error_of([&] { apply_toml(c, "[core]\nregisters = 99999999999\n", "t.toml"); });
  EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
}

TEST(TomlErrors, ValidationFailureIsLocatedAtTheKey) {
  TempDir d;
  std::string path = d.write("v.toml", "base = \"gtx480\"\n[l1d]\nline = 96\n");
  LocatedError e = located_error_of([&] { load_preset(path); });
  EXPECT_EQ(e.line(), 3);
  EXPECT_NE(std::string(e.what()).find("'l1d.line'"), std::string::npos) << e.what();
}

// A cluster size that does not divide the SMs, and the choices of icnt.request_packets (each of
// them accepted from TOML, and anything else refused with the list).
TEST(TomlErrors, CrossbarPortKeysAreCheckedAndLocated) {
  TempDir d;
  std::string path = d.write("c.toml", "base = \"gtx480\"\n[core]\nsms_per_cluster = 2\n");
  LocatedError e = located_error_of([&] { load_preset(path); });
  EXPECT_EQ(e.line(), 3);
  EXPECT_NE(std::string(e.what()).find("does not divide core.num_sms (15)"), std::string::npos) << e.what();
  for (const char* v : {"line", "sector", "sector_uncached"}) {
    GpuConfig c;
    apply_toml(c, std::string("[icnt]\nrequest_packets = \"") + v + "\"\n", "t.toml");
    EXPECT_EQ(c.icnt.request_packets, v);
    EXPECT_NO_THROW(validate(c)) << v;
  }
  GpuConfig c;
  std::string msg = error_of([&] { apply_toml(c, "[icnt]\nrequest_packets = \"half\"\n", "t.toml"); });
  EXPECT_NE(msg.find("'icnt.request_packets'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("line|sector|sector_uncached"), std::string::npos) << msg;
}

TEST(TomlErrors, SyntaxErrorIsLocated) {
  GpuConfig c;
  LocatedError e = located_error_of([&] { apply_toml(c, "[core]\nnum_sms = = 3\n", "s.toml"); });
  EXPECT_EQ(e.file(), "s.toml");
  EXPECT_EQ(e.line(), 2);
}

TEST(Toml, SizeStringsAndNestedTables) {
  GpuConfig c;
  apply_toml(c, "l2.cache.size = \"128K\"\n[l1d]\nsize = \"32K\"\n[dram]\nbytes_per_cycle = 16\n", "t.toml");
  EXPECT_EQ(c.l2.cache.size, 128u * 1024);
  EXPECT_EQ(c.l1d.size, 32u * 1024);
  EXPECT_DOUBLE_EQ(c.dram.bytes_per_cycle, 16.0);
}

// ---------------------------------------------------------------- --set

TEST(Overrides, SetValuesByDottedKey) {
  GpuConfig c = load_preset("gtx480");
  apply_overrides(c, {"l1d.size=32K", "core.subcore=true", "dram.bytes_per_cycle=10.5", "l2.cache.assoc = 16",
                      "l2.hash=xor", "max_cycles=1000000"});
  EXPECT_EQ(c.l1d.size, 32768u);
  EXPECT_TRUE(c.core.subcore);
  EXPECT_DOUBLE_EQ(c.dram.bytes_per_cycle, 10.5);
  EXPECT_EQ(c.l2.cache.assoc, 16u);
  EXPECT_EQ(c.l2.hash, "xor");
  EXPECT_EQ(c.max_cycles, 1000000u);
  // Later overrides win.
  apply_overrides(c, {"core.num_sms=4", "core.num_sms=6"});
  EXPECT_EQ(c.core.num_sms, 6u);
}

TEST(Overrides, ErrorsNameKeyAndChoices) {
  GpuConfig c = load_preset("gtx480");
  std::string msg = error_of([&] { apply_overrides(c, {"l1d.sizee=3"}); });
  EXPECT_NE(msg.find("'l1d.sizee'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'l1d.size'"), std::string::npos) << msg;
  msg = error_of([&] { apply_overrides(c, {"l2.hash=crc"}); });
  EXPECT_NE(msg.find("'l2.hash'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("linear|xor"), std::string::npos) << msg;
  msg = error_of([&] { apply_overrides(c, {"core.num_sms"}); });
  EXPECT_NE(msg.find("key=value"), std::string::npos) << msg;
  msg = error_of([&] { apply_overrides(c, {"core.num_sms=many"}); });
  EXPECT_NE(msg.find("'core.num_sms'"), std::string::npos) << msg;
  msg = error_of([&] { apply_overrides(c, {"l1d=4"}); });
  EXPECT_NE(msg.find("'l1d'"), std::string::npos) << msg;
  // Consistency is checked after all overrides.
  msg = error_of([&] { apply_overrides(c, {"l1d.line=100"}); });
  EXPECT_NE(msg.find("'l1d.line'"), std::string::npos) << msg;
}

// ---------------------------------------------------------------- base inheritance

TEST(Base, ChildOverridesInheritedPreset) {
  TempDir d;
  std::string path =
      d.write("big480.toml", "base = \"gtx480\"\n[core]\nnum_sms = 30\n[l1d]\nsize = \"48K\"\nassoc = 6\n");
  GpuConfig child = load_preset(path);
  GpuConfig expect = load_preset("gtx480");
  expect.name = "big480";
  expect.core.num_sms = 30;
  expect.l1d.size = 48 * 1024;
  expect.l1d.assoc = 6;
  EXPECT_TRUE(same_config(child, expect)) << dump_toml(child);
}

TEST(Base, SiblingFileAndChainAndCycle) {
  TempDir d;
  d.write("a.toml", "base = \"titanv\"\n[core]\nnum_sms = 10\n");
  std::string b = d.write("b.toml", "base = \"a\"\n[core]\nschedulers = 2\n");
  GpuConfig c = load_preset(b);
  EXPECT_EQ(c.core.num_sms, 10u);
  EXPECT_EQ(c.core.schedulers, 2u);
  EXPECT_EQ(c.l2.partitions, load_preset("titanv").l2.partitions);
  EXPECT_EQ(c.name, "b");

  std::string x = d.write("x.toml", "base = \"y\"\n");
  d.write("y.toml", "base = \"x\"\n");
  std::string msg = error_of([&] { load_preset(x); });
  EXPECT_NE(msg.find("cycle"), std::string::npos) << msg;

  std::string z = d.write("z.toml", "\nbase = \"nosuchgpu\"\n");
  LocatedError e = located_error_of([&] { load_preset(z); });
  EXPECT_EQ(e.line(), 2);
  EXPECT_NE(std::string(e.what()).find("nosuchgpu"), std::string::npos);
}

// ---------------------------------------------------------------- dump / round trip

TEST(Dump, RoundTripsEveryPreset) {
  TempDir d;
  for (const auto& n : list_presets()) {
    GpuConfig c = load_preset(n);
    std::string path = d.write(n + "_dump.toml", dump_toml(c));
    GpuConfig back = load_preset(path);
    EXPECT_TRUE(same_config(c, back)) << n;
  }
}

TEST(Dump, RoundTripsAwkwardValues) {
  GpuConfig c;
  c.name = "odd \"name\" \\ with\ttab";
  c.clock_mhz = 1234.5678901234;
  c.dram.bytes_per_cycle = 0.1;
  c.max_cycles = UINT64_MAX;  // beyond TOML's signed 64-bit integers
  c.max_insts = 1ull << 40;
  c.core.subcore = true;
  TempDir d;
  std::string path = d.write("odd.toml", dump_toml(c));
  GpuConfig back = load_preset(path);
  EXPECT_TRUE(same_config(c, back)) << dump_toml(back);
  EXPECT_EQ(back.name, c.name);
  EXPECT_EQ(back.max_cycles, UINT64_MAX);
}

TEST(Dump, SameConfigDetectsDifferences) {
  GpuConfig a, b;
  EXPECT_TRUE(same_config(a, b));
  b.l2.cache.mshr_merge += 1;
  EXPECT_FALSE(same_config(a, b));
}

TEST(Docs, KeyTableCoversEveryField) {
  GpuConfig c;
  std::string table = config_keys_markdown();
  std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/docs/config.md");
  std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(doc.empty()) << "docs/config.md missing";
  for (const auto& f : config_fields(c)) {
    std::string quoted = "`" + f.key + "`";
    EXPECT_NE(table.find(quoted), std::string::npos) << f.key;
    EXPECT_NE(doc.find(quoted), std::string::npos) << "docs/config.md lacks " << f.key;
  }
}

// The "All keys" table is what `warpsim list keys` prints: every preset value in it is current.
TEST(Docs, KeyTableMatchesThePresets) {
  std::string want = config_keys_markdown(list_presets());
  std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/docs/config.md");
  std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t start = doc.find("| key | type | default |");
  ASSERT_NE(start, std::string::npos) << "docs/config.md has no key table";
  size_t end = doc.find("\n\n", start);
  std::string have = doc.substr(start, end == std::string::npos ? std::string::npos : end + 1 - start);
  EXPECT_EQ(have, want) << "docs/config.md is stale: regenerate its table with `warpsim list keys`";
}
