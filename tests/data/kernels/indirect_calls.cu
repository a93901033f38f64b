// Indirect calls and recursion as nvcc compiles them: virtual functions of objects built on
// the device (the vtable pointer is loaded from memory), a table of device function pointers,
// and recursive device functions; lanes of a warp take different targets and depths.
#include <new>

struct Op {
  __device__ virtual int apply(int x) const { return x; }
};
struct AddK : Op {
  int k;
  __device__ explicit AddK(int v) : k(v) {}
  __device__ int apply(int x) const override { return x + k; }
};
struct MulK : Op {
  int k;
  __device__ explicit MulK(int v) : k(v) {}
  __device__ int apply(int x) const override { return x * k; }
};

// Object i of `storage` (16 bytes each): AddK(i), MulK(i % 5) or the base Op, by i % 3.
extern "C" __global__ void build_objects(char* storage, Op** objs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  void* p = storage + 16 * i;
  Op* o;
  if (i % 3 == 0) o = new (p) AddK(i);
  else if (i % 3 == 1) o = new (p) MulK(i % 5);
  else o = new (p) Op();
  objs[i] = o;
}

extern "C" __global__ void virtual_calls(Op* const* objs, const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = objs[i]->apply(in[i]);
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

// Sum of the digits of v, digit by digit through a local array that must survive the
// recursive call.
__device__ __noinline__ int digit_sum(unsigned v, int depth) {
  int buf[4];
  for (int j = 0; j < 4; ++j) buf[j] = int(v % 10) * (j + 1);
  int rest = v >= 10 ? digit_sum(v / 10, depth + 1) : 0;
  return buf[depth & 3] / ((depth & 3) + 1) + rest;
}

__device__ int triple(int x) { return 3 * x; }
__device__ int negate(int x) { return -x; }
__device__ int ds(int x) { return digit_sum(unsigned(x), 0); }

typedef int (*IntFn)(int);
__device__ IntFn table[4] = {fib, triple, negate, ds};

extern "C" __global__ void pointer_calls(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i];
  out[i] = table[i % 4](i % 4 == 0 ? x % 18 : x);
}

extern "C" __global__ void recursion(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i];
  out[i] = fib(x % 16) + 1000 * digit_sum(unsigned(x), 0);
}
