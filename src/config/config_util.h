// Helpers shared by the TOML loader and the GPGPU-Sim importer: key lookup, "did you mean"
// suggestions and value checks against the choices a field's description lists.
#pragma once
#include <string>
#include <vector>

#include "core/config.h"

namespace warpsim {

std::string trim(const std::string& s);
std::string join(const std::vector<std::string>& v, const std::string& sep);

// Levenshtein distance, and the candidate closest to `word` when it is close enough to be
// a plausible typo (empty otherwise).
size_t edit_distance(const std::string& a, const std::string& b);
std::string closest(const std::string& word, const std::vector<std::string>& candidates);

ConfigField* find_field(std::vector<ConfigField>& fields, const std::string& key);
// True when `prefix` (without trailing dot) names a table, e.g. "l2" or "l2.cache".
bool is_group(const std::vector<ConfigField>& fields, const std::string& prefix);

// The valid values of a string field whose description starts with "a|b|c"; empty when
// the field takes free text.
std::vector<std::string> field_choices(const ConfigField& f);

// ConfigField::set plus the choice check (errors name the key and the valid values).
void set_field_checked(ConfigField& f, const std::string& value);

// Message for an unknown key: names the key, suggests the closest valid key and lists the
// valid keys of the table it was written in (or the valid tables).
// `as_table` is true when `key` was used as a table name.
std::string unknown_key_message(const std::vector<ConfigField>& fields, const std::string& key, bool as_table);

// The key quoted in a "config key 'KEY': ..." message, or "".
std::string key_in_message(const std::string& msg);

}  // namespace warpsim
