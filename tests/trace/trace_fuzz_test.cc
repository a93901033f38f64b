// Damaged traces never crash the reader: every outcome is a result or a warpsim::Error.
#include <gtest/gtest.h>

#include <random>

#include "core/error.h"
#include "trace/trace_workload.h"
#include "trace_test_util.h"

namespace warpsim {
namespace {

using trace_test::data_dir;
using trace_test::read_file;
using trace_test::TempDir;

TEST(TraceFuzz, MutatedFilesOnlyThrowErrors) {
  TempDir d;
  const std::string sources[] = {read_file(data_dir() + "/modes/kernel-1.traceg"),
                                 read_file(data_dir() + "/generic/kernel-1.traceg"),
                                 read_file(data_dir() + "/v5/kernel-1.traceg")};
  const char alphabet[] = "0123456789abcdefxX ,=()-#\nRPUVWS.LDGEXIT";
  std::mt19937 rng(2024);
  int parsed = 0, rejected = 0;
  for (int iter = 0; iter < 600; ++iter) {
    std::string t = sources[iter % 3];
    const int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % t.size();
      switch (rng() % 4) {
        case 0:
          t[pos] = alphabet[rng() % (sizeof alphabet - 1)];
          break;
        case 1:
          t.erase(pos, 1 + rng() % 8);
          break;
        case 2:
          t.insert(pos, 1, alphabet[rng() % (sizeof alphabet - 1)]);
          break;
        default:
          t.resize(pos);
          break;
      }
      if (t.empty()) t.push_back('x');
    }
    const std::string path = d.write("k.traceg", t);
    try {
      TraceKernel k(path);
      CtaStreams cta;
      for (uint32_t c = 0; c < k.info().num_ctas() && c < 4; ++c) {
        k.produce_cta(c, 0, cta);
        for (const WarpStream& ws : cta.warps) {
          ASSERT_FALSE(ws.insts.empty());
          EXPECT_EQ(ws.insts.back().op, OpClass::EXIT);
          for (const WarpInst& in : ws.insts) {
            if (in.addr_index != kNoAddr) {
              ASSERT_LE(size_t(in.addr_index) + 32, ws.addrs.size());
            }
          }
        }
      }
      ++parsed;
    } catch (const Error&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace warpsim
