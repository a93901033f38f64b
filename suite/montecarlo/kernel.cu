// Monte Carlo European option pricing (CUDA samples MonteCarlo): one CTA per option, each
// thread draws its share of the paths from its own linear congruential generator (normal
// variates by Box-Muller), then the CTA sums the payoffs in shared memory.
__device__ inline unsigned lcg(unsigned& state) {
  state = state * 1664525u + 1013904223u;
  return state;
}

extern "C" __global__ void monte_carlo(float* result, const float* price, const float* strike,
                                       const float* years, float riskfree, float volatility,
                                       int paths, unsigned seed) {
  extern __shared__ float partial[];
  int opt = blockIdx.x;
  float s = price[opt], x = strike[opt], t = years[opt];
  float drift = (riskfree - 0.5f * volatility * volatility) * t;
  float vsqrt_t = volatility * sqrtf(t);
  unsigned state = seed ^ (unsigned(opt) * 0x9e3779b9u) ^ (threadIdx.x * 0x85ebca6bu);
  float sum = 0.0f;
  for (int p = threadIdx.x * 2; p < paths; p += blockDim.x * 2) {
    float u1 = ((lcg(state) >> 8) + 1) * (1.0f / 16777216.0f);
    float u2 = (lcg(state) >> 8) * (1.0f / 16777216.0f);
    float radius = sqrtf(-2.0f * logf(u1));
    float angle = 6.28318530718f * u2;
    float z0 = radius * __cosf(angle), z1 = radius * __sinf(angle);
    sum += fmaxf(s * expf(drift + vsqrt_t * z0) - x, 0.0f);
    sum += fmaxf(s * expf(drift + vsqrt_t * z1) - x, 0.0f);
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) result[opt] = expf(-riskfree * t) * partial[0] / paths;
}
