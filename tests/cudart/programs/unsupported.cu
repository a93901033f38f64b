// Calls an entry point the shim does not implement (managed memory): the program must stop
// with a message naming it, not continue with a wrong answer.
#include "common.h"

int main() {
  float* p = nullptr;
  cudaError_t e = cudaMallocManaged(&p, 1024);
  std::printf("cudaMallocManaged returned %d\n", int(e));
  return 0;
}
