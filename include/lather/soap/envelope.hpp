// lather/soap/envelope.hpp — reading and writing SOAP envelopes (1.1 and 1.2).
//
// Receiving (service side; a client reads responses the same way):
//
//   soap::envelope_options opts;     // (assign fields: g++ warns on partial designated inits)
//   opts.on_header = [&](const soap::header_info& h, xml::reader& r) {
//     if (h.is(wsse_ns, "Security")) { read_security(r); return soap::header_use::consumed; }
//     return soap::header_use::not_understood;
//   };
//   soap::envelope_reader env{reader, std::move(opts)};
//   env.begin();                       // version, headers, mustUnderstand; throws fault_error
//   if (env.at_body_element()) {       // reader is on the first Body child's start tag
//     dispatch(reader.ns(), reader.local_name());   // bind reads it through its end tag
//   }
//   env.finish();                      // rest of Body, Envelope end, end of document
//
// Sending:
//
//   soap::envelope_writer out{writer, soap::version::soap11};
//   out.begin({.encoded = true, .namespaces = {{"tns", "urn:fetch"}}, .xml_declaration = true});
//   out.begin_header(); ...write header entries...   (optional)
//   out.begin_body();   ...write body content...
//   out.end();
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lather/soap/capture.hpp"
#include "lather/soap/fault.hpp"
#include "lather/soap/version.hpp"

namespace lather::xml {
class reader;
class writer;
class document_start;
}  // namespace lather::xml

namespace lather::soap {

/// A header entry targeted at this node, as offered to envelope_options::on_header.
/// The views are valid until the callback advances the reader.
struct header_info {
  std::string_view ns;
  std::string_view local;
  bool must_understand = false;
  /// The actor/role as written ("" = absent = ultimate receiver).
  std::string_view role;
  bool relay = false;  ///< 1.2 relay="true"
  bool is(std::string_view ns_uri, std::string_view local_name) const noexcept {
    return local == local_name && ns == ns_uri;
  }
};

/// What the header callback did with the entry.
enum class header_use : std::uint8_t {
  not_understood,  ///< left alone (reader untouched); a fault if must_understand
  understood,      ///< processed without reading (reader untouched); the envelope skips it
  consumed,        ///< the callback read it through its end tag
};

using header_handler = std::function<header_use(const header_info&, xml::reader&)>;

struct envelope_options {
  /// Offered every header entry targeted at this node (see roles below). Empty = none
  /// understood (so any targeted mustUnderstand header faults).
  header_handler on_header{};
  /// Roles/actors this node plays besides "next" (and ultimate receiver, below).
  std::vector<std::string> roles{};
  bool ultimate_receiver = true;
  /// Keep, as XML text, the header entries an intermediary must forward: those not targeted
  /// at this node, and (1.2) targeted ones with relay="true" that were not understood.
  bool collect_relayable = false;
  /// Keep, as XML text, the targeted header entries nobody understood that are not
  /// mustUnderstand (unread_headers()): a client gives them to the fault it receives
  /// (fault::header_xml), where a soap:headerfault's entry travels.
  bool keep_unread = false;
  /// Only this version is acceptable (a request whose Content-Type named a version);
  /// the other one gives VersionMismatch. Empty = either.
  std::optional<version> expect{};
};

/// Reads an envelope from an xml::reader at document start. Every failure throws fault_error
/// with the fault the peer should get (Client/Sender for malformed envelopes,
/// VersionMismatch, MustUnderstand with the not-understood header QNames).
class envelope_reader {
 public:
  explicit envelope_reader(xml::reader& r, envelope_options options = {});

  /// Options for the next message: an envelope_reader kept with its xml::reader (one per
  /// connection) reads message after message without allocating.
  void set_options(envelope_options options) { options_ = std::move(options); }
  /// Read Envelope and Header up to the first Body child (or the Body end tag). Starts over:
  /// the reader may be reused for the next message.
  void begin();
  /// After begin(): the version seen (soap11 before that, and for VersionMismatch).
  version ver() const noexcept { return version_; }
  /// The reader is on the start tag of a Body child (false: Body is empty / at its end tag).
  bool at_body_element() const noexcept { return at_body_element_; }
  /// The current body element is a Fault of this version.
  bool at_fault() const noexcept;
  /// After the current body child has been read through its end tag (or right after begin()
  /// when the caller skips it): advance to the next Body child's start tag. False at Body end.
  bool next_body_element();
  /// Skip the current body child (reader on its start tag) and advance as next_body_element.
  bool skip_body_element();
  /// The current body child (start tag current) as self-contained XML text (raw message
  /// access). The reader is left on its end tag: call next_body_element() next.
  std::string capture_body_element();
  /// Check the rest of the envelope: Body end, nothing but whitespace/comments up to the
  /// Envelope end, end of document. Call after the last body child was read through its end
  /// tag (or when at_body_element() is false); Body children not yet visited are skipped.
  void finish();

