#include "core/strings.h"

namespace warpsim {
namespace {
constexpr std::string_view kBlank = " \t\r\n";
}  // namespace

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t end = s.find(sep, start);
    out.emplace_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

std::vector<std::string> split_items(std::string_view s, std::string_view seps) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find_first_of(seps, start);
    if (end == std::string_view::npos) end = s.size();
    std::string item = trim(s.substr(start, end - start));
    if (!item.empty()) out.push_back(std::move(item));
    start = end + 1;
  }
  return out;
}

std::vector<std::string> split_ws(std::string_view s) { return split_items(s, kBlank); }

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(kBlank);
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(kBlank);
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace warpsim
