// Internal to lather_wsa: small reading and copying steps shared by the client and the server.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::wsa::detail {

/// Longest value of a WS-Addressing header read (an IRI): real ones are far shorter.
inline constexpr std::size_t max_text = 4096;

/// The text content of the element the reader is on into `out`, through its end tag.
/// Throws std::invalid_argument for a child element or more than max_text bytes.
void read_text(xml::reader& r, std::string& out);

/// One call of `child` per child element (which reads it through its end tag); the reader
/// ends on the element's end tag. Text other than whitespace is refused (invalid_argument).
void for_each_child(xml::reader& r, const std::function<void()>& child);

/// Point `r` at the root start tag of `text` (one element as XML text); throws
/// std::invalid_argument if there is none.
void open_fragment(xml::reader& r, std::string_view text);

/// Copy one element given as XML text into `w` (its namespace declarations kept on the
/// copy); `extra` adds attributes to the copied root's start tag.
void copy_fragment(xml::writer& w, std::string_view text,
                   const std::function<void(xml::writer&)>& extra);

}  // namespace lather::wsa::detail

#include <span>

#include "lather/soap/envelope.hpp"
#include "lather/wsa/addressing.hpp"

namespace lather::wsa::detail {

/// If the header entry is a WS-Addressing header (either version) or a reference parameter
/// (wsa:IsReferenceParameter="true"), read it through its end tag into `h` and return true;
/// otherwise leave the reader alone and return false. Throws soap::fault_error
/// (InvalidAddressingHeader) for a header sent twice, the two versions mixed in one message,
/// an EPR without Address or a value that is not text.
bool read_header(headers& h, const soap::header_info& info, xml::reader& r);

/// The headers one message sends (views: they must outlive write_headers()).
struct outgoing {
  std::string_view action, message_id, to;
  std::string_view relates_to;  ///< the MessageID answered ("" = none)
  const endpoint_reference* reply_to = nullptr;
  const endpoint_reference* fault_to = nullptr;
  const endpoint_reference* from = nullptr;
  std::span<const std::string> reference_parameters;
  bool must_understand = false;  ///< on Action and To
};
void write_headers(xml::writer& w, soap::version sv, version v, const outgoing& out);

}  // namespace lather::wsa::detail
