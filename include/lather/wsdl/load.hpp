// lather/wsdl/load.hpp — read WSDL 1.1 contracts and their XSD schemas, offline.
//
//   lather::wsdl::load_options o;
//   o.catalogs = {"catalog.xml"};
//   std::unique_ptr<const lather::wsdl::model> m = lather::wsdl::load({"service.wsdl"}, o);
//   for (const lather::wsdl::port_type* pt : m->port_types()) ...
//
// Where documents come from: a relative location resolves against the file that names it; an
// absolute URL goes through the OASIS XML catalogs (system, uri, rewriteSystem, rewriteURI,
// systemSuffix, uriSuffix, nextCatalog), then "beside a mapped URL" (a URL in the directory of
// a mapped URL is looked for in the directory of that URL's local file), then the standard
// schemas lather ships (xml.xsd, SOAP-ENC 1.1/1.2, SOAP envelopes, WS-Addressing, xmime,
// xop); an import without a schemaLocation is found by namespace the same way. Nothing is
// ever fetched from the network. Each document is read once; include/import cycles are fine.
//
// Errors throw lather::wsdl::error whose what() starts with "file:line:column: ".
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "lather/wsdl/model.hpp"

namespace lather::wsdl {

struct load_options {
  std::vector<std::string> catalogs{};  ///< OASIS XML catalog files, searched in order
};

/// A document that cannot be read or resolved, malformed XML, or an invalid or unresolved
/// WSDL/XSD construct. what() is "file:line:column: message".
class error : public std::runtime_error {
 public:
  error(source_location where, const std::string& message);
  const std::string& file() const noexcept { return file_; }
  std::uint32_t line() const noexcept { return line_; }
  std::uint32_t column() const noexcept { return column_; }
  /// The message without the position.
  const std::string& message() const noexcept { return message_; }

 private:
  std::string file_, message_;
  std::uint32_t line_, column_;
};

/// Load one or more WSDL (or XSD) entry documents into one model.
std::unique_ptr<const model> load(const std::vector<std::string>& files,
                                  const load_options& options = {});

/// The standard schemas compiled into lather: namespace, file name and text.
struct standard_schema {
  std::string_view ns, file, text;
};
std::span<const standard_schema> standard_schemas() noexcept;

}  // namespace lather::wsdl
