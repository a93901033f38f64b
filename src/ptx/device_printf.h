// Device-side printf: what nvcc makes of printf() in a kernel, a call of the external function
// vprintf(format, arguments) with the format string's address and the address of a buffer that
// holds the arguments, each aligned to its size (floats promoted to double, as in C varargs).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace warpsim::ptx {

// Reads `bytes` bytes of device memory at a generic address (throws when it cannot).
using DeviceReader = std::function<void(uint64_t addr, void* out, uint32_t bytes)>;

// Formats `format` with the arguments in the buffer at `args`, as the host's printf would;
// `*count` gets the number of arguments consumed. %n is ignored; an unknown conversion is
// copied as it stands.
std::string format_device_printf(const std::string& format, uint64_t args, const DeviceReader& read, int* count);

// The NUL-terminated string at a generic address (at most `limit` bytes).
std::string read_device_string(uint64_t addr, const DeviceReader& read, size_t limit = 1 << 16);

}  // namespace warpsim::ptx
