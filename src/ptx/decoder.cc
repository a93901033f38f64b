#include "ptx/decoder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "core/error.h"
#include "core/strings.h"
#include "ptx/cfg.h"
#include "ptx/instruction_class.h"
#include "ptx/ops.h"
#include "ptx/wmma.h"

namespace warpsim::ptx {

namespace {

struct SpecialName {
  const char* name;
  Special which;
};
constexpr SpecialName kSpecials[] = {
    {"%tid.x", Special::TidX},
    {"%tid.y", Special::TidY},
    {"%tid.z", Special::TidZ},
    {"%ntid.x", Special::NtidX},
    {"%ntid.y", Special::NtidY},
    {"%ntid.z", Special::NtidZ},
    {"%ctaid.x", Special::CtaidX},
    {"%ctaid.y", Special::CtaidY},
    {"%ctaid.z", Special::CtaidZ},
    {"%nctaid.x", Special::NctaidX},
    {"%nctaid.y", Special::NctaidY},
    {"%nctaid.z", Special::NctaidZ},
    {"%laneid", Special::LaneId},
    {"%warpid", Special::WarpId},
    {"%nwarpid", Special::NWarpId},
    {"%smid", Special::SmId},
    {"%nsmid", Special::NSmId},
    {"%gridid", Special::GridId},
    {"%lanemask_eq", Special::LanemaskEq},
    {"%lanemask_lt", Special::LanemaskLt},
    {"%lanemask_le", Special::LanemaskLe},
    {"%lanemask_gt", Special::LanemaskGt},
    {"%lanemask_ge", Special::LanemaskGe},
};

// N of %envregN (0..31), or -1.
int envreg_number(const std::string& name) {
  static const std::string kPrefix = "%envreg";
  if (name.size() <= kPrefix.size() || name.size() > kPrefix.size() + 2 || name.compare(0, kPrefix.size(), kPrefix))
    return -1;
  int n = 0;
  for (size_t i = kPrefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    n = n * 10 + (name[i] - '0');
  }
  return n <= 31 ? n : -1;
}

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
std::string count(size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

constexpr uint64_t kMaxShared = 228 * 1024;  // per CTA, static
constexpr uint64_t kMaxLocal = 512 * 1024;   // per thread, all frames

// A call of a function the runtime provides (vprintf, __assertfail, malloc, free) is one ALU
// instruction for the timing model, not a branch.
constexpr InstrClass kBuiltinClass{OpcodeInfo{Unit::INT, OpClass::ALU, MemSpace::None, false, kLatAlu}};

const InstrClass& function_exit_class();

struct Entity {
  enum Kind { Reg, Sym, Proto } kind = Reg;
  uint32_t index = 0;  // register index; Proto: index into Decoder::protos_
  Type type = Type::None;
  Space space = Space::None;
  uint64_t addr = 0;  // symbol address in its space
  uint64_t size = 0;
  bool frame_param = false;   // a .param living in the call frame (func params, call arguments)
  bool kernel_param = false;  // an .entry parameter
};

struct FuncCtx {
  const Function* fn = nullptr;
  uint32_t index = 0;
  std::map<std::string, uint32_t> labels;
  std::vector<uint32_t> decl_offset;     // frame offset of each Local/Param declaration statement
  std::map<std::string, Entity> params;  // .func parameters and return values
};

class Decoder {
 public:
  Decoder(const Module& m, const SymbolMap& globals) : m_(m), globals_(globals) {}

  std::shared_ptr<const Program> run(const std::string& kernel, bool hoist_loads) {
    const Function* entry = nullptr;
    for (const auto& f : m_.functions)
      if (f.name == kernel && f.is_entry && f.has_body) entry = &f;
    if (!entry) throw Error(m_.file + ": no kernel (.entry with a body) named '" + kernel + "'");
    prog_ = std::make_shared<Program>();
    prog_->name = kernel;
    prog_->file = m_.file;
    prog_->code_offset = m_.code_base + module_code_offset(m_, kernel);
    for (int i = 0; i < 3; ++i) prog_->reqntid[i] = entry->reqntid[i];
    if (entry->maxntid[0])
      prog_->maxntid_threads = entry->maxntid[0] * std::max(1u, entry->maxntid[1]) * std::max(1u, entry->maxntid[2]);
    prog_->minnctapersm = entry->minnctapersm;
    prog_->maxnreg = entry->maxnreg;
    collect_functions(entry);
    layout_shared();
    for (auto& fc : funcs_) pass1(fc);
    // Static frames: every function gets its own region of each thread's local memory.
    uint32_t local = 0;
    for (auto& fi : prog_->funcs) {
      if (local + uint64_t(fi.frame_size) > kMaxLocal)
        fail(entry->loc, "local memory per thread exceeds " + std::to_string(kMaxLocal / 1024) + " KiB");
      local = align_up(local, 16);
      fi.frame_base = local;
      local += fi.frame_size;
    }
    prog_->local_bytes = align_up(local, 16);
    for (auto& fc : funcs_)
      for (auto& [name, e] : fc.params) e.addr += prog_->funcs[fc.index].frame_base;
    // Instruction ranges.
    uint32_t pc = 0;
    for (auto& fc : funcs_) {
      FuncInfo& fi = prog_->funcs[fc.index];
      fi.first = pc;
      uint32_t n = 0;
      for (const auto& st : fc.fn->body) n += st.kind == Statement::Inst;
      fi.exit = pc + n;
      pc = fi.exit + 1;
      for (auto& [name, idx] : fc.labels) idx += fi.first;
    }
    prog_->insts.resize(pc);
    for (auto& fc : funcs_) pass2(fc);
    if (hoist_loads) hoist_global_loads(*prog_);
    for (auto& fi : prog_->funcs) compute_reconvergence(*prog_, fi);
    // A caller's values stay in registers across a call: the deepest call path's peaks add up.
    prog_->est_regs = call_path_peak_registers(*prog_) + 2;
    fixed_.assign(next_reg_, 0);
    for (const auto& c : prog_->consts) fixed_[c.index] = 1;
    for (const auto& sp : prog_->specials) fixed_[sp.index] = 1;
    for (uint32_t i = 0; i < prog_->insts.size(); ++i) make_template(prog_->insts[i], i);
    prog_->num_arch_regs = next_reg_ - uint32_t(prog_->consts.size() + prog_->specials.size());
    prog_->num_regs = next_reg_;
    return prog_;
  }

 private:
  const Module& m_;
  const SymbolMap& globals_;
  std::shared_ptr<Program> prog_;
  std::vector<FuncCtx> funcs_;
  std::map<std::string, uint32_t> func_index_;
  std::map<std::string, Entity> shared_syms_;
  uint32_t next_reg_ = 0;
  std::map<uint64_t, uint32_t> const_slots_;
  std::map<Special, uint32_t> special_slots_;
  uint32_t sink_reg_ = kNone;
  std::vector<char> fixed_;              // constant/special register slots
  std::vector<const Function*> protos_;  // .callprototype declarations seen in pass 2
  // pass 2 state
  std::vector<std::map<std::string, Entity>> scopes_;
  FuncCtx* cur_ = nullptr;
  const Instr* cur_inst_ = nullptr;
  const InstrClass* cls_ = nullptr;  // the class of the instruction being decoded (Decoder::decode)

  [[noreturn]] void fail(SrcLoc l, const std::string& msg) const { throw LocatedError(m_.file, l.line, l.col, msg); }

  // The operands of a call: call{.uni} [(rets),] func|%reg [, (args)] [, proto];
  struct CallShape {
    const Operand* rets = nullptr;
    const Operand* callee = nullptr;  // a function name (direct) or a register (indirect)
    const Operand* args = nullptr;
    const Operand* proto = nullptr;  // indirect calls: the .callprototype label
    bool indirect() const { return callee->kind == Operand::Reg; }
  };
  CallShape call_shape(const Instr& s) const {
    CallShape c;
    const auto& o = s.ops;
    size_t k = 0;
    if (k < o.size() && o[k].kind == Operand::List) c.rets = &o[k++];
    if (k >= o.size() || (o[k].kind != Operand::Sym && o[k].kind != Operand::Reg))
      fail(s.loc, "expected a function name, or a register holding a function address, in call");
    c.callee = &o[k++];
    if (k < o.size() && o[k].kind == Operand::List) c.args = &o[k++];
    if (c.indirect()) {
      if (k >= o.size() || o[k].kind != Operand::Sym)
        fail(s.loc, "indirect call without a .callprototype label after its arguments");
      c.proto = &o[k++];
    }
    if (k != o.size()) fail(o[k].loc, "unexpected operand in call");
    return c;
  }
  static bool is_call(const Statement& st) {
    return st.kind == Statement::Inst && st.inst.opcode.rfind("call", 0) == 0;
  }

  // Functions whose address the module takes: named in an initializer of a module variable or
  // as an operand of an instruction other than a branch or a direct call (`mov.u64 %rd, f;`).
  // Indirect calls may reach any of them. Sorted by module index.
  std::vector<size_t> address_taken() const {
    std::map<std::string, size_t> funcs;  // name -> module index of its definition (else declaration)
    for (size_t i = 0; i < m_.functions.size(); ++i) {
      auto [it, fresh] = funcs.emplace(m_.functions[i].name, i);
      if (!fresh && !m_.functions[it->second].has_body && m_.functions[i].has_body) it->second = i;
    }
    for (const auto& g : m_.globals) funcs.erase(g.name);
    std::set<size_t> idx;
    auto note = [&](const std::string& name) {
      if (auto it = funcs.find(name); it != funcs.end()) idx.insert(it->second);
    };
    for (const auto& g : m_.globals)
      for (const auto& e : g.init)
        if (!e.sym.empty()) note(e.sym);
    for (const auto& f : m_.functions)
      for (const auto& st : f.body) {
        if (st.kind != Statement::Inst || st.inst.opcode.rfind("bra", 0) == 0 || is_call(st)) continue;
        for (const auto& o : st.inst.ops)
          if (o.kind == Operand::Sym) note(o.name);
      }
    return {idx.begin(), idx.end()};
  }

  void collect_functions(const Function* entry) {
    std::vector<const Function*> work{entry};
    func_index_[entry->name] = 0;
    funcs_.push_back(FuncCtx{entry, 0, {}, {}, {}});
    auto add = [&](const Function* f) {
      uint32_t idx = uint32_t(funcs_.size());
      func_index_[f->name] = idx;
      funcs_.push_back(FuncCtx{f, idx, {}, {}, {}});
      work.push_back(f);
    };
    bool indirect = false;
    std::vector<size_t> taken;
    for (size_t k = 0; k < work.size(); ++k) {
      for (const auto& st : work[k]->body) {
        if (!is_call(st)) continue;
        CallShape c = call_shape(st.inst);
        if (c.indirect()) {
          // Any function whose address the module takes may be called from here: they are
          // decoded with the kernel.
          if (indirect) continue;
          indirect = true;
          taken = address_taken();
          for (size_t i : taken) {
            const Function& f = m_.functions[i];
            if (f.has_body && !f.is_entry && !func_index_.count(f.name)) add(&f);
          }
          continue;
        }
        const Operand* callee = c.callee;
        if (func_index_.count(callee->name)) continue;
        const Function* f = m_.find_function(callee->name);
        if (!f) fail(callee->loc, "call to undeclared function '" + callee->name + "'");
        if (!f->has_body && builtin(f->name)) continue;
        if (!f->has_body)
          fail(callee->loc, "call to external function '" + callee->name + "' which has no body in this module");
        if (f->is_entry) fail(callee->loc, "call to kernel '" + callee->name + "'");
        add(f);
      }
    }
    // Recursion needs nothing here: a function entered again while it is active saves its
    // registers and frame on the warp's call stack (executor).
    prog_->funcs.resize(funcs_.size());
    for (auto& fc : funcs_) {
      prog_->funcs[fc.index].name = fc.fn->name;
      prog_->funcs[fc.index].is_entry = fc.fn->is_entry;
    }
    for (size_t i : taken) {
      const Function& f = m_.functions[i];
      FuncTarget t;
      t.addr = function_address(m_, f);
      t.name = f.name;
      if (f.is_entry)
        t.why = "which is a kernel";
      else if (!f.has_body)
        t.why = "which has no body in this module";
      else
        t.func = func_index_.at(f.name);
      prog_->targets.push_back(std::move(t));
    }
  }

  void layout_shared() {
    uint32_t off = 0;
    auto place = [&](const VarDecl& v) {
      if (v.array_len == 0 || v.is_extern) return;
      if (v.size_bytes() > kMaxShared || off + v.size_bytes() > kMaxShared)
        fail(v.loc, "shared memory of the kernel exceeds " + std::to_string(kMaxShared / 1024) + " KiB");
      off = align_up(off, v.alignment());
      shared_syms_[v.name] = Entity{Entity::Sym, 0, v.type, Space::Shared, off, v.size_bytes()};
      off += uint32_t(v.size_bytes());
    };
    for (const auto& g : m_.globals)
      if (g.space == Space::Shared) place(g);
    for (auto& fc : funcs_)
      for (const auto& st : fc.fn->body)
        if (st.kind == Statement::Decl && st.decl.space == Space::Shared) place(st.decl);
    prog_->static_shared = off;
    prog_->dyn_shared_offset = align_up(off, 16);
    auto place_dyn = [&](const VarDecl& v) {
      shared_syms_[v.name] = Entity{Entity::Sym, 0, v.type, Space::Shared, prog_->dyn_shared_offset, 0};
    };
    for (const auto& g : m_.globals)
      if (g.space == Space::Shared && (g.array_len == 0 || g.is_extern)) place_dyn(g);
    for (auto& fc : funcs_)
      for (const auto& st : fc.fn->body)
        if (st.kind == Statement::Decl && st.decl.space == Space::Shared &&
            (st.decl.array_len == 0 || st.decl.is_extern))
          place_dyn(st.decl);
  }

  void pass1(FuncCtx& fc) {
    const Function& f = *fc.fn;
    FuncInfo& fi = prog_->funcs[fc.index];
    uint32_t frame = 0;
    if (f.is_entry) {
      uint32_t off = 0;
      for (const auto& p : f.params) {
        if (p.space != Space::Param) fail(p.loc, "kernel parameters must be in .param space");
        if (off + p.size_bytes() > 32764) fail(p.loc, "kernel parameters exceed 32764 bytes");
        off = align_up(off, p.alignment());
        prog_->params.push_back({p.name, off, uint32_t(p.size_bytes())});
        off += uint32_t(p.size_bytes());
      }
      prog_->param_bytes = off;
    } else {
      auto add = [&](const VarDecl& p) {
        if (p.space == Space::Reg) fail(p.loc, "register parameters (.reg) are not supported; expected .param");
        frame = align_up(frame, std::max<uint32_t>(p.alignment(), 4));
        Entity e{Entity::Sym, 0, p.type, Space::Param, frame, p.size_bytes()};
        e.frame_param = true;
        fc.params[p.name] = e;
        frame += uint32_t(p.size_bytes());
      };
      for (const auto& p : f.rets) add(p);
      for (const auto& p : f.params) add(p);
      fi.nrets = uint32_t(f.rets.size());
      fi.nparams = uint32_t(f.params.size());
      if (frame > kMaxLocal) fail(f.loc, "parameters of '" + f.name + "' are too large");
    }
    fc.decl_offset.assign(f.body.size(), 0);
    uint32_t n = 0;
    for (size_t i = 0; i < f.body.size(); ++i) {
      const Statement& st = f.body[i];
      if (st.kind == Statement::Inst) ++n;
      if (st.kind == Statement::Label) {
        if (fc.labels.count(st.label)) fail(st.loc, "duplicate label '" + st.label + "'");
        fc.labels[st.label] = n;
      }
      if (st.kind == Statement::Decl && (st.decl.space == Space::Local || st.decl.space == Space::Param)) {
        if (st.decl.array_len == 0)
          fail(st.loc, "unsized array in ." + std::string(space_name(st.decl.space)) + " space");
        if (st.decl.size_bytes() > kMaxLocal || frame + st.decl.size_bytes() > kMaxLocal)
          fail(st.loc, "local memory per thread exceeds " + std::to_string(kMaxLocal / 1024) + " KiB");
        frame = align_up(frame, std::max<uint32_t>(st.decl.alignment(), 4));
        fc.decl_offset[i] = frame;
        frame += uint32_t(st.decl.size_bytes());
      }
    }
    fi.frame_size = align_up(frame, 16);
  }

  uint32_t new_reg(const std::string& name, Type t = Type::None) {
    uint32_t r = next_reg_++;
    prog_->reg_names.push_back(name);
    int b = t == Type::Pred ? 0 : type_bytes(t);
    prog_->reg_bytes.push_back(uint8_t(b == 0 ? 0 : (b > 4 ? 8 : 4)));
    return r;
  }
  uint32_t const_slot(uint64_t v) {
    auto it = const_slots_.find(v);
    if (it != const_slots_.end()) return it->second;
    uint32_t r = new_reg("<imm>");
    const_slots_[v] = r;
    prog_->consts.push_back({r, v});
    return r;
  }
  uint32_t special_slot(Special s, const char* name) {
    auto it = special_slots_.find(s);
    if (it != special_slots_.end()) return it->second;
    uint32_t r = new_reg(name);
    special_slots_[s] = r;
    prog_->specials.push_back({r, s});
    return r;
  }

  const Entity* lookup(const std::string& name) const {
    for (size_t k = scopes_.size(); k-- > 0;) {
      auto it = scopes_[k].find(name);
      if (it != scopes_[k].end()) return &it->second;
    }
    auto p = cur_->params.find(name);
    if (p != cur_->params.end()) return &p->second;
    return nullptr;
  }

  // Address of a symbol operand (in its own state space).
  Entity symbol(const Operand& o) const {
    if (const Entity* e = lookup(o.name)) {
      if (e->kind == Entity::Sym) return *e;
      fail(o.loc,
           "'" + o.name + "' is a " + (e->kind == Entity::Reg ? "register" : "call prototype") + ", expected a symbol");
    }
    auto s = shared_syms_.find(o.name);
    if (s != shared_syms_.end()) return s->second;
    auto g = globals_.find(o.name);
    if (g != globals_.end()) return Entity{Entity::Sym, 0, Type::B8, g->second.space, g->second.addr, g->second.size};
    if (cur_->fn->is_entry)
      for (const auto& p : prog_->params)
        if (p.name == o.name) {
          Entity e{Entity::Sym, 0, Type::B8, Space::Param, p.offset, p.size};
          e.kernel_param = true;
          return e;
        }
    if (m_.find_function(o.name)) fail(o.loc, "'" + o.name + "' is a function, expected a variable");
    fail(o.loc, "undefined symbol '" + o.name + "'");
  }

  // The function `name` denotes where it is used as a value: no variable or parameter hides it.
  const Function* function_named(const std::string& name) const {
    if (lookup(name) || shared_syms_.count(name) || globals_.count(name)) return nullptr;
    if (cur_->fn->is_entry)
      for (const auto& p : prog_->params)
        if (p.name == name) return nullptr;
    return m_.find_function(name);
  }

  static bool size_ok(Type reg, Type want, bool relaxed) {
    if (want == Type::None) return true;
    if ((reg == Type::Pred) != (want == Type::Pred)) return false;
    if (want == Type::Pred) return true;
    int rb = type_bytes(reg), wb = type_bytes(want);
    return relaxed ? rb >= wb || (rb == 2 && wb == 1) || (rb >= 2 && wb == 1) : rb == wb;
  }

  uint64_t imm_value(const Operand& o, Type want) const {
    bool want_f = type_is_float(want);
    int bytes = type_bytes(want);
    switch (o.kind) {
      case Operand::Int:
        if (want_f) {
          if (want == Type::F32) return from_f32(float(o.ival));
          if (want == Type::F64) return from_f64(double(o.ival));
          fail(o.loc, "integer literal for a half-precision operand");
        }
        if (want == Type::Pred) return o.ival != 0;
        return bytes == 8 || bytes == 0 ? uint64_t(o.ival) : uint64_t(o.ival) & ((uint64_t(1) << (8 * bytes)) - 1);
      case Operand::F32Bits:
        if (want == Type::F64) return from_f64(double(as_f32(uint64_t(o.ival))));
        if (want_f || bytes == 4) return uint64_t(o.ival) & 0xffffffffu;
        fail(o.loc, "floating-point literal for a " + std::string(type_name(want)) + " operand");
      case Operand::F64Bits:
        if (want == Type::F32) return from_f32(float(as_f64(uint64_t(o.ival))));
        if (want_f || bytes == 8) return uint64_t(o.ival);
        fail(o.loc, "floating-point literal for a " + std::string(type_name(want)) + " operand");
      case Operand::Float:
        if (want == Type::F32) return from_f32(float(o.fval));
        if (want == Type::F64) return from_f64(o.fval);
        fail(o.loc, "floating-point literal for a " + std::string(type_name(want)) + " operand");
      default:
        fail(o.loc, "expected an immediate");
    }
  }

  // A source operand: register, special register, immediate or symbol address.
  uint32_t src(const Operand& o, Type want, bool relaxed = false) {
    switch (o.kind) {
      case Operand::Reg: {
        if (o.neg) fail(o.loc, "'!' is only allowed on predicate operands of setp/selp/vote");
        return reg(o, want, relaxed);
      }
      case Operand::Int:
      case Operand::F32Bits:
      case Operand::F64Bits:
      case Operand::Float:
        return const_slot(imm_value(o, want));
      case Operand::Sym: {
        // A register declared without '%' (nvcc's inline-assembly scopes: `.reg .b16 low;`).
        if (const Entity* e = lookup(o.name); e && e->kind == Entity::Reg) return reg(o, want, relaxed);
        // WARP_SZ: PTX's predefined constant for the warp size (what device-side warpSize becomes).
        if (o.name == "WARP_SZ" && !lookup(o.name) && !globals_.count(o.name)) {
          if (type_is_float(want) || want == Type::Pred)
            fail(o.loc, "WARP_SZ used as a " + std::string(type_name(want)) + " value");
          return const_slot(32);
        }
        if (const Function* f = function_named(o.name)) {
          // A function's address: what an indirect call goes through.
          if (type_bytes(want) != 8 || type_is_float(want))
            fail(o.loc, "the address of function '" + o.name + "' needs a 64-bit integer operand");
          return const_slot(function_address(m_, *f) + uint64_t(o.ival));
        }
        Entity e = symbol(o);
        if (type_is_float(want) || want == Type::Pred)
          fail(o.loc, "symbol address used as a " + std::string(type_name(want)) + " value");
        uint64_t a = e.addr + uint64_t(o.ival);
        if (e.frame_param) fail(o.loc, "taking the address of call parameter '" + o.name + "' is not supported");
        return const_slot(a);
      }
      default:
        fail(o.loc, "expected a register or immediate operand");
    }
  }

  uint32_t reg(const Operand& o, Type want, bool relaxed = false, bool is_dst = false) {
    if (o.kind == Operand::Sink) {
      if (!is_dst) fail(o.loc, "'_' is only allowed as a destination");
      if (sink_reg_ == kNone) sink_reg_ = new_reg("_");
      return sink_reg_;
    }
    const Entity* e = lookup(o.name);
    // Registers may be named without '%'; the parser cannot tell them from symbols.
    if (o.kind != Operand::Reg && !(o.kind == Operand::Sym && e && e->kind == Entity::Reg && !o.ival))
      fail(o.loc, is_dst ? "expected a destination register" : "expected a register");
    if (!e) {
      for (const auto& s : kSpecials)
        if (o.name == s.name) {
          if (is_dst) fail(o.loc, "special register " + o.name + " is read-only");
          return special_slot(s.which, s.name);
        }
      if (int n = envreg_number(o.name); n >= 0) {
        if (is_dst) fail(o.loc, "special register " + o.name + " is read-only");
        return special_slot(Special(int(Special::EnvReg0) + n), o.name.c_str());
      }
      if (o.name == "%clock" || o.name == "%clock64" || o.name == "%globaltimer")
        fail(o.loc, o.name + " may only be read with mov");
      fail(o.loc, "undeclared register '" + o.name + "'");
    }
    if (e->kind != Entity::Reg) fail(o.loc, "'" + o.name + "' is not a register");
    if (!size_ok(e->type, want, relaxed))
      fail(o.loc,
           "register " + o.name + " has type " + type_name(e->type) + ", expected " +
               (want == Type::Pred ? ".pred"
                                   : std::to_string(type_bytes(want) * 8) + "-bit operand for " + type_name(want)));
    return e->index;
  }

  uint32_t dst(const Operand& o, Type want, bool relaxed = false) { return reg(o, want, relaxed, true); }

  void declare(const Statement& st, size_t idx) {
    const VarDecl& v = st.decl;
    auto& scope = scopes_.back();
    switch (v.space) {
      case Space::Reg: {
        if (v.type == Type::None) fail(v.loc, "register declaration without a type");
        Type t = v.type;
        if (v.vec != 1) fail(v.loc, "vector registers are not supported");
        if (v.reg_range >= 0) {
          if (v.reg_range > 65536) fail(v.loc, "register range too large");
          for (int64_t i = 0; i < v.reg_range; ++i) {
            std::string n = v.name + std::to_string(i);
            scope[n] = Entity{Entity::Reg, new_reg(n, t), t};
          }
        } else {
          scope[v.name] = Entity{Entity::Reg, new_reg(v.name, t), t};
        }
        if (next_reg_ >= 0xfff0) fail(v.loc, "too many registers in kernel");
        return;
      }
      case Space::Local: {
        Entity e{Entity::Sym,   0, v.type, Space::Local, cur_->decl_offset[idx] + prog_->funcs[cur_->index].frame_base,
                 v.size_bytes()};
        scope[v.name] = e;
        return;
      }
      case Space::Param: {
        Entity e{Entity::Sym,   0, v.type, Space::Param, cur_->decl_offset[idx] + prog_->funcs[cur_->index].frame_base,
                 v.size_bytes()};
        e.frame_param = true;
        scope[v.name] = e;
        return;
      }
      case Space::Shared:
        return;  // laid out by layout_shared()
      default:
        fail(v.loc, "." + std::string(space_name(v.space)) + " variables inside functions are not supported");
    }
  }

  void pass2(FuncCtx& fc) {
    cur_ = &fc;
    scopes_.clear();
    scopes_.emplace_back();
    FuncInfo& fi = prog_->funcs[fc.index];
    uint32_t pc = fi.first;
    fi.reg_first = next_reg_;
    const auto& body = fc.fn->body;
    for (size_t i = 0; i < body.size(); ++i) {
      const Statement& st = body[i];
      switch (st.kind) {
        case Statement::BlockBegin:
          scopes_.emplace_back();
          break;
        case Statement::BlockEnd:
          scopes_.pop_back();
          break;
        case Statement::Decl:
          declare(st, i);
          break;
        case Statement::Label:
          break;
        case Statement::Proto: {
          Entity e{Entity::Proto, uint32_t(protos_.size())};
          protos_.push_back(st.proto.get());
          scopes_.back()[st.label] = e;
          break;
        }
        case Statement::Inst: {
          Inst& in = prog_->insts[pc];
          in.func = fc.index;
          in.line = st.inst.loc.line;
          decode(st.inst, in);
          ++pc;
          break;
        }
      }
    }
    fi.reg_end = next_reg_;
    Inst& ex = prog_->insts[fi.exit];
    ex.op = Op::FuncExit;
    apply_class(function_exit_class(), ex);
    ex.func = fc.index;
    ex.line = fc.fn->body.empty() ? fc.fn->loc.line : fc.fn->body.back().loc.line;
  }

  // ------------------------------------------------------------------ instruction decoding
  struct Mods {
    std::string root;
    std::vector<Type> types;
    std::vector<std::string> words;
    std::vector<char> used;
    bool has(const char* w) {
      for (size_t i = 0; i < words.size(); ++i)
        if (words[i] == w) {
          used[i] = 1;
          return true;
        }
      return false;
    }
  };

  static Cmp parse_cmp(Mods& m, bool& found) {
    static const std::pair<const char*, Cmp> kC[] = {
        {"eq", Cmp::EQ},   {"ne", Cmp::NE},   {"lt", Cmp::LT},   {"le", Cmp::LE},   {"gt", Cmp::GT},
        {"ge", Cmp::GE},   {"lo", Cmp::LO},   {"ls", Cmp::LS},   {"hi", Cmp::HI},   {"hs", Cmp::HS},
        {"equ", Cmp::EQU}, {"neu", Cmp::NEU}, {"ltu", Cmp::LTU}, {"leu", Cmp::LEU}, {"gtu", Cmp::GTU},
        {"geu", Cmp::GEU}, {"num", Cmp::NUM}, {"nan", Cmp::NAN_}};
    for (auto& [n, c] : kC)
      if (m.has(n)) {
        found = true;
        return c;
      }
    found = false;
    return Cmp::EQ;
  }
  static Rnd parse_rnd(Mods& m) {
    static const std::pair<const char*, Rnd> kR[] = {{"rn", Rnd::RN},   {"rz", Rnd::RZ},   {"rm", Rnd::RM},
                                                     {"rp", Rnd::RP},   {"rni", Rnd::RNI}, {"rzi", Rnd::RZI},
                                                     {"rmi", Rnd::RMI}, {"rpi", Rnd::RPI}};
    for (auto& [n, r] : kR)
      if (m.has(n)) return r;
    return Rnd::None;
  }
  static Space parse_space_mod(Mods& m) {
    static const std::pair<const char*, Space> kS[] = {{"global", Space::Global},
                                                       {"shared", Space::Shared},
                                                       {"local", Space::Local},
                                                       {"const", Space::Const},
                                                       {"param", Space::Param}};
    for (auto& [n, s] : kS)
      if (m.has(n)) return s;
    return Space::Generic;
  }

  void need_ops(const Instr& s, size_t n) const {
    if (s.ops.size() != n)
      fail(s.loc,
           "'" + s.opcode + "' expects " + std::to_string(n) + " operands, found " + std::to_string(s.ops.size()));
  }
  Type one_type(const Instr& s, Mods& m) const {
    if (m.types.size() != 1) fail(s.loc, "'" + s.opcode + "' needs exactly one type modifier");
    return m.types[0];
  }

  void decode_address(const Operand& o, Inst& in, Space space) {
    if (o.kind != Operand::Addr) fail(o.loc, "expected an address operand '[...]'");
    in.offset = o.ival;
    if (o.name.empty()) return;
    if (o.name[0] == '%') {
      const Entity* e = lookup(o.name);
      if (!e || e->kind != Entity::Reg) fail(o.loc, "undeclared register '" + o.name + "'");
      if (type_bytes(e->type) != 4 && type_bytes(e->type) != 8)
        fail(o.loc, "address register " + o.name + " must be 32 or 64 bits");
      in.addr_reg = e->index;
      return;
    }
    Entity e = symbol(o);
    Space ss = e.space;
    if (e.frame_param) {
      if (space != Space::Param) fail(o.loc, "call parameter '" + o.name + "' accessed outside .param space");
      in.param_frame = true;
    } else if (space == Space::Generic) {
      if (ss == Space::Shared)
        in.offset += int64_t(kSharedWindow);
      else if (ss == Space::Local)
        in.offset += int64_t(kLocalWindow);
      else if (ss == Space::Param)
        fail(o.loc, "generic access to parameter '" + o.name + "'");
    } else if (space == Space::Const && ss == Space::Global) {
      // const and global variables share the device address space
    } else if (ss != space && !(space == Space::Global && ss == Space::Const)) {
      fail(o.loc,
           "symbol '" + o.name + "' is in ." + space_name(ss) + " space, instruction accesses ." + space_name(space));
    }
    in.offset += int64_t(e.addr);
  }

  // Register list of a vector operand (or single register).
  std::vector<const Operand*> elems(const Operand& o) {
    std::vector<const Operand*> v;
    if (o.kind == Operand::Vec)
      for (auto& e : o.elems) v.push_back(&e);
    else
      v.push_back(&o);
    return v;
  }

  // Decodes one instruction statement: its modifiers, then its row of the instruction table
  // (kInstructions) and the row's decode function, then its class.
  void decode(const Instr& s, Inst& in);

  // The external functions the runtime provides.
  static std::optional<BuiltinFn> builtin(const std::string& name) {
    if (name == "vprintf") return BuiltinFn::Vprintf;
    if (name == "__assertfail") return BuiltinFn::AssertFail;
    if (name == "malloc") return BuiltinFn::Malloc;
    if (name == "free") return BuiltinFn::Free;
    return std::nullopt;
  }

  static bool needs_handler(Op op) {
    switch (op) {
      case Op::Ld:
      case Op::St:
      case Op::Bra:
      case Op::Call:
      case Op::Ret:
      case Op::Exit:
      case Op::FuncExit:
      case Op::Bar:
      case Op::BarWarp:
      case Op::Membar:
      case Op::Atom:
      case Op::Red:
      case Op::Shfl:
      case Op::Vote:
      case Op::Match:
      case Op::Builtin:
      case Op::Wmma:
      case Op::Tex:
      case Op::Suld:
      case Op::Sust:
      case Op::Suq:
      case Op::Tld4:
      case Op::Txq:
      case Op::Trap:
      case Op::Activemask:
      case Op::Clock:
      case Op::Nop:
        return false;
      default:
        return true;
    }
  }

  void set_dsts(Inst& in, std::initializer_list<uint32_t> d) {
    int i = 0;
    for (uint32_t r : d) in.d[i++] = r;
    in.ndst = uint8_t(i);
  }
  void set_srcs(Inst& in, std::initializer_list<uint32_t> sv) {
    int i = 0;
    for (uint32_t r : sv) in.s[i++] = r;
    in.nsrc = uint8_t(i);
  }
  uint32_t carry() {
    if (prog_->carry_reg == kNone) prog_->carry_reg = new_reg("%cc");
    return prog_->carry_reg;
  }

 public:
  // ---------------------------------------------------------------- decode functions
  // One per family of mnemonics; the instruction table (kInstructions, below the class) names
  // them. Each sets in.op and the operands; the table gives the class, unless the function
  // picks another one in cls_. The mnemonic is m.root; `s` is the statement, for its operands
  // and its location in errors.
  using DecodeFn = void (Decoder::*)(const Instr& s, Inst& in, Mods& m);

  // The arithmetic shared by most families: one type, rounding, .ftz/.sat/.approx, d = op(a...).
  void decode_arith(const Instr& s, Inst& in, Mods& m, Op op, int nsrc) {
    const auto& o = s.ops;
    in.op = op;
    Type t = in.type = one_type(s, m);
    need_ops(s, size_t(1 + nsrc));
    in.rnd = parse_rnd(m);
    if (m.has("ftz")) in.mods |= kModFtz;
    if (m.has("sat")) in.mods |= kModSat;
    if (m.has("approx")) in.mods |= kModApprox;
    uint32_t d = dst(o[0], t);
    if (nsrc == 1)
      set_srcs(in, {src(o[1], t)});
    else if (nsrc == 2)
      set_srcs(in, {src(o[1], t), src(o[2], t)});
    else
      set_srcs(in, {src(o[1], t), src(o[2], t), src(o[3], t)});
    set_dsts(in, {d});
  }
  // .cc: the instruction also writes the carry flag.
  void carry_out(Inst& in, Mods& m) {
    if (!m.has("cc")) return;
    in.mods |= kModCC;
    in.d[1] = carry();
    in.ndst = 2;
  }

  void decode_add_sub(const Instr& s, Inst& in, Mods& m) {
    decode_arith(s, in, m, m.root == "add" ? Op::Add : Op::Sub, 2);
    carry_out(in, m);
  }

  void decode_addc_subc(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = m.root == "addc" ? Op::Addc : Op::Subc;
    Type t = in.type = one_type(s, m);
    need_ops(s, 3);
    set_dsts(in, {dst(o[0], t)});
    set_srcs(in, {src(o[1], t), src(o[2], t), carry()});
    carry_out(in, m);
  }

  void decode_mul_mad(const Instr& s, Inst& in, Mods& m) {
    const std::string& r = m.root;
    const auto& o = s.ops;
    in.op = r == "mul" ? Op::Mul : r == "mad" ? Op::Mad : Op::Madc;
    Type t = in.type = one_type(s, m);
    bool f = type_is_float(t);
    in.sub = uint8_t(MulMode::Lo);
    if (m.has("hi"))
      in.sub = uint8_t(MulMode::Hi);
    else if (m.has("wide"))
      in.sub = uint8_t(MulMode::Wide);
    else if (!m.has("lo") && !f)
      fail(s.loc, "integer '" + r + "' needs .lo, .hi or .wide");
    if (f) {
      in.rnd = parse_rnd(m);
      if (m.has("ftz")) in.mods |= kModFtz;
      if (m.has("sat")) in.mods |= kModSat;
    } else if (m.has("sat")) {
      if (t != Type::S32) fail(s.loc, ".sat requires .s32");
      in.mods |= kModSat;
    }
    bool wide = MulMode(in.sub) == MulMode::Wide;
    if (wide && type_bytes(t) > 4) fail(s.loc, ".wide needs a 16- or 32-bit type");
    Type wt = wide ? (type_is_signed(t) ? (t == Type::S16 ? Type::S32 : Type::S64)
                                        : (type_bytes(t) == 2 ? Type::U32 : Type::U64))
                   : t;
    need_ops(s, in.op == Op::Mul ? 3 : 4);
    uint32_t d = dst(o[0], wt);
    if (in.op == Op::Mul)
      set_srcs(in, {src(o[1], t), src(o[2], t)});
    else
      set_srcs(in, {src(o[1], t), src(o[2], t), src(o[3], wt)});
    set_dsts(in, {d});
    carry_out(in, m);
    if (in.op == Op::Madc) {
      in.s[3] = carry();
      in.nsrc = 4;
    }
  }

  void decode_fma(const Instr& s, Inst& in, Mods& m) {
    decode_arith(s, in, m, Op::Fma, 3);
    if (!type_is_float(in.type)) fail(s.loc, "fma needs a floating-point type");
  }

  void decode_div_rem(const Instr& s, Inst& in, Mods& m) {
    decode_arith(s, in, m, m.root == "div" ? Op::Div : Op::Rem, 2);
  }

  void decode_unary(const Instr& s, Inst& in, Mods& m) {
    static const std::map<std::string, Op> kU = {
        {"abs", Op::Abs},     {"neg", Op::Neg},   {"not", Op::Not},  {"cnot", Op::Cnot}, {"sqrt", Op::Sqrt},
        {"rsqrt", Op::Rsqrt}, {"rcp", Op::Rcp},   {"ex2", Op::Ex2},  {"lg2", Op::Lg2},   {"sin", Op::Sin},
        {"cos", Op::Cos},     {"tanh", Op::Tanh}, {"brev", Op::Brev}};
    decode_arith(s, in, m, kU.at(m.root), 1);
  }

  void decode_binary(const Instr& s, Inst& in, Mods& m) {
    static const std::map<std::string, Op> kB = {{"min", Op::Min}, {"max", Op::Max}, {"and", Op::And},
                                                 {"or", Op::Or},   {"xor", Op::Xor}, {"copysign", Op::Copysign}};
    decode_arith(s, in, m, kB.at(m.root), 2);
  }

  void decode_shift(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = m.root == "shl" ? Op::Shl : Op::Shr;
    Type t = in.type = one_type(s, m);
    need_ops(s, 3);
    set_dsts(in, {dst(o[0], t)});
    set_srcs(in, {src(o[1], t), src(o[2], Type::U32)});
  }

  void decode_bit_count(const Instr& s, Inst& in, Mods& m) {
    const std::string& r = m.root;
    const auto& o = s.ops;
    in.op = r == "clz" ? Op::Clz : r == "popc" ? Op::Popc : Op::Bfind;
    Type t = in.type = one_type(s, m);
    if (m.has("shiftamt")) in.mods |= kModShiftAmt;
    need_ops(s, 2);
    set_dsts(in, {dst(o[0], Type::U32)});
    set_srcs(in, {src(o[1], t)});
  }

  void decode_bit_field(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    const bool bfe = m.root == "bfe";
    in.op = bfe ? Op::Bfe : Op::Bfi;
    Type t = in.type = one_type(s, m);
    need_ops(s, bfe ? 4 : 5);
    set_dsts(in, {dst(o[0], t)});
    if (bfe)
      set_srcs(in, {src(o[1], t), src(o[2], Type::U32), src(o[3], Type::U32)});
    else
      set_srcs(in, {src(o[1], t), src(o[2], t), src(o[3], Type::U32), src(o[4], Type::U32)});
  }

  void decode_bmsk_szext(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    const bool bmsk = m.root == "bmsk";
    in.op = bmsk ? Op::Bmsk : Op::Szext;
    in.type = one_type(s, m);
    if (bmsk ? in.type != Type::B32 : (in.type != Type::U32 && in.type != Type::S32))
      fail(s.loc, bmsk ? "bmsk takes .b32" : "szext takes .u32 or .s32");
    if (m.has("wrap"))
      in.sub |= 1;
    else if (!m.has("clamp"))
      fail(s.loc, m.root + " needs .clamp or .wrap");
    need_ops(s, 3);
    set_dsts(in, {dst(o[0], in.type)});
    set_srcs(in, {src(o[1], in.type), src(o[2], Type::U32)});
  }

  void decode_shf(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Shf;
    in.type = one_type(s, m);
    if (m.has("l"))
      in.sub |= 1;
    else if (!m.has("r"))
      fail(s.loc, "shf needs .l or .r");
    if (m.has("wrap"))
      in.sub |= 2;
    else if (!m.has("clamp"))
      fail(s.loc, "shf needs .wrap or .clamp");
    need_ops(s, 4);
    set_dsts(in, {dst(o[0], Type::B32)});
    set_srcs(in, {src(o[1], Type::B32), src(o[2], Type::B32), src(o[3], Type::U32)});
  }

  void decode_prmt(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Prmt;
    in.type = one_type(s, m);
    static const char* kModes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    for (int i = 0; i < 6; ++i)
      if (m.has(kModes[i])) in.sub = uint8_t(i + 1);
    need_ops(s, 4);
    set_dsts(in, {dst(o[0], Type::B32)});
    set_srcs(in, {src(o[1], Type::B32), src(o[2], Type::B32), src(o[3], Type::B32)});
  }

  void decode_mov(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    Type t = in.type = one_type(s, m);
    need_ops(s, 2);
    in.op = Op::Mov;
    if (o[1].kind == Operand::Reg &&
        (o[1].name == "%clock" || o[1].name == "%clock64" || o[1].name == "%globaltimer")) {
      in.op = Op::Clock;
      set_dsts(in, {dst(o[0], t)});
      return;
    }
    if (o[0].kind == Operand::Vec) {
      in.op = Op::UnpackMov;
      size_t n = o[0].elems.size();
      if (n != 2 && n != 4) fail(o[0].loc, "vector operand of mov must have 2 or 4 elements");
      Type et = type_bytes(t) / int(n) == 4 ? Type::B32 : type_bytes(t) / int(n) == 2 ? Type::B16 : Type::B8;
      for (size_t i = 0; i < n; ++i) in.d[i] = o[0].elems[i].kind == Operand::Sink ? kNone : dst(o[0].elems[i], et);
      in.ndst = uint8_t(n);
      set_srcs(in, {src(o[1], t)});
      return;
    }
    if (o[1].kind == Operand::Vec) {
      in.op = Op::PackMov;
      size_t n = o[1].elems.size();
      if (n != 2 && n != 4) fail(o[1].loc, "vector operand of mov must have 2 or 4 elements");
      Type et = type_bytes(t) / int(n) == 4 ? Type::B32 : type_bytes(t) / int(n) == 2 ? Type::B16 : Type::B8;
      for (size_t i = 0; i < n; ++i) in.s[i] = src(o[1].elems[i], et);
      in.nsrc = uint8_t(n);
      set_dsts(in, {dst(o[0], t)});
      return;
    }
    set_dsts(in, {dst(o[0], t)});
    set_srcs(in, {src(o[1], t)});
  }

  // setp and set: the comparison, an optional boolean combination with a predicate c, .ftz.
  void decode_compare(const Instr& s, Inst& in, Mods& m) {
    bool found;
    in.cmp = parse_cmp(m, found);
    if (!found) fail(s.loc, m.root + " needs a comparison (.eq, .lt, ...)");
    if (m.has("and"))
      in.boolop = BoolOp::And;
    else if (m.has("or"))
      in.boolop = BoolOp::Or;
    else if (m.has("xor"))
      in.boolop = BoolOp::Xor;
    if (m.has("ftz")) in.mods |= kModFtz;
  }
  void check_compared_type(const Instr& s, const Inst& in, Type t) const {
    if (!type_is_float(t) && int(in.cmp) >= int(Cmp::EQU)) fail(s.loc, "unordered comparison on an integer type");
    if (type_is_float(t) && (in.cmp == Cmp::LO || in.cmp == Cmp::LS || in.cmp == Cmp::HI || in.cmp == Cmp::HS))
      fail(s.loc, "unsigned comparison on a floating-point type");
    need_ops(s, in.boolop == BoolOp::None ? 3 : 4);
  }
  void decode_bool_source(const Instr& s, Inst& in) {  // {!}c of a combined comparison
    if (in.boolop == BoolOp::None) return;
    if (s.ops[3].neg) in.mods |= kModNegSrc0;
    Operand c = s.ops[3];
    c.neg = false;
    in.s[2] = src(c, Type::Pred);
    in.nsrc = 3;
  }

  void decode_setp(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Setp;
    decode_compare(s, in, m);
    Type t = in.type = one_type(s, m);
    check_compared_type(s, in, t);
    in.d[0] = dst(o[0], Type::Pred);
    in.ndst = 1;
    if (!o[0].name2.empty()) {
      Operand q = o[0];
      q.name = q.name2;
      in.d[1] = dst(q, Type::Pred);
      in.ndst = 2;
    }
    set_srcs(in, {src(o[1], t), src(o[2], t)});
    decode_bool_source(s, in);
  }

  // set.CmpOp{.BoolOp}{.ftz}.dtype.stype d, a, b{, {!}c}
  void decode_set(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Set;
    decode_compare(s, in, m);
    if (m.types.size() != 2) fail(s.loc, "set needs a destination and a source type");
    in.type = m.types[0];
    in.type2 = m.types[1];
    if (in.type != Type::U32 && in.type != Type::S32 && in.type != Type::F32)
      fail(s.loc, "set destination type must be .u32, .s32 or .f32");
    Type t = in.type2;
    if (t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::Pred || type_bytes(t) < 2)
      fail(s.loc, "unsupported source type in '" + s.opcode + "'");
    check_compared_type(s, in, t);
    set_dsts(in, {dst(o[0], in.type)});
    set_srcs(in, {src(o[1], t), src(o[2], t)});
    decode_bool_source(s, in);
  }

  void decode_testp(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Testp;
    static const std::pair<const char*, TestpMode> kT[] = {
        {"finite", TestpMode::Finite},         {"infinite", TestpMode::Infinite}, {"number", TestpMode::Number},
        {"notanumber", TestpMode::NotANumber}, {"normal", TestpMode::Normal},     {"subnormal", TestpMode::Subnormal}};
    bool found = false;
    for (auto& [n, md] : kT)
      if (m.has(n)) {
        in.sub = uint8_t(md);
        found = true;
        break;
      }
    if (!found) fail(s.loc, "testp needs a test (.finite, .infinite, .number, .notanumber, .normal, .subnormal)");
    Type t = in.type = one_type(s, m);
    if (t != Type::F32 && t != Type::F64) fail(s.loc, "testp needs .f32 or .f64");
    need_ops(s, 2);
    set_dsts(in, {dst(o[0], Type::Pred)});
    set_srcs(in, {src(o[1], t)});
  }

  void decode_mul24_mad24(const Instr& s, Inst& in, Mods& m) {
    const std::string& r = m.root;
    const auto& o = s.ops;
    in.op = r == "mul24" ? Op::Mul24 : Op::Mad24;
    Type t = in.type = one_type(s, m);
    if (t != Type::U32 && t != Type::S32) fail(s.loc, "'" + r + "' needs .u32 or .s32");
    if (m.has("hi"))
      in.sub = uint8_t(MulMode::Hi);
    else if (m.has("lo"))
      in.sub = uint8_t(MulMode::Lo);
    else
      fail(s.loc, "'" + r + "' needs .lo or .hi");
    if (m.has("sat")) {
      if (in.op != Op::Mad24 || t != Type::S32 || MulMode(in.sub) != MulMode::Hi)
        fail(s.loc, ".sat requires mad24.hi.s32");
      in.mods |= kModSat;
    }
    bool mad = in.op == Op::Mad24;
    need_ops(s, mad ? 4 : 3);
    set_dsts(in, {dst(o[0], t)});
    if (mad)
      set_srcs(in, {src(o[1], t), src(o[2], t), src(o[3], t)});
    else
      set_srcs(in, {src(o[1], t), src(o[2], t)});
  }

  void decode_sad(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Sad;
    Type t = in.type = one_type(s, m);
    need_ops(s, 4);
    set_dsts(in, {dst(o[0], t)});
    set_srcs(in, {src(o[1], t), src(o[2], t), src(o[3], t)});
  }

  void decode_selp(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Selp;
    Type t = in.type = one_type(s, m);
    need_ops(s, 4);
    set_dsts(in, {dst(o[0], t)});
    set_srcs(in, {src(o[1], t), src(o[2], t), src(o[3], Type::Pred)});
  }

  void decode_cvt(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Cvt;
    if (m.types.size() != 2) fail(s.loc, "cvt needs a destination and a source type");
    in.type = m.types[0];
    in.type2 = m.types[1];
    in.rnd = parse_rnd(m);
    if (m.has("ftz")) in.mods |= kModFtz;
    if (m.has("sat")) in.mods |= kModSat;
    bool fi = type_is_float(in.type2) && !type_is_float(in.type);
    if (fi && in.rnd != Rnd::None && in.rnd != Rnd::RNI && in.rnd != Rnd::RZI && in.rnd != Rnd::RMI &&
        in.rnd != Rnd::RPI)
      fail(s.loc, "float-to-integer cvt needs an integer rounding mode (.rni, .rzi, .rmi, .rpi)");
    need_ops(s, 2);
    set_dsts(in, {dst(o[0], in.type, true)});
    set_srcs(in, {src(o[1], in.type2, true)});
  }

  void decode_cvta(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Cvta;
    if (m.has("to")) in.mods |= kModToSpace;
    in.space = parse_space_mod(m);
    if (in.space == Space::Generic) fail(s.loc, "cvta needs a state space");
    Type t = in.type = one_type(s, m);
    need_ops(s, 2);
    set_dsts(in, {dst(o[0], t)});
    set_srcs(in, {src(o[1], t)});
  }

  void decode_ld_st(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = m.root == "st" ? Op::St : Op::Ld;
    in.space = parse_space_mod(m);
    in.cache_global = m.has("cg");
    if (m.has("v2"))
      in.vec = 2;
    else if (m.has("v4"))
      in.vec = 4;
    Type t = in.type = one_type(s, m);
    need_ops(s, 2);
    const Operand& data = in.op == Op::Ld ? o[0] : o[1];
    const Operand& addr = in.op == Op::Ld ? o[1] : o[0];
    decode_address(addr, in, in.space);
    auto ev = elems(data);
    if (ev.size() != in.vec) fail(data.loc, "expected a " + std::to_string(in.vec) + "-element operand");
    for (size_t i = 0; i < ev.size(); ++i) {
      if (in.op == Op::Ld)
        in.d[i] = ev[i]->kind == Operand::Sink ? kNone : dst(*ev[i], t, true);
      else
        in.s[i] = src(*ev[i], t, true);
    }
    if (in.op == Op::Ld)
      in.ndst = in.vec;
    else
      in.nsrc = in.vec;
    // A strong load of memory other CTAs may write: what a spin-wait polls.
    if (in.op == Op::Ld && (in.space == Space::Global || in.space == Space::Generic) &&
        (m.has("volatile") || m.has("relaxed") || m.has("acquire")))
      in.mods |= kModPoll;
  }

  void decode_atom_red(const Instr& s, Inst& in, Mods& m) {
    const std::string& r = m.root;
    const auto& o = s.ops;
    in.op = r == "atom" ? Op::Atom : Op::Red;
    in.space = parse_space_mod(m);
    if (in.space != Space::Global && in.space != Space::Shared && in.space != Space::Generic)
      fail(s.loc, "atomics are supported on .global, .shared and generic addresses only");
    static const std::pair<const char*, AtomOp> kA[] = {
        {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},   {"dec", AtomOp::Dec},
        {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor}, {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas}};
    bool found = false;
    for (auto& [n, a] : kA)
      if (m.has(n)) {
        in.sub = uint8_t(a);
        found = true;
        break;
      }
    if (!found) fail(s.loc, "'" + r + "' needs an operation (.add, .min, .cas, ...)");
    m.has("noftz");
    Type t = in.type = one_type(s, m);
    if (type_bytes(t) != 4 && type_bytes(t) != 8) fail(s.loc, "atomics support 32- and 64-bit types only");
    AtomOp a = AtomOp(in.sub);
    if (type_is_float(t) && a != AtomOp::Add && a != AtomOp::Exch)
      fail(s.loc, "floating-point atomics support .add only");
    size_t base = in.op == Op::Atom ? 1 : 0;
    size_t nsrc = a == AtomOp::Cas ? 2 : 1;
    need_ops(s, base + 1 + nsrc);
    decode_address(o[base], in, in.space);
    if (in.op == Op::Atom) set_dsts(in, {dst(o[0], t)});
    if (nsrc == 1)
      set_srcs(in, {src(o[base + 1], t)});
    else
      set_srcs(in, {src(o[base + 1], t), src(o[base + 2], t)});
  }

  void decode_bra(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Bra;
    if (m.has("uni")) in.mods |= kModUni;
    need_ops(s, 1);
    if (o[0].kind != Operand::Sym) fail(o[0].loc, "expected a branch target label");
    auto it = cur_->labels.find(o[0].name);
    if (it == cur_->labels.end()) fail(o[0].loc, "undefined label '" + o[0].name + "'");
    in.target = it->second;
  }

  void decode_call(const Instr& s, Inst& in, Mods& m) {
    in.op = Op::Call;
    m.has("uni");
    CallShape c = call_shape(s);
    const Operand* rets = c.rets;
    const Operand* args = c.args;
    const Operand& callee = *c.callee;
    size_t nr = rets ? rets->elems.size() : 0, na = args ? args->elems.size() : 0;
    auto frame_sym = [&](const Operand& a) {
      if (a.kind != Operand::Sym) fail(a.loc, "call arguments must be .param variables");
      Entity e = symbol(a);
      if (!e.frame_param) fail(a.loc, "'" + a.name + "' is not a .param variable of this function");
      return e;
    };
    // The copies of a call to function `fidx`: arguments into its parameters, its return
    // values back.
    auto call_info = [&](uint32_t fidx) {
      FuncCtx& cf = funcs_[fidx];
      const Function& f = *cf.fn;
      CallInfo ci;
      for (size_t i = 0; i < na; ++i) {
        Entity e = frame_sym(args->elems[i]);
        const Entity& p = cf.params.at(f.params[i].name);
        ci.args.push_back({uint32_t(e.addr), uint32_t(p.addr), uint32_t(std::min(e.size, p.size))});
      }
      for (size_t i = 0; i < nr; ++i) {
        Entity e = frame_sym(rets->elems[i]);
        const Entity& p = cf.params.at(f.rets[i].name);
        ci.rets.push_back({uint32_t(p.addr), uint32_t(e.addr), uint32_t(std::min(e.size, p.size))});
      }
      prog_->calls.push_back(std::move(ci));
      return uint32_t(prog_->calls.size() - 1);
    };
    if (c.indirect()) {
      // call (rets), %rd, (args), prototype: the target is the function whose address the
      // register holds, lane by lane (executor).
      const Operand& pr = *c.proto;
      const Entity* pe = lookup(pr.name);
      if (!pe || pe->kind != Entity::Proto) {
        if (globals_.count(pr.name) || cur_->labels.count(pr.name))
          fail(pr.loc, "indirect calls with a list of call targets ('" + pr.name +
                           "') are not supported; expected a .callprototype label");
        fail(pr.loc, "undefined call prototype '" + pr.name + "'");
      }
      const Function& proto = *protos_[pe->index];
      if (nr != proto.rets.size() || na != proto.params.size())
        fail(s.loc, "call passes " + count(na, "argument") + " and " + count(nr, "return value") + ", prototype '" +
                        pr.name + "' declares " + count(proto.params.size(), "parameter") + " and " +
                        count(proto.rets.size(), "return value"));
      for (size_t i = 0; i < na; ++i) frame_sym(args->elems[i]);
      for (size_t i = 0; i < nr; ++i) frame_sym(rets->elems[i]);
      in.s[0] = reg(callee, Type::B64);
      in.nsrc = 1;
      IndirectCall ic;
      ic.nargs = uint32_t(na);
      ic.nrets = uint32_t(nr);
      ic.call_of.assign(funcs_.size(), kNone);
      for (const auto& t : prog_->targets) {
        if (t.func == kNone) continue;
        const Function& f = *funcs_[t.func].fn;
        if (f.params.size() == na && f.rets.size() == nr) ic.call_of[t.func] = call_info(t.func);
      }
      in.call_index = uint32_t(prog_->indirect.size());
      prog_->indirect.push_back(std::move(ic));
      return;
    }
    if (!func_index_.count(callee.name)) {
      // vprintf / __assertfail / malloc / free: the executor reads the arguments from the
      // caller's frame.
      const Function* f = m_.find_function(callee.name);
      auto which = f ? builtin(f->name) : std::nullopt;
      if (!which) fail(callee.loc, "call to undeclared function '" + callee.name + "'");
      if (nr != f->rets.size() || na != f->params.size())
        fail(callee.loc, "call to '" + f->name + "' does not match its declaration");
      in.op = Op::Builtin;
      in.sub = uint8_t(*which);
      cls_ = &kBuiltinClass;  // runs in the runtime: one ALU instruction for the timing model
      CallInfo ci;
      for (size_t i = 0; i < na; ++i) {
        Entity e = frame_sym(args->elems[i]);
        ci.args.push_back({uint32_t(e.addr), 0, uint32_t(e.size)});
      }
      for (size_t i = 0; i < nr; ++i) {
        Entity e = frame_sym(rets->elems[i]);
        ci.rets.push_back({0, uint32_t(e.addr), uint32_t(e.size)});
      }
      in.call_index = uint32_t(prog_->calls.size());
      prog_->calls.push_back(std::move(ci));
      return;
    }
    uint32_t fidx = func_index_.at(callee.name);
    const Function& f = *funcs_[fidx].fn;
    if (nr != f.rets.size())
      fail(callee.loc, "call to '" + f.name + "' passes " + std::to_string(nr) + " return values, function declares " +
                           std::to_string(f.rets.size()));
    if (na != f.params.size())
      fail(callee.loc, "call to '" + f.name + "' passes " + std::to_string(na) + " arguments, function declares " +
                           std::to_string(f.params.size()));
    in.call_index = call_info(fidx);
    in.target = prog_->funcs[fidx].first;
  }

  void decode_ret_exit(const Instr& s, Inst& in, Mods& m) {
    in.op = m.root == "ret" ? Op::Ret : Op::Exit;
    m.has("uni");
    need_ops(s, 0);
    in.target = prog_->funcs[cur_->index].exit;
  }

  void decode_trap(const Instr& s, Inst& in, Mods&) {
    in.op = Op::Trap;
    need_ops(s, 0);
  }

  void decode_bar(const Instr& s, Inst& in, Mods& m) {
    in.op = Op::Bar;
    if (m.has("red")) return decode_bar_red(s, in, m);
    const auto& o = s.ops;
    if (m.has("arrive"))
      in.mods |= kModArrive;
    else
      m.has("sync");
    if (o.empty() || o.size() > 2) fail(s.loc, "'" + s.opcode + "' expects a barrier id and an optional thread count");
    barrier_id(o[0], in);
    if (o.size() == 2) {
      in.mods |= kModHasCount;
      set_srcs(in, {src(o[1], Type::U32)});
    }
    if ((in.mods & kModArrive) && o.size() != 2) fail(s.loc, "bar.arrive needs a thread count");
  }

  void barrier_id(const Operand& o, Inst& in) {
    if (o.kind != Operand::Int) fail(o.loc, "barrier ids must be immediates");
    if (o.ival < 0 || o.ival > 15) fail(o.loc, "barrier id must be 0..15");
    in.sub = uint8_t(o.ival);
  }

  // bar.red.popc.u32 d, a{, b}, {!}c; bar.red.{and,or}.pred p, a{, b}, {!}c: a barrier that
  // also reduces predicate c over the threads that arrive (__syncthreads_count/_and/_or).
  // Sources: s[0] the thread count (kModHasCount), s[1] the predicate (negated: kModNegSrc0).
  void decode_bar_red(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.mods |= kModRed;
    if (m.has("popc"))
      in.boolop = BoolOp::None;
    else if (m.has("and"))
      in.boolop = BoolOp::And;
    else if (m.has("or"))
      in.boolop = BoolOp::Or;
    else
      fail(s.loc, "bar.red needs an operation (.popc, .and, .or)");
    in.type = one_type(s, m);
    bool popc = in.boolop == BoolOp::None;
    if (in.type != (popc ? Type::U32 : Type::Pred))
      fail(s.loc, popc ? "bar.red.popc needs .u32" : "bar.red.and/.or need .pred");
    if (o.size() != 3 && o.size() != 4)
      fail(s.loc, "'" + s.opcode + "' expects a destination, a barrier id, an optional thread count and a predicate");
    set_dsts(in, {dst(o[0], in.type)});
    barrier_id(o[1], in);
    uint32_t count = kNone;
    if (o.size() == 4) {
      in.mods |= kModHasCount;
      count = src(o[2], Type::U32);
    }
    Operand c = o.back();
    if (c.neg) in.mods |= kModNegSrc0;
    c.neg = false;
    set_srcs(in, {count, src(c, Type::Pred)});
  }

  void decode_bar_warp(const Instr& s, Inst& in, Mods& m) {
    in.op = Op::BarWarp;
    m.has("warp");
    if (!m.has("sync")) fail(s.loc, "expected bar.warp.sync");
    need_ops(s, 1);
    set_srcs(in, {src(s.ops[0], Type::B32)});
  }

  void decode_membar(const Instr& s, Inst& in, Mods& m) {
    in.op = Op::Membar;
    for (const char* scope : {"gl", "cta", "sys", "gpu", "sc", "acq_rel"}) m.has(scope);
    need_ops(s, 0);
  }

  void decode_shfl(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Shfl;
    if (!m.has("sync")) fail(s.loc, "only shfl.sync is supported");
    static const std::pair<const char*, ShflMode> kS[] = {
        {"up", ShflMode::Up}, {"down", ShflMode::Down}, {"bfly", ShflMode::Bfly}, {"idx", ShflMode::Idx}};
    bool found = false;
    for (auto& [n, md] : kS)
      if (m.has(n)) {
        in.sub = uint8_t(md);
        found = true;
      }
    if (!found) fail(s.loc, "shfl needs a mode (.up, .down, .bfly, .idx)");
    in.type = one_type(s, m);
    if (type_bytes(in.type) != 4) fail(s.loc, "shfl supports .b32 only");
    need_ops(s, 5);
    in.d[0] = dst(o[0], Type::B32);
    in.ndst = 1;
    if (!o[0].name2.empty()) {
      Operand q = o[0];
      q.name = q.name2;
      in.d[1] = dst(q, Type::Pred);
      in.ndst = 2;
    }
    set_srcs(in, {src(o[1], Type::B32), src(o[2], Type::U32), src(o[3], Type::U32), src(o[4], Type::B32)});
  }

  // match.any.sync.type d, a, membermask; match.all.sync.type d[|p], a, membermask
  void decode_match(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Match;
    if (!m.has("sync")) fail(s.loc, "match needs .sync");
    if (m.has("any"))
      in.sub = 0;
    else if (m.has("all"))
      in.sub = 1;
    else
      fail(s.loc, "match needs a mode (.any, .all)");
    in.type = one_type(s, m);
    if (in.type != Type::B32 && in.type != Type::B64) fail(s.loc, "match takes .b32 or .b64");
    need_ops(s, 3);
    in.d[0] = dst(o[0], Type::B32);
    in.ndst = 1;
    if (!o[0].name2.empty()) {
      if (in.sub == 0) fail(s.loc, "match.any has no predicate destination");
      Operand q = o[0];
      q.name = q.name2;
      in.d[1] = dst(q, Type::Pred);
      in.ndst = 2;
    }
    set_srcs(in, {src(o[1], in.type), src(o[2], Type::B32)});
  }

  void decode_vote(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Vote;
    if (!m.has("sync")) fail(s.loc, "only vote.sync is supported");
    if (m.has("all"))
      in.sub = uint8_t(VoteMode::All);
    else if (m.has("any"))
      in.sub = uint8_t(VoteMode::Any);
    else if (m.has("uni"))
      in.sub = uint8_t(VoteMode::Uni);
    else if (m.has("ballot"))
      in.sub = uint8_t(VoteMode::Ballot);
    else
      fail(s.loc, "vote needs a mode (.all, .any, .uni, .ballot)");
    in.type = one_type(s, m);
    bool ballot = VoteMode(in.sub) == VoteMode::Ballot;
    if (ballot != (in.type == Type::B32)) fail(s.loc, ballot ? "vote.ballot needs .b32" : "vote needs .pred");
    need_ops(s, 3);
    set_dsts(in, {dst(o[0], ballot ? Type::B32 : Type::Pred)});
    if (o[1].neg) in.mods |= kModNegSrc0;
    Operand p = o[1];
    p.neg = false;
    set_srcs(in, {src(p, Type::Pred), src(o[2], Type::B32)});
  }

  void decode_activemask(const Instr& s, Inst& in, Mods& m) {
    in.op = Op::Activemask;
    in.type = one_type(s, m);
    need_ops(s, 1);
    set_dsts(in, {dst(s.ops[0], Type::B32)});
  }

  // tex.{1d,2d,3d,a1d,a2d,cube,acube}.v4.dtype.ctype d, [tex, {coordinates}]: the layer of
  // .a1d/.a2d/.acube comes first (an integer), then the coordinates; .3d, .a2d and .cube take
  // a 4-element vector whose unused last element is ignored.
  // tld4.{r,g,b,a}.{2d,a2d}.v4.dtype.f32 d, [tex, {coordinates}]: the same operands; the
  // component gathered is Inst::gather_comp (cubemap gathers are not supported).
  void decode_tex(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    const bool gather = m.root == "tld4";
    const std::string name = gather ? "tld4" : "tex";
    in.op = gather ? Op::Tld4 : Op::Tex;
    if (gather) {
      static const char* kComps[] = {"r", "g", "b", "a"};
      int found = 0;
      for (int c = 0; c < 4; ++c)
        if (m.has(kComps[c])) in.gather_comp = uint8_t(c), ++found;
      if (found != 1) fail(s.loc, "tld4 needs one component (.r, .g, .b or .a)");
    }
    static const std::pair<const char*, TexGeom> kGeoms[] = {
        {"1d", TexGeom::D1},   {"2d", TexGeom::D2},     {"3d", TexGeom::D3},      {"a1d", TexGeom::A1D},
        {"a2d", TexGeom::A2D}, {"cube", TexGeom::Cube}, {"acube", TexGeom::ACube}};
    for (auto& [n, g] : kGeoms)
      if (m.has(n)) in.sub = uint8_t(g);
    if (in.sub == 0)
      fail(s.loc, gather ? "tld4 needs a geometry (.2d or .a2d)"
                         : "tex needs a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube; 2D multisample is not "
                           "supported)");
    const TexGeom g = TexGeom(in.sub);
    if (gather && g != TexGeom::D2 && g != TexGeom::A2D) {
      if (g == TexGeom::Cube || g == TexGeom::ACube)
        fail(s.loc, "tld4." + std::string(tex_geom_name(g)) + " (cubemap gather) is not supported; use .2d or .a2d");
      fail(s.loc,
           "tld4 is defined for .2d, .a2d, .cube and .acube textures only, not ." + std::string(tex_geom_name(g)));
    }
    if (!m.has("v4")) fail(s.loc, name + " needs .v4");
    in.vec = 4;
    if (m.types.size() != 2) fail(s.loc, name + " needs a destination and a coordinate type");
    in.type = m.types[0];
    in.type2 = m.types[1];
    if (in.type != Type::F32 && in.type != Type::S32 && in.type != Type::U32)
      fail(s.loc, name + " destination type must be .f32, .s32 or .u32");
    if (gather && in.type2 != Type::F32) fail(s.loc, "tld4 coordinate type must be .f32");
    if (in.type2 != Type::F32 && in.type2 != Type::S32) fail(s.loc, "tex coordinate type must be .f32 or .s32");
    if ((g == TexGeom::Cube || g == TexGeom::ACube) && in.type2 != Type::F32)
      fail(s.loc, "cubemap textures take .f32 coordinates");
    need_ops(s, 2);
    if (o[0].kind != Operand::Vec || o[0].elems.size() != 4) fail(o[0].loc, name + " needs a 4-element destination");
    for (int i = 0; i < 4; ++i)
      in.d[i] = o[0].elems[size_t(i)].kind == Operand::Sink ? kNone : dst(o[0].elems[size_t(i)], in.type);
    in.ndst = 4;
    const Operand& a = o[1];
    if (a.kind != Operand::Addr || a.name.empty() || a.name[0] != '%' || a.elems.empty())
      fail(a.loc, "expected [texture-object register, {coordinates}] (texture references are not supported)");
    if (!a.name2.empty()) fail(a.loc, "separate samplers are not supported");
    Operand t = a;
    t.kind = Operand::Reg;
    in.addr_reg = reg(t, Type::B64);
    const bool layered = g == TexGeom::A1D || g == TexGeom::A2D || g == TexGeom::ACube;
    const size_t dims = g == TexGeom::D1 || g == TexGeom::A1D ? 1 : g == TexGeom::D2 || g == TexGeom::A2D ? 2 : 3;
    const size_t need = dims + (layered ? 1 : 0);
    if (a.elems.size() < need)
      fail(a.loc, name + "." + std::string(tex_geom_name(g)) + " needs " + std::to_string(need) + " coordinates");
    for (size_t i = 0; i < need; ++i)
      in.s[i] = src(a.elems[i], layered && i == 0 ? Type::B32 : in.type2, layered && i == 0);
    in.nsrc = uint8_t(need);
  }

  static const char* tex_geom_name(TexGeom g) {
    static const char* kNames[] = {"?", "1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};
    return kNames[size_t(g)];
  }

  // The surface object and coordinates of suld/sust: [surf, {x, y, z}] with x in bytes; a
  // layer first for .a1d/.a2d; .3d and .a2d take a 4-element vector (the last is ignored).
  void surface_operand(const Operand& a, Inst& in) {
    if (a.kind != Operand::Addr || a.name.empty() || a.name[0] != '%' || a.elems.empty())
      fail(a.loc, "expected [surface-object register, {coordinates}] (surface references are not supported)");
    if (!a.name2.empty()) fail(a.loc, "unexpected second name in a surface operand");
    Operand t = a;
    t.kind = Operand::Reg;
    t.elems.clear();
    in.addr_reg = reg(t, Type::B64);
    const SurfGeom g = SurfGeom(in.sub);
    const size_t need = g == SurfGeom::D1 ? 1 : g == SurfGeom::D2 || g == SurfGeom::A1D ? 2 : 3;
    if (a.elems.size() < need) fail(a.loc, "surface access needs " + std::to_string(need) + " coordinates");
    for (size_t i = 0; i < need; ++i) in.coord[i] = src(a.elems[i], Type::B32, true);
  }

  // suld.b.geom{.v2,.v4}.{b8,b16,b32,b64}{.trap,.clamp,.zero} d, [surf, {coords}]
  // sust.b.geom{.v2,.v4}.{b8,b16,b32,b64}{.trap,.clamp,.zero} [surf, {coords}], data
  void decode_surface(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    const bool store = m.root == "sust";
    in.op = store ? Op::Sust : Op::Suld;
    if (m.has("p")) fail(s.loc, std::string(m.root) + ".p (formatted surface access) is not supported; use .b");
    if (!m.has("b")) fail(s.loc, std::string(m.root) + " needs .b");
    static const std::pair<const char*, SurfGeom> kGeoms[] = {{"1d", SurfGeom::D1},
                                                              {"2d", SurfGeom::D2},
                                                              {"3d", SurfGeom::D3},
                                                              {"a1d", SurfGeom::A1D},
                                                              {"a2d", SurfGeom::A2D}};
    for (auto& [n, g] : kGeoms)
      if (m.has(n)) in.sub = uint8_t(g);
    if (in.sub == 0) fail(s.loc, std::string(m.root) + " needs a geometry (.1d, .2d, .3d, .a1d, .a2d)");
    if (m.has("v2"))
      in.vec = 2;
    else if (m.has("v4"))
      in.vec = 4;
    if (m.has("clamp"))
      in.clamp = SurfClamp::Clamp;
    else if (m.has("zero"))
      in.clamp = SurfClamp::Zero;
    else
      m.has("trap");  // the default
    Type t = in.type = one_type(s, m);
    if (t != Type::B8 && t != Type::B16 && t != Type::B32 && t != Type::B64)
      fail(s.loc, std::string(m.root) + ".b needs .b8, .b16, .b32 or .b64");
    if (t == Type::B64 && in.vec == 4) fail(s.loc, ".v4.b64 is not a valid surface access");
    need_ops(s, 2);
    const Operand& data = store ? o[1] : o[0];
    surface_operand(store ? o[0] : o[1], in);
    auto ev = elems(data);
    if (ev.size() != in.vec) fail(data.loc, "expected a " + std::to_string(in.vec) + "-element operand");
    for (size_t i = 0; i < ev.size(); ++i) {
      if (store)
        in.s[i] = src(*ev[i], t, true);
      else
        in.d[i] = ev[i]->kind == Operand::Sink ? kNone : dst(*ev[i], t, true);
    }
    if (store)
      in.nsrc = in.vec;
    else
      in.ndst = in.vec;
    in.space = Space::Global;  // the array's memory, accessed as global memory (docs/ptx.md)
  }

  // suq.{width,height,depth,array_size,channel_data_type,channel_order}.b32 d, [surf]
  void decode_suq(const Instr& s, Inst& in, Mods& m) {
    in.op = Op::Suq;
    static const std::pair<const char*, SurfQuery> kQ[] = {{"width", SurfQuery::Width},
                                                           {"height", SurfQuery::Height},
                                                           {"depth", SurfQuery::Depth},
                                                           {"array_size", SurfQuery::ArraySize},
                                                           {"channel_data_type", SurfQuery::ChannelDataType},
                                                           {"channel_order", SurfQuery::ChannelOrder}};
    bool found = false;
    for (auto& [n, q] : kQ)
      if (m.has(n)) {
        in.sub = uint8_t(q);
        found = true;
      }
    if (!found)
      fail(s.loc, "suq supports .width, .height, .depth, .array_size, .channel_data_type and .channel_order ('" +
                      s.opcode + "')");
    object_query_operands(s, in, m, "surface");
  }

  // txq.tquery.b32 d, [tex]: an attribute of a texture object. Mipmap level queries
  // (txq.level) and separate samplers are not supported.
  void decode_txq(const Instr& s, Inst& in, Mods& m) {
    in.op = Op::Txq;
    if (m.has("level")) fail(s.loc, "txq.level (a mipmap level's size) is not supported: textures have no mipmaps");
    static const std::pair<const char*, TexQuery> kQ[] = {{"width", TexQuery::Width},
                                                          {"height", TexQuery::Height},
                                                          {"depth", TexQuery::Depth},
                                                          {"channel_data_type", TexQuery::ChannelDataType},
                                                          {"channel_order", TexQuery::ChannelOrder},
                                                          {"normalized_coords", TexQuery::NormalizedCoords},
                                                          {"filter_mode", TexQuery::FilterMode},
                                                          {"addr_mode_0", TexQuery::AddrMode0},
                                                          {"addr_mode_1", TexQuery::AddrMode1},
                                                          {"addr_mode_2", TexQuery::AddrMode2},
                                                          {"array_size", TexQuery::ArraySize},
                                                          {"num_mipmap_levels", TexQuery::NumMipmapLevels},
                                                          {"num_samples", TexQuery::NumSamples}};
    int found = 0;
    for (auto& [n, q] : kQ)
      if (m.has(n)) in.sub = uint8_t(q), ++found;
    if (found != 1)
      fail(s.loc,
           "txq needs one query (.width, .height, .depth, .channel_data_type, .channel_order, "
           ".normalized_coords, .filter_mode, .addr_mode_0/1/2, .array_size, .num_mipmap_levels, "
           ".num_samples; sampler-only .force_unnormalized_coords is not supported) ('" +
               s.opcode + "')");
    object_query_operands(s, in, m, "texture");
  }

  // The operands of suq and txq: d (.b32), [object register].
  void object_query_operands(const Instr& s, Inst& in, Mods& m, const std::string& object) {
    const auto& o = s.ops;
    in.type = one_type(s, m);
    if (in.type != Type::B32) fail(s.loc, std::string(m.root) + " needs .b32");
    need_ops(s, 2);
    set_dsts(in, {dst(o[0], Type::B32)});
    const Operand& a = o[1];
    if (a.kind != Operand::Addr || a.name.empty() || a.name[0] != '%' || !a.elems.empty() || a.ival != 0)
      fail(a.loc, "expected [" + object + "-object register] (" + object + " references are not supported)");
    Operand r = a;
    r.kind = Operand::Reg;
    in.addr_reg = reg(r, Type::B64);
  }

  // vadd4/vsub4/vavrg4/vabsdiff4/vmin4/vmax4 and their 2-lane forms:
  // vop.dtype.atype.btype{.sat|.add} d, a, b, c, with the default byte/halfword selections
  // and mask (operand selectors such as a.b3210 are not supported).
  void decode_video(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Video;
    const std::string& r = m.root;
    const char lanes = r.back();
    in.vec = lanes == '4' ? 4 : 2;
    static const std::pair<const char*, VideoOp> kOps[] = {{"vadd", VideoOp::Add},   {"vsub", VideoOp::Sub},
                                                           {"vavrg", VideoOp::Avrg}, {"vabsdiff", VideoOp::Absdiff},
                                                           {"vmin", VideoOp::Min},   {"vmax", VideoOp::Max}};
    bool found = false;
    for (auto& [n, v] : kOps)
      if (r == std::string(n) + lanes) {
        in.sub = uint8_t(v);
        found = true;
      }
    if (!found) fail(s.loc, "unknown video instruction '" + s.opcode + "'");
    if (m.types.size() != 3) fail(s.loc, r + " needs three types (.dtype.atype.btype)");
    for (Type t : m.types)
      if (t != Type::U32 && t != Type::S32) fail(s.loc, r + " types must be .u32 or .s32");
    in.type = m.types[0];
    in.type2 = m.types[1];
    int64_t bits = 0;
    if (m.types[0] == Type::S32) bits |= kVideoDSigned;
    if (m.types[1] == Type::S32) bits |= kVideoASigned;
    if (m.types[2] == Type::S32) bits |= kVideoBSigned;
    if (m.has("add")) bits |= kVideoAccumulate;
    if (m.has("sat")) {
      if (bits & kVideoAccumulate) fail(s.loc, r + ": .sat cannot be used with .add");
      in.mods |= kModSat;
    }
    in.offset = bits;
    need_ops(s, 4);
    set_dsts(in, {dst(o[0], Type::B32)});
    set_srcs(in, {src(o[1], Type::B32), src(o[2], Type::B32), src(o[3], Type::B32)});
  }

  // lop3.b32 d, a, b, c, immLut
  void decode_lop3(const Instr& s, Inst& in, Mods& m) {
    const auto& o = s.ops;
    in.op = Op::Lop3;
    in.type = one_type(s, m);
    if (in.type != Type::B32) fail(s.loc, "lop3 needs .b32");
    need_ops(s, 5);
    if (o[4].kind != Operand::Int || o[4].ival < 0 || o[4].ival > 255)
      fail(o[4].loc, "lop3 needs an immediate look-up table from 0 to 255");
    in.sub = uint8_t(o[4].ival);
    set_dsts(in, {dst(o[0], Type::B32)});
    set_srcs(in, {src(o[1], Type::B32), src(o[2], Type::B32), src(o[3], Type::B32)});
  }

  // nanosleep, pmevent: no effect on the simulated program.
  void decode_nop(const Instr&, Inst& in, Mods&) { in.op = Op::Nop; }

  // wmma.load.{a,b,c} / wmma.store.d / wmma.mma (ir.h, WmmaInfo): the shape, the layouts and
  // the types from the modifiers, each fragment's register list checked against its shape.
  void decode_wmma(const Instr& s, Inst& in, Mods& m) {
    in.op = Op::Wmma;
    WmmaInfo w;
    for (size_t i = 0; i < m.words.size(); ++i) {
      unsigned mm = 0, nn = 0, kk = 0;
      char tail = 0;
      if (std::sscanf(m.words[i].c_str(), "m%un%uk%u%c", &mm, &nn, &kk, &tail) == 3) {
        w.m = mm, w.n = nn, w.k = kk;
        m.used[i] = 1;
      }
    }
    const bool shape_ok = w.k == 16 && ((w.m == 16 && w.n == 16) || (w.m == 32 && w.n == 8) || (w.m == 8 && w.n == 32));
    if (!shape_ok) fail(s.loc, "'" + s.opcode + "': supported shapes are .m16n16k16, .m32n8k16 and .m8n32k16");
    auto fragment = [&](const Operand& o, WmmaOp kind, Type t, bool write) {
      WmmaFragment f;
      f.type = t;
      f.rows = kind == WmmaOp::LoadB ? w.k : w.m;
      f.cols = kind == WmmaOp::LoadA ? w.k : w.n;
      if (o.kind != Operand::Vec) fail(o.loc, "'" + s.opcode + "': a fragment is a register list '{...}'");
      const uint32_t want = wmma_fragment_regs(kind, f);
      if (o.elems.size() != want)
        fail(o.loc, "'" + s.opcode + "': the fragment takes " + std::to_string(want) + " registers, found " +
                        std::to_string(o.elems.size()));
      const Type rt = t == Type::F32 ? Type::F32 : t == Type::S32 ? Type::S32 : Type::B32;
      for (const auto& e : o.elems) f.regs.push_back(write ? dst(e, rt, true) : src(e, rt, true));
      return f;
    };
    auto need_type = [&](Type t, std::initializer_list<Type> ok, const char* what) {
      for (Type x : ok)
        if (x == t) return;
      fail(s.loc, "'" + s.opcode + "': unsupported " + what + " type");
    };
    if (m.has("mma")) {
      in.sub = uint8_t(WmmaOp::Mma);
      need_ops(s, 4);
      for (size_t i = 0; i < m.words.size(); ++i)  // the layouts of A and B do not change the fragments
        if (m.words[i] == "row" || m.words[i] == "col") m.used[i] = 1;
      w.satfinite = m.has("satfinite");
      Type ta = Type::F16, tb = Type::F16, tc, td;
      if (m.types.size() == 2) {
        td = m.types[0], tc = m.types[1];
        need_type(td, {Type::F16, Type::F32}, "accumulator");
        need_type(tc, {Type::F16, Type::F32}, "accumulator");
      } else if (m.types.size() == 4) {
        td = m.types[0], ta = m.types[1], tb = m.types[2], tc = m.types[3];
        need_type(td, {Type::S32}, "accumulator");
        need_type(tc, {Type::S32}, "accumulator");
        need_type(ta, {Type::S8, Type::U8}, "multiplicand");
        need_type(tb, {Type::S8, Type::U8}, "multiplicand");
      } else {
        fail(s.loc, "'" + s.opcode + "': expected .dtype.ctype (f16/f32) or .s32.atype.btype.s32");
      }
      w.a = fragment(s.ops[1], WmmaOp::LoadA, ta, false);
      w.b = fragment(s.ops[2], WmmaOp::LoadB, tb, false);
      w.c = fragment(s.ops[3], WmmaOp::LoadC, tc, false);
      w.d = fragment(s.ops[0], WmmaOp::StoreD, td, true);
      set_srcs(in, {w.a.regs.front(), w.b.regs.front(), w.c.regs.front(), w.c.regs.back()});
      set_dsts(in, {w.d.regs.front(), w.d.regs.back()});
    } else {
      const bool load = m.has("load");
      if (!load && !m.has("store")) fail(s.loc, "'" + s.opcode + "': expected wmma.load, wmma.store or wmma.mma");
      WmmaOp kind = WmmaOp::StoreD;
      if (load)
        kind = m.has("a") ? WmmaOp::LoadA : m.has("b") ? WmmaOp::LoadB : m.has("c") ? WmmaOp::LoadC : WmmaOp::Mma;
      else if (!m.has("d"))
        kind = WmmaOp::Mma;
      if (kind == WmmaOp::Mma) fail(s.loc, "'" + s.opcode + "': expected the fragment (.a, .b, .c; .d for a store)");
      in.sub = uint8_t(kind);
      w.col_major = m.has("col");
      if (!w.col_major && !m.has("row")) fail(s.loc, "'" + s.opcode + "': expected the layout .row or .col");
      in.space = parse_space_mod(m);
      if (in.space != Space::Global && in.space != Space::Shared && in.space != Space::Generic)
        fail(s.loc, "'" + s.opcode + "': only .global, .shared and generic addresses are supported");
      Type t = in.type = one_type(s, m);
      if (kind == WmmaOp::LoadA || kind == WmmaOp::LoadB)
        need_type(t, {Type::F16, Type::S8, Type::U8}, "element");
      else
        need_type(t, {Type::F16, Type::F32, Type::S32}, "element");
      if (s.ops.size() != 2 && s.ops.size() != 3)
        fail(s.loc, "'" + s.opcode + "' expects 2 or 3 operands, found " + std::to_string(s.ops.size()));
      const Operand& frag = load ? s.ops[0] : s.ops[1];
      decode_address(load ? s.ops[1] : s.ops[0], in, in.space);
      w.frag = fragment(frag, kind, t, load);
      if (s.ops.size() == 3) w.stride_reg = src(s.ops[2], Type::U32, true);
      if (load)
        set_dsts(in, {w.frag.regs.front(), w.frag.regs.back()});
      else
        set_srcs(in, {w.frag.regs.front(), w.frag.regs.back()});
      if (w.stride_reg != kNone) in.s[in.nsrc++] = w.stride_reg;
    }
    in.wmma = uint32_t(prog_->wmma.size());
    prog_->wmma.push_back(std::move(w));
  }

 private:
  // ------------------------------------------------------------------ trace templates
  void make_template(Inst& in, uint32_t idx) {
    WarpInst& w = in.tmpl;
    w.pc = idx * 8;
    auto trace_reg = [&](uint32_t r) -> RegId {
      if (r == kNone || r >= 0xffff || fixed_[r]) return kNoReg;
      return RegId(r);
    };
    int nd = 0;
    for (int i = 0; i < 4 && nd < kMaxDst; ++i)
      if (in.d[i] != kNone) {
        RegId id = trace_reg(in.d[i]);
        if (id != kNoReg && id != sink_reg_) w.dst[nd++] = id;
      }
    int ns = 0;
    auto add_src = [&](uint32_t r) {
      RegId id = trace_reg(r);
      if (id == kNoReg || ns >= kMaxSrc) return;
      for (int k = 0; k < ns; ++k)
        if (w.src[k] == id) return;
      w.src[ns++] = id;
    };
    add_src(in.addr_reg);
    for (int i = 0; i < 3; ++i) add_src(in.coord[i]);
    for (int i = 0; i < 4; ++i) add_src(in.s[i]);
    add_src(in.guard);
    // The unit, operation class and latency class were set when the instruction was decoded
    // (its row of kInstructions, apply_class); what follows depends on the decoded operands.
    switch (in.op) {
      case Op::Ld:
      case Op::St:
      case Op::Atom:
      case Op::Red:
      case Op::Tex:
      case Op::Tld4: {
        switch (in.space) {
          case Space::Global:
            w.space = MemSpace::Global;
            break;
          case Space::Shared:
            w.space = MemSpace::Shared;
            break;
          case Space::Local:
            w.space = MemSpace::Local;
            break;
          case Space::Const:
            w.space = MemSpace::Const;
            break;
          case Space::Param:
            w.space = MemSpace::Param;
            if (in.param_frame) w.flags |= kFlagCallParam;
            break;
          default:
            w.space = MemSpace::Global;
            break;  // generic: refined per execution
        }
        if (in.op == Op::Tex || in.op == Op::Tld4) w.space = MemSpace::Tex;
        if (in.cache_global) w.flags |= kFlagCacheGlobal;
        w.width = uint8_t(std::min(255, type_bytes(in.type) * in.vec));
        break;
      }
      case Op::Wmma: {
        if (WmmaOp(in.sub) == WmmaOp::Mma) break;
        // A fragment load or store: lane l accesses the l-th run of a tile's elements in memory
        // (as the hardware's 16-byte loads do); generic addresses are refined per execution.
        const WmmaFragment& f = prog_->wmma[in.wmma].frag;
        w.space = in.space == Space::Shared ? MemSpace::Shared : MemSpace::Global;
        w.width = uint8_t(f.per_lane() * wmma_element_bits(f.type) / 8);
        break;
      }
      case Op::Suld:
      case Op::Sust:
        w.space = MemSpace::Global;  // the array's memory (docs/ptx.md, "Surfaces")
        w.width = uint8_t(type_bytes(in.type) * in.vec);
        break;
      case Op::Bar:
        w.barrier_id = in.sub;
        if (in.mods & kModArrive) w.flags |= kFlagBarrierArrive;
        break;
      default:
        break;
    }
  }
};

// ------------------------------------------------------------------ the instruction table
// One row per PTX mnemonic: its decode function and its class, i.e. the unit that executes it,
// its operation class and its latency class (the SASS tables' row type, core/opcode_info.h),
// and whether its unit follows its type (ptx/instruction_class.h). A key may also be a mnemonic
// with its first modifier ("bar.warp"): that row wins over the mnemonic's own, as the longest
// key does in the SASS tables. The classes are GPGPU-Sim's classification of PTX
// (docs/timing-model.md, "Instruction classes"): f32 arithmetic on SP, f64 on DP, every other
// add/min/max/mul/mad (integer, f16) on INT with the integer tables; division and remainder on
// the SFU with the DIV latency of their type; transcendentals, rcp and sqrt on the SFU;
// everything else (moves, compares, selects, logic, shifts, conversions, bit manipulation,
// shuffles, votes) is a one-cycle operation of the INT pipeline. A unit the GPU lacks hands its
// work on (timing/sm.cc, Sm::route). Sorted by key (checked at compile time).
struct InstructionRow {
  std::string_view mnemonic;
  Decoder::DecodeFn decode;
  InstrClass cls;
};

constexpr InstructionRow row(std::string_view mnemonic, Decoder::DecodeFn decode, Unit unit, OpClass op, uint8_t lat,
                             UnitRule rule = UnitRule::Fixed) {
  return InstructionRow{mnemonic, decode, InstrClass{OpcodeInfo{unit, op, MemSpace::None, false, lat}, rule}};
}

using D = Decoder;
using UR = UnitRule;
// clang-format off
constexpr InstructionRow kInstructions[] = {
    //  key           decode function          unit          op class          latency      unit rule
    row("abs",        &D::decode_unary,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("activemask", &D::decode_activemask,   Unit::INT,    OpClass::ALU,     kLatAlu),
    row("add",        &D::decode_add_sub,      Unit::INT,    OpClass::ALU,     kLatDefault, UR::ByType),
    row("addc",       &D::decode_addc_subc,    Unit::INT,    OpClass::ALU,     kLatDefault, UR::ByType),
    row("and",        &D::decode_binary,       Unit::INT,    OpClass::ALU,     kLatAlu),
    row("atom",       &D::decode_atom_red,     Unit::MEM,    OpClass::ATOMIC,  kLatDefault),
    row("bar",        &D::decode_bar,          Unit::BRANCH, OpClass::BARRIER, kLatAlu),
    row("bar.warp",   &D::decode_bar_warp,     Unit::INT,    OpClass::NOP,     kLatAlu),
    row("barrier",    &D::decode_bar,          Unit::BRANCH, OpClass::BARRIER, kLatAlu),
    row("bfe",        &D::decode_bit_field,    Unit::INT,    OpClass::ALU,     kLatAlu),
    row("bfi",        &D::decode_bit_field,    Unit::INT,    OpClass::ALU,     kLatAlu),
    row("bfind",      &D::decode_bit_count,    Unit::INT,    OpClass::ALU,     kLatAlu),
    row("bmsk",       &D::decode_bmsk_szext,   Unit::INT,    OpClass::ALU,     kLatAlu),
    row("bra",        &D::decode_bra,          Unit::BRANCH, OpClass::BRANCH,  kLatAlu),
    row("brev",       &D::decode_unary,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("brkpt",      &D::decode_trap,         Unit::BRANCH, OpClass::EXIT,    kLatAlu),
    row("call",       &D::decode_call,         Unit::BRANCH, OpClass::BRANCH,  kLatAlu),
    row("clz",        &D::decode_bit_count,    Unit::INT,    OpClass::ALU,     kLatAlu),
    row("cnot",       &D::decode_unary,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("copysign",   &D::decode_binary,       Unit::INT,    OpClass::ALU,     kLatAlu),
    row("cos",        &D::decode_unary,        Unit::SFU,    OpClass::ALU,     kLatTrans),
    row("cvt",        &D::decode_cvt,          Unit::INT,    OpClass::ALU,     kLatAlu),
    row("cvta",       &D::decode_cvta,         Unit::INT,    OpClass::ALU,     kLatAlu),
    row("div",        &D::decode_div_rem,      Unit::SFU,    OpClass::ALU,     kLatDiv,     UR::TimedByType),
    row("ex2",        &D::decode_unary,        Unit::SFU,    OpClass::ALU,     kLatTrans),
    row("exit",       &D::decode_ret_exit,     Unit::BRANCH, OpClass::EXIT,    kLatAlu),
    row("fence",      &D::decode_membar,       Unit::MEM,    OpClass::MEMBAR,  kLatDefault),
    row("fma",        &D::decode_fma,          Unit::INT,    OpClass::ALU,     kLatMad,     UR::ByType),
    row("ld",         &D::decode_ld_st,        Unit::MEM,    OpClass::LOAD,    kLatDefault),
    row("ldu",        &D::decode_ld_st,        Unit::MEM,    OpClass::LOAD,    kLatDefault),
    row("lg2",        &D::decode_unary,        Unit::SFU,    OpClass::ALU,     kLatTrans),
    row("lop3",       &D::decode_lop3,         Unit::INT,    OpClass::ALU,     kLatAlu),
    row("mad",        &D::decode_mul_mad,      Unit::INT,    OpClass::ALU,     kLatMad,     UR::ByType),
    row("mad24",      &D::decode_mul24_mad24,  Unit::INT,    OpClass::ALU,     kLatMad),
    row("madc",       &D::decode_mul_mad,      Unit::INT,    OpClass::ALU,     kLatMad,     UR::ByType),
    row("match",      &D::decode_match,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("max",        &D::decode_binary,       Unit::INT,    OpClass::ALU,     kLatMax,     UR::ByType),
    row("membar",     &D::decode_membar,       Unit::MEM,    OpClass::MEMBAR,  kLatDefault),
    row("min",        &D::decode_binary,       Unit::INT,    OpClass::ALU,     kLatMax,     UR::ByType),
    row("mov",        &D::decode_mov,          Unit::INT,    OpClass::ALU,     kLatAlu),
    row("mul",        &D::decode_mul_mad,      Unit::INT,    OpClass::ALU,     kLatMul,     UR::ByType),
    row("mul24",      &D::decode_mul24_mad24,  Unit::INT,    OpClass::ALU,     kLatMul),
    row("nanosleep",  &D::decode_nop,          Unit::INT,    OpClass::NOP,     kLatAlu),
    row("neg",        &D::decode_unary,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("not",        &D::decode_unary,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("or",         &D::decode_binary,       Unit::INT,    OpClass::ALU,     kLatAlu),
    row("pmevent",    &D::decode_nop,          Unit::INT,    OpClass::NOP,     kLatAlu),
    row("popc",       &D::decode_bit_count,    Unit::INT,    OpClass::ALU,     kLatAlu),
    row("prmt",       &D::decode_prmt,         Unit::INT,    OpClass::ALU,     kLatAlu),
    row("rcp",        &D::decode_unary,        Unit::SFU,    OpClass::ALU,     kLatTrans),
    row("red",        &D::decode_atom_red,     Unit::MEM,    OpClass::ATOMIC,  kLatDefault),
    row("rem",        &D::decode_div_rem,      Unit::SFU,    OpClass::ALU,     kLatDiv,     UR::TimedByType),
    row("ret",        &D::decode_ret_exit,     Unit::BRANCH, OpClass::BRANCH,  kLatAlu),
    row("rsqrt",      &D::decode_unary,        Unit::SFU,    OpClass::ALU,     kLatTrans),
    row("sad",        &D::decode_sad,          Unit::INT,    OpClass::ALU,     kLatAlu),
    row("selp",       &D::decode_selp,         Unit::INT,    OpClass::ALU,     kLatAlu),
    row("set",        &D::decode_set,          Unit::INT,    OpClass::ALU,     kLatAlu),
    row("setp",       &D::decode_setp,         Unit::INT,    OpClass::ALU,     kLatAlu),
    row("shf",        &D::decode_shf,          Unit::INT,    OpClass::ALU,     kLatAlu),
    row("shfl",       &D::decode_shfl,         Unit::INT,    OpClass::ALU,     kLatShfl),
    row("shl",        &D::decode_shift,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("shr",        &D::decode_shift,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("sin",        &D::decode_unary,        Unit::SFU,    OpClass::ALU,     kLatTrans),
    row("sqrt",       &D::decode_unary,        Unit::SFU,    OpClass::ALU,     kLatTrans),
    row("st",         &D::decode_ld_st,        Unit::MEM,    OpClass::STORE,   kLatDefault),
    row("sub",        &D::decode_add_sub,      Unit::INT,    OpClass::ALU,     kLatDefault, UR::ByType),
    row("subc",       &D::decode_addc_subc,    Unit::INT,    OpClass::ALU,     kLatDefault, UR::ByType),
    row("suld",       &D::decode_surface,      Unit::MEM,    OpClass::LOAD,    kLatDefault),
    row("suq",        &D::decode_suq,          Unit::INT,    OpClass::ALU,     kLatAlu),
    row("sust",       &D::decode_surface,      Unit::MEM,    OpClass::STORE,   kLatDefault),
    row("szext",      &D::decode_bmsk_szext,   Unit::INT,    OpClass::ALU,     kLatAlu),
    row("tanh",       &D::decode_unary,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("testp",      &D::decode_testp,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("tex",        &D::decode_tex,          Unit::MEM,    OpClass::LOAD,    kLatDefault),
    row("tld4",       &D::decode_tex,          Unit::MEM,    OpClass::LOAD,    kLatDefault),
    row("trap",       &D::decode_trap,         Unit::BRANCH, OpClass::EXIT,    kLatAlu),
    row("txq",        &D::decode_txq,          Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vabsdiff2",  &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vabsdiff4",  &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vadd2",      &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vadd4",      &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vavrg2",     &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vavrg4",     &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vmax2",      &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vmax4",      &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vmin2",      &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vmin4",      &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vote",       &D::decode_vote,         Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vsub2",      &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("vsub4",      &D::decode_video,        Unit::INT,    OpClass::ALU,     kLatAlu),
    row("wmma.load",  &D::decode_wmma,         Unit::MEM,    OpClass::LOAD,    kLatDefault),
    row("wmma.mma",   &D::decode_wmma,         Unit::SP,     OpClass::ALU,     kLatMma),
    row("wmma.store", &D::decode_wmma,         Unit::MEM,    OpClass::STORE,   kLatDefault),
    row("xor",        &D::decode_binary,       Unit::INT,    OpClass::ALU,     kLatAlu),
};
// clang-format on

constexpr bool sorted_and_unique(const InstructionRow* rows, size_t n) {
  for (size_t i = 1; i < n; ++i)
    if (!(rows[i - 1].mnemonic < rows[i].mnemonic)) return false;
  return true;
}
static_assert(sorted_and_unique(kInstructions, std::size(kInstructions)),
              "kInstructions must be sorted by key, without duplicates");

const InstructionRow* find_instruction(std::string_view key) {
  auto it = std::lower_bound(std::begin(kInstructions), std::end(kInstructions), key,
                             [](const InstructionRow& r, std::string_view k) { return r.mnemonic < k; });
  return it != std::end(kInstructions) && it->mnemonic == key ? it : nullptr;
}

// The class of a function's exit pseudo-instruction (Op::FuncExit): that of exit.
const InstrClass& function_exit_class() { return find_instruction("exit")->cls; }
void Decoder::decode(const Instr& s, Inst& in) {
  cur_inst_ = &s;
  Mods m;
  auto parts = split(s.opcode, '.');
  m.root = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) {
    if (parts[i].empty()) fail(s.loc, "malformed opcode '" + s.opcode + "'");
    Type t = parse_type("." + parts[i]);
    if (t != Type::None)
      m.types.push_back(t);
    else
      m.words.push_back(parts[i]);
  }
  m.used.assign(m.words.size(), 0);
  // Modifiers that do not change functional behaviour.
  static const char* kIgnored[] = {"volatile", "relaxed", "acquire", "release", "acq_rel", "sc",   "weak", "mmio",
                                   "cta",      "gpu",     "sys",     "cluster", "ca",      "cg",   "cs",   "lu",
                                   "cv",       "wb",      "wt",      "nc",      "aligned", "sync", "full", "noftz"};
  if (!s.guard.empty()) {
    Operand g;
    g.kind = Operand::Reg;
    g.name = s.guard;
    g.loc = s.loc;
    in.guard = reg(g, Type::Pred);
    in.guard_neg = s.guard_neg;
  }
  static const std::set<std::string> kVocabulary = {"rn",
                                                    "rz",
                                                    "rm",
                                                    "rp",
                                                    "rni",
                                                    "rzi",
                                                    "rmi",
                                                    "rpi",
                                                    "ftz",
                                                    "sat",
                                                    "approx",
                                                    "cc",
                                                    "hi",
                                                    "lo",
                                                    "wide",
                                                    "eq",
                                                    "ne",
                                                    "lt",
                                                    "le",
                                                    "gt",
                                                    "ge",
                                                    "ls",
                                                    "hs",
                                                    "equ",
                                                    "neu",
                                                    "ltu",
                                                    "leu",
                                                    "gtu",
                                                    "geu",
                                                    "num",
                                                    "nan",
                                                    "and",
                                                    "or",
                                                    "xor",
                                                    "add",
                                                    "min",
                                                    "max",
                                                    "inc",
                                                    "dec",
                                                    "exch",
                                                    "cas",
                                                    "global",
                                                    "shared",
                                                    "local",
                                                    "const",
                                                    "param",
                                                    "to",
                                                    "v2",
                                                    "v4",
                                                    "uni",
                                                    "arrive",
                                                    "red",
                                                    "warp",
                                                    "gl",
                                                    "up",
                                                    "down",
                                                    "bfly",
                                                    "idx",
                                                    "all",
                                                    "any",
                                                    "ballot",
                                                    "1d",
                                                    "2d",
                                                    "shiftamt",
                                                    "f4e",
                                                    "b4e",
                                                    "rc8",
                                                    "ecl",
                                                    "ecr",
                                                    "rc16",
                                                    "l",
                                                    "r",
                                                    "wrap",
                                                    "clamp",
                                                    "finite",
                                                    "infinite",
                                                    "number",
                                                    "notanumber",
                                                    "normal",
                                                    "subnormal",
                                                    "3d",
                                                    "a1d",
                                                    "a2d",
                                                    "cube",
                                                    "acube",
                                                    "b",
                                                    "p",
                                                    "trap",
                                                    "zero",
                                                    "width",
                                                    "height",
                                                    "depth",
                                                    "array_size",
                                                    "popc",
                                                    "load",
                                                    "store",
                                                    "mma",
                                                    "a",
                                                    "c",
                                                    "d",
                                                    "row",
                                                    "col",
                                                    "satfinite",
                                                    "m16n16k16",
                                                    "m32n8k16",
                                                    "m8n32k16",
                                                    "g",
                                                    "level",
                                                    "channel_data_type",
                                                    "channel_order",
                                                    "normalized_coords",
                                                    "filter_mode",
                                                    "addr_mode_0",
                                                    "addr_mode_1",
                                                    "addr_mode_2",
                                                    "num_mipmap_levels",
                                                    "num_samples",
                                                    "force_unnormalized_coords"};
  for (const auto& w : m.words) {
    bool ok = kVocabulary.count(w) != 0;
    for (const char* i : kIgnored) ok = ok || w == i;
    if (!ok) fail(s.loc, "unsupported modifier '." + w + "' in '" + s.opcode + "'");
  }
  // The row of the mnemonic with its first modifier ("bar.warp"), else of the mnemonic.
  const InstructionRow* row = parts.size() > 1 ? find_instruction(m.root + "." + parts[1]) : nullptr;
  if (!row) row = find_instruction(m.root);
  if (!row) fail(s.loc, "unknown instruction '" + s.opcode + "'");
  cls_ = &row->cls;
  (this->*row->decode)(s, in, m);
  apply_class(*cls_, in);
  in.esize = uint8_t(type_bytes(in.type));
  in.sgn = type_is_signed(in.type);
  if (in.fn == nullptr && needs_handler(in.op)) {
    in.fn = select_alu_handler(in);
    if (!in.fn) fail(s.loc, "unsupported type combination in '" + s.opcode + "'");
  }
  for (size_t i = 0; i < m.words.size(); ++i) {
    if (m.used[i]) continue;
    bool ign = false;
    for (const char* w : kIgnored)
      if (m.words[i] == w) ign = true;
    if (!ign) fail(s.loc, "unsupported modifier '." + m.words[i] + "' in '" + s.opcode + "'");
  }
}

}  // namespace

namespace {

// Registers an instruction reads and writes (the guard and the address register count as read).
void regs_of(const Inst& in, std::vector<uint32_t>& reads, std::vector<uint32_t>& writes) {
  reads.clear();
  writes.clear();
  for (int i = 0; i < in.nsrc && i < 4; ++i)
    if (in.s[i] != kNone) reads.push_back(in.s[i]);
  if (in.addr_reg != kNone) reads.push_back(in.addr_reg);
  for (uint32_t c : in.coord)
    if (c != kNone) reads.push_back(c);
  if (in.guard != kNone) reads.push_back(in.guard);
  for (int i = 0; i < in.ndst && i < 4; ++i)
    if (in.d[i] != kNone) writes.push_back(in.d[i]);
}

bool hoistable(const Inst& in) { return in.op == Op::Ld && in.space == Space::Global && !in.param_frame; }

// Instructions a load may move above: plain register computations and other loads.
bool passable(const Inst& in) {
  switch (in.op) {
    case Op::St:
      return in.space == Space::Shared;  // shared memory never aliases global memory
    case Op::Bra:
    case Op::Call:
    case Op::Ret:
    case Op::Exit:
    case Op::FuncExit:
    case Op::Bar:
    case Op::BarWarp:
    case Op::Membar:
    case Op::Atom:
    case Op::Red:
    case Op::Tex:
    case Op::Suld:
    case Op::Sust:
    case Op::Suq:
    case Op::Tld4:
    case Op::Txq:
    case Op::Trap:
    case Op::Clock:
    case Op::Builtin:
    case Op::Shfl:
    case Op::Vote:
    case Op::Match:
    case Op::Activemask:
    case Op::Wmma:
      return false;
    case Op::Ld:
      return !in.param_frame;
    case Op::Addc:
    case Op::Subc:
    case Op::Madc:
      return false;  // the carry flag is no operand
    default:
      return !(in.mods & kModCC);
  }
}

bool shares(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  for (uint32_t x : a)
    for (uint32_t y : b)
      if (x == y) return true;
  return false;
}

}  // namespace

// core.hoist_global_loads (decode_kernel): before reconvergence points and trace templates are
// computed, so only instruction order within basic blocks changes.
void hoist_global_loads(Program& p) {
  const uint32_t n = uint32_t(p.insts.size());
  std::vector<char> leader(n, 0);
  for (const auto& fi : p.funcs) {
    if (fi.first < n) leader[fi.first] = 1;
    if (fi.exit < n) leader[fi.exit] = 1;
  }
  // Branch targets and function bounds; nothing moves across a branch or any other instruction
  // that passable() refuses, so those need not end blocks.
  for (const Inst& in : p.insts)
    if (in.target != kNone && in.target < n) leader[in.target] = 1;
  std::vector<uint32_t> lr, lw, xr, xw;
  for (uint32_t i = 1; i < n; ++i) {
    if (!hoistable(p.insts[i]) || leader[i]) continue;
    regs_of(p.insts[i], lr, lw);
    uint32_t to = i;
    while (to > 0 && !leader[to]) {
      const Inst& x = p.insts[to - 1];
      if (!passable(x)) break;
      regs_of(x, xr, xw);
      // Not past a writer of what the load reads, nor a reader or writer of what it writes.
      if (shares(xw, lr) || shares(xr, lw) || shares(xw, lw)) break;
      --to;
    }
    if (to == i) continue;
    Inst moved = p.insts[i];
    for (uint32_t k = i; k > to; --k) p.insts[k] = p.insts[k - 1];
    p.insts[to] = moved;
  }
  // Then the computations on loaded values sink towards the end of their block, last first, so
  // that the loads and their address arithmetic come first: a use waits for its load without
  // holding back the independent loads behind it.
  std::vector<char> tainted_reg;
  auto taint = [&](uint32_t r) {
    if (r >= tainted_reg.size()) tainted_reg.resize(r + 1, 0);
    tainted_reg[r] = 1;
  };
  auto is_tainted = [&](uint32_t r) { return r < tainted_reg.size() && tainted_reg[r]; };
  uint32_t start = 0;
  while (start < n) {
    uint32_t end = start + 1;
    while (end < n && !leader[end]) ++end;
    // Block [start, end): which instructions compute on loaded values.
    std::vector<char> consumer(end - start, 0);
    tainted_reg.assign(tainted_reg.size(), 0);
    for (uint32_t i = start; i < end; ++i) {
      const Inst& in = p.insts[i];
      regs_of(in, lr, lw);
      bool uses = false;
      for (uint32_t r : lr) uses = uses || is_tainted(r);
      if (hoistable(in) || (uses && passable(in) && in.op != Op::Ld)) {
        for (uint32_t r : lw) taint(r);
        consumer[i - start] = !hoistable(in);
      } else {
        // A later write of a register ends its taint.
        for (uint32_t r : lw)
          if (is_tainted(r)) tainted_reg[r] = 0;
      }
    }
    for (uint32_t i = end; i-- > start;) {
      if (!consumer[i - start]) continue;
      regs_of(p.insts[i], lr, lw);
      uint32_t to = i;
      while (to + 1 < end) {
        const Inst& x = p.insts[to + 1];
        if (!passable(x)) break;
        regs_of(x, xr, xw);
        if (shares(xr, lw) || shares(xw, lr) || shares(xw, lw)) break;
        ++to;
      }
      if (to == i) continue;
      Inst moved = p.insts[i];
      for (uint32_t k = i; k < to; ++k) p.insts[k] = p.insts[k + 1];
      p.insts[to] = moved;
    }
    start = end;
  }
}

std::vector<InstructionClassRow> instruction_classes() {
  std::vector<InstructionClassRow> v;
  for (const auto& r : kInstructions) v.push_back({r.mnemonic, r.cls});
  return v;
}

uint64_t function_address(const Module& m, const Function& f) {
  const Function* d = m.find_function(f.name);
  if (!d) d = &f;
  return kFunctionAddressBase + uint64_t(d - m.functions.data()) * 16;
}

uint64_t module_code_bytes(const Module& m) { return module_code_offset(m, std::string()); }

uint64_t module_code_offset(const Module& m, const std::string& name) {
  uint64_t at = 0;
  for (const Function& f : m.functions) {
    if (!f.has_body) continue;
    if (f.name == name) return at;
    for (const Statement& s : f.body)
      if (s.kind == Statement::Inst) at += 8;
  }
  return at;
}

std::shared_ptr<const Program> decode_kernel(const Module& m, const std::string& kernel, const SymbolMap& globals,
                                             bool hoist_loads) {
  Decoder d(m, globals);
  return d.run(kernel, hoist_loads);
}

}  // namespace warpsim::ptx
