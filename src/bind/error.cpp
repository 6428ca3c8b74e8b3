// The bind::errc category (see include/lather/bind/error.hpp).
#include "lather/bind/error.hpp"

namespace lather::bind {

const char* describe(errc e) noexcept {
  switch (e) {
    case errc::ok:
      return "success";
    case errc::invalid_lexical:
      return "not in the lexical space of the type";
    case errc::out_of_range:
      return "outside the value space of the type";
    case errc::invalid_base64:
      return "invalid base64Binary (alphabet, padding or length)";
    case errc::invalid_hex:
      return "invalid hexBinary (odd length or non-hex digit)";
    case errc::unknown_enum:
      return "not one of the enumeration's values";
    case errc::undeclared_prefix:
      return "QName prefix not declared";
    case errc::missing_element:
      return "required element missing";
    case errc::unexpected_element:
      return "unexpected element";
    case errc::too_many:
      return "more occurrences than maxOccurs";
    case errc::missing_attribute:
      return "required attribute missing";
    case errc::nil_not_allowed:
      return "xsi:nil on a non-nillable element";
    case errc::bad_xsi_type:
      return "xsi:type not derived from the declared type";
    case errc::unknown_xsi_type:
      return "xsi:type names an unknown type";
    case errc::bad_reference:
      return "bad SOAP-ENC href/id reference";
    case errc::bad_array:
      return "bad SOAP-ENC array";
    case errc::xml_error:
      return "XML error";
    case errc::limit_exceeded:
      return "binding limit exceeded";
    case errc::facet_violation:
      return "value outside its type's facets";
  }
  return "unknown bind error";
}

namespace {
class bind_category final : public std::error_category {
 public:
  const char* name() const noexcept override { return "lather.bind"; }
  std::string message(int ev) const override { return describe(static_cast<errc>(ev)); }
};
}  // namespace

error_info enclose(error_info e, std::string_view name) {
  std::string front;
  front.reserve(name.size() + 1);
  front.push_back('/');
  front.append(name);
  // The message is "path: reason" (or the reason alone while the path is empty).
  if (!e.path.empty() && std::string_view(e.message).starts_with(e.path))
    e.message.insert(0, front);
  else
    e.message.insert(0, front + e.path + ": ");
  e.path.insert(0, front);
  return e;
}

const std::error_category& category() noexcept {
  static const bind_category instance;
  return instance;
}

}  // namespace lather::bind
