#include "experiment/reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "core/error.h"
#include "experiment/results.h"
#include "timing/gpgpusim_names.h"

namespace warpsim::experiment {

namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot read", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

bool parse_double(const std::string& text, double& v) {
  std::string s = trim(text);
  // Nsight Compute may print thousands separators ("12,345") inside quotes.
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size() && std::isfinite(v);
}

bool parse_u64(const std::string& text, uint64_t& v) {
  std::string s = trim(text);
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

using RowKey = std::tuple<std::string, std::string, std::string, std::string, std::string, uint64_t>;
RowKey key_of(const ReferenceRow& r) {
  return {r.workload, r.size, r.gpu, r.scheduler, kernel_match_name(r.kernel), r.launch};
}

std::string number_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", int64_t(v));
  return fmt::format("{}", v);
}

}  // namespace

const std::vector<std::string>& reference_columns() {
  static const std::vector<std::string> cols = {"workload", "size", "gpu", "scheduler", "kernel", "launch", "cycles"};
  return cols;
}

std::vector<std::string> split_csv_line(const std::string& line, bool& ok) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  ok = true;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          cur += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  if (quoted) ok = false;
  return out;
}

std::string kernel_match_name(const std::string& kernel) {
  if (kernel.size() < 3 || kernel.compare(0, 2, "_Z") != 0) return kernel;
  size_t i = 2, len = 0;
  if (i < kernel.size() && kernel[i] == 'L') ++i;  // internal linkage
  size_t digits = i;
  while (i < kernel.size() && std::isdigit(static_cast<unsigned char>(kernel[i])))
    len = len * 10 + size_t(kernel[i++] - '0');
  if (i == digits || len == 0 || i + len > kernel.size()) return kernel;
  return kernel.substr(i, len);
}

ReferenceTable parse_reference_csv(const std::string& text, const std::string& name) {
  ReferenceTable t;
  auto lines = lines_of(text);
  size_t li = 0;
  // Header: the first line that is neither empty nor a '#' comment.
  while (li < lines.size() && (trim(lines[li]).empty() || trim(lines[li])[0] == '#')) ++li;
  if (li == lines.size()) throw Error(fmt::format("{}: empty reference table (no header line)", name));
  bool ok = true;
  std::vector<std::string> header = split_csv_line(lines[li], ok);
  if (!ok) throw Error(fmt::format("{}:{}: unterminated quote in the header", name, li + 1));
  for (auto& h : header) h = trim(h);
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i].empty()) throw Error(fmt::format("{}:{}: column {} has no name", name, li + 1, i + 1));
    if (!col.emplace(header[i], i).second)
      throw Error(fmt::format("{}:{}: column '{}' appears twice", name, li + 1, header[i]));
  }
  for (const auto& req : reference_columns())
    if (!col.count(req))
      throw Error(fmt::format("{}:{}: missing required column '{}' (required: {})", name, li + 1, req,
                              fmt::join(reference_columns(), ",")));
  std::vector<size_t> counter_cols;
  for (size_t i = 0; i < header.size(); ++i)
    if (std::find(reference_columns().begin(), reference_columns().end(), header[i]) == reference_columns().end()) {
      counter_cols.push_back(i);
      t.counter_names.push_back(header[i]);
    }
  std::map<RowKey, std::string> seen;
  for (size_t n = li + 1; n < lines.size(); ++n) {
    const std::string& line = lines[n];
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    std::string where = fmt::format("{}:{}", name, n + 1);
    auto f = split_csv_line(line, ok);
    if (!ok) throw Error(fmt::format("{}: unterminated quote", where));
    if (f.size() != header.size())
      throw Error(fmt::format("{}: {} fields, the header has {}", where, f.size(), header.size()));
    ReferenceRow r;
    r.origin = where;
    auto text_field = [&](const char* c) {
      std::string v = trim(f[col.at(c)]);
      if (v.empty()) throw Error(fmt::format("{}: empty '{}'", where, c));
      return v;
    };
    r.workload = text_field("workload");
    r.size = text_field("size");
    r.gpu = text_field("gpu");
    r.scheduler = text_field("scheduler");
    r.kernel = text_field("kernel");
    if (!parse_u64(f[col.at("launch")], r.launch))
      throw Error(fmt::format("{}: launch '{}' is not a non-negative integer", where, trim(f[col.at("launch")])));
    if (!parse_double(f[col.at("cycles")], r.cycles) || r.cycles <= 0)
      throw Error(fmt::format("{}: cycles '{}' is not a positive number", where, trim(f[col.at("cycles")])));
    for (size_t ci = 0; ci < counter_cols.size(); ++ci) {
      std::string v = trim(f[counter_cols[ci]]);
      if (v.empty()) continue;  // not measured for this row
      double d;
      if (!parse_double(v, d))
        throw Error(fmt::format("{}: {} '{}' is not a number", where, header[counter_cols[ci]], v));
      r.counters[header[counter_cols[ci]]] = d;
    }
    auto [it, fresh] = seen.emplace(key_of(r), where);
    if (!fresh)
      throw Error(fmt::format("{}: duplicate row for {} {} {} {} kernel {} launch {} (first at {})", where, r.workload,
                              r.size, r.gpu, r.scheduler, r.kernel, r.launch, it->second));
    t.rows.push_back(std::move(r));
  }
  return t;
}

