// Surfaces (suld.b/sust.b/suq), layered, cubemap and 3D textures, SIMD video instructions and
// lop3, in hand-written PTX with values computed by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness.h"

namespace warpsim::test {
namespace {

// A surface over `bytes` bytes of device memory, byte k holding k & 0xff.
struct SurfaceRun {
  SnippetRun r;
  DevPtr data = 0;
  uint64_t handle = 0;
  std::vector<uint8_t> host;

  SurfaceRun(SurfaceDesc d, uint32_t bytes) {
    host.resize(bytes);
    for (uint32_t k = 0; k < bytes; ++k) host[k] = uint8_t(k);
    data = r.rt.malloc(bytes);
    r.rt.memcpy_h2d(data, host.data(), bytes);
    d.data = data;
    handle = r.rt.create_surface(d);
  }
  // Runs `body` with the surface object in %rd1; returns thread 0's output words.
  const std::vector<uint64_t>& run(const std::string& body, uint32_t threads = 1) {
    return r.run("mov.u64 %rd1, " + std::to_string(handle) + ";\n" + body, threads);
  }
  std::vector<uint8_t> memory() {
    std::vector<uint8_t> m(host.size());
    r.rt.memcpy_d2h(m.data(), data, m.size());
    return m;
  }
  std::string error(const std::string& body) {
    try {
      run(body);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
};

uint32_t word_at(uint32_t off) {
  return (off & 0xff) | ((off + 1) & 0xff) << 8 | ((off + 2) & 0xff) << 16 | ((off + 3) & 0xff) << 24;
}

// 4 elements of 4 bytes per row (16 bytes), 3 rows, 2 slices.
SurfaceDesc volume() {
  SurfaceDesc d;
  d.width = 4;
  d.height = 3;
  d.slices = 2;
  d.elem_bytes = 4;
  return d;
}

TEST(IsaSurface, LoadsAddressBytesRowsAndSlices) {
  SurfaceRun s(volume(), 96);
  const auto& o = s.run(R"(
    mov.u32 %r2, 8; mov.u32 %r3, 1; mov.u32 %r4, 1;
    suld.b.3d.b32.trap {%r1}, [%rd1, {%r2, %r3, %r4, %r4}];
    st.global.u32 [%rd99], %r1;
    mov.u32 %r2, 4; mov.u32 %r3, 2;
    suld.b.2d.v2.b32.trap {%r5, %r6}, [%rd1, {%r2, %r3}];
    st.global.u32 [%rd99+8], %r5; st.global.u32 [%rd99+16], %r6;
    mov.u32 %r2, 5;
    suld.b.1d.b8.trap {%rs1}, [%rd1, {%r2}];
    st.global.u16 [%rd99+24], %rs1;
    mov.u32 %r2, 2;
    suld.b.1d.v4.b16.trap {%rs2, %rs3, %rs4, %rs5}, [%rd1, {%r2}];
    st.global.u16 [%rd99+32], %rs2; st.global.u16 [%rd99+40], %rs5;
  )");
  EXPECT_EQ(o[0], word_at((1 * 3 + 1) * 16 + 8));  // x 8 bytes, y 1, z 1: byte 72
  EXPECT_EQ(o[1], word_at(2 * 16 + 4));
  EXPECT_EQ(o[2], word_at(2 * 16 + 8));
  EXPECT_EQ(o[3], 5u);
  EXPECT_EQ(o[4], 0x0302u);  // halfwords at bytes 2 and 8
  EXPECT_EQ(o[5], 0x0908u);
}

TEST(IsaSurface, BoundaryModes) {
  SurfaceRun s(volume(), 96);
  const auto& o = s.run(R"(
    mov.u32 %r2, 100; mov.u32 %r3, 7;
    suld.b.2d.b32.clamp {%r1}, [%rd1, {%r2, %r3}];
    st.global.u32 [%rd99], %r1;
    mov.u32 %r2, -4; mov.u32 %r3, 1;
    suld.b.2d.b32.clamp {%r1}, [%rd1, {%r2, %r3}];
    st.global.u32 [%rd99+8], %r1;
    mov.u32 %r2, 14;
    suld.b.2d.b32.clamp {%r1}, [%rd1, {%r2, %r3}];
    st.global.u32 [%rd99+16], %r1;
    mov.u32 %r2, 16; mov.u32 %r1, 77;
    suld.b.2d.b32.zero {%r1}, [%rd1, {%r2, %r3}];
    st.global.u32 [%rd99+24], %r1;
    mov.u32 %r5, 0xdeadbeef;
    sust.b.2d.b32.zero [%rd1, {%r2, %r3}], {%r5};
    mov.u32 %r2, 12; mov.u32 %r3, 5;
    sust.b.2d.b32.clamp [%rd1, {%r2, %r3}], {%r5};
  )");
  EXPECT_EQ(o[0], word_at(2 * 16 + 12));  // x to the last element of the row, y to the last row
  EXPECT_EQ(o[1], word_at(16));           // x -4 to 0
  EXPECT_EQ(o[2], word_at(16 + 12));      // x 14: 4 bytes would pass the row's end
  EXPECT_EQ(o[3], 0u);                    // zero mode reads zeros
  auto m = s.memory();
  // The zero-mode store wrote nothing; the clamped one went to (12, row 2).
  for (uint32_t k = 0; k < 96; ++k) {
    if (k >= 2 * 16 + 12 && k < 2 * 16 + 16) continue;
    ASSERT_EQ(m[k], uint8_t(k)) << k;
  }
  EXPECT_EQ(m[44] | m[45] << 8 | m[46] << 16 | uint32_t(m[47]) << 24, 0xdeadbeefu);
}

TEST(IsaSurface, TrapModeStopsTheKernelWithTheCoordinates) {
  SurfaceRun s(volume(), 96);
  std::string e = s.error("mov.u32 %r2, 16; mov.u32 %r3, 0;\nsuld.b.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];");
  EXPECT_NE(e.find("suld outside the surface (x 16 bytes, y 0"), std::string::npos) << e;
  e = s.error("mov.u32 %r2, 0; mov.u32 %r3, 3;\nsust.b.2d.b32 [%rd1, {%r2, %r3}], {%r2};");
  EXPECT_NE(e.find("sust outside the surface"), std::string::npos) << e;
  e = s.error("mov.u32 %r2, 0;\nsuld.b.a1d.b32 {%r1}, [%rd1, {%r2, %r2}];");
  EXPECT_NE(e.find("does not match the surface object"), std::string::npos) << e;
  e = s.error("mov.u64 %rd1, 12345; mov.u32 %r2, 0;\nsuld.b.1d.b32 {%r1}, [%rd1, {%r2}];");
  EXPECT_NE(e.find("invalid surface object"), std::string::npos) << e;
}

TEST(IsaSurface, StoresWriteTheirBytes) {
  SurfaceRun s(volume(), 96);
  s.run(R"(
    mov.u32 %r2, 8; mov.u32 %r3, 2; mov.u32 %r4, 1;
    mov.b16 %rs1, 0xa1a0; mov.b16 %rs2, 0xa3a2; mov.b16 %rs3, 0xa5a4; mov.b16 %rs4, 0xa7a6;
    sust.b.3d.v4.b16.trap [%rd1, {%r2, %r3, %r4, %r4}], {%rs1, %rs2, %rs3, %rs4};
    mov.u32 %r2, 1; mov.u32 %r5, 0x1ff;
    sust.b.1d.b8.trap [%rd1, {%r2}], {%r5};
  )");
  auto m = s.memory();
  const uint32_t at = (1 * 3 + 2) * 16 + 8;
  for (uint32_t k = 0; k < 96; ++k) {
    uint8_t want = k >= at && k < at + 8 ? uint8_t(0xa0 + (k - at)) : k == 1 ? 0xff : uint8_t(k);
    ASSERT_EQ(m[k], want) << k;
  }
}

TEST(IsaSurface, LayeredSurfacesAndQueries) {
  SurfaceDesc d = volume();
  d.layered = true;  // 2 layers of 4 x 3
  SurfaceRun s(d, 96);
  const auto& o = s.run(R"(
    mov.u32 %r2, 1; mov.u32 %r3, 4; mov.u32 %r4, 2;
    suld.b.a2d.b32.trap {%r1}, [%rd1, {%r2, %r3, %r4, %r4}];
    st.global.u32 [%rd99], %r1;
    suq.width.b32 %r1, [%rd1]; st.global.u32 [%rd99+8], %r1;
    suq.height.b32 %r1, [%rd1]; st.global.u32 [%rd99+16], %r1;
    suq.depth.b32 %r1, [%rd1]; st.global.u32 [%rd99+24], %r1;
    suq.array_size.b32 %r1, [%rd1]; st.global.u32 [%rd99+32], %r1;
  )");
  EXPECT_EQ(o[0], word_at((1 * 3 + 2) * 16 + 4));
  EXPECT_EQ(o[1], 4u);
  EXPECT_EQ(o[2], 3u);
  EXPECT_EQ(o[3], 1u);
  EXPECT_EQ(o[4], 2u);
  // A 1D layered surface: 3 layers of 4 elements.
  SurfaceDesc d1;
  d1.width = 4;
  d1.slices = 3;
  d1.layered = true;
  SurfaceRun s1(d1, 48);
  const auto& o1 = s1.run(R"(
    mov.u32 %r2, 2; mov.u32 %r3, 8;
    suld.b.a1d.b32 {%r1}, [%rd1, {%r2, %r3}];
    st.global.u32 [%rd99], %r1;
  )");
  EXPECT_EQ(o1[0], word_at(2 * 16 + 8));
  // A 3D surface's depth.
  SurfaceRun s3(volume(), 96);
  EXPECT_EQ(s3.run("suq.depth.b32 %r1, [%rd1]; st.global.u32 [%rd99], %r1;")[0], 2u);
}

TEST(IsaSurface, UnsupportedFormsAreNamed) {
  auto err = [](const std::string& body) { return load_error(wrap_kernel(body)); };
  EXPECT_NE(err("sust.p.2d.b32 [%rd1, {%r1, %r2}], {%r3};").find("sust.p (formatted surface access) is not supported"),
            std::string::npos);
  EXPECT_NE(err("suq.memory_layout.b32 %r1, [%rd1];").find("unsupported modifier"), std::string::npos);
  EXPECT_NE(err("suld.b.2d.v4.b64 {%rd1, %rd2, %rd3, %rd4}, [%rd5, {%r1, %r2}];").find(".v4.b64"), std::string::npos);
  EXPECT_NE(err("vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;").find(".sat cannot be used with .add"),
            std::string::npos);
  EXPECT_NE(err("vadd.u32.u32.u32 %r1, %r2, %r3, %r4;").find("unknown instruction 'vadd.u32.u32.u32'"),
            std::string::npos);
  EXPECT_NE(err("lop3.b32 %r1, %r2, %r3, %r4, %r5;").find("immediate look-up table"), std::string::npos);
}

// ------------------------------------------------------------------ textures

// Float texels t[i] = i at `data`; returns the texture object.
uint64_t float_texture(SnippetRun& r, TextureDesc d, uint32_t texels) {
  std::vector<float> v(texels);
  for (uint32_t i = 0; i < texels; ++i) v[i] = float(i);
  d.data = r.rt.malloc(texels * 4);
  r.rt.memcpy_h2d(d.data, v.data(), texels * 4);
  return r.rt.create_texture(d);
}

std::string tex_prefix(uint64_t h) { return "mov.u64 %rd1, " + std::to_string(h) + ";\n"; }

TEST(IsaTexture, LayeredTexturesPickTheirLayer) {
  SnippetRun r;
  TextureDesc d;
  d.width = 3;
  d.height = 2;
  d.layers = 2;
  d.layered = true;
  uint64_t h2 = float_texture(r, d, 12);
  TextureDesc d1;
  d1.width = 4;
  d1.layers = 3;
  d1.layered = true;
  uint64_t h1 = float_texture(r, d1, 12);
  const auto& o = r.run(tex_prefix(h2) + "mov.u64 %rd2, " + std::to_string(h1) + R"(;
    mov.u32 %r2, 1; mov.f32 %f1, 2.5; mov.f32 %f2, 1.5;
    tex.a2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%r2, %f1, %f2, %f2}];
    st.global.f32 [%rd99], %f5;
    mov.u32 %r2, 7;
    tex.a2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%r2, %f1, %f2, %f2}];
    st.global.f32 [%rd99+8], %f5;
    mov.u32 %r2, 2; mov.f32 %f1, 1.5;
    tex.a1d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd2, {%r2, %f1}];
    st.global.f32 [%rd99+16], %f5;
    mov.u32 %r3, 3;
    tex.a1d.v4.f32.s32 {%f5, %f6, %f7, %f8}, [%rd2, {%r2, %r3}];
    st.global.f32 [%rd99+24], %f5;
  )");
  EXPECT_EQ(u2f(o[0]), 11.0f);  // layer 1, x 2, y 1: (1 * 2 + 1) * 3 + 2
  EXPECT_EQ(u2f(o[1]), 11.0f);  // layer 7 clamps to the last layer
  EXPECT_EQ(u2f(o[2]), 9.0f);   // layer 2, x 1: 2 * 4 + 1
  EXPECT_EQ(u2f(o[3]), 11.0f);  // integer x 3
}

