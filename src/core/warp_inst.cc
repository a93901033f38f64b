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

std::string_view op_class_name(OpClass op) {
  switch (op) {
    case OpClass::ALU:
      return "alu";
    case OpClass::LOAD:
      return "load";
    case OpClass::STORE:
      return "store";
    case OpClass::ATOMIC:
      return "atomic";
    case OpClass::BRANCH:
      return "branch";
    case OpClass::BARRIER:
      return "barrier";
    case OpClass::MEMBAR:
      return "membar";
    case OpClass::EXIT:
      return "exit";
    case OpClass::NOP:
      return "nop";
  }
  return "?";
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
