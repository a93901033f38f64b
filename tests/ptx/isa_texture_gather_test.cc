// Texture gathers (tld4) and texture and surface queries (txq, suq.channel_*), in hand-written
// PTX with values computed by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness.h"

namespace warpsim::test {
namespace {

// A 4 x 3 texture of 4 float channels: channel c of texel (i, j) is c * 100 + j * 10 + i.
uint64_t rgba_texture(SnippetRun& r, TextureDesc d) {
  d.width = 4;
  d.height = 3;
  d.channels = 4;
  std::vector<float> v;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 4; ++i)
      for (int c = 0; c < 4; ++c) v.push_back(float(c * 100 + j * 10 + i));
  d.data = r.rt.malloc(v.size() * 4);
  r.rt.memcpy_h2d(d.data, v.data(), v.size() * 4);
  return r.rt.create_texture(d);
}

std::string handle(int reg, uint64_t h) {
  return "mov.u64 %rd" + std::to_string(reg) + ", " + std::to_string(h) + ";\n";
}
std::string f32(float f) {
  char b[16];
  std::snprintf(b, sizeof b, "0f%08X", f2u(f));
  return b;
}

// tld4.<comp>.2d of texture %rd1 at (x, y): the 4 results at [%rd99 + slot * 32 ...].
std::string gather(const std::string& comp, float x, float y, int slot, const std::string& dtype = "f32",
                   const std::string& tex = "%rd1") {
  std::string o = std::to_string(slot * 32);
  return "mov.f32 %f1, " + f32(x) + "; mov.f32 %f2, " + f32(y) + ";\n" + "tld4." + comp + ".2d.v4." + dtype +
         ".f32 {%f5, %f6, %f7, %f8}, [" + tex + ", {%f1, %f2}];\n" + "st.global.v2.f32 [%rd99+" + o +
         "], {%f5, %f6}; st.global.v2.f32 [%rd99+" + std::to_string(slot * 32 + 8) + "], {%f7, %f8};\n";
}

// The 4 floats of a gather stored by gather() at `slot` (two per output word).
std::vector<float> quad(const std::vector<uint64_t>& o, int slot) {
  const uint64_t a = o[size_t(slot) * 4], b = o[size_t(slot) * 4 + 1];
  return {u2f(a), u2f(a >> 32), u2f(b), u2f(b >> 32)};
}

using Quad = std::vector<float>;

TEST(IsaTextureGather, EachComponentCounterClockwiseFromLowerLeft) {
  SnippetRun r;
  uint64_t h = rgba_texture(r, TextureDesc{});
  // (1.7, 1.2): i0 = floor(1.2) = 1, j0 = floor(0.7) = 0; texels (1,1) (2,1) (2,0) (1,0).
  const auto& o = r.run(handle(1, h) + gather("r", 1.7f, 1.2f, 0) + gather("g", 1.7f, 1.2f, 1) +
                        gather("b", 1.7f, 1.2f, 2) + gather("a", 1.7f, 1.2f, 3));
  EXPECT_EQ(quad(o, 0), (Quad{11, 12, 2, 1}));
  EXPECT_EQ(quad(o, 1), (Quad{111, 112, 102, 101}));
  EXPECT_EQ(quad(o, 2), (Quad{211, 212, 202, 201}));
  EXPECT_EQ(quad(o, 3), (Quad{311, 312, 302, 301}));
}

TEST(IsaTextureGather, AddressModesApplyAtTheEdgesPerDimension) {
  SnippetRun r;
  TextureDesc clamp, wrap, border, mixed;
  for (auto& a : wrap.address) a = TextureDesc::Wrap;
  for (auto& a : border.address) a = TextureDesc::Border;
  mixed.address[0] = TextureDesc::Mirror;
  mixed.address[1] = TextureDesc::Wrap;
  wrap.normalized_coords = true;  // wrap needs no normalized coordinates, but is tried with them
  std::string body = handle(1, rgba_texture(r, clamp)) + handle(2, rgba_texture(r, wrap)) +
                     handle(3, rgba_texture(r, border)) + handle(4, rgba_texture(r, mixed));
  // (0.2, 1.7): i0 = -1, i1 = 0, j0 = 1, j1 = 2.
  body += gather("r", 0.2f, 1.7f, 0) + gather("r", 0.2f / 4, 1.7f / 3, 1, "f32", "%rd2") +
          gather("r", 0.2f, 1.7f, 2, "f32", "%rd3");
  // (3.9, 0.1): i0 = 3, i1 = 4, j0 = -1, j1 = 0; x mirrors (4 -> 3), y wraps (-1 -> 2).
  body += gather("r", 3.9f, 0.1f, 3, "f32", "%rd4");
  const auto& o = r.run(body);
  EXPECT_EQ(quad(o, 0), (Quad{20, 20, 10, 10}));  // x -1 clamps to 0
  EXPECT_EQ(quad(o, 1), (Quad{23, 20, 10, 13}));  // x -1 wraps to 3
  EXPECT_EQ(quad(o, 2), (Quad{0, 20, 10, 0}));    // border texels read 0
  EXPECT_EQ(quad(o, 3), (Quad{3, 3, 23, 23}));    // (3,0) (3,0) (3,2) (3,2)
}

TEST(IsaTextureGather, IntegerResultsAndMissingChannels) {
  SnippetRun r;
  TextureDesc d;
  d.width = 2;
  d.height = 2;
  d.channels = 2;
  d.channel_bits = 16;
  d.is_float = false;
  d.is_signed = true;
  const int16_t texels[] = {-1, 5, -2, 6, -3, 7, -4, 8};  // (x, y) of texel (i, j): (-(1 + 2j + i), 5 + 2j + i)
  d.data = r.rt.malloc(sizeof texels);
  r.rt.memcpy_h2d(d.data, texels, sizeof texels);
  uint64_t h = r.rt.create_texture(d);
  const auto& o = r.run(handle(1, h) + R"(
    mov.f32 %f1, 1.0; mov.f32 %f2, 1.0;
    tld4.r.2d.v4.s32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f2}];
    st.global.v2.u32 [%rd99], {%r1, %r2}; st.global.v2.u32 [%rd99+8], {%r3, %r4};
    tld4.g.2d.v4.u32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f2}];
    st.global.v2.u32 [%rd99+16], {%r1, %r2}; st.global.v2.u32 [%rd99+24], {%r3, %r4};
    tld4.b.2d.v4.u32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f2}];
    st.global.v2.u32 [%rd99+32], {%r1, %r2}; st.global.v2.u32 [%rd99+40], {%r3, %r4};
  )");
  // (1, 1): i0 = j0 = 0; texels (0,1) (1,1) (1,0) (0,0).
  auto lo = [&](size_t k) { return int32_t(uint32_t(o[k])); };
  auto hi = [&](size_t k) { return int32_t(uint32_t(o[k] >> 32)); };
  EXPECT_EQ(lo(0), -3);
  EXPECT_EQ(hi(0), -4);
  EXPECT_EQ(lo(1), -2);
  EXPECT_EQ(hi(1), -1);
  EXPECT_EQ(lo(2), 7);
  EXPECT_EQ(hi(2), 8);
  EXPECT_EQ(lo(3), 6);
  EXPECT_EQ(hi(3), 5);
  EXPECT_EQ(o[4], 0u);  // a 2-channel texture has no blue channel
  EXPECT_EQ(o[5], 0u);
}

