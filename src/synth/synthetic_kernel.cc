#include "synth/synthetic_kernel.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.h"

namespace warpsim::synth {

namespace {

constexpr uint32_t kInstBytes = 8;
constexpr uint64_t kMaxAddrsPerCta = kMaxMemInstsPerCta * 32;

uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

bool valid_width(uint32_t w) { return w == 1 || w == 2 || w == 4 || w == 8 || w == 16; }

void check_pattern(const AccessPattern& p, uint32_t width) {
  using K = AccessPattern::Kind;
  switch (p.kind) {
    case K::Strided:
      if (p.stride == 0) throw Error("strided pattern needs a lane stride > 0");
      break;
    case K::Random:
    case K::PerWarp:
    case K::PerCta:
      if (p.footprint < width)
        throw Error(fmt::format("pattern needs a footprint of at least the access width ({} bytes), got {}", width,
                                p.footprint));
      break;
    case K::BankConflict:
      if (p.ways == 0 || p.ways > 32) throw Error("bank-conflict ways must be 1..32");
      break;
    default:
      break;
  }
}

// Assigns pcs and iteration-counter indices; resolves default steps.
void layout(std::vector<Stmt>& prog, uint32_t& slot, uint32_t& mem_index, const KernelInfo& info) {
  const uint64_t total_threads = info.num_ctas() * info.threads_per_cta();
  const uint64_t wpc = info.warps_per_cta();
  for (Stmt& s : prog) {
    s.pc = slot * kInstBytes;
    switch (s.kind) {
      case Stmt::Kind::Alu:
        slot += s.count;
        break;
      case Stmt::Kind::Mem: {
        slot += s.count * (s.use ? 2 : 1);
        s.mem_index = mem_index++;
        AccessPattern& p = s.pattern;
        if (!p.step_set) {
          using K = AccessPattern::Kind;
          switch (p.kind) {
            case K::Coalesced:
              p.step = total_threads * s.width;
              break;
            case K::Strided:
              p.step = total_threads * p.stride;
              break;
            case K::Random:
              p.step = 0;
              break;
            case K::Broadcast:
              p.step = 0;
              break;
            case K::BankConflict:
              p.step = 0;
              break;
            case K::PerWarp:
              p.step = 32ull * s.width;
              break;
            case K::PerCta:
              p.step = p.warp_stride == AccessPattern::kDefault ? wpc * 32 * s.width
                       : p.warp_stride == 0                     ? 32ull * s.width
                                                                : wpc * p.warp_stride;
              break;
          }
          p.step_set = true;
        }
        break;
      }
      case Stmt::Kind::Barrier:
      case Stmt::Kind::Membar:
        slot += 1;
        break;
      case Stmt::Kind::Loop:
        if (s.trip_fn) slot += 1;  // guard branch
        layout(s.body, slot, mem_index, info);
        s.end_pc = slot * kInstBytes;
        slot += 1;
        break;
      case Stmt::Kind::Diverge:
        slot += 1;
        layout(s.body, slot, mem_index, info);
        s.end_pc = slot * kInstBytes;
        if (!s.else_body.empty()) {
          slot += 1;
          layout(s.else_body, slot, mem_index, info);
        }
        break;
    }
  }
}

// Expands the program for one warp.
class WarpGenerator {
 public:
  WarpGenerator(const SyntheticKernel& k, uint32_t cta, uint32_t warp, WarpStream& out, std::vector<uint64_t>& iters,
                uint64_t& cta_insts, uint64_t& cta_addrs)
      : k_(k), cta_(cta), warp_(warp), out_(out), iters_(iters), cta_insts_(cta_insts), cta_addrs_(cta_addrs) {
    const uint32_t tpc = k.info.threads_per_cta();
    wpc_ = k.info.warps_per_cta();
    const uint32_t live = std::min<uint32_t>(32, tpc - warp * 32);
    full_ = live == 32 ? 0xffffffffu : ((1u << live) - 1);
    gwarp_ = uint64_t(cta) * wpc_ + warp;
    gtid0_ = uint64_t(cta) * tpc + uint64_t(warp) * 32;
  }

