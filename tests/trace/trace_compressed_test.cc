// Compressed trace files (zstd, xz) read like plain ones.
#include <gtest/gtest.h>

#include <cstring>

#include "core/error.h"
#include "trace/trace_workload.h"
#include "trace_test_util.h"

#ifndef WARPSIM_HAVE_ZSTD
#define WARPSIM_HAVE_ZSTD 0
#endif
#ifndef WARPSIM_HAVE_LZMA
#define WARPSIM_HAVE_LZMA 0
#endif
#if WARPSIM_HAVE_ZSTD
#include <zstd.h>
#endif
#if WARPSIM_HAVE_LZMA
#include <lzma.h>
#endif

namespace warpsim {
namespace {

using trace_test::data_dir;
using trace_test::read_file;
using trace_test::TempDir;

std::string compress(const std::string& text, TraceFile::Codec codec) {
  std::string out;
#if WARPSIM_HAVE_ZSTD
  if (codec == TraceFile::Codec::Zstd) {
    out.resize(ZSTD_compressBound(text.size()));
    size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
    EXPECT_FALSE(ZSTD_isError(n));
    out.resize(n);
  }
#endif
#if WARPSIM_HAVE_LZMA
  if (codec == TraceFile::Codec::Xz) {
    out.resize(text.size() + 4096);
    size_t pos = 0;
    lzma_ret r = lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(text.data()),
                                         text.size(), reinterpret_cast<uint8_t*>(out.data()), &pos, out.size());
    EXPECT_EQ(r, LZMA_OK);
    out.resize(pos);
  }
#endif
  return out;
}

void expect_equal_ctas(const CtaStreams& a, const CtaStreams& b) {
  ASSERT_EQ(a.warps.size(), b.warps.size());
  for (size_t w = 0; w < a.warps.size(); ++w) {
    ASSERT_EQ(a.warps[w].insts.size(), b.warps[w].insts.size());
    for (size_t i = 0; i < a.warps[w].insts.size(); ++i)
      EXPECT_EQ(std::memcmp(&a.warps[w].insts[i], &b.warps[w].insts[i], sizeof(WarpInst)), 0);
    EXPECT_EQ(a.warps[w].addrs, b.warps[w].addrs);
  }
}

class Compressed : public ::testing::TestWithParam<TraceFile::Codec> {};

TEST_P(Compressed, ReadsLikePlain) {
  const TraceFile::Codec codec = GetParam();
  if (!TraceFile::supports(codec)) GTEST_SKIP() << "codec not built in";
  TempDir d;
  const std::string ext = codec == TraceFile::Codec::Zstd ? ".zst" : ".xz";
  // Many copies of the thread block so the text spans several decoder buffers.
  std::string text = read_file(data_dir() + "/modes/kernel-1.traceg");
  const size_t tb = text.find("#BEGIN_TB");
  std::string header = text.substr(0, tb), block = text.substr(tb);
  header.replace(header.find("(2,1,1)"), 7, "(3000,1,1)");
  std::string big = header;
  for (int c = 0; c < 3000; ++c) {
    std::string b = block;
    b.replace(b.find("thread block = 1,0,0"), 20, "thread block = " + std::to_string(c) + ",0,0");
    big += b;
  }
  d.write("plain.traceg", big);
  d.write("kernel-1.traceg" + ext, compress(big, codec));
  d.write("kernelslist.g", "kernel-1.traceg\n");  // the compressed sibling is found
  TraceWorkload wl(d.str());
  auto k = wl.open_kernel(0);
  TraceKernel plain(d.file("plain.traceg"));
  EXPECT_EQ(k->ctas_in_file(), 3000u);
  CtaStreams a, b;
  for (uint32_t c : {0u, 1u, 2999u, 5u, 1500u, 4u}) {  // forward, then back (decoder restarts)
    k->produce_cta(c, 0, a);
    plain.produce_cta(c, 0, b);
    expect_equal_ctas(a, b);
  }
}

TEST_P(Compressed, TruncatedStreamIsAnError) {
  const TraceFile::Codec codec = GetParam();
  if (!TraceFile::supports(codec)) GTEST_SKIP() << "codec not built in";
  TempDir d;
  std::string z = compress(read_file(data_dir() + "/modes/kernel-1.traceg"), codec);
  d.write("k.traceg", z.substr(0, z.size() / 2));
  EXPECT_THROW(TraceKernel k(d.file("k.traceg")), Error);
}

INSTANTIATE_TEST_SUITE_P(Codecs, Compressed, ::testing::Values(TraceFile::Codec::Zstd, TraceFile::Codec::Xz),
                         [](const auto& info) { return info.param == TraceFile::Codec::Zstd ? "zstd" : "xz"; });

TEST(TraceFileLines, LongLinesCrLfAndNoFinalNewline) {
  TempDir d;
  std::string longline(3 << 20, 'x');
  d.write("f.txt", "a\r\n" + longline + "\nlast");
  TraceFile f(d.file("f.txt"));
  std::string_view l;
  ASSERT_TRUE(f.next_line(l));
  EXPECT_EQ(l, "a");
  ASSERT_TRUE(f.next_line(l));
  EXPECT_EQ(l.size(), longline.size());
  EXPECT_EQ(f.line_no(), 2u);
  EXPECT_EQ(f.line_offset(), 3u);
  ASSERT_TRUE(f.next_line(l));
  EXPECT_EQ(l, "last");
  EXPECT_FALSE(f.next_line(l));
  f.seek(0, 1);
  ASSERT_TRUE(f.next_line(l));
  EXPECT_EQ(l, "a");
  EXPECT_EQ(f.line_no(), 1u);
}

}  // namespace
}  // namespace warpsim
