#include "ptx/ops.h"

#include <algorithm>
#include <cfenv>
#include <climits>
#include <limits>
#include <type_traits>

namespace warpsim::ptx {

namespace {

template <class T>
inline T get(uint64_t v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v & 1;
  } else {
    T t;
    std::memcpy(&t, &v, sizeof(T));
    return t;
  }
}
template <class T>
inline uint64_t put(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x ? 1 : 0;
  } else {
    uint64_t r = 0;
    std::memcpy(&r, &x, sizeof(T));
    return r;
  }
}

inline uint64_t* dst(uint64_t* R, const Inst& in, int i = 0) { return R + size_t(in.d[i]) * 32; }
inline const uint64_t* src(const uint64_t* R, const Inst& in, int i) { return R + size_t(in.s[i]) * 32; }

// ---------------------------------------------------------------- integer ops
template <class T>
using U = std::make_unsigned_t<T>;

template <class T>
struct Wide;
template <>
struct Wide<uint16_t> {
  using type = uint32_t;
};
template <>
struct Wide<int16_t> {
  using type = int32_t;
};
template <>
struct Wide<uint32_t> {
  using type = uint64_t;
};
template <>
struct Wide<int32_t> {
  using type = int64_t;
};
template <>
struct Wide<uint64_t> {
  using type = unsigned __int128;
};
template <>
struct Wide<int64_t> {
  using type = __int128;
};

template <class T>
inline T mul_hi(T a, T b) {
  using W = typename Wide<T>::type;
  return T(W(a) * W(b) >> (8 * sizeof(T)));
}

template <class T>
inline T sat_add(T a, T b, bool sub) {
  int64_t r = sub ? int64_t(a) - int64_t(b) : int64_t(a) + int64_t(b);
  if (r > std::numeric_limits<T>::max()) return std::numeric_limits<T>::max();
  if (r < std::numeric_limits<T>::min()) return std::numeric_limits<T>::min();
  return T(r);
}

template <class T>
void h_add(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  if (in.mods & (kModCC | kModSat)) {
    uint64_t* cf = in.mods & kModCC ? R + size_t(in.d[1]) * 32 : nullptr;
    for_lanes(m, [&](int l) {
      T x = get<T>(a[l]), y = get<T>(b[l]);
      if (cf) {
        U<T> s = U<T>(U<T>(x) + U<T>(y));
        cf[l] = s < U<T>(x) ? 1 : 0;
        d[l] = put<T>(T(s));
      } else if constexpr (std::is_signed_v<T>) {
        d[l] = put<T>(sat_add<T>(x, y, false));
      } else {
        d[l] = put<T>(T(x + y));
      }
    });
    return;
  }
  for_lanes(m, [&](int l) { d[l] = put<T>(T(U<T>(get<T>(a[l])) + U<T>(get<T>(b[l])))); });
}

template <class T>
void h_sub(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  if (in.mods & (kModCC | kModSat)) {
    uint64_t* cf = in.mods & kModCC ? R + size_t(in.d[1]) * 32 : nullptr;
    for_lanes(m, [&](int l) {
      T x = get<T>(a[l]), y = get<T>(b[l]);
      if (cf) {
        // a + ~b + 1; carry out set when no borrow occurs
        cf[l] = U<T>(x) >= U<T>(y) ? 1 : 0;
        d[l] = put<T>(T(U<T>(x) - U<T>(y)));
      } else if constexpr (std::is_signed_v<T>) {
        d[l] = put<T>(sat_add<T>(x, y, true));
      } else {
        d[l] = put<T>(T(x - y));
      }
    });
    return;
  }
  for_lanes(m, [&](int l) { d[l] = put<T>(T(U<T>(get<T>(a[l])) - U<T>(get<T>(b[l])))); });
}

// addc / subc: with carry in (s[2] is the carry register), optional carry out (d[1]).
template <class T>
void h_addc(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1), *ci = src(R, in, 2);
  uint64_t* co = in.mods & kModCC ? R + size_t(in.d[1]) * 32 : nullptr;
  bool sub = in.op == Op::Subc;
  for_lanes(m, [&](int l) {
    U<T> x = U<T>(get<T>(a[l])), y = U<T>(get<T>(b[l]));
    if (sub) y = U<T>(~y);
    uint64_t c = ci[l] & 1;
    using W = typename Wide<U<T>>::type;
    W s = W(x) + W(y) + W(c);
    d[l] = put<T>(T(U<T>(s)));
    if (co) co[l] = uint64_t(s >> (8 * sizeof(T))) & 1;
  });
}

template <class T>
void h_mul(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  switch (MulMode(in.sub)) {
    case MulMode::Lo:
      for_lanes(m, [&](int l) { d[l] = put<T>(T(U<T>(get<T>(a[l])) * U<T>(get<T>(b[l])))); });
      break;
    case MulMode::Hi:
      for_lanes(m, [&](int l) { d[l] = put<T>(mul_hi<T>(get<T>(a[l]), get<T>(b[l]))); });
      break;
    case MulMode::Wide:
      if constexpr (sizeof(T) <= 4) {
        using W = typename Wide<T>::type;
        for_lanes(m, [&](int l) { d[l] = put<W>(W(get<T>(a[l])) * W(get<T>(b[l]))); });
      }
      break;
  }
}

template <class T>
void h_mad(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1), *c = src(R, in, 2);
  uint64_t* co = (in.mods & kModCC) ? R + size_t(in.d[1]) * 32 : nullptr;
  const uint64_t* ci = in.op == Op::Madc ? src(R, in, 3) : nullptr;
  if (MulMode(in.sub) == MulMode::Lo && !co && !ci && !(in.mods & kModSat)) {
    for_lanes(m, [&](int l) { d[l] = put<T>(T(U<T>(U<T>(get<T>(a[l])) * U<T>(get<T>(b[l])) + U<T>(get<T>(c[l]))))); });
    return;
  }
  switch (MulMode(in.sub)) {
    case MulMode::Lo:
    case MulMode::Hi:
      for_lanes(m, [&](int l) {
        T x = get<T>(a[l]), y = get<T>(b[l]);
        U<T> p = MulMode(in.sub) == MulMode::Lo ? U<T>(U<T>(x) * U<T>(y)) : U<T>(mul_hi<T>(x, y));
        if (!co && !ci) {
          if constexpr (std::is_signed_v<T>) {
            if (in.mods & kModSat) {
              d[l] = put<T>(sat_add<T>(T(p), get<T>(c[l]), false));
              return;
            }
          }
          d[l] = put<T>(T(U<T>(p + U<T>(get<T>(c[l])))));
          return;
        }
        using W = typename Wide<U<T>>::type;
        W s = W(p) + W(U<T>(get<T>(c[l]))) + W(ci ? (ci[l] & 1) : 0);
        d[l] = put<T>(T(U<T>(s)));
        if (co) co[l] = uint64_t(s >> (8 * sizeof(T))) & 1;
      });
      break;
    case MulMode::Wide:
      if constexpr (sizeof(T) <= 4) {
        using W = typename Wide<T>::type;
        for_lanes(m, [&](int l) {
          using UW = std::make_unsigned_t<W>;
          d[l] = put<W>(W(UW(W(get<T>(a[l])) * W(get<T>(b[l]))) + UW(get<W>(c[l]))));
        });
      }
      break;
  }
}

template <class T>
inline T idiv(T a, T b) {
  if (b == 0) {
    if constexpr (std::is_signed_v<T>)
      return a < 0 ? T(1) : T(-1);
    else
      return T(~T(0));
  }
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return T(U<T>(0) - U<T>(a));  // MIN / -1 wraps
  }
  return T(a / b);
}
template <class T>
inline T irem(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return 0;
  }
  return T(a % b);
}

template <class T>
void h_div(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  if (in.op == Op::Rem)
    for_lanes(m, [&](int l) { d[l] = put<T>(irem<T>(get<T>(a[l]), get<T>(b[l]))); });
  else
    for_lanes(m, [&](int l) { d[l] = put<T>(idiv<T>(get<T>(a[l]), get<T>(b[l]))); });
}

template <class T, class F>
inline void unary(uint64_t* R, const Inst& in, uint32_t m, F f) {
  uint64_t* d = dst(R, in);
  const uint64_t* a = src(R, in, 0);
  for_lanes(m, [&](int l) { d[l] = put<T>(f(get<T>(a[l]))); });
}
template <class T, class F>
inline void binary(uint64_t* R, const Inst& in, uint32_t m, F f) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  for_lanes(m, [&](int l) { d[l] = put<T>(f(get<T>(a[l]), get<T>(b[l]))); });
}

