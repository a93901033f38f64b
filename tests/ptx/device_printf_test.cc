// Device-side printf: the formatter on an argument buffer laid out as nvcc lays it out, and a
// kernel calling vprintf and __assertfail as nvcc's code does.
#include "ptx/device_printf.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <vector>

#include "harness.h"

namespace warpsim::test {
namespace {

// A device memory of a few byte ranges at made-up addresses.
struct FakeMemory {
  std::map<uint64_t, std::vector<uint8_t>> ranges;
  void put(uint64_t addr, const void* p, size_t n) {
    ranges[addr].assign(static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
  }
  ptx::DeviceReader reader() {
    return [this](uint64_t addr, void* out, uint32_t bytes) {
      for (const auto& [base, v] : ranges)
        if (addr >= base && addr + bytes <= base + v.size()) {
          std::memcpy(out, v.data() + (addr - base), bytes);
          return;
        }
      throw Error("unmapped");
    };
  }
};

TEST(DevicePrintf, FormatsEachConversionFromAlignedArguments) {
  FakeMemory m;
  const char s[] = "str";
  m.put(0x9000, s, sizeof s);
  // int, (pad), double, char, (pad), long long, pointer to a string, unsigned
  std::vector<uint8_t> buf(48, 0);
  int32_t i = -42;
  double d = 3.25;
  int32_t c = 'Z';
  int64_t ll = -1234567890123ll;
  uint64_t p = 0x9000;
  uint32_t u = 255;
  std::memcpy(&buf[0], &i, 4);
  std::memcpy(&buf[8], &d, 8);
  std::memcpy(&buf[16], &c, 4);
  std::memcpy(&buf[24], &ll, 8);
  std::memcpy(&buf[32], &p, 8);
  std::memcpy(&buf[40], &u, 4);
  m.put(0x1000, buf.data(), buf.size());
  int n = 0;
  EXPECT_EQ(ptx::format_device_printf("%d|%6.2f|%c|%lld|%s|%#x|100%%\n", 0x1000, m.reader(), &n),
            "-42|  3.25|Z|-1234567890123|str|0xff|100%\n");
  EXPECT_EQ(n, 6);
  // Width from an argument; an unknown conversion is copied as it stands.
  int32_t wv[2] = {5, 7};
  m.put(0x2000, wv, sizeof wv);
  EXPECT_EQ(ptx::format_device_printf("[%*d] %y", 0x2000, m.reader(), &n), "[    7] %y");
  EXPECT_EQ(n, 2);
}

TEST(DevicePrintf, KernelCallsVprintfAndAssertFail) {
  const std::string module =
      ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n"
      ".extern .func __assertfail(.param .b64 a0, .param .b64 a1, .param .b32 a2, .param .b64 a3, .param .b64 a4);\n"
      ".global .align 1 .b8 $fmt[12] = {116, 61, 37, 100, 32, 37, 46, 49, 102, 10, 0, 0};\n";  // "t=%d %.1f\n"
  const std::string body =
      ".local .align 8 .b8 __buf[16];\n"
      "mov.u64 %rd1, __buf; cvta.local.u64 %rd2, %rd1;\n"
      "mov.u32 %r1, %tid.x; st.local.u32 [%rd1], %r1;\n"
      "cvt.rn.f64.u32 %fd1, %r1; mul.f64 %fd1, %fd1, 0d3FF8000000000000; st.local.f64 [%rd1+8], %fd1;\n"  // 1.5 t
      "mov.u64 %rd3, $fmt; cvta.global.u64 %rd4, %rd3;\n"
      "{ .param .b64 p0; st.param.b64 [p0], %rd4; .param .b64 p1; st.param.b64 [p1], %rd2;\n"
      "  .param .b32 rv; call.uni (rv), vprintf, (p0, p1); ld.param.b32 %r2, [rv]; }\n"
      "st.global.u32 [%rd99], %r2;\n";
  testing::internal::CaptureStdout();
  SnippetRun r;
  auto& out = r.run(body, 2, module);
  std::string printed = testing::internal::GetCapturedStdout();
  EXPECT_EQ(printed, "t=0 0.0\nt=1 1.5\n");
  EXPECT_EQ(out[0], 2u);  // vprintf returns the number of arguments
  // __assertfail stops the kernel with the message, file, line and function.
  const std::string fail_body =
      "mov.u64 %rd3, $fmt; cvta.global.u64 %rd4, %rd3;\n"
      "{ .param .b64 a0; st.param.b64 [a0], %rd4; .param .b64 a1; st.param.b64 [a1], %rd4;\n"
      "  .param .b32 a2; st.param.b32 [a2], 17; .param .b64 a3; st.param.b64 [a3], %rd4;\n"
      "  .param .b64 a4; st.param.b64 [a4], 1;\n"
      "  call.uni __assertfail, (a0, a1, a2, a3, a4); }\n";
  SnippetRun r2;
  testing::internal::CaptureStderr();
  try {
    r2.run(fail_body, 1, module);
    ADD_FAILURE() << "the assertion did not stop the kernel";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("device-side assertion failed"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(":17: "), std::string::npos) << e.what();
  }
  testing::internal::GetCapturedStderr();
}

}  // namespace
}  // namespace warpsim::test
