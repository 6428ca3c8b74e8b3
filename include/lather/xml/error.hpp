// lather/xml/error.hpp — error codes of the XML layer.
//
// One enum for the layer, wired into std::error_code (as Beast does), so the SOAP layer can map
// any XML failure to a Client/Sender fault with a stable code and a position.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <system_error>

namespace lather::xml {

enum class errc : int {
  ok = 0,
  unexpected_eof = 1,       ///< input ended inside a construct, or before the root element closed
  no_root_element,          ///< the document holds no element
  junk_after_root,          ///< non-whitespace content after the root element
  text_outside_root,        ///< character data before the root element
  invalid_utf8,             ///< malformed UTF-8: overlong, surrogate, truncated, > U+10FFFF
  invalid_char,             ///< a code point XML 1.0 does not allow (e.g. U+0001, U+FFFE)
  unsupported_encoding,     ///< UTF-16/UCS-4 input or a declared encoding other than UTF-8/ASCII
  bad_xml_declaration,      ///< malformed <?xml ...?> or one that is not at the very start
  doctype_forbidden,        ///< <!DOCTYPE: SOAP forbids DTDs (no entities, no XXE by construction)
  pi_forbidden,             ///< processing instruction: SOAP forbids them
  bad_name,                 ///< a name that breaks the XML Name / NCName production
  bad_syntax,               ///< malformed markup (missing '=', quote, '>', bad comment, ...)
  tag_mismatch,             ///< end tag does not match the open start tag
  duplicate_attribute,      ///< same attribute twice (by name or by resolved namespace + local)
  undeclared_prefix,        ///< element or attribute prefix with no in-scope declaration
  reserved_prefix,          ///< misuse of xml/xmlns prefixes or their namespace URIs
  empty_namespace_prefix,   ///< xmlns:p="" (not allowed in XML Namespaces 1.0)
  bad_char_ref,             ///< &#...; that is malformed or names an illegal character
  undefined_entity,         ///< &name; other than the five predefined entities
  lt_in_attribute,          ///< '<' inside an attribute value
  cdata_end_in_text,        ///< "]]>" in character data
  limit_depth,              ///< element nesting deeper than limits::max_depth
  limit_name_length,        ///< a name longer than limits::max_name_length
  limit_attributes,         ///< more attributes on one element than limits::max_attributes
  limit_namespaces,         ///< more in-scope namespace declarations than limits::max_namespaces
  limit_text_length,        ///< one text run longer than limits::max_text_length
  limit_total_bytes,        ///< document longer than limits::max_total_bytes
  writer_invalid_char,      ///< writer: a character XML cannot carry (e.g. U+0000) or bad UTF-8
  writer_bad_state,         ///< writer: call out of order (text before root, unbalanced end, ...)
  source_failed,            ///< the byte source reported an I/O failure
  limit_attribute_length,   ///< one attribute value longer than limits::max_attribute_length
};

const std::error_category& category() noexcept;
inline std::error_code make_error_code(errc e) noexcept { return {static_cast<int>(e), category()}; }

/// Stable, short, human-readable description of a code (also what category().message() returns).
const char* describe(errc e) noexcept;

/// Where an error happened. Offsets count bytes from the start of the stream (not of the
/// current chunk); line and column are 1-based, column counted in bytes.
struct position {
  std::uint64_t offset = 0;
  std::uint32_t line = 1;
  std::uint32_t column = 1;
};

/// What the reader reports when next() returns token::error.
struct error_info {
  errc code = errc::ok;
  position where{};
  explicit operator bool() const noexcept { return code != errc::ok; }
  std::string message() const;  ///< e.g. "tag_mismatch at line 3, column 7 (offset 52): ..."
};

/// Thrown by the writer, and by helpers that prefer exceptions (binding, SOAP).
class error : public std::runtime_error {
 public:
  error(errc code, position where, const std::string& what)
      : std::runtime_error(what), code_(code), where_(where) {}
  explicit error(const error_info& info) : error(info.code, info.where, info.message()) {}
  errc code() const noexcept { return code_; }
  const position& where() const noexcept { return where_; }

 private:
  errc code_;
  position where_;
};

}  // namespace lather::xml

template <>
struct std::is_error_code_enum<lather::xml::errc> : std::true_type {};
