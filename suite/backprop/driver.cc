#include <cmath>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kHid = 16;  // hidden units: the kernels' block width
constexpr float kEta = 0.3f, kMomentum = 0.3f;

float squash(double x) { return float(1.0 / (1.0 + std::exp(-x))); }

class Backprop final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int in = int(size.get_int("in"));
    if (in < 16 || in % 16 || in > (1 << 24)) throw Error("backprop: in must be a multiple of 16 in 16..2^24");
    int blocks = in / 16;
    size_t wcount = size_t(in + 1) * (kHid + 1);
    std::vector<float> input = random_floats(rng, size_t(in + 1), 0, 1);
    input[0] = 1.0f;  // bias unit
    std::vector<float> w = random_floats(rng, wcount, -0.5f, 0.5f);
    std::vector<float> oldw = random_floats(rng, wcount, -0.01f, 0.01f);
    std::vector<float> w2 = random_floats(rng, kHid + 1, -0.5f, 0.5f);  // hidden -> 1 output
    DevPtr din = rt.malloc(input.size() * 4), dw = rt.malloc(wcount * 4), dold = rt.malloc(wcount * 4);
    DevPtr dpartial = rt.malloc(size_t(blocks) * kHid * 4), ddelta = rt.malloc((kHid + 1) * 4);
    rt.memcpy_h2d(din, input.data(), input.size() * 4);
    rt.memcpy_h2d(dw, w.data(), wcount * 4);
    rt.memcpy_h2d(dold, oldw.data(), wcount * 4);
    KernelArgs fwd;
    fwd.add(din).add(dw).add(dpartial).add(in).add(kHid);
    rt.launch(rt.get_kernel(mod, "bpnn_layerforward"), {1, uint32_t(blocks), 1}, {16, 16, 1}, fwd);
    std::vector<float> partial(size_t(blocks) * kHid);
    rt.memcpy_d2h(partial.data(), dpartial, partial.size() * 4);

    // Partial sums: 16 products summed by the kernel's tree.
    std::vector<float> want_partial(partial.size());
    for (int b = 0; b < blocks; ++b)
      for (int j = 0; j < kHid; ++j) {
        double s = 0;
        for (int t = 0; t < 16; ++t) {
          int row = 16 * b + t + 1;
          s += double(w[size_t(row) * (kHid + 1) + j + 1]) * input[size_t(row)];
        }
        want_partial[size_t(b) * kHid + j] = float(s);
      }

    // Host part of the step, as in the original: hidden layer from the partial sums, output
    // layer, errors.
    std::vector<float> hidden(kHid + 1);
    hidden[0] = 1.0f;
    for (int j = 1; j <= kHid; ++j) {
      double s = w[size_t(j)];  // bias weight (row 0)
      for (int b = 0; b < blocks; ++b) s += partial[size_t(b) * kHid + j - 1];
      hidden[size_t(j)] = squash(s);
    }
    double o = 0;
    for (int j = 0; j <= kHid; ++j) o += double(hidden[size_t(j)]) * w2[size_t(j)];
    float out = squash(o), target = 0.1f;
    float out_delta = out * (1.0f - out) * (target - out);
    std::vector<float> delta(kHid + 1, 0.0f);
    for (int j = 1; j <= kHid; ++j)
      delta[size_t(j)] = hidden[size_t(j)] * (1.0f - hidden[size_t(j)]) * out_delta * w2[size_t(j)];
    rt.memcpy_h2d(ddelta, delta.data(), delta.size() * 4);
    KernelArgs adj;
    adj.add(ddelta).add(kHid).add(din).add(in).add(dw).add(dold);
    rt.launch(rt.get_kernel(mod, "bpnn_adjust_weights"), {1, uint32_t(blocks), 1}, {16, 16, 1}, adj);
    std::vector<float> got_w(wcount), got_old(wcount);
    rt.memcpy_d2h(got_w.data(), dw, wcount * 4);
    rt.memcpy_d2h(got_old.data(), dold, wcount * 4);

    std::vector<float> want_w = w, want_old = oldw;
    for (int row = 0; row <= in; ++row)
      for (int j = 1; j <= kHid; ++j) {
        size_t k = size_t(row) * (kHid + 1) + j;
        double change = double(kEta) * delta[size_t(j)] * input[size_t(row)] + double(kMomentum) * oldw[k];
        want_w[k] = float(w[k] + change);
        want_old[k] = float(change);
      }
    // Partial sums: 16 single-precision products of magnitude < 0.5, 1e-6 absolute. Weight
    // updates: one multiply-add chain, 1e-6 absolute.
    return Verifier()
        .check("partial_sum", partial, want_partial, 1e-5, 1e-6)
        .check("weights", got_w, want_w, 1e-6, 1e-6)
        .check("prev_weights", got_old, want_old, 1e-5, 1e-7)
        .outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(backprop, Backprop)

}  // namespace warpsim
