// Functional execution of one CTA of a decoded PTX kernel: SIMT stack with immediate
// post-dominator reconvergence, warps advancing together between barriers, and a WarpStream
// per warp for the timing model.
#pragma once
#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/kernel_source.h"
#include "ptx/ir.h"
#include "runtime/device_heap.h"
#include "runtime/device_memory.h"
#include "runtime/runtime.h"

namespace warpsim::ptx {

using TextureTable = std::unordered_map<uint64_t, TextureDesc>;
using SurfaceTable = std::unordered_map<uint64_t, SurfaceDesc>;

// Invalid global accesses of one kernel found by memcheck: one entry per distinct kind (pc,
// read or write, out of bounds or use after free, allocation), with its first occurrence.
struct MemcheckLog {
  static constexpr size_t kMaxEntries = 100;
  struct Entry {
    std::string text;    // the first occurrence: where, what, which allocation
    uint64_t count = 0;  // accesses of this kind
  };
  std::map<std::tuple<uint32_t, bool, bool, std::string>, size_t> index;
  std::vector<Entry> entries;
  uint64_t total = 0;    // every invalid access, also those past kMaxEntries kinds
  uint64_t dropped = 0;  // accesses of kinds past kMaxEntries
  // "memcheck: kernel 'k': N invalid global accesses ..." and one line per entry.
  std::string report(const std::string& kernel) const;
};

// Everything a kernel launch needs besides the program.
struct Launch {
  std::string kernel;
  Dim3 grid, block;
  uint32_t dynamic_shared = 0;
  std::vector<uint8_t> params;       // kernel .param buffer
  uint64_t inst_limit = 50'000'000;  // per-thread instruction limit (runaway loops)
  DeviceMemory* memory = nullptr;
  DeviceHeap* heap = nullptr;  // device-side malloc/free (null: a kernel that calls them fails)
  const TextureTable* textures = nullptr;
  const SurfaceTable* surfaces = nullptr;
  // Exact checking of global accesses against the live allocations (null: off).
  std::shared_ptr<MemcheckLog> memcheck;
  // A cooperative launch: the address of its zeroed grid workspace, which the kernel reads in
  // %envreg1/%envreg2 (cooperative_groups::this_grid()). 0: not a cooperative launch.
  DevPtr grid_workspace = 0;
  uint32_t num_sms = 1;  // cooperative launches: the GPU's SMs (the %smid of CTAs executed ahead of dispatch)
  AccessPolicyWindow access_window;  // L2 access policy window (KernelInfo::access_window)
  bool cooperative() const { return grid_workspace != 0; }
};

class CtaExecutor {
 public:
  CtaExecutor(std::shared_ptr<const Program> prog, const Launch* launch);
  ~CtaExecutor();
  // Executes CTA `cta_id` completely and fills `out` (one stream per warp).
  void run(uint32_t cta_id, uint32_t sm_id, CtaStreams& out);
  // The same in steps, for cooperative launches whose CTAs wait for each other: begin(), then
  // resume() until it returns true. A warp stops after each polling load (kModPoll), so that
  // the warps it may wait for run; resume() returns false once every warp that has not exited
  // waits at such a load or at a barrier: the CTA waits for a write, perhaps another CTA's.
  void begin(uint32_t cta_id, uint32_t sm_id, CtaStreams& out);
  bool resume();
  // Consecutive resume() rounds that leave a CTA's polling warps exactly as they were (SIMT
  // stack and every register: a loop that counts its polls, or reads a clock, changes them)
  // before the CTA is declared stuck.
  static constexpr uint32_t kStuckRounds = 100;
  // A hash of the polling warps' state (SIMT stack, registers): unchanged from one resume() to
  // the next while the CTA waits for a write no warp makes.
  uint64_t poll_state() const;
  // Where the CTA's warps wait (a grid deadlock report).
  std::string describe_waits() const;
  uint64_t thread_insts() const { return thread_insts_; }
  uint64_t warp_insts() const { return warp_insts_; }

 private:
  struct Entry {
    uint32_t pc, rpc, mask;
  };
  // One activation of a function: its lanes run on their own SIMT stack entry (`depth`), above
  // the caller's, which waits after the call. A function entered again while it is active (an
  // older activation is on the stack) saves its registers and frame first (`saved_regs`).
  struct Frame {
    uint32_t call, func, depth, lanes;
    size_t saved_regs, saved_local;  // offsets in Warp::saved_regs/saved_local; kNoSave: nothing saved
  };
  static constexpr size_t kNoSave = ~size_t(0);
  struct Warp {
    std::vector<Entry> stack;
    std::vector<Frame> frames;
    std::vector<uint32_t> active;      // activations per function (frames on the call stack)
    std::vector<uint64_t> saved_regs;  // registers of re-entered functions, 32 lanes each
    std::vector<uint8_t> saved_local;  // their frames, for the lanes that entered
    uint64_t* regs = nullptr;
    WarpStream* out = nullptr;
    uint32_t live = 0;
    uint32_t id = 0;
    uint64_t count = 0;
    enum State : uint8_t { Running, AtBarrier, Polling, Done } state = Running;
    uint8_t barrier = 0;
    uint32_t barrier_inst = 0;   // index of the bar instruction the warp waits at
    uint32_t barrier_lanes = 0;  // the lanes that executed it (bar.red writes their results)
    bool last_exit = false;
    uint32_t poll_inst = 0;  // Polling: index of the load
  };

