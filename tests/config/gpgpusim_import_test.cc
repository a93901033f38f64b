#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "config/config_loader.h"
#include "core/error.h"

using namespace warpsim;

namespace {
// The keys whose values differ between two configurations, for failure messages.
std::string differing_keys(GpuConfig a, GpuConfig b) {
  auto fa = config_fields(a), fb = config_fields(b);
  std::string out;
  for (size_t i = 0; i < fa.size() && i < fb.size(); ++i)
    if (fa[i].get() != fb[i].get()) out += fa[i].key + ": " + fa[i].get() + " vs " + fb[i].get() + "\n";
  return out;
}

// A GTX480-like file in GPGPU-Sim 3.x style (unsectored cache strings without the N/S
// prefix) mixed with 4.x options, comments and a quoted value spanning two lines.
const char* kSample = R"(# sample gpgpusim.config
-gpgpu_ptx_sim_mode 0
-gpgpu_n_clusters 5
-gpgpu_n_cores_per_cluster 3
-gpgpu_n_mem 6
-gpgpu_n_sub_partition_per_mchannel 2
-gpgpu_clock_domains 700.0:700.0:700.0:924.0
-gpgpu_shader_registers 32768
-gpgpu_shader_core_pipeline 1536:32   # threads:warp size
-gpgpu_shader_cta 8
-gpgpu_num_sched_per_core 2
-gpgpu_shmem_size 49152
-gpgpu_shmem_num_banks 32
-gpgpu_smem_latency 26
-gpgpu_num_sp_units 2
-gpgpu_num_sfu_units 1
-gpgpu_pipeline_widths 2,0,0,1,1,2,0,0,1,1,2
-ptx_opcode_latency_int 4,13,4,5,145,32
-ptx_opcode_initiation_int 1,2,2,1,8,4
-ptx_opcode_latency_fp 4,13,4,6,39
-ptx_opcode_initiation_fp 1,2,1,1,4
-ptx_opcode_latency_sfu 20
-gpgpu_cache:dl1 32:128:4,L:L:m:N:H,A:128:8,8
-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32
-gpgpu_cache:il1 N:4:128:4,L:R:f:N:L,S:2:32,4
-gpgpu_const_cache:l1 N:64:64:2,L:R:f:N:L,S:2:32,4
-gpgpu_tex_cache:l1 N:4:128:24,L:R:m:N:L,T:128:4,128:2
-gpgpu_l1_latency 35
-gpgpu_l2_rop_latency 120
-dram_latency 100
-gpgpu_dram_scheduler 1
-gpgpu_frfcfs_dram_sched_queue_size 64
-gpgpu_n_mem_per_ctrlr 2
-gpgpu_dram_buswidth 4
-gpgpu_dram_burst_length 8
-dram_data_command_freq_ratio 4  # GDDR5 is QDR
-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS
-gpgpu_dram_timing_opt "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:
                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2"
-gpgpu_coalesce_arch 20
-gpgpu_scheduler gto
-gpgpu_runtime_stat 500
-my_made_up_option 7
)";

GpuConfig import_text(const std::string& text, std::vector<std::string>* nu) {
  GpuConfig c;
  import_gpgpusim_text(c, text, "sample.config", nu);
  return c;
}

bool has(const std::vector<std::string>& v, const std::string& prefix) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& s) { return s.rfind(prefix, 0) == 0; });
}

std::string located_message(const std::string& text) {
  try {
    import_text(text, nullptr);
  } catch (const LocatedError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no LocatedError for: " << text;
  return {};
}

}  // namespace

