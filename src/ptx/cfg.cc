#include "ptx/cfg.h"

#include <algorithm>

namespace warpsim::ptx {

int successors(const Program& prog, const FuncInfo& f, uint32_t i, uint32_t out[2]) {
  const Inst& in = prog.insts[i];
  switch (in.op) {
    case Op::FuncExit:
      return 0;
    case Op::Ret:
    case Op::Exit:
    case Op::Trap:
      out[0] = f.exit;
      if (in.guard != kNone && i + 1 <= f.exit) {
        out[1] = i + 1;
        return 2;
      }
      return 1;
    case Op::Bra:
      out[0] = in.target;
      if (in.guard != kNone && in.target != i + 1) {
        out[1] = i + 1;
        return 2;
      }
      return 1;
    default:
      out[0] = i + 1;
      return 1;
  }
}

uint32_t peak_live_registers(const Program& prog, const FuncInfo& f) {
  const uint32_t n = f.exit - f.first + 1;
  const size_t words = (prog.reg_bytes.size() + 63) / 64;
  if (words == 0) return 0;
  std::vector<uint64_t> live_in(size_t(n) * words, 0), use(size_t(n) * words, 0), def(size_t(n) * words, 0);
  auto set = [&](std::vector<uint64_t>& v, uint32_t i, uint32_t r) {
    if (r == kNone || r >= prog.reg_bytes.size() || prog.reg_bytes[r] == 0) return;
    v[size_t(i) * words + r / 64] |= uint64_t(1) << (r % 64);
  };
  for (uint32_t i = 0; i < n; ++i) {
    const Inst& in = prog.insts[f.first + i];
    for (uint32_t r : in.s) set(use, i, r);
    for (uint32_t r : in.coord) set(use, i, r);
    set(use, i, in.addr_reg);
    if (in.guard == kNone)
      for (uint32_t r : in.d) set(def, i, r);
    if (in.op == Op::Wmma) {  // every register of the fragments, not only the trace's first and last
      const WmmaInfo& w = prog.wmma[in.wmma];
      const bool load = WmmaOp(in.sub) != WmmaOp::StoreD && WmmaOp(in.sub) != WmmaOp::Mma;
      for (uint32_t r : w.frag.regs)
        if (!load)
          set(use, i, r);
        else if (in.guard == kNone)
          set(def, i, r);
      for (const WmmaFragment* f : {&w.a, &w.b, &w.c})
        for (uint32_t r : f->regs) set(use, i, r);
      if (in.guard == kNone)
        for (uint32_t r : w.d.regs) set(def, i, r);
    }
  }
  std::vector<uint64_t> out(words);
  bool changed = true;
  for (int iter = 0; changed && iter < 1000; ++iter) {
    changed = false;
    for (uint32_t k = n; k-- > 0;) {
      std::fill(out.begin(), out.end(), 0);
      uint32_t s[2];
      int cnt = successors(prog, f, f.first + k, s);
      for (int j = 0; j < cnt; ++j)
        for (size_t w = 0; w < words; ++w) out[w] |= live_in[size_t(s[j] - f.first) * words + w];
      for (size_t w = 0; w < words; ++w) {
        uint64_t v = use[size_t(k) * words + w] | (out[w] & ~def[size_t(k) * words + w]);
        uint64_t& cur = live_in[size_t(k) * words + w];
        if (v != cur) {
          cur = v;
          changed = true;
        }
      }
    }
  }
  uint32_t peak = 0;
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t cnt = 0;
    for (size_t w = 0; w < words; ++w) {
      uint64_t v = live_in[size_t(k) * words + w];
      while (v) {
        int b = __builtin_ctzll(v);
        v &= v - 1;
        cnt += prog.reg_bytes[w * 64 + size_t(b)] > 4 ? 2 : 1;
      }
    }
    peak = std::max(peak, cnt);
  }
  return peak;
}

