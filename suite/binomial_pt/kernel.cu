// Persistent-thread binomial option pricing (CUDA samples binomialOptions) for multikernel
// (QoS) experiments: each CTA loops over the options with a stride of the grid size and walks
// an option's price tree backwards in shared memory, one level per step, a barrier per level.
#define MAX_STEPS 256

extern "C" __global__ void binomial_options(float* result, const float* price, const float* strike,
                                            const float* years, float riskfree, float volatility,
                                            int steps, int options) {
  __shared__ float value[2][MAX_STEPS + 1];
  for (int opt = blockIdx.x; opt < options; opt += gridDim.x) {
    float s = price[opt], x = strike[opt], t = years[opt];
    float dt = t / steps;
    float vdt = volatility * sqrtf(dt);
    float rdt = riskfree * dt;
    float r = expf(rdt), rinv = 1.0f / r;
    float u = expf(vdt), d = 1.0f / u;
    float pu = (r - d) / (u - d), pd = 1.0f - pu;
    float pu_df = pu * rinv, pd_df = pd * rinv;
    __syncthreads();  // the previous option is done with the tree
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
}
