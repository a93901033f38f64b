// Tokenizer for PTX assembly text.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::ptx {

enum class Tok : uint8_t {
  End,
  Ident,      // names, opcodes with modifiers (add.s32), registers (%r1, %tid.x), labels ($L1)
  Directive,  // .entry, .reg, .u32, ...
  Int,        // decimal / hex / octal / binary integer literal
  Float,      // decimal floating literal (1.5, 2e3)
  HexF32,     // 0fXXXXXXXX
  HexF64,     // 0dXXXXXXXXXXXXXXXX
  String,
  Punct,  // one character: , ; : { } [ ] ( ) < > @ ! + - | = * /
};

struct Token {
  Tok kind = Tok::End;
  std::string text;   // identifier/directive/string contents; punctuation character
  uint64_t bits = 0;  // integer value, or raw bits of a hex float
  double fval = 0;    // decimal float value
  int line = 1, col = 1;
  bool is(Tok k, std::string_view t) const { return kind == k && text == t; }
  bool punct(char c) const { return kind == Tok::Punct && text.size() == 1 && text[0] == c; }
};

// Splits the whole text into tokens (comments removed). Throws LocatedError on bad characters,
// unterminated comments/strings and malformed numbers.
std::vector<Token> tokenize(std::string_view text, const std::string& file);

}  // namespace warpsim::ptx
