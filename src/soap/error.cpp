#include "lather/soap/error.hpp"

#include <string>

namespace lather::soap {

const char* describe(errc e) noexcept {
  switch (e) {
    case errc::ok:
      return "ok";
    case errc::version_mismatch:
      return "envelope namespace is not SOAP 1.1 or 1.2";
    case errc::not_an_envelope:
      return "root element is not a SOAP Envelope";
    case errc::missing_body:
      return "Envelope has no Body";
    case errc::duplicate_body:
      return "Envelope has two Bodies";
    case errc::duplicate_header:
      return "Envelope has two Headers";
    case errc::header_after_body:
      return "Header is not the first child of Envelope";
    case errc::content_after_body:
      return "element after Body";
    case errc::unexpected_content:
      return "content the envelope grammar does not allow";
    case errc::must_understand:
      return "mandatory header not understood";
    case errc::bad_must_understand:
      return "invalid mustUnderstand value";
    case errc::data_encoding_unknown:
      return "unsupported encodingStyle";
    case errc::bad_fault:
      return "malformed Fault";
    case errc::bad_reference:
      return "bad SOAP-ENC reference";
    case errc::bad_array:
      return "bad SOAP-ENC array";
    case errc::unexpected_element:
      return "unexpected element";
    case errc::missing_element:
      return "missing element";
    case errc::limit_exceeded:
      return "encoding limit exceeded";
    case errc::unqualified_header:
      return "header entry not namespace-qualified";
  }
  return "unknown soap error";
}

namespace {
class soap_category : public std::error_category {
 public:
  const char* name() const noexcept override { return "lather.soap"; }
  std::string message(int ev) const override { return describe(static_cast<errc>(ev)); }
};
}  // namespace

const std::error_category& category() noexcept {
  static const soap_category instance;
  return instance;
}

}  // namespace lather::soap