  // Instructions and memory instructions the warp will execute, computed without emitting them
  // (saturating at kCap), so runaway programs fail before they allocate.
  static constexpr uint64_t kCap = uint64_t(1) << 62;
  static uint64_t sat_add(uint64_t a, uint64_t b) { return std::min(kCap, a + b); }
  static uint64_t sat_mul(uint64_t a, uint64_t b) { return (a != 0 && b > kCap / a) ? kCap : a * b; }
  void count_block(const std::vector<Stmt>& prog, uint32_t mask, uint64_t& insts, uint64_t& mems) const {
    for (const Stmt& s : prog) {
      switch (s.kind) {
        case Stmt::Kind::Alu:
          insts = sat_add(insts, s.count);
          break;
        case Stmt::Kind::Mem:
          insts = sat_add(insts, uint64_t(s.count) * ((s.use && s.op != OpClass::STORE) ? 2 : 1));
          mems = sat_add(mems, s.count);
          break;
        case Stmt::Kind::Barrier:
        case Stmt::Kind::Membar:
          insts = sat_add(insts, 1);
          break;
        case Stmt::Kind::Loop: {
          const uint64_t trips = s.trip_fn ? s.trip_fn(cta_, warp_) : s.trips;
          uint64_t bi = 1, bm = 0;  // the back branch
          count_block(s.body, mask, bi, bm);
          insts = sat_add(insts, sat_add(sat_mul(trips, bi), s.trip_fn ? 1 : 0));
          mems = sat_add(mems, sat_mul(trips, bm));
          break;
        }
        case Stmt::Kind::Diverge: {
          const uint32_t lanes = s.mask(cta_, warp_);
          insts = sat_add(insts, 1);
          if (mask & lanes) {
            count_block(s.body, mask & lanes, insts, mems);
            if (!s.else_body.empty()) insts = sat_add(insts, 1);
          }
          if ((mask & ~lanes) && !s.else_body.empty()) count_block(s.else_body, mask & ~lanes, insts, mems);
          break;
        }
      }
    }
  }

  void run() {
    uint64_t insts = 1, mems = 0;  // EXIT
    count_block(*k_.program, full_, insts, mems);
    if (sat_add(cta_insts_, insts) > kMaxInstsPerCta || sat_add(cta_addrs_, sat_mul(mems, 32)) > kMaxAddrsPerCta)
      throw Error(
          fmt::format("synthetic kernel '{}': CTA {} would execute more than {} instructions or {} memory "
                      "instructions (runaway loop?)",
                      k_.info.name, cta_, kMaxInstsPerCta, kMaxAddrsPerCta / 32));
    out_.insts.reserve(insts);
    out_.addrs.reserve(mems * 32);
    cta_insts_ += insts;
    cta_addrs_ += mems * 32;
    run_block(*k_.program, full_, false);
    WarpInst e;
    e.pc = (k_.num_pcs - 1) * kInstBytes;
    e.op = OpClass::EXIT;
    e.unit = Unit::BRANCH;
    e.active_mask = full_;
    emit(e);
  }
  uint32_t barriers() const { return barriers_; }

 private:
  void emit(const WarpInst& inst) { out_.insts.push_back(inst); }

  void run_block(const std::vector<Stmt>& prog, uint32_t mask, bool diverged) {
    for (const Stmt& s : prog) run_stmt(s, mask, diverged);
  }

