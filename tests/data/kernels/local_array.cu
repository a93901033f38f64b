// Per-thread arrays indexed dynamically live in local memory.
extern "C" __global__ void local_sort(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a[16];
  for (int k = 0; k < 16; ++k) a[k] = in[(i * 7 + k * 13) % n];
  // insertion sort with data-dependent indices
  for (int k = 1; k < 16; ++k) {
    int key = a[k];
    int j = k - 1;
    while (j >= 0 && a[j] > key) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = key;
  }
  int idx = in[i] & 15;
  out[i] = a[idx] * 100 + a[15 - idx];
}