template <class T>
void h_abs(uint64_t* R, const Inst& in, uint32_t m) {
  unary<T>(R, in, m, [](T x) { return x < 0 ? T(U<T>(0) - U<T>(x)) : x; });
}
template <class T>
void h_neg(uint64_t* R, const Inst& in, uint32_t m) {
  unary<T>(R, in, m, [](T x) { return T(U<T>(0) - U<T>(x)); });
}
template <class T>
void h_min(uint64_t* R, const Inst& in, uint32_t m) {
  binary<T>(R, in, m, [](T x, T y) { return x < y ? x : y; });
}
template <class T>
void h_max(uint64_t* R, const Inst& in, uint32_t m) {
  binary<T>(R, in, m, [](T x, T y) { return x > y ? x : y; });
}
template <class T>
void h_and(uint64_t* R, const Inst& in, uint32_t m) {
  binary<T>(R, in, m, [](T x, T y) { return T(x & y); });
}
template <class T>
void h_or(uint64_t* R, const Inst& in, uint32_t m) {
  binary<T>(R, in, m, [](T x, T y) { return T(x | y); });
}
template <class T>
void h_xor(uint64_t* R, const Inst& in, uint32_t m) {
  binary<T>(R, in, m, [](T x, T y) { return T(x ^ y); });
}
template <class T>
void h_not(uint64_t* R, const Inst& in, uint32_t m) {
  if constexpr (std::is_same_v<T, bool>)
    unary<T>(R, in, m, [](T x) { return !x; });
  else
    unary<T>(R, in, m, [](T x) { return T(~x); });
}
template <class T>
void h_cnot(uint64_t* R, const Inst& in, uint32_t m) {
  unary<T>(R, in, m, [](T x) { return T(x == 0 ? 1 : 0); });
}
template <class T>
void h_shl(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  constexpr uint32_t N = 8 * sizeof(T);
  for_lanes(m, [&](int l) {
    uint32_t s = uint32_t(b[l]);
    d[l] = put<T>(s >= N ? T(0) : T(U<T>(get<T>(a[l])) << s));
  });
}
template <class T>
void h_shr(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  constexpr uint32_t N = 8 * sizeof(T);
  for_lanes(m, [&](int l) {
    uint32_t s = uint32_t(b[l]);
    T x = get<T>(a[l]);
    if (s >= N)
      s = N - 1, x = std::is_signed_v<T> ? T(x >> s) : T(0);
    else
      x = T(x >> s);
    d[l] = put<T>(x);
  });
}
template <class T>
void h_mov(uint64_t* R, const Inst& in, uint32_t m) {
  unary<T>(R, in, m, [](T x) { return x; });
}
template <class T>
void h_selp(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1), *c = src(R, in, 2);
  for_lanes(m, [&](int l) { d[l] = put<T>(get<T>((c[l] & 1) ? a[l] : b[l])); });
}

template <class T>
inline bool icmp(Cmp c, T a, T b) {
  using UT = U<T>;
  switch (c) {
    case Cmp::EQ:
    case Cmp::EQU:
      return a == b;
    case Cmp::NE:
    case Cmp::NEU:
      return a != b;
    case Cmp::LT:
    case Cmp::LTU:
      return a < b;
    case Cmp::LE:
    case Cmp::LEU:
      return a <= b;
    case Cmp::GT:
    case Cmp::GTU:
      return a > b;
    case Cmp::GE:
    case Cmp::GEU:
      return a >= b;
    case Cmp::LO:
      return UT(a) < UT(b);
    case Cmp::LS:
      return UT(a) <= UT(b);
    case Cmp::HI:
      return UT(a) > UT(b);
    case Cmp::HS:
      return UT(a) >= UT(b);
    default:
      return false;
  }
}
template <class F>
inline bool fcmp(Cmp c, F a, F b) {
  bool un = std::isnan(a) || std::isnan(b);
  switch (c) {
    case Cmp::EQ:
      return !un && a == b;
    case Cmp::NE:
      return !un && a != b;
    case Cmp::LT:
      return !un && a < b;
    case Cmp::LE:
      return !un && a <= b;
    case Cmp::GT:
      return !un && a > b;
    case Cmp::GE:
      return !un && a >= b;
    case Cmp::EQU:
      return un || a == b;
    case Cmp::NEU:
      return un || a != b;
    case Cmp::LTU:
      return un || a < b;
    case Cmp::LEU:
      return un || a <= b;
    case Cmp::GTU:
      return un || a > b;
    case Cmp::GEU:
      return un || a >= b;
    case Cmp::NUM:
      return !un;
    case Cmp::NAN_:
      return un;
    default:
      return false;
  }
}

inline bool combine(BoolOp op, bool r, bool c) {
  switch (op) {
    case BoolOp::And:
      return r && c;
    case BoolOp::Or:
      return r || c;
    case BoolOp::Xor:
      return r != c;
    default:
      return r;
  }
}

// setp with the comparison hoisted out of the lane loop: `cmp` is a stateless functor.
template <class T, class C>
void setp_run(uint64_t* R, const Inst& in, uint32_t m, C cmp) {
  uint64_t* p = dst(R, in, 0);
  uint64_t* q = in.d[1] != kNone ? dst(R, in, 1) : nullptr;
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  if constexpr (std::is_same_v<T, float>) {
    if (in.mods & kModFtz) {
      const uint64_t* c = in.boolop != BoolOp::None ? src(R, in, 2) : nullptr;
      const bool cneg = in.mods & kModNegSrc0;
      for_lanes(m, [&](int l) {
        bool r = cmp(ftz32(get<float>(a[l])), ftz32(get<float>(b[l])));
        bool cv = c ? ((c[l] & 1) != 0) != cneg : false;
        p[l] = combine(in.boolop, r, cv);
        if (q) q[l] = combine(in.boolop, !r, cv);
      });
      return;
    }
  }
  if (in.boolop == BoolOp::None && !q) {
    for_lanes(m, [&](int l) { p[l] = cmp(get<T>(a[l]), get<T>(b[l])) ? 1 : 0; });
    return;
  }
  const uint64_t* c = in.boolop != BoolOp::None ? src(R, in, 2) : nullptr;
  const bool cneg = in.mods & kModNegSrc0;
  for_lanes(m, [&](int l) {
    bool r = cmp(get<T>(a[l]), get<T>(b[l]));
    bool cv = c ? ((c[l] & 1) != 0) != cneg : false;
    p[l] = combine(in.boolop, r, cv);
    if (q) q[l] = combine(in.boolop, !r, cv);
  });
}

