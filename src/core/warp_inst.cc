#include "core/warp_inst.h"

namespace warpsim {

std::string_view unit_name(Unit u) {
  switch (u) {
    case Unit::SP:
      return "sp";
    case Unit::INT:
      return "int";
    case Unit::DP:
      return "dp";
    case Unit::SFU:
      return "sfu";
    case Unit::MEM:
      return "mem";
    case Unit::BRANCH:
      return "branch";
    default:
      return "?";
  }
}

std::string_view mem_space_name(MemSpace s) {
  switch (s) {
    case MemSpace::None:
      return "none";
    case MemSpace::Global:
      return "global";
    case MemSpace::Local:
      return "local";
    case MemSpace::Shared:
      return "shared";
    case MemSpace::Const:
      return "const";
    case MemSpace::Param:
      return "param";
    case MemSpace::Tex:
      return "tex";
  }
  return "?";
}

}  // namespace warpsim
