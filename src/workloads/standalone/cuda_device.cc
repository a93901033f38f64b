#include "workloads/standalone/cuda_device.h"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "core/error.h"

// What nvcc's <<<...>>> expands to: the configuration is pushed, the launch stub pops it and
// calls cudaLaunchKernel. Going the same way (rather than calling cudaLaunchKernel alone) lets
// the program run on runtimes that implement only that path, GPGPU-Sim's among them.
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st* stream);
extern "C" cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream);

namespace warpsim {

namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(fmt::format("{}: {} ({})", what, cudaGetErrorString(e), cudaGetErrorName(e)));
}
void* ptr(DevPtr p) { return reinterpret_cast<void*>(uintptr_t(p)); }
const standalone::Entry* find(const standalone::Entry* table, const std::string& name) {
  for (const standalone::Entry* e = table; e->name; ++e)
    if (name == e->name) return e;
  return nullptr;
}
}  // namespace

CudaDevice::CudaDevice(const standalone::Entry* kernels, const standalone::Entry* symbols)
    : kernels_(kernels), symbols_(symbols), streams_{nullptr} {}

CudaDevice::~CudaDevice() {
  for (size_t i = 1; i < streams_.size(); ++i) cudaStreamDestroy(cudaStream_t(streams_[i]));
}

DevPtr CudaDevice::malloc(uint64_t bytes) {
  void* p = nullptr;
  check(cudaMalloc(&p, bytes), "cudaMalloc");
  return DevPtr(uintptr_t(p));
}
void CudaDevice::free(DevPtr p) { check(cudaFree(ptr(p)), "cudaFree"); }
void CudaDevice::memcpy_h2d(DevPtr dst, const void* src, uint64_t bytes) {
  check(cudaMemcpy(ptr(dst), src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (host to device)");
}
void CudaDevice::memcpy_d2h(void* dst, DevPtr src, uint64_t bytes) {
  check(cudaMemcpy(dst, ptr(src), bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (device to host)");
}
void CudaDevice::memcpy_d2d(DevPtr dst, DevPtr src, uint64_t bytes) {
  check(cudaMemcpy(ptr(dst), ptr(src), bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy (device to device)");
}
void CudaDevice::memset(DevPtr dst, int value, uint64_t bytes) {
  check(cudaMemset(ptr(dst), value, bytes), "cudaMemset");
}

KernelHandle CudaDevice::get_kernel(ModuleHandle, const std::string& name) {
  for (uint32_t i = 0; kernels_[i].name; ++i)
    if (name == kernels_[i].name) return KernelHandle{0, i};
  throw Error(fmt::format("no kernel '{}' in this program (workload.toml's kernels list)", name));
}

void CudaDevice::launch(KernelHandle k, Dim3 grid, Dim3 block, const KernelArgs& args, uint32_t dynamic_shared,
                        uint32_t stream) {
  if (stream >= streams_.size()) throw Error(fmt::format("launch on unknown stream {}", stream));
  std::vector<void*> params;
  for (size_t off : args.offsets()) params.push_back(const_cast<uint8_t*>(args.bytes().data() + off));
  const char* name = kernels_[k.index].name;
  if (__cudaPushCallConfiguration(dim3(grid.x, grid.y, grid.z), dim3(block.x, block.y, block.z), dynamic_shared,
                                  cudaStream_t(streams_[stream])) != 0)
    throw Error(fmt::format("{}: the launch configuration was refused", name));
  dim3 g, b;
  size_t shared = 0;
  cudaStream_t s = nullptr;
  check(__cudaPopCallConfiguration(&g, &b, &shared, &s), name);
  check(cudaLaunchKernel(kernels_[k.index].address, g, b, params.data(), shared, s), name);
  check(cudaGetLastError(), kernels_[k.index].name);
}

uint32_t CudaDevice::create_stream() {
  cudaStream_t s;
  check(cudaStreamCreate(&s), "cudaStreamCreate");
  streams_.push_back(s);
  return uint32_t(streams_.size() - 1);
}

void CudaDevice::synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

void CudaDevice::memcpy_to_symbol(ModuleHandle, const std::string& name, const void* src, uint64_t bytes,
                                  uint64_t offset) {
  const standalone::Entry* e = find(symbols_, name);
  if (!e) throw Error(fmt::format("no variable '{}' in this program's kernel.cu", name));
  check(cudaMemcpyToSymbol(e->address, src, bytes, offset, cudaMemcpyHostToDevice), "cudaMemcpyToSymbol");
}

uint64_t CudaDevice::create_texture(const TextureDesc& d) {
  cudaChannelFormatKind kind = d.is_float    ? cudaChannelFormatKindFloat
                               : d.is_signed ? cudaChannelFormatKindSigned
                                             : cudaChannelFormatKindUnsigned;
  int b = int(d.channel_bits);
  cudaResourceDesc res{};
  cudaChannelFormatDesc fmtd =
      cudaCreateChannelDesc(b, d.channels > 1 ? b : 0, d.channels > 2 ? b : 0, d.channels > 3 ? b : 0, kind);
  uint32_t elem = d.channels * d.channel_bits / 8;
  if (d.height <= 1) {
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = ptr(d.data);
    res.res.linear.desc = fmtd;
    res.res.linear.sizeInBytes = size_t(d.width) * elem;
  } else {
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = ptr(d.data);
    res.res.pitch2D.desc = fmtd;
    res.res.pitch2D.width = d.width;
    res.res.pitch2D.height = d.height;
    res.res.pitch2D.pitchInBytes = d.pitch ? d.pitch : size_t(d.width) * elem;
  }
  cudaTextureDesc td{};
  for (int i = 0; i < 3; ++i)
    td.addressMode[i] = d.address[i] == TextureDesc::Wrap     ? cudaAddressModeWrap
                        : d.address[i] == TextureDesc::Border ? cudaAddressModeBorder
                        : d.address[i] == TextureDesc::Mirror ? cudaAddressModeMirror
                                                              : cudaAddressModeClamp;
  td.filterMode = d.linear_filter ? cudaFilterModeLinear : cudaFilterModePoint;
  td.readMode = d.read_normalized_float ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  td.normalizedCoords = d.normalized_coords ? 1 : 0;
  cudaTextureObject_t tex = 0;
  check(cudaCreateTextureObject(&tex, &res, &td, nullptr), "cudaCreateTextureObject");
  return uint64_t(tex);
}

void CudaDevice::destroy_texture(uint64_t tex) {
  check(cudaDestroyTextureObject(cudaTextureObject_t(tex)), "cudaDestroyTextureObject");
}

}  // namespace warpsim