TEST(IsaTexture, ThreeDimensionalTexturesAndTrilinearFiltering) {
  SnippetRun r;
  TextureDesc d;
  d.width = 2;
  d.height = 2;
  d.depth = 3;
  uint64_t hp = float_texture(r, d, 12);
  d.linear_filter = true;
  uint64_t hl = float_texture(r, d, 12);
  const auto& o = r.run(tex_prefix(hp) + "mov.u64 %rd2, " + std::to_string(hl) + R"(;
    mov.f32 %f1, 1.5; mov.f32 %f2, 0.5; mov.f32 %f3, 2.5;
    tex.3d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2, %f3, %f3}];
    st.global.f32 [%rd99], %f5;
    mov.f32 %f1, 1.0;
    tex.3d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd2, {%f1, %f2, %f3, %f3}];
    st.global.f32 [%rd99+8], %f5;
    mov.f32 %f2, 1.0; mov.f32 %f3, 1.0;
    tex.3d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd2, {%f1, %f2, %f3, %f3}];
    st.global.f32 [%rd99+16], %f5;
  )");
  EXPECT_EQ(u2f(o[0]), 9.0f);  // x 1, y 0, z 2: (2 * 2 + 0) * 2 + 1
  EXPECT_EQ(u2f(o[1]), 8.5f);  // halfway between x 0 and 1 of that row
  EXPECT_EQ(u2f(o[2]), 3.5f);  // the mean of the 8 texels of z 0..1
}