TEST(IsaTextureGather, SignedThirtyTwoBitTexelsKeepTheirSign) {
  SnippetRun r;
  TextureDesc d;
  d.width = 2;
  d.height = 1;
  d.is_float = false;
  d.is_signed = true;
  const int32_t texels[] = {-7, -100000};
  d.data = r.rt.malloc(sizeof texels);
  r.rt.memcpy_h2d(d.data, texels, sizeof texels);
  uint64_t h = r.rt.create_texture(d);
  const auto& o = r.run(handle(1, h) + R"(
    mov.f32 %f1, 1.0; mov.f32 %f2, 0.5;
    tld4.r.2d.v4.s32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f2}];
    st.global.v2.u32 [%rd99], {%r1, %r2};
    tex.2d.v4.s32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f2}];
    st.global.u32 [%rd99+8], %r1;
  )");
  EXPECT_EQ(int32_t(uint32_t(o[0])), -7);  // (0, 0): j0 = -1 and j1 = 0 clamp to row 0
  EXPECT_EQ(int32_t(uint32_t(o[0] >> 32)), -100000);
  EXPECT_EQ(int32_t(uint32_t(o[1])), -100000);  // tex of texel (1, 0)
}

TEST(IsaTextureGather, LayeredTexturesGatherFromTheirLayer) {
  SnippetRun r;
  TextureDesc d;
  d.width = 3;
  d.height = 2;
  d.layers = 2;
  d.layered = true;
  std::vector<float> v;  // layer * 100 + j * 10 + i
  for (int l = 0; l < 2; ++l)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) v.push_back(float(l * 100 + j * 10 + i));
  d.data = r.rt.malloc(v.size() * 4);
  r.rt.memcpy_h2d(d.data, v.data(), v.size() * 4);
  uint64_t h = r.rt.create_texture(d);
  const auto& o = r.run(handle(1, h) + R"(
    mov.u32 %r1, 1; mov.f32 %f1, 2.0; mov.f32 %f2, 1.0;
    tld4.r.a2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%r1, %f1, %f2, %f2}];
    st.global.v2.f32 [%rd99], {%f5, %f6}; st.global.v2.f32 [%rd99+8], {%f7, %f8};
    mov.u32 %r1, 0;
    tld4.r.a2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%r1, %f1, %f2, %f2}];
    st.global.v2.f32 [%rd99+32], {%f5, %f6}; st.global.v2.f32 [%rd99+40], {%f7, %f8};
  )");
  // (2, 1): i0 = 1, j0 = 0; texels (1,1) (2,1) (2,0) (1,0).
  EXPECT_EQ(quad(o, 0), (Quad{111, 112, 102, 101}));
  EXPECT_EQ(quad(o, 1), (Quad{11, 12, 2, 1}));
}