TEST(GpgpusimImport, CoreAndUnits) {
  std::vector<std::string> nu;
  GpuConfig c = import_text(kSample, &nu);
  EXPECT_EQ(c.core.num_sms, 15u);  // 5 clusters x 3
  EXPECT_DOUBLE_EQ(c.clock_mhz, 700.0);
  EXPECT_EQ(c.core.registers, 32768u);
  EXPECT_EQ(c.core.max_threads, 1536u);
  EXPECT_EQ(c.core.max_warps, 48u);
  EXPECT_EQ(c.core.max_ctas, 8u);
  EXPECT_EQ(c.core.schedulers, 2u);
  EXPECT_EQ(c.core.shared_mem, 49152u);
  EXPECT_EQ(c.core.shared_latency, 26u);
  EXPECT_FALSE(c.core.subcore);
  EXPECT_EQ(c.core.sfu_issue_per_sm, 1u);  // ID_OC_SFU width in shared mode
  EXPECT_EQ(c.core.mem_issue_per_sm, 1u);
  EXPECT_TRUE(c.core.rotate_issue_priority);  // shared pipeline registers: Issue_Prio decides who gets them
  const auto& sp = c.units[int(Unit::SP)];
  EXPECT_EQ(sp.count, 2u);
  EXPECT_EQ(sp.latency[kLatDefault], 4u);
  EXPECT_EQ(sp.latency[kLatMax], 13u);
  EXPECT_EQ(sp.latency[kLatMul], 4u);
  EXPECT_EQ(sp.latency[kLatMad], 6u);
  EXPECT_EQ(sp.latency[kLatDiv], 39u);
  EXPECT_EQ(sp.latency[kLatAlu], 1u);
  EXPECT_EQ(sp.initiation[kLatDefault], 1u);
  EXPECT_EQ(sp.initiation[kLatMax], 2u);
  EXPECT_EQ(sp.initiation[kLatDiv], 4u);
  EXPECT_EQ(sp.initiation[kLatAlu], 1u);
  const auto& in = c.units[int(Unit::INT)];
  EXPECT_EQ(in.latency[kLatDiv], 145u);
  EXPECT_EQ(in.latency[kLatShfl], 32u);
  EXPECT_EQ(in.initiation[kLatMul], 2u);
  EXPECT_EQ(in.initiation[kLatShfl], 4u);
  EXPECT_EQ(c.units[int(Unit::BRANCH)].count, 0u);  // branches issue to INT, else SP
  EXPECT_TRUE(c.core.result_slot_conflicts);
  EXPECT_TRUE(c.core.ifetch_through_memory);      // L1I misses go to the L2
  EXPECT_TRUE(c.core.l1_miss_after_latency);      // the L1 latency queue comes before the lookup
  EXPECT_TRUE(c.core.l1_lookup_after_latency);    // hits too, a refused lookup holding its bank
  EXPECT_TRUE(c.core.const_through_memory);       // constant-cache misses go to the L2
  EXPECT_TRUE(c.core.atomic_waits);               // warps wait for their atomics
  EXPECT_TRUE(c.core.long_op_marks_persist);      // loaded registers stay long ops for two-level demotion
  EXPECT_TRUE(c.core.param_through_const_cache);  // ld.param reads the constant cache
  EXPECT_EQ(c.core.mem_writeback_per_cycle, 1u);  // one memory response written back per cycle
  EXPECT_TRUE(c.core.fetch_after_issue);          // issue, then decode and fetch, in a cycle
  EXPECT_TRUE(c.core.ifill_feeds_one_per_fetch);  // one m_L1I->next_access() per fetch round
  EXPECT_TRUE(c.core.fetch_refusal_moves_on);     // the round robin moves past a refused warp
  EXPECT_TRUE(c.core.exit_at_fetch_scan);         // a finished warp leaves when the fetch search passes it
  EXPECT_TRUE(c.core.module_code_layout);         // a module's functions one after another
  EXPECT_TRUE(c.core.fetch_falls_through);        // a taken branch's fall-through is fetched first
  EXPECT_EQ(c.core.branch_latency, 0u);           // no delay beyond that order
  EXPECT_EQ(c.l1d.set_index, "fermi");            // dl1 ...,L:L:m:N:H
  EXPECT_EQ(c.l2.cache.set_index, "ipoly");       // dl2 ...,L:B:m:L:P
  EXPECT_EQ(c.dram.atom, 64u);                    // burst 8 x bus 4 x 2 chips
  EXPECT_EQ(c.l2.slice_select, "chunk");          // lowest B bit (8) at the channel digit
  const auto& sfu = c.units[int(Unit::SFU)];
  EXPECT_EQ(sfu.count, 1u);
  EXPECT_EQ(sfu.latency[kLatDefault], 20u);
  EXPECT_EQ(sfu.latency[kLatTrans], 20u);
}

TEST(GpgpusimImport, BothCacheSyntaxes) {
  GpuConfig c = import_text(kSample, nullptr);
  // Old style 32:128:4 (no N/S prefix): 16 KB, not sectored, local-WB/global-WT, no write allocate.
  EXPECT_EQ(c.l1d.size, 32u * 128 * 4);
  EXPECT_EQ(c.l1d.assoc, 4u);
  EXPECT_EQ(c.l1d.line, 128u);
  EXPECT_EQ(c.l1d.sector, 128u);
  EXPECT_EQ(c.l1d.write_policy, "local_write_back");
  EXPECT_EQ(c.l1d.write_allocate, "no_allocate");
  EXPECT_EQ(c.l1d.mshr_entries, 128u);
  EXPECT_EQ(c.l1d.mshr_merge, 8u);
  EXPECT_EQ(c.l1d.miss_queue, 8u);  // A:128:8,8
  EXPECT_EQ(c.l1d.latency, 35u);
  // Sectored S:32:128:24: 96 KB per slice, 32 B sectors, write-back, (lazy) write allocate.
  EXPECT_EQ(c.l2.cache.size, 32u * 128 * 24);
  EXPECT_EQ(c.l2.cache.assoc, 24u);
  EXPECT_EQ(c.l2.cache.sector, 32u);
  EXPECT_EQ(c.l2.cache.write_policy, "write_back");
  EXPECT_EQ(c.l2.cache.write_allocate, "lazy_fetch_on_read");
  EXPECT_EQ(c.l2.cache.mshr_entries, 192u);
  EXPECT_EQ(c.l2.cache.mshr_merge, 4u);
  EXPECT_EQ(c.l2.cache.latency, 120u);
  EXPECT_EQ(c.l2.partitions, 6u);
  EXPECT_EQ(c.l2.slices_per_partition, 2u);
  EXPECT_EQ(c.icache.size, 4u * 128 * 4);
  EXPECT_EQ(c.constcache.size, 64u * 64 * 2);
  EXPECT_EQ(c.constcache.line, 64u);
}

