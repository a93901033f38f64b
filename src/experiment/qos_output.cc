#include "experiment/qos_output.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "experiment/svg_chart.h"

namespace warpsim::experiment {

nlohmann::json rows_to_json(const std::vector<QosRow>& rows) {
  nlohmann::json a = nlohmann::json::array();
  for (const QosRow& r : rows)
    a.push_back({{"pair", r.pair},
                 {"k1", r.k1},
                 {"k2", r.k2},
                 {"scheduler", r.scheduler},
                 {"budget", r.budget},
                 {"best", r.best},
                 {"rt1", r.rt1},
                 {"rt2", r.rt2},
                 {"alone1", r.alone1},
                 {"alone2", r.alone2},
                 {"norm_rt1", r.norm_rt1},
                 {"norm_rt2", r.norm_rt2},
                 {"k2_speedup", r.k2_speedup},
                 {"avg_exec", r.avg_exec},
                 {"norm_avg_exec", r.norm_avg_exec},
                 {"stp", r.stp},
                 {"antt", r.antt},
                 {"shared_sms", r.shared_sms},
                 {"sms", r.sms},
                 {"verified", r.verified}});
  return a;
}

std::string rows_to_csv(const std::vector<QosRow>& rows) {
  std::string s =
      "pair,k1,k2,scheduler,budget,best,rt1,rt2,alone1,alone2,norm_rt1,norm_rt2,k2_speedup,avg_exec,"
      "norm_avg_exec,stp,antt,shared_sms,sms,verified\n";
  for (const QosRow& r : rows)
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{:.6g},{:.6g},{:.6g},{},{:.6g},{:.6g},{:.6g},{},{},{}\n", r.pair,
                     r.k1, r.k2, r.scheduler, r.budget, r.best ? 1 : 0, r.rt1, r.rt2, r.alone1, r.alone2, r.norm_rt1,
                     r.norm_rt2, r.k2_speedup, r.avg_exec, r.norm_avg_exec, r.stp, r.antt, r.shared_sms, r.sms,
                     r.verified ? 1 : 0);
  return s;
}

QosCharts qos_charts(const std::vector<QosRow>& rows, const std::vector<std::string>& schedulers,
                     const std::string& baseline) {
  std::vector<std::string> pairs;
  for (const QosRow& r : rows)
    if (std::find(pairs.begin(), pairs.end(), r.pair) == pairs.end()) pairs.push_back(r.pair);
  auto value = [&](const std::string& pair, const std::string& sched, double QosRow::*col) {
    for (const QosRow& r : rows)
      if (r.pair == pair && r.scheduler == sched && r.best) return r.*col;
    return std::nan("");
  };
  auto series = [&](const std::string& name, const std::string& sched, double QosRow::*col) {
    svg::Series s{name, {}};
    for (const auto& p : pairs) s.values.push_back(value(p, sched, col));
    s.values.push_back(mean_over_pairs(rows, sched, col));
    return s;
  };
  // Short labels: "_pt" dropped, a homogeneous pair named once.
  auto strip = [](std::string w) {
    if (w.size() > 3 && w.compare(w.size() - 3, 3, "_pt") == 0) w.resize(w.size() - 3);
    return w;
  };
  std::vector<std::string> cats;
  for (const auto& p : pairs) {
    std::string k1, k2;
    for (const QosRow& r : rows)
      if (r.pair == p) {
        k1 = r.k1;
        k2 = r.k2;
      }
    cats.push_back(k1 == k2 ? strip(k1) : strip(k1) + ":" + strip(k2));
  }
  cats.push_back("mean");
  QosCharts c;
  svg::BarChart rt;
  rt.title = fmt::format("Response times, normalised to K1 under {} (best budget)", baseline);
  rt.y_label = "response time / K1 " + baseline;
  rt.categories = cats;
  for (const auto& s : schedulers) {
    rt.series.push_back(series("K1 " + s, s, &QosRow::norm_rt1));
    rt.series.push_back(series("K2 " + s, s, &QosRow::norm_rt2));
  }
  rt.reference = 1.0;
  rt.width = std::max(900, int(cats.size()) * 110);
  rt.height = 400;
  c.response = svg::grouped_bars(rt);
  svg::BarChart sp;
  sp.title = fmt::format("K2 speedup over {}", baseline);
  sp.y_label = "K2 response " + baseline + " / K2 response";
  sp.categories = cats;
  for (const auto& s : schedulers)
    if (s != baseline) sp.series.push_back(series(s, s, &QosRow::k2_speedup));
  sp.reference = 1.0;
  sp.width = rt.width;
  sp.height = rt.height;
  c.speedup = svg::grouped_bars(sp);
  svg::BarChart av;
  av.title = fmt::format("Average execution time of K1 and K2, normalised to {}", baseline);
  av.y_label = "mean response / mean response " + baseline;
  av.categories = cats;
  for (const auto& s : schedulers) av.series.push_back(series(s, s, &QosRow::norm_avg_exec));
  av.reference = 1.0;
  av.width = rt.width;
  av.height = rt.height;
  c.avg_exec = svg::grouped_bars(av);
  return c;
}

}  // namespace warpsim::experiment
