// Every opcode variant that real benchmark suites use (nvcc 13, compute_75; see the PTX
// usage census) decodes, with operands of the types the variant names.
#include <gtest/gtest.h>

#include <sstream>

#include "core/error.h"
#include "harness.h"

namespace warpsim::test {
namespace {

const char* kVariants =
    "add.s32 mov.u32 bra add.s64 fma.rn.f32 ld.shared.f32 add.f32 shl.b32 mul.f32 ld.global.f32  "
    "st.shared.f32 ld.shared.u32 shr.u32 fma.rn.f64 st.shared.u32 mul.wide.s32 sub.s32 shr.s32 mov.f32  "
    "and.b32 selp.b32 mov.f64 mov.b64 setp.eq.s32 sub.f32 mad.lo.s32 cvta.to.global.u64 ld.param.u64  "
    "bra.uni add.f64 mul.wide.u32 setp.ne.s32 st.global.f32 ld.global.u32 and.b64 shfl.sync.down.b32  "
    "mul.f64 mov.b32 barrier.sync ld.param.u32 shl.b64 setp.lt.s32 bar.sync setp.gt.u32 xor.b64  "
    "setp.lt.u32 mul.lo.s32 or.b64 cvt.f64.f32 shr.u64 setp.ge.u32 st.global.u32 neg.s32  "
    "ld.volatile.shared.f32 xor.b32 ret cvt.rn.f32.f64 or.b32 st.volatile.shared.f32 setp.gt.s32  "
    "selp.f32 bar.warp.sync ld.const.f32 ld.global.f64 cvt.u16.u32 div.rn.f64 div.rn.f32 ld.shared.u8  "
    "cvt.u32.u16 cvt.u64.u32 setp.lt.f32 ld.const.u32 sub.f64 mul.wide.u16 setp.ge.s32 ld.local.f32  "
    "selp.f64 setp.eq.f32 max.s32 abs.f32 cvt.s64.s32 mov.u64 shfl.sync.bfly.b32 cvt.ftz.f64.f32  "
    "and.pred st.shared.f64 mul.ftz.f32 mov.u16 st.local.f32 abs.s32 cvt.u32.u64 xor.pred or.pred  "
    "add.rn.f64 neg.f32 ld.global.u64 st.global.f64 ld.const.f64 cvt.rn.f32.s32 st.param.f64 and.b16  "
    "setp.gt.f32 not.pred mov.pred setp.geu.f32 cvt.rn.ftz.f32.f64 setp.eq.b32 ld.shared.f64 not.b32  "
    "shr.u16 neg.f64 setp.lt.f64 ld.const.u64 div.s32 sqrt.rn.f32 tex.1d.v4.f32.s32 ld.shared.u16  "
    "st.shared.u16 cvt.rn.f32.u32 selp.u32 setp.eq.f64 add.s16 min.u32 prmt.b32 div.u32 ld.param.f64  "
    "setp.le.s32 div.approx.f32 rem.u32 call.uni cvt.rzi.f64.f64 mul.rn.f32 max.f64 xor.b16 ld.param.f32  "
    "vote.sync.ballot.b32 setp.gtu.f64 abs.f64 ex2.approx.f32 add.rn.f32 div.u16 setp.eq.s16  "
    "setp.neu.f64 st.local.u32 tex.1d.v4.u32.s32 div.approx.ftz.f32 max.f32 sub.ftz.f32 sqrt.rn.f64  "
    "cvt.rn.f64.s32 setp.le.u32 rcp.rn.f64 setp.geu.ftz.f32 tex.2d.v4.u32.f32 ld.shared.v4.u8  "
    "ld.global.nc.u32 ld.global.s32 st.global.u8 add.u64 st.shared.u8 cvt.rzi.s32.f32 ld.global.nc.f32  "
    "tex.2d.v4.f32.f32 cvta.shared.u64 shl.b16 st.global.v4.u8 add.ftz.f32 not.b64 atom.shared.add.u32  "
    "cvt.u16.u64 ld.global.nc.f64 ld.local.u32 rcp.approx.ftz.f32 setp.gtu.f32 mul.lo.s64  "
    "shfl.sync.up.b32 selp.u16 abs.ftz.f32 st.global.u64 setp.lt.ftz.f32 ld.global.u8 cvt.rzi.s32.f64  "
    "setp.ne.s16 ex2.approx.ftz.f32 st.local.v4.f32 rsqrt.approx.f32 setp.leu.ftz.f32 tex.1d.v4.s32.s32  "
    "cvt.sat.f32.f32 atom.global.inc.u32 rcp.rn.f32 atom.global.min.s32 atom.global.exch.b32 membar.gl  "
    "atom.global.add.u32 bfi.b32 setp.leu.f32 rem.s32 cvt.s32.s16 min.f64 setp.ge.s64 setp.gt.s64  "
    "fma.rm.f32 ld.const.u8 cvt.rn.f32.u16 setp.ge.f32 mul.rn.f64 ld.global.v2.u32  "
    "ld.volatile.shared.u32 cvt.rni.f32.f32 sin.approx.f32 cos.approx.f32 setp.ge.u64 ld.local.v4.f32  "
    "cvt.rzi.f32.f32 ld.shared.s16 or.b16 lg2.approx.ftz.f32 sqrt.approx.ftz.f32 atom.or.acq_rel.cta.b32  "
    "shfl.sync.idx.b32 red.and.release.cta.b32 ld.acquire.cta.u32 setp.neu.f32 min.s32  "
    "st.volatile.shared.u32 copysign.f32 setp.le.f32 setp.ltu.f64 atom.shared.exch.b32 sub.s64  "
    "cvt.rzi.u32.f32 setp.ltu.f32 mad.wide.u32 bfi.b64 cvt.rn.f64.s64 ld.shared.v2.f64 neg.ftz.f32  "
    "st.global.v2.u32 ld.global.v4.u32 st.global.v4.f32 st.shared.v4.u8 ld.const.v4.f32 max.ftz.f32  "
    "fma.rn.ftz.f32 ld.shared.v2.u16 st.shared.v2.u16 mul.wide.s16 rcp.approx.ftz.f64 atom.global.or.b32  "
    "st.global.v4.u32 st.global.v2.f32 setp.eq.s64 mul.hi.s32 st.global.u16 cvt.s32.s8 min.f32  "
    "setp.leu.f64 selp.b64 setp.gt.u16 ld.global.u16 ld.global.nc.v2.f64 mad.lo.cc.u32 lg2.approx.f32  "
    "clz.b32 selp.b16 ld.volatile.global.u32 ld.shared.v4.u32 ld.shared.v4.f32 setp.eq.b64 min.ftz.f32  "
    "st.volatile.global.u32 ld.shared.u64 st.f32 cvt.rni.s32.f32 setp.ne.s64 max.u32 madc.hi.u32  "
    "ld.global.nc.v2.u32 cvt.rmi.f32.f32 setp.lt.s64 ld.const.v2.u32 atom.shared.or.b32 setp.gt.f64  "
    "setp.ge.f64 madc.hi.cc.u32 addc.u32 ld.local.u64 ld.global.nc.v2.f32 tex.2d.v4.s32.f32  "
    "setp.eq.ftz.f32 rsqrt.approx.f64 setp.gt.ftz.f32 setp.ge.ftz.f32 setp.le.f64 ld.shared.s32  "
    "st.shared.u64 ld.global.v4.u16 ld.global.v4.u8 neg.s64 fma.rz.f32 cvt.rni.s32.f64 ld.param.b32  "
    "st.local.u64 subc.cc.u32 addc.cc.u32 brev.b32 bfind.shiftamt.u32 ld.const.u16 ld.shared.v2.f32  "
    "vote.sync.any.pred vote.sync.all.pred st.local.v2.f32 setp.le.ftz.f32 setp.gtu.ftz.f32  "
    "atom.global.min.u32 atom.global.max.u32 cvt.rpi.f32.f32 ld.global.v2.f32 ld.global.v4.f32  "
    "st.shared.v4.u32 ld.shared.v2.u32 setp.lt.u64 setp.le.s64 cvt.rpi.f64.f64 ld.global.nc.u64  "
    "madc.lo.cc.u32 sub.cc.u32 subc.u32 clz.b64 mul.lo.u32 mul.hi.u32 add.cc.u32 selp.u64 st.param.b32  "
    "setp.gt.u64 cvt.rn.f32.s16 add.rz.f32 setp.lt.s16 shr.s16 sub.s16 mul.lo.s16 st.shared.v2.f32  "
    "setp.gt.s16 atom.global.max.s32 atom.global.dec.u32 atom.global.cas.b32 atom.global.and.b32  "
    "atom.global.xor.b32";

std::string reg_for(const std::string& t, int idx) {
  std::string n = std::to_string(idx);
  if (t == "pred") return "%p" + n;
  if (t == "f32") return "%f" + n;
  if (t == "f64") return "%fd" + n;
  if (t == "u64" || t == "s64" || t == "b64") return "%rd" + n;
  if (t == "u8" || t == "s8" || t == "b8" || t == "u16" || t == "s16" || t == "b16") return "%rs" + n;
  return "%r" + n;
}
std::string wide_of(const std::string& t, int idx) {
  if (t == "s16" || t == "u16") return "%r" + std::to_string(idx);
  return "%rd" + std::to_string(idx);
}

// An instruction line for `variant` with operands of matching types.
std::string instance(const std::string& variant) {
  std::vector<std::string> parts;
  std::stringstream ss(variant);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  const std::string& root = parts[0];
  std::vector<std::string> types;
  bool wide = false, cas = false;
  int vec = 1;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (p == "wide") wide = true;
    if (p == "cas") cas = true;
    if (p == "v2") vec = 2;
    if (p == "v4") vec = 4;
    if (p == "pred" || p[0] == 'u' || p[0] == 's' || p[0] == 'b' || p[0] == 'f') {
      if (p.size() >= 2 && std::isdigit(static_cast<unsigned char>(p[1]))) types.push_back(p);
      if (p == "pred") types.push_back(p);
    }
  }
  std::string t = types.empty() ? "b32" : types[0];
  auto R = [&](int i) { return reg_for(t, i); };
  auto vecop = [&](int first) {
    if (vec == 1) return R(first);
    std::string v = "{";
    for (int i = 0; i < vec; ++i) v += (i ? ", " : "") + R(first + i);
    return v + "}";
  };
  if (root == "bra") return variant + " END;";
  if (root == "ret") return variant + ";";
  if (root == "call") return "";
  if (root == "bar" && variant.find("warp") != std::string::npos) return variant + " -1;";
  if (root == "bar" || root == "barrier") return variant + " 0;";
  if (root == "membar") return variant + ";";
  if (root == "shfl") return variant + " %r1|%p1, %r2, 1, 31, -1;";
  if (root == "vote") return t == "b32" ? variant + " %r1, %p1, -1;" : variant + " %p1, !%p2, -1;";
  if (root == "tex") {
    std::string c = reg_for(types[1], 5);
    std::string coords =
        variant.find(".2d") != std::string::npos ? "{" + c + ", " + reg_for(types[1], 6) + "}" : "{" + c + "}";
    return variant + " {" + R(1) + ", " + R(2) + ", " + R(3) + ", " + R(4) + "}, [%rd9, " + coords + "];";
  }
  if (root == "ld") return variant + " " + vecop(1) + ", [%rd9];";
  if (root == "st") return variant + " [%rd9], " + vecop(1) + ";";
  if (root == "atom") return variant + " " + R(1) + ", [%rd9], " + R(2) + (cas ? ", " + R(3) : "") + ";";
  if (root == "red") return variant + " [%rd9], " + R(2) + ";";
  if (root == "cvt") return variant + " " + reg_for(types[0], 1) + ", " + reg_for(types[1], 2) + ";";
  if (root == "cvta") return variant + " %rd1, %rd2;";
  if (root == "setp") return variant + " %p1, " + R(2) + ", " + R(3) + ";";
  if (root == "selp") return variant + " " + R(1) + ", " + R(2) + ", " + R(3) + ", %p2;";
  if (root == "shl" || root == "shr") return variant + " " + R(1) + ", " + R(2) + ", %r7;";
  if (root == "clz" || root == "bfind") return variant + " %r1, " + R(2) + ";";
  if (root == "bfi") return variant + " " + R(1) + ", " + R(2) + ", " + R(3) + ", %r7, %r8;";
  if (root == "prmt") return variant + " %r1, %r2, %r3, %r4;";
  if (root == "mad" || root == "madc" || root == "fma")
    return variant + " " + (wide ? wide_of(t, 1) : R(1)) + ", " + R(2) + ", " + R(3) + ", " +
           (wide ? wide_of(t, 4) : R(4)) + ";";
  if (root == "mul") return variant + " " + (wide ? wide_of(t, 1) : R(1)) + ", " + R(2) + ", " + R(3) + ";";
  if (root == "neg" || root == "abs" || root == "not" || root == "sqrt" || root == "rsqrt" || root == "rcp" ||
      root == "ex2" || root == "lg2" || root == "sin" || root == "cos" || root == "brev" || root == "mov")
    return variant + " " + R(1) + ", " + R(2) + ";";
  return variant + " " + R(1) + ", " + R(2) + ", " + R(3) + ";";
}

TEST(Census, EveryVariantDecodes) {
  std::stringstream ss(kVariants);
  int n = 0;
  for (std::string v; ss >> v;) {
    std::string line = instance(v);
    if (line.empty()) continue;
    ++n;
    FunctionalTarget target;
    Runtime rt(&target);
    try {
      rt.load_module(wrap_kernel(line + "\nEND:"), v + ".ptx");
    } catch (const Error& e) {
      ADD_FAILURE() << v << ": " << line << "\n  " << e.what();
    }
  }
  EXPECT_GE(n, 340);
}

}  // namespace
}  // namespace warpsim::test
