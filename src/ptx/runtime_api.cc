#include <algorithm>
#include <cmath>
#include <exception>
#include <map>

#include "core/error.h"
#include "ptx/decoder.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "ptx/ptx_kernel.h"
#include "ptx/register_allocation.h"
#include "runtime/device_heap.h"
#include "runtime/device_memory.h"
#include "runtime/runtime.h"

namespace warpsim {

namespace {
constexpr uint64_t kGridWorkspaceBytes = 16;
}  // namespace

struct Runtime::Impl {
  struct Module {
    std::string file;
    ptx::Module ast;
    ptx::SymbolMap symbols;
    std::vector<std::string> kernels;
    std::vector<std::shared_ptr<const ptx::Program>> programs;  // null: it could not be decoded
    std::vector<std::exception_ptr> decode_errors;              // why, per kernel
    // The decoded kernel; one the front end could not decode fails here, where it is used, so
    // that the module's other kernels and variables stay usable.
    const ptx::Program& program(uint32_t index) const {
      if (index >= programs.size()) throw Error("invalid kernel handle");
      if (!programs[index]) std::rethrow_exception(decode_errors[index]);
      return *programs[index];
    }
  };
  DeviceMemory memory;
  DeviceHeap heap{memory};
  std::vector<std::unique_ptr<Module>> modules;
  ptx::TextureTable textures;
  ptx::SurfaceTable surfaces;
  uint64_t next_texture = 1;
  uint64_t next_code = 0;  // instruction memory taken by the modules loaded so far
  uint32_t streams = 1;
  uint64_t inst_limit = 50'000'000;
  bool memcheck = false;
  std::map<uint32_t, DevPtr> grid_workspaces;  // cooperative launches: per stream