template <class T>
void h_setp(uint64_t* R, const Inst& in, uint32_t m) {
  if constexpr (std::is_floating_point_v<T>) {
    // C++ relational operators are false on NaN: the ordered comparisons as written, the
    // unordered ones as negated ordered comparisons.
    switch (in.cmp) {
      case Cmp::EQ:
        return setp_run<T>(R, in, m, [](T x, T y) { return x == y; });
      case Cmp::NE:
        return setp_run<T>(R, in, m, [](T x, T y) { return x < y || x > y; });
      case Cmp::LT:
        return setp_run<T>(R, in, m, [](T x, T y) { return x < y; });
      case Cmp::LE:
        return setp_run<T>(R, in, m, [](T x, T y) { return x <= y; });
      case Cmp::GT:
        return setp_run<T>(R, in, m, [](T x, T y) { return x > y; });
      case Cmp::GE:
        return setp_run<T>(R, in, m, [](T x, T y) { return x >= y; });
      case Cmp::EQU:
        return setp_run<T>(R, in, m, [](T x, T y) { return !(x < y || x > y); });
      case Cmp::NEU:
        return setp_run<T>(R, in, m, [](T x, T y) { return x != y; });
      case Cmp::LTU:
        return setp_run<T>(R, in, m, [](T x, T y) { return !(x >= y); });
      case Cmp::LEU:
        return setp_run<T>(R, in, m, [](T x, T y) { return !(x > y); });
      case Cmp::GTU:
        return setp_run<T>(R, in, m, [](T x, T y) { return !(x <= y); });
      case Cmp::GEU:
        return setp_run<T>(R, in, m, [](T x, T y) { return !(x < y); });
      case Cmp::NUM:
        return setp_run<T>(R, in, m, [](T x, T y) { return x == x && y == y; });
      case Cmp::NAN_:
        return setp_run<T>(R, in, m, [](T x, T y) { return x != x || y != y; });
      default:
        return setp_run<T>(R, in, m, [](T, T) { return false; });
    }
  } else {
    using UT = U<T>;
    switch (in.cmp) {
      case Cmp::EQ:
      case Cmp::EQU:
        return setp_run<T>(R, in, m, [](T x, T y) { return x == y; });
      case Cmp::NE:
      case Cmp::NEU:
        return setp_run<T>(R, in, m, [](T x, T y) { return x != y; });
      case Cmp::LT:
      case Cmp::LTU:
        return setp_run<T>(R, in, m, [](T x, T y) { return x < y; });
      case Cmp::LE:
      case Cmp::LEU:
        return setp_run<T>(R, in, m, [](T x, T y) { return x <= y; });
      case Cmp::GT:
      case Cmp::GTU:
        return setp_run<T>(R, in, m, [](T x, T y) { return x > y; });
      case Cmp::GE:
      case Cmp::GEU:
        return setp_run<T>(R, in, m, [](T x, T y) { return x >= y; });
      case Cmp::LO:
        return setp_run<T>(R, in, m, [](T x, T y) { return UT(x) < UT(y); });
      case Cmp::LS:
        return setp_run<T>(R, in, m, [](T x, T y) { return UT(x) <= UT(y); });
      case Cmp::HI:
        return setp_run<T>(R, in, m, [](T x, T y) { return UT(x) > UT(y); });
      case Cmp::HS:
        return setp_run<T>(R, in, m, [](T x, T y) { return UT(x) >= UT(y); });
      default:
        return setp_run<T>(R, in, m, [](T, T) { return false; });
    }
  }
}

// ---------------------------------------------------------------- bit manipulation
template <class T>
void h_brev(uint64_t* R, const Inst& in, uint32_t m) {
  unary<T>(R, in, m, [](T x) {
    T r = 0;
    for (unsigned i = 0; i < 8 * sizeof(T); ++i) r = T(r | (((x >> i) & 1) << (8 * sizeof(T) - 1 - i)));
    return r;
  });
}
template <class T>
void h_clz(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t* a = src(R, in, 0);
  for_lanes(m, [&](int l) { d[l] = uint32_t(std::countl_zero(U<T>(get<T>(a[l])))); });
}
template <class T>
void h_popc(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t* a = src(R, in, 0);
  for_lanes(m, [&](int l) { d[l] = uint32_t(std::popcount(U<T>(get<T>(a[l])))); });
}
template <class T>
void h_bfind(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t* a = src(R, in, 0);
  constexpr int N = 8 * sizeof(T);
  bool shiftamt = in.mods & kModShiftAmt;
  for_lanes(m, [&](int l) {
    T x = get<T>(a[l]);
    U<T> ux = U<T>(x);
    if constexpr (std::is_signed_v<T>) {
      if (x < 0) ux = U<T>(~ux);
    }
    uint32_t r = 0xffffffffu;
    if (ux != 0) {
      int pos = N - 1 - std::countl_zero(ux);
      r = shiftamt ? uint32_t(N - 1 - pos) : uint32_t(pos);
    }
    d[l] = r;
  });
}
template <class T>
void h_bfe(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1), *c = src(R, in, 2);
  constexpr uint32_t N = 8 * sizeof(T);
  for_lanes(m, [&](int l) {
    U<T> x = U<T>(get<T>(a[l]));
    uint32_t pos = uint32_t(b[l]) & 0xff, len = uint32_t(c[l]) & 0xff;
    uint32_t msb = N - 1;
    uint64_t sbit = 0;
    if (std::is_signed_v<T> && len != 0) sbit = (x >> std::min(pos + len - 1, msb)) & 1;
    U<T> r = 0;
    for (uint32_t i = 0; i < N; ++i) {
      uint64_t bit = (i < len && pos + i <= msb) ? (x >> (pos + i)) & 1 : sbit;
      r = U<T>(r | (U<T>(bit) << i));
    }
    d[l] = put<T>(T(r));
  });
}
template <class T>
void h_bfi(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1), *c = src(R, in, 2), *e = src(R, in, 3);
  constexpr uint32_t N = 8 * sizeof(T);
  for_lanes(m, [&](int l) {
    U<T> f = U<T>(get<T>(a[l])), r = U<T>(get<T>(b[l]));
    uint32_t pos = uint32_t(c[l]) & 0xff, len = uint32_t(e[l]) & 0xff;
    for (uint32_t i = 0; i < len && pos + i < N; ++i) {
      U<T> bit = U<T>(U<T>(1) << (pos + i));
      r = U<T>(((f >> i) & 1) ? (r | bit) : (r & U<T>(~bit)));
    }
    d[l] = put<T>(T(r));
  });
}
// SIMD video instructions (vadd4, vabsdiff2, ...), PTX ISA semantics with the default
// selections: lane i of a and of b (bytes for 4 lanes, halfwords for 2), sign- or
// zero-extended by their types; t[i] = op(a[i], b[i]), clamped to the lane range of the
// destination type with .sat. With .add, d = c + the sum of the t[i]; otherwise d is the
// t[i] packed back into lanes (the default mask takes every lane from t).
void h_video(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1), *c = src(R, in, 2);
  const int lanes = in.vec, bits = 32 / lanes;
  const uint32_t lane_mask = lanes == 4 ? 0xffu : 0xffffu;
  const bool as = in.offset & kVideoASigned, bs = in.offset & kVideoBSigned, ds = in.offset & kVideoDSigned;
  const bool acc = in.offset & kVideoAccumulate, sat = in.mods & kModSat;
  const VideoOp op = VideoOp(in.sub);
  auto lane = [&](uint32_t v, int i, bool sgn) -> int64_t {
    uint32_t x = (v >> (bits * i)) & lane_mask;
    if (sgn && (x >> (bits - 1) & 1)) return int64_t(x) - (int64_t(1) << bits);
    return int64_t(x);
  };
  const int64_t lo = ds ? -(int64_t(1) << (bits - 1)) : 0;
  const int64_t hi = ds ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
  for_lanes(m, [&](int l) {
    const uint32_t av = uint32_t(a[l]), bv = uint32_t(b[l]), cv = uint32_t(c[l]);
    int64_t sum = 0;
    uint32_t packed = 0;
    for (int i = 0; i < lanes; ++i) {
      const int64_t x = lane(av, i, as), y = lane(bv, i, bs);
      int64_t t = 0;
      switch (op) {
        case VideoOp::Add:
          t = x + y;
          break;
        case VideoOp::Sub:
          t = x - y;
          break;
        case VideoOp::Avrg:
          t = x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1;
          break;
        case VideoOp::Absdiff:
          t = x > y ? x - y : y - x;
          break;
        case VideoOp::Min:
          t = std::min(x, y);
          break;
        case VideoOp::Max:
          t = std::max(x, y);
          break;
      }
      if (sat) t = std::clamp(t, lo, hi);
      sum += t;
      packed |= (uint32_t(t) & lane_mask) << (bits * i);
    }
    d[l] = acc ? uint32_t(int64_t(cv) + sum) : packed;
  });
}

// lop3: each result bit is bit (a << 2 | b << 1 | c) of the look-up table (Inst::sub).
void h_lop3(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1), *c = src(R, in, 2);
  const uint32_t lut = in.sub;
  for_lanes(m, [&](int l) {
    const uint32_t x = uint32_t(a[l]), y = uint32_t(b[l]), z = uint32_t(c[l]);
    uint32_t r = 0;
    for (int k = 0; k < 8; ++k)
      if (lut >> k & 1) r |= (k & 4 ? x : ~x) & (k & 2 ? y : ~y) & (k & 1 ? z : ~z);
    d[l] = r;
  });
}

