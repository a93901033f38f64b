// Calls an entry point the shim does not implement (graphs): the program must stop with a
// message naming it, not continue with a wrong answer.
#include "common.h"

int main() {
  cudaGraph_t g = nullptr;
  cudaError_t e = cudaGraphCreate(&g, 0);
  std::printf("cudaGraphCreate returned %d\n", int(e));
  return 0;
}
