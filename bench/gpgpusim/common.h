#include <cmath>
#include <cstdio>
#include <cstdlib>
#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e = (x);                                                             \
    if (e != cudaSuccess) {                                                          \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)
static int finish(int bad, const char* name) {
  printf("%s: %s\n", name, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