void h_prmt(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1), *c = src(R, in, 2);
  int mode = in.sub;  // 0 default, 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr, 6 rc16
  for_lanes(m, [&](int l) {
    uint64_t x = (uint64_t(uint32_t(b[l])) << 32) | uint32_t(a[l]);
    uint32_t s = uint32_t(c[l]);
    uint8_t bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = uint8_t(x >> (8 * i));
    uint32_t r = 0;
    for (int i = 0; i < 4; ++i) {
      uint8_t v;
      if (mode == 0) {
        uint32_t sel = (s >> (4 * i)) & 0xf;
        v = bytes[sel & 7];
        if (sel & 8) v = (v & 0x80) ? 0xff : 0;
      } else {
        uint32_t sel = s & 3, idx = 0;
        switch (mode) {
          case 1:
            idx = (sel + i) & 7;
            break;
          case 2:
            idx = (sel - i) & 7;
            break;
          case 3:
            idx = sel;
            break;
          case 4:
            idx = uint32_t(i) >= sel ? uint32_t(i) : sel;
            break;
          case 5:
            idx = uint32_t(i) <= sel ? uint32_t(i) : sel;
            break;
          default:
            idx = (sel & 1) * 2 + (i & 1);
            break;
        }
        v = bytes[idx & 7];
      }
      r |= uint32_t(v) << (8 * i);
    }
    d[l] = r;
  });
}

void h_shf(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1), *c = src(R, in, 2);
  const bool left = in.sub & 1, wrap = in.sub & 2;
  for_lanes(m, [&](int l) {
    uint64_t v = (uint64_t(uint32_t(b[l])) << 32) | uint32_t(a[l]);
    uint32_t n = uint32_t(c[l]);
    n = wrap ? (n & 31) : std::min(n, 32u);
    d[l] = left ? uint32_t((v << n) >> 32) : uint32_t(v >> n);
  });
}

// bmsk.mode.b32 d, a, b: b bits of ones from bit a (PTX ISA semantics, .clamp and .wrap).
void h_bmsk(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  const bool wrap = in.sub & 1;
  for_lanes(m, [&](int l) {
    const uint32_t av = uint32_t(a[l]), bv = uint32_t(b[l]);
    const uint32_t a1 = av & 31, b1 = bv & 31, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1;
    bool overflow = sum >= 32;
    if (!wrap) {
      if (av >= 32) overflow = true, mask0 = 0;
      if (bv >= 32) overflow = true;
    }
    const uint32_t mask1 = overflow ? 0u : b1 == 0 ? ~0u : ~0u << sum;
    d[l] = mask0 & ~mask1;
  });
}
// szext.mode.type d, a, b: the low b bits of a, sign- (.s32) or zero-extended (.u32).
void h_szext(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  const bool wrap = in.sub & 1, sign = in.type == Type::S32;
  for_lanes(m, [&](int l) {
    const uint32_t av = uint32_t(a[l]), bv = uint32_t(b[l]);
    const uint32_t b1 = bv & 31;
    const bool too_large = bv >= 32 && !wrap;
    const uint32_t mask = too_large ? 0u : ~0u << b1;
    const bool sign_bit = sign && b1 != 0 && !too_large && ((av >> ((b1 - 1) & 31)) & 1);
    const uint32_t r = (av & ~mask) | (sign_bit ? mask : 0u);
    d[l] = r;
  });
}

// ---------------------------------------------------------------- floating point
inline float sat32(float f) {
  if (std::isnan(f)) return 0.0f;
  return f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
}
inline double sat64(double f) {
  if (std::isnan(f)) return 0.0;
  return f < 0.0 ? 0.0 : (f > 1.0 ? 1.0 : f);
}

