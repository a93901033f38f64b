// The libcudart shim loaded with dlopen and driven the way nvcc's generated code drives it:
// register the committed fatbinary, register a kernel, launch through cudaLaunchKernel, copy
// results back. Needs no CUDA toolkit.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "config/config_loader.h"
#include "cudart/cuda_abi.h"
#include "support/cudart_shim.h"
#include "support/fatbin_builder.h"

using namespace warpsim::cudart;
using warpsim::testsupport::Shim;
using warpsim::testsupport::shim_path;
using warpsim::testsupport::Wrapper;

namespace {

using MallocFn = int (*)(void**, size_t);
using MemcpyFn = int (*)(void*, const void*, size_t, int);
using LaunchFn = int (*)(const void*, dim3, dim3, void**, size_t, void*);

// Launches the kernel over `grid` x `block` threads with its arguments (cudaLaunchKernel unless
// the test passes another way).
using Launcher = std::function<int(dim3 grid, dim3 block, void** args, void* stream)>;

std::vector<float> run_vector_add(Shim& shim, int n, void* stream, int* rc_launch, Launcher launch = {}) {
  auto cmalloc = shim.fn<MallocFn>("cudaMalloc");
  auto cmemcpy = shim.fn<MemcpyFn>("cudaMemcpy");
  if (!launch) {
    auto plain = shim.fn<LaunchFn>("cudaLaunchKernel");
    launch = [&shim, plain](dim3 g, dim3 b, void** args, void* st) { return plain(shim.kernel(), g, b, args, 0, st); };
  }
  auto cfree = shim.fn<int (*)(void*)>("cudaFree");
  std::vector<float> a(n), b(n), c(n, 0.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = float(3 * i + 1);
  }
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  EXPECT_EQ(cmalloc(&da, n * 4), 0);
  EXPECT_EQ(cmalloc(&db, n * 4), 0);
  EXPECT_EQ(cmalloc(&dc, n * 4), 0);
  EXPECT_EQ(cmemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice), 0);
  EXPECT_EQ(cmemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice), 0);
  void* args[] = {&da, &db, &dc, &n};
  *rc_launch = launch(dim3{unsigned(n + 63) / 64, 1, 1}, dim3{64, 1, 1}, args, stream);
  EXPECT_EQ(cmemcpy(c.data(), dc, n * 4, cudaMemcpyDefault), 0);
  cfree(da);
  cfree(db);
  cfree(dc);
  return c;
}

}  // namespace

TEST(CudartShim, LaunchesARegisteredKernel) {
  SHIM_OR_SKIP();
  int rc = -1;
  auto c = run_vector_add(shim, 1000, nullptr, &rc);
  ASSERT_EQ(rc, 0);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(c[i], float(i) + float(3 * i + 1)) << i;
}

TEST(CudartShim, DevicePropertiesComeFromThePreset) {
  SHIM_OR_SKIP();
  warpsim::GpuConfig cfg = warpsim::load_preset("gtx480");
  cudaDeviceProp p;
  ASSERT_EQ(shim.fn<int (*)(cudaDeviceProp*, int)>("cudaGetDeviceProperties")(&p, 0), 0);
  EXPECT_EQ(std::string(p.name), cfg.device_name);
  EXPECT_EQ(p.totalGlobalMem, cfg.global_memory);
  EXPECT_EQ(p.multiProcessorCount, int(cfg.core.num_sms));
  EXPECT_EQ(p.sharedMemPerMultiprocessor, cfg.core.shared_mem);
  EXPECT_EQ(p.regsPerMultiprocessor, int(cfg.core.registers));
  EXPECT_EQ(p.maxThreadsPerMultiProcessor, int(cfg.core.max_threads));
  EXPECT_EQ(p.warpSize, 32);
  // The preset models a compute capability 2.0 GPU; the program's PTX targets compute_75, so
  // the runtime says 7.5: what the program needs to be told to run (docs/cuda-programs.md).
  EXPECT_EQ(cfg.compute_capability, 20u);
  EXPECT_EQ(p.major * 10 + p.minor, 75);
  int clock = 0, count = 0;
  ASSERT_EQ(shim.fn<int (*)(int*, int, int)>("cudaDeviceGetAttribute")(&clock, cudaDevAttrClockRate, 0), 0);
  EXPECT_EQ(clock, int(cfg.clock_mhz * 1000));
  ASSERT_EQ(shim.fn<int (*)(int*)>("cudaGetDeviceCount")(&count), 0);
  EXPECT_EQ(count, 1);
}

