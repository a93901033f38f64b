// Splitting and trimming strings: one definition for every reader of lists and names.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace warpsim {

// Every field between separators, empty ones included: split("a..b", '.') = {"a", "", "b"};
// split("", '.') = {""}.
std::vector<std::string> split(std::string_view s, char sep);

// The non-empty items between any of `seps`, each trimmed of spaces, tabs and carriage returns:
// split_items(" a, ,b,", ",") = {"a", "b"}.
std::vector<std::string> split_items(std::string_view s, std::string_view seps = ",");

// Whitespace-separated words.
std::vector<std::string> split_ws(std::string_view s);

// `s` without leading and trailing spaces, tabs, carriage returns and newlines.
std::string trim(std::string_view s);

}  // namespace warpsim