TEST(IsaTexture, CubemapFacesFollowTheProgrammingGuideTable) {
  SnippetRun r;
  TextureDesc d;
  d.width = d.height = 2;
  d.cubemap = true;
  // Texel value: face * 10 + y * 2 + x.
  std::vector<float> v(24);
  for (int i = 0; i < 24; ++i) v[size_t(i)] = float((i / 4) * 10 + i % 4);
  d.data = r.rt.malloc(96);
  r.rt.memcpy_h2d(d.data, v.data(), 96);
  uint64_t h = r.rt.create_texture(d);
  struct Dir {
    float x, y, z, want;
  };
  // (face, s, t) per the table; u = (s/m + 1)/2, v = (t/m + 1)/2 on the 2 x 2 face.
  const Dir dirs[] = {
      {1, 0.5f, -0.5f, 1},    // +x: s = -z = 0.5, t = -y = -0.5: texel (1, 0)
      {-1, -0.5f, 0.5f, 13},  // -x: s = z = 0.5, t = -y = 0.5: (1, 1)
      {0.5f, 1, 0.5f, 23},    // +y: s = x, t = z: (1, 1)
      {0.2f, -1, 0.6f, 31},   // -y: s = x = 0.2, t = -z = -0.6: (1, 0)
      {-0.5f, -0.5f, 1, 42},  // +z: s = x = -0.5, t = -y = 0.5: (0, 1)
      {-0.5f, 0.5f, -1, 51},  // -z: s = -x = 0.5, t = -y = -0.5: (1, 0)
  };
  std::string body = tex_prefix(h);
  for (int i = 0; i < 6; ++i) {
    char line[300];
    std::snprintf(line, sizeof line,
                  "mov.f32 %%f1, 0f%08X; mov.f32 %%f2, 0f%08X; mov.f32 %%f3, 0f%08X;\n"
                  "tex.cube.v4.f32.f32 {%%f5, %%f6, %%f7, %%f8}, [%%rd1, {%%f1, %%f2, %%f3, %%f3}];\n"
                  "st.global.f32 [%%rd99+%d], %%f5;\n",
                  f2u(dirs[i].x), f2u(dirs[i].y), f2u(dirs[i].z), i * 8);
    body += line;
  }
  const auto& o = r.run(body);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(u2f(o[size_t(i)]), dirs[i].want) << "direction " << i;
}

