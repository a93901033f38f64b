#include "ptx/device_printf.h"

#include <cstdio>
#include <cstring>

namespace warpsim::ptx {

std::string read_device_string(uint64_t addr, const DeviceReader& read, size_t limit) {
  std::string s;
  if (addr == 0) return "(null)";
  for (size_t i = 0; i < limit; ++i) {
    char c = 0;
    read(addr + i, &c, 1);
    if (c == 0) break;
    s.push_back(c);
  }
  return s;
}

std::string format_device_printf(const std::string& format, uint64_t args, const DeviceReader& read, int* count) {
  std::string out;
  uint64_t off = 0;
  int n = 0;
  // The next argument of `bytes` bytes, at its natural alignment in the buffer.
  auto next = [&](uint32_t bytes) {
    off = (off + bytes - 1) / bytes * bytes;
    uint64_t v = 0;
    read(args + off, &v, bytes);
    off += bytes;
    ++n;
    return v;
  };
  char buf[512];
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out.push_back(format[i]);
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      out.push_back('%');
      ++i;
      continue;
    }
    // %[flags][width][.precision][length]conversion
    size_t j = i + 1;
    std::string spec = "%";
    while (j < format.size() && std::strchr("-+ #0", format[j])) spec.push_back(format[j++]);
    auto number = [&] {
      if (j < format.size() && format[j] == '*') {
        ++j;
        spec += std::to_string(int32_t(next(4)));
        return;
      }
      while (j < format.size() && format[j] >= '0' && format[j] <= '9') spec.push_back(format[j++]);
    };
    number();
    if (j < format.size() && format[j] == '.') {
      spec.push_back(format[j++]);
      number();
    }
    int longs = 0;
    while (j < format.size() && std::strchr("hlLqjzt", format[j])) {
      char c = format[j++];
      if (c == 'l' || c == 'L' || c == 'q' || c == 'j' || c == 'z' || c == 't') ++longs;
    }
    if (j >= format.size()) {
      out += format.substr(i);
      break;
    }
    const char conv = format[j];
    switch (conv) {
      case 'd':
      case 'i': {
        int64_t v = longs ? int64_t(next(8)) : int64_t(int32_t(next(4)));
        std::snprintf(buf, sizeof buf, (spec + "lld").c_str(), (long long)v);
        out += buf;
        break;
      }
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        uint64_t v = longs ? next(8) : uint64_t(uint32_t(next(4)));
        std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), (unsigned long long)v);
        out += buf;
        break;
      }
      case 'c': {
        int v = int(int32_t(next(4)));
        std::snprintf(buf, sizeof buf, (spec + "c").c_str(), v);
        out += buf;
        break;
      }
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        uint64_t bits = next(8);
        double d;
        std::memcpy(&d, &bits, 8);
        std::snprintf(buf, sizeof buf, (spec + conv).c_str(), d);
        out += buf;
        break;
      }
      case 's': {
        std::string s = read_device_string(next(8), read);
        std::snprintf(buf, sizeof buf, (spec + "s").c_str(), s.c_str());
        out += s.size() < sizeof buf - 1 ? std::string(buf) : s;
        break;
      }
      case 'p': {
        std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)next(8));
        out += buf;
        break;
      }
      case 'n':
        next(8);
        break;
      default:
        out += format.substr(i, j - i + 1);
        break;
    }
    i = j;
  }
  if (count) *count = n;
  return out;
}

}  // namespace warpsim::ptx
