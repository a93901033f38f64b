// Runs a launch description (runtime/launch_spec.h) through the PTX runtime: the module, the
// generated buffers, the launch and the dump file.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_file.h"
#include "core/rng.h"
#include "runtime/launch_spec.h"

namespace warpsim {

LaunchOutcome run_launch(Runtime& rt, const std::string& ptx_text, const std::string& ptx_name, const LaunchSpec& spec,
                         uint64_t seed) {
  if (!spec.has_grid || !spec.has_block)
    throw Error(fmt::format(
        "{}: the launch needs a grid and a block (--grid/--block or 'grid'/'block' in the launch description)",
        ptx_name));
  ModuleHandle m = rt.load_module(ptx_text, ptx_name);
  LaunchOutcome out;
  out.kernel = spec.kernel;
  if (out.kernel.empty()) {
    auto names = rt.kernel_names(m);
    if (names.size() != 1) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw Error(fmt::format("{}: {} kernels ({}); name one with --kernel or 'kernel'", ptx_name, names.size(), list));
    }
    out.kernel = names[0];
  }
  KernelHandle k = rt.get_kernel(m, out.kernel);
  if (spec.instruction_limit) rt.set_instruction_limit(spec.instruction_limit);
  if (spec.memcheck) rt.set_memcheck(true);
  const auto params = rt.kernel_params(k);
  if (params.size() != spec.args.size())
    throw Error(fmt::format("launch of '{}': kernel takes {} arguments, {} given", out.kernel, params.size(),
                            spec.args.size()));
  for (size_t i = 0; i < params.size(); ++i) {
    const LaunchArg& a = spec.args[i];
    uint32_t bytes = a.kind == LaunchArg::Buffer ? 8 : arg_type_bytes(a.type);
    if (bytes != params[i].second)
      throw Error(fmt::format("launch of '{}': argument {} ('{}') has {} bytes, parameter '{}' has {}", out.kernel, i,
                              a.text, bytes, params[i].first, params[i].second));
  }
  KernelArgs args;
  out.buffers.assign(spec.args.size(), 0);
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const LaunchArg& a = spec.args[i];
    if (a.kind == LaunchArg::Scalar) {
      switch (arg_type_bytes(a.type)) {
        case 1:
          args.add(uint8_t(a.bits));
          break;
        case 2:
          args.add(uint16_t(a.bits));
          break;
        case 4:
          args.add(uint32_t(a.bits));
          break;
        default:
          args.add(a.bits);
          break;
      }
      continue;
    }
    const uint32_t es = arg_type_bytes(a.type);
    DevPtr p = rt.malloc(a.count * es);
    out.buffers[i] = p;
    args.add(p);
    if (a.fill == LaunchArg::Zero) continue;  // device memory reads as zero until written
    if (a.count * es > (uint64_t(4) << 30))
      throw Error(
          fmt::format("argument {} ('{}'): generated fills are limited to 4 GiB (fill=zero costs nothing)", i, a.text));
    // Fill in chunks so that large buffers need little host memory.
    Rng rng(a.has_seed ? a.seed : seed + i);
    const uint64_t chunk = 1 << 16;
    std::vector<uint8_t> host(size_t(std::min(a.count, chunk)) * es);
    const uint64_t konst = encode_value(a.a, a.type);
    for (uint64_t base = 0; base < a.count; base += chunk) {
      uint64_t n = std::min(chunk, a.count - base);
      for (uint64_t j = 0; j < n; ++j) {
        uint64_t bits;
        switch (a.fill) {
          case LaunchArg::Iota:
            bits = encode_value(a.a + double(base + j) * a.b, a.type);
            break;
          case LaunchArg::Const:
            bits = konst;
            break;
          default:
            if (arg_type_is_float(a.type))
              bits = encode_value(a.a + (a.b - a.a) * rng.uniform(), a.type);
            else
              bits = encode_value(std::floor(a.a + (a.b - a.a) * rng.uniform()), a.type);
            break;
        }
        std::memcpy(host.data() + j * es, &bits, es);
      }
      rt.memcpy_h2d(p + base * es, host.data(), n * es);
    }
  }
  rt.launch(k, spec.grid, spec.block, args, spec.shared);
  rt.synchronize();
  if (!spec.dump.empty()) {
    bool any_marked = false;
    for (const auto& a : spec.args) any_marked |= a.kind == LaunchArg::Buffer && a.dump;
    nlohmann::json j;
    j["kernel"] = out.kernel;
    j["grid"] = {spec.grid.x, spec.grid.y, spec.grid.z};
    j["block"] = {spec.block.x, spec.block.y, spec.block.z};
    j["buffers"] = nlohmann::json::array();
    for (size_t i = 0; i < spec.args.size(); ++i) {
      const LaunchArg& a = spec.args[i];
      if (a.kind != LaunchArg::Buffer || (any_marked && !a.dump)) continue;
      const uint32_t es = arg_type_bytes(a.type);
      if (a.count * es > (uint64_t(256) << 20))
        throw Error(fmt::format("dump of argument {} ('{}'): more than 256 MiB", i, a.text));
      std::vector<uint8_t> host(size_t(a.count * es));
      rt.memcpy_d2h(host.data(), out.buffers[i], host.size());
      nlohmann::json vals = nlohmann::json::array();
      for (uint64_t e = 0; e < a.count; ++e) {
        const uint8_t* p = host.data() + e * es;
        if (a.type == ArgType::U64) {
          uint64_t v;
          std::memcpy(&v, p, 8);
          vals.push_back(v);
        } else if (a.type == ArgType::S64) {
          int64_t v;
          std::memcpy(&v, p, 8);
          vals.push_back(v);
        } else if (arg_type_is_float(a.type))
          vals.push_back(decode_value(p, a.type));  // NaN/inf become null
        else
          vals.push_back(int64_t(decode_value(p, a.type)));
      }
      nlohmann::json b;
      b["arg"] = i;
      b["name"] = a.name.empty() ? fmt::format("arg{}", i) : a.name;
      b["type"] = arg_type_name(a.type);
      b["count"] = a.count;
      b["values"] = std::move(vals);
      j["buffers"].push_back(std::move(b));
      ++out.dumped;
    }
    write_json_atomic(spec.dump, j);
  }
  return out;
}

}  // namespace warpsim