template <class F>
inline F fmin_ptx(F a, F b) {
  if (std::isnan(a)) return std::isnan(b) ? std::numeric_limits<F>::quiet_NaN() : b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class F>
inline F fmax_ptx(F a, F b) {
  if (std::isnan(a)) return std::isnan(b) ? std::numeric_limits<F>::quiet_NaN() : b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

// f32 arithmetic with .ftz/.sat/rounding.
template <Op OP>
void h_f32(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t* a = src(R, in, 0);
  const uint64_t* b = in.nsrc > 1 ? src(R, in, 1) : nullptr;
  const uint64_t* c = in.nsrc > 2 ? src(R, in, 2) : nullptr;
  const bool ftz = in.mods & kModFtz, sat = in.mods & kModSat;
  const bool directed = in.rnd == Rnd::RZ || in.rnd == Rnd::RM || in.rnd == Rnd::RP;
  if constexpr (OP == Op::Add || OP == Op::Sub || OP == Op::Mul || OP == Op::Fma) {
    if (!ftz && !sat && !directed) {
      for_lanes(m, [&](int l) {
        float x = as_f32(a[l]), y = as_f32(b[l]);
        float r;
        if constexpr (OP == Op::Add)
          r = x + y;
        else if constexpr (OP == Op::Sub)
          r = x - y;
        else if constexpr (OP == Op::Mul)
          r = x * y;
        else {
          // x*y is exact in double; the sum rounds once there. Rounding that double to float
          // is only wrong when it lands exactly halfway between two floats (or in the float
          // subnormal range): use the correctly rounded fmaf for those lanes.
          float z = as_f32(c[l]);
          double p = double(x) * double(y) + double(z);
          uint64_t bits = std::bit_cast<uint64_t>(p);
          if ((bits & 0x1fffffffu) == 0x10000000u || std::fabs(p) < 1.1754943508222875e-38)
            r = std::fma(x, y, z);
          else
            r = float(p);
        }
        d[l] = from_f32(r);
      });
      return;
    }
  }
  for_lanes(m, [&](int l) {
    float x = as_f32(a[l]);
    float y = b ? as_f32(b[l]) : 0.0f;
    float z = c ? as_f32(c[l]) : 0.0f;
    if (ftz) x = ftz32(x), y = ftz32(y), z = ftz32(z);
    float r;
    if constexpr (OP == Op::Add)
      r = directed ? round_to_f32(double(x) + double(y), in.rnd) : x + y;
    else if constexpr (OP == Op::Sub)
      r = directed ? round_to_f32(double(x) - double(y), in.rnd) : x - y;
    else if constexpr (OP == Op::Mul)
      r = directed ? round_to_f32(double(x) * double(y), in.rnd) : x * y;
    else if constexpr (OP == Op::Fma)
      r = directed ? round_to_f32(std::fma(double(x), double(y), double(z)), in.rnd) : std::fma(x, y, z);
    else if constexpr (OP == Op::Div) {
      // div.approx is a * rcp(b) with a reciprocal that flushes subnormal results: two
      // roundings, and 0 (NaN for infinite a) when 2^126 < |b| < 2^128.
      if (in.mods & kModApprox)
        r = x * ftz32(1.0f / y);
      else
        r = directed ? round_to_f32(double(x) / double(y), in.rnd) : x / y;
    } else if constexpr (OP == Op::Min)
      r = fmin_ptx(x, y);
    else if constexpr (OP == Op::Max)
      r = fmax_ptx(x, y);
    else if constexpr (OP == Op::Abs)
      r = std::fabs(x);
    else if constexpr (OP == Op::Neg)
      r = -x;
    else if constexpr (OP == Op::Sqrt)
      r = std::sqrt(x);
    else if constexpr (OP == Op::Rsqrt)
      r = 1.0f / std::sqrt(x);
    else if constexpr (OP == Op::Rcp)
      r = directed ? round_to_f32(1.0 / double(x), in.rnd) : 1.0f / x;
    else if constexpr (OP == Op::Ex2)
      r = std::exp2(x);
    else if constexpr (OP == Op::Lg2)
      r = std::log2(x);
    else if constexpr (OP == Op::Sin)
      r = std::sin(x);
    else if constexpr (OP == Op::Cos)
      r = std::cos(x);
    else if constexpr (OP == Op::Tanh)
      r = std::tanh(x);
    else if constexpr (OP == Op::Copysign)
      r = std::copysign(y, x);
    else
      r = x;
    if (sat) r = sat32(r);
    if (ftz) r = ftz32(r);
    d[l] = from_f32(r);
  });
}

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define WARPSIM_FMA_CLONE 1
// fma.rn.f32 (no .ftz/.sat) compiled for hosts with FMA instructions: one fused operation per
// lane, selected at decode time when the CPU has them (the portable path above emulates the
// single rounding through double arithmetic).
__attribute__((target("fma"))) void h_fma_f32_hw(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = R + size_t(in.d[0]) * 32;
  const uint64_t* a = R + size_t(in.s[0]) * 32;
  const uint64_t* b = R + size_t(in.s[1]) * 32;
  const uint64_t* c = R + size_t(in.s[2]) * 32;
  if (m == 0xffffffffu) {
    for (int l = 0; l < 32; ++l)
      d[l] = std::bit_cast<uint32_t>(__builtin_fmaf(std::bit_cast<float>(uint32_t(a[l])),
                                                    std::bit_cast<float>(uint32_t(b[l])),
                                                    std::bit_cast<float>(uint32_t(c[l]))));
    return;
  }
  while (m) {
    int l = __builtin_ctz(m);
    m &= m - 1;
    d[l] = std::bit_cast<uint32_t>(__builtin_fmaf(std::bit_cast<float>(uint32_t(a[l])),
                                                  std::bit_cast<float>(uint32_t(b[l])),
                                                  std::bit_cast<float>(uint32_t(c[l]))));
  }
}
#endif

template <Op OP>
void h_f64(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t* a = src(R, in, 0);
  const uint64_t* b = in.nsrc > 1 ? src(R, in, 1) : nullptr;
  const uint64_t* c = in.nsrc > 2 ? src(R, in, 2) : nullptr;
  const bool sat = in.mods & kModSat, ftz = in.mods & kModFtz;
  const bool directed = in.rnd == Rnd::RZ || in.rnd == Rnd::RM || in.rnd == Rnd::RP;
  for_lanes(m, [&](int l) {
    double x = as_f64(a[l]);
    double y = b ? as_f64(b[l]) : 0.0;
    double z = c ? as_f64(c[l]) : 0.0;
    if (ftz) x = ftz64(x);
    double r;
    if constexpr (OP == Op::Add || OP == Op::Sub || OP == Op::Mul || OP == Op::Fma || OP == Op::Div) {
      if (directed) {
        r = f64_op_rounded(OP, x, y, z, in.rnd);
      } else {
        if constexpr (OP == Op::Add)
          r = x + y;
        else if constexpr (OP == Op::Sub)
          r = x - y;
        else if constexpr (OP == Op::Mul)
          r = x * y;
        else if constexpr (OP == Op::Fma)
          r = std::fma(x, y, z);
        else
          r = x / y;
      }
    } else if constexpr (OP == Op::Min)
      r = fmin_ptx(x, y);
    else if constexpr (OP == Op::Max)
      r = fmax_ptx(x, y);
    else if constexpr (OP == Op::Abs)
      r = std::fabs(x);
    else if constexpr (OP == Op::Neg)
      r = -x;
    else if constexpr (OP == Op::Sqrt)
      r = std::sqrt(x);
    else if constexpr (OP == Op::Rsqrt)
      r = 1.0 / std::sqrt(x);
    else if constexpr (OP == Op::Rcp)
      r = directed ? f64_op_rounded(Op::Div, 1.0, x, 0, in.rnd) : 1.0 / x;
    else if constexpr (OP == Op::Ex2)
      r = std::exp2(x);
    else if constexpr (OP == Op::Lg2)
      r = std::log2(x);
    else if constexpr (OP == Op::Sin)
      r = std::sin(x);
    else if constexpr (OP == Op::Cos)
      r = std::cos(x);
    else if constexpr (OP == Op::Copysign)
      r = std::copysign(y, x);
    else
      r = x;
    if (sat) r = sat64(r);
    if (ftz) r = ftz64(r);
    d[l] = from_f64(r);
  });
}

// ---------------------------------------------------------------- half precision
// binary16 values travel in the low 16 bits of a register (.f16) or as two halves (.f16x2,
// element 0 in bits 0..15). Sums, differences and products of two halves are exact in double,
// so one rounding of the double result gives the correctly rounded half; fma corrects the one
// case where the double sum is inexact (see h16_fma). NaN results are the canonical 0x7fff.
constexpr uint16_t kF16CanonicalNaN = 0x7fff;
inline bool h16_isnan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }
inline uint16_t h16_ftz(uint16_t h) { return (h & 0x7c00) == 0 ? uint16_t(h & 0x8000) : h; }
inline double h16_val(uint16_t h) { return double(f16_to_f32(h)); }

inline uint16_t h16_fma(uint16_t a, uint16_t b, uint16_t c, Rnd r) {
  double p = h16_val(a) * h16_val(b);  // exact: 11 x 11 significant bits
  double z = h16_val(c);
  double s = p + z;
  if (std::isfinite(s)) {
    // Two-sum: s + e == p + z exactly. A non-zero error moves s by one double ulp towards the
    // exact sum, which never crosses a half-precision value or midpoint but breaks ties and
    // exact hits the right way for every rounding mode.
    double bb = s - p;
    double e = (p - (s - bb)) + (z - bb);
    if (e > 0)
      s = std::nextafter(s, INFINITY);
    else if (e < 0)
      s = std::nextafter(s, -INFINITY);
  }
  return f64_to_f16(s, r);
}

template <Op OP>
inline uint16_t h16_op(uint16_t a, uint16_t b, uint16_t c, const Inst& in) {
  const bool ftz = in.mods & kModFtz, sat = in.mods & kModSat;
  const Rnd r = in.rnd == Rnd::None ? Rnd::RN : in.rnd;
  if (ftz) a = h16_ftz(a), b = h16_ftz(b), c = h16_ftz(c);
  // neg and abs only touch the sign bit (NaNs pass through).
  if constexpr (OP == Op::Neg) return uint16_t(a ^ 0x8000);
  if constexpr (OP == Op::Abs) return uint16_t(a & 0x7fff);
  uint16_t res = a;
  if constexpr (OP == Op::Add)
    res = f64_to_f16(h16_val(a) + h16_val(b), r);
  else if constexpr (OP == Op::Sub)
    res = f64_to_f16(h16_val(a) - h16_val(b), r);
  else if constexpr (OP == Op::Mul)
    res = f64_to_f16(h16_val(a) * h16_val(b), r);
  else if constexpr (OP == Op::Fma)
    res = h16_fma(a, b, c, r);
  else if constexpr (OP == Op::Min || OP == Op::Max) {
    float x = f16_to_f32(a), y = f16_to_f32(b);
    float m = OP == Op::Min ? fmin_ptx(x, y) : fmax_ptx(x, y);
    res = std::isnan(m) ? kF16CanonicalNaN : (m == x && std::signbit(m) == std::signbit(x) ? a : b);
  }
  if (h16_isnan(res)) res = kF16CanonicalNaN;
  if (sat) {
    if (h16_isnan(res))
      res = 0;
    else if (res & 0x8000)
      res = (res & 0x7fff) == 0 ? res : 0;  // negative -> +0 (-0 kept)
    else if (res > 0x3c00)
      res = 0x3c00;  // above 1.0 (inf included)
  }
  if (ftz) res = h16_ftz(res);
  return res;
}

template <Op OP, bool X2>
void h_f16(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t* a = src(R, in, 0);
  const uint64_t* b = in.nsrc > 1 ? src(R, in, 1) : a;
  const uint64_t* c = in.nsrc > 2 ? src(R, in, 2) : a;
  for_lanes(m, [&](int l) {
    uint64_t lo = h16_op<OP>(uint16_t(a[l]), uint16_t(b[l]), uint16_t(c[l]), in);
    if constexpr (X2)
      lo |= uint64_t(h16_op<OP>(uint16_t(a[l] >> 16), uint16_t(b[l] >> 16), uint16_t(c[l] >> 16), in)) << 16;
    d[l] = lo;
  });
}

// setp on halves: .f16x2 writes the comparison of the low halves to the first predicate and of
// the high halves to the second.
template <bool X2>
void h_setp_f16(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* p = dst(R, in, 0);
  uint64_t* q = in.d[1] != kNone ? dst(R, in, 1) : nullptr;
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  const uint64_t* c = in.boolop != BoolOp::None ? src(R, in, 2) : nullptr;
  const bool ftz = in.mods & kModFtz, cneg = in.mods & kModNegSrc0;
  auto cmp = [&](uint16_t x, uint16_t y) {
    if (ftz) x = h16_ftz(x), y = h16_ftz(y);
    return fcmp(in.cmp, f16_to_f32(x), f16_to_f32(y));
  };
  for_lanes(m, [&](int l) {
    bool cv = c ? ((c[l] & 1) != 0) != cneg : false;
    bool r0 = cmp(uint16_t(a[l]), uint16_t(b[l]));
    if constexpr (X2) {
      p[l] = combine(in.boolop, r0, cv);
      if (q) q[l] = combine(in.boolop, cmp(uint16_t(a[l] >> 16), uint16_t(b[l] >> 16)), cv);
    } else {
      p[l] = combine(in.boolop, r0, cv);
      if (q) q[l] = combine(in.boolop, !r0, cv);
    }
  });
}

// set: like setp, but writes an integer mask (0xffffffff) or 1.0f for true and 0 for false.
template <class T>
void h_set(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  const uint64_t* c = in.boolop != BoolOp::None ? src(R, in, 2) : nullptr;
  const bool ftz = in.mods & kModFtz, cneg = in.mods & kModNegSrc0;
  const uint64_t one = in.type == Type::F32 ? from_f32(1.0f) : 0xffffffffu;
  for_lanes(m, [&](int l) {
    bool r;
    if constexpr (std::is_same_v<T, float>) {
      float x = get<float>(a[l]), y = get<float>(b[l]);
      if (ftz) x = ftz32(x), y = ftz32(y);
      r = fcmp(in.cmp, x, y);
    } else if constexpr (std::is_same_v<T, double>) {
      r = fcmp(in.cmp, get<double>(a[l]), get<double>(b[l]));
    } else {
      r = icmp<T>(in.cmp, get<T>(a[l]), get<T>(b[l]));
    }
    bool cv = c ? ((c[l] & 1) != 0) != cneg : false;
    d[l] = combine(in.boolop, r, cv) ? one : 0;
  });
}

// testp: classifies a float; in.sub is the TestpMode.
template <class F>
void h_testp(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t* a = src(R, in, 0);
  for_lanes(m, [&](int l) {
    F x = get<F>(a[l]);
    bool r = false;
    switch (TestpMode(in.sub)) {
      case TestpMode::Finite:
        r = std::isfinite(x);
        break;
      case TestpMode::Infinite:
        r = std::isinf(x);
        break;
      case TestpMode::Number:
        r = !std::isnan(x);
        break;
      case TestpMode::NotANumber:
        r = std::isnan(x);
        break;
      case TestpMode::Normal:
        r = std::fpclassify(x) == FP_NORMAL;
        break;
      case TestpMode::Subnormal:
        r = std::fpclassify(x) == FP_SUBNORMAL;
        break;
    }
    d[l] = r;
  });
}

// mul24 / mad24: the low 24 bits of each operand (sign-extended for .s32) multiplied into a
// 48-bit product; .lo keeps bits 0..31, .hi bits 16..47. mad24 adds the third operand (with
// saturation for .hi.sat.s32).
template <class T>
void h_mul24(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1);
  const uint64_t* c = in.op == Op::Mad24 ? src(R, in, 2) : nullptr;
  const bool hi = MulMode(in.sub) == MulMode::Hi, sat = in.mods & kModSat;
  auto ext = [](uint64_t v) -> int64_t {
    if constexpr (std::is_signed_v<T>)
      return int64_t(int32_t(uint32_t(v) << 8) >> 8);
    else
      return int64_t(v & 0xffffff);
  };
  for_lanes(m, [&](int l) {
    int64_t p = ext(a[l]) * ext(b[l]);  // |p| < 2^47
    uint32_t r = hi ? uint32_t(uint64_t(p >> 16)) : uint32_t(uint64_t(p));
    if (c) {
      if constexpr (std::is_signed_v<T>) {
        if (sat) {
          int64_t s = int64_t(int32_t(r)) + int64_t(int32_t(uint32_t(c[l])));
          s = std::clamp<int64_t>(s, INT32_MIN, INT32_MAX);
          d[l] = put<int32_t>(int32_t(s));
          return;
        }
      }
      r += uint32_t(c[l]);
    }
    d[l] = put<T>(T(r));
  });
}

