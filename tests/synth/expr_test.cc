#include "synth/expr.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace warpsim::synth {
namespace {

ExprContext context(bool allow_lane = true) {
  ExprContext c;
  c.file = "e.kern";
  c.line = 7;
  c.allow_lane = allow_lane;
  c.nwarps = 8;
  c.nctas = 60;
  c.number = [](std::string_view tok, int) -> int64_t {
    if (tok == "$N") return 5;
    return std::stoll(std::string(tok));
  };
  return c;
}

int64_t value(const std::string& text, int64_t cta = 0, int64_t warp = 0, int64_t lane = 0) {
  const int64_t vars[kNumExprVars] = {cta, warp, cta * 8 + warp, lane};
  return parse_expr(text, 1, context())->eval(vars);
}

TEST(Expr, PrecedenceAndOperators) {
  EXPECT_EQ(value("1 + 2 * 3"), 7);
  EXPECT_EQ(value("(1 + 2) * 3"), 9);
  EXPECT_EQ(value("7 / 2"), 3);
  EXPECT_EQ(value("-7 % 3"), -1);
  EXPECT_EQ(value("10 - 4 - 3"), 3);  // left associative
  EXPECT_EQ(value("min(4, max(2, 3))"), 3);
  EXPECT_EQ(value("1 < 2 && 3 >= 3 || 0"), 1);
  EXPECT_EQ(value("2 <= 1"), 0);
  EXPECT_EQ(value("4 != 4"), 0);
  EXPECT_EQ(value("!0 == 1"), 1);
  EXPECT_EQ(value("$N * nwarps + nctas"), 100);
}

TEST(Expr, VariablesAndConstness) {
  EXPECT_EQ(value("cta * 100 + warp * 10 + lane", 3, 2, 1), 321);
  EXPECT_EQ(value("gwarp", 3, 2), 26);
  EXPECT_TRUE(parse_expr("nwarps * 2", 1, context())->is_constant());
  EXPECT_FALSE(parse_expr("warp * 2", 1, context())->is_constant());
  EXPECT_THROW(parse_expr("lane", 1, context(false)), LocatedError);
}

TEST(Expr, ErrorsCarryTheLocation) {
  try {
    parse_expr("  3 +* 2", 10, context());
    FAIL() << "no error";
  } catch (const LocatedError& e) {
    EXPECT_EQ(e.file(), "e.kern");
    EXPECT_EQ(e.line(), 7);
    EXPECT_EQ(e.col(), 15);  // the '*'
  }
  auto div = parse_expr(" 6 / warp", 4, context());
  EXPECT_EQ(div->col, 5);
  const int64_t zero[kNumExprVars] = {};
  EXPECT_THROW(div->eval(zero), LocatedError);
}

}  // namespace
}  // namespace warpsim::synth