TEST(GpgpusimImport, FullyAssociativeWhenOneSet) {
  std::string text = "-gpgpu_cache:dl1 S:1:128:512,L:L:m:N:L,A:256:8,16:0,32\n";
  GpuConfig c = import_text(text, nullptr);
  EXPECT_EQ(c.l1d.size, 64u * 1024);
  EXPECT_EQ(c.l1d.assoc, 0u);
  EXPECT_EQ(c.l1d.sector, 32u);
  EXPECT_EQ(c.l1d.miss_queue, 16u);  // ...,A:256:8,16:0,32: the miss queue before the FIFO flag
  EXPECT_THROW(import_text("-gpgpu_cache:dl1 S:1:128:512,L:L:m:N:L,A:256:8,0:0,32\n", nullptr), Error);
}

TEST(GpgpusimImport, DramTimingInCoreCycles) {
  GpuConfig c = import_text(kSample, nullptr);
  const double f = 700.0 / 924.0;  // DRAM command cycles -> core cycles
  EXPECT_EQ(c.dram.banks, 16u);
  EXPECT_EQ(c.dram.tRCD, uint32_t(std::lround(12 * f)));
  EXPECT_EQ(c.dram.tRP, uint32_t(std::lround(12 * f)));
  EXPECT_EQ(c.dram.tCL, uint32_t(std::lround(12 * f)));
  EXPECT_EQ(c.dram.tRAS, uint32_t(std::lround(28 * f)));
  EXPECT_EQ(c.dram.tWR, uint32_t(std::lround(12 * f)));
  EXPECT_EQ(c.dram.tCCD, uint32_t(std::floor(2 * f)));
  // 4 B x 2 chips x QDR x 924 / 700 bytes per core cycle per channel.
  EXPECT_NEAR(c.dram.bytes_per_cycle, 4.0 * 2 * 4 * 924 / 700, 1e-4);
  EXPECT_EQ(c.dram.queue, 64u);
  EXPECT_EQ(c.dram.scheduler, "frfcfs");
  EXPECT_EQ(c.dram.latency, 100u);
  EXPECT_EQ(c.dram.row_bytes, 1u << 12);  // 6 C + 6 S bits
  EXPECT_EQ(c.l2.interleave, 256u);       // dramid@8
  EXPECT_EQ(c.dram.tWL, uint32_t(std::lround(4 * f)));
  EXPECT_EQ(c.dram.tRRD, uint32_t(std::lround(6 * f)));
  EXPECT_EQ(c.dram.tRC, uint32_t(std::lround(40 * f)));
  EXPECT_EQ(c.dram.tCDLR, uint32_t(std::lround(5 * f)));
  EXPECT_EQ(c.dram.tRTPL, uint32_t(std::lround(2 * f)));
  EXPECT_EQ(c.dram.bank_groups, 4u);
  EXPECT_NEAR(c.dram.tCCDL, 3 * f, 1e-4);  // not rounded: it binds below the bus rate
  EXPECT_NEAR(c.dram.command_rate, 924.0 / 700.0, 1e-4);
  EXPECT_FALSE(c.dram.dual_command_bus);  // GPGPU-Sim's default: one command bus
  EXPECT_EQ(c.dram.bank_hash, "linear");
}

// SM7_TITANV's memory options: HBM's two command buses, the bank XOR hash, bank groups by high
// bits, and the unified L1/shared SRAM with its carve-outs.
TEST(GpgpusimImport, TitanVMemoryOptions) {
  std::vector<std::string> nu;
  GpuConfig c = import_text(R"(-gpgpu_clock_domains 1200.0:1200.0:1200.0:850.0
-dram_dual_bus_interface 1
-dram_bnk_indexing_policy 1
-dram_bnkgrp_indexing_policy 0
-dram_seperate_write_queue_enable 1
-dram_write_queue_size 128:108:32
-gpgpu_shmem_size 65536
-gpgpu_shmem_sizeDefault 98304
-gpgpu_adaptive_cache_config 1
-gpgpu_shmem_option 0,8,16,32,64,96
-gpgpu_unified_l1d_size 128
-gpgpu_cache:dl1  S:4:128:64,L:T:m:L:L,A:512:8,16:0,32
-gpgpu_l1_cache_write_ratio 25
-gpgpu_dram_return_queue_size 192
)",
                            &nu);
  EXPECT_TRUE(nu.empty()) << nu.front();
  EXPECT_TRUE(c.dram.dual_command_bus);
  EXPECT_NEAR(c.dram.command_rate, 850.0 / 1200.0, 1e-4);
  EXPECT_EQ(c.dram.bank_hash, "xor");
  EXPECT_EQ(c.dram.bank_group_select, "high");
  EXPECT_EQ(c.dram.write_queue, 128u);
  EXPECT_EQ(c.dram.write_drain_start, 108u);
  EXPECT_EQ(c.dram.write_drain_stop, 32u);
  EXPECT_EQ(c.core.shared_mem, 98304u);  // every launch copies the default size over the size
  EXPECT_EQ(c.core.unified_l1_shared, 128u * 1024);
  EXPECT_EQ(c.core.shared_carveouts, "0,8,16,32,64,96");
  EXPECT_EQ(c.l1d.size, 32u * 1024);
  EXPECT_EQ(c.l1d.write_ratio, 25u);
  EXPECT_EQ(c.dram.return_queue, 192u);
  // Without the sizes the carve-out cannot be computed.
  EXPECT_NE(located_message("-gpgpu_adaptive_cache_config 1\n").find("-gpgpu_unified_l1d_size"), std::string::npos);
  import_text("-dram_bnk_indexing_policy 2\n", &nu);
  EXPECT_TRUE(has(nu, "-dram_bnk_indexing_policy 2"));
}

