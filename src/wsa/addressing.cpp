// Namespaces, endpoint references and reference parameters of both WS-Addressing versions.
#include "lather/wsa/addressing.hpp"

#include <openssl/rand.h>

#include <array>
#include <stdexcept>

#include "lather/bind/bind.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"
#include "read.hpp"

namespace lather::wsa {

std::string_view namespace_of(version v) noexcept {
  return v == version::v1_0 ? ns_1_0 : ns_2004;
}

std::optional<version> version_of(std::string_view ns) noexcept {
  if (ns == ns_1_0) return version::v1_0;
  if (ns == ns_2004) return version::submission04;
  return std::nullopt;
}

std::string_view anonymous_address(version v) noexcept {
  return v == version::v1_0 ? "http://www.w3.org/2005/08/addressing/anonymous"
                            : "http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous";
}

std::string_view reply_relationship(version v) noexcept {
  return v == version::v1_0 ? "http://www.w3.org/2005/08/addressing/reply"
                            : "http://schemas.xmlsoap.org/ws/2004/08/addressing/reply";
}

std::string_view fault_action(version v) noexcept {
  return v == version::v1_0 ? "http://www.w3.org/2005/08/addressing/fault"
                            : "http://schemas.xmlsoap.org/ws/2004/08/addressing/fault";
}

void headers::clear() {
  ver.reset();
  to.clear();
  action.clear();
  message_id.clear();
  relates_to.clear();
  reply_to.reset();
  fault_to.reset();
  from.reset();
  reference_parameters.clear();
  fault_detail.clear();
}

std::string_view headers::reply_to_message() const noexcept {
  for (const relationship& r : relates_to)
    if (r.type.empty() || r.type == reply_relationship(ver.value_or(version::v1_0)))
      return r.message_id;
  return {};
}

std::string new_message_id(std::string_view prefix) {
  std::array<unsigned char, 16> b;
  if (RAND_bytes(b.data(), static_cast<int>(b.size())) != 1)
    throw std::runtime_error("RAND_bytes failed");
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);  // RFC 4122 variant
  static constexpr char hex[] = "0123456789abcdef";
  std::string id(prefix);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) id += '-';
    id += hex[b[i] >> 4];
    id += hex[b[i] & 0x0f];
  }
  return id;
}

namespace {

bool in_wsa(const xml::reader& r, std::string_view local) {
  return r.local_name() == local && version_of(r.ns()).has_value();
}

// The declarations of the current start tag added to `scope`.
void add_declarations(const xml::reader& r, std::vector<soap::namespace_binding>& scope) {
  for (const xml::namespace_declaration& d : r.namespace_declarations())
    scope.push_back({std::string(d.prefix), std::string(d.uri)});
}

void capture_children(xml::reader& r, std::vector<soap::namespace_binding>& scope,
                      std::vector<std::string>& out) {
  add_declarations(r, scope);
  detail::for_each_child(r, [&] { out.push_back(soap::capture_element(r, scope)); });
}

}  // namespace

endpoint_reference read_endpoint_reference(xml::reader& r,
                                           std::span<const soap::namespace_binding> in_scope) {
  endpoint_reference epr;
  std::vector<soap::namespace_binding> scope(in_scope.begin(), in_scope.end());
  add_declarations(r, scope);
  bool has_address = false;
  detail::for_each_child(r, [&] {
    if (in_wsa(r, "Address")) {
      if (has_address) throw std::invalid_argument("an endpoint reference with two Address");
      has_address = true;
      detail::read_text(r, epr.address);
    } else if (in_wsa(r, "ReferenceParameters") || in_wsa(r, "ReferenceProperties")) {
      std::vector<soap::namespace_binding> inner = scope;
      capture_children(r, inner, epr.reference_parameters);
    } else {
      r.skip_element();
    }
  });
  if (!has_address) throw std::invalid_argument("an endpoint reference without Address");
  return epr;
}

endpoint_reference parse_endpoint_reference(std::string_view text) {
  xml::reader r;
  detail::open_fragment(r, text);
  return read_endpoint_reference(r);
}

void write_endpoint_reference(xml::writer& w, version v, std::string_view ns,
                              std::string_view local, const endpoint_reference& epr) {
  const std::string_view wsa = namespace_of(v);
  w.start_element(ns, local);
  w.start_element(wsa, xml::ncname{"Address"});
  w.text(epr.address);
  w.end_element();
  if (!epr.reference_parameters.empty()) {
    w.start_element(wsa, v == version::v1_0 ? "ReferenceParameters" : "ReferenceProperties");
    for (const std::string& p : epr.reference_parameters) detail::copy_fragment(w, p, nullptr);
    w.end_element();
  }
  w.end_element();
}

void write_reference_parameter(xml::writer& w, version v, std::string_view text) {
  if (v == version::v1_0) {
    const std::string_view wsa = namespace_of(v);
    detail::copy_fragment(w, text, [wsa](xml::writer& out) {
      out.attribute(wsa, xml::ncname{"IsReferenceParameter"}, "true");
    });
  } else {
    detail::copy_fragment(w, text, nullptr);
  }
}

std::optional<parameter_value> parameter_of(std::string_view text) {
  xml::reader r;
  try {
    detail::open_fragment(r, text);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  parameter_value v{std::string(r.ns()), std::string(r.local_name()), {}};
  std::string s;
  if (bind::read(r, s)) return std::nullopt;
  v.text = std::move(s);
  return v;
}

void write_request_headers(xml::writer& w, soap::version sv, version v, const request_headers& h) {
  const endpoint_reference anonymous{std::string(anonymous_address(v)), {}};
  detail::outgoing out;
  out.action = h.action;
  out.message_id = h.message_id;
  out.to = h.to;
  if (v == version::submission04) out.reply_to = &anonymous;
  detail::write_headers(w, sv, v, out);
}

headers read_headers(std::string_view envelope) {
  headers h;
  xml::reader r;
  r.reset(envelope);
  soap::envelope_options o;
  o.on_header = [&h](const soap::header_info& info, xml::reader& hr) {
    return detail::read_header(h, info, hr) ? soap::header_use::consumed
                                            : soap::header_use::understood;
  };
  soap::envelope_reader env{r, std::move(o)};
  env.begin();  // reads the Header through to the first Body child
  return h;
}

}  // namespace lather::wsa
