#include "ptx/texture_query.h"

namespace warpsim::ptx {

uint32_t channel_data_type(uint32_t channel_bits, bool is_float, bool is_signed, bool normalized) {
  if (is_float) return channel_bits == 16 ? kHalfFloat : kFloat;
  if (normalized && channel_bits < 32) {
    if (is_signed) return channel_bits == 8 ? kSnormInt8 : kSnormInt16;
    return channel_bits == 8 ? kUnormInt8 : kUnormInt16;
  }
  if (is_signed) return channel_bits == 8 ? kSignedInt8 : channel_bits == 16 ? kSignedInt16 : kSignedInt32;
  return channel_bits == 8 ? kUnsignedInt8 : channel_bits == 16 ? kUnsignedInt16 : kUnsignedInt32;
}

uint32_t channel_order(uint32_t channels) { return channels == 1 ? kOrderR : channels == 2 ? kOrderRG : kOrderRGBA; }

namespace {

uint32_t cuda_address_mode(TextureDesc::Address a) {
  switch (a) {
    case TextureDesc::Wrap:
      return 0;
    case TextureDesc::Clamp:
      return 1;
    case TextureDesc::Mirror:
      return 2;
    case TextureDesc::Border:
      return 3;
  }
  return 1;
}

}  // namespace

uint32_t texture_query(const TextureDesc& d, TexQuery q) {
  switch (q) {
    case TexQuery::Width:
      return d.width;
    case TexQuery::Height:
      return d.height;
    case TexQuery::Depth:
      return d.depth;
    case TexQuery::ChannelDataType:
      return channel_data_type(d.channel_bits, d.is_float, d.is_signed, d.read_normalized_float);
    case TexQuery::ChannelOrder:
      return channel_order(d.channels);
    case TexQuery::NormalizedCoords:
      return d.normalized_coords ? 1 : 0;
    case TexQuery::FilterMode:
      return d.linear_filter ? 1 : 0;
    case TexQuery::AddrMode0:
    case TexQuery::AddrMode1:
    case TexQuery::AddrMode2:
      return cuda_address_mode(d.address[int(q) - int(TexQuery::AddrMode0)]);
    case TexQuery::ArraySize:
      return d.layered ? d.layers : 0;
    case TexQuery::NumMipmapLevels:
    case TexQuery::NumSamples:
      return 0;
  }
  return 0;
}

uint32_t surface_query(const SurfaceDesc& d, SurfQuery q) {
  switch (q) {
    case SurfQuery::Width:
      return d.width;
    case SurfQuery::Height:
      return d.height;
    case SurfQuery::Depth:
      return d.layered ? 1 : d.slices;
    case SurfQuery::ArraySize:
      return d.layered ? d.slices : 0;
    case SurfQuery::ChannelDataType:
      return channel_data_type(d.channel_bits, d.is_float, d.is_signed, false);
    case SurfQuery::ChannelOrder:
      return channel_order(d.channels);
  }
  return 0;
}

}  // namespace warpsim::ptx
