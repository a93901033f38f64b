// The fatbinary parser on blobs extracted from a test program built by nvcc 13 (the .nv_fatbin
// section of tests/integration/cuda_programs/programs/vector_add.cu compiled four ways: zstd (default), LZ4
// (-Xfatbin -compress-mode=speed), --no-compress, and SASS only), and on containers built here.
#include "fatbin/fatbin.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/error.h"
#include "support/fatbin_builder.h"

using namespace warpsim;
using namespace warpsim::fatbin;
using warpsim::testsupport::container;
using warpsim::testsupport::entry;
using warpsim::testsupport::put16;
using warpsim::testsupport::put32;
using warpsim::testsupport::put64;

namespace {

std::vector<uint8_t> load(const std::string& name) {
  std::string path = std::string(WARPSIM_SOURCE_DIR) + "/tests/data/fatbin/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::vector<Entry> parse_blob(const std::vector<uint8_t>& b) { return parse(b.data(), b.size()); }

const Entry* find_ptx(const std::vector<Entry>& es) {
  for (const auto& e : es)
    if (e.kind == EntryKind::Ptx) return &e;
  return nullptr;
}

}  // namespace

TEST(Fatbin, UncompressedPtxFromNvcc) {
  auto es = parse_blob(load("vector_add_plain.fatbin"));
  const Entry* p = find_ptx(es);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->compression, Compression::None);
  EXPECT_EQ(p->arch, 75u);
  EXPECT_NE(p->payload.find(".version"), std::string::npos);
  EXPECT_NE(p->payload.find(".entry _Z10vector_addPKfS0_Pfi"), std::string::npos);
  EXPECT_EQ(p->payload.find('\0'), std::string::npos);  // padding stripped
  EXPECT_EQ(&select_ptx(es), p);
}

TEST(Fatbin, CompressedEntriesExpandToTheUncompressedText) {
  std::string plain = find_ptx(parse_blob(load("vector_add_plain.fatbin")))->payload;
  auto z = parse_blob(load("vector_add_zstd.fatbin"));
  auto l = parse_blob(load("vector_add_lz4.fatbin"));
  ASSERT_NE(find_ptx(z), nullptr);
  ASSERT_NE(find_ptx(l), nullptr);
  EXPECT_EQ(find_ptx(z)->compression, Compression::Zstd);
  EXPECT_EQ(find_ptx(l)->compression, Compression::Lz4);
  EXPECT_EQ(find_ptx(z)->payload, plain);
  EXPECT_EQ(find_ptx(l)->payload, plain);
}

TEST(Fatbin, SectionWithSeveralContainers) {
  // The section holds the (empty) device-link container first, then the program's.
  auto b = load("vector_add_zstd.fatbin");
  auto es = parse_blob(b);
  ASSERT_EQ(es.size(), 1u);
  EXPECT_GT(es[0].offset, 16u);
}

TEST(Fatbin, SassOnlyBinaryNamesTheFlagsThatAddPtx) {
  auto es = parse_blob(load("vector_add_elf.fatbin"));
  ASSERT_FALSE(es.empty());
  for (const auto& e : es) EXPECT_EQ(e.kind, EntryKind::Elf);
  try {
    select_ptx(es);
    FAIL() << "no PTX expected";
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("arch=compute_75,code=compute_75"), std::string::npos) << m;
    EXPECT_NE(m.find("sm_75"), std::string::npos) << m;
  }
}

TEST(Fatbin, SelectsHighestArchAtOrBelowTheLimit) {
  auto c = container({entry(1, 52, "ptx52"), entry(2, 86, "elf"), entry(1, 86, "ptx86"), entry(1, 75, "ptx75")});
  auto es = parse_blob(c);
  ASSERT_EQ(es.size(), 4u);
  EXPECT_EQ(select_ptx(es).payload, "ptx86");
  EXPECT_EQ(select_ptx(es, 80).payload, "ptx75");
  EXPECT_EQ(select_ptx(es, 75).payload, "ptx75");
  EXPECT_EQ(select_ptx(es, 60).payload, "ptx52");
  EXPECT_THROW(select_ptx(es, 50), Error);
  EXPECT_EQ(es[1].kind, EntryKind::Elf);
  EXPECT_EQ(es[1].payload.substr(0, 3), "elf");
}

TEST(Fatbin, BackToBackContainersAndTrailingPadding) {
  auto a = container({entry(1, 70, "first")});
  auto b = container({entry(1, 80, "second")});
  std::vector<uint8_t> both = a;
  both.insert(both.end(), b.begin(), b.end());
  both.resize(both.size() + 24, 0);
  auto es = parse_blob(both);
  ASSERT_EQ(es.size(), 2u);
  EXPECT_EQ(es[0].payload, "first");
  EXPECT_EQ(es[1].payload, "second");
  EXPECT_EQ(es[1].offset, a.size() + 16);
}

TEST(Fatbin, MalformedInputThrows) {
  auto good = container({entry(1, 75, "abc")});
  EXPECT_THROW(parse(nullptr, 0), Error);
  auto bad_magic = good;
  bad_magic[0] ^= 0xff;
  EXPECT_THROW(parse_blob(bad_magic), Error);
  auto too_big = good;
  put64(too_big, 8, 1u << 20);
  EXPECT_THROW(parse_blob(too_big), Error);
  auto small_header = good;
  put32(small_header, 16 + 4, 8);
  EXPECT_THROW(parse_blob(small_header), Error);
  auto huge_payload = good;
  put64(huge_payload, 16 + 8, uint64_t(1) << 40);
  EXPECT_THROW(parse_blob(huge_payload), Error);
  // Compressed flag with a payload that is not a frame.
  auto fake_zstd = good;
  put64(fake_zstd, 16 + 40, 0x8011);
  put32(fake_zstd, 16 + 16, 3);
  put64(fake_zstd, 16 + 56, 100);
  EXPECT_THROW(parse_blob(fake_zstd), Error);
  auto fake_lz4 = fake_zstd;
  put64(fake_lz4, 16 + 40, 0x2011);
  put64(fake_lz4, 16 + 56, 1 << 20);  // cannot expand that far
  EXPECT_THROW(parse_blob(fake_lz4), Error);
}

TEST(Fatbin, EveryTruncationOfRealBlobsThrowsOrParses) {
  for (const char* name : {"vector_add_zstd.fatbin", "vector_add_lz4.fatbin", "vector_add_plain.fatbin"}) {
    auto b = load(name);
    for (size_t n = 1; n < b.size(); ++n) {
      try {
        parse(b.data(), n);
      } catch (const Error&) {
      }
    }
  }
}

TEST(Fatbin, CorruptedCompressedPayloadsNeverCrash) {
  for (const char* name : {"vector_add_zstd.fatbin", "vector_add_lz4.fatbin"}) {
    auto b = load(name);
    size_t start = 0x20 + 0x50;  // payload of the program's PTX entry
    for (size_t i = start; i < b.size(); i += 7) {
      auto c = b;
      c[i] ^= 0x5a;
      try {
        parse_blob(c);
      } catch (const Error&) {
      }
    }
  }
}
