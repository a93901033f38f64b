// AES-128 encryption in ECB mode with the four 256-entry T-tables: each thread encrypts one
// 16-byte block in ten rounds of data-dependent table lookups. aes_encrypt_shared copies the
// tables into shared memory first (random bank conflicts); aes_encrypt_const reads them from
// constant memory (divergent addresses serialise in the constant cache). Round keys are in
// constant memory, read uniformly.
__constant__ unsigned int c_round_keys[44];
__constant__ unsigned int c_te[4 * 256];

template <class Table>
__device__ __forceinline__ uint4 encrypt_block(uint4 s, const Table* te) {
  const Table* te0 = te;
  const Table* te1 = te + 256;
  const Table* te2 = te + 512;
  const Table* te3 = te + 768;
  unsigned int s0 = s.x ^ c_round_keys[0], s1 = s.y ^ c_round_keys[1];
  unsigned int s2 = s.z ^ c_round_keys[2], s3 = s.w ^ c_round_keys[3];
  for (int r = 1; r < 10; ++r) {
    unsigned int t0 = te0[s0 >> 24] ^ te1[(s1 >> 16) & 0xff] ^ te2[(s2 >> 8) & 0xff] ^ te3[s3 & 0xff] ^ c_round_keys[4 * r];
    unsigned int t1 = te0[s1 >> 24] ^ te1[(s2 >> 16) & 0xff] ^ te2[(s3 >> 8) & 0xff] ^ te3[s0 & 0xff] ^ c_round_keys[4 * r + 1];
    unsigned int t2 = te0[s2 >> 24] ^ te1[(s3 >> 16) & 0xff] ^ te2[(s0 >> 8) & 0xff] ^ te3[s1 & 0xff] ^ c_round_keys[4 * r + 2];
    unsigned int t3 = te0[s3 >> 24] ^ te1[(s0 >> 16) & 0xff] ^ te2[(s1 >> 8) & 0xff] ^ te3[s2 & 0xff] ^ c_round_keys[4 * r + 3];
    s0 = t0; s1 = t1; s2 = t2; s3 = t3;
  }
  uint4 out;
  out.x = (te2[s0 >> 24] & 0xff000000u) ^ (te3[(s1 >> 16) & 0xff] & 0x00ff0000u) ^
          (te0[(s2 >> 8) & 0xff] & 0x0000ff00u) ^ (te1[s3 & 0xff] & 0x000000ffu) ^ c_round_keys[40];
  out.y = (te2[s1 >> 24] & 0xff000000u) ^ (te3[(s2 >> 16) & 0xff] & 0x00ff0000u) ^
          (te0[(s3 >> 8) & 0xff] & 0x0000ff00u) ^ (te1[s0 & 0xff] & 0x000000ffu) ^ c_round_keys[41];
  out.z = (te2[s2 >> 24] & 0xff000000u) ^ (te3[(s3 >> 16) & 0xff] & 0x00ff0000u) ^
          (te0[(s0 >> 8) & 0xff] & 0x0000ff00u) ^ (te1[s1 & 0xff] & 0x000000ffu) ^ c_round_keys[42];
  out.w = (te2[s3 >> 24] & 0xff000000u) ^ (te3[(s0 >> 16) & 0xff] & 0x00ff0000u) ^
          (te0[(s1 >> 8) & 0xff] & 0x0000ff00u) ^ (te1[s2 & 0xff] & 0x000000ffu) ^ c_round_keys[43];
  return out;
}

extern "C" __global__ void aes_encrypt_shared(const uint4* in, uint4* out, const unsigned int* te,
                                              int blocks) {
  __shared__ unsigned int s_te[4 * 256];
  for (int i = threadIdx.x; i < 4 * 256; i += blockDim.x) s_te[i] = te[i];
  __syncthreads();
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < blocks) out[b] = encrypt_block(in[b], s_te);
}

extern "C" __global__ void aes_encrypt_const(const uint4* in, uint4* out, int blocks) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < blocks) out[b] = encrypt_block(in[b], c_te);
}
