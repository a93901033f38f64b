// Crash-safe file writes: write to a temporary file, fsync, rename over the target.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace warpsim {

void write_file_atomic(const std::string& path, const std::string& contents);
void write_json_atomic(const std::string& path, const nlohmann::json& j);

}  // namespace warpsim
