// `warpsim search`: the genetic search of the RLWS (or RLWS_MS) design space end to end. Runs
// the generations with fitness from the experiment harness, saves the state after every
// generation (DIR/state.json, atomically) so that --resume continues a killed search with the
// result an uninterrupted one would give, re-evaluates the best candidates on a larger suite,
// and writes
//
//   DIR/best.toml         the best configuration, loadable with --rl-config
//   DIR/history.csv       every candidate: generation, origin, fitness, genes, decoded values
//   DIR/generations.csv   best / median / mean fitness per generation and best so far
//   DIR/final.csv         the top candidates and the paper's defaults on the final suite
//   DIR/fitness.svg, DIR/report.html
//
// next to the harness's cache (DIR/cache, DIR/logs, ...) and the candidates' configuration
// files (DIR/candidates).
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "search/evaluator.h"
#include "search/genetic.h"

namespace warpsim::search {

struct SearchOptions {
  GaParams ga;
  std::vector<std::string> train;        // training workloads
  std::vector<std::string> final_suite;  // re-evaluation suite (empty: none)
  size_t top = 10;                       // candidates re-evaluated on the final suite
  bool resume = false;
  EvaluatorSetup eval;      // scheduler, baseline, GPU, size, backend, dir
  std::FILE* log = stdout;  // one line per generation (null: silent)
};

// One configuration on the final suite.
struct FinalRow {
  std::string label;  // "1".."N" (training rank) or "defaults"
  std::string genes;  // chromosome key (empty for defaults not representable)
  std::string description;
  double train_fitness = 0;                  // fitness on the training workloads
  double suite = 0, train = 0, heldout = 0;  // geomean speedups on the final suite and its parts (NaN: none)
  bool ok = true;
};

struct GenerationStats {
  uint32_t generation = 0;
  double best = 0, median = 0, mean = 0, best_so_far = 0;
  size_t new_evaluations = 0;  // distinct chromosomes first evaluated in this generation
};

struct SearchResult {
  std::vector<GenerationStats> generations;
  Chromosome best;
  double best_train_fitness = 0;
  double defaults_train_fitness = 0;  // the scheduler's paper defaults on the training set
  std::vector<FinalRow> final_rows;   // top candidates, then the defaults
  std::string best_file, report_file;
  size_t runs = 0, cache_hits = 0, failed_runs = 0;
  double run_seconds = 0;  // summed wall time of the simulations run
  double wall_seconds = 0;
  bool finished = false;  // all generations done (false when max_generations stopped it)
};

// The paper's defaults of an RL scheduler (Table V for rlws, Table VIII for rlws_ms).
rl::RlConfig scheduler_defaults(const std::string& scheduler);

// Statistics of each generation of a search.
std::vector<GenerationStats> generation_stats(const GeneticSearch& s);

// history.csv of a search.
std::string history_csv(const GeneticSearch& s);

// Runs (or resumes) the search. `max_new_generations` >= 0 stops after that many new
// generations (for tests and for splitting a search across sessions).
SearchResult run_search(const SearchOptions& o, int max_new_generations = -1);

}  // namespace warpsim::search