// sad: d = c + |a - b|.
template <class T>
void h_sad(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t *a = src(R, in, 0), *b = src(R, in, 1), *c = src(R, in, 2);
  for_lanes(m, [&](int l) {
    T x = get<T>(a[l]), y = get<T>(b[l]);
    U<T> diff = x < y ? U<T>(U<T>(y) - U<T>(x)) : U<T>(U<T>(x) - U<T>(y));
    d[l] = put<T>(T(U<T>(diff + U<T>(get<T>(c[l])))));
  });
}

// ---------------------------------------------------------------- conversions
uint64_t cvt_one(uint64_t v, const Inst& in) {
  Type dt = in.type, st = in.type2;
  const bool ftz = in.mods & kModFtz, sat = in.mods & kModSat;
  int dbits = 8 * type_bytes(dt);
  if (type_is_float(st)) {
    double x;
    if (st == Type::F32) {
      float f = as_f32(v);
      if (ftz) f = ftz32(f);
      x = f;
    } else if (st == Type::F64) {
      x = as_f64(v);
    } else if (st == Type::BF16) {
      x = bf16_to_f32(uint16_t(v));
    } else {
      x = f16_to_f32(uint16_t(v));
    }
    if (type_is_float(dt)) {
      if (in.rnd == Rnd::RNI || in.rnd == Rnd::RZI || in.rnd == Rnd::RMI || in.rnd == Rnd::RPI)
        x = round_integral(x, in.rnd);
      if (dt == Type::F32) {
        float f = st == Type::F64 ? round_to_f32(x, in.rnd == Rnd::None ? Rnd::RN : in.rnd) : float(x);
        if (sat) f = sat32(f);
        if (ftz) f = ftz32(f);
        return from_f32(f);
      }
      if (dt == Type::F64) {
        if (sat) x = sat64(x);
        return from_f64(x);
      }
      if (sat) x = sat64(x);
      const Rnd hr = in.rnd == Rnd::None ? Rnd::RN : in.rnd;
      if (dt == Type::BF16) {
        uint16_t h = f64_to_bf16(x, hr);
        return ftz && (h & 0x7f80) == 0 ? uint16_t(h & 0x8000) : h;
      }
      uint16_t h = f64_to_f16(x, hr);
      return ftz ? h16_ftz(h) : h;
    }
    Rnd r = in.rnd == Rnd::None ? Rnd::RZI : in.rnd;
    if (type_is_signed(dt)) return uint64_t(f2i_signed(x, r, dbits)) & (dbits == 64 ? ~0ull : ((1ull << dbits) - 1));
    return f2i_unsigned(x, r, dbits);
  }
  // integer source
  int sbits = 8 * type_bytes(st);
  bool ssigned = type_is_signed(st);
  uint64_t raw = sbits == 64 ? v : (v & ((1ull << sbits) - 1));
  int64_t sv = ssigned ? (sbits == 64 ? int64_t(raw) : (int64_t(raw << (64 - sbits)) >> (64 - sbits))) : int64_t(raw);
  if (type_is_float(dt)) {
    long double x = ssigned ? (long double)sv : (long double)raw;
    Rnd r = in.rnd == Rnd::None ? Rnd::RN : in.rnd;
    if (dt == Type::F32) {
      float f;
      if (r == Rnd::RN)
        f = ssigned ? float(sv) : float(raw);
      else
        f = round_to_f32(double(x), r);  // exact for |x| < 2^53; close enough beyond
      if (sat) f = sat32(f);
      return from_f32(f);
    }
    if (dt == Type::F64) {
      double f;
      if (r == Rnd::RN) {
        f = ssigned ? double(sv) : double(raw);
      } else {
        f = double(x);
        long double back = f;
        if ((r == Rnd::RZ && std::fabs(back) > std::fabs(x)) || (r == Rnd::RM && back > x))
          f = std::nextafter(f, r == Rnd::RZ ? 0.0 : -INFINITY);
        else if (r == Rnd::RP && back < x)
          f = std::nextafter(f, INFINITY);
      }
      return from_f64(f);
    }
    return dt == Type::BF16 ? f64_to_bf16(double(x), r) : f64_to_f16(double(x), r);
  }
  bool dsigned = type_is_signed(dt);
  if (sat && dbits < 64) {
    int64_t lo = dsigned ? -(int64_t(1) << (dbits - 1)) : 0;
    int64_t hi = dsigned ? (int64_t(1) << (dbits - 1)) - 1 : int64_t((1ull << dbits) - 1);
    if (ssigned) {
      sv = sv < lo ? lo : (sv > hi ? hi : sv);
      raw = uint64_t(sv);
    } else {
      raw = raw > uint64_t(hi) ? uint64_t(hi) : raw;
    }
  } else if (sat && dbits == 64) {
    if (dsigned && !ssigned && sbits == 64 && raw > uint64_t(INT64_MAX))
      raw = uint64_t(INT64_MAX);
    else if (!dsigned && ssigned && sv < 0)
      raw = 0;
    else
      raw = ssigned ? uint64_t(sv) : raw;
  } else {
    raw = ssigned ? uint64_t(sv) : raw;  // sign- or zero-extend to 64 bits
  }
  // Narrow destination: keep the sign extension for signed results (harmless for readers).
  if (dbits < 64) {
    raw &= (1ull << dbits) - 1;
    if (dsigned && (raw >> (dbits - 1)) & 1) raw |= ~((1ull << dbits) - 1);
  }
  return raw;
}