ReferenceTable read_reference_csv(const std::string& path) { return parse_reference_csv(read_text(path), path); }

std::string reference_to_csv(const ReferenceTable& t) {
  std::string out = fmt::format("{}", fmt::join(reference_columns(), ","));
  for (const auto& c : t.counter_names) out += "," + csv_quote(c);
  out += "\n";
  for (const auto& r : t.rows) {
    out += fmt::format("{},{},{},{},{},{},{}", csv_quote(r.workload), csv_quote(r.size), csv_quote(r.gpu),
                       csv_quote(r.scheduler), csv_quote(r.kernel), r.launch, number_text(r.cycles));
    for (const auto& c : t.counter_names) {
      out += ",";
      auto it = r.counters.find(c);
      if (it != r.counters.end()) out += number_text(it->second);
    }
    out += "\n";
  }
  return out;
}

// GPGPU-Sim prints, after every kernel, `kernel_name`, `kernel_launch_uid`, `gpu_sim_cycle`
// and `gpu_sim_insn` for that kernel, and the cache and DRAM statistics as totals since the
// start of the program: those are differenced here to give per-launch counts.
std::vector<GpgpusimLaunch> parse_gpgpusim_log(const std::string& text, const std::string& name) {
  // GPGPU-Sim key -> counter name of the reference table (timing/gpgpusim_names.h); `cumulative`
  // keys are running totals.
  const std::vector<GpgpusimCounter>& keys = gpgpusim_counters();
  std::vector<GpgpusimLaunch> out;
  std::map<std::string, double> previous_total;  // counter -> total after the previous kernel
  bool have_cycles = false, exited = false;
  size_t line_no = 0, kernel_line = 0;
  auto close_kernel = [&]() {
    if (out.empty()) return;
    if (!have_cycles)
      throw Error(fmt::format("{}:{}: kernel '{}' (launch uid {}) has no gpu_sim_cycle", name, kernel_line,
                              out.back().kernel, out.back().uid));
    for (const auto& k : keys)
      if (k.cumulative) {
        auto it = out.back().counters.find(k.name);
        if (it == out.back().counters.end()) continue;
        double total = it->second;
        it->second = total - previous_total[k.name];
        previous_total[k.name] = total;
      }
  };
  for (const auto& raw : lines_of(text)) {
    ++line_no;
    std::string line = trim(raw);
    if (line.find("GPGPU-Sim: *** exit detected ***") != std::string::npos) exited = true;
    auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 3));
    if (key == "kernel_name") {
      close_kernel();
      GpgpusimLaunch l;
      l.kernel = value;
      out.push_back(std::move(l));
      have_cycles = false;
      kernel_line = line_no;
      continue;
    }
    if (out.empty()) continue;
    if (key == "kernel_launch_uid") {
      parse_u64(value, out.back().uid);
    } else if (key == "gpu_sim_cycle") {
      if (!parse_double(value, out.back().cycles))
        throw Error(fmt::format("{}:{}: gpu_sim_cycle '{}' is not a number", name, line_no, value));
      have_cycles = true;
    } else {
      for (const auto& k : keys)
        if (key == k.gpgpusim) {
          double v;
          if (parse_double(value, v)) out.back().counters[k.name] = v;
        }
    }
  }
  if (out.empty()) throw Error(fmt::format("{}: no kernel launch (no 'kernel_name = ...' line)", name));
  close_kernel();
  if (!exited)
    throw Error(
        fmt::format("{}: ends without GPGPU-Sim's exit message ('GPGPU-Sim: *** exit detected ***'): "
                    "the run was cut short",
                    name));
  return out;
}

