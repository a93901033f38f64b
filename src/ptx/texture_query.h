#pragma once
// The attributes txq and suq read from texture and surface objects, with their encodings
// (docs/ptx.md, "Texture and surface queries").
#include <cstdint>

#include "ptx/ir.h"
#include "runtime/runtime.h"

namespace warpsim::ptx {

// Channel data types and channel orders: the PTX ISA leaves their values to "the source
// language API"; CUDA defines none, so these are the OpenCL image encodings (CL_* / CLK_*),
// the ones the NVPTX back end uses for txq/suq.
enum ChannelDataType : uint32_t {
  kSnormInt8 = 0x10D0,
  kSnormInt16 = 0x10D1,
  kUnormInt8 = 0x10D2,
  kUnormInt16 = 0x10D3,
  kSignedInt8 = 0x10D7,
  kSignedInt16 = 0x10D8,
  kSignedInt32 = 0x10D9,
  kUnsignedInt8 = 0x10DA,
  kUnsignedInt16 = 0x10DB,
  kUnsignedInt32 = 0x10DC,
  kHalfFloat = 0x10DD,
  kFloat = 0x10DE,
};
enum ChannelOrder : uint32_t { kOrderR = 0x10B0, kOrderRG = 0x10B2, kOrderRGBA = 0x10B5 };

// The channel format of a texture or surface; `normalized`: integer channels read as
// normalized floats (cudaReadModeNormalizedFloat).
uint32_t channel_data_type(uint32_t channel_bits, bool is_float, bool is_signed, bool normalized);
uint32_t channel_order(uint32_t channels);

// txq: addressing and filter modes are CUDA's cudaTextureAddressMode (wrap 0, clamp 1, mirror 2,
// border 3) and cudaTextureFilterMode (point 0, linear 1) values; array_size is 0, and depth 1,
// for a texture that is no layered array; num_mipmap_levels and num_samples are 0 (no texture
// has mipmaps or several samples).
uint32_t texture_query(const TextureDesc& d, TexQuery q);
// suq: array_size is 0, and depth 1, for a surface that is no layered array.
uint32_t surface_query(const SurfaceDesc& d, SurfQuery q);

}  // namespace warpsim::ptx
