// Black-Scholes European option pricing (CUDA samples BlackScholes): the cumulative normal by
// its polynomial approximation, one call and one put price per option, several options per
// thread in a grid-stride loop.
__device__ inline float cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
              A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = RSQRT2PI * expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  return d > 0 ? 1.0f - c : c;
}

extern "C" __global__ void black_scholes(float* call, float* put, const float* price,
                                         const float* strike, const float* years, float riskfree,
                                         float volatility, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float s = price[i], x = strike[i], t = years[i];
    float sqrt_t = sqrtf(t);
    float d1 = (logf(s / x) + (riskfree + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
    float d2 = d1 - volatility * sqrt_t;
    float cnd1 = cnd(d1), cnd2 = cnd(d2);
    float exp_rt = expf(-riskfree * t);
    call[i] = s * cnd1 - x * exp_rt * cnd2;
    put[i] = x * exp_rt * (1.0f - cnd2) - s * (1.0f - cnd1);
  }
}