ReferenceTable import_gpgpusim_dir(const std::string& dir) {
  if (!fs::is_directory(dir)) throw Error(fmt::format("{}: not a directory", dir));
  std::vector<fs::path> logs;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".log") logs.push_back(e.path());
  std::sort(logs.begin(), logs.end());
  if (logs.empty()) throw Error(fmt::format("{}: no GPGPU-Sim logs (<gpu>/<scheduler>/<workload>.<size>.log)", dir));
  ReferenceTable t;
  std::set<std::string> counters;
  for (const auto& p : logs) {
    fs::path rel = fs::relative(p, dir);
    std::vector<std::string> parts;
    for (const auto& c : rel) parts.push_back(c.string());
    std::string stem = p.stem().string();
    auto dot = stem.rfind('.');
    if (parts.size() != 3 || dot == std::string::npos || dot == 0 || dot + 1 == stem.size())
      throw Error(
          fmt::format("{}: expected the layout <gpu>/<scheduler>/<workload>.<size>.log under {}", p.string(), dir));
    auto launches = parse_gpgpusim_log(read_text(p.string()), p.string());
    ReferenceTable one;
    for (size_t i = 0; i < launches.size(); ++i) {
      ReferenceRow r;
      r.gpu = parts[0];
      r.scheduler = parts[1];
      r.workload = stem.substr(0, dot);
      r.size = stem.substr(dot + 1);
      r.kernel = launches[i].kernel;
      r.launch = i;
      r.cycles = launches[i].cycles;
      r.counters = launches[i].counters;
      r.origin = p.string();
      for (const auto& [k, v] : r.counters) counters.insert(k);
      one.rows.push_back(std::move(r));
    }
    merge_reference(t, one);
  }
  t.counter_names.assign(counters.begin(), counters.end());
  return t;
}