  /// encodingStyle on Envelope or Body ("" when absent; SOAP::Lite puts it on Envelope).
  std::string_view encoding_style() const noexcept { return encoding_style_; }
  /// Namespace bindings in scope inside Body (Envelope's and Body's declarations).
  std::span<const namespace_binding> body_namespaces() const noexcept { return scope_.bindings(); }
  /// Relayable header entries (when collect_relayable), as XML text.
  const std::vector<std::string>& relayable_headers() const noexcept { return relayable_; }
  /// The header entries kept by keep_unread, as XML text, each self-contained.
  const std::string& unread_headers() const noexcept { return unread_; }
  xml::reader& reader() noexcept { return r_; }

 private:
  void read_headers();
  void advance_in_body();
  bool read_must_understand(std::string_view value) const;
  [[noreturn]] void fail(errc code, std::string reason) const;

  xml::reader& r_;
  envelope_options options_;
  version version_ = version::soap11;
  bool at_body_element_ = false;
  bool body_closed_ = false;
  std::string encoding_style_;
  namespace_scope scope_;
  std::vector<std::string> relayable_;
  std::string unread_;
};

/// Header entry attributes in the right form for the version: mustUnderstand "1" (1.1) or
/// "true" (1.2), actor (1.1) or role (1.2) when not empty, relay="true" (1.2 only).
/// Call right after start_element of the header entry.
void write_header_attributes(xml::writer& w, version v, bool must_understand,
                             std::string_view role = {}, bool relay = false);

struct envelope_write_options {
  /// Declare SOAP-ENC and put encodingStyle on the Envelope (RPC/encoded messages).
  bool encoded = false;
  /// Extra namespaces declared once on Envelope (e.g. the service and type namespaces, so
  /// independent multi-ref elements do not re-declare them; see docs/soap.md).
  std::vector<namespace_binding> namespaces{};
  /// Start with <?xml version="1.0" encoding="UTF-8"?>. Optional in XML, but some peers
  /// (soap4r with REXML) cannot read a message without one when the Content-Type carries a
  /// charset; gSOAP, Axis, spyne and node-soap all send it.
  bool xml_declaration = true;
};

/// The Envelope start tags for one list of extra namespaces (a service's or a client's
/// envelope_namespaces), recorded once per version and encoding as xml::document_start:
/// envelope_writer::begin(starts, encoded) then writes the start tag in one append, with no
/// declaration work per message. A list the writer refuses (a reserved prefix, one bound
/// twice) is not recorded: begin() then declares it per message and refuses it there.
/// With `xml_declaration` (the default) each start begins with the XML declaration.
class envelope_starts {
 public:
  explicit envelope_starts(std::vector<namespace_binding> namespaces = {},
                           bool xml_declaration = true);
  ~envelope_starts();
  envelope_starts(const envelope_starts&) = delete;
  envelope_starts& operator=(const envelope_starts&) = delete;
  const std::vector<namespace_binding>& namespaces() const noexcept { return namespaces_; }
  bool xml_declaration() const noexcept { return xml_declaration_; }

 private:
  friend class envelope_writer;
  std::vector<namespace_binding> namespaces_;
  bool xml_declaration_;
  std::unique_ptr<xml::document_start> recorded_[2][2];  // [soap12][encoded]; null: refused
};

/// Writes an envelope; xsi and xsd (and SOAP-ENC when encoded) are declared once on Envelope.
class envelope_writer {
 public:
  envelope_writer(xml::writer& w, version v) : w_(w), version_(v) {}
  void begin(const envelope_write_options& options = {});
  /// The same as begin({.encoded = encoded, .namespaces = starts.namespaces(),
  /// .xml_declaration = starts.xml_declaration()}), from the recorded start.
  void begin(const envelope_starts& starts, bool encoded);
  /// Open Header (optional; before begin_body). Entries are written by the caller.
  void begin_header();
  /// Close Header if open; open Body.
  void begin_body();
  /// Close Body and Envelope; end_document (flushes the output's sink).
  void end();
  version ver() const noexcept { return version_; }
  xml::writer& writer() noexcept { return w_; }

 private:
  xml::writer& w_;
  version version_;
  bool in_header_ = false;
};

}  // namespace lather::soap
