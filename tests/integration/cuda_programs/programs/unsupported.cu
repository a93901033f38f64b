// Calls an entry point the shim does not implement (IPC): the program must stop with a
// message naming it, not continue with a wrong answer.
#include "common.h"

int main() {
  void* p = nullptr;
  CHECK(cudaMalloc(&p, 256));
  cudaIpcMemHandle_t h;
  cudaError_t e = cudaIpcGetMemHandle(&h, p);
  std::printf("cudaIpcGetMemHandle returned %d\n", int(e));
  return 0;
}