TEST(IsaTexture, LayeredCubemapsAndGeometryMismatch) {
  SnippetRun r;
  TextureDesc d;
  d.width = d.height = 2;
  d.cubemap = true;
  d.layered = true;
  d.layers = 2;
  std::vector<float> v(48);
  for (int i = 0; i < 48; ++i) v[size_t(i)] = float((i / 4) * 10 + i % 4);
  d.data = r.rt.malloc(192);
  r.rt.memcpy_h2d(d.data, v.data(), 192);
  uint64_t h = r.rt.create_texture(d);
  const auto& o = r.run(tex_prefix(h) + R"(
    mov.u32 %r2, 1; mov.f32 %f1, 0.5; mov.f32 %f2, 1.0; mov.f32 %f3, 0.5;
    tex.acube.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%r2, %f1, %f2, %f3}];
    st.global.f32 [%rd99], %f5;
  )");
  EXPECT_EQ(u2f(o[0]), 83.0f);  // layer 1, face +y (slice 8), texel (1, 1)
  try {
    r.run(tex_prefix(h) + "mov.f32 %f1, 0.5;\ntex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f1}];");
    ADD_FAILURE() << "a 2D fetch from a layered cubemap ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("tex.2d does not match the texture object"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("a layered cubemap texture"), std::string::npos) << e.what();
  }
  EXPECT_NE(load_error(wrap_kernel("tex.cube.v4.f32.s32 {%f5, %f6, %f7, %f8}, [%rd1, {%r1, %r1, %r1, %r1}];"))
                .find("cubemap textures take .f32 coordinates"),
            std::string::npos);
  EXPECT_NE(
      load_error(wrap_kernel("tex.2dms.v4.f32.s32 {%f5, %f6, %f7, %f8}, [%rd1, {%r1, %r1, %r1, %r1}];")).find("2dms"),
      std::string::npos);
}

