// docs/architecture.md's table of libraries ("dir | depends on | holds") is checked against the
// code: every `#include "X/..."` in src/<dir>/ and every library a `warpsim_<dir>` target links
// in CMakeLists.txt must be a listed dependency or one below it, every listed dependency must be
// used directly, and the table must have no cycle. The checker itself is tested on small inputs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace warpsim {
namespace {

namespace fs = std::filesystem;

// dir -> the dirs (and external libraries) its row lists.
struct Table {
  std::vector<std::string> order;  // dirs in row order
  std::map<std::string, std::set<std::string>> deps;
  std::set<std::string> summary_rows;  // "all of the above": not checked for direct use
};
// dir -> dir it uses directly -> where (the first file or CMake line seen).
using Uses = std::map<std::string, std::map<std::string, std::string>>;

const std::set<std::string> kExternal = {"fmt", "json", "toml++", "zstd", "xz", "lz4"};

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t`");
  size_t b = s.find_last_not_of(" \t`");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '|') {
      cells.push_back(trim(cell));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return cells;
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    item = trim(item);
    // "cudart (shared library)": the name is the first word.
    size_t end = item.find_first_of(" (");
    if (end != std::string::npos) item = item.substr(0, end);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// The rows of the table under "## Libraries". Problems (a malformed row) go to `errors`.
Table parse_table(const std::string& markdown, std::vector<std::string>& errors) {
  Table t;
  std::stringstream in(markdown);
  std::string line;
  bool in_section = false, header_seen = false;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.rfind("## ", 0) == 0) {
      in_section = line.rfind("## Libraries", 0) == 0;
      continue;
    }
    if (!in_section || line.empty() || line[0] != '|') continue;
    std::vector<std::string> cells = split_cells(line);
    if (!header_seen) {
      header_seen = true;
      if (cells.size() < 2 || cells[0] != "dir" || cells[1] != "depends on")
        errors.push_back("architecture.md:" + std::to_string(line_no) + ": expected the header | dir | depends on |");
      continue;
    }
    if (cells.size() < 2) {
      errors.push_back("architecture.md:" + std::to_string(line_no) + ": a row needs a dir and its dependencies");
      continue;
    }
    if (cells[0].find_first_not_of("-: ") == std::string::npos) continue;  // separator row
    std::set<std::string> deps;
    bool all_above = cells[1] == "all of the above";
    if (all_above)
      for (const std::string& d : t.order) deps.insert(d);
    else
      for (const std::string& d : split_list(cells[1])) deps.insert(d);
    for (const std::string& dir : split_list(cells[0])) {
      if (t.deps.count(dir)) errors.push_back("architecture.md:" + std::to_string(line_no) + ": " + dir + " twice");
      t.order.push_back(dir);
      t.deps[dir] = deps;
      if (all_above) t.summary_rows.insert(dir);
    }
  }
  if (t.order.empty()) errors.push_back("architecture.md: no table under '## Libraries'");
  return t;
}

// Everything `dir` may use according to the table: its dependencies and theirs.
std::set<std::string> closure(const Table& t, const std::string& dir) {
  std::set<std::string> seen;
  std::vector<std::string> todo;
  if (auto it = t.deps.find(dir); it != t.deps.end()) todo.assign(it->second.begin(), it->second.end());
  while (!todo.empty()) {
    std::string d = todo.back();
    todo.pop_back();
    if (!seen.insert(d).second) continue;
    auto it = t.deps.find(d);
    if (it != t.deps.end()) todo.insert(todo.end(), it->second.begin(), it->second.end());
  }
  return seen;
}

