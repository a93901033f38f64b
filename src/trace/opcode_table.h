// SASS opcode tables: which warpsim unit, operation class, memory space and latency class a
// SASS mnemonic maps to. One TOML file per GPU family in configs/sass/ (docs/traces.md).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/opcode_info.h"
#include "core/warp_inst.h"

namespace warpsim {

// What the table says about one mnemonic is an OpcodeInfo (core/opcode_info.h), the row type
// the PTX instruction table shares (ptx/instruction_class.h).
class OpcodeTable {
 public:
  // Parse a table file; errors are LocatedErrors naming the file and line.
  static OpcodeTable load(const std::string& path);
  static OpcodeTable parse(std::string_view toml_text, const std::string& source_name);

  const std::string& source() const { return source_; }
  const std::string& family() const { return family_; }
  const std::vector<uint32_t>& binary_versions() const { return versions_; }

  // The entry for exactly this key ("FFMA" or "IMAD.MOV"), or nullptr.
  const OpcodeInfo* find_exact(std::string_view key) const;
  // The entry for a full opcode ("LDG.E.128.SYS"): the longest key that is the opcode or a
  // prefix of it ending before a '.'. nullptr when not even the mnemonic is known.
  const OpcodeInfo* lookup(std::string_view opcode) const;

  // Entries sorted by key.
  const std::map<std::string, OpcodeInfo, std::less<>>& entries() const { return entries_; }
  void set(const std::string& key, const OpcodeInfo& info) { entries_[key] = info; }

 private:
  std::string source_, family_;
  std::vector<uint32_t> versions_;
  std::map<std::string, OpcodeInfo, std::less<>> entries_;
};

// Directory holding the bundled tables (configs/sass in the source tree).
std::string default_sass_dir();
// The table file in `dir` whose binary_versions list `binary_version`; throws Error naming the
// version and the directory when none does.
std::string find_opcode_table(const std::string& dir, uint32_t binary_version);

// Names used in the table files (an operation class's name: op_class_name, core/warp_inst.h).
std::string_view latency_class_name(uint8_t lat);

}  // namespace warpsim