TEST(GpgpusimImport, ListsWhatItDoesNotUnderstand) {
  std::vector<std::string> nu;
  import_text(kSample, &nu);
  EXPECT_TRUE(has(nu, "-my_made_up_option"));
  EXPECT_FALSE(has(nu, "-gpgpu_coalesce_arch"));  // Fermi coalescing with an unsectored L1D
  EXPECT_TRUE(has(nu, "-gpgpu_tex_cache:l1"));
  EXPECT_TRUE(has(nu, "-gpgpu_scheduler gto"));
  for (const char* k : {"RRD", "RC", "WL", "CDLR", "nbkgrp", "CCDL", "RTPL"})
    EXPECT_FALSE(has(nu, std::string("-gpgpu_dram_timing_opt ") + k)) << k;  // all modelled
  // Mapped options and options without timing effect are not listed.
  for (const char* k : {"-gpgpu_n_clusters", "-gpgpu_cache:dl1", "-gpgpu_dram_buswidth", "-gpgpu_ptx_sim_mode",
                        "-gpgpu_runtime_stat", "-gpgpu_dram_burst_length", "-gpgpu_pipeline_widths"})
    EXPECT_FALSE(has(nu, k)) << k;
}

// Options whose values describe what warpsim does anyway pass silently; other values are listed.
TEST(GpgpusimImport, EquivalentOptionsPassOnlyWithTheModelsValues) {
  std::vector<std::string> nu;
  import_text(R"(-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32
-gpgpu_coalesce_arch 70
-gpgpu_shmem_limited_broadcast 0
-gpgpu_shmem_warp_parts 1
-icnt_subnets 2
-gpgpu_dual_issue_diff_exec_units 1
-gpgpu_clock_gated_lanes 1
-gpgpu_max_concurrent_kernel 128
-gpgpu_tensor_core_avail 1
-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS
-gpgpu_mem_address_mask 1
)",
              &nu);
  EXPECT_TRUE(nu.empty()) << nu.front();
  import_text(R"(-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32
-gpgpu_coalesce_arch 20
-gpgpu_shmem_limited_broadcast 1
-gpgpu_shmem_warp_parts 2
-icnt_subnets 1
-gpgpu_mem_address_mask 1
-gpgpu_cache:dl1PrefL1 S:4:128:96,L:T:m:L:L,A:512:8,16:0,32
)",
              &nu);
  for (const char* k : {"-gpgpu_coalesce_arch 20", "-gpgpu_shmem_limited_broadcast 1", "-gpgpu_shmem_warp_parts 2",
                        "-icnt_subnets 1", "-gpgpu_mem_address_mask", "-gpgpu_cache:dl1PrefL1"})
    EXPECT_TRUE(has(nu, k)) << k;
}

TEST(GpgpusimImport, SubCoreCountsPerScheduler) {
  std::string text =
      "-gpgpu_num_sched_per_core 4\n-gpgpu_sub_core_model 1\n-gpgpu_num_sp_units 4\n"
      "-gpgpu_num_sfu_units 4\n-gpgpu_num_int_units 4\n-gpgpu_num_dp_units 8\n"
      "-gpgpu_memory_partition_indexing 2\n";
  GpuConfig c = import_text(text, nullptr);
  EXPECT_TRUE(c.core.subcore);
  EXPECT_EQ(c.core.schedulers, 4u);
  EXPECT_EQ(c.units[int(Unit::SP)].count, 1u);
  EXPECT_EQ(c.units[int(Unit::DP)].count, 2u);
  EXPECT_EQ(c.core.sfu_issue_per_sm, 0u);  // each scheduler has its own SFU
  // Issue_Prio rotates in sub-core mode too: the order numbers the instructions, and the LD/ST
  // unit takes the oldest.
  EXPECT_TRUE(c.core.rotate_issue_priority);
  EXPECT_EQ(c.l2.hash, "ipoly");
}

