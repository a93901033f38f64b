// libFuzzer target: see fatbin_input() in fuzz/fatbin_input.h.
#include "fatbin_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    warpsim::fuzz::fatbin_input(data, size);
  } catch (const warpsim::Error&) {
  }
  return 0;
}
