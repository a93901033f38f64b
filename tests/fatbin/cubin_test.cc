// Register counts read from cubins: the one nvcc 13 put in the SASS-only fatbinary of
// tests/data/fatbin (tests/integration/cuda_programs/programs/vector_add.cu for sm_75; ptxas -v
// reports "Used 12 registers" for it), ELF files built here, and malformed ones.
#include "fatbin/cubin.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "fatbin/fatbin.h"

using namespace warpsim;
using namespace warpsim::fatbin;

namespace {

template <class T>
void put(std::string& s, size_t at, T v) {
  std::memcpy(&s[at], &v, sizeof(T));
}

// A 64-bit little-endian ELF with a null section, the given sections (name, sh_info) and a
// section name table last.
std::string elf(const std::vector<std::pair<std::string, uint32_t>>& sections) {
  std::string names(1, '\0');
  std::vector<uint32_t> name_at;
  for (const auto& s : sections) {
    name_at.push_back(uint32_t(names.size()));
    names += s.first + '\0';
  }
  const uint32_t shstr_name = uint32_t(names.size());
  names += std::string(".shstrtab") + '\0';
  const size_t names_off = 64, shoff = names_off + names.size();
  const uint16_t shnum = uint16_t(sections.size() + 2);
  std::string e(shoff + size_t(shnum) * 64, '\0');
  std::memcpy(&e[0],
              "\x7f"
              "ELF",
              4);
  e[4] = 2;  // 64-bit
  e[5] = 1;  // little-endian
  e[6] = 1;
  put<uint64_t>(e, 0x28, shoff);
  put<uint16_t>(e, 0x3a, 64);
  put<uint16_t>(e, 0x3c, shnum);
  put<uint16_t>(e, 0x3e, uint16_t(shnum - 1));
  std::memcpy(&e[names_off], names.data(), names.size());
  for (size_t i = 0; i < sections.size(); ++i) {
    size_t h = shoff + (i + 1) * 64;
    put<uint32_t>(e, h, name_at[i]);
    put<uint32_t>(e, h + 44, sections[i].second);
  }
  size_t h = shoff + size_t(shnum - 1) * 64;
  put<uint32_t>(e, h, shstr_name);
  put<uint64_t>(e, h + 24, names_off);
  put<uint64_t>(e, h + 32, names.size());
  return e;
}

std::string error_of(const std::string& bytes) {
  try {
    cubin_register_counts(bytes);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Cubin, RegisterCountsOfTheCodeSections) {
  auto regs = cubin_register_counts(
      elf({{".nv.info.k", 0x0f}, {".text.k", (20u << 24) | 7}, {".text._Z3fooi", (33u << 24) | 9}, {".text.", 0}}));
  ASSERT_EQ(regs.size(), 2u);
  EXPECT_EQ(regs.at("k"), 20u);
  EXPECT_EQ(regs.at("_Z3fooi"), 33u);
  EXPECT_TRUE(cubin_register_counts(elf({})).empty());
}

TEST(Cubin, TheCubinNvccMadeForVectorAdd) {
  std::string path = std::string(WARPSIM_SOURCE_DIR) + "/tests/data/fatbin/vector_add_elf.fatbin";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << path;
  std::vector<uint8_t> blob{std::istreambuf_iterator<char>(in), {}};
  auto es = parse(blob.data(), blob.size());
  // Two cubins for sm_75; the kernel's code is in one of them.
  int cubins = 0, with_kernel = 0;
  for (const auto& e : es) {
    if (e.kind != EntryKind::Elf) continue;
    ++cubins;
    EXPECT_EQ(e.arch, 75u);
    auto regs = cubin_register_counts(e.payload);
    if (!regs.count("_Z10vector_addPKfS0_Pfi")) continue;
    ++with_kernel;
    EXPECT_EQ(regs.at("_Z10vector_addPKfS0_Pfi"), 12u);
  }
  EXPECT_EQ(cubins, 2);
  EXPECT_EQ(with_kernel, 1);
}

TEST(Cubin, MalformedFilesSayWhatIsWrong) {
  EXPECT_NE(error_of("not an elf file at all, but long enough to have an ELF header's sixty-four bytes")
                .find("not an ELF file"),
            std::string::npos);
  EXPECT_NE(error_of("\x7f"
                     "ELF")
                .find("not an ELF file"),
            std::string::npos);
  std::string e32 = elf({{".text.k", 20u << 24}});
  e32[4] = 1;  // 32-bit
  EXPECT_NE(error_of(e32).find("64-bit little-endian"), std::string::npos);
  std::string cut = elf({{".text.k", 20u << 24}});
  cut.resize(cut.size() - 100);  // the section table runs past the end
  std::string m = error_of(cut);
  EXPECT_NE(m.find("outside"), std::string::npos) << m;
  EXPECT_NE(m.find("offset"), std::string::npos) << m;
  std::string bad_name = elf({{".text.k", 20u << 24}});
  put<uint32_t>(bad_name, bad_name.size() - 2 * 64, 5000);  // section 1's name past the table
  EXPECT_NE(error_of(bad_name).find("section 1's name"), std::string::npos) << error_of(bad_name);
  std::string bad_index = elf({});
  put<uint16_t>(bad_index, 0x3e, 9);
  EXPECT_NE(error_of(bad_index).find("name table"), std::string::npos);
}

}  // namespace