TEST(CudartShim, ErrorsAreReportedAndCleared) {
  SHIM_OR_SKIP();
  auto set_device = shim.fn<int (*)(int)>("cudaSetDevice");
  auto last = shim.fn<int (*)()>("cudaGetLastError");
  auto name = shim.fn<const char* (*)(int)>("cudaGetErrorName");
  auto text = shim.fn<const char* (*)(int)>("cudaGetErrorString");
  last();
  EXPECT_EQ(set_device(1), cudaErrorInvalidDevice);
  EXPECT_EQ(last(), cudaErrorInvalidDevice);
  EXPECT_EQ(last(), cudaSuccess);
  EXPECT_STREQ(name(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
  EXPECT_STREQ(text(cudaSuccess), "no error");
  // An address that is no registered kernel.
  int x = 0;
  auto launch = shim.fn<LaunchFn>("cudaLaunchKernel");
  EXPECT_EQ(launch(&x, dim3{}, dim3{}, nullptr, 0, nullptr), cudaErrorInvalidDeviceFunction);
  last();
  // A block larger than the device allows is refused at launch.
  void* d = nullptr;
  ASSERT_EQ(shim.fn<MallocFn>("cudaMalloc")(&d, 64), 0);
  int n = 1;
  void* args[] = {&d, &d, &d, &n};
  EXPECT_EQ(launch(shim.kernel(), dim3{1, 1, 1}, dim3{2048, 1, 1}, args, 0, nullptr), cudaErrorInvalidConfiguration);
  EXPECT_EQ(last(), cudaErrorInvalidConfiguration);
}

// ptxVersion is the virtual architecture of the kernel's PTX (75 for compute_75), not the PTX
// ISA version (9.0): CUB chooses its tuning policy by it and refuses to run
// (cudaErrorInvalidDeviceFunction) when it is none the program was built for.
TEST(CudartShim, FunctionAttributesGiveTheArchitectures) {
  SHIM_OR_SKIP();
  cudaFuncAttributes a{};
  ASSERT_EQ(shim.fn<int (*)(cudaFuncAttributes*, const void*)>("cudaFuncGetAttributes")(&a, shim.kernel()), 0);
  EXPECT_EQ(a.ptxVersion, 75);
  EXPECT_EQ(a.binaryVersion, 75);  // what the device reports (gtx480's 2.0 raised to the PTX's 7.5)
  EXPECT_GT(a.maxThreadsPerBlock, 0);
}

// A call that fails on its own arguments, without a message of its own, still says so on
// stderr ("warpsim: <call>: ...") and sets the last error.
TEST(CudartShim, EveryFailedCallIsReported) {
  SHIM_OR_SKIP();
  auto last = shim.fn<int (*)()>("cudaGetLastError");
  last();
  testing::internal::CaptureStderr();
  int rc = shim.fn<int (*)(int*)>("cudaGetDevice")(nullptr);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, cudaErrorInvalidValue);
  EXPECT_NE(err.find("warpsim: cudaGetDevice: cudaErrorInvalidValue"), std::string::npos) << err;
  EXPECT_EQ(last(), cudaErrorInvalidValue);
}

// cudaLaunchKernelExC with the programmatic-stream-serialization attribute Thrust and CUB set
// launches as cudaLaunchKernel does, and so does a cooperative launch; a cluster launch stops
// the program.
TEST(CudartShim, LaunchWithAttributes) {
  SHIM_OR_SKIP();
  auto launch_ex = shim.fn<int (*)(const cudaLaunchConfig_t*, const void*, void**)>("cudaLaunchKernelExC");
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  auto with = [&](cudaLaunchAttribute a) {
    return [&shim, launch_ex, a](dim3 g, dim3 b, void** args, void* st) mutable {
      cudaLaunchConfig_t c{g, b, 0, st, &a, 1};
      return launch_ex(&c, shim.kernel(), args);
    };
  };
  int rc = -1;
  std::vector<float> c = run_vector_add(shim, 300, nullptr, &rc, with(attr));
  ASSERT_EQ(rc, 0);
  for (int i = 0; i < 300; ++i) ASSERT_EQ(c[i], float(i) + float(3 * i + 1)) << i;
  // The cooperative attribute makes a cooperative launch, which runs the kernel as well.
  cudaLaunchAttribute coop{};
  coop.id = cudaLaunchAttributeCooperative;
  coop.val.cooperative = 1;
  c = run_vector_add(shim, 64, nullptr, &rc, with(coop));
  ASSERT_EQ(rc, 0);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(c[i], float(i) + float(3 * i + 1)) << i;
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim = {2, 1, 1};
  EXPECT_EXIT(run_vector_add(shim, 64, nullptr, &rc, with(cluster)), ::testing::ExitedWithCode(3),
              "cudaLaunchKernelExC: thread block clusters are not supported.*stopping");
}

TEST(CudartShim, StreamsAndEventTiming) {
  SHIM_OR_SKIP();
  auto screate = shim.fn<int (*)(void**)>("cudaStreamCreate");
  auto sdestroy = shim.fn<int (*)(void*)>("cudaStreamDestroy");
  auto ecreate = shim.fn<int (*)(void**)>("cudaEventCreate");
  auto record = shim.fn<int (*)(void*, void*)>("cudaEventRecord");
  auto elapsed = shim.fn<int (*)(float*, void*, void*)>("cudaEventElapsedTime");
  void *s = nullptr, *e0 = nullptr, *e1 = nullptr, *e2 = nullptr;
  ASSERT_EQ(screate(&s), 0);
  ASSERT_EQ(ecreate(&e0), 0);
  ASSERT_EQ(ecreate(&e1), 0);
  ASSERT_EQ(ecreate(&e2), 0);
  ASSERT_EQ(record(e0, s), 0);
  ASSERT_EQ(record(e1, s), 0);
  float ms = -1;
  ASSERT_EQ(elapsed(&ms, e0, e1), 0);
  EXPECT_EQ(ms, 0.0f);  // nothing ran between them
  int rc = -1;
  auto c = run_vector_add(shim, 4096, s, &rc);
  ASSERT_EQ(rc, 0);
  EXPECT_EQ(c[4095], 4095.0f + float(3 * 4095 + 1));
  ASSERT_EQ(record(e2, s), 0);
  ASSERT_EQ(elapsed(&ms, e1, e2), 0);
  EXPECT_GT(ms, 0.0f);
  EXPECT_EQ(sdestroy(s), 0);
  EXPECT_EQ(sdestroy(s), cudaErrorInvalidResourceHandle);
  shim.fn<int (*)()>("cudaGetLastError")();
}

TEST(CudartShim, UnimplementedEntryPointsExistAndStopTheProgram) {
  SHIM_OR_SKIP();
  // Present in CUDA 13's libcudart and in the census; not implemented by warpsim.
  auto ipc_handle = shim.fn<int (*)(void*, void*)>("cudaIpcGetMemHandle");
  EXPECT_NE(shim.fn<void*>("cudaGLRegisterBufferObject"), nullptr);
  EXPECT_NE(shim.fn<void*>("cudaBindTexture"), nullptr);
  char handle[64];
  EXPECT_EXIT(ipc_handle(handle, nullptr), ::testing::ExitedWithCode(3), "cudaIpcGetMemHandle");
}

// Managed and mapped host memory are the host's bytes, reached by kernels at the same
// addresses: no copies, results visible after synchronising.
TEST(CudartShim, ManagedAndMappedMemoryAreSharedWithKernels) {
  SHIM_OR_SKIP();
  auto managed = shim.fn<int (*)(void**, size_t, unsigned)>("cudaMallocManaged");
  auto host_alloc = shim.fn<int (*)(void**, size_t, unsigned)>("cudaHostAlloc");
  auto host_register = shim.fn<int (*)(void*, size_t, unsigned)>("cudaHostRegister");
  auto host_unregister = shim.fn<int (*)(void*)>("cudaHostUnregister");
  auto device_pointer = shim.fn<int (*)(void**, void*, unsigned)>("cudaHostGetDevicePointer");
  auto attributes = shim.fn<int (*)(cudaPointerAttributes*, const void*)>("cudaPointerGetAttributes");
  auto launch = shim.fn<LaunchFn>("cudaLaunchKernel");
  auto sync = shim.fn<int (*)()>("cudaDeviceSynchronize");
  auto cfree = shim.fn<int (*)(void*)>("cudaFree");
  auto free_host = shim.fn<int (*)(void*)>("cudaFreeHost");
  auto last = shim.fn<int (*)()>("cudaGetLastError");
  last();
  int n = 1000;
  float *a = nullptr, *c = nullptr;
  ASSERT_EQ(managed(reinterpret_cast<void**>(&a), n * 4, 1), 0);
  ASSERT_EQ(host_alloc(reinterpret_cast<void**>(&c), n * 4, 0x02), 0);  // cudaHostAllocMapped
  std::vector<float> b(n);
  ASSERT_EQ(host_register(b.data(), n * 4, 0x02), 0);  // cudaHostRegisterMapped
  for (int i = 0; i < n; ++i) a[i] = float(i), b[i] = float(2 * i), c[i] = -1;
  void *da = a, *db = nullptr, *dc = nullptr;
  ASSERT_EQ(device_pointer(&db, b.data(), 0), 0);
  ASSERT_EQ(device_pointer(&dc, c, 0), 0);
  void* args[] = {&da, &db, &dc, &n};
  ASSERT_EQ(launch(shim.kernel(), dim3{unsigned(n + 63) / 64, 1, 1}, dim3{64, 1, 1}, args, 0, nullptr), 0);
  ASSERT_EQ(sync(), 0);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], float(3 * i)) << i;
  // The host changes the inputs; the next kernel sees them.
  a[7] = 100;
  ASSERT_EQ(launch(shim.kernel(), dim3{unsigned(n + 63) / 64, 1, 1}, dim3{64, 1, 1}, args, 0, nullptr), 0);
  ASSERT_EQ(sync(), 0);
  EXPECT_EQ(c[7], 114.0f);
  cudaPointerAttributes pa;
  ASSERT_EQ(attributes(&pa, a + 3), 0);
  EXPECT_EQ(pa.type, cudaMemoryTypeManaged);
  ASSERT_EQ(attributes(&pa, c), 0);
  EXPECT_EQ(pa.type, cudaMemoryTypeHost);
  EXPECT_EQ(pa.devicePointer, c);
  // Unmapped host memory: a CUDA error, not a crash.
  std::vector<float> plain(16);
  void* d = nullptr;
  EXPECT_EQ(device_pointer(&d, plain.data(), 0), cudaErrorInvalidValue);
  EXPECT_EQ(last(), cudaErrorInvalidValue);
  EXPECT_EQ(host_unregister(plain.data()), cudaErrorHostMemoryNotRegistered);
  EXPECT_EQ(host_unregister(b.data()), 0);
  EXPECT_EQ(device_pointer(&d, b.data(), 0), cudaErrorInvalidValue);
  EXPECT_EQ(cfree(a), 0);
  EXPECT_EQ(free_host(c), 0);
  last();
}