TEST(IsaTextureGather, UnsupportedAndMismatchedFormsAreNamed) {
  auto err = [](const std::string& body) { return load_error(wrap_kernel(body)); };
  const std::string d = "{%f5, %f6, %f7, %f8}";
  EXPECT_NE(err("tld4.r.1d.v4.f32.f32 " + d + ", [%rd1, {%f1}];").find("tld4 is defined for .2d, .a2d, .cube"),
            std::string::npos);
  EXPECT_NE(err("tld4.r.3d.v4.f32.f32 " + d + ", [%rd1, {%f1, %f1, %f1, %f1}];").find("not .3d"), std::string::npos);
  EXPECT_NE(err("tld4.g.cube.v4.f32.f32 " + d + ", [%rd1, {%f1, %f1, %f1, %f1}];")
                .find("tld4.cube (cubemap gather) is not supported"),
            std::string::npos);
  EXPECT_NE(err("tld4.2d.v4.f32.f32 " + d + ", [%rd1, {%f1, %f2}];").find("tld4 needs one component"),
            std::string::npos);
  EXPECT_NE(err("tld4.r.2d.v4.f32.s32 " + d + ", [%rd1, {%r1, %r2}];").find("tld4 coordinate type must be .f32"),
            std::string::npos);
  SnippetRun r;
  TextureDesc vol;
  vol.width = vol.height = 2;
  vol.depth = 2;
  vol.data = r.rt.malloc(32);
  uint64_t h = r.rt.create_texture(vol);
  try {
    r.run(handle(1, h) + gather("r", 1, 1, 0));
    ADD_FAILURE() << "a gather from a 3D texture ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("tld4.2d does not match the texture object"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("a 3D texture"), std::string::npos) << e.what();
  }
}

// ------------------------------------------------------------------ txq, suq

// Runs txq.<q> for each query on texture %rd1; returns the values in order.
std::vector<uint32_t> queries(SnippetRun& r, uint64_t h, const std::vector<std::string>& qs) {
  std::string body = handle(1, h);
  for (size_t k = 0; k < qs.size(); ++k)
    body += "txq." + qs[k] + ".b32 %r1, [%rd1]; st.global.u32 [%rd99+" + std::to_string(8 * k) + "], %r1;\n";
  const auto& o = r.run(body);
  std::vector<uint32_t> v;
  for (size_t k = 0; k < qs.size(); ++k) v.push_back(uint32_t(o[k]));
  return v;
}

const std::vector<std::string> kAll = {
    "width",       "height",      "depth",       "channel_data_type", "channel_order", "normalized_coords",
    "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2",       "array_size",    "num_mipmap_levels",
    "num_samples"};

