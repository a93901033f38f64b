#include "core/strings.h"

#include <gtest/gtest.h>

namespace warpsim {
namespace {

using V = std::vector<std::string>;

TEST(Strings, SplitKeepsEveryField) {
  EXPECT_EQ(split("a..b", '.'), (V{"a", "", "b"}));
  EXPECT_EQ(split("ld.global.v4.f32", '.'), (V{"ld", "global", "v4", "f32"}));
  EXPECT_EQ(split("", ':'), (V{""}));
  EXPECT_EQ(split("16:128:", ':'), (V{"16", "128", ""}));
}

TEST(Strings, SplitItemsDropsEmptyItemsAndTrims) {
  EXPECT_EQ(split_items(" lrr, gto ,,tl,"), (V{"lrr", "gto", "tl"}));
  EXPECT_EQ(split_items("a=1\r\nb=2; c=3\n", "\n;"), (V{"a=1", "b=2", "c=3"}));
  EXPECT_EQ(split_items(""), V{});
  EXPECT_EQ(split_items(" , "), V{});
}

TEST(Strings, SplitWsAndTrim) {
  EXPECT_EQ(split_ws("  grid 4 1\t1\nblock 128 "), (V{"grid", "4", "1", "1", "block", "128"}));
  EXPECT_EQ(trim(" \t x y \r\n"), "x y");
  EXPECT_EQ(trim("   "), "");
}

}  // namespace
}  // namespace warpsim
