// lather/soap/fault.hpp — SOAP faults of both versions, end to end.
//
// Server side: throw soap::fault_error (or let any exception escape); the service layer turns it
// into a fault response with fault_from_exception() + write_fault_envelope().
// Client side: envelope_reader::begin() positions at the first Body child; if it is_fault(),
// read_fault() parses it (tolerant of what real stacks send) and the proxy throws fault_error.
//
//   soap::fault f{.code = soap::fault_code::sender, .reason = "id must be positive"};
//   f.set_detail([&](xml::writer& w) { w.start_element("urn:x", "bad"); w.text("-1"); });
//   throw soap::fault_error{std::move(f)};
#pragma once

#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "lather/bind/xsd.hpp"
#include "lather/soap/capture.hpp"
#include "lather/soap/error.hpp"
#include "lather/soap/version.hpp"

namespace lather::xml {
class reader;
class writer;
}  // namespace lather::xml

namespace lather::soap {

/// The standard fault codes. 1.1 Client == 1.2 Sender, 1.1 Server == 1.2 Receiver;
/// DataEncodingUnknown is 1.2 only (written as Client in 1.1).
enum class fault_code : std::uint8_t {
  version_mismatch,
  must_understand,
  data_encoding_unknown,
  sender,
  receiver,
};

/// Local name of the code in the given version ("Client"/"Sender", ...).
std::string_view fault_code_name(fault_code c, version v) noexcept;

using qname = lather::xsd::qname;

/// One fault, as both versions can express it (every member has a default, so designated
/// initializers may name any of them). Fields that a version lacks are dropped on
/// write (1.1 has no subcodes other than the dotted "Client.Sub" form, which lather writes from
/// the subcodes' local names; no Role; faultactor carries Node).
struct fault {
  fault_code code = fault_code::receiver;
  /// 1.2 Subcode/Value chain, outermost first. 1.1 dotted codes ("Client.ValidationError") are
  /// read into subcodes with the envelope namespace.
  std::vector<qname> subcodes{};
  std::string reason{};       ///< faultstring / first Reason/Text
  std::string reason_lang{};  ///< xml:lang of the Reason text ("en" written when empty, 1.2)
  std::string node{};         ///< 1.1 faultactor / 1.2 Node (URI of the faulting node)
  std::string role{};         ///< 1.2 Role
  /// Children of detail / Detail as XML text, each self-contained (namespace declarations
  /// re-emitted). Empty with has_detail: an empty or nil detail element was present.
  std::string detail_xml{};
  bool has_detail = false;
  /// The code exactly as received (resolved QName; for an undeclared prefix, the envelope
  /// namespace and the local part): a SOAP 1.1 soap:Client stays {SOAP 1.1 envelope}Client
  /// (`code` is its class, sender), a custom code such as {urn:acme}QuotaExceeded keeps its
  /// QName (`code` is then receiver). fault_error::what() names the code so; write() uses
  /// `code` and `subcodes`, except that a custom code is written back as received in SOAP 1.1
  /// (a service passing on a fault it received).
  qname received_code{};
  /// MustUnderstand: the headers not understood (1.2 writes env:NotUnderstood header blocks).
  std::vector<qname> not_understood{};
  /// VersionMismatch: the envelope namespace received (for the 1.2 Upgrade header).
  std::string received_envelope_ns{};
  /// SOAP header entries that travel with the fault, as XML text, each self-contained (as
  /// detail_xml). A fault caused by a header of the request carries its information there, not
  /// in detail (SOAP 1.1 section 4.4; a WSDL soap:headerfault declares such an entry):
  /// soap::header_fault_of. Written into the fault envelope's Header; a client fills it with
  /// the fault response's header entries that no call_options::read_header or interceptor
  /// took.
  std::string header_xml{};

  /// Render detail content with a writer (e.g. a bind write of a typed fault detail).
  void set_detail(const std::function<void(xml::writer&)>& write_children);
  /// Parse detail_xml: calls `read_child` once per child element with a reader positioned at
  /// its start tag; the callback reads it through its end tag (e.g. a bind read, or
  /// reader.skip_element()). Returns false if there is no detail.
  bool read_detail(const std::function<void(xml::reader&)>& read_child) const;
  /// set_detail and read_detail for header_xml (read_header: false when it is empty).
  void set_header(const std::function<void(xml::writer&)>& write_entries);
  bool read_header(const std::function<void(xml::reader&)>& read_entry) const;
};

/// An exception carrying a fault end to end (thrown by handlers, the envelope reader, the
/// encoded decoder, and by client proxies on a fault response).
class fault_error : public std::runtime_error {
 public:
  explicit fault_error(fault f, std::error_code ec = {});
  const fault& get() const noexcept { return fault_; }
  fault& get() noexcept { return fault_; }
  /// The layer error behind it, when lather raised it (empty for user and received faults).
  std::error_code code() const noexcept { return ec_; }

 private:
  fault fault_;
  std::error_code ec_;
};

/// Which fault code an error of any layer maps to: xml/bind errors and malformed envelopes are
/// the sender's fault; version_mismatch, must_understand, data_encoding_unknown map to their
/// own codes; errors of unknown categories are the receiver's fault.
fault_code fault_code_for(const std::error_code& ec) noexcept;
/// A fault for an error: code from fault_code_for, reason = message.
fault make_fault(const std::error_code& ec, std::string reason);
/// Throw fault_error for an error of any layer (code from fault_code_for).
[[noreturn]] void throw_fault(const std::error_code& ec, std::string reason);

/// Turn whatever a handler threw into a fault: fault_error as is; xml::error / bind::error as
/// sender faults with their message; other std::exception as a receiver fault whose reason is
/// `what()` unless `hide_internal_messages` (then "Internal server error").
fault fault_from_exception(std::exception_ptr e, bool hide_internal_messages = false);

/// Write a Fault element (caller has opened Body).
void write_fault(xml::writer& w, version v, const fault& f);
/// Write a complete fault envelope: Envelope, for 1.2 a Header with NotUnderstood (for
/// MustUnderstand) or Upgrade (for VersionMismatch) blocks, Body, Fault; then end_document.
/// Starts with the XML declaration unless `xml_declaration` is false. `write_headers`, when
/// given, writes further header entries (e.g. WS-Addressing's) after those; the fault's
/// header_xml follows.
void write_fault_envelope(xml::writer& w, version v, const fault& f, bool xml_declaration = true,
                          const std::function<void(xml::writer&)>& write_headers = {});

/// Read a Fault element of either shape. The reader is positioned at its start tag and is left
/// on its end tag. Tolerant: undeclared prefixes in faultcode text, 1.2-shaped children (Code,
/// Reason) in a 1.1 envelope, xsi:type / encodingStyle attributes, empty faultactor, nil detail,
/// unknown extra children. Throws fault_error{bad_fault} only when no code can be found at all.
/// `in_scope`: bindings in scope at the Body (envelope_reader::body_namespaces()), so detail
/// children captured as text keep their QName values resolvable.
fault read_fault(xml::reader& r, version v, std::span<const namespace_binding> in_scope = {});

/// Parse a whole response document; nullopt if its first Body child is not a Fault. The
/// Header's entries that are not mustUnderstand go to header_xml (a soap:headerfault's entry,
/// as a client's call reads it); mustUnderstand ones are skipped, never refused.
/// Throws fault_error for a malformed envelope.
std::optional<fault> read_fault_document(std::string_view document);

}  // namespace lather::soap
