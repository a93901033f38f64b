// Subcommands that register themselves (CommandRegistrar in options.h).
#include <map>
#include <string>

#include "cli/options.h"

namespace warpsim::cli {
namespace {
std::map<std::string, AddCommand>& registered() {
  static std::map<std::string, AddCommand> commands;
  return commands;
}
}  // namespace

CommandRegistrar::CommandRegistrar(const char* name, AddCommand add) { registered()[name] = add; }

void add_registered_commands(CLI::App& app) {
  for (const auto& [name, add] : registered()) add(app);
}

}  // namespace warpsim::cli