// CUDA 12.2 to 12.9 programs call the cudaMemLocation forms of prefetch and advice by their
// _v2 names; libcudart.so.12 has them.
TEST(CudartShim, Cuda12LibraryHasTheV2ManagedMemoryCalls) {
  std::string path = shim_path();
  path.replace(path.rfind(".13"), 3, ".12");
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) GTEST_SKIP() << dlerror();
  EXPECT_NE(dlsym(lib, "cudaMemPrefetchAsync_v2"), nullptr);
  EXPECT_NE(dlsym(lib, "cudaMemAdvise_v2"), nullptr);
  EXPECT_NE(dlsym(lib, "cudaMallocManaged"), nullptr);
}

// A module whose PTX the front end refuses, registered as nvcc's code does, and a program that
// ignores the launch's result: the launch stops the program (exit status 3, the module and the
// place named), so it cannot end as if the kernel had run. A module without PTX does the same.
TEST(CudartShim, KernelOfAModuleWarpsimCannotLoadStopsTheProgram) {
  SHIM_OR_SKIP();
  auto reg = shim.fn<void** (*)(void*)>("__cudaRegisterFatBinary");
  auto reg_fn = shim.fn<void (*)(void**, const char*, char*, const char*, int, void*, void*, void*, void*, int*)>(
      "__cudaRegisterFunction");
  auto reg_end = shim.fn<void (*)(void**)>("__cudaRegisterFatBinaryEnd");
  auto launch = shim.fn<LaunchFn>("cudaLaunchKernel");
  // `frobnicate` stands for any instruction the front end does not know.
  const std::string ptx =
      ".version 7.8\n.target sm_75\n.address_size 64\n.visible .entry bad()\n{\n"
      "  .reg .b32 %r<2>;\n  frobnicate.b32 %r1, %r0;\n  ret;\n}\n";
  static std::vector<uint8_t> with_ptx = warpsim::testsupport::container({warpsim::testsupport::entry(1, 75, ptx)});
  static std::vector<uint8_t> sass_only =
      warpsim::testsupport::container({warpsim::testsupport::entry(2, 75, std::string(64, '\0'))});
  static const char bad_stub = 0, sass_stub = 0;
  static Wrapper w1{0x466243b1, 1, with_ptx.data(), nullptr}, w2{0x466243b1, 1, sass_only.data(), nullptr};
  char bad_name[] = "bad", sass_name[] = "sass_kernel";
  void** h1 = reg(&w1);
  reg_fn(h1, &bad_stub, bad_name, bad_name, -1, nullptr, nullptr, nullptr, nullptr, nullptr);
  reg_end(h1);
  void** h2 = reg(&w2);
  reg_fn(h2, &sass_stub, sass_name, sass_name, -1, nullptr, nullptr, nullptr, nullptr, nullptr);
  reg_end(h2);
  EXPECT_EXIT(launch(&bad_stub, dim3{1, 1, 1}, dim3{32, 1, 1}, nullptr, 0, nullptr), ::testing::ExitedWithCode(3),
              "unknown instruction 'frobnicate.b32'.*stopping");
  EXPECT_EXIT(launch(&sass_stub, dim3{1, 1, 1}, dim3{32, 1, 1}, nullptr, 0, nullptr), ::testing::ExitedWithCode(3),
              "stopping");
  // The program's own module is unaffected.
  int rc = -1;
  std::vector<float> c = run_vector_add(shim, 100, nullptr, &rc);
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(c[7], 7.0f + 22.0f);
}

