// Thrust and CUB of the CUDA toolkit: reduce, inclusive scan and sort (CUB's single-tile
// kernels at this size). CUB picks its tuning policy by the PTX version cudaFuncGetAttributes
// reports for cub::EmptyKernel and refuses to run (cudaErrorInvalidDeviceFunction, thrown as a
// thrust::system_error) when that version is none the program was built for.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <cstdio>

int main() {
  const int n = 1000;
  thrust::host_vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 7919) % n;  // a permutation of 0..n-1
  thrust::device_vector<int> d = h;
  int sum = thrust::reduce(d.begin(), d.end());
  thrust::device_vector<int> scanned(n);
  thrust::inclusive_scan(d.begin(), d.end(), scanned.begin());
  int last = scanned.back();
  thrust::sort(d.begin(), d.end());
  thrust::host_vector<int> sorted = d;
  int misplaced = 0;
  for (int i = 0; i < n; ++i) misplaced += sorted[i] != i;
  std::printf("sum %d, scan %d, %d misplaced after sort\n", sum, last, misplaced);
  if (sum != n * (n - 1) / 2 || last != sum || misplaced != 0) return 1;
  std::printf("thrust: ok\n");
  return 0;
}