void h_cvt(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t* a = src(R, in, 0);
  for_lanes(m, [&](int l) { d[l] = cvt_one(a[l], in); });
}

void h_cvta(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  const uint64_t* a = src(R, in, 0);
  uint64_t base = in.space == Space::Shared ? kSharedWindow : in.space == Space::Local ? kLocalWindow : 0;
  bool to = in.mods & kModToSpace;
  bool narrow = type_bytes(in.type) == 4;
  for_lanes(m, [&](int l) {
    uint64_t v = to ? a[l] - base : a[l] + (narrow ? uint32_t(a[l]) - a[l] : 0) + base;
    d[l] = narrow ? uint32_t(v) : v;
  });
}

void h_pack(uint64_t* R, const Inst& in, uint32_t m) {
  uint64_t* d = dst(R, in);
  int n = in.nsrc;
  int eb = 8 * type_bytes(in.type) / n;
  uint64_t mask = eb == 64 ? ~0ull : (1ull << eb) - 1;
  for_lanes(m, [&](int l) {
    uint64_t r = 0;
    for (int i = 0; i < n; ++i) r |= (R[size_t(in.s[i]) * 32 + l] & mask) << (i * eb);
    d[l] = r;
  });
}
void h_unpack(uint64_t* R, const Inst& in, uint32_t m) {
  const uint64_t* a = src(R, in, 0);
  int n = in.ndst;
  int eb = 8 * type_bytes(in.type) / n;
  uint64_t mask = eb == 64 ? ~0ull : (1ull << eb) - 1;
  for (int i = 0; i < n; ++i) {
    if (in.d[i] == kNone) continue;
    uint64_t* d = dst(R, in, i);
    for_lanes(m, [&](int l) { d[l] = (a[l] >> (i * eb)) & mask; });
  }
}

// ---------------------------------------------------------------- selection
template <template <class> class H>
Handler pick_int(Type t) {
  switch (t) {
    case Type::U16:
    case Type::B16:
      return &H<uint16_t>::run;
    case Type::S16:
      return &H<int16_t>::run;
    case Type::U32:
    case Type::B32:
      return &H<uint32_t>::run;
    case Type::S32:
      return &H<int32_t>::run;
    case Type::U64:
    case Type::B64:
      return &H<uint64_t>::run;
    case Type::S64:
      return &H<int64_t>::run;
    default:
      return nullptr;
  }
}

// clang-format off
#define WRAP(NAME, FN) \
  template <class T> struct NAME { static void run(uint64_t* R, const Inst& in, uint32_t m) { FN<T>(R, in, m); } };
WRAP(WAdd, h_add) WRAP(WSub, h_sub) WRAP(WMul, h_mul) WRAP(WMad, h_mad) WRAP(WDiv, h_div)
WRAP(WAbs, h_abs) WRAP(WNeg, h_neg) WRAP(WMin, h_min) WRAP(WMax, h_max) WRAP(WAnd, h_and)
WRAP(WOr, h_or) WRAP(WXor, h_xor) WRAP(WNot, h_not) WRAP(WCnot, h_cnot) WRAP(WShl, h_shl)
WRAP(WShr, h_shr) WRAP(WMov, h_mov) WRAP(WSelp, h_selp) WRAP(WSetp, h_setp) WRAP(WBrev, h_brev)
WRAP(WClz, h_clz) WRAP(WPopc, h_popc) WRAP(WBfind, h_bfind) WRAP(WBfe, h_bfe) WRAP(WBfi, h_bfi)
WRAP(WAddc, h_addc) WRAP(WSet, h_set) WRAP(WSad, h_sad)
// clang-format on
#undef WRAP

                    template <Op OP>
                    Handler pick_float(Type t) {
  if (t == Type::F32) return &h_f32<OP>;
  if (t == Type::F64) return &h_f64<OP>;
  return nullptr;
}

// Half-precision arithmetic exists for add, sub, mul, fma, neg, abs, min and max.
template <Op OP>
Handler pick_float_h(Type t) {
  if (t == Type::F16) return &h_f16<OP, false>;
  if (t == Type::F16x2) return &h_f16<OP, true>;
  return pick_float<OP>(t);
}

// Bitwise ops also take .pred; mov/selp take any type by size.
template <template <class> class H>
Handler pick_bits(Type t) {
  switch (t) {
    case Type::Pred:
      return &H<bool>::run;
    case Type::B8:
    case Type::U8:
      return &H<uint8_t>::run;
    case Type::S8:
      return &H<int8_t>::run;
    case Type::F32:
      return &H<uint32_t>::run;
    case Type::F64:
      return &H<uint64_t>::run;
    case Type::F16:
    case Type::BF16:
      return &H<uint16_t>::run;
    case Type::F16x2:
      return &H<uint32_t>::run;
    default:
      return pick_int<H>(t);
  }
}

Handler pick_setp(Type t) {
  if (t == Type::F16) return &h_setp_f16<false>;
  if (t == Type::F16x2) return &h_setp_f16<true>;
  if (t == Type::F32) return &h_setp<float>;
  if (t == Type::F64) return &h_setp<double>;
  return pick_int<WSetp>(t);
}

}  // namespace

Handler select_alu_handler(const Inst& in) {
  const Type t = in.type;
  const bool f = type_is_float(t);
  switch (in.op) {
    case Op::Mov:
      return pick_bits<WMov>(t);
    case Op::PackMov:
      return &h_pack;
    case Op::UnpackMov:
      return &h_unpack;
    case Op::Add:
      return f ? pick_float_h<Op::Add>(t) : pick_int<WAdd>(t);
    case Op::Sub:
      return f ? pick_float_h<Op::Sub>(t) : pick_int<WSub>(t);
    case Op::Mul:
      return f ? pick_float_h<Op::Mul>(t) : pick_int<WMul>(t);
    case Op::Mad:
    case Op::Madc:
    case Op::Fma:
#ifdef WARPSIM_FMA_CLONE
      if (t == Type::F32 && !(in.mods & (kModFtz | kModSat)) && (in.rnd == Rnd::None || in.rnd == Rnd::RN) &&
          __builtin_cpu_supports("fma"))
        return &h_fma_f32_hw;
#endif
      if (in.op == Op::Fma) return pick_float_h<Op::Fma>(t);
      return f ? pick_float<Op::Fma>(t) : pick_int<WMad>(t);
    case Op::Div:
      return f ? pick_float<Op::Div>(t) : pick_int<WDiv>(t);
    case Op::Rem:
      return f ? nullptr : pick_int<WDiv>(t);
    case Op::Abs:
      return f ? pick_float_h<Op::Abs>(t) : pick_int<WAbs>(t);
    case Op::Neg:
      return f ? pick_float_h<Op::Neg>(t) : pick_int<WNeg>(t);
    case Op::Min:
      return f ? pick_float_h<Op::Min>(t) : pick_int<WMin>(t);
    case Op::Max:
      return f ? pick_float_h<Op::Max>(t) : pick_int<WMax>(t);
    case Op::And:
      return f ? nullptr : pick_bits<WAnd>(t);
    case Op::Or:
      return f ? nullptr : pick_bits<WOr>(t);
    case Op::Xor:
      return f ? nullptr : pick_bits<WXor>(t);
    case Op::Not:
      return f ? nullptr : pick_bits<WNot>(t);
    case Op::Cnot:
      return f ? nullptr : pick_int<WCnot>(t);
    case Op::Shl:
      return f ? nullptr : pick_int<WShl>(t);
    case Op::Shr:
      return f ? nullptr : pick_int<WShr>(t);
    case Op::Selp:
      return pick_bits<WSelp>(t);
    case Op::Setp:
      return pick_setp(t);
    case Op::Cvt:
      return &h_cvt;
    case Op::Cvta:
      return &h_cvta;
    case Op::Sqrt:
      return pick_float<Op::Sqrt>(t);
    case Op::Rsqrt:
      return pick_float<Op::Rsqrt>(t);
    case Op::Rcp:
      return pick_float<Op::Rcp>(t);
    case Op::Ex2:
      return pick_float<Op::Ex2>(t);
    case Op::Lg2:
      return pick_float<Op::Lg2>(t);
    case Op::Sin:
      return t == Type::F32 ? &h_f32<Op::Sin> : nullptr;
    case Op::Cos:
      return t == Type::F32 ? &h_f32<Op::Cos> : nullptr;
    case Op::Tanh:
      return t == Type::F32 ? &h_f32<Op::Tanh> : nullptr;
    case Op::Copysign:
      return pick_float<Op::Copysign>(t);
    case Op::Brev:
      return pick_int<WBrev>(t);
    case Op::Clz:
      return pick_int<WClz>(t);
    case Op::Popc:
      return pick_int<WPopc>(t);
    case Op::Bfind:
      return pick_int<WBfind>(t);
    case Op::Bfe:
      return pick_int<WBfe>(t);
    case Op::Bfi:
      return pick_int<WBfi>(t);
    case Op::Prmt:
      return &h_prmt;
    case Op::Video:
      return &h_video;
    case Op::Lop3:
      return &h_lop3;
    case Op::Shf:
      return &h_shf;
    case Op::Bmsk:
      return &h_bmsk;
    case Op::Szext:
      return &h_szext;
    case Op::Addc:
    case Op::Subc:
      return pick_int<WAddc>(t);
    case Op::Set: {
      if (t != Type::U32 && t != Type::S32 && t != Type::F32) return nullptr;
      if (in.type2 == Type::F32) return &h_set<float>;
      if (in.type2 == Type::F64) return &h_set<double>;
      return pick_int<WSet>(in.type2);
    }
    case Op::Testp:
      return t == Type::F32 ? &h_testp<float> : t == Type::F64 ? &h_testp<double> : nullptr;
    case Op::Mul24:
    case Op::Mad24:
      return t == Type::S32 ? &h_mul24<int32_t> : t == Type::U32 ? &h_mul24<uint32_t> : nullptr;
    case Op::Sad:
      return pick_int<WSad>(t);
    default:
      return nullptr;
  }
}