// Host functions and stream callbacks run once, in the order they were enqueued, after the
// stream's earlier work (a kernel here); the callback gets its stream and a success status.
TEST(CudartShim, HostFunctionsRunInStreamOrder) {
  SHIM_OR_SKIP();
  using HostFn = void (*)(void*);
  using Callback = void (*)(void*, int, void*);
  auto host_func = shim.fn<int (*)(void*, HostFn, void*)>("cudaLaunchHostFunc");
  auto add_callback = shim.fn<int (*)(void*, Callback, void*, unsigned)>("cudaStreamAddCallback");
  auto stream_create = shim.fn<int (*)(void**)>("cudaStreamCreate");
  void* stream = nullptr;
  ASSERT_EQ(stream_create(&stream), 0);
  struct Log {
    std::vector<int> order;
  } log;
  static Log* current = nullptr;
  current = &log;
  static int one = 1, two = 2, three = 3;
  int rc = -1;
  run_vector_add(shim, 256, stream, &rc);  // queued on `stream`, copied back synchronously
  ASSERT_EQ(rc, 0);
  EXPECT_EQ(host_func(
                stream, [](void* p) { current->order.push_back(*static_cast<int*>(p)); }, &one),
            0);
  EXPECT_EQ(add_callback(
                stream,
                [](void* s, int status, void* p) {
                  current->order.push_back(status == 0 && s != nullptr ? *static_cast<int*>(p) : -1);
                },
                &two, 0),
            0);
  EXPECT_EQ(host_func(
                nullptr, [](void* p) { current->order.push_back(*static_cast<int*>(p)); }, &three),
            0);
  EXPECT_EQ(log.order, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(add_callback(
                stream, [](void*, int, void*) {}, nullptr, 1),
            cudaErrorInvalidValue);  // flags must be 0
  EXPECT_EQ(host_func(stream, nullptr, nullptr), cudaErrorInvalidValue);
  shim.fn<int (*)()>("cudaGetLastError")();
}

TEST(CudartShim, DriverCallsOfTheCensusAnswerFromTheSameGpu) {
  SHIM_OR_SKIP();
  std::string path = shim_path();
  path = path.substr(0, path.rfind('/')) + "/libcuda.so.1";
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  auto init = reinterpret_cast<int (*)(unsigned)>(dlsym(lib, "cuInit"));
  auto count = reinterpret_cast<int (*)(int*)>(dlsym(lib, "cuDeviceGetCount"));
  auto get = reinterpret_cast<int (*)(int*, int)>(dlsym(lib, "cuDeviceGet"));
  auto name = reinterpret_cast<int (*)(char*, int, int)>(dlsym(lib, "cuDeviceGetName"));
  auto cc = reinterpret_cast<int (*)(int*, int*, int)>(dlsym(lib, "cuDeviceComputeCapability"));
  auto sync = reinterpret_cast<int (*)()>(dlsym(lib, "cuCtxSynchronize"));
  auto mem = reinterpret_cast<int (*)(size_t*, size_t*)>(dlsym(lib, "cuMemGetInfo"));
  ASSERT_TRUE(init && count && get && name && cc && sync && mem);
  EXPECT_EQ(init(0), 0);
  int n = 0, dev = -1, major = 0, minor = 0;
  EXPECT_EQ(count(&n), 0);
  EXPECT_EQ(n, 1);
  EXPECT_EQ(get(&dev, 0), 0);
  EXPECT_EQ(dev, 0);
  EXPECT_EQ(get(&dev, 1), 101);
  char buf[64];
  EXPECT_EQ(name(buf, sizeof buf, 0), 0);
  EXPECT_STREQ(buf, warpsim::load_preset("gtx480").device_name.c_str());
  cudaDeviceProp p;
  ASSERT_EQ(shim.fn<int (*)(cudaDeviceProp*, int)>("cudaGetDeviceProperties")(&p, 0), 0);
  EXPECT_EQ(cc(&major, &minor, 0), 0);
  EXPECT_EQ(major, p.major);
  EXPECT_EQ(minor, p.minor);
  size_t free_bytes = 0, total = 0;
  EXPECT_EQ(mem(&free_bytes, &total), 0);
  EXPECT_EQ(total, p.totalGlobalMem);
  EXPECT_LE(free_bytes, total);
  EXPECT_EQ(sync(), 0);
}
