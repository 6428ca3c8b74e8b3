#include "lather/wsa/fault.hpp"

#include <array>

#include "lather/xml/writer.hpp"

namespace lather::wsa {

namespace {

struct kind_text {
  std::string_view name_1_0, name_2004, reason;
};

// WS-Addressing 1.0 SOAP Binding 6.4 (names and reasons); 2004/08 submission section 4.
constexpr std::array<kind_text, 5> kinds = {{
    {"InvalidAddressingHeader", "InvalidMessageInformationHeader",
     "A header representing a Message Addressing Property is not valid and the message cannot "
     "be processed"},
    {"MessageAddressingHeaderRequired", "MessageInformationHeaderRequired",
     "A required header representing a Message Addressing Property is not present"},
    {"DestinationUnreachable", "DestinationUnreachable",
     "No route can be determined to reach [destination]"},
    {"ActionNotSupported", "ActionNotSupported",
     "The [action] cannot be processed at the receiver"},
    {"EndpointUnavailable", "EndpointUnavailable",
     "The endpoint is unable to process the message at this time"},
}};

constexpr std::array<std::string_view, 9> reasons = {
    "",
    "InvalidAddress",
    "InvalidEPR",
    "InvalidCardinality",
    "MissingAddressInEPR",
    "DuplicateMessageID",
    "ActionMismatch",
    "OnlyAnonymousAddressSupported",
    "OnlyNonAnonymousAddressSupported",
};

bool in_wsa(const soap::qname& q, std::string_view local) {
  return q.local == local && version_of(q.ns).has_value();
}

}  // namespace

std::string_view fault_code_name(fault_kind k, version v) noexcept {
  const kind_text& t = kinds[static_cast<std::size_t>(k)];
  return v == version::v1_0 ? t.name_1_0 : t.name_2004;
}

soap::fault make_fault(fault_kind k, version v, invalid_reason reason, const problem& p) {
  const std::string ns(namespace_of(v));
  soap::fault f;
  f.code =
      k == fault_kind::endpoint_unavailable ? soap::fault_code::receiver : soap::fault_code::sender;
  soap::qname code{ns, std::string(fault_code_name(k, v)), "wsa"};
  f.subcodes.push_back(code);
  if (reason != invalid_reason::none && v == version::v1_0)
    f.subcodes.push_back({ns, std::string(reasons[static_cast<std::size_t>(reason)]), "wsa"});
  f.received_code = std::move(code);  // SOAP 1.1: faultcode wsa:<code>
  f.reason = std::string(kinds[static_cast<std::size_t>(k)].reason);
  if (!p.header.empty() || !p.action.empty() || !p.iri.empty())
    f.set_detail([&](xml::writer& w) {
      if (!p.header.empty()) {
        w.start_element(ns, "ProblemHeaderQName");
        const std::string_view prefix = w.prefix_for(ns);
        if (!prefix.empty()) {
          w.text(prefix);
          w.text(":");
        }
        w.text(p.header);
        w.end_element();
      }
      if (!p.action.empty()) {
        w.start_element(ns, "ProblemAction");
        w.start_element(ns, "Action");
        w.text(p.action);
        w.end_element();
        w.end_element();
      }
      if (!p.iri.empty()) {
        w.start_element(ns, "ProblemIRI");
        w.text(p.iri);
        w.end_element();
      }
    });
  return f;
}

void throw_fault(fault_kind k, version v, invalid_reason reason, const problem& p) {
  throw soap::fault_error(make_fault(k, v, reason, p));
}

bool is_fault(const soap::fault& f, fault_kind k) noexcept {
  const kind_text& t = kinds[static_cast<std::size_t>(k)];
  auto matches = [&](const soap::qname& q) {
    return in_wsa(q, t.name_1_0) || in_wsa(q, t.name_2004);
  };
  if (matches(f.received_code)) return true;
  for (const soap::qname& s : f.subcodes)
    if (matches(s)) return true;
  return false;
}

bool is_fault(const soap::fault& f, invalid_reason r) noexcept {
  for (const soap::qname& s : f.subcodes)
    if (in_wsa(s, reasons[static_cast<std::size_t>(r)])) return true;
  return false;
}

}  // namespace lather::wsa
