// The shim's copies of the CUDA runtime structures (src/cudart/cuda_abi.h) against the
// toolkit's headers: a host program compiled with the CUDA include directory prints sizes and
// field offsets, which must equal ours. Skipped when the headers are not installed.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cudart/cuda_abi.h"

namespace {

std::string cuda_include() {
  if (const char* e = std::getenv("CUDA_INCLUDE"); e && *e) return e;
  return "/usr/local/cuda/include";
}

// FIELD(struct, member) lines shared by both sides.
// clang-format off
#define WARPSIM_ABI_FIELDS(X)                                                                          \
  X(cudaDeviceProp, name) X(cudaDeviceProp, totalGlobalMem) X(cudaDeviceProp, sharedMemPerBlock)       \
  X(cudaDeviceProp, maxThreadsPerBlock) X(cudaDeviceProp, totalConstMem) X(cudaDeviceProp, major)      \
  X(cudaDeviceProp, multiProcessorCount) X(cudaDeviceProp, maxTexture2DLinear)                          \
  X(cudaDeviceProp, surfaceAlignment) X(cudaDeviceProp, concurrentKernels) X(cudaDeviceProp, l2CacheSize) \
  X(cudaDeviceProp, maxThreadsPerMultiProcessor) X(cudaDeviceProp, sharedMemPerMultiprocessor)          \
  X(cudaDeviceProp, regsPerMultiprocessor) X(cudaDeviceProp, sharedMemPerBlockOptin)                    \
  X(cudaDeviceProp, maxBlocksPerMultiProcessor) X(cudaDeviceProp, reservedSharedMemPerBlock)            \
  X(cudaDeviceProp, hostNumaMultinodeIpcSupported) X(cudaDeviceProp, reserved)                          \
  X(cudaFuncAttributes, localSizeBytes) X(cudaFuncAttributes, numRegs)                                  \
  X(cudaFuncAttributes, maxDynamicSharedSizeBytes) X(cudaFuncAttributes, clusterDimMustBeSet)           \
  X(cudaFuncAttributes, reserved) X(cudaResourceDesc, res) X(cudaResourceDesc, flags)                   \
  X(cudaTextureDesc, filterMode) X(cudaTextureDesc, readMode) X(cudaTextureDesc, normalizedCoords)      \
  X(cudaTextureDesc, seamlessCubemap) X(cudaChannelFormatDesc, f) X(cudaPointerAttributes, hostPointer) \
  X(cudaPitchedPtr, ysize) X(cudaExtent, depth) X(cudaPos, z) X(cudaMemcpy3DParms, srcPos)               \
  X(cudaMemcpy3DParms, srcPtr) X(cudaMemcpy3DParms, dstArray) X(cudaMemcpy3DParms, dstPtr)               \
  X(cudaMemcpy3DParms, extent) X(cudaMemcpy3DParms, kind) X(cudaKernelNodeParams, gridDim)              \
  X(cudaKernelNodeParams, sharedMemBytes) X(cudaKernelNodeParams, kernelParams)                         \
  X(cudaKernelNodeParams, extra) X(cudaMemsetParams, value) X(cudaMemsetParams, elementSize)            \
  X(cudaMemsetParams, width) X(cudaMemsetParams, height) X(cudaHostNodeParams, userData)                \
  X(cudaGraphExecUpdateResultInfo, errorNode) X(cudaGraphExecUpdateResultInfo, errorFromNode)           \
  X(cudaMemPoolProps, location) X(cudaMemPoolProps, win32SecurityAttributes) X(cudaMemPoolProps, maxSize) \
  X(cudaMemPoolProps, usage) X(cudaMemPoolProps, reserved) X(cudaMemAccessDesc, flags)                 \
  X(cudaMemAllocNodeParams, accessDescs) X(cudaMemAllocNodeParams, bytesize) X(cudaMemAllocNodeParams, dptr) \
  X(cudaLaunchConfig_t, dynamicSmemBytes) X(cudaLaunchConfig_t, stream) X(cudaLaunchConfig_t, attrs)     \
  X(cudaLaunchConfig_t, numAttrs) X(cudaLaunchAttribute, val)
// clang-format on

// clang-format off
#define WARPSIM_ABI_STRUCTS(X) \
  X(cudaDeviceProp) X(cudaFuncAttributes) X(cudaResourceDesc) X(cudaTextureDesc) \
  X(cudaChannelFormatDesc) X(cudaPointerAttributes) X(cudaPitchedPtr) X(cudaExtent) X(cudaPos) \
  X(cudaMemcpy3DParms) X(cudaKernelNodeParams) X(cudaMemsetParams) X(cudaHostNodeParams) \
  X(cudaGraphEdgeData) X(cudaGraphExecUpdateResultInfo) X(cudaMemLocation) X(cudaMemPoolProps) \
  X(cudaMemAccessDesc) X(cudaMemAllocNodeParams) X(cudaLaunchConfig_t) X(cudaLaunchAttribute)
// clang-format on

#define STR2(...) #__VA_ARGS__
#define STR(...) STR2(__VA_ARGS__)

std::map<std::string, size_t> ours() {
  using namespace warpsim::cudart;
  std::map<std::string, size_t> m;
#define OUR_FIELD(s, f) m[#s "." #f] = offsetof(s, f);
#define OUR_SIZE(s) m["sizeof " #s] = sizeof(s);
  WARPSIM_ABI_FIELDS(OUR_FIELD)
  WARPSIM_ABI_STRUCTS(OUR_SIZE)
  m["res.linear.sizeInBytes"] = offsetof(cudaResourceDesc, res.linear.sizeInBytes);
  m["res.pitch2D.pitchInBytes"] = offsetof(cudaResourceDesc, res.pitch2D.pitchInBytes);
  return m;
}

}  // namespace