  void run_stmt(const Stmt& s, uint32_t mask, bool diverged) {
    const uint8_t flags = diverged ? uint8_t(kFlagDiverged) : uint8_t(0);
    switch (s.kind) {
      case Stmt::Kind::Alu:
        for (uint32_t i = 0; i < s.count; ++i) {
          WarpInst a;
          a.pc = s.pc + i * kInstBytes;
          a.op = OpClass::ALU;
          a.unit = s.unit;
          a.latency_class = s.latency_class;
          a.active_mask = mask;
          a.flags = flags;
          a.src[0] = s.use_load ? last_load_ : s.dependent ? last_ : RegisterPlan::kDataReg;
          a.dst[0] = k_.regs.alu(alu_next_++);
          last_ = a.dst[0];
          emit(a);
        }
        break;
      case Stmt::Kind::Mem:
        run_mem(s, mask, flags);
        break;
      case Stmt::Kind::Barrier: {
        WarpInst b;
        b.pc = s.pc;
        b.op = OpClass::BARRIER;
        b.unit = Unit::BRANCH;
        b.active_mask = mask;
        b.flags = flags;
        ++barriers_;
        emit(b);
        break;
      }
      case Stmt::Kind::Membar: {
        WarpInst b;
        b.pc = s.pc;
        b.op = OpClass::MEMBAR;
        b.unit = Unit::MEM;
        b.active_mask = mask;
        b.flags = flags;
        emit(b);
        break;
      }
      case Stmt::Kind::Loop: {
        const uint64_t trips = s.trip_fn ? s.trip_fn(cta_, warp_) : s.trips;
        if (s.trip_fn) emit(branch(s.pc, mask, flags));  // guard: taken (to the exit) when trips == 0
        for (uint64_t t = 0; t < trips; ++t) {
          run_block(s.body, mask, diverged);
          emit(branch(s.end_pc, mask, flags));  // back branch: taken except on the last trip
        }
        break;
      }
      case Stmt::Kind::Diverge: {
        const uint32_t lanes = s.mask(cta_, warp_);
        const uint32_t then_mask = mask & lanes;
        const uint32_t else_mask = mask & ~lanes;
        emit(branch(s.pc, mask, flags));
        if (then_mask) {
          run_block(s.body, then_mask, diverged || then_mask != full_);
          if (!s.else_body.empty())
            emit(branch(s.end_pc, then_mask, (diverged || then_mask != full_) ? kFlagDiverged : 0));
        }
        if (else_mask && !s.else_body.empty()) run_block(s.else_body, else_mask, diverged || else_mask != full_);
        break;
      }
    }
  }

  static WarpInst branch(uint32_t pc, uint32_t mask, uint8_t flags) {
    WarpInst b;
    b.pc = pc;
    b.op = OpClass::BRANCH;
    b.unit = Unit::BRANCH;
    b.active_mask = mask;
    b.flags = flags;
    return b;
  }

  void run_mem(const Stmt& s, uint32_t mask, uint8_t flags) {
    const bool reads = s.op != OpClass::STORE;
    uint64_t& iter = iters_[s.mem_index];
    const uint32_t first_load = load_next_;
    for (uint32_t i = 0; i < s.count; ++i) {
      WarpInst m;
      m.pc = s.pc + i * kInstBytes;
      m.op = s.op;
      m.unit = Unit::MEM;
      m.space = s.space;
      m.width = s.width;
      m.active_mask = mask;
      m.flags = flags;
      m.src[0] = RegisterPlan::kAddrReg;
      if (s.op != OpClass::LOAD) m.src[1] = (s.op == OpClass::STORE && s.dependent) ? last_ : RegisterPlan::kDataReg;
      if (reads) {
        m.dst[0] = k_.regs.load(load_next_++);
        last_ = last_load_ = m.dst[0];
      }
      m.addr_index = static_cast<uint32_t>(out_.addrs.size());
      out_.addrs.resize(out_.addrs.size() + 32);
      fill_addresses(s, iter, mask, out_.addrs.data() + m.addr_index);
      ++iter;
      emit(m);
    }
    if (reads && s.use) {
      for (uint32_t i = 0; i < s.count; ++i) {
        WarpInst u;
        u.pc = s.pc + (s.count + i) * kInstBytes;
        u.op = OpClass::ALU;
        u.unit = Unit::SP;
        u.active_mask = mask;
        u.flags = flags;
        u.src[0] = k_.regs.load(first_load + i);
        u.dst[0] = k_.regs.alu(alu_next_++);
        last_ = u.dst[0];
        emit(u);
      }
    }
  }

