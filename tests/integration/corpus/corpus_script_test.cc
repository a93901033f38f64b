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
  for (const char* opt : {"--rodinia", "--polybench", "--samples", "--jobs", "--only", "--timeout", "--gpu"})
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

}  // namespace
}  // namespace warpsim::test