TEST(CudaAbi, StructuresMatchTheToolkitHeaders) {
  std::string inc = cuda_include();
  if (access((inc + "/cuda_runtime_api.h").c_str(), R_OK) != 0)
    GTEST_SKIP() << "CUDA headers not found in " << inc << " (set CUDA_INCLUDE): ABI comparison skipped";
  std::string bin = WARPSIM_BINARY;
  std::string dir = bin.substr(0, bin.rfind('/')) + "/cudart-test-out";
  std::filesystem::create_directories(dir);
  std::string src = dir + "/abi_probe.cc", exe = dir + "/abi_probe", out = dir + "/abi_probe.txt";
  {
    std::ofstream s(src);
    s << "#include <cuda_runtime_api.h>\n#include <cstddef>\n#include <cstdio>\nint main() {\n";
    s << "#define F(st, f) std::printf(\"%s %zu\\n\", #st \".\" #f, offsetof(st, f));\n";
    s << "#define S(st) std::printf(\"sizeof %s %zu\\n\", #st, sizeof(st));\n";
    s << STR(WARPSIM_ABI_FIELDS(F)) << "\n" << STR(WARPSIM_ABI_STRUCTS(S)) << "\n";
    s << "std::printf(\"res.linear.sizeInBytes %zu\\n\", offsetof(cudaResourceDesc, res.linear.sizeInBytes));\n";
    s << "std::printf(\"res.pitch2D.pitchInBytes %zu\\n\", offsetof(cudaResourceDesc, res.pitch2D.pitchInBytes));\n";
    s << "return 0; }\n";
  }
  std::string cmd = "c++ -std=c++17 -I" + inc + " " + src + " -o " + exe + " && " + exe + " > " + out;
  int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0) << cmd;
  std::ifstream in(out);
  std::map<std::string, size_t> theirs;
  std::string line;
  while (std::getline(in, line)) {
    size_t sp = line.rfind(' ');
    theirs[line.substr(0, sp)] = std::stoul(line.substr(sp + 1));
  }
  auto mine = ours();
  EXPECT_EQ(theirs.size(), mine.size());
  for (const auto& [k, v] : mine) {
    ASSERT_TRUE(theirs.count(k)) << k;
    EXPECT_EQ(v, theirs[k]) << k;
  }
}

