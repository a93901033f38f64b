#include "ptx/lexer.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"

namespace warpsim::ptx {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.'; }
int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::vector<Token> tokenize(std::string_view s, const std::string& file) {
  std::vector<Token> out;
  out.reserve(s.size() / 4 + 8);
  size_t i = 0;
  int line = 1;
  size_t line_start = 0;
  auto fail = [&](size_t at, const std::string& msg) -> void {
    throw LocatedError(file, line, static_cast<int>(at - line_start) + 1, msg);
  };
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t start = i;
      int l0 = line;
      size_t ls0 = line_start;
      i += 2;
      while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') {
          ++line;
          line_start = i + 1;
        }
        ++i;
      }
      if (i + 1 >= s.size()) {
        line = l0;
        line_start = ls0;
        fail(start, "unterminated block comment");
      }
      i += 2;
      continue;
    }
    Token t;
    t.line = line;
    t.col = static_cast<int>(i - line_start) + 1;
    if (ident_start(c)) {
      size_t b = i++;
      while (i < s.size() && ident_char(s[i])) ++i;
      t.kind = Tok::Ident;
      t.text.assign(s.substr(b, i - b));
    } else if (c == '.' && i + 1 < s.size() && (ident_char(s[i + 1]) && s[i + 1] != '.')) {
      size_t b = i++;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '$')) ++i;
      t.kind = Tok::Directive;
      t.text.assign(s.substr(b, i - b));
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t b = i;
      if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'f' || s[i + 1] == 'F' || s[i + 1] == 'd' || s[i + 1] == 'D')) {
        bool f32 = s[i + 1] == 'f' || s[i + 1] == 'F';
        size_t n = f32 ? 8 : 16;
        i += 2;
        uint64_t v = 0;
        size_t k = 0;
        while (i < s.size() && hexval(s[i]) >= 0) {
          v = (v << 4) | uint64_t(hexval(s[i]));
          ++i;
          ++k;
        }
        if (k != n)
          fail(b, std::string("malformed hex float literal: expected ") + std::to_string(n) + " hex digits after 0" +
                      (f32 ? "f" : "d"));
        t.kind = f32 ? Tok::HexF32 : Tok::HexF64;
        t.bits = v;
      } else if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        uint64_t v = 0;
        size_t k = 0;
        while (i < s.size() && hexval(s[i]) >= 0) {
          if (k >= 16) fail(b, "hex literal too large");
          v = (v << 4) | uint64_t(hexval(s[i]));
          ++i;
          ++k;
        }
        if (k == 0) fail(b, "malformed hex literal");
        t.kind = Tok::Int;
        t.bits = v;
      } else if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'b' || s[i + 1] == 'B')) {
        i += 2;
        uint64_t v = 0;
        size_t k = 0;
        while (i < s.size() && (s[i] == '0' || s[i] == '1')) {
          if (k >= 64) fail(b, "binary literal too large");
          v = (v << 1) | uint64_t(s[i] - '0');
          ++i;
          ++k;
        }
        if (k == 0) fail(b, "malformed binary literal");
        t.kind = Tok::Int;
        t.bits = v;
      } else {
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        bool is_float = false;
        if (i < s.size() && s[i] == '.' &&
            !(i + 1 < s.size() && std::isalpha(static_cast<unsigned char>(s[i + 1])) && s[i + 1] != 'e' &&
              s[i + 1] != 'E')) {
          is_float = true;
          ++i;
          while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        }
        if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
          size_t j = i + 1;
          if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
          if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
            is_float = true;
            i = j;
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
          }
        }
        std::string num(s.substr(b, i - b));
        t.text = num;
        if (is_float) {
          t.kind = Tok::Float;
          t.fval = std::strtod(num.c_str(), nullptr);
        } else {
          errno = 0;
          int base = (num.size() > 1 && num[0] == '0') ? 8 : 10;
          char* end = nullptr;
          unsigned long long v = std::strtoull(num.c_str(), &end, base);
          if (errno == ERANGE || (end && *end)) fail(b, "malformed integer literal '" + num + "'");
          t.kind = Tok::Int;
          t.bits = v;
        }
        if (i < s.size() && (s[i] == 'U' || s[i] == 'u')) ++i;  // unsigned suffix
      }
      if (i < s.size() && ident_char(s[i]) && s[i] != '.')
        fail(i, std::string("unexpected character '") + s[i] + "' after number");
    } else if (c == '"') {
      size_t b = i++;
      while (i < s.size() && s[i] != '"' && s[i] != '\n') ++i;
      if (i >= s.size() || s[i] != '"') fail(b, "unterminated string literal");
      t.kind = Tok::String;
      t.text.assign(s.substr(b + 1, i - b - 1));
      ++i;
    } else if (std::string_view(",;:{}[]()<>@!+-|=*/").find(c) != std::string_view::npos) {
      t.kind = Tok::Punct;
      t.text.assign(1, c);
      ++i;
    } else {
      unsigned char uc = static_cast<unsigned char>(c);
      if (std::isprint(uc)) fail(i, std::string("unexpected character '") + c + "'");
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02x", uc);
      fail(i, std::string("unexpected byte ") + buf);
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.kind = Tok::End;
  end.line = line;
  end.col = static_cast<int>(i - line_start) + 1;
  out.push_back(end);
  return out;
}

}  // namespace warpsim::ptx
