// Coulomb potential on a 2D lattice slice (Parboil cp): the atoms (x, y, z, charge) sit in
// constant memory, loaded chunk by chunk by the host; every thread accumulates the potential
// of UNROLLX lattice points along x, so one atom read feeds several rsqrt evaluations.
#define MAX_ATOMS 4000
#define UNROLLX 4

__constant__ float4 atominfo[MAX_ATOMS];

extern "C" __global__ void cenergy(float* energy, int width, int num_atoms, float spacing, float z) {
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLLX;
  float coory = spacing * y;
  float coorx = spacing * x0;
  float e0 = 0.0f, e1 = 0.0f, e2 = 0.0f, e3 = 0.0f;
  for (int a = 0; a < num_atoms; ++a) {
    float4 at = atominfo[a];
    float dy = coory - at.y, dz = z - at.z;
    float dyz2 = dy * dy + dz * dz;
    float dx0 = coorx - at.x;
    float dx1 = dx0 + spacing, dx2 = dx0 + 2.0f * spacing, dx3 = dx0 + 3.0f * spacing;
    e0 += at.w * rsqrtf(dx0 * dx0 + dyz2);
    e1 += at.w * rsqrtf(dx1 * dx1 + dyz2);
    e2 += at.w * rsqrtf(dx2 * dx2 + dyz2);
    e3 += at.w * rsqrtf(dx3 * dx3 + dyz2);
  }
  float* row = energy + y * width + x0;
  row[0] += e0;
  row[1] += e1;
  row[2] += e2;
  row[3] += e3;
}
