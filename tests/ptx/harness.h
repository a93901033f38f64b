// Runs small PTX snippets through the runtime and returns what each thread stored.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "runtime/functional_target.h"
#include "runtime/runtime.h"

namespace warpsim::test {

// Wraps `body` in a kernel with registers %r0..%r49 (.b32), %rd0..%rd49 (.b64, %rd99 reserved),
// %f0..%f49, %fd0..%fd49, %p0..%p19, %rs0..%rs19. %rd99 points at this thread's 128-byte output
// slot. Returns the output words of `threads` threads (16 x uint64 each).
inline std::string wrap_kernel(const std::string& body, const std::string& extra_module = "") {
  return ".version 9.0\n.target sm_75\n.address_size 64\n" + extra_module +
         "\n.visible .entry t(.param .u64 out_param)\n{\n"
         ".reg .b32 %r<50>;\n.reg .b64 %rd<50>;\n.reg .b64 %rd99;\n.reg .b64 %rd98;\n.reg .b32 %r99;\n"
         ".reg .f32 %f<50>;\n.reg .f64 %fd<50>;\n.reg .pred %p<20>;\n.reg .b16 %rs<20>;\n"
         "ld.param.u64 %rd99, [out_param];\nmov.u32 %r99, %tid.x;\nmul.wide.u32 %rd98, %r99, 128;\n"
         "add.s64 %rd99, %rd99, %rd98;\n" +
         body + "\nret;\n}\n";
}

struct SnippetRun {
  FunctionalTarget target;
  Runtime rt{&target};
  std::vector<uint64_t> out;

  // Executes the snippet with `threads` threads in one CTA.
  const std::vector<uint64_t>& run(const std::string& body, uint32_t threads = 1, const std::string& extra = "") {
    auto m = rt.load_module(wrap_kernel(body, extra), "snippet.ptx");
    DevPtr buf = rt.malloc(uint64_t(threads) * 128);
    rt.memset(buf, 0, uint64_t(threads) * 128);
    rt.launch(rt.get_kernel(m, "t"), Dim3{1, 1, 1}, Dim3{threads, 1, 1}, KernelArgs().add(buf));
    out.assign(size_t(threads) * 16, 0);
    rt.memcpy_d2h(out.data(), buf, uint64_t(threads) * 128);
    return out;
  }
};

inline uint32_t f2u(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float u2f(uint64_t u) {
  uint32_t v = uint32_t(u);
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}
inline double u2d(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

// Runs `body` on one thread and returns the first output word (body stores to [%rd99]).
inline uint64_t run1(const std::string& body) {
  SnippetRun r;
  return r.run(body)[0];
}
// Computes into %r1 and returns it.
inline uint32_t r32(const std::string& body) { return uint32_t(run1(body + "\nst.global.u32 [%rd99], %r1;")); }
inline uint64_t r64(const std::string& body) { return run1(body + "\nst.global.u64 [%rd99], %rd1;"); }
inline uint32_t f32bits(const std::string& body) { return uint32_t(run1(body + "\nst.global.f32 [%rd99], %f1;")); }
inline double f64v(const std::string& body) { return u2d(run1(body + "\nst.global.f64 [%rd99], %fd1;")); }
inline uint32_t pred(const std::string& body) { return r32(body + "\nselp.u32 %r1, 1, 0, %p1;"); }

// Loads a module and asks for each of its kernels (a kernel the front end cannot decode fails
// when it is asked for); returns the error message, "" when everything loaded.
inline std::string load_error(const std::string& text, const std::string& file = "bad.ptx", int* line = nullptr,
                              int* col = nullptr) {
  FunctionalTarget target;
  Runtime rt(&target);
  try {
    ModuleHandle m = rt.load_module(text, file);
    for (const auto& k : rt.kernel_names(m)) rt.get_kernel(m, k);
  } catch (const LocatedError& e) {
    if (line) *line = e.line();
    if (col) *col = e.col();
    return e.what();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace warpsim::test