  // The 32 lane addresses of one instance of memory statement `s` (inactive lanes 0). Every
  // pattern but Random is affine in the lane: region + (start + lane * lane_step) mod F, which
  // is walked incrementally without a division per lane.
  void fill_addresses(const Stmt& s, uint64_t iter, uint32_t mask, uint64_t* a) const {
    using K = AccessPattern::Kind;
    const AccessPattern& p = s.pattern;
    const uint64_t w = s.width;
    const uint64_t f = p.footprint;
    if (p.kind == K::Random) {
      uint64_t h = mix64(p.seed);
      h = mix64(h ^ cta_);
      h = mix64(h ^ warp_);
      h = mix64(h ^ iter);
      const uint64_t slots = f / w;
      for (uint32_t lane = 0; lane < 32; ++lane) a[lane] = p.base + (mix64(h ^ lane) % slots) * w;
    } else {
      uint64_t region = p.base, start = iter * p.step, lane_step = w;
      switch (p.kind) {
        case K::Coalesced:
          start += gtid0_ * w;
          break;
        case K::Strided:
          start += gtid0_ * p.stride;
          lane_step = p.stride;
          break;
        case K::Broadcast:
          lane_step = 0;
          break;
        case K::BankConflict:
          lane_step = uint64_t(p.ways) * 4;
          break;
        case K::PerWarp:
          region += gwarp_ * f;
          break;
        case K::PerCta:
          region += uint64_t(cta_) * f;
          start += warp_ * (p.warp_stride == AccessPattern::kDefault ? 32 * w : p.warp_stride);
          break;
        case K::Random:
          break;
      }
      if (f == 0) {
        for (uint32_t lane = 0; lane < 32; ++lane) a[lane] = region + start + lane * lane_step;
      } else {
        uint64_t off = start % f;
        const uint64_t inc = lane_step % f;
        for (uint32_t lane = 0; lane < 32; ++lane) {
          a[lane] = region + off;
          off += inc;
          if (off >= f) off -= f;
        }
      }
    }
    if (mask != 0xffffffffu)
      for (uint32_t lane = 0; lane < 32; ++lane)
        if (!((mask >> lane) & 1)) a[lane] = 0;
  }

  const SyntheticKernel& k_;
  uint32_t cta_, warp_;
  WarpStream& out_;
  std::vector<uint64_t>& iters_;
  uint64_t& cta_insts_;
  uint64_t& cta_addrs_;
  uint32_t wpc_ = 0, full_ = 0;
  uint64_t gwarp_ = 0, gtid0_ = 0;
  RegId last_ = RegisterPlan::kDataReg;
  RegId last_load_ = RegisterPlan::kDataReg;
  uint32_t alu_next_ = 0, load_next_ = 0, barriers_ = 0;
};

class SyntheticSource final : public KernelSource {
 public:
  explicit SyntheticSource(SyntheticKernel k) : k_(std::move(k)) {}
  const KernelInfo& info() const override { return k_.info; }
  void produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) override { k_.generate_cta(cta_id, out); }
  // Generation is a pure function of the CTA id: a copy is the same kernel.
  std::unique_ptr<KernelSource> clone() const override { return std::make_unique<SyntheticSource>(k_); }

 private:
  SyntheticKernel k_;
};

}  // namespace

AccessPattern AccessPattern::strided(uint64_t lane_stride) {
  AccessPattern p;
  p.kind = Kind::Strided;
  p.stride = lane_stride;
  return p;
}
AccessPattern AccessPattern::random(uint64_t footprint, uint64_t seed) {
  AccessPattern p;
  p.kind = Kind::Random;
  p.footprint = footprint;
  p.seed = seed;
  return p;
}
AccessPattern AccessPattern::broadcast() {
  AccessPattern p;
  p.kind = Kind::Broadcast;
  return p;
}
AccessPattern AccessPattern::bank_conflict(uint32_t ways) {
  AccessPattern p;
  p.kind = Kind::BankConflict;
  p.ways = ways;
  return p;
}
AccessPattern AccessPattern::per_warp(uint64_t footprint) {
  AccessPattern p;
  p.kind = Kind::PerWarp;
  p.footprint = footprint;
  return p;
}
AccessPattern AccessPattern::per_cta(uint64_t footprint) {
  AccessPattern p;
  p.kind = Kind::PerCta;
  p.footprint = footprint;
  return p;
}

