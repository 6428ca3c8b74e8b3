#include "lather/soap/style.hpp"

#include "detail.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::soap {

std::string response_name(std::string_view operation) {
  std::string out{operation};
  out += "Response";
  return out;
}

void write_rpc_start(xml::writer& w, version v, style s, std::string_view ns,
                     std::string_view name) {
  w.start_element(ns, name);
  if (s == style::rpc_encoded) w.attribute(envelope_ns(v), "encodingStyle", soap11_encoding_ns);
}

bool rpc_reader::next() {
  for (;;) {
    switch (detail::next(r_)) {
      case xml::token::start_element:
        return true;
      case xml::token::end_element:
        return false;
      default:
        if (!detail::is_whitespace(r_.text())) {
          detail::fail(errc::unexpected_element, "text between RPC parts");
        }
    }
  }
}

std::string_view rpc_reader::name() const noexcept {
  return r_.local_name();
}

void check_encoding_style(const xml::reader& r, version v, std::string_view inherited) {
  const xml::attribute* own = r.find_attribute(envelope_ns(v), "encodingStyle");
  std::string_view style = own ? own->value : inherited;
  while (!style.empty() && detail::is_whitespace(style.substr(0, 1))) style.remove_prefix(1);
  if (style.empty()) return;
  // A list of URIs, most specific first; SOAP 1.1 lets a URI be more specific than SOAP-ENC.
  const std::string_view first = style.substr(0, style.find_first_of(" \t\r\n"));
  if (first.substr(0, soap11_encoding_ns.size()) == soap11_encoding_ns) return;
  // SOAP 1.2 Part 2 section 3: enc:id / enc:ref graphs and enc:arraySize arrays are decoded too.
  if (first == soap12_encoding_ns) return;
  detail::fail(errc::data_encoding_unknown,
               detail::cat({"encodingStyle \"", first, "\" is not supported"}));
}

void expect_element(const xml::reader& r, std::string_view ns, std::string_view name) {
  if (!r.is(ns, name)) {
    detail::fail(errc::unexpected_element,
                 detail::cat({"expected ", detail::clark(ns, name), ", found ",
                              detail::clark(r.ns(), r.local_name())}));
  }
}

}  // namespace lather::soap
