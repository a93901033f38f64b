// Loading GPU configurations: TOML presets (configs/gpus/NAME.toml), `--set key=value`
// overrides, a TOML dump of any configuration, and an importer for GPGPU-Sim's
// gpgpusim.config files. Every path goes through config_fields(), so the set of keys is
// exactly the one GpuConfig::visit() declares.
#pragma once
#include <string>
#include <vector>

#include "core/config.h"

namespace warpsim {

// Directories searched for NAME.toml, in order: $WARPSIM_CONFIG_DIR (':'-separated),
// the source tree's configs/gpus, <executable dir>/../share/warpsim/configs/gpus.
// Only directories that exist are returned.
std::vector<std::string> preset_search_dirs();

// Path of the preset NAME, or NAME itself when it names a .toml file (contains a '/' or
// ends in ".toml"). Throws Error listing the available presets when nothing matches.
std::string find_preset(const std::string& name_or_path);

// Loads a preset by name or path, resolving `base = "other"` inheritance, and validates
// the result. Errors name the key and file:line:col.
GpuConfig load_preset(const std::string& name_or_path);

// Applies the keys of a TOML document on top of `cfg` (no `base` handling beyond loading
// the named base first, no validation). `source` names the document in error messages;
// `base_dir` is searched first for a `base` preset. Used by load_preset and by tests.
void apply_toml(GpuConfig& cfg, const std::string& text, const std::string& source, const std::string& base_dir = "");

// Applies `key=value` overrides in order, then validates. Unknown keys and bad values are
// errors naming the key and the valid keys or values.
void apply_overrides(GpuConfig& cfg, const std::vector<std::string>& kv);

// Names of all presets found in the search directories, sorted, without duplicates.
std::vector<std::string> list_presets();

// The whole configuration as TOML that load_preset reads back to an equal configuration.
std::string dump_toml(const GpuConfig& cfg);

// Markdown table of every key: type, built-in default, its value in each of `presets`, and
// description (docs/config.md, "All keys"; `warpsim list keys`).
std::string config_keys_markdown(const std::vector<std::string>& presets = {});

// Reads a GPGPU-Sim gpgpusim.config and maps what warpsim models onto a default
// GpuConfig (see docs/config.md for the mapping). Options that matter to timing but have
// no warpsim equivalent are appended to *not_understood (if given); options that only
// concern GPGPU-Sim's functional simulation, statistics or power model are skipped.
// Malformed values throw LocatedError with file:line:col.
GpuConfig import_gpgpusim_config(const std::string& path, std::vector<std::string>* not_understood);

// Same, applied on top of an existing configuration (e.g. a preset), then validated.
void import_gpgpusim_config_into(GpuConfig& cfg, const std::string& path, std::vector<std::string>* not_understood);

// Same as import_gpgpusim_config_into, reading the options from a string.
void import_gpgpusim_text(GpuConfig& cfg, const std::string& text, const std::string& source,
                          std::vector<std::string>* not_understood);

// Two configurations with equal values in every field.
bool same_config(const GpuConfig& a, const GpuConfig& b);

}  // namespace warpsim
