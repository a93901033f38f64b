#include "config/config_loader.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "config/config_util.h"
#include "core/error.h"

namespace fs = std::filesystem;

namespace warpsim {

namespace {

constexpr int kMaxBaseDepth = 16;

struct Pos {
  int line = 0, col = 0;
};

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 5 && s.compare(s.size() - 5, 5, ".toml") == 0);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot open config file '{}'", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string executable_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return exe.parent_path().string();
}

// Renders a TOML leaf value as the text ConfigField::set parses.
bool toml_leaf_text(const toml::node& v, std::string& out) {
  if (auto i = v.as_integer()) {
    out = std::to_string(i->get());
    return true;
  }
  if (auto d = v.as_floating_point()) {
    out = fmt::format("{}", d->get());
    return true;
  }
  if (auto b = v.as_boolean()) {
    out = b->get() ? "true" : "false";
    return true;
  }
  if (auto s = v.as_string()) {
    out = s->get();
    return true;
  }
  return false;
}

struct TomlApplier {
  GpuConfig& cfg;
  std::vector<ConfigField> fields;
  const std::string& source;
  std::map<std::string, Pos>& positions;

  void apply_table(const toml::table& tbl, const std::string& prefix) {
    for (auto&& [k, v] : tbl) {
      std::string key = prefix + std::string(k.str());
      auto kp = k.source().begin;
      if (prefix.empty() && key == "base") continue;  // handled by the caller
      if (auto sub = v.as_table()) {
        if (!is_group(fields, key))
          throw LocatedError(source, int(kp.line), int(kp.column), unknown_key_message(fields, key + ".", true));
        apply_table(*sub, key + ".");
        continue;
      }
      ConfigField* f = find_field(fields, key);
      if (!f) throw LocatedError(source, int(kp.line), int(kp.column), unknown_key_message(fields, key, false));
      auto vp = v.source().begin;
      std::string text;
      if (!toml_leaf_text(v, text))
        throw LocatedError(source, int(vp.line), int(vp.column),
                           fmt::format("config key '{}': expected a number, boolean or string", key));
      try {
        set_field_checked(*f, text);
      } catch (const LocatedError&) {
        throw;
      } catch (const Error& e) {
        throw LocatedError(source, int(vp.line), int(vp.column), e.what());
      }
      positions[key] = {int(vp.line), int(vp.column)};
    }
  }
};

toml::table parse_toml(const std::string& text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    auto p = e.source().begin;
    throw LocatedError(source, int(p.line), int(p.column), std::string(e.description()));
  }
}

void apply_toml_impl(GpuConfig& cfg, const std::string& text, const std::string& source, const std::string& base_dir,
                     std::map<std::string, Pos>& positions, std::set<std::string>& chain);

void load_file_into(GpuConfig& cfg, const std::string& path, std::map<std::string, Pos>& positions,
                    std::set<std::string>& chain) {
  std::error_code ec;
  std::string canon = fs::weakly_canonical(path, ec).string();
  if (ec) canon = path;
  if (chain.count(canon)) throw Error(fmt::format("config file '{}': 'base' inheritance forms a cycle", path));
  if (chain.size() >= size_t(kMaxBaseDepth))
    throw Error(fmt::format("config file '{}': 'base' inheritance is nested too deeply", path));
  chain.insert(canon);
  std::string text = read_file(path);
  cfg.name = fs::path(path).stem().string();
  apply_toml_impl(cfg, text, path, fs::path(path).parent_path().string(), positions, chain);
  chain.erase(canon);
}

void apply_toml_impl(GpuConfig& cfg, const std::string& text, const std::string& source, const std::string& base_dir,
                     std::map<std::string, Pos>& positions, std::set<std::string>& chain) {
  toml::table tbl = parse_toml(text, source);
  if (auto base = tbl.get("base")) {
    auto bp = base->source().begin;
    auto s = base->as_string();
    if (!s || s->get().empty())
      throw LocatedError(source, int(bp.line), int(bp.column), "'base' must name a preset, e.g. base = \"gtx480\"");
    std::string name = s->get();
    std::string path;
    if (!looks_like_path(name) && !base_dir.empty() && fs::is_regular_file(fs::path(base_dir) / (name + ".toml"))) {
      path = (fs::path(base_dir) / (name + ".toml")).string();
    } else if (looks_like_path(name) && fs::path(name).is_relative() && !base_dir.empty() &&
               fs::is_regular_file(fs::path(base_dir) / name)) {
      path = (fs::path(base_dir) / name).string();
    } else {
      try {
        path = find_preset(name);
      } catch (const Error& e) {
        throw LocatedError(source, int(bp.line), int(bp.column), e.what());
      }
    }
    std::map<std::string, Pos> base_positions;  // positions refer to this file only
    std::string keep_name = cfg.name;
    load_file_into(cfg, path, base_positions, chain);
    cfg.name = keep_name;
  }
  TomlApplier a{cfg, config_fields(cfg), source, positions};
  a.apply_table(tbl, "");
}