// The table against the directories of src/ and what they use.
std::vector<std::string> check(const Table& t, const std::set<std::string>& dirs, const Uses& uses) {
  std::vector<std::string> errors;
  for (const std::string& d : dirs)
    if (!t.deps.count(d)) errors.push_back("src/" + d + " has no row in the table");
  for (const auto& [dir, deps] : t.deps) {
    if (!dirs.count(dir)) errors.push_back("the table lists " + dir + ", which is not a directory of src/");
    for (const std::string& d : deps)
      if (!dirs.count(d) && !kExternal.count(d))
        errors.push_back(dir + " depends on '" + d + "', which is neither a directory of src/ nor a known library");
    std::set<std::string> reach = closure(t, dir);
    if (reach.count(dir)) errors.push_back(dir + " depends on itself through the table (a cycle)");
    auto u = uses.find(dir);
    for (const std::string& d : deps) {
      if (!dirs.count(d) || t.summary_rows.count(dir)) continue;
      if (u == uses.end() || !u->second.count(d))
        errors.push_back(dir + " is listed as depending on " + d + ", but includes nothing of it and does not link it");
    }
    if (u == uses.end()) continue;
    for (const auto& [used, where] : u->second)
      if (!reach.count(used))
        errors.push_back(dir + " uses " + used + " (" + where + "), which the table does not allow");
  }
  return errors;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::set<std::string> src_dirs(const fs::path& root) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(root / "src"))
    if (e.is_directory()) out.insert(e.path().filename().string());
  return out;
}

// Direct uses: includes of another directory's headers in src/<dir>/ (any depth), and the
// warpsim_<dir> libraries each warpsim_<dir> target links in CMakeLists.txt.
Uses direct_uses(const fs::path& root, const std::set<std::string>& dirs) {
  Uses uses;
  const std::regex include_re(R"re(^\s*#\s*include\s+"([a-z0-9_]+)/)re");
  for (const std::string& dir : dirs) {
    for (const auto& e : fs::recursive_directory_iterator(root / "src" / dir)) {
      std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".h" && ext != ".cc")) continue;
      std::ifstream in(e.path());
      std::string line;
      int n = 0;
      while (std::getline(in, line)) {
        ++n;
        std::smatch m;
        if (!std::regex_search(line, m, include_re)) continue;
        std::string to = m[1];
        if (to == dir || !dirs.count(to)) continue;
        uses[dir].emplace(to, fs::relative(e.path(), root).string() + ":" + std::to_string(n));
      }
    }
  }
  // CMake: comments dropped, then warpsim_area(NAME deps...) and target_link_libraries(warpsim_NAME ...).
  std::string cmake;
  {
    std::stringstream in(read(root / "CMakeLists.txt"));
    std::string line;
    while (std::getline(in, line)) cmake += line.substr(0, line.find('#')) + "\n";
  }
  const std::regex area_re(R"(warpsim_area\(\s*([a-z0-9_]+)([^)]*)\))");
  const std::regex link_re(R"(target_link_libraries\(\s*warpsim_([a-z0-9_]+)([^)]*)\))");
  const std::regex lib_re(R"((?:^|[\s(])warpsim_([a-z0-9_]+))");
  for (const std::regex* re : {&area_re, &link_re}) {
    for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), *re); it != std::sregex_iterator(); ++it) {
      std::string dir = (*it)[1];
      if (!dirs.count(dir)) continue;
      std::string args = (*it)[2];
      for (auto l = std::sregex_iterator(args.begin(), args.end(), lib_re); l != std::sregex_iterator(); ++l) {
        std::string to = (*l)[1];
        if (to != dir && dirs.count(to)) uses[dir].emplace(to, "CMakeLists.txt: " + it->str().substr(0, 60));
      }
    }
  }
  return uses;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& e : v) s += "  " + e + "\n";
  return s;
}

TEST(Architecture, TheLibraryTableMatchesIncludesAndLinkLines) {
  const fs::path root = WARPSIM_SOURCE_DIR;
  std::vector<std::string> errors;
  Table t = parse_table(read(root / "docs" / "architecture.md"), errors);
  ASSERT_TRUE(errors.empty()) << join(errors);
  std::set<std::string> dirs = src_dirs(root);
  ASSERT_GT(dirs.size(), 10u);
  errors = check(t, dirs, direct_uses(root, dirs));
  EXPECT_TRUE(errors.empty()) << "docs/architecture.md disagrees with the code:\n" << join(errors);
}

TEST(Architecture, SchedulingPoliciesDependOnlyOnCoreAndRl) {
  const fs::path root = WARPSIM_SOURCE_DIR;
  std::set<std::string> dirs = src_dirs(root);
  Uses uses = direct_uses(root, dirs);
  for (const auto& [to, where] : uses["sched"])
    EXPECT_TRUE(to == "core" || to == "rl") << "sched uses " << to << " (" << where << ")";
  EXPECT_TRUE(uses["sched"].count("rl"));
}

