// N-queens solution counting by bitmask backtracking: the host enumerates the placements of
// the first `prefix_rows` queens, one per thread; each thread finishes its board with an
// explicit-stack depth-first search. Work per thread varies wildly (divergence).
#define MAX_N 16

extern "C" __global__ void nqueens(unsigned* counts, int n, int prefix_rows, int num_prefixes) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= num_prefixes) return;
  unsigned all = (1u << n) - 1u;
  unsigned cols = 0, diag_l = 0, diag_r = 0;
  int code = t;
  bool valid = true;
  for (int r = 0; r < prefix_rows; ++r) {
    int c = code % n;
    code /= n;
    unsigned bit = 1u << c;
    if ((cols | diag_l | diag_r) & bit) valid = false;
    cols |= bit;
    diag_l = ((diag_l | bit) << 1) & all;
    diag_r = (diag_r | bit) >> 1;
  }
  unsigned found = 0;
  if (valid) {
    unsigned s_cols[MAX_N], s_dl[MAX_N], s_dr[MAX_N], s_free[MAX_N];
    int depth = 0;
    s_cols[0] = cols;
    s_dl[0] = diag_l;
    s_dr[0] = diag_r;
    s_free[0] = all & ~(cols | diag_l | diag_r);
    int rows_left = n - prefix_rows;
    if (rows_left == 0) found = 1;
    else {
      while (depth >= 0) {
        unsigned free = s_free[depth];
        if (free == 0) { --depth; continue; }
        unsigned bit = free & (0u - free);
        s_free[depth] = free ^ bit;
        if (depth + 1 == rows_left) { ++found; continue; }
        unsigned nc = s_cols[depth] | bit;
        unsigned nl = ((s_dl[depth] | bit) << 1) & all;
        unsigned nr = (s_dr[depth] | bit) >> 1;
        ++depth;
        s_cols[depth] = nc;
        s_dl[depth] = nl;
        s_dr[depth] = nr;
        s_free[depth] = all & ~(nc | nl | nr);
      }
    }
  }
  counts[t] = found;
}