// Runs validate() and, when the failing key was set in the file, reports its location.
void validate_located(const GpuConfig& cfg, const std::string& source, const std::map<std::string, Pos>& positions) {
  try {
    validate(cfg);
  } catch (const Error& e) {
    std::string key = key_in_message(e.what());
    auto it = positions.find(key);
    if (it != positions.end()) throw LocatedError(source, it->second.line, it->second.col, e.what());
    throw Error(fmt::format("{}: {}", source, e.what()));
  }
}

std::string toml_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", int(c));
        else
          out += c;
    }
  }
  return out + "\"";
}

std::string toml_value(const ConfigField& f) {
  switch (f.kind) {
    case ConfigField::Bool:
    case ConfigField::U32:
      return f.get();
    case ConfigField::U64: {
      uint64_t v = *static_cast<uint64_t*>(f.ptr);
      // TOML integers are signed 64-bit; larger values travel as strings.
      if (v > uint64_t(INT64_MAX)) return toml_quote(std::to_string(v));
      return std::to_string(v);
    }
    case ConfigField::Double: {
      std::string s = fmt::format("{}", *static_cast<double*>(f.ptr));
      if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // keep it a TOML float
      return s;
    }
    case ConfigField::String:
      return toml_quote(f.get());
  }
  return {};
}

}  // namespace

std::vector<std::string> preset_search_dirs() {
  std::vector<std::string> dirs;
  auto add = [&](const std::string& d) {
    std::error_code ec;
    if (d.empty() || !fs::is_directory(d, ec)) return;
    if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
  };
  if (const char* env = std::getenv("WARPSIM_CONFIG_DIR")) {
    std::string s = env;
    size_t start = 0;
    while (start <= s.size()) {
      size_t end = s.find(':', start);
      if (end == std::string::npos) end = s.size();
      add(s.substr(start, end - start));
      start = end + 1;
    }
  }
#ifdef WARPSIM_SOURCE_DIR
  add(std::string(WARPSIM_SOURCE_DIR) + "/configs/gpus");
#endif
  std::string exe = executable_dir();
  if (!exe.empty()) add((fs::path(exe) / ".." / "share" / "warpsim" / "configs" / "gpus").lexically_normal().string());
  return dirs;
}

std::vector<std::string> list_presets() {
  std::set<std::string> names;
  for (const auto& d : preset_search_dirs()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(d, ec)) {
      if (e.path().extension() == ".toml" && e.is_regular_file(ec)) names.insert(e.path().stem().string());
    }
  }
  return {names.begin(), names.end()};
}

std::string find_preset(const std::string& name_or_path) {
  if (name_or_path.empty()) throw Error("empty GPU preset name");
  if (looks_like_path(name_or_path)) {
    std::error_code ec;
    if (fs::is_regular_file(name_or_path, ec)) return name_or_path;
    throw Error(fmt::format("config file '{}' not found", name_or_path));
  }
  auto dirs = preset_search_dirs();
  for (const auto& d : dirs) {
    fs::path p = fs::path(d) / (name_or_path + ".toml");
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  auto names = list_presets();
  std::string msg = fmt::format("unknown GPU preset '{}'", name_or_path);
  std::string close = closest(name_or_path, names);
  if (!close.empty()) msg += fmt::format("; did you mean '{}'?", close);
  msg += names.empty() ? " (no presets found" : fmt::format(" (available: {}", join(names, ", "));
  msg += fmt::format("; searched: {})", dirs.empty() ? std::string("no preset directory exists") : join(dirs, ", "));
  throw Error(msg);
}

void apply_toml(GpuConfig& cfg, const std::string& text, const std::string& source, const std::string& base_dir) {
  std::map<std::string, Pos> positions;
  std::set<std::string> chain;
  apply_toml_impl(cfg, text, source, base_dir, positions, chain);
}

GpuConfig load_preset(const std::string& name_or_path) {
  std::string path = find_preset(name_or_path);
  GpuConfig cfg;
  std::map<std::string, Pos> positions;
  std::set<std::string> chain;
  load_file_into(cfg, path, positions, chain);
  validate_located(cfg, path, positions);
  return cfg;
}

void apply_overrides(GpuConfig& cfg, const std::vector<std::string>& kv) {
  auto fields = config_fields(cfg);
  for (const auto& item : kv) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(fmt::format("--set '{}': expected key=value, e.g. --set l1d.size=32K", item));
    std::string key = trim(item.substr(0, eq));
    std::string value = trim(item.substr(eq + 1));
    if (key == "base") throw Error("--set base=...: use --gpu to choose the preset");
    ConfigField* f = find_field(fields, key);
    if (!f) throw Error(unknown_key_message(fields, key, false));
    set_field_checked(*f, value);
  }
  try {
    validate(cfg);
  } catch (const Error& e) {
    throw Error(fmt::format("after --set: {}", e.what()));
  }
}

