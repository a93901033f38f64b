// Binomial option pricing (CUDA samples binomialOptions): one CTA per option. The leaf values
// of the price tree sit in shared memory and the CTA walks the tree backwards one level per
// step, with a barrier between levels.
#define MAX_STEPS 1024

extern "C" __global__ void binomial_options(float* result, const float* price, const float* strike,
                                            const float* years, float riskfree, float volatility,
                                            int steps) {
  // Two levels of the tree, read from one buffer and written to the other.
  __shared__ float value[2][MAX_STEPS + 1];
  int opt = blockIdx.x;
  float s = price[opt], x = strike[opt], t = years[opt];
  float dt = t / steps;
  float vdt = volatility * sqrtf(dt);
  float rdt = riskfree * dt;
  float r = expf(rdt), rinv = 1.0f / r;
  float u = expf(vdt), d = 1.0f / u;
  float pu = (r - d) / (u - d), pd = 1.0f - pu;
  float pu_df = pu * rinv, pd_df = pd * rinv;
  for (int j = threadIdx.x; j <= steps; j += blockDim.x) {
    float sj = s * expf(vdt * (2.0f * j - steps));
    value[0][j] = fmaxf(sj - x, 0.0f);
  }
  __syncthreads();
  int cur = 0;
  for (int level = steps; level > 0; --level) {
    for (int j = threadIdx.x; j < level; j += blockDim.x)
      value[cur ^ 1][j] = pu_df * value[cur][j + 1] + pd_df * value[cur][j];
    cur ^= 1;
    __syncthreads();
  }
  if (threadIdx.x == 0) result[opt] = value[cur][0];
}
