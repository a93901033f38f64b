#include "ptx/link.h"

#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace warpsim::ptx {

namespace {

// Renames the module-level symbols of one module in every place that names them.
class Renamer {
 public:
  explicit Renamer(const std::unordered_map<std::string, std::string>& to) : to_(to) {}

  void module(Module& m) const {
    for (VarDecl& v : m.globals) decl(v);
    for (Function& f : m.functions) function(f);
  }

 private:
  const std::unordered_map<std::string, std::string>& to_;

  void name(std::string& s, const std::unordered_set<std::string>* labels = nullptr) const {
    if (s.empty() || (labels && labels->count(s))) return;
    auto it = to_.find(s);
    if (it != to_.end()) s = it->second;
  }
  void decl(VarDecl& v) const {
    name(v.name);
    for (VarDecl::Init& i : v.init) name(i.sym);
  }
  void operand(Operand& o, const std::unordered_set<std::string>& labels) const {
    if (o.kind != Operand::Reg) {
      name(o.name, &labels);
      name(o.name2, &labels);
    }
    for (Operand& e : o.elems) operand(e, labels);
  }
  void function(Function& f) const {
    name(f.name);
    std::unordered_set<std::string> labels;  // a function's labels are its own
    for (const Statement& s : f.body)
      if (s.kind == Statement::Label) labels.insert(s.label);
    for (Statement& s : f.body) {
      if (s.kind == Statement::Inst)
        for (Operand& o : s.inst.ops) operand(o, labels);
      else if (s.kind == Statement::Decl && s.decl.space != Space::Reg)
        for (VarDecl::Init& i : s.decl.init) name(i.sym);
    }
  }
};

// Module-level names a module gives no linkage: defined and neither visible nor extern.
std::unordered_set<std::string> private_names(const Module& m) {
  std::unordered_set<std::string> out;
  for (const Function& f : m.functions)
    if (!f.is_visible && !f.is_extern && !f.is_entry) out.insert(f.name);
  for (const VarDecl& v : m.globals)
    if (!v.is_visible && !v.is_extern) out.insert(v.name);
  return out;
}

std::unordered_set<std::string> all_names(const Module& m) {
  std::unordered_set<std::string> out;
  for (const Function& f : m.functions) out.insert(f.name);
  for (const VarDecl& v : m.globals) out.insert(v.name);
  return out;
}

}  // namespace

Module link_modules(std::vector<Module> objects, const std::string& file) {
  Module out;
  out.file = file;
  if (objects.empty()) return out;
  out.target = objects[0].target;
  out.address_size = objects[0].address_size;
  for (const Module& m : objects)
    if (std::pair(m.version_major, m.version_minor) > std::pair(out.version_major, out.version_minor)) {
      out.version_major = m.version_major;
      out.version_minor = m.version_minor;
    }
  // Private symbols whose name another object also uses are renamed in their own object.
  std::vector<std::unordered_set<std::string>> names;
  for (const Module& m : objects) names.push_back(all_names(m));
  for (size_t i = 0; i < objects.size(); ++i) {
    std::unordered_map<std::string, std::string> to;
    for (const std::string& n : private_names(objects[i]))
      for (size_t j = 0; j < objects.size(); ++j)
        if (j != i && names[j].count(n)) {
          to[n] = fmt::format("{}$obj{}", n, i);
          break;
        }
    if (!to.empty()) Renamer(to).module(objects[i]);
  }
  // What some object defines, after the renaming.
  std::unordered_set<std::string> defined_functions, defined_vars;
  for (const Module& m : objects) {
    for (const Function& f : m.functions)
      if (f.has_body) defined_functions.insert(f.name);
    for (const VarDecl& v : m.globals)
      if (!v.is_extern) defined_vars.insert(v.name);
  }
  std::unordered_set<std::string> kept_functions, declared_functions, kept_vars, declared_vars;
  for (Module& m : objects) {
    for (VarDecl& v : m.globals) {
      if (v.is_extern) {
        // Resolved by a definition elsewhere, or kept once (dynamic shared memory, unresolved).
        if (defined_vars.count(v.name) || !declared_vars.insert(v.name).second) continue;
      } else if (!kept_vars.insert(v.name).second) {
        continue;  // a visible or weak variable another object defined first
      }
      out.globals.push_back(std::move(v));
    }
    for (Function& f : m.functions) {
      if (!f.has_body) {
        if (defined_functions.count(f.name) || !declared_functions.insert(f.name).second) continue;
      } else if (!kept_functions.insert(f.name).second) {
        continue;  // the first definition of a visible or weak function wins
      }
      out.functions.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace warpsim::ptx
