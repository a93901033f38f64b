// warpsim: a cycle-level GPU simulator for warp-scheduling research.
#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "cli/options.h"
#include "core/error.h"

int main(int argc, char** argv) {
  CLI::App app{"warpsim: a cycle-level GPU simulator for warp-scheduling research"};
  app.set_version_flag("--version", std::string("warpsim ") + WARPSIM_VERSION);
  app.require_subcommand(1);
  warpsim::cli::add_run_command(app);
  warpsim::cli::add_list_command(app);
  warpsim::cli::add_compare_command(app);
  warpsim::cli::add_registered_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const warpsim::Error& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
  return 0;
}
