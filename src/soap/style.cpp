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

void expect_element(const xml::reader& r, std::string_view ns, std::string_view name) {
  if (!r.is(ns, name)) {
    detail::fail(errc::unexpected_element,
                 detail::cat({"expected ", detail::clark(ns, name), ", found ",
                              detail::clark(r.ns(), r.local_name())}));
  }
}

}  // namespace lather::soap
