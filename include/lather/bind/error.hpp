// lather/bind/error.hpp — error codes of the data-binding layer.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace lather::bind {

enum class errc : int {
  ok = 0,
  invalid_lexical = 1,  ///< text is not in the XSD lexical space of the type ("abc" as xsd:int)
  out_of_range,         ///< lexically fine but outside the value space ("256" as unsignedByte)
  invalid_base64,       ///< bad base64Binary (alphabet, padding, length)
  invalid_hex,          ///< bad hexBinary (odd length, non-hex digit)
  unknown_enum,         ///< not one of the enumeration's values
  undeclared_prefix,    ///< QName value whose prefix is not in scope
  missing_element,      ///< a required element (minOccurs >= 1) is absent
  unexpected_element,   ///< an element the type does not have (or out of schema order)
  too_many,             ///< more occurrences than maxOccurs
  missing_attribute,    ///< a required attribute is absent
  nil_not_allowed,      ///< xsi:nil="true" on a non-nillable element
  bad_xsi_type,         ///< xsi:type names a type unrelated to the declared one
  unknown_xsi_type,     ///< xsi:type names a type lather has no binding for
  bad_reference,        ///< SOAP-ENC href/id problem: dangling, duplicate id, href to non-id
  bad_array,            ///< SOAP-ENC arrayType problem: size mismatch, bad dimensions, offsets
  xml_error,            ///< the XML reader or writer failed (the message says why)
  limit_exceeded,       ///< a binding limit (e.g. items, references) was exceeded
  facet_violation,      ///< a value outside its type's facets (read_options::validate_facets)
};

const std::error_category& category() noexcept;
inline std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), category()};
}
const char* describe(errc e) noexcept;

/// What a failed read or write reports: the code, the element path (e.g.
/// "/echoComplexTypeDoc/in/item[3]/varUByte") and a full message, e.g.
/// "/echoComplexTypeDoc/in/item[3]/varUByte: \"256\" is out of range for xsd:unsignedByte".
/// A read's path starts at the element it read; a write's at the first element or attribute
/// it wrote ("/user/birthDate" for write_content of a struct with a `user` field).
struct error_info {
  errc code = errc::ok;
  std::string path;
  std::string message;
  explicit operator bool() const noexcept { return code != errc::ok; }
};

/// `e` as seen from the element `name` that encloses where it happened: `/name` in front of
/// its path and message. A caller that started the element itself and then wrote its content
/// (a SOAP response wrapper) reports a write error this way: "/user/birthDate: ..." becomes
/// "/GetUserResponse/user/birthDate: ...".
error_info enclose(error_info e, std::string_view name);

/// Exception form of error_info (thrown by the throwing read/write entry points).
class error : public std::runtime_error {
 public:
  explicit error(error_info info) : std::runtime_error(info.message), info_(std::move(info)) {}
  const error_info& info() const noexcept { return info_; }
  errc code() const noexcept { return info_.code; }

 private:
  error_info info_;
};

}  // namespace lather::bind

template <>
struct std::is_error_code_enum<lather::bind::errc> : std::true_type {};