  void run_warp(Warp& w);
  void remove_lanes(Warp& w, uint32_t lanes);
  void emit(Warp& w, const Inst& in, uint32_t mask, uint32_t simt_mask);
  // A memory access: `emit` with the lanes' addresses at WarpStream::addrs[addr_index, +32) and
  // the space the timing model sends it to.
  void emit_access(Warp& w, const Inst& in, uint32_t mask, uint32_t simt_mask, uint32_t addr_index, MemSpace space);
  void exec_mem(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask);
  template <uint32_t ES, bool LOAD, Space SP>
  void mem_fast(Warp& w, const Inst& in, uint32_t exec, uint64_t* taddrs);
  template <Space SP>
  void mem_dispatch(Warp& w, const Inst& in, uint32_t exec, uint64_t* taddrs);
  uint8_t* global_page_ptr(uint64_t a, bool write) {
    if (launch_->memcheck) return nullptr;  // every access goes through resolve()
    uint64_t pg = a >> DeviceMemory::kPageBits;
    if (pg == cache_page_) return cache_base_ + (a & (DeviceMemory::kPageSize - 1));
    uint8_t* p = write ? launch_->memory->write_ptr(a) : launch_->memory->materialized_ptr(a);
    if (p) {
      cache_page_ = pg;
      cache_base_ = p - (a & (DeviceMemory::kPageSize - 1));
    }
    return p;
  }
  void exec_atomic(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask);
  void exec_tex(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask);
  void exec_txq(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask);
  const TextureDesc& texture(Warp& w, const Inst& in, int lane, uint64_t handle);
  void exec_surface(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask);
  const SurfaceDesc& surface(Warp& w, const Inst& in, int lane, uint64_t handle);
  void exec_shfl(Warp& w, const Inst& in, uint32_t exec);
  void exec_vote(Warp& w, const Inst& in, uint32_t exec);
  void exec_match(Warp& w, const Inst& in, uint32_t exec);
  void exec_builtin(Warp& w, const Inst& in, uint32_t exec);
  void exec_wmma(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask);
  void do_call_copies(Warp& w, const CallInfo& ci, bool rets, uint32_t lanes);
  void exec_call(Warp& w, const Inst& in, uint32_t exec);
  uint32_t indirect_callee(Warp& w, const Inst& in, int lane, uint32_t& call);
  void enter(Warp& w, const Inst& in, uint32_t func, uint32_t call, uint32_t lanes);
  void leave(Warp& w, const Frame& f, uint32_t lanes, bool copy_rets);
  void drop_frames(Warp& w);
  uint8_t* resolve(Warp& w, const Inst& in, int lane, Space sp, uint64_t addr, uint32_t bytes, bool write,
                   MemSpace& tspace, uint64_t& taddr);
  [[noreturn]] void mem_error(Warp& w, const Inst& in, int lane, const char* what, Space sp, uint64_t addr,
                              uint32_t bytes, bool write);
  std::string where(const Warp& w, const Inst& in, int lane) const;
  // Why a trap instruction may have executed, when the kernel tells: "" or "; ..." to append.
  std::string trap_hint() const;
  void memcheck_access(Warp& w, const Inst& in, int lane, Space sp, uint64_t addr, uint64_t a, uint32_t bytes,
                       bool write);
  void init_warp(Warp& w, uint32_t idx, uint32_t sm_id);

  std::shared_ptr<const Program> prog_;
  const Launch* launch_;
  uint32_t threads_ = 0, nwarps_ = 0;
  uint32_t shared_size_ = 0, local_size_ = 0;
  uint32_t ctaid_[3] = {0, 0, 0};
  std::vector<uint64_t> regs_;
  std::vector<uint8_t> shared_, local_;
  std::vector<Warp> warps_;
  uint32_t bar_waiting_[16] = {};
  uint32_t bar_arrived_[16] = {};
  uint32_t bar_count_[16] = {};
  // What bar.red has reduced so far at each barrier: the count of true predicates (.popc) and
  // whether all (.and) or any (.or) of the arriving threads' predicates are true.
  struct BarrierReduction {
    uint32_t count = 0;
    bool all = true, any = false;
    void add(const uint64_t* pred, uint32_t lanes, bool negate) {
      for (uint32_t l = lanes; l; l &= l - 1) {
        bool v = ((pred[std::countr_zero(l)] & 1) != 0) != negate;
        count += v;
        all = all && v;
        any = any || v;
      }
    }
    void write(const Inst& bar, uint64_t* d, uint32_t lanes) const {
      uint64_t v = bar.boolop == BoolOp::And ? uint64_t(all) : bar.boolop == BoolOp::Or ? uint64_t(any) : count;
      for (uint32_t l = lanes; l; l &= l - 1) d[std::countr_zero(l)] = v;
    }
  };
  BarrierReduction bar_red_[16];
  uint64_t thread_insts_ = 0, warp_insts_ = 0;
  uint64_t cache_page_ = ~uint64_t(0);
  uint8_t* cache_base_ = nullptr;
  // Per instruction: the address lane 0 of the last whole-warp global access used, to
  // prefetch strided streams (a warp looping with a grid-sized stride touches a new host page
  // each iteration, which the host's own prefetchers do not follow).
  std::vector<uint64_t> pf_last_;
  uint64_t last_tex_handle_ = 0;
  const TextureDesc* last_tex_ = nullptr;
  uint64_t last_surf_handle_ = 0;
  const SurfaceDesc* last_surf_ = nullptr;
  std::vector<uint8_t> ret_buf_;  // return values in flight while a frame is restored
};

}  // namespace warpsim::ptx
