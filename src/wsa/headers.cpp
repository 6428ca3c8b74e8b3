// Reading and writing the WS-Addressing header entries of a message (client and server).
#include <stdexcept>

#include "lather/soap/capture.hpp"
#include "lather/wsa/fault.hpp"
#include "read.hpp"

namespace lather::wsa::detail {

namespace {

bool is_true(const xml::attribute* a) {
  return a && (a->value == "true" || a->value == "1");
}

[[noreturn]] void invalid(version v, invalid_reason why, std::string_view header) {
  throw_fault(fault_kind::invalid_header, v, why, {.header = header, .action = {}, .iri = {}});
}

// A single-valued text header (To, Action, MessageID).
void read_single(xml::reader& r, version v, std::string_view local, std::string& out, bool& seen) {
  if (seen) invalid(v, invalid_reason::invalid_cardinality, local);
  seen = true;
  try {
    read_text(r, out);
  } catch (const std::invalid_argument&) {
    invalid(v, invalid_reason::none, local);
  }
  if (out.empty()) invalid(v, invalid_reason::invalid_address, local);
}

void read_epr(xml::reader& r, version v, std::string_view local,
              std::optional<endpoint_reference>& out) {
  if (out) invalid(v, invalid_reason::invalid_cardinality, local);
  try {
    out = read_endpoint_reference(r);
  } catch (const std::invalid_argument&) {
    invalid(v, invalid_reason::missing_address_in_epr, local);
  }
}

}  // namespace

bool read_header(headers& h, const soap::header_info& info, xml::reader& r) {
  const std::optional<version> v = version_of(info.ns);
  if (!v) {
    if (!is_true(r.find_attribute(ns_1_0, "IsReferenceParameter"))) return false;
    h.reference_parameters.push_back(soap::capture_element(r, {}));
    return true;
  }
  if (h.ver && *h.ver != *v) invalid(*v, invalid_reason::invalid_cardinality, info.local);
  // Which single-valued headers were seen: an empty value is refused, so empty = not seen.
  bool to = !h.to.empty(), action = !h.action.empty(), id = !h.message_id.empty();
  const std::string_view l = info.local;
  if (l == "To") {
    read_single(r, *v, l, h.to, to);
  } else if (l == "Action") {
    read_single(r, *v, l, h.action, action);
  } else if (l == "MessageID") {
    read_single(r, *v, l, h.message_id, id);
  } else if (l == "RelatesTo") {
    relationship& rel = h.relates_to.emplace_back();
    if (const xml::attribute* t = r.find_attribute({}, "RelationshipType")) rel.type = t->value;
    bool seen = false;
    read_single(r, *v, l, rel.message_id, seen);
  } else if (l == "ReplyTo") {
    read_epr(r, *v, l, h.reply_to);
  } else if (l == "FaultTo") {
    read_epr(r, *v, l, h.fault_to);
  } else if (l == "From") {
    read_epr(r, *v, l, h.from);
  } else if (l == "FaultDetail") {
    for_each_child(r, [&] { h.fault_detail.push_back(soap::capture_element(r, {})); });
  } else {
    return false;  // a header of the namespace lather does not know: not understood
  }
  h.ver = v;
  return true;
}

namespace {

void text_header(xml::writer& w, soap::version sv, std::string_view ns, std::string_view local,
                 std::string_view value, bool must_understand) {
  w.start_element(ns, local);
  soap::write_header_attributes(w, sv, must_understand);
  w.text(value);
  w.end_element();
}

}  // namespace

void write_headers(xml::writer& w, soap::version sv, version v, const outgoing& out) {
  const std::string_view ns = namespace_of(v);
  w.declare_namespace("wsa", ns);
  if (!out.action.empty()) text_header(w, sv, ns, "Action", out.action, out.must_understand);
  if (!out.message_id.empty()) text_header(w, sv, ns, "MessageID", out.message_id, false);
  if (!out.relates_to.empty()) text_header(w, sv, ns, "RelatesTo", out.relates_to, false);
  if (!out.to.empty()) text_header(w, sv, ns, "To", out.to, out.must_understand);
  if (out.reply_to) write_endpoint_reference(w, v, ns, "ReplyTo", *out.reply_to);
  if (out.fault_to) write_endpoint_reference(w, v, ns, "FaultTo", *out.fault_to);
  if (out.from) write_endpoint_reference(w, v, ns, "From", *out.from);
  for (const std::string& p : out.reference_parameters) write_reference_parameter(w, v, p);
}

}  // namespace lather::wsa::detail