TEST(IsaTextureQuery, EachAttributeOfThreeTextures) {
  SnippetRun r;
  TextureDesc a;  // 5 x 3, RGBA of unsigned 16-bit read as normalized floats
  a.width = 5;
  a.height = 3;
  a.channels = 4;
  a.channel_bits = 16;
  a.is_float = false;
  a.read_normalized_float = true;
  a.normalized_coords = true;
  a.linear_filter = true;
  a.address[0] = TextureDesc::Wrap;
  a.address[1] = TextureDesc::Mirror;
  a.address[2] = TextureDesc::Border;
  a.data = r.rt.malloc(5 * 3 * 8);
  EXPECT_EQ(queries(r, r.rt.create_texture(a), kAll),
            (std::vector<uint32_t>{5, 3, 1, 0x10D3, 0x10B5, 1, 1, 0, 2, 3, 0, 0, 0}));
  TextureDesc b;  // 7 layers of 2 x 4, RG of signed 8-bit integers
  b.width = 2;
  b.height = 4;
  b.layers = 7;
  b.layered = true;
  b.channels = 2;
  b.channel_bits = 8;
  b.is_float = false;
  b.is_signed = true;
  b.data = r.rt.malloc(2 * 4 * 7 * 2);
  EXPECT_EQ(queries(r, r.rt.create_texture(b), kAll),
            (std::vector<uint32_t>{2, 4, 1, 0x10D7, 0x10B2, 0, 0, 1, 1, 1, 7, 0, 0}));
  TextureDesc c;  // 3 x 2 x 6 half floats
  c.width = 3;
  c.height = 2;
  c.depth = 6;
  c.channel_bits = 16;
  c.data = r.rt.malloc(3 * 2 * 6 * 2);
  EXPECT_EQ(queries(r, r.rt.create_texture(c), {"depth", "channel_data_type", "channel_order", "array_size"}),
            (std::vector<uint32_t>{6, 0x10DD, 0x10B0, 0}));
  TextureDesc u;  // unsigned 32-bit and 8-bit integers, signed 16-bit read as normalized floats, floats
  u.channel_bits = 32;
  u.is_float = false;
  u.data = r.rt.malloc(64);
  u.width = 4;
  const std::vector<std::string> t = {"channel_data_type"};
  EXPECT_EQ(queries(r, r.rt.create_texture(u), t)[0], 0x10DCu);
  u.channel_bits = 8;
  EXPECT_EQ(queries(r, r.rt.create_texture(u), t)[0], 0x10DAu);
  u.channel_bits = 16;
  u.is_signed = true;
  u.read_normalized_float = true;
  EXPECT_EQ(queries(r, r.rt.create_texture(u), t)[0], 0x10D1u);
  u.is_float = true;
  u.channel_bits = 32;
  EXPECT_EQ(queries(r, r.rt.create_texture(u), t)[0], 0x10DEu);
}

TEST(IsaTextureQuery, SurfaceChannelFormat) {
  SnippetRun r;
  SurfaceDesc d;
  d.width = 4;
  d.elem_bytes = 4;
  d.channels = 4;
  d.channel_bits = 8;
  d.data = r.rt.malloc(16);
  SurfaceDesc f = d;
  f.channels = 1;
  f.channel_bits = 32;
  f.is_float = true;
  const auto& o = r.run(handle(1, r.rt.create_surface(d)) + handle(2, r.rt.create_surface(f)) + R"(
    suq.channel_data_type.b32 %r1, [%rd1]; st.global.u32 [%rd99], %r1;
    suq.channel_order.b32 %r1, [%rd1]; st.global.u32 [%rd99+8], %r1;
    suq.channel_data_type.b32 %r1, [%rd2]; st.global.u32 [%rd99+16], %r1;
    suq.channel_order.b32 %r1, [%rd2]; st.global.u32 [%rd99+24], %r1;
  )");
  EXPECT_EQ(o[0], 0x10DAu);  // unsigned 8-bit
  EXPECT_EQ(o[1], 0x10B5u);  // RGBA
  EXPECT_EQ(o[2], 0x10DEu);  // float
  EXPECT_EQ(o[3], 0x10B0u);  // R
}

TEST(IsaTextureQuery, UnsupportedFormsAreNamed) {
  auto err = [](const std::string& body) { return load_error(wrap_kernel(body)); };
  EXPECT_NE(err("txq.level.width.b32 %r1, [%rd1], %r2;").find("txq.level (a mipmap level's size) is not supported"),
            std::string::npos);
  EXPECT_NE(err("txq.force_unnormalized_coords.b32 %r1, [%rd1];").find("txq needs one query"), std::string::npos);
  EXPECT_NE(err("txq.width.height.b32 %r1, [%rd1];").find("txq needs one query"), std::string::npos);
  EXPECT_NE(err("txq.width.u32 %r1, [%rd1];").find("txq needs .b32"), std::string::npos);
  EXPECT_NE(err("txq.width.b32 %r1, [tex_A];").find("expected [texture-object register]"), std::string::npos);
  EXPECT_NE(err("suq.memory_layout.b32 %r1, [%rd1];").find("unsupported modifier '.memory_layout'"), std::string::npos);
  SnippetRun r;
  try {
    r.run("mov.u64 %rd1, 4242;\ntxq.width.b32 %r1, [%rd1];");
    ADD_FAILURE() << "a query of no texture ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("invalid texture object"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpsim::test