// The checker on small inputs.
const char* kDoc = R"(# A
## Libraries (CMake targets `warpsim_<dir>`)

| dir | depends on | holds |
|---|---|---|
| core | fmt | x |
| mid | core | x |
| top, side | mid | x |
| shim (shared library) | all of the above | x |

## Next
| dir | depends on |
| ignored | nothing |
)";

TEST(ArchitectureChecker, ParsesRowsSharedRowsAndAllOfTheAbove) {
  std::vector<std::string> errors;
  Table t = parse_table(kDoc, errors);
  EXPECT_TRUE(errors.empty()) << join(errors);
  EXPECT_EQ(t.order, (std::vector<std::string>{"core", "mid", "top", "side", "shim"}));
  EXPECT_EQ(t.deps["top"], (std::set<std::string>{"mid"}));
  EXPECT_EQ(t.deps["side"], (std::set<std::string>{"mid"}));
  EXPECT_EQ(t.deps["shim"], (std::set<std::string>{"core", "mid", "top", "side"}));
  EXPECT_EQ(closure(t, "top"), (std::set<std::string>{"mid", "core", "fmt"}));
}

TEST(ArchitectureChecker, AcceptsUsesWithinTheClosure) {
  std::vector<std::string> errors;
  Table t = parse_table(kDoc, errors);
  std::set<std::string> dirs = {"core", "mid", "top", "side", "shim"};
  Uses uses = {{"mid", {{"core", "a"}}}, {"top", {{"mid", "b"}, {"core", "c"}}}, {"side", {{"mid", "d"}}}};
  EXPECT_TRUE(check(t, dirs, uses).empty()) << join(check(t, dirs, uses));
}

TEST(ArchitectureChecker, RejectsAnUnlistedUse) {
  std::vector<std::string> errors;
  Table t = parse_table(kDoc, errors);
  std::set<std::string> dirs = {"core", "mid", "top", "side", "shim"};
  Uses uses = {{"mid", {{"core", "a"}, {"top", "src/mid/x.cc:3"}}}, {"top", {{"mid", "b"}}}, {"side", {{"mid", "d"}}}};
  std::vector<std::string> e = check(t, dirs, uses);
  ASSERT_EQ(e.size(), 1u) << join(e);
  EXPECT_NE(e[0].find("mid uses top (src/mid/x.cc:3)"), std::string::npos) << e[0];
}

TEST(ArchitectureChecker, RejectsAListedDependencyThatIsNotUsed) {
  std::vector<std::string> errors;
  Table t = parse_table(kDoc, errors);
  std::set<std::string> dirs = {"core", "mid", "top", "side", "shim"};
  Uses uses = {{"mid", {{"core", "a"}}}, {"top", {{"mid", "b"}}}};  // side uses nothing of mid
  std::vector<std::string> e = check(t, dirs, uses);
  ASSERT_EQ(e.size(), 1u) << join(e);
  EXPECT_NE(e[0].find("side is listed as depending on mid"), std::string::npos) << e[0];
}

TEST(ArchitectureChecker, RejectsMissingRowsUnknownNamesAndCycles) {
  std::vector<std::string> errors;
  Table t = parse_table(kDoc, errors);
  t.deps["core"].insert("top");    // a cycle core -> top -> mid -> core
  t.deps["mid"].insert("nosuch");  // neither a directory nor a library
  std::set<std::string> dirs = {"core", "mid", "top", "side", "shim", "extra"};
  Uses uses = {{"core", {{"top", "a"}}}, {"mid", {{"core", "a"}}}, {"top", {{"mid", "b"}}}, {"side", {{"mid", "d"}}}};
  std::string all = join(check(t, dirs, uses));
  EXPECT_NE(all.find("src/extra has no row"), std::string::npos) << all;
  EXPECT_NE(all.find("'nosuch'"), std::string::npos) << all;
  EXPECT_NE(all.find("core depends on itself"), std::string::npos) << all;
}

TEST(ArchitectureChecker, RejectsATableWithoutRows) {
  std::vector<std::string> errors;
  parse_table("# nothing\n## Libraries\ntext\n", errors);
  EXPECT_FALSE(errors.empty());
}

}  // namespace
}  // namespace warpsim
