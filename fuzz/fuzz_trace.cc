// libFuzzer target: see trace_input() in fuzz/fuzz_inputs.h.
#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    warpsim::fuzz::trace_input(data, size);
  } catch (const warpsim::Error&) {
  }
  return 0;
}
