// Integer expressions of the .kern language (loop trip counts, diverge conditions, constant
// values), compiled to postfix code and evaluated per warp or per lane.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::synth {

enum ExprVar : uint8_t { kVarCta, kVarWarp, kVarGwarp, kVarLane, kNumExprVars };

// A compiled expression: postfix code plus where it came from (for errors at evaluation).
class Expr {
 public:
  // clang-format off
  enum class Op : uint8_t {
    Const, Var, Neg, Not, Add, Sub, Mul, Div, Mod, Lt, Le, Gt, Ge, Eq, Ne, And, Or, Min, Max
  };
  // clang-format on
  struct Node {
    Op op;
    int64_t value;  // Const: the value; Var: the ExprVar
  };
  static constexpr int kMaxDepth = 32;

  std::vector<Node> code;
  std::string file;
  int line = 0, col = 0;
  bool uses[kNumExprVars] = {};

  bool is_constant() const { return !uses[kVarCta] && !uses[kVarWarp] && !uses[kVarGwarp] && !uses[kVarLane]; }

  // Evaluates with vars[kVarCta..kVarLane]; throws LocatedError (at the expression) on division
  // by zero and integer overflow.
  int64_t eval(const int64_t* vars) const;
};

// What the expression parser needs from its surroundings.
struct ExprContext {
  std::string file;
  int line = 0;
  bool allow_lane = false;        // `lane` is defined (diverge conditions)
  int64_t nwarps = 1, nctas = 1;  // values of the names `nwarps` and `nctas`
  // Value of a number token (digits, 0x.., K/M/G suffixes, $PARAM) starting at column `col`.
  std::function<int64_t(std::string_view token, int col)> number;
};

// Parses `text`, whose first character is at column `col`; throws LocatedError.
std::shared_ptr<const Expr> parse_expr(std::string_view text, int col, const ExprContext& ctx);

}  // namespace warpsim::synth