// The options behind the fidelity mechanisms of TITAN V / RTX 2060 (docs/fidelity.md).
TEST(GpgpusimImport, FetchLaunchBanksAndHashing) {
  std::vector<std::string> nu;
  GpuConfig c = import_text(R"(-gpgpu_n_mem 24
-gpgpu_n_sub_partition_per_mchannel 2
-gpgpu_kernel_launch_latency 5000
-gpgpu_TB_launch_latency 7
-gpgpu_inst_fetch_throughput 4
-gpgpu_perfect_inst_const_cache 1
-gpgpu_l1_banks 4
-gpgpu_l1_banks_byte_interleaving 64
-gpgpu_l1_banks_hashing_function 0
-gpgpu_memory_partition_indexing 2
-gpgpu_dram_buswidth 16
-gpgpu_dram_burst_length 2
-gpgpu_n_mem_per_ctrlr 1
-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS
)",
                            &nu);
  EXPECT_TRUE(nu.empty()) << nu.front();
  EXPECT_EQ(c.core.kernel_launch_latency, 5000u);
  EXPECT_EQ(c.core.cta_dispatch_latency, 7u);
  EXPECT_EQ(c.core.fetch_per_cycle, 4u);
  EXPECT_TRUE(c.icache.perfect);
  EXPECT_TRUE(c.constcache.perfect);
  EXPECT_EQ(c.l1d.banks, 4u);
  EXPECT_EQ(c.l1d.ports, 4u);
  EXPECT_EQ(c.l1d.bank_interleave, 64u);
  EXPECT_EQ(c.l2.hash, "ipoly");
  EXPECT_EQ(c.dram.atom, 32u);
  EXPECT_EQ(c.l2.slice_select, "line");  // lowest B bit is address bit 7, below the channel digit
  std::vector<std::string> nu2;
  import_text("-gpgpu_l1_banks_hashing_function 1\n-gpgpu_memory_partition_indexing 3\n", &nu2);
  EXPECT_TRUE(has(nu2, "-gpgpu_l1_banks_hashing_function"));
  EXPECT_TRUE(has(nu2, "-gpgpu_memory_partition_indexing 3"));
  std::vector<std::string> nu3;
  EXPECT_EQ(import_text("-gpgpu_memory_partition_indexing 4\n", &nu3).l2.hash, "random");  // SM6_TITANX
  EXPECT_TRUE(nu3.empty());
  // Both of GPGPU-Sim's crossbars are input-queued.
  std::vector<std::string> nu4;
  EXPECT_FALSE(GpuConfig{}.icnt.input_queued);
  EXPECT_TRUE(import_text("-network_mode 1\n", &nu4).icnt.input_queued);
  EXPECT_TRUE(import_text("-network_mode 2\n-icnt_arbiter_algo 1\n", &nu4).icnt.input_queued);
  // The local crossbar's latency; booksim's stays the default.
  EXPECT_EQ(import_text("-network_mode 2\n", &nu4).icnt.latency, 3u);
  EXPECT_EQ(import_text("-network_mode 1\n", &nu4).icnt.latency, GpuConfig{}.icnt.latency);
  EXPECT_EQ(nu4.size(), 2u);  // booksim without its network file, twice
  EXPECT_TRUE(has(nu4, "-inter_config_file"));
  nu4.clear();
  import_text("-network_mode 3\n", &nu4);
  EXPECT_TRUE(has(nu4, "-network_mode 3"));
  // A request for a full slice waits in GPGPU-Sim's network: back-pressure per destination.
  EXPECT_FALSE(GpuConfig{}.icnt.slice_back_pressure);
  EXPECT_TRUE(import_text("-gpgpu_n_mem 6\n", &nu4).icnt.slice_back_pressure);
  // The local crossbar queues requests at their cluster's input and grants its outputs in turn,
  // with its buffer limits; booksim (one virtual channel) queues them at the SM's input too, its
  // buffers counted in flits (without its network file: 9 injection + 64 input, 64 ejection).
  std::vector<std::string> nu5;
  GpuConfig local = import_text("-network_mode 2\n-icnt_in_buffer_limit 256\n-icnt_out_buffer_limit 128\n", &nu5);
  EXPECT_TRUE(nu5.empty()) << nu5.front();
  EXPECT_TRUE(local.icnt.request_input_queued);
  EXPECT_TRUE(local.icnt.sequential_grants);
  EXPECT_EQ(local.icnt.sm_input_queue, 256u);
  EXPECT_EQ(local.icnt.slice_output_queue, 128u);
  GpuConfig booksim = import_text("-network_mode 1\n", &nu5);
  EXPECT_TRUE(booksim.icnt.request_input_queued);
  EXPECT_TRUE(booksim.icnt.sm_input_queue_flits);
  EXPECT_FALSE(local.icnt.sm_input_queue_flits);
  EXPECT_FALSE(booksim.icnt.sequential_grants);
  EXPECT_EQ(booksim.icnt.sm_input_queue, 73u);
  EXPECT_EQ(booksim.icnt.slice_output_queue, 64u);
  EXPECT_TRUE(has(nu5, "-inter_config_file"));
  import_text("-network_mode 1\n-icnt_in_buffer_limit 64\n", &nu5);
  EXPECT_TRUE(has(nu5, "-icnt_in_buffer_limit"));  // a booksim buffer: not modelled
  // A cluster's cores share its crossbar port.
  GpuConfig titanv = import_text("-gpgpu_n_clusters 40\n-gpgpu_n_cores_per_cluster 2\n", nullptr);
  EXPECT_EQ(titanv.core.num_sms, 80u);
  EXPECT_EQ(titanv.core.sms_per_cluster, 2u);
  // A cluster takes one CTA per cycle (issue_block2core).
  EXPECT_FALSE(GpuConfig{}.core.cta_dispatch_per_cluster);
  EXPECT_TRUE(titanv.core.cta_dispatch_per_cluster);
  // Accesses past the L1 are sector packets on every coalescing arch.
  EXPECT_EQ(GpuConfig{}.icnt.request_packets, "line");
  EXPECT_EQ(import_text("-gpgpu_coalesce_arch 20\n", nullptr).icnt.request_packets, "sector_uncached");
  // A store crosses as whole 32-byte chunks, whatever the arch.
  EXPECT_FALSE(GpuConfig{}.icnt.write_data_sectors);
  EXPECT_TRUE(import_text("-gpgpu_n_clusters 15\n", nullptr).icnt.write_data_sectors);
  // Fermi/Kepler keep 128-byte store segments whole; with a sectored L2 an upper-half 64-byte
  // write lands on the next line. From Maxwell on every access is a 32-byte sector.
  auto fermi_with_l2 = [](const std::string& dl2) {
    return import_text(
        "-gpgpu_coalesce_arch 20\n-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8\n-gpgpu_cache:dl2 " + dl2 + "\n",
        nullptr);
  };
  const GpuConfig fermi = fermi_with_l2("S:64:128:8,L:B:m:L:L,A:256:4,4:0,32");
  EXPECT_TRUE(fermi.icnt.store_segments);
  EXPECT_TRUE(fermi.l2.upper_half_write_next_line);
  const GpuConfig unsectored_l2 = fermi_with_l2("N:64:128:8,L:B:m:L:L,A:256:4,4:0,32");
  EXPECT_TRUE(unsectored_l2.icnt.store_segments);
  EXPECT_FALSE(unsectored_l2.l2.upper_half_write_next_line);
  const GpuConfig volta =
      import_text("-gpgpu_coalesce_arch 70\n-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32\n", nullptr);
  EXPECT_FALSE(volta.icnt.store_segments);
  EXPECT_FALSE(volta.l2.upper_half_write_next_line);
  // From Maxwell on every access through the L1 is a 32-byte sector of its own; before, a line.
  EXPECT_FALSE(GpuConfig{}.core.sector_accesses);
  EXPECT_TRUE(volta.core.sector_accesses);
  EXPECT_FALSE(fermi.core.sector_accesses);
  // Local memory: GPGPU-Sim's default CTA-slot mapping unless -gpgpu_local_mem_map 0.
  EXPECT_EQ(GpuConfig{}.core.local_layout, "thread");
  EXPECT_EQ(import_text("-gpgpu_n_clusters 15\n", nullptr).core.local_layout, "cta");
  EXPECT_EQ(import_text("-gpgpu_local_mem_map 0\n", nullptr).core.local_layout, "thread");
  // Every coalescer's queue is served from the back: highest address first.
  EXPECT_EQ(GpuConfig{}.core.access_order, "lane");
  EXPECT_EQ(import_text("-gpgpu_n_clusters 15\n", nullptr).core.access_order, "descending");
  // The L1 flush is decided after the cycle's CTA issue, for whole clusters.
  EXPECT_FALSE(GpuConfig{}.core.l1_flush_by_cluster);
  EXPECT_TRUE(import_text("-gpgpu_flush_l1_cache 1\n", nullptr).core.l1_flush_by_cluster);
  EXPECT_FALSE(GpuConfig{}.icnt.store_segments);
  EXPECT_FALSE(GpuConfig{}.l2.upper_half_write_next_line);
}

