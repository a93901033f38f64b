#include <array>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

uint8_t gmul(uint8_t a, uint8_t b) {
  uint8_t p = 0;
  for (int i = 0; i < 8; ++i) {
    if (b & 1) p ^= a;
    bool hi = a & 0x80;
    a = uint8_t(a << 1);
    if (hi) a ^= 0x1b;
    b >>= 1;
  }
  return p;
}
uint8_t rotl8(uint8_t x, int k) { return uint8_t((x << k) | (x >> (8 - k))); }
uint32_t ror32(uint32_t x, int k) { return (x >> k) | (x << (32 - k)); }

// AES-128 with T-tables, generated from the field arithmetic (no stored constants).
struct Aes {
  std::array<uint8_t, 256> sbox{};
  std::vector<uint32_t> te = std::vector<uint32_t>(4 * 256);  // Te0..Te3
  std::array<uint32_t, 44> rk{};

  Aes() {
    for (int x = 0; x < 256; ++x) {
      uint8_t inv = 0;
      for (int y = 1; y < 256 && x; ++y)
        if (gmul(uint8_t(x), uint8_t(y)) == 1) inv = uint8_t(y);
      sbox[size_t(x)] = uint8_t(inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63);
    }
    for (int x = 0; x < 256; ++x) {
      uint8_t s = sbox[size_t(x)];
      uint32_t t0 = uint32_t(gmul(s, 2)) << 24 | uint32_t(s) << 16 | uint32_t(s) << 8 | gmul(s, 3);
      for (int t = 0; t < 4; ++t) te[size_t(t * 256 + x)] = t ? ror32(t0, 8 * t) : t0;
    }
  }
  uint32_t sub_word(uint32_t w) const {
    return uint32_t(sbox[w >> 24]) << 24 | uint32_t(sbox[(w >> 16) & 0xff]) << 16 |
           uint32_t(sbox[(w >> 8) & 0xff]) << 8 | sbox[w & 0xff];
  }
  void expand(const std::array<uint8_t, 16>& key) {
    for (int i = 0; i < 4; ++i)
      rk[size_t(i)] = uint32_t(key[size_t(4 * i)]) << 24 | uint32_t(key[size_t(4 * i + 1)]) << 16 |
                      uint32_t(key[size_t(4 * i + 2)]) << 8 | key[size_t(4 * i + 3)];
    uint8_t rcon = 1;
    for (int i = 4; i < 44; ++i) {
      uint32_t t = rk[size_t(i - 1)];
      if (i % 4 == 0) {
        t = sub_word((t << 8) | (t >> 24)) ^ (uint32_t(rcon) << 24);
        rcon = gmul(rcon, 2);
      }
      rk[size_t(i)] = rk[size_t(i - 4)] ^ t;
    }
  }
  void encrypt(const uint32_t in[4], uint32_t out[4]) const {
    const uint32_t *t0 = &te[0], *t1 = &te[256], *t2 = &te[512], *t3 = &te[768];
    uint32_t s[4], t[4];
    for (int i = 0; i < 4; ++i) s[i] = in[i] ^ rk[size_t(i)];
    for (int r = 1; r < 10; ++r) {
      for (int i = 0; i < 4; ++i)
        t[i] = t0[s[i] >> 24] ^ t1[(s[(i + 1) % 4] >> 16) & 0xff] ^ t2[(s[(i + 2) % 4] >> 8) & 0xff] ^
               t3[s[(i + 3) % 4] & 0xff] ^ rk[size_t(4 * r + i)];
      for (int i = 0; i < 4; ++i) s[i] = t[i];
    }
    for (int i = 0; i < 4; ++i)
      out[i] = (uint32_t(sbox[s[i] >> 24]) << 24 | uint32_t(sbox[(s[(i + 1) % 4] >> 16) & 0xff]) << 16 |
                uint32_t(sbox[(s[(i + 2) % 4] >> 8) & 0xff]) << 8 | sbox[s[(i + 3) % 4] & 0xff]) ^
               rk[size_t(40 + i)];
  }
};

class AesWorkload final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int blocks = int(size.get_int("blocks"));
    uint32_t block = uint32_t(size.get_int("block"));
    if (blocks < 1 || block < 1) throw Error("aes: blocks and block must be positive");
    Aes aes;
    Verifier v;
    // FIPS-197 appendix C.1 known answer for the host reference itself.
    {
      std::array<uint8_t, 16> key{};
      for (int i = 0; i < 16; ++i) key[size_t(i)] = uint8_t(i);
      aes.expand(key);
      uint32_t pt[4] = {0x00112233, 0x44556677, 0x8899aabb, 0xccddeeff}, ct[4];
      aes.encrypt(pt, ct);
      v.expect(ct[0] == 0x69c4e0d8 && ct[1] == 0x6a7b0430 && ct[2] == 0xd8cdb780 && ct[3] == 0x70b4c55a,
               "aes: host reference fails the FIPS-197 known-answer test");
    }
    std::array<uint8_t, 16> key{};
    for (auto& k : key) k = uint8_t(rng.below(256));
    aes.expand(key);
    size_t words = size_t(blocks) * 4;
    std::vector<uint32_t> plain(words);
    for (auto& w : plain) w = uint32_t(rng.next());
    DevPtr din = rt.malloc(words * 4), dout1 = rt.malloc(words * 4), dout2 = rt.malloc(words * 4);
    DevPtr dte = rt.malloc(4 * 256 * 4);
    rt.memcpy_h2d(din, plain.data(), words * 4);
    rt.memcpy_h2d(dte, aes.te.data(), 4 * 256 * 4);
    rt.memcpy_to_symbol(m, "c_round_keys", aes.rk.data(), 44 * 4);
    rt.memcpy_to_symbol(m, "c_te", aes.te.data(), 4 * 256 * 4);
    Dim3 grid{(uint32_t(blocks) + block - 1) / block, 1, 1};
    KernelArgs a1, a2;
    a1.add(din).add(dout1).add(dte).add(blocks);
    a2.add(din).add(dout2).add(blocks);
    rt.launch(rt.get_kernel(m, "aes_encrypt_shared"), grid, {block, 1, 1}, a1);
    rt.launch(rt.get_kernel(m, "aes_encrypt_const"), grid, {block, 1, 1}, a2);
    std::vector<uint32_t> got1(words), got2(words), want(words);
    rt.memcpy_d2h(got1.data(), dout1, words * 4);
    rt.memcpy_d2h(got2.data(), dout2, words * 4);
    for (size_t b = 0; b < size_t(blocks); ++b) aes.encrypt(&plain[4 * b], &want[4 * b]);
    return v.check("cipher_shared", got1, want).check("cipher_const", got2, want).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(aes, AesWorkload)

}  // namespace warpsim
