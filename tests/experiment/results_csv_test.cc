// results.csv as a user loads it: one CSV reader call (Python's csv module), the documented
// columns whatever the schedulers, every statistic of a launch declared as a column, and the
// schedulers' own counters in scheduler_report.csv.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "experiment/results.h"
#include "support/process.h"

namespace {

using namespace warpsim::testsupport;
using warpsim::experiment::is_scheduler_report_key;
using warpsim::experiment::result_csv_columns;

std::string write_kernel(const std::string& dir, int i) {
  std::string p = dir + "/k" + std::to_string(i) + ".kern";
  std::ofstream out(p);
  out << "kernel k" << i << " grid=" << 6 + 4 * i << " block=128 regs=8\n"
      << "loop 6\n  ld.global pattern=coalesced width=4 base=0x10000000\n  alu sp 2\n  alu sp 1 use\nend\n"
      << "kernel k" << i << "b grid=4 block=64 regs=8\nalu sfu 3\nexit\n";
  return p;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, sep);) out.push_back(x);
  return out;
}

// The column names listed in docs/harness.md's table under "### results.csv columns".
std::vector<std::string> documented_columns() {
  std::string doc = read_file(std::string(WARPSIM_SOURCE_DIR) + "/docs/harness.md");
  size_t at = doc.find("### results.csv columns");
  std::vector<std::string> cols;
  if (at == std::string::npos) return cols;
  std::stringstream ss(doc.substr(at));
  std::string line;
  std::getline(ss, line);
  while (std::getline(ss, line)) {
    if (line.rfind("##", 0) == 0) break;
    if (line.rfind("| `", 0) != 0) continue;
    // | `a`, `b`, `c` | meaning |
    std::string first = line.substr(2, line.find(" |", 2) - 2);
    for (size_t p = first.find('`'); p != std::string::npos; p = first.find('`', p)) {
      size_t q = first.find('`', p + 1);
      cols.push_back(first.substr(p + 1, q - p - 1));
      p = q + 1;
    }
  }
  return cols;
}

TEST(ResultsCsv, OneCsvReaderCallLoadsTheDocumentedColumns) {
  ScratchDir d("warpsim-csv");
  std::string suite = write_kernel(d.path(), 1) + "," + write_kernel(d.path(), 2);
  std::string out = d.path() + "/out";
  // rlws brings a large report of its own (configuration, weights, actions per kernel).
  Outcome r = run_warpsim_logged({"compare", "--suite", suite, "--gpu", "gtx480", "--schedulers", "lrr,rlws", "--out",
                                  out, "--jobs", "2", "--progress", "lines"},
                                 d.path() + "/compare.log");
  ASSERT_EQ(r.status, 0) << r.output;

  // Python's csv module, as a user's script would read it.
  std::string py = d.path() + "/load.py";
  std::ofstream(py) << "import csv, sys\n"
                       "with open(sys.argv[1], newline='') as f:\n"
                       "    rows = list(csv.reader(f))\n"
                       "header, body = rows[0], rows[1:]\n"
                       "assert all(len(r) == len(header) for r in body), 'ragged rows'\n"
                       "print(len(body))\n"
                       "print(','.join(header))\n"
                       "print(','.join(sorted(set(r[header.index('scheduler')] for r in body))))\n";
  ASSERT_EQ(
      shell("python3 " + quote(py) + " " + quote(out + "/results.csv") + " > " + quote(d.path() + "/py.out") + " 2>&1"),
      0)
      << read_file(d.path() + "/py.out");
  auto lines = split(read_file(d.path() + "/py.out"), '\n');
  ASSERT_EQ(lines.size(), 3u) << read_file(d.path() + "/py.out");
  EXPECT_EQ(lines[0], "8");  // 2 workloads x 2 kernels x 2 schedulers
  EXPECT_EQ(split(lines[1], ','), result_csv_columns());
  EXPECT_EQ(lines[2], "lrr,rlws");

  // The documentation lists exactly these columns, in this order.
  EXPECT_EQ(documented_columns(), result_csv_columns());

  // Every statistic of a launch is a declared column; only the scheduler's report is left out,
  // and it is in scheduler_report.csv.
  std::set<std::string> declared(result_csv_columns().begin(), result_csv_columns().end());
  std::set<std::string> undeclared;
  bool rlws_report = false;
  for (const auto& line : split(read_file(out + "/results.jsonl"), '\n')) {
    if (line.empty()) continue;
    auto row = nlohmann::json::parse(line);
    for (auto it = row.begin(); it != row.end(); ++it) {
      if (is_scheduler_report_key(it.key())) {
        rlws_report |= it.key().rfind("sched.rlws.", 0) == 0;
        continue;
      }
      if (!declared.count(it.key())) undeclared.insert(it.key());
    }
  }
  EXPECT_TRUE(undeclared.empty()) << "statistics without a results.csv column: " << *undeclared.begin();
  EXPECT_TRUE(rlws_report);
  std::string rep = read_file(out + "/scheduler_report.csv");
  EXPECT_EQ(rep.substr(0, rep.find('\n')), "workload,scheduler,sched_params,gpu,size,seed,key,value");
  EXPECT_NE(rep.find(",rlws,"), std::string::npos);
  EXPECT_NE(rep.find(",rlws.config,"), std::string::npos) << rep.substr(0, 2000);
}

}  // namespace
