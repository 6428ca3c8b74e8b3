// Error category and messages of the XML layer.
#include "lather/xml/error.hpp"

#include <string>

namespace lather::xml {

const char* describe(errc e) noexcept {
  switch (e) {
    case errc::ok:
      return "ok";
    case errc::unexpected_eof:
      return "unexpected end of input";
    case errc::no_root_element:
      return "document has no root element";
    case errc::junk_after_root:
      return "content after the root element";
    case errc::text_outside_root:
      return "character data outside the root element";
    case errc::invalid_utf8:
      return "malformed UTF-8";
    case errc::invalid_char:
      return "character not allowed in XML";
    case errc::unsupported_encoding:
      return "unsupported encoding (only UTF-8 and US-ASCII)";
    case errc::bad_xml_declaration:
      return "malformed XML declaration";
    case errc::doctype_forbidden:
      return "DOCTYPE is not allowed";
    case errc::pi_forbidden:
      return "processing instructions are not allowed";
    case errc::bad_name:
      return "invalid name";
    case errc::bad_syntax:
      return "malformed markup";
    case errc::tag_mismatch:
      return "end tag does not match start tag";
    case errc::duplicate_attribute:
      return "duplicate attribute";
    case errc::undeclared_prefix:
      return "undeclared namespace prefix";
    case errc::reserved_prefix:
      return "misuse of a reserved prefix or namespace";
    case errc::empty_namespace_prefix:
      return "prefix bound to an empty namespace";
    case errc::bad_char_ref:
      return "malformed or illegal character reference";
    case errc::undefined_entity:
      return "undefined entity";
    case errc::lt_in_attribute:
      return "'<' in attribute value";
    case errc::cdata_end_in_text:
      return "']]>' in character data";
    case errc::limit_depth:
      return "element nesting too deep";
    case errc::limit_name_length:
      return "name too long";
    case errc::limit_attributes:
      return "too many attributes";
    case errc::limit_namespaces:
      return "too many namespace declarations in scope";
    case errc::limit_text_length:
      return "text too long";
    case errc::limit_total_bytes:
      return "document too large";
    case errc::writer_invalid_char:
      return "character cannot be written as XML";
    case errc::writer_bad_state:
      return "writer call out of order";
    case errc::source_failed:
      return "input source failed";
    case errc::limit_attribute_length:
      return "attribute value too long";
  }
  return "unknown XML error";
}

namespace {
class category_impl final : public std::error_category {
 public:
  const char* name() const noexcept override { return "lather.xml"; }
  std::string message(int ev) const override { return describe(static_cast<errc>(ev)); }
};

// The stable code names (what message() prefixes), in enum order.
const char* code_name(errc e) noexcept {
  static constexpr const char* names[] = {
      "ok",
      "unexpected_eof",
      "no_root_element",
      "junk_after_root",
      "text_outside_root",
      "invalid_utf8",
      "invalid_char",
      "unsupported_encoding",
      "bad_xml_declaration",
      "doctype_forbidden",
      "pi_forbidden",
      "bad_name",
      "bad_syntax",
      "tag_mismatch",
      "duplicate_attribute",
      "undeclared_prefix",
      "reserved_prefix",
      "empty_namespace_prefix",
      "bad_char_ref",
      "undefined_entity",
      "lt_in_attribute",
      "cdata_end_in_text",
      "limit_depth",
      "limit_name_length",
      "limit_attributes",
      "limit_namespaces",
      "limit_text_length",
      "limit_total_bytes",
      "writer_invalid_char",
      "writer_bad_state",
      "source_failed",
      "limit_attribute_length",
  };
  auto i = static_cast<std::size_t>(e);
  return i < std::size(names) ? names[i] : "unknown";
}
}  // namespace

const std::error_category& category() noexcept {
  static const category_impl instance;
  return instance;
}

std::string error_info::message() const {
  std::string m = code_name(code);
  m += " at line ";
  m += std::to_string(where.line);
  m += ", column ";
  m += std::to_string(where.column);
  m += " (offset ";
  m += std::to_string(where.offset);
  m += "): ";
  m += describe(code);
  return m;
}

}  // namespace lather::xml
