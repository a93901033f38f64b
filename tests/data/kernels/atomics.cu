// Global and shared atomics of every kind.
extern "C" __global__ void histogram(const unsigned* in, unsigned* hist, int n, int bins) {
  extern __shared__ unsigned local_hist[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local_hist[in[i] % bins], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&hist[b], local_hist[b]);
}

// slots: 0 add, 1 min, 2 max, 3 and, 4 or, 5 xor, 6 exch-count, 7 cas-counter, 8 inc, 9 dec,
// 10 (float bits) fadd, 11 signed min, 12 signed max
extern "C" __global__ void atomic_mix(int* slots, float* fsum, int* old_exch) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned* u = reinterpret_cast<unsigned*>(slots);
  atomicAdd(&slots[0], t);
  atomicMin(&u[1], unsigned(1000 - t));
  atomicMax(&u[2], unsigned(t * 3));
  atomicAnd(&slots[3], ~(1 << (t % 31)));
  atomicOr(&slots[4], 1 << (t % 29));
  atomicXor(&slots[5], t);
  old_exch[t] = atomicExch(&slots[6], t);
  int cur = slots[7], seen;
  do {
    seen = cur;
    cur = atomicCAS(&slots[7], seen, seen + 2);
  } while (cur != seen);
  atomicInc(&u[8], 16u);
  atomicDec(&u[9], 5u);
  atomicAdd(fsum, 0.5f);
  atomicMin(&slots[11], 50 - t);
  atomicMax(&slots[12], t - 50);
}