// ------------------------------------------------------------------ video instructions, lop3

uint32_t video(const std::string& inst, uint32_t a, uint32_t b, uint32_t c) {
  return r32("mov.u32 %r2, " + std::to_string(a) + "; mov.u32 %r3, " + std::to_string(b) + "; mov.u32 %r4, " +
             std::to_string(c) + ";\n" + inst + " %r1, %r2, %r3, %r4;");
}

TEST(IsaVideo, FourByteLanes) {
  EXPECT_EQ(video("vadd4.u32.u32.u32.sat", 0x80ff7f01u, 0x80017f01u, 0), 0xfffffe02u);
  EXPECT_EQ(video("vadd4.u32.u32.u32", 0x80ff7f01u, 0x80017f01u, 0), 0x0000fe02u);
  EXPECT_EQ(video("vadd4.s32.s32.s32.sat", 0x80ff7f01u, 0x80017f01u, 0), 0x80007f02u);
  // t = -1, 9, -6, 4 added to c.
  EXPECT_EQ(video("vsub4.s32.s32.s32.add", 0x05fb0a00u, 0x01010101u, 100), 106u);
  EXPECT_EQ(video("vavrg4.u32.u32.u32", 0x0003ff01u, 0x00040002u, 0), 0x00048002u);
  EXPECT_EQ(video("vavrg4.s32.s32.s32", 0x0000fd03u, 0, 0), 0x0000fe02u);  // (-3) -> -2, 3 -> 2
  EXPECT_EQ(video("vmin4.s32.s32.s32", 0x7f80ff01u, 0x01010101u, 0), 0x0180ff01u);
  EXPECT_EQ(video("vmax4.u32.u32.u32", 0x7f80ff01u, 0x01010101u, 0), 0x7f80ff01u);
  EXPECT_EQ(video("vabsdiff4.u32.u32.u32", 0x0a000514u, 0x00ff0a0au, 0x12345678u), 0x0aff050au);
  EXPECT_EQ(video("vabsdiff4.u32.u32.u32.add", 0x0a000514u, 0x00ff0a0au, 1000), 1280u);
  // Mixed types: a signed, b unsigned: byte 0 is -1 - 255.
  EXPECT_EQ(video("vsub4.s32.s32.u32.add", 0x000000ffu, 0x000000ffu, 0), uint32_t(-256));
}

