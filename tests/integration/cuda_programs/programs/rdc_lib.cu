// The second device object of rdc_main.cu (separate compilation): the counter, scale() and
// wave(), with a private helper of the same name as rdc_main.cu's.
__device__ int counter = 0;

__device__ __noinline__ static float twice(float x) { return 2.0f * x; }

__device__ float scale(float x) { return 3.0f * (x + 2.0f); }
__device__ float wave(float x) { return twice(sinf(x)); }
