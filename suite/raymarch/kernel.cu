// Sphere tracing a signed distance field (ray marching, as in the CUDA ray-marching demos):
// one primary ray per pixel marches through a scene of spheres over a ground plane until it
// hits a surface or leaves the scene; rays grazing objects take many more steps (divergence).
// Each step's rounding is pinned down (__f*_rn, IEEE sqrtf) so the host reproduces it exactly.
#define NUM_SPHERES 6

__device__ __forceinline__ float dot3(float ax, float ay, float az, float bx, float by, float bz) {
  return __fadd_rn(__fadd_rn(__fmul_rn(ax, bx), __fmul_rn(ay, by)), __fmul_rn(az, bz));
}

__device__ float scene_distance(const float* spheres, float px, float py, float pz) {
  float d = __fadd_rn(py, 1.0f);  // ground plane y = -1
  for (int s = 0; s < NUM_SPHERES; ++s) {
    float dx = __fsub_rn(px, spheres[4 * s]), dy = __fsub_rn(py, spheres[4 * s + 1]),
          dz = __fsub_rn(pz, spheres[4 * s + 2]);
    float ds = __fsub_rn(sqrtf(dot3(dx, dy, dz, dx, dy, dz)), spheres[4 * s + 3]);
    d = fminf(d, ds);
  }
  return d;
}

extern "C" __global__ void raymarch(int* steps_out, float* depth_out, const float* spheres,
                                    int width, int height, int max_steps, float max_depth) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  float inv = 1.0f / float(height);
  float dx = __fmul_rn(__fsub_rn(__fmul_rn(2.0f, float(px)), float(width)), inv);
  float dy = __fmul_rn(__fsub_rn(float(height), __fmul_rn(2.0f, float(py))), inv);
  float dz = 1.5f;
  float len = sqrtf(dot3(dx, dy, dz, dx, dy, dz));
  dx = __fdiv_rn(dx, len);
  dy = __fdiv_rn(dy, len);
  dz = __fdiv_rn(dz, len);
  float t = 0.0f;
  int step = 0;
  for (; step < max_steps; ++step) {
    float d = scene_distance(spheres, __fmul_rn(dx, t), __fmul_rn(dy, t), __fadd_rn(__fmul_rn(dz, t), -3.0f));
    if (d < 0.001f) break;
    t = __fadd_rn(t, d);
    if (t > max_depth) break;
  }
  steps_out[py * width + px] = step;
  depth_out[py * width + px] = t;
}