TEST(GpgpusimImport, AppliesOnTopOfAPreset) {
  GpuConfig c = load_preset("titanv");
  GpuConfig ref = c;
  import_gpgpusim_text(c, "-gpgpu_n_clusters 20\n-gpgpu_n_cores_per_cluster 1\n", "x.config", nullptr);
  EXPECT_EQ(c.core.num_sms, 20u);
  EXPECT_EQ(c.core.sms_per_cluster, 1u);  // the preset's 2, replaced by the file's
  ref.core.num_sms = 20;
  ref.core.sms_per_cluster = 1;
  EXPECT_TRUE(same_config(c, ref)) << differing_keys(c, ref);
}

// GPGPU-Sim models no DRAM refresh: DRAM timing imported onto a base with refresh (h100) turns
// it off, while options that leave the DRAM alone keep the base's.
TEST(GpgpusimImport, DramTimingImportsNoRefresh) {
  GpuConfig c = load_preset("h100");
  ASSERT_GT(c.dram.tREFI, 0u);
  import_gpgpusim_text(c, "-gpgpu_n_clusters 20\n", "x.config", nullptr);
  EXPECT_GT(c.dram.tREFI, 0u);
  import_gpgpusim_text(
      c,
      "-gpgpu_dram_timing_opt "
      "\"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0\"\n",
      "x.config", nullptr);
  EXPECT_EQ(c.dram.tREFI, 0u);
}

TEST(GpgpusimImport, MatchesTheGtx480PresetTiming) {
  // The preset's DRAM figures were converted from GPGPU-Sim's SM2_GTX480 file; importing
  // those options must give the same numbers.
  GpuConfig preset = load_preset("gtx480");
  GpuConfig c = import_text(kSample, nullptr);
  EXPECT_EQ(c.dram.tCL, preset.dram.tCL);
  EXPECT_EQ(c.dram.tRCD, preset.dram.tRCD);
  EXPECT_EQ(c.dram.tRP, preset.dram.tRP);
  EXPECT_EQ(c.dram.tRAS, preset.dram.tRAS);
  EXPECT_EQ(c.dram.tCCD, preset.dram.tCCD);
  EXPECT_EQ(c.dram.tWR, preset.dram.tWR);
  EXPECT_EQ(c.dram.row_bytes, preset.dram.row_bytes);
  EXPECT_DOUBLE_EQ(c.dram.bytes_per_cycle, preset.dram.bytes_per_cycle);
  EXPECT_EQ(c.dram.tWL, preset.dram.tWL);
  EXPECT_EQ(c.dram.tRRD, preset.dram.tRRD);
  EXPECT_EQ(c.dram.tRC, preset.dram.tRC);
  EXPECT_EQ(c.dram.tCDLR, preset.dram.tCDLR);
  EXPECT_EQ(c.dram.tRTPL, preset.dram.tRTPL);
  EXPECT_EQ(c.dram.bank_groups, preset.dram.bank_groups);
  EXPECT_NEAR(c.dram.tCCDL, preset.dram.tCCDL, 1e-4);
  EXPECT_NEAR(c.dram.command_rate, preset.dram.command_rate, 1e-4);
  EXPECT_EQ(c.dram.dual_command_bus, preset.dram.dual_command_bus);
}

