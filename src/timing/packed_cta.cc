#include "timing/packed_cta.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/error.h"
#include "timing/lane_address_codec.h"

namespace warpsim {

namespace {

uint64_t hash(const WarpInst& in) {
  static_assert(sizeof(WarpInst) % sizeof(uint64_t) == 0 && std::has_unique_object_representations_v<WarpInst>);
  uint64_t w[sizeof(WarpInst) / sizeof(uint64_t)];
  std::memcpy(w, &in, sizeof in);
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (uint64_t x : w) h = (h ^ x) * 0xff51afd7ed558ccdull;
  return h ^ (h >> 29);
}

bool same(const WarpInst& a, const WarpInst& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

uint64_t PackedCta::bytes() const {
  uint64_t b = table.capacity() * sizeof(WarpInst) + warps.capacity() * sizeof(PackedWarp);
  for (const PackedWarp& w : warps) b += (w.codes.capacity() + w.addr_words.capacity()) * sizeof(uint32_t);
  return b;
}

WarpStream PackedCta::unpack(uint32_t w) const {
  WarpStream s;
  const PackedWarp& pw = warps.at(w);
  const uint32_t* rec = pw.addr_words.data();
  for (uint32_t c : pw.codes) {
    WarpInst in = table.at(c);
    if (in.addr_index != kNoAddr) {
      in.addr_index = uint32_t(s.addrs.size());
      s.addrs.resize(s.addrs.size() + 32);
      rec = lane_addresses::decode(rec, in.active_mask, s.addrs.data() + in.addr_index);
    }
    s.insts.push_back(in);
  }
  return s;
}

uint32_t CtaPacker::code_of(const WarpInst& in, PackedCta& out) {
  if (out.table.size() * 2 >= slots_.size()) {  // keep the load under 1/2
    slots_.assign(std::max<size_t>(64, slots_.size() * 2), 0);
    const size_t mask = slots_.size() - 1;
    for (size_t i = 0; i < out.table.size(); ++i) {
      size_t s = hash(out.table[i]) & mask;
      while (slots_[s]) s = (s + 1) & mask;
      slots_[s] = uint32_t(i + 1);
    }
  }
  const size_t mask = slots_.size() - 1;
  size_t s = hash(in) & mask;
  for (; slots_[s]; s = (s + 1) & mask)
    if (same(out.table[slots_[s] - 1], in)) return slots_[s] - 1;
  out.table.push_back(in);
  slots_[s] = uint32_t(out.table.size());
  return slots_[s] - 1;
}

void CtaPacker::pack(const CtaStreams& in, PackedCta& out) {
  out.cta_id = in.cta_id;
  out.table.clear();
  std::fill(slots_.begin(), slots_.end(), 0);
  out.warps.clear();
  out.warps.resize(in.warps.size());
  for (size_t w = 0; w < in.warps.size(); ++w) {
    const WarpStream& ws = in.warps[w];
    PackedWarp& pw = out.warps[w];
    pw.codes.reserve(ws.insts.size());
    words_.clear();
    for (const WarpInst& inst : ws.insts) {
      WarpInst key = inst;
      if (inst.addr_index != kNoAddr) {
        if (uint64_t(inst.addr_index) + 32 > ws.addrs.size())
          throw Error(
              fmt::format("CTA {} warp {}: the addresses of the instruction at pc 0x{:x} (index {}) lie "
                          "outside the warp's {} addresses",
                          in.cta_id, w, inst.pc, inst.addr_index, ws.addrs.size()));
        lane_addresses::encode(ws.addrs.data() + inst.addr_index, inst.active_mask, words_);
        key.addr_index = 0;
      }
      pw.codes.push_back(code_of(key, out));
    }
    pw.addr_words.assign(words_.begin(), words_.end());
  }
  out.table.shrink_to_fit();
}

}  // namespace warpsim
