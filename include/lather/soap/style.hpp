// lather/soap/style.hpp — binding styles and the RPC wrapper (issue #4).
//
// document/literal wrapped: the Body child is the operation's wrapper element (a schema element
//   named after the operation); its children are the parameters. bind reads/writes it.
// document/literal bare: each Body child is one part element (bind reads/writes each).
// rpc/literal: the Body child is {binding namespace}operation (response: operationResponse);
//   its children are the parts, unqualified, named after the parts, written literally.
// rpc/encoded: as rpc/literal, parts written by soap::encoder (xsi:type, SOAP-ENC arrays,
//   multi-refs after the wrapper) and read by soap::decoder (encoded.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lather/soap/version.hpp"

namespace lather::xml {
class reader;
class writer;
}  // namespace lather::xml

namespace lather::soap {

enum class style : std::uint8_t { document_wrapped, document_bare, rpc_literal, rpc_encoded };

constexpr bool is_rpc(style s) noexcept {
  return s == style::rpc_literal || s == style::rpc_encoded;
}

/// "op" -> "opResponse" (the RPC response wrapper; also the usual wrapped response element).
std::string response_name(std::string_view operation);

/// Open the RPC wrapper {ns}name (prefix "ns" unless ns is already in scope). For rpc/encoded
/// also writes env:encodingStyle=SOAP-ENC on it, as Axis and soap4r do.
void write_rpc_start(xml::writer& w, version v, style s, std::string_view ns,
                     std::string_view name);

/// Iterates the parts of an RPC wrapper. The reader must be on the wrapper's start tag.
///
///   soap::rpc_reader parts{reader};
///   while (parts.next()) {             // reader on a part's start tag
///     if (parts.name() == "param") decoder.read(param); else reader.skip_element();
///   }                                  // reader on the wrapper's end tag
class rpc_reader {
 public:
  explicit rpc_reader(xml::reader& r) : r_(r) {}
  /// Advance to the next part's start tag (whitespace/comments skipped); false at the wrapper's
  /// end tag. Non-whitespace text between parts throws fault_error{unexpected_element}.
  bool next();
  /// Local name of the current part (parts are unqualified; a namespace, if sent, is ignored).
  std::string_view name() const noexcept;

 private:
  xml::reader& r_;
};

/// For an rpc/encoded operation: throws fault_error{data_encoding_unknown} (1.2
/// DataEncodingUnknown, 1.1 Client) when the encodingStyle in effect on the current element (its
/// own env:encodingStyle, else `inherited`, e.g. envelope_reader::encoding_style()) names an
/// encoding other than SOAP 1.1 section 5 (or a more specific URI under it) or SOAP 1.2 Part 2
/// section 3 (http://www.w3.org/2003/05/soap-encoding). Absent or "" is accepted.
void check_encoding_style(const xml::reader& r, version v, std::string_view inherited = {});

/// Check that the reader is on {ns}name's start tag; throws fault_error{unexpected_element}
/// (Client/Sender) naming what was found otherwise.
void expect_element(const xml::reader& r, std::string_view ns, std::string_view name);

}  // namespace lather::soap
