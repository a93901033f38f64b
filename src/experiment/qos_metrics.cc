#include "experiment/qos_metrics.h"

#include <fmt/format.h>

#include <cmath>

#include "core/error.h"

namespace warpsim::experiment {

double stp(const std::vector<double>& alone, const std::vector<double>& shared) {
  if (alone.size() != shared.size() || alone.empty()) throw Error("STP: one isolated and one shared time per kernel");
  double s = 0;
  for (size_t i = 0; i < alone.size(); ++i) {
    if (!(shared[i] > 0)) throw Error("STP: shared times must be positive");
    s += alone[i] / shared[i];
  }
  return s;
}

double antt(const std::vector<double>& alone, const std::vector<double>& shared) {
  if (alone.size() != shared.size() || alone.empty()) throw Error("ANTT: one isolated and one shared time per kernel");
  double s = 0;
  for (size_t i = 0; i < alone.size(); ++i) {
    if (!(alone[i] > 0)) throw Error("ANTT: isolated times must be positive");
    s += shared[i] / alone[i];
  }
  return s / double(alone.size());
}

void normalise_rows(std::vector<QosRow>& rows, const std::string& baseline) {
  for (QosRow& r : rows) {
    const QosRow* base = nullptr;
    for (const QosRow& b : rows)
      if (b.pair == r.pair && b.scheduler == baseline && b.budget == 0) base = &b;
    if (!base) throw Error(fmt::format("pair {}: no run under the baseline scheduler '{}'", r.pair, baseline));
    if (!(base->rt1 > 0) || !(base->rt2 > 0) || !(r.rt1 > 0) || !(r.rt2 > 0))
      throw Error(fmt::format("pair {}: response times must be positive", r.pair));
    r.norm_rt1 = r.rt1 / base->rt1;
    r.norm_rt2 = r.rt2 / base->rt1;
    r.k2_speedup = base->rt2 / r.rt2;
    r.avg_exec = (r.rt1 + r.rt2) / 2;
    r.norm_avg_exec = r.avg_exec / ((base->rt1 + base->rt2) / 2);
    r.stp = stp({r.alone1, r.alone2}, {r.rt1, r.rt2});
    r.antt = antt({r.alone1, r.alone2}, {r.rt1, r.rt2});
  }
  for (QosRow& r : rows) {
    r.best = true;
    for (const QosRow& o : rows)
      if (&o != &r && o.pair == r.pair && o.scheduler == r.scheduler &&
          (o.rt2 < r.rt2 || (o.rt2 == r.rt2 && o.budget < r.budget)))
        r.best = false;
  }
}

double mean_over_pairs(const std::vector<QosRow>& rows, const std::string& scheduler, double QosRow::*column) {
  double log_sum = 0;
  size_t n = 0;
  for (const QosRow& r : rows)
    if (r.scheduler == scheduler && r.best && r.*column > 0) {
      log_sum += std::log(r.*column);
      ++n;
    }
  return n ? std::exp(log_sum / double(n)) : std::nan("");
}

}  // namespace warpsim::experiment