TEST(IsaVideo, TwoHalfwordLanes) {
  EXPECT_EQ(video("vabsdiff2.s32.s32.s32", 0x80000005u, 0x7ffffffbu, 0), 0xffff000au);
  EXPECT_EQ(video("vabsdiff2.s32.s32.s32.sat", 0x80000005u, 0x7ffffffbu, 0), 0x7fff000au);
  EXPECT_EQ(video("vadd2.u32.u32.u32.add", 0x00010002u, 0x00030004u, 10), 20u);
  EXPECT_EQ(video("vsub2.u32.u32.u32.sat", 0x00010005u, 0x00030004u, 0), 0x00000001u);
  EXPECT_EQ(video("vmax2.s32.s32.s32", 0xffff0001u, 0x00010002u, 0), 0x00010002u);
  EXPECT_EQ(video("vmin2.u32.u32.u32", 0xffff0001u, 0x00010002u, 0), 0x00010001u);
  EXPECT_EQ(video("vavrg2.u32.u32.u32", 0xffff0001u, 0xffff0002u, 0), 0xffff0002u);
}

TEST(IsaLop3, LookUpTables) {
  const uint32_t a = 0x12345678u, b = 0xff00ff00u, c = 0x0f0f0f0fu;
  auto lop3 = [&](int lut) {
    return r32("mov.u32 %r2, " + std::to_string(a) + "; mov.u32 %r3, " + std::to_string(b) + "; mov.u32 %r4, " +
               std::to_string(c) + ";\nlop3.b32 %r1, %r2, %r3, %r4, " + std::to_string(lut) + ";");
  };
  EXPECT_EQ(lop3(0xf0), a);
  EXPECT_EQ(lop3(0xcc), b);
  EXPECT_EQ(lop3(0xaa), c);
  EXPECT_EQ(lop3(0x96), 0xe23ba677u);                  // a ^ b ^ c
  EXPECT_EQ(lop3(0xe8), (a & b) | (a & c) | (b & c));  // majority
  EXPECT_EQ(lop3(0x80), a & b & c);
  EXPECT_EQ(lop3(0x00), 0u);
}

}  // namespace
}  // namespace warpsim::test