// CUDA 11's cudaDeviceProp (libcudart.so.11.0) and CUDA 12's (cudaGetDeviceProperties_v2 of
// libcudart.so.12): sizes and offsets as CUDA 11.8's driver_types.h gives them (a probe compiled
// against it printed these), CUDA 12 adding 13 fields and 63 reserved ints to CUDA 11's.
TEST(CudaAbi, LegacyDevicePropertiesLayouts) {
  using namespace warpsim::cudart;
  EXPECT_EQ(sizeof(cudaDeviceProp11), 728u);
  EXPECT_EQ(offsetof(cudaDeviceProp11, clockRate), 348u);
  EXPECT_EQ(offsetof(cudaDeviceProp11, multiProcessorCount), 388u);
  EXPECT_EQ(offsetof(cudaDeviceProp11, computeMode), 404u);
  EXPECT_EQ(offsetof(cudaDeviceProp11, memoryClockRate), 608u);
  EXPECT_EQ(offsetof(cudaDeviceProp11, l2CacheSize), 616u);
  EXPECT_EQ(offsetof(cudaDeviceProp11, cooperativeMultiDeviceLaunch), 692u);
  EXPECT_EQ(offsetof(cudaDeviceProp11, sharedMemPerBlockOptin), 696u);
  EXPECT_EQ(offsetof(cudaDeviceProp11, reservedSharedMemPerBlock), 720u);
  EXPECT_EQ(sizeof(cudaDeviceProp12), 1032u);
  EXPECT_EQ(offsetof(cudaDeviceProp12, unifiedFunctionPointers), 776u);
}

// A CUDA 11 or 12 program's cudaGetDeviceProperties fills its own layout and not a byte past it.
TEST(CudaAbi, OlderLibrariesWriteTheirOwnDeviceProperties) {
  using namespace warpsim::cudart;
  std::string bin = WARPSIM_BINARY;
  std::string dir = bin.substr(0, bin.rfind('/')) + "/cudart/";
  setenv("WARPSIM_GPU", "titanv", 1);
  unsetenv("WARPSIM_SET");
  unsetenv("WARPSIM_JSON");
  void* l11 = dlopen((dir + "libcudart.so.11.0").c_str(), RTLD_NOW | RTLD_LOCAL);
  void* l12 = dlopen((dir + "libcudart.so.12").c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(l11, nullptr) << dlerror();
  ASSERT_NE(l12, nullptr) << dlerror();
  using GetProps = int (*)(void*, int);
  auto check = [](void* lib, const char* entry, size_t size) {
    auto get = reinterpret_cast<GetProps>(dlsym(lib, entry));
    ASSERT_NE(get, nullptr) << entry;
    std::vector<unsigned char> buf(size + 64, 0xab);
    ASSERT_EQ(get(buf.data(), 0), 0) << entry;
    for (size_t i = size; i < buf.size(); ++i) ASSERT_EQ(buf[i], 0xab) << entry << ": byte " << i << " written";
    cudaDeviceProp11 p;
    std::memcpy(&p, buf.data(), sizeof(p));
    EXPECT_EQ(std::string(p.name), "NVIDIA TITAN V") << entry;
    EXPECT_EQ(p.multiProcessorCount, 80) << entry;
    EXPECT_EQ(p.warpSize, 32) << entry;
    EXPECT_EQ(p.maxThreadsPerBlock, 1024) << entry;
    EXPECT_EQ(p.clockRate, 1200000) << entry;  // kHz
    EXPECT_GT(p.l2CacheSize, 0) << entry;
    EXPECT_GT(p.sharedMemPerBlockOptin, 0u) << entry;
    EXPECT_NE(get(buf.data(), 1), 0) << entry << ": one device";
  };
  check(l11, "cudaGetDeviceProperties", sizeof(cudaDeviceProp11));
  check(l12, "cudaGetDeviceProperties", sizeof(cudaDeviceProp12));
  check(l12, "cudaGetDeviceProperties_v2", sizeof(cudaDeviceProp12));
  cudaDeviceProp12 p12;
  ASSERT_EQ(reinterpret_cast<GetProps>(dlsym(l12, "cudaGetDeviceProperties_v2"))(&p12, 0), 0);
  EXPECT_EQ(p12.memoryPoolsSupported, 1);
}