MaskFn lanes_below(uint32_t k) {
  const uint32_t m = k >= 32 ? 0xffffffffu : ((1u << k) - 1);
  return [m](uint32_t, uint32_t) { return m; };
}
MaskFn lanes_mod(uint32_t k, uint32_t r) {
  if (k == 0) throw Error("lanes_mod: modulus must be > 0");
  uint32_t m = 0;
  for (uint32_t lane = 0; lane < 32; ++lane)
    if (lane % k == r) m |= 1u << lane;
  return [m](uint32_t, uint32_t) { return m; };
}
MaskFn half_lanes() { return lanes_below(16); }
MaskFn fixed_mask(uint32_t mask) {
  return [mask](uint32_t, uint32_t) { return mask; };
}

// ---------------------------------------------------------------------------------------------
// SyntheticKernel

void SyntheticKernel::generate_cta(uint32_t cta_id, CtaStreams& out) const {
  if (cta_id >= info.num_ctas())
    throw Error(fmt::format("synthetic kernel '{}': CTA {} out of range (grid has {} CTAs)", info.name, cta_id,
                            info.num_ctas()));
  const uint32_t wpc = info.warps_per_cta();
  out.cta_id = cta_id;
  out.warps.resize(wpc);
  std::vector<uint64_t> iters(num_mem_stmts);
  uint64_t cta_insts = 0, cta_addrs = 0;
  uint32_t barriers0 = 0;
  for (uint32_t w = 0; w < wpc; ++w) {
    out.warps[w].clear();
    std::fill(iters.begin(), iters.end(), 0);
    WarpGenerator g(*this, cta_id, w, out.warps[w], iters, cta_insts, cta_addrs);
    g.run();
    if (w == 0)
      barriers0 = g.barriers();
    else if (g.barriers() != barriers0)
      throw Error(
          fmt::format("synthetic kernel '{}': warps of CTA {} reach different numbers of barriers "
                      "(warp 0: {}, warp {}: {})",
                      info.name, cta_id, barriers0, w, g.barriers()));
  }
}

std::unique_ptr<KernelSource> SyntheticKernel::source() const { return std::make_unique<SyntheticSource>(*this); }

// ---------------------------------------------------------------------------------------------
// KernelBuilder

KernelBuilder::KernelBuilder(std::string name) {
  if (name.empty()) throw Error("synthetic kernel needs a name");
  info_.name = std::move(name);
  info_.inst_bytes = kInstBytes;
  info_.block = Dim3{32, 1, 1};  // one warp unless told otherwise
}

KernelBuilder& KernelBuilder::grid(Dim3 g) {
  if (g.count() == 0) throw Error("grid dimensions must be positive");
  if (g.count() > 0xffffffffull) throw Error("grid has more than 2^32-1 CTAs");
  info_.grid = g;
  return *this;
}
KernelBuilder& KernelBuilder::block(Dim3 b) {
  if (b.count() == 0) throw Error("block dimensions must be positive");
  if (b.count() > 1024) throw Error(fmt::format("block of {} threads; at most 1024 allowed", b.count()));
  info_.block = b;
  return *this;
}
KernelBuilder& KernelBuilder::regs_per_thread(uint32_t r) {
  if (r == 0 || r > 255) throw Error("registers per thread must be 1..255");
  info_.regs_per_thread = r;
  return *this;
}
KernelBuilder& KernelBuilder::shared_bytes(uint32_t bytes) {
  info_.shared_bytes_per_cta = bytes;
  return *this;
}
KernelBuilder& KernelBuilder::local_bytes(uint32_t bytes) {
  info_.local_bytes_per_thread = bytes;
  return *this;
}
KernelBuilder& KernelBuilder::registers(uint32_t alu_regs, uint32_t load_regs) {
  if (alu_regs == 0 || load_regs == 0) throw Error("register pools must not be empty");
  if (uint64_t(alu_regs) + load_regs + 2 > 4096) throw Error("register pools too large (at most 4094 registers)");
  regs_.alu_regs = alu_regs;
  regs_.load_regs = load_regs;
  return *this;
}

std::vector<Stmt>& KernelBuilder::cur() {
  if (stack_.empty()) return top_;
  return stack_.back().in_else ? stack_.back().stmt->else_body : stack_.back().stmt->body;
}

Stmt& KernelBuilder::add(Stmt s) {
  auto& v = cur();
  v.push_back(std::move(s));
  return v.back();
}

