// Work-efficient exclusive prefix sum (Blelloch up-sweep / down-sweep in shared memory, with
// padding against bank conflicts). Each block of 256 threads scans 512 elements and records its
// total; the totals are scanned the same way (recursively if needed), and a second kernel adds
// each block's offset to its elements.
#define SCAN_THREADS 256
#define SCAN_ELEMS (2 * SCAN_THREADS)
#define PAD(i) ((i) + ((i) >> 5))

extern "C" __global__ void scan_blocks(const int* in, int* out, int* sums, int n) {
  __shared__ int t[SCAN_ELEMS + SCAN_ELEMS / 32];
  int tid = threadIdx.x;
  int base = blockIdx.x * SCAN_ELEMS;
  int ai = tid, bi = tid + SCAN_THREADS;
  t[PAD(ai)] = (base + ai < n) ? in[base + ai] : 0;
  t[PAD(bi)] = (base + bi < n) ? in[base + bi] : 0;
  int offset = 1;
  for (int d = SCAN_ELEMS >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1;
      int b = offset * (2 * tid + 2) - 1;
      t[PAD(b)] += t[PAD(a)];
    }
    offset <<= 1;
  }
  if (tid == 0) {
    if (sums) sums[blockIdx.x] = t[PAD(SCAN_ELEMS - 1)];
    t[PAD(SCAN_ELEMS - 1)] = 0;
  }
  for (int d = 1; d < SCAN_ELEMS; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1;
      int b = offset * (2 * tid + 2) - 1;
      int x = t[PAD(a)];
      t[PAD(a)] = t[PAD(b)];
      t[PAD(b)] += x;
    }
  }
  __syncthreads();
  if (base + ai < n) out[base + ai] = t[PAD(ai)];
  if (base + bi < n) out[base + bi] = t[PAD(bi)];
}

extern "C" __global__ void add_offsets(int* data, const int* offsets, int n) {
  __shared__ int off;
  if (threadIdx.x == 0) off = offsets[blockIdx.x];
  __syncthreads();
  int i = blockIdx.x * SCAN_ELEMS + threadIdx.x;
  if (i < n) data[i] += off;
  if (i + SCAN_THREADS < n) data[i + SCAN_THREADS] += off;
}
