// scripts/corpus/run.sh, which builds and runs the public CUDA suites under `warpsim exec`
// (docs/corpus.md): its program list parses and its options work without the suites or nvcc
// present, bad lists and missing suites are refused with a located message, and the self-check
// verdicts are read as the programs print them.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace warpsim::test {
namespace {

struct Result {
  int status;
  std::string out;
};

Result run_script(const std::string& args) {
  std::string cmd =
      "cd '" + std::string(WARPSIM_SOURCE_DIR) + "' && python3 scripts/corpus/corpus.py " + args + " 2>&1";
  Result r{-1, ""};
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

bool have_python() { return std::system("python3 -c pass >/dev/null 2>&1") == 0; }

TEST(CorpusScript, ProgramListParses) {
  if (!have_python()) GTEST_SKIP() << "python3 not found";
  Result r = run_script("--check-list");
  ASSERT_EQ(r.status, 0) << r.out;
  int total = 0, rodinia = 0, polybench = 0, samples = 0;
  ASSERT_EQ(std::sscanf(r.out.c_str(), "%d programs: rodinia %d, polybench %d, samples %d", &total, &rodinia,
                        &polybench, &samples),
            4)
      << r.out;
  EXPECT_GE(total, 100);
  EXPECT_EQ(total, rodinia + polybench + samples);
  EXPECT_GT(rodinia, 10);
  EXPECT_GT(polybench, 10);
  EXPECT_GT(samples, 50);
}

TEST(CorpusScript, HelpNamesTheOptions) {
  if (!have_python()) GTEST_SKIP() << "python3 not found";
  Result r = run_script("--help");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* opt :
       {"--rodinia", "--polybench", "--samples", "--jobs", "--only", "--timeout", "--gpu", "--native"})
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
  Result sh = {
      std::system(("bash '" + std::string(WARPSIM_SOURCE_DIR) + "/scripts/corpus/run.sh' --help >/dev/null").c_str()),
      ""};
  EXPECT_EQ(sh.status, 0);
}

TEST(CorpusScript, SubsetFilterSelectsByNameAndSuite) {
  if (!have_python()) GTEST_SKIP() << "python3 not found";
  Result r = run_script("--list --only 'polybench/*'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("polybench/GEMM"), std::string::npos);
  EXPECT_EQ(r.out.find("samples/"), std::string::npos);
  r = run_script("--list --only vectorAdd --only bfs");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("samples/vectorAdd"), std::string::npos);
  EXPECT_NE(r.out.find("rodinia/bfs"), std::string::npos);
  EXPECT_EQ(r.out.find("polybench/"), std::string::npos);
}

TEST(CorpusScript, MalformedListIsRefusedWithItsLine) {
  if (!have_python()) GTEST_SKIP() << "python3 not found";
  auto path = std::filesystem::temp_directory_path() / "warpsim_corpus_bad_list.txt";
  {
    std::ofstream f(path);
    f << "# comment\n";
    f << "polybench | GEMM | CUDA/GEMM | gemm.cu | - | polybench\n";
    f << "rodinia | bfs | cuda/bfs | bfs.cu | - | sometimes\n";
  }
  Result r = run_script("--check-list --programs '" + path.string() + "'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find(path.string() + ":3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("check 'sometimes'"), std::string::npos) << r.out;
  {
    std::ofstream f(path);
    f << "opencl | GEMM | CUDA/GEMM | gemm.cu | - | polybench\n";
  }
  r = run_script("--check-list --programs '" + path.string() + "'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find(":1: unknown suite 'opencl'"), std::string::npos) << r.out;
  std::filesystem::remove(path);
}

TEST(CorpusScript, RunWithoutSuitesSaysWhatIsMissing) {
  if (!have_python()) GTEST_SKIP() << "python3 not found";
  Result r = run_script("");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("give the path to at least one suite"), std::string::npos) << r.out;
  r = run_script("--rodinia /nonexistent/rodinia");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("--rodinia /nonexistent/rodinia: not a folder"), std::string::npos) << r.out;
}

TEST(CorpusScript, SelfCheckVerdicts) {
  if (!have_python()) GTEST_SKIP() << "python3 not found";
  Result r = run_script(
      "--verdict polybench 'Non-Matching CPU-GPU Outputs Beyond Error Threshold of 0.05 Percent: 0' "
      "--verdict polybench 'Non-Matching CPU-GPU Outputs Beyond Error Threshold of 0.05 Percent: 12' "
      "--verdict polybench 'Number of misses: 0' "
      "--verdict auto 'Result = PASS' --verdict auto 'Test passed' --verdict auto 'Result = FAIL' "
      "--verdict auto 'done' --verdict none 'Test FAILED' --verdict 're:^Result: [0-9]+$' 'Result: 42'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "passed\nfailed\npassed\npassed\npassed\nfailed\nnone\nnone\npassed\n");
}

// --native rows come from the same logs as the simulated ones, without statistics: written by
// hand here (no GPU, no nvcc), then tabulated with --retabulate.
TEST(CorpusScript, NativeRowsAreTabulatedWithoutStatistics) {
  if (!have_python()) GTEST_SKIP() << "python3 not found";
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "warpsim_corpus_native";
  fs::remove_all(dir);
  fs::create_directories(dir / "samples");
  fs::create_directories(dir / "out" / "logs");
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / "out" / "logs" / name) << text;
  };
  write("samples-vectorAdd.build.log", "cd x && nvcc ...\n\nbuilt\n");
  write("native.gpu", "GPU 0: Some GPU");
  write("samples-vectorAdd.native.status", R"({"exit": 0, "host_seconds": 1.2, "timeout": 60})");
  write("samples-vectorAdd.native.log", "Test PASSED\n");
  write("samples-vectorAdd.native.err", "");
  write("samples-vectorAdd.gtx480.status", R"({"exit": 1, "host_seconds": 0.3, "timeout": 60})");
  write("samples-vectorAdd.gtx480.log", "");
  write("samples-vectorAdd.gtx480.err", "");
  Result r = run_script("--samples '" + (dir / "samples").string() + "' --out '" + (dir / "out").string() +
                        "' --retabulate --native --gpu gtx480 --only vectorAdd");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("| native | 1 | 1 | - | 1 (100 %) | 1 (100 %) | 1 |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| gtx480 | 1 | 1 | 0 | 0 (0 %) | 0 (0 %) | 0 |"), std::string::npos) << r.out;
  std::ifstream tsv(dir / "out" / "results.tsv");
  std::string text((std::istreambuf_iterator<char>(tsv)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("vectorAdd\tsamples\tnative\tyes\t0\tyes\tpassed\t\t\t\t1.2\t\r\n"), std::string::npos) << text;
  EXPECT_NE(text.find("vectorAdd\tsamples\tgtx480\tyes\t1\tno\tnone\t0\t0\t0\t0.3\texit status 1"), std::string::npos)
      << text;
  std::ifstream md(dir / "out" / "results.md");
  std::string table((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(table.find("without warpsim, on GPU 0: Some GPU."), std::string::npos) << table;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace warpsim::test