// ---------------------------------------------------------------- rounding helpers
float round_to_f32(double x, Rnd r) {
  float f = static_cast<float>(x);
  if (std::isnan(x) || std::isinf(x)) return f;
  switch (r) {
    case Rnd::RZ:
      if (std::fabs(double(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
      break;
    case Rnd::RM:
      if (double(f) > x) f = std::nextafter(f, -INFINITY);
      break;
    case Rnd::RP:
      if (double(f) < x) f = std::nextafter(f, INFINITY);
      break;
    default:
      break;
  }
  return f;
}

double round_integral(double x, Rnd r) {
  switch (r) {
    case Rnd::RNI:
      return std::nearbyint(x);  // host default mode: nearest even
    case Rnd::RZI:
      return std::trunc(x);
    case Rnd::RMI:
      return std::floor(x);
    case Rnd::RPI:
      return std::ceil(x);
    default:
      return x;
  }
}

int64_t f2i_signed(double x, Rnd r, int bits) {
  if (std::isnan(x)) return 0;
  double v = round_integral(x, r == Rnd::None ? Rnd::RZI
                                              : (r == Rnd::RN   ? Rnd::RNI
                                                 : r == Rnd::RZ ? Rnd::RZI
                                                 : r == Rnd::RM ? Rnd::RMI
                                                 : r == Rnd::RP ? Rnd::RPI
                                                                : r));
  double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1);
  if (v < lo) return bits == 64 ? INT64_MIN : int64_t(lo);
  if (v >= hi) return bits == 64 ? INT64_MAX : int64_t(hi) - 1;
  return int64_t(v);
}

uint64_t f2i_unsigned(double x, Rnd r, int bits) {
  if (std::isnan(x)) return 0;
  double v = round_integral(x, r == Rnd::None ? Rnd::RZI
                                              : (r == Rnd::RN   ? Rnd::RNI
                                                 : r == Rnd::RZ ? Rnd::RZI
                                                 : r == Rnd::RM ? Rnd::RMI
                                                 : r == Rnd::RP ? Rnd::RPI
                                                                : r));
  if (v <= 0) return 0;
  double hi = std::ldexp(1.0, bits);
  if (v >= hi) return bits == 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
  return uint64_t(v);
}

double f64_op_rounded(Op op, double a, double b, double c, Rnd r) {
  int mode = r == Rnd::RZ ? FE_TOWARDZERO : r == Rnd::RM ? FE_DOWNWARD : r == Rnd::RP ? FE_UPWARD : FE_TONEAREST;
  int old = std::fegetround();
  std::fesetround(mode);
  volatile double x = a, y = b, z = c;
  double res;
  switch (op) {
    case Op::Add:
      res = x + y;
      break;
    case Op::Sub:
      res = x - y;
      break;
    case Op::Mul:
      res = x * y;
      break;
    case Op::Fma:
      res = std::fma(x, y, z);
      break;
    default:
      res = x / y;
      break;
  }
  volatile double out = res;
  std::fesetround(old);
  return out;
}

namespace {
// Rounds a double to a binary floating-point format of at most 16 bits with `mbits` stored
// mantissa bits and `ebits` exponent bits (binary16: 10/5, bfloat16: 7/8). Exact: every value
// of the narrow format is a double, and scaling by powers of two is exact.
uint16_t round_to_narrow(double x, Rnd r, int mbits, int ebits) {
  const uint16_t sign = std::signbit(x) ? uint16_t(1u << (mbits + ebits)) : 0;
  const uint16_t inf_bits = uint16_t(((1u << ebits) - 1) << mbits);
  if (std::isnan(x)) return 0x7fff;  // canonical NaN of both formats
  if (std::isinf(x)) return uint16_t(sign | inf_bits);
  const int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
  // Directed modes on the magnitude: truncate, or round away from zero.
  enum { Nearest, Truncate, Away } mode = Nearest;
  if (r == Rnd::RZ || r == Rnd::RZI)
    mode = Truncate;
  else if (r == Rnd::RM || r == Rnd::RMI)
    mode = sign ? Away : Truncate;
  else if (r == Rnd::RP || r == Rnd::RPI)
    mode = sign ? Truncate : Away;
  const double a = std::fabs(x);
  int e = 0;
  std::frexp(a, &e);                            // a = m * 2^e, m in [0.5, 1)
  const int q = std::max(e - 1, emin) - mbits;  // exponent of the last mantissa bit
  const double n = std::ldexp(a, -q);
  const double fl = std::floor(n), frac = n - fl;
  double k = fl;
  if (mode == Nearest)
    k = (frac > 0.5 || (frac == 0.5 && std::fmod(fl, 2.0) == 1.0)) ? fl + 1 : fl;
  else if (mode == Away)
    k = frac > 0 ? fl + 1 : fl;
  const double v = std::ldexp(k, q);
  const double max_finite = std::ldexp(2.0 - std::ldexp(1.0, -mbits), bias);
  if (v > max_finite) return uint16_t(sign | (mode == Truncate ? inf_bits - 1 : inf_bits));
  if (v < std::ldexp(1.0, emin)) return uint16_t(sign | uint16_t(std::ldexp(v, mbits - emin)));  // subnormal or zero
  int e2 = 0;
  const double m2 = std::frexp(v, &e2);
  return uint16_t(sign | (uint16_t(e2 - 1 + bias) << mbits) | (uint16_t(std::ldexp(m2, mbits + 1)) - (1u << mbits)));
}
}  // namespace

uint16_t f64_to_f16(double x, Rnd r) { return round_to_narrow(x, r, 10, 5); }
uint16_t f64_to_bf16(double x, Rnd r) { return round_to_narrow(x, r, 7, 8); }
float bf16_to_f32(uint16_t h) { return std::bit_cast<float>(uint32_t(h) << 16); }

uint16_t f32_to_f16(float f) { return f64_to_f16(double(f), Rnd::RN); }

float f16_to_f32(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0) {
    float v = std::ldexp(float(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000 | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

}  // namespace warpsim::ptx
