// Offline resolution of schemaLocation / location values: relative paths, OASIS XML catalogs
// and the standard schemas compiled into lather.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lather/wsdl/load.hpp"

namespace lather::wsdl::detail {

/// Where a document comes from: a file, or one of the standard schemas (`standard` set).
struct location {
  std::string path;  ///< file path, or "lather:standard/<file>" for a standard schema
  const standard_schema* standard = nullptr;
};

class locator {
 public:
  /// Parse the catalogs (and their nextCatalog chains); throws wsdl::error.
  explicit locator(const std::vector<std::string>& catalogs);

  /// `ref` (a location attribute) written in the document at `base_path`. nullopt: an
  /// absolute URL with no local copy.
  std::optional<location> resolve(std::string_view ref, std::string_view base_path) const;
  /// A namespace imported without schemaLocation: a catalog `uri` entry for it, or a standard
  /// schema of that namespace.
  std::optional<location> by_namespace(std::string_view ns) const;

 private:
  void read_catalog(const std::string& path, const source_location& referenced_at, int depth);
  std::optional<std::string> map_url(std::string_view url) const;

  struct entry {
    enum class kind { exact, rewrite, suffix } what;
    std::string key;     ///< URL, prefix or suffix
    std::string target;  ///< local path, or rewrite prefix
  };
  std::vector<entry> entries_;
};

/// Lexically normalised join of dirname(base) and a relative path.
std::string join_path(std::string_view base, std::string_view relative);

/// The standard schema of this namespace (or published at this URL), or nullptr.
const standard_schema* find_standard(std::string_view ns_or_url) noexcept;

}  // namespace lather::wsdl::detail
