// Shared by the test programs: stop with a message when a runtime call fails.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                            \
  do {                                                                                                         \
    cudaError_t err_ = (call);                                                                                 \
    if (err_ != cudaSuccess) {                                                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_), \
                   cudaGetErrorName(err_));                                                                    \
      std::exit(2);                                                                                            \
    }                                                                                                          \
  } while (0)
