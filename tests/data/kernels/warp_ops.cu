// Warp shuffles and votes.
extern "C" __global__ void warp_ops(const int* in, int* out) {
  int lane = threadIdx.x & 31;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  // reduction with shfl.down
  int sum = v;
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  // inclusive scan with shfl.up
  int scan = v;
  for (int o = 1; o < 32; o <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, scan, o);
    if (lane >= o) scan += y;
  }
  int bfly = __shfl_xor_sync(0xffffffffu, v, 5);
  int bcast = __shfl_sync(0xffffffffu, v, 7);
  int seg = __shfl_down_sync(0xffffffffu, v, 3, 8);   // width 8 segments
  unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
  int any = __any_sync(0xffffffffu, v > 90);
  int all = __all_sync(0xffffffffu, v >= 0);
  int* o = out + i * 8;
  o[0] = sum;  // only lane 0 meaningful
  o[1] = scan;
  o[2] = bfly;
  o[3] = bcast;
  o[4] = seg;
  o[5] = int(ballot);
  o[6] = any;
  o[7] = all;
}