KernelBuilder& KernelBuilder::use_load(Unit unit, uint32_t count) {
  alu(unit, count);
  cur().back().use_load = true;
  return *this;
}

KernelBuilder& KernelBuilder::alu(Unit unit, uint32_t count, bool dependent, uint8_t latency_class) {
  if (unit != Unit::SP && unit != Unit::INT && unit != Unit::DP && unit != Unit::SFU)
    throw Error(fmt::format("ALU ops run on sp, int, dp or sfu, not {}", unit_name(unit)));
  if (count == 0) throw Error("instruction count must be positive");
  if (latency_class >= kNumLatencyClasses) throw Error("latency class out of range");
  Stmt s;
  s.kind = Stmt::Kind::Alu;
  s.unit = unit;
  s.count = count;
  s.dependent = dependent;
  s.latency_class = latency_class;
  add(std::move(s));
  return *this;
}

static Stmt mem_stmt(OpClass op, MemSpace space, const AccessPattern& p, uint32_t width, uint32_t count) {
  if (space == MemSpace::None) throw Error("memory statement needs a memory space");
  if (!valid_width(width)) throw Error(fmt::format("access width must be 1, 2, 4, 8 or 16 bytes, got {}", width));
  if (count == 0) throw Error("instruction count must be positive");
  if (op == OpClass::STORE && (space == MemSpace::Const || space == MemSpace::Param || space == MemSpace::Tex))
    throw Error(fmt::format("cannot store to {} memory", mem_space_name(space)));
  if (op == OpClass::ATOMIC && space != MemSpace::Global && space != MemSpace::Shared)
    throw Error(fmt::format("atomics work on global or shared memory, not {}", mem_space_name(space)));
  check_pattern(p, width);
  Stmt s;
  s.kind = Stmt::Kind::Mem;
  s.op = op;
  s.space = space;
  s.pattern = p;
  s.width = static_cast<uint8_t>(width);
  s.count = count;
  return s;
}

KernelBuilder& KernelBuilder::load(MemSpace space, AccessPattern p, uint32_t width, uint32_t count, bool use) {
  Stmt s = mem_stmt(OpClass::LOAD, space, p, width, count);
  s.use = use;
  add(std::move(s));
  return *this;
}
KernelBuilder& KernelBuilder::store(MemSpace space, AccessPattern p, uint32_t width, uint32_t count, bool dependent) {
  Stmt s = mem_stmt(OpClass::STORE, space, p, width, count);
  s.dependent = dependent;
  add(std::move(s));
  return *this;
}
KernelBuilder& KernelBuilder::atomic(MemSpace space, AccessPattern p, uint32_t width, uint32_t count, bool use) {
  Stmt s = mem_stmt(OpClass::ATOMIC, space, p, width, count);
  s.use = use;
  add(std::move(s));
  return *this;
}

KernelBuilder& KernelBuilder::barrier() {
  for (const Open& o : stack_)
    if (o.stmt->kind == Stmt::Kind::Diverge) throw Error("barrier inside a divergent region");
  Stmt s;
  s.kind = Stmt::Kind::Barrier;
  add(std::move(s));
  return *this;
}
KernelBuilder& KernelBuilder::membar() {
  Stmt s;
  s.kind = Stmt::Kind::Membar;
  add(std::move(s));
  return *this;
}

KernelBuilder& KernelBuilder::begin_loop(uint64_t trips) {
  if (trips == 0) throw Error("loop trip count must be positive (use a per-warp trip count for zero-trip loops)");
  Stmt s;
  s.kind = Stmt::Kind::Loop;
  s.trips = trips;
  stack_.push_back({&add(std::move(s)), false});
  return *this;
}
KernelBuilder& KernelBuilder::begin_loop_per_warp(TripFn trips) {
  if (!trips) throw Error("per-warp loop needs a trip-count function");
  Stmt s;
  s.kind = Stmt::Kind::Loop;
  s.trip_fn = std::move(trips);
  stack_.push_back({&add(std::move(s)), false});
  return *this;
}
KernelBuilder& KernelBuilder::begin_diverge(MaskFn mask) {
  if (!mask) throw Error("diverge needs a lane mask");
  Stmt s;
  s.kind = Stmt::Kind::Diverge;
  s.mask = std::move(mask);
  stack_.push_back({&add(std::move(s)), false});
  return *this;
}
KernelBuilder& KernelBuilder::begin_else() {
  if (stack_.empty() || stack_.back().stmt->kind != Stmt::Kind::Diverge) throw Error("else outside a diverge block");
  if (stack_.back().in_else) throw Error("diverge block already has an else part");
  stack_.back().in_else = true;
  return *this;
}
KernelBuilder& KernelBuilder::end() {
  if (stack_.empty()) throw Error("end without an open loop or diverge block");
  stack_.pop_back();
  return *this;
}

