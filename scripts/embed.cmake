# cmake -DIN=file -DOUT=file.cc -DSYMBOL=name -P embed.cmake
# Writes a C++ file defining `warpsim::SYMBOL`, a string holding the contents of IN.
file(READ "${IN}" body)
set(delim "warpsim_embed")
file(WRITE "${OUT}.tmp" "// Generated from ${IN}; do not edit.\nnamespace warpsim {\nextern const char ${SYMBOL}[];\nconst char ${SYMBOL}[] = R\"${delim}(${body})${delim}\";\n}  // namespace warpsim\n")
file(RENAME "${OUT}.tmp" "${OUT}")