TEST(GpgpusimImport, MalformedValuesAreLocated) {
  std::string msg = located_message("-gpgpu_n_mem 6\n-gpgpu_cache:dl1 32:128\n");
  EXPECT_NE(msg.find("sample.config:2:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("-gpgpu_cache:dl1"), std::string::npos) << msg;
  msg = located_message("-gpgpu_cache:dl2 Q:32:128:8,L:B:m:L:P,A:192:4,32\n");
  EXPECT_NE(msg.find("not N or S"), std::string::npos) << msg;
  msg = located_message("-gpgpu_cache:dl2 N:32:128:8,L:Z:m:L:P,A:192:4,32\n");
  EXPECT_NE(msg.find("write policy"), std::string::npos) << msg;
  msg = located_message("\n\n-gpgpu_n_clusters lots\n");
  EXPECT_NE(msg.find("sample.config:3:"), std::string::npos) << msg;
  msg = located_message("-gpgpu_dram_timing_opt \"nbk=16:CL\"\n");
  EXPECT_NE(msg.find("name=value"), std::string::npos) << msg;
  msg = located_message("-gpgpu_clock_domains 700:700\n");
  EXPECT_NE(msg.find("-gpgpu_clock_domains"), std::string::npos) << msg;
  msg = located_message("-gpgpu_n_mem\n-gpgpu_n_clusters 4\n");
  EXPECT_NE(msg.find("has no value"), std::string::npos) << msg;
  msg = located_message("-gpgpu_num_sched_per_core 0\n");
  EXPECT_NE(msg.find("at least one scheduler"), std::string::npos) << msg;
  msg = located_message("gpgpu_n_mem 4\n");
  EXPECT_NE(msg.find("expected an option"), std::string::npos) << msg;
  msg = located_message("-gpgpu_dram_timing_opt \"nbk=16\n");
  EXPECT_NE(msg.find("unterminated"), std::string::npos) << msg;
}

TEST(GpgpusimImport, InvalidResultNamesTheKey) {
  try {
    import_text("-gpgpu_cache:dl1 N:3:96:1,L:L:m:N:L,A:8:8,8\n", nullptr);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("l1d.line"), std::string::npos) << e.what();
  }
}

// -network_mode 1: the booksim network file beside the config gives the buffer sizes.
TEST(GpgpusimImport, ReadsTheBooksimBuffersFromTheNetworkFile) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("warpsim_booksim_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "gpgpusim.config") << "-network_mode 1\n-inter_config_file net.icnt\n";
  std::ofstream(dir / "net.icnt") << "// a network\nvc_buf_size = 32;\ninput_buffer_size = 100; // flits\n"
                                     "ejection_buffer_size = 16;\ntopology = fly;\n";
  std::vector<std::string> nu;
  GpuConfig c = import_gpgpusim_config((dir / "gpgpusim.config").string(), &nu);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(c.icnt.sm_input_queue, 132u);
  EXPECT_EQ(c.icnt.slice_output_queue, 16u);
  EXPECT_FALSE(has(nu, "-inter_config_file"));
}

TEST(GpgpusimImport, ReadsFiles) {
  std::string path =
      (std::filesystem::temp_directory_path() / ("warpsim_gpgpusim_" + std::to_string(::getpid()) + ".config"))
          .string();
  std::ofstream(path) << kSample;
  std::vector<std::string> nu;
  GpuConfig c = import_gpgpusim_config(path, &nu);
  std::filesystem::remove(path);
  EXPECT_EQ(c.core.num_sms, 15u);
  EXPECT_FALSE(nu.empty());
  EXPECT_THROW(import_gpgpusim_config("/nonexistent/gpgpusim.config", nullptr), Error);
}

TEST(GpgpusimImport, OperandCollector) {
  std::vector<std::string> nu;
  GpuConfig titanv = import_text(R"(-gpgpu_enable_specialized_operand_collector 0
-gpgpu_operand_collector_num_units_gen 8
-gpgpu_operand_collector_num_in_ports_gen 8
-gpgpu_operand_collector_num_out_ports_gen 8
-gpgpu_num_reg_banks 8
-gpgpu_reg_file_port_throughput 2
)",
                                 &nu);
  EXPECT_TRUE(nu.empty()) << nu.front();
  EXPECT_TRUE(titanv.oc.enabled);
  EXPECT_TRUE(titanv.oc.queued_dispatch);  // ID_OC -> collector -> OC_EX -> unit
  EXPECT_EQ(titanv.oc.collectors, 8u);
  EXPECT_EQ(titanv.oc.collectors_sp, 0u);  // specialized sets off: everything uses the general set
  EXPECT_EQ(titanv.oc.collectors_mem, 0u);
  EXPECT_EQ(titanv.oc.banks, 8u);
  EXPECT_EQ(titanv.oc.port_throughput, 2u);
  // GTX480 sets only the SP and SFU sets and the banks; the rest are GPGPU-Sim's defaults.
  GpuConfig gtx480 = import_text(
      "-gpgpu_operand_collector_num_units_sp 6\n-gpgpu_operand_collector_num_units_sfu 8\n"
      "-gpgpu_num_reg_banks 16\n",
      nullptr);
  EXPECT_EQ(gtx480.oc.collectors_sp, 6u);
  EXPECT_EQ(gtx480.oc.collectors_sfu, 8u);
  EXPECT_EQ(gtx480.oc.collectors_mem, 2u);
  EXPECT_EQ(gtx480.oc.collectors, 0u);
  EXPECT_EQ(gtx480.oc.port_throughput, 1u);
  GpuConfig preset = load_preset("gtx480");
  EXPECT_EQ(gtx480.oc.banks, preset.oc.banks);
  EXPECT_EQ(gtx480.oc.collectors_sp, preset.oc.collectors_sp);
  EXPECT_EQ(gtx480.oc.collectors_mem, preset.oc.collectors_mem);
  EXPECT_EQ(gtx480.oc.writeback_latency, preset.oc.writeback_latency);
}

