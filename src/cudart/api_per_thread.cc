// Per-thread default-stream variants (programs built with --default-stream per-thread call
// these). warpsim treats the per-thread default stream like the legacy default stream, which
// orders more work than CUDA requires but never less.
#include <cstddef>

#include "cudart/cuda_abi.h"

using namespace warpsim::cudart;

#define CUDART_API extern "C" __attribute__((visibility("default")))
#define FORWARD(name, suffix, params, args) \
  CUDART_API cudaError_t name params;       \
  CUDART_API cudaError_t name##suffix params { return name args; }

FORWARD(cudaMemcpy, _ptds, (void* d, const void* s, size_t n, int k), (d, s, n, k))
FORWARD(cudaMemcpyAsync, _ptsz, (void* d, const void* s, size_t n, int k, void* st), (d, s, n, k, st))
FORWARD(cudaMemset, _ptds, (void* p, int v, size_t n), (p, v, n))
FORWARD(cudaMemsetAsync, _ptsz, (void* p, int v, size_t n, void* st), (p, v, n, st))
FORWARD(cudaMemset2D, _ptds, (void* p, size_t pitch, int v, size_t w, size_t h), (p, pitch, v, w, h))
FORWARD(cudaMemcpy2D, _ptds, (void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, int k),
        (d, dp, s, sp, w, h, k))
FORWARD(cudaMemcpy2DAsync, _ptsz, (void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, int k, void* st),
        (d, dp, s, sp, w, h, k, st))
FORWARD(cudaMemcpyToSymbol, _ptds, (const void* sym, const void* s, size_t n, size_t off, int k), (sym, s, n, off, k))
FORWARD(cudaMemcpyFromSymbol, _ptds, (void* d, const void* sym, size_t n, size_t off, int k), (d, sym, n, off, k))
FORWARD(cudaMemcpyToSymbolAsync, _ptsz, (const void* sym, const void* s, size_t n, size_t off, int k, void* st),
        (sym, s, n, off, k, st))
FORWARD(cudaMemcpyFromSymbolAsync, _ptsz, (void* d, const void* sym, size_t n, size_t off, int k, void* st),
        (d, sym, n, off, k, st))
FORWARD(cudaMemcpy2DToArray, _ptds,
        (CudaArray * a, size_t wo, size_t ho, const void* s, size_t sp, size_t w, size_t h, int k),
        (a, wo, ho, s, sp, w, h, k))
FORWARD(cudaMemcpy2DFromArray, _ptds,
        (void* d, size_t dp, CudaArray* a, size_t wo, size_t ho, size_t w, size_t h, int k),
        (d, dp, a, wo, ho, w, h, k))
FORWARD(cudaMemcpyToArray, _ptds, (CudaArray * a, size_t wo, size_t ho, const void* s, size_t n, int k),
        (a, wo, ho, s, n, k))
FORWARD(cudaMemcpyFromArray, _ptds, (void* d, CudaArray* a, size_t wo, size_t ho, size_t n, int k),
        (d, a, wo, ho, n, k))
FORWARD(cudaMemPrefetchAsync, _ptsz, (const void* p, size_t n), (p, n))
FORWARD(cudaStreamAttachMemAsync, _ptsz, (void* st, void* p, size_t n, unsigned f), (st, p, n, f))
FORWARD(cudaStreamSynchronize, _ptsz, (void* st), (st))
FORWARD(cudaStreamQuery, _ptsz, (void* st), (st))
FORWARD(cudaStreamWaitEvent, _ptsz, (void* st, void* e, unsigned f), (st, e, f))
FORWARD(cudaStreamGetFlags, _ptsz, (void* st, unsigned* f), (st, f))
FORWARD(cudaStreamGetPriority, _ptsz, (void* st, int* p), (st, p))
FORWARD(cudaEventRecord, _ptsz, (void* e, void* st), (e, st))
FORWARD(cudaEventRecordWithFlags, _ptsz, (void* e, void* st, unsigned f), (e, st, f))
FORWARD(cudaMemcpy3D, _ptds, (const cudaMemcpy3DParms* p), (p))
FORWARD(cudaMemcpy3DAsync, _ptsz, (const cudaMemcpy3DParms* p, void* st), (p, st))
FORWARD(cudaMallocAsync, _ptsz, (void** p, size_t n, void* st), (p, n, st))
FORWARD(cudaMallocFromPoolAsync, _ptsz, (void** p, size_t n, void* pool, void* st), (p, n, pool, st))
FORWARD(cudaFreeAsync, _ptsz, (void* p, void* st), (p, st))
FORWARD(cudaStreamBeginCapture, _ptsz, (void* st, int mode), (st, mode))
FORWARD(cudaStreamEndCapture, _ptsz, (void* st, void** g), (st, g))
FORWARD(cudaStreamIsCapturing, _ptsz, (void* st, int* status), (st, status))
FORWARD(cudaGraphLaunch, _ptsz, (void* e, void* st), (e, st))
FORWARD(cudaGraphUpload, _ptsz, (void* e, void* st), (e, st))