void compute_reconvergence(Program& prog, const FuncInfo& f) {
  const uint32_t n = f.exit - f.first + 1;
  // Predecessor lists (edges of the reverse graph).
  std::vector<std::vector<uint32_t>> preds(n);
  for (uint32_t i = f.first; i <= f.exit; ++i) {
    uint32_t s[2];
    int k = successors(prog, f, i, s);
    for (int j = 0; j < k; ++j) preds[s[j] - f.first].push_back(i - f.first);
  }
  // Postorder of a DFS from the exit over the reverse graph.
  std::vector<int> po_num(n, -1);
  std::vector<uint32_t> order;
  order.reserve(n);
  {
    std::vector<std::pair<uint32_t, size_t>> stack;
    std::vector<char> seen(n, 0);
    stack.push_back({n - 1, 0});
    seen[n - 1] = 1;
    while (!stack.empty()) {
      auto& [v, k] = stack.back();
      if (k < preds[v].size()) {
        uint32_t w = preds[v][k++];
        if (!seen[w]) {
          seen[w] = 1;
          stack.push_back({w, 0});
        }
      } else {
        po_num[v] = int(order.size());
        order.push_back(v);
        stack.pop_back();
      }
    }
  }
  // Cooper-Harvey-Kennedy iterative dominators on the reverse graph.
  std::vector<int> ipdom(n, -1);
  ipdom[n - 1] = int(n - 1);
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (po_num[a] < po_num[b]) a = ipdom[a];
      while (po_num[b] < po_num[a]) b = ipdom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t k = order.size(); k-- > 0;) {
      uint32_t v = order[k];
      if (v == n - 1) continue;
      uint32_t s[2];
      int cnt = successors(prog, f, v + f.first, s);
      int nd = -1;
      for (int j = 0; j < cnt; ++j) {
        int w = int(s[j] - f.first);
        if (ipdom[w] < 0) continue;
        nd = nd < 0 ? w : intersect(w, nd);
      }
      if (nd >= 0 && ipdom[v] != nd) {
        ipdom[v] = nd;
        changed = true;
      }
    }
  }
  for (uint32_t i = f.first; i <= f.exit; ++i) {
    Inst& in = prog.insts[i];
    if (in.op == Op::Bra || in.op == Op::Ret || in.op == Op::Exit || in.op == Op::Trap) {
      int p = ipdom[i - f.first];
      in.reconv = p < 0 ? f.exit : uint32_t(p) + f.first;  // no path to the exit: reconverge at the end
    }
  }
}

uint32_t call_path_peak_registers(const Program& prog) {
  const size_t nf = prog.funcs.size();
  std::vector<uint32_t> func_at(prog.insts.size(), kNone);  // function by its first instruction
  for (size_t f = 0; f < nf; ++f)
    if (prog.funcs[f].first < func_at.size()) func_at[prog.funcs[f].first] = uint32_t(f);
  std::vector<std::vector<uint32_t>> callees(nf);
  for (size_t f = 0; f < nf; ++f) {
    const FuncInfo& fi = prog.funcs[f];
    for (uint32_t i = fi.first; i < fi.exit && i < prog.insts.size(); ++i) {
      const Inst& in = prog.insts[i];
      if (in.op != Op::Call) continue;
      if (in.target != kNone) {
        if (in.target < func_at.size() && func_at[in.target] != kNone) callees[f].push_back(func_at[in.target]);
      } else if (in.call_index < prog.indirect.size()) {
        const std::vector<uint32_t>& of = prog.indirect[in.call_index].call_of;
        for (uint32_t g = 0; g < of.size() && g < nf; ++g)
          if (of[g] != kNone) callees[f].push_back(g);
      }
    }
  }
  // Depth-first over the call graph from the entry; 0 = not visited, 1 = on the path, 2 = done.
  std::vector<uint8_t> state(nf, 0);
  std::vector<uint32_t> total(nf, 0);
  auto visit = [&](auto&& self, uint32_t f) -> uint32_t {
    if (state[f] == 2) return total[f];
    if (state[f] == 1) return 0;
    state[f] = 1;
    uint32_t deepest = 0;
    for (uint32_t g : callees[f]) deepest = std::max(deepest, self(self, g));
    state[f] = 2;
    return total[f] = peak_live_registers(prog, prog.funcs[f]) + deepest;
  };
  return nf ? visit(visit, 0) : 0;
}

}  // namespace warpsim::ptx