// Memory instructions issued while the LD/ST unit refuses one: its dispatch register, OC_EX_MEM,
// the MEM collector units and ID_OC_MEM (GTX480: 1 + 1 + 2 + 1, as in the preset). In sub-core
// mode each scheduler has a slot of ID_OC_MEM and OC_EX_MEM and a quarter of the general
// collectors, which its waiting memory instructions hold: 1 + 2 + 1 each, 4 x 4 + 1 in all, as in
// the titanv preset.
TEST(GpgpusimImport, LdstQueueFromTheMemoryPipeline) {
  const GpuConfig gtx480 =
      import_text("-gpgpu_pipeline_widths 2,0,0,1,1,2,0,0,1,1,2\n-gpgpu_operand_collector_num_units_sp 6\n", nullptr);
  EXPECT_EQ(gtx480.core.ldst_queue, 5u);
  EXPECT_EQ(gtx480.core.ldst_queue, load_preset("gtx480").core.ldst_queue);
  const GpuConfig wide =
      import_text("-gpgpu_pipeline_widths 2,0,0,1,2,2,0,0,1,3,2\n-gpgpu_operand_collector_num_units_mem 4\n", nullptr);
  EXPECT_EQ(wide.core.ldst_queue, 2u + 4u + 3u + 1u);
  const GpuConfig subcore = import_text(
      "-gpgpu_num_sched_per_core 4\n-gpgpu_sub_core_model 1\n-gpgpu_pipeline_widths 4,4,4,4,4,4,4,4,4,4,8,4,4\n"
      "-gpgpu_enable_specialized_operand_collector 0\n-gpgpu_operand_collector_num_units_gen 8\n",
      nullptr);
  EXPECT_EQ(subcore.core.ldst_queue_per_scheduler, 4u);
  EXPECT_EQ(subcore.core.ldst_queue, 17u);
  EXPECT_EQ(subcore.core.mem_issue_per_sm, 4u);
  EXPECT_TRUE(subcore.oc.mem_holds_collectors);
  const GpuConfig titanv = load_preset("titanv");
  EXPECT_EQ(subcore.core.ldst_queue, titanv.core.ldst_queue);
  EXPECT_EQ(subcore.core.ldst_queue_per_scheduler, titanv.core.ldst_queue_per_scheduler);
  EXPECT_EQ(subcore.core.mem_issue_per_sm, titanv.core.mem_issue_per_sm);
  EXPECT_EQ(subcore.oc.mem_holds_collectors, titanv.oc.mem_holds_collectors);
  EXPECT_FALSE(gtx480.oc.mem_holds_collectors);  // its MEM collectors are bounded by ldst_queue
}

TEST(GpgpusimImport, CopiesFillTheL2) {
  EXPECT_TRUE(import_text("-gpgpu_perf_sim_memcpy 1\n", nullptr).l2.fill_on_copy);
  EXPECT_FALSE(import_text("-gpgpu_perf_sim_memcpy 0\n", nullptr).l2.fill_on_copy);
  EXPECT_TRUE(load_preset("titanv").l2.fill_on_copy);
}

// A sectored L2 ('S' cache string with 32-byte sectors in 128-byte lines) gets one request per
// sector, and the two halves of a 64-byte fetch share the first sector's MSHR entry; a
// line-granular one ('N') one request per request.
TEST(GpgpusimImport, SectoredL2LooksUpSectors) {
  const GpuConfig s = import_text("-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32\n", nullptr);
  EXPECT_TRUE(s.l2.sector_lookups);
  EXPECT_TRUE(s.l2.half_line_shared_mshr);
  const GpuConfig n = import_text("-gpgpu_cache:dl2 N:32:128:24,L:B:m:L:P,A:192:4,32:0,32\n", nullptr);
  EXPECT_FALSE(n.l2.sector_lookups);
  EXPECT_FALSE(n.l2.half_line_shared_mshr);
  EXPECT_TRUE(load_preset("gtx480").l2.sector_lookups);
  EXPECT_TRUE(load_preset("gtx480").l2.half_line_shared_mshr);
  EXPECT_FALSE(load_preset("h100").l2.half_line_shared_mshr);
}

namespace {

// -gpgpu_flush_l2_cache empties the L2 between kernels: l2.flush_at_launch.
TEST(GpgpusimImport, FlushL2CacheMapsToFlushAtLaunch) {
  GpuConfig off, on;
  import_gpgpusim_text(off, "-gpgpu_flush_l2_cache 0\n", "a.config", nullptr);
  import_gpgpusim_text(on, "-gpgpu_flush_l2_cache 1\n", "b.config", nullptr);
  EXPECT_FALSE(off.l2.flush_at_launch);
  EXPECT_TRUE(on.l2.flush_at_launch);
}

}  // namespace