std::string dump_toml(const GpuConfig& in) {
  GpuConfig cfg = in;
  auto fields = config_fields(cfg);
  std::string out = fmt::format("# warpsim GPU configuration '{}'\n", cfg.name);
  auto line = [](const ConfigField& f, const std::string& leaf) {
    return fmt::format("{} = {}  # {}\n", leaf, toml_value(f), f.doc);
  };
  for (const auto& f : fields)
    if (f.key.find('.') == std::string::npos) out += line(f, f.key);
  std::vector<std::string> tables;
  for (const auto& f : fields) {
    size_t dot = f.key.rfind('.');
    if (dot == std::string::npos) continue;
    std::string t = f.key.substr(0, dot);
    if (std::find(tables.begin(), tables.end(), t) == tables.end()) tables.push_back(t);
  }
  for (const auto& t : tables) {
    out += fmt::format("\n[{}]\n", t);
    for (const auto& f : fields) {
      size_t dot = f.key.rfind('.');
      if (dot != std::string::npos && f.key.compare(0, dot, t) == 0 && dot == t.size())
        out += line(f, f.key.substr(dot + 1));
    }
  }
  return out;
}

std::string config_keys_markdown(const std::vector<std::string>& presets) {
  GpuConfig cfg;
  auto fields = config_fields(cfg);
  std::vector<GpuConfig> pcfg;
  for (const auto& p : presets) pcfg.push_back(load_preset(p));
  std::vector<std::vector<ConfigField>> pfields;
  for (auto& c : pcfg) pfields.push_back(config_fields(c));
  auto value = [](const ConfigField& f) {
    return f.kind == ConfigField::String ? fmt::format("`{}`", f.get()) : f.get();
  };
  std::string out = "| key | type | default |";
  std::string rule = "|---|---|---|";
  for (const auto& p : presets) out += " " + p + " |", rule += "---|";
  out += " meaning |\n" + rule + "---|\n";
  for (size_t i = 0; i < fields.size(); ++i) {
    const ConfigField& f = fields[i];
    const char* type = "";
    switch (f.kind) {
      case ConfigField::Bool:
        type = "bool";
        break;
      case ConfigField::U32:
        type = "u32";
        break;
      case ConfigField::U64:
        type = "u64";
        break;
      case ConfigField::Double:
        type = "float";
        break;
      case ConfigField::String:
        type = "string";
        break;
    }
    std::string doc = f.doc;
    for (size_t p = 0; (p = doc.find('|', p)) != std::string::npos; p += 2) doc.replace(p, 1, "\\|");
    out += fmt::format("| `{}` | {} | {} |", f.key, type, value(f));
    for (const auto& pf : pfields) {
      out += ' ';
      out += value(pf[i]);
      out += " |";
    }
    out += " " + doc + " |\n";
  }
  return out;
}

bool same_config(const GpuConfig& a_in, const GpuConfig& b_in) {
  GpuConfig a = a_in, b = b_in;
  auto fa = config_fields(a), fb = config_fields(b);
  if (fa.size() != fb.size()) return false;
  for (size_t i = 0; i < fa.size(); ++i) {
    if (fa[i].key != fb[i].key) return false;
    if (fa[i].kind == ConfigField::Double) {
      if (*static_cast<double*>(fa[i].ptr) != *static_cast<double*>(fb[i].ptr)) return false;
    } else if (fa[i].get() != fb[i].get()) {
      return false;
    }
  }
  return true;
}

}  // namespace warpsim