  Module& module(ModuleHandle m) {
    if (m.id >= modules.size() || !modules[m.id]) throw Error("invalid module handle " + std::to_string(m.id));
    return *modules[m.id];
  }
  const ptx::ModuleSymbol& symbol(ModuleHandle m, const std::string& name) {
    Module& mod = module(m);
    auto it = mod.symbols.find(name);
    if (it == mod.symbols.end()) throw Error(mod.file + ": no .global or .const variable named '" + name + "'");
    return it->second;
  }
};

Runtime::Runtime(LaunchTarget* target) : impl_(std::make_unique<Impl>()), target_(target) {
  if (!target_) throw Error("runtime: a launch target is required");
  impl_->memory.set_limit(target_->device_memory_limit());
}
Runtime::~Runtime() = default;

DevPtr Runtime::malloc(uint64_t bytes) { return impl_->memory.allocate(bytes); }
void Runtime::free(DevPtr p) {
  target_->run_until_idle();
  impl_->memory.free(p);
}
void Runtime::memcpy_h2d(DevPtr dst, const void* src, uint64_t bytes) {
  target_->run_until_idle();
  impl_->memory.write(dst, src, bytes);
  target_->copied(dst, bytes, true);
}
void Runtime::memcpy_d2h(void* dst, DevPtr src, uint64_t bytes) {
  target_->run_until_idle();
  impl_->memory.read(src, dst, bytes);
  target_->copied(src, bytes, false);
}
void Runtime::memcpy_d2d(DevPtr dst, DevPtr src, uint64_t bytes) {
  target_->run_until_idle();
  impl_->memory.copy(dst, src, bytes);
}
void Runtime::memset(DevPtr dst, int value, uint64_t bytes) {
  target_->run_until_idle();
  impl_->memory.fill(dst, uint8_t(value), bytes);
}

ModuleHandle Runtime::load_module(const std::string& ptx_text, const std::string& file_name,
                                  const ptx::CompiledRegisters* registers) {
  return load_module(std::vector<PtxObject>{{ptx_text, file_name}}, file_name, registers);
}

ModuleHandle Runtime::load_module(const std::vector<PtxObject>& objects, const std::string& file_name,
                                  const ptx::CompiledRegisters* registers) {
  auto mod = std::make_unique<Impl::Module>();
  mod->file = file_name;
  if (objects.size() == 1) {
    mod->ast = ptx::parse_module(objects[0].text, objects[0].file);
  } else {
    std::vector<ptx::Module> parsed;
    for (const PtxObject& o : objects) parsed.push_back(ptx::parse_module(o.text, o.file));
    mod->ast = ptx::link_modules(std::move(parsed), file_name);
  }
  mod->ast.code_base = impl_->next_code;
  impl_->next_code += ptx::module_code_bytes(mod->ast);
  // Place module variables in device memory.
  std::vector<DevPtr> placed;
  try {
    for (const auto& v : mod->ast.globals) {
      if (v.space != ptx::Space::Global && v.space != ptx::Space::Const) continue;
      if (mod->symbols.count(v.name))
        throw LocatedError(file_name, v.loc.line, v.loc.col, "duplicate variable '" + v.name + "'");
      uint64_t size = v.size_bytes();
      if (size > (uint64_t(4) << 30))
        throw LocatedError(file_name, v.loc.line, v.loc.col, "variable '" + v.name + "' is larger than 4 GiB");
      DevPtr a = impl_->memory.allocate_static(std::max<uint64_t>(size, 1));
      placed.push_back(a);
      mod->symbols[v.name] = ptx::ModuleSymbol{v.space, a, size};
    }
    for (const auto& v : mod->ast.globals) {
      if (!v.has_init || (v.space != ptx::Space::Global && v.space != ptx::Space::Const)) continue;
      const auto& sym = mod->symbols[v.name];
      int esize = ptx::type_bytes(v.type);
      if (esize == 0) throw LocatedError(file_name, v.loc.line, v.loc.col, "initializer for a variable without size");
      uint64_t n = sym.size / uint64_t(esize);
      if (v.init.size() > n)
        throw LocatedError(file_name, v.loc.line, v.loc.col, "too many initializer values for '" + v.name + "'");
      // Only the initialised prefix is written: the rest of a fresh allocation already reads as
      // zero, and a large variable with a short initialiser costs nothing.
      std::vector<uint8_t> bytes(v.init.size() * size_t(esize), 0);
      for (size_t i = 0; i < v.init.size(); ++i) {
        const auto& e = v.init[i];
        uint64_t bits = e.bits;
        if (!e.sym.empty()) {
          auto it = mod->symbols.find(e.sym);
          if (it != mod->symbols.end()) {
            bits = it->second.addr + e.bits;
          } else if (const ptx::Function* f = mod->ast.find_function(e.sym)) {
            // A function's address (tables of device functions, virtual function tables),
            // the value `mov.u64 %rd, f;` gives: indirect calls go through it.
            bits = ptx::function_address(mod->ast, *f) + e.bits;
          } else {
            throw LocatedError(file_name, v.loc.line, v.loc.col,
                               "initializer refers to unknown symbol '" + e.sym + "'");
          }
        } else if (e.is_float_lit) {
          if (v.type == ptx::Type::F32) {
            float f = float(e.fval);
            std::memcpy(&bits, &f, 4);
          } else if (v.type == ptx::Type::F64) {
            double d = e.fval;
            std::memcpy(&bits, &d, 8);
          } else
            throw LocatedError(file_name, v.loc.line, v.loc.col, "floating-point initializer for an integer variable");
        }
        std::memcpy(bytes.data() + i * size_t(esize), &bits, size_t(esize));
      }
      if (!bytes.empty()) impl_->memory.write(sym.addr, bytes.data(), bytes.size());
    }
    for (const auto& f : mod->ast.functions) {
      if (!f.is_entry || !f.has_body) continue;
      mod->kernels.push_back(f.name);
      try {
        const CoreConfig* core = target_->core_config();
        mod->programs.push_back(ptx::with_compiled_registers(
            ptx::decode_kernel(mod->ast, f.name, mod->symbols, target_ && target_->hoists_global_loads()), registers,
            core ? core->register_target : 0));
        mod->decode_errors.emplace_back();
      } catch (const Error&) {
        mod->programs.push_back(nullptr);
        mod->decode_errors.push_back(std::current_exception());
      }
    }
  } catch (...) {
    for (DevPtr p : placed) impl_->memory.free(p);
    throw;
  }
  impl_->modules.push_back(std::move(mod));
  return ModuleHandle{uint32_t(impl_->modules.size() - 1)};
}

KernelHandle Runtime::get_kernel(ModuleHandle m, const std::string& name) {
  auto& mod = impl_->module(m);
  for (uint32_t i = 0; i < mod.kernels.size(); ++i)
    if (mod.kernels[i] == name) {
      mod.program(i);  // a kernel the front end could not decode says why here
      return KernelHandle{m.id, i};
    }
  std::string known;
  for (const auto& k : mod.kernels) known += (known.empty() ? "" : ", ") + k;
  throw Error(mod.file + ": no kernel named '" + name + "' (kernels: " + known + ")");
}

std::vector<std::string> Runtime::kernel_names(ModuleHandle m) { return impl_->module(m).kernels; }

uint64_t Runtime::module_code_base(ModuleHandle m) { return impl_->module(m).ast.code_base; }

std::vector<std::pair<std::string, uint32_t>> Runtime::kernel_params(KernelHandle k) {
  auto& mod = impl_->module(ModuleHandle{k.module});
  std::vector<std::pair<std::string, uint32_t>> v;
  for (const auto& p : mod.program(k.index).params) v.emplace_back(p.name, p.size);
  return v;
}

CtaDemand Runtime::kernel_demand(KernelHandle k, uint32_t block_threads, uint32_t dynamic_shared) {
  auto& mod = impl_->module(ModuleHandle{k.module});
  return ptx::cta_demand(mod.program(k.index), target_ ? target_->core_config() : nullptr, block_threads,
                         dynamic_shared);
}

DevPtr Runtime::symbol_address(ModuleHandle m, const std::string& name, uint64_t* size) {
  const auto& s = impl_->symbol(m, name);
  if (size) *size = s.size;
  return s.addr;
}

void Runtime::memcpy_to_symbol(ModuleHandle m, const std::string& name, const void* src, uint64_t bytes,
                               uint64_t offset) {
  const auto& s = impl_->symbol(m, name);
  if (offset + bytes > s.size || offset + bytes < offset)
    throw Error("memcpy_to_symbol: " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                " exceed '" + name + "' (" + std::to_string(s.size) + " bytes)");
  // A symbol copy writes memory without the copy engine's L2 fill (GPGPU-Sim 4.2 likewise).
  target_->run_until_idle();
  impl_->memory.write(s.addr + offset, src, bytes);
}

void Runtime::memcpy_from_symbol(void* dst, ModuleHandle m, const std::string& name, uint64_t bytes, uint64_t offset) {
  const auto& s = impl_->symbol(m, name);
  if (offset + bytes > s.size || offset + bytes < offset)
    throw Error("memcpy_from_symbol: " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                " exceed '" + name + "' (" + std::to_string(s.size) + " bytes)");
  target_->run_until_idle();
  impl_->memory.read(s.addr + offset, dst, bytes);
}

uint64_t Runtime::create_texture(const TextureDesc& d) {
  if (d.channels != 1 && d.channels != 2 && d.channels != 4) throw Error("texture: channels must be 1, 2 or 4");
  if (d.channel_bits != 8 && d.channel_bits != 16 && d.channel_bits != 32)
    throw Error("texture: channel_bits must be 8, 16 or 32");
  if (d.width == 0 || d.height == 0) throw Error("texture: width and height must be non-zero");
  uint64_t ebytes = uint64_t(d.channels) * d.channel_bits / 8;
  uint64_t pitch = d.pitch ? d.pitch : d.width * ebytes;
  if (pitch < d.width * ebytes) throw Error("texture: pitch smaller than a row");
  if (d.depth == 0 || d.layers == 0) throw Error("texture: depth and layers must be non-zero");
  if (d.cubemap && d.width != d.height) throw Error("texture: cubemap faces must be square");
  if (d.depth > 1 && (d.layered || d.cubemap)) throw Error("texture: a 3D texture cannot be layered or a cubemap");
  uint64_t slices = uint64_t(d.depth) * d.layers * (d.cubemap ? 6 : 1);
  if (!impl_->memory.is_mapped(d.data, pitch * (d.height * slices - 1) + d.width * ebytes))
    throw Error("texture: data range is not inside a device allocation");
  uint64_t h = impl_->next_texture++;
  impl_->textures[h] = d;
  return h;
}

void Runtime::destroy_texture(uint64_t tex) {
  target_->run_until_idle();
  if (!impl_->textures.erase(tex)) throw Error("destroy_texture: unknown texture object " + std::to_string(tex));
}

uint64_t Runtime::create_surface(const SurfaceDesc& d) {
  if (d.elem_bytes == 0 || d.elem_bytes > 16) throw Error("surface: element size must be 1 to 16 bytes");
  if (d.width == 0 || d.height == 0 || d.slices == 0) throw Error("surface: width, height and slices must be non-zero");
  uint64_t pitch = d.pitch ? d.pitch : uint64_t(d.width) * d.elem_bytes;
  if (pitch < uint64_t(d.width) * d.elem_bytes) throw Error("surface: pitch smaller than a row");
  if (!impl_->memory.is_mapped(d.data, pitch * (uint64_t(d.height) * d.slices - 1) + uint64_t(d.width) * d.elem_bytes))
    throw Error("surface: data range is not inside a device allocation");
  uint64_t h = impl_->next_texture++;  // one numbering for texture and surface objects
  impl_->surfaces[h] = d;
  return h;
}

void Runtime::destroy_surface(uint64_t surf) {
  target_->run_until_idle();
  if (!impl_->surfaces.erase(surf)) throw Error("destroy_surface: unknown surface object " + std::to_string(surf));
}

uint32_t Runtime::create_stream() { return impl_->streams++; }

void Runtime::launch(KernelHandle k, Dim3 grid, Dim3 block, const KernelArgs& args, uint32_t dynamic_shared,
                     uint32_t stream, const AccessPolicyWindow& window) {
  enqueue_launch(k, grid, block, args, dynamic_shared, stream, 0, 1, window);
}

void Runtime::launch_cooperative(KernelHandle k, Dim3 grid, Dim3 block, const KernelArgs& args, uint32_t dynamic_shared,
                                 uint32_t stream, uint32_t num_sms, const AccessPolicyWindow& window) {
  if (stream >= impl_->streams) throw Error("cooperative launch: unknown stream " + std::to_string(stream));
  DevPtr& ws = impl_->grid_workspaces[stream];
  if (!ws) {
    // struct grid_workspace { unsigned wsSize, barrier; } of cooperative_groups, zeroed.
    ws = impl_->memory.allocate(kGridWorkspaceBytes);
    impl_->memory.fill(ws, 0, kGridWorkspaceBytes);
  }
  enqueue_launch(k, grid, block, args, dynamic_shared, stream, ws, num_sms, window);
}

void Runtime::enqueue_launch(KernelHandle k, Dim3 grid, Dim3 block, const KernelArgs& args, uint32_t dynamic_shared,
                             uint32_t stream, DevPtr grid_workspace, uint32_t num_sms,
                             const AccessPolicyWindow& window) {
  auto& mod = impl_->module(ModuleHandle{k.module});
  mod.program(k.index);  // throws for a kernel that could not be decoded
  const auto& prog = mod.programs[k.index];
  const std::string& name = mod.kernels[k.index];
  if (grid.count() == 0 || block.count() == 0)
    throw Error("launch of '" + name + "': grid and block dimensions must be non-zero");
  if (block.count() > 1024 || block.z > 64)
    throw Error("launch of '" + name + "': block of " + std::to_string(block.count()) +
                " threads exceeds 1024 (or z > 64)");
  if (grid.count() > 0xffffffffull) throw Error("launch of '" + name + "': too many CTAs");
  if (stream >= impl_->streams) throw Error("launch of '" + name + "': unknown stream " + std::to_string(stream));
  for (int i = 0; i < 3; ++i) {
    uint32_t b = i == 0 ? block.x : i == 1 ? block.y : block.z;
    if (prog->reqntid[i] && prog->reqntid[i] != b)
      throw Error("launch of '" + name + "': block size does not match .reqntid");
  }
  if (prog->maxntid_threads && block.count() > prog->maxntid_threads)
    throw Error("launch of '" + name + "': block of " + std::to_string(block.count()) + " threads exceeds .maxntid (" +
                std::to_string(prog->maxntid_threads) + ")");
  uint64_t shared = uint64_t(prog->dyn_shared_offset) + dynamic_shared;
  if (shared > 228 * 1024)
    throw Error("launch of '" + name + "': " + std::to_string(shared) + " bytes of shared memory exceed 228 KiB");
  const auto& offs = args.offsets();
  if (offs.size() != prog->params.size())
    throw Error("launch of '" + name + "': kernel takes " + std::to_string(prog->params.size()) + " arguments, " +
                std::to_string(offs.size()) + " given");
  ptx::Launch l;
  l.kernel = name;
  l.grid = grid;
  l.block = block;
  l.dynamic_shared = dynamic_shared;
  l.inst_limit = impl_->inst_limit;
  if (impl_->memcheck) l.memcheck = std::make_shared<ptx::MemcheckLog>();
  l.memory = &impl_->memory;
  l.heap = &impl_->heap;
  l.textures = &impl_->textures;
  l.surfaces = &impl_->surfaces;
  l.grid_workspace = grid_workspace;
  l.num_sms = num_sms;
  l.access_window = window;
  l.params.assign(prog->param_bytes, 0);
  for (size_t i = 0; i < offs.size(); ++i) {
    size_t end = i + 1 < offs.size() ? offs[i + 1] : args.bytes().size();
    size_t avail = end - offs[i];
    const auto& p = prog->params[i];
    if (avail < p.size)
      throw Error("launch of '" + name + "': argument " + std::to_string(i) + " has " + std::to_string(avail) +
                  " bytes, parameter '" + p.name + "' needs " + std::to_string(p.size));
    std::memcpy(l.params.data() + p.offset, args.bytes().data() + offs[i], p.size);
  }
  target_->enqueue(std::make_unique<ptx::PtxKernel>(prog, std::move(l), target_->core_config()), stream);
}

void Runtime::synchronize() { target_->run_until_idle(); }
void Runtime::stream_synchronize(uint32_t stream) { target_->run_until_stream_idle(stream); }

void Runtime::set_instruction_limit(uint64_t per_thread) { impl_->inst_limit = per_thread ? per_thread : ~uint64_t(0); }
void Runtime::set_memcheck(bool on) { impl_->memcheck = on; }
bool Runtime::memcheck() const { return impl_->memcheck; }
DeviceMemory& Runtime::device_memory() { return impl_->memory; }
DeviceHeap& Runtime::device_heap() { return impl_->heap; }

}  // namespace warpsim
