#include "config/config_util.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.h"

namespace warpsim {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::string::npos;
  for (const auto& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  size_t limit = std::max<size_t>(2, word.size() / 3);
  return best_d <= limit ? best : std::string();
}

ConfigField* find_field(std::vector<ConfigField>& fields, const std::string& key) {
  for (auto& f : fields)
    if (f.key == key) return &f;
  return nullptr;
}

bool is_group(const std::vector<ConfigField>& fields, const std::string& prefix) {
  std::string p = prefix;
  if (!p.empty() && p.back() != '.') p += '.';
  for (const auto& f : fields)
    if (f.key.compare(0, p.size(), p) == 0) return true;
  return false;
}

std::vector<std::string> field_choices(const ConfigField& f) {
  std::vector<std::string> out;
  if (f.kind != ConfigField::String) return out;
  std::string first = f.doc.substr(0, f.doc.find(' '));
  if (first.find('|') == std::string::npos) return out;
  size_t start = 0;
  while (start <= first.size()) {
    size_t end = first.find('|', start);
    if (end == std::string::npos) end = first.size();
    if (end > start) out.push_back(first.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

void set_field_checked(ConfigField& f, const std::string& value) {
  auto choices = field_choices(f);
  if (!choices.empty() && std::find(choices.begin(), choices.end(), value) == choices.end())
    throw Error(fmt::format("config key '{}': '{}' is not one of {}", f.key, value, join(choices, "|")));
  f.set(value);
}

std::string unknown_key_message(const std::vector<ConfigField>& fields, const std::string& key_in, bool as_table) {
  std::string key = key_in;
  while (!key.empty() && key.back() == '.') key.pop_back();
  if (!as_table && is_group(fields, key)) {
    std::vector<std::string> keys;
    for (const auto& f : fields)
      if (f.key.compare(0, key.size() + 1, key + ".") == 0) keys.push_back(f.key.substr(key.size() + 1));
    return fmt::format("config key '{}' is a table, not a value; set one of its keys: {}", key, join(keys, ", "));
  }
  // The table the key was written in: everything before the last dot.
  size_t dot = key.rfind('.');
  std::string table = dot == std::string::npos ? std::string() : key.substr(0, dot);
  std::vector<std::string> all, leaves_here, tables;
  for (const auto& f : fields) {
    all.push_back(f.key);
    size_t d = f.key.rfind('.');
    std::string t = d == std::string::npos ? std::string() : f.key.substr(0, d);
    if (!t.empty() && std::find(tables.begin(), tables.end(), t) == tables.end()) tables.push_back(t);
    if (t == table) leaves_here.push_back(f.key.substr(d == std::string::npos ? 0 : d + 1));
  }
  std::string msg =
      as_table ? fmt::format("unknown config table '{}'", key) : fmt::format("unknown config key '{}'", key);
  std::string close = closest(key, as_table ? tables : all);
  msg += close.empty() ? std::string(".") : fmt::format("; did you mean '{}'?", close);
  if (!as_table && (table.empty() || is_group(fields, table))) {
    // Sub-tables of this table count as valid names too.
    std::vector<std::string> names = leaves_here;
    for (const auto& t : tables) {
      std::string parent = t.rfind('.') == std::string::npos ? std::string() : t.substr(0, t.rfind('.'));
      if (parent == table) names.push_back("[" + t + "]");
    }
    msg +=
        fmt::format(" Valid keys {}: {}",
                    table.empty() ? std::string("at the top level") : fmt::format("in [{}]", table), join(names, ", "));
  } else {
    msg += fmt::format(" Valid tables: {}", join(tables, ", "));
  }
  return msg;
}

std::string key_in_message(const std::string& msg) {
  const std::string tag = "config key '";
  size_t p = msg.find(tag);
  if (p == std::string::npos) return {};
  p += tag.size();
  size_t e = msg.find('\'', p);
  if (e == std::string::npos) return {};
  return msg.substr(p, e - p);
}

}  // namespace warpsim