KernelBuilder& KernelBuilder::loop(uint64_t trips, const std::function<void(KernelBuilder&)>& body) {
  begin_loop(trips);
  if (body) body(*this);
  return end();
}
KernelBuilder& KernelBuilder::loop_per_warp(TripFn trips, const std::function<void(KernelBuilder&)>& body) {
  begin_loop_per_warp(std::move(trips));
  if (body) body(*this);
  return end();
}
KernelBuilder& KernelBuilder::diverge(MaskFn mask, const std::function<void(KernelBuilder&)>& then_body,
                                      const std::function<void(KernelBuilder&)>& else_body) {
  begin_diverge(std::move(mask));
  if (then_body) then_body(*this);
  if (else_body) {
    begin_else();
    else_body(*this);
  }
  return end();
}

SyntheticKernel KernelBuilder::build() const {
  if (!stack_.empty()) throw Error(fmt::format("{} unclosed loop/diverge block(s)", stack_.size()));
  SyntheticKernel k;
  k.info = info_;
  k.regs = regs_;
  auto prog = std::make_shared<std::vector<Stmt>>(top_);
  uint32_t slot = 0, mem_index = 0;
  layout(*prog, slot, mem_index, info_);
  k.num_pcs = slot + 1;  // EXIT
  k.num_mem_stmts = mem_index;
  k.program = std::move(prog);
  return k;
}

// ---------------------------------------------------------------------------------------------

std::string disassemble(const WarpStream& s) {
  std::string out;
  auto reg = [](RegId r) { return r == kNoReg ? std::string("_") : fmt::format("r{}", r); };
  for (const WarpInst& i : s.insts) {
    std::string name;
    switch (i.op) {
      case OpClass::ALU:
        name = fmt::format("alu.{}", unit_name(i.unit));
        break;
      case OpClass::LOAD:
        name = fmt::format("ld.{}.b{}", mem_space_name(i.space), i.width * 8);
        break;
      case OpClass::STORE:
        name = fmt::format("st.{}.b{}", mem_space_name(i.space), i.width * 8);
        break;
      case OpClass::ATOMIC:
        name = fmt::format("atom.{}.b{}", mem_space_name(i.space), i.width * 8);
        break;
      case OpClass::BRANCH:
        name = "bra";
        break;
      case OpClass::BARRIER:
        name = "bar";
        break;
      case OpClass::MEMBAR:
        name = "membar";
        break;
      case OpClass::EXIT:
        name = "exit";
        break;
      case OpClass::NOP:
        name = "nop";
        break;
    }
    out += fmt::format("{:06x} {:08x} {:<16}", i.pc, i.active_mask, name);
    std::string dst, src;
    for (RegId r : i.dst)
      if (r != kNoReg) {
        if (!dst.empty()) dst += ',';
        dst += reg(r);
      }
    for (RegId r : i.src)
      if (r != kNoReg) {
        if (!src.empty()) src += ',';
        src += reg(r);
      }
    if (!dst.empty() || !src.empty()) out += fmt::format(" {} <- {}", dst.empty() ? "_" : dst, src.empty() ? "_" : src);
    if (i.flags & kFlagDiverged) out += " diverged";
    if (i.addr_index != kNoAddr) {
      for (uint32_t lane = 0; lane < 32; ++lane)
        if ((i.active_mask >> lane) & 1) {
          out += fmt::format(" lane{}=0x{:x}", lane, s.addrs[i.addr_index + lane]);
          break;
        }
    }
    out += '\n';
  }
  return out;
}

}  // namespace warpsim::synth
