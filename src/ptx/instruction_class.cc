#include "ptx/instruction_class.h"

namespace warpsim::ptx {

void apply_class(const InstrClass& c, Inst& in) {
  WarpInst& w = in.tmpl;
  const bool f64 = in.type == Type::F64 || in.type2 == Type::F64;
  const Unit by_type = f64 ? Unit::DP : in.type == Type::F32 ? Unit::SP : c.info.unit;
  w.unit = c.rule == UnitRule::ByType ? by_type : c.info.unit;
  w.op = c.info.op;
  w.latency_class = c.info.latency_class;
  w.latency_unit = Unit::kCount;
  if (c.rule == UnitRule::TimedByType) {
    w.latency_unit = f64 ? Unit::DP : in.type == Type::F32 ? Unit::SP : Unit::INT;
    w.flags |= kFlagLongLatency;
  }
}

}  // namespace warpsim::ptx
