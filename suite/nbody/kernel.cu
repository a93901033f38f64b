// All-pairs N-body accelerations (CUDA samples nbody, GPU Gems 3 ch. 31): each CTA stages a
// tile of bodies in shared memory, every thread accumulates the softened gravitational pull of
// the tile on its own body, then the CTA moves to the next tile.
extern "C" __global__ void nbody_accel(float4* accel, const float4* bodies, int n, float softening2) {
  extern __shared__ float4 tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? bodies[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += blockDim.x) {
    int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? bodies[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    for (int k = 0; k < blockDim.x; ++k) {
      float4 other = tile[k];
      float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
      float dist2 = dx * dx + dy * dy + dz * dz + softening2;
      float inv = rsqrtf(dist2);
      float f = other.w * inv * inv * inv;  // zero-mass padding adds nothing
      ax += dx * f;
      ay += dy * f;
      az += dz * f;
    }
    __syncthreads();
  }
  if (i < n) accel[i] = make_float4(ax, ay, az, 0.0f);
}