ReferenceTable parse_ncu_csv(const std::string& text, const std::string& name, const std::string& workload,
                             const std::string& size, const std::string& gpu) {
  auto lines = lines_of(text);
  // ncu prints its own "==PROF==" lines and the program's output before the CSV: the header is
  // the first line that starts with "ID".
  size_t li = 0;
  bool ok = true;
  std::vector<std::string> header;
  for (; li < lines.size(); ++li) {
    if (lines[li].rfind("\"ID\"", 0) == 0 || lines[li].rfind("ID,", 0) == 0) {
      header = split_csv_line(lines[li], ok);
      break;
    }
  }
  if (header.empty()) throw Error(fmt::format("{}: no Nsight Compute CSV header (a line starting with \"ID\")", name));
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[trim(header[i])] = i;
  for (const char* req : {"ID", "Kernel Name", "Metric Name", "Metric Value"})
    if (!col.count(req)) throw Error(fmt::format("{}:{}: missing column \"{}\"", name, li + 1, req));
  struct Launch {
    std::string kernel;
    double cycles = -1;
    std::map<std::string, double> counters;
    std::string origin;
  };
  std::map<uint64_t, Launch> by_id;
  std::set<std::string> counters;
  for (size_t n = li + 1; n < lines.size(); ++n) {
    if (trim(lines[n]).empty() || lines[n].rfind("==", 0) == 0) continue;
    std::string where = fmt::format("{}:{}", name, n + 1);
    auto f = split_csv_line(lines[n], ok);
    if (!ok || f.size() != header.size())
      throw Error(fmt::format("{}: {} fields, the header has {}", where, f.size(), header.size()));
    uint64_t id;
    if (!parse_u64(f[col["ID"]], id)) throw Error(fmt::format("{}: ID '{}' is not an integer", where, f[col["ID"]]));
    double v;
    std::string metric = trim(f[col["Metric Name"]]);
    if (!parse_double(f[col["Metric Value"]], v))
      throw Error(fmt::format("{}: {} value '{}' is not a number", where, metric, f[col["Metric Value"]]));
    Launch& l = by_id[id];
    std::string kernel = trim(f[col["Kernel Name"]]);
    // "Kernel Name" is the demangled signature with --print-kernel-base function off: keep the name.
    auto paren = kernel.find('(');
    if (paren != std::string::npos) kernel = trim(kernel.substr(0, paren));
    auto space = kernel.rfind(' ');
    if (space != std::string::npos) kernel = kernel.substr(space + 1);
    if (l.origin.empty()) {
      l.kernel = kernel;
      l.origin = where;
    } else if (l.kernel != kernel) {
      throw Error(fmt::format("{}: ID {} names kernel '{}', {} named '{}'", where, id, kernel, l.origin, l.kernel));
    }
    if (metric == "gpc__cycles_elapsed.max") {
      l.cycles = v;
    } else {
      l.counters[metric] = v;
      counters.insert(metric);
    }
  }
  ReferenceTable t;
  uint64_t launch = 0;
  for (auto& [id, l] : by_id) {
    if (l.cycles <= 0)
      throw Error(fmt::format("{}: kernel '{}' (ID {}) has no gpc__cycles_elapsed.max value", l.origin, l.kernel, id));
    ReferenceRow r;
    r.workload = workload;
    r.size = size;
    r.gpu = gpu;
    r.scheduler = "hw";
    r.kernel = l.kernel;
    r.launch = launch++;
    r.cycles = l.cycles;
    r.counters = l.counters;
    r.origin = l.origin;
    t.rows.push_back(std::move(r));
  }
  if (t.rows.empty()) throw Error(fmt::format("{}: no kernel launch", name));
  t.counter_names.assign(counters.begin(), counters.end());
  return t;
}

void merge_reference(ReferenceTable& a, const ReferenceTable& b) {
  std::map<RowKey, std::string> seen;
  for (const auto& r : a.rows) seen.emplace(key_of(r), r.origin);
  for (const auto& r : b.rows) {
    auto [it, fresh] = seen.emplace(key_of(r), r.origin);
    if (!fresh)
      throw Error(fmt::format("{}: duplicate row for {} {} {} {} kernel {} launch {} (also in {})", r.origin,
                              r.workload, r.size, r.gpu, r.scheduler, r.kernel, r.launch, it->second));
    a.rows.push_back(r);
  }
  for (const auto& c : b.counter_names)
    if (std::find(a.counter_names.begin(), a.counter_names.end(), c) == a.counter_names.end())
      a.counter_names.push_back(c);
}

ReferenceTable read_ncu_csv(const std::string& path, const std::string& workload, const std::string& size,
                            const std::string& gpu) {
  return parse_ncu_csv(read_text(path), path, workload, size, gpu);
}

ReferenceTable load_reference(const std::string& path) {
  if (fs::is_directory(path)) return import_gpgpusim_dir(path);
  return read_reference_csv(path);
}

}  // namespace warpsim::experiment
