// Internal to lather_wsse: the pieces of a Security header that clients (requests) and servers
// (signed responses) both write.
#pragma once

#include <array>
#include <chrono>
#include <string_view>

#include "lather/wsse/client.hpp"
#include "lather/xml/writer.hpp"

namespace lather::wsse::detail {

inline void write_leaf(xml::writer& w, std::string_view ns, std::string_view local,
                       std::string_view text) {
  w.start_element(ns, local);
  w.text(text);
  w.end_element();
}

/// wsu:Timestamp (wsu:Id "TS-1"): Created = now, Expires = now + ttl.
inline void write_timestamp(xml::writer& w, time_point now, std::chrono::milliseconds ttl) {
  std::array<char, 24> text;
  w.start_element(wsu_ns, "Timestamp");
  w.attribute(wsu_ns, "Id", "TS-1");
  write_leaf(w, wsu_ns, "Created", format_time(now, text));
  write_leaf(w, wsu_ns, "Expires",
             format_time(now + std::chrono::duration_cast<time_point::duration>(ttl), text));
  w.end_element();
}

/// The start of a Security header (the wsse and wsu prefixes declared on it).
inline void start_security(xml::writer& w, soap::version v, bool must_understand) {
  w.declare_namespace("wsse", wsse_ns);
  w.declare_namespace("wsu", wsu_ns);
  w.start_element(wsse_ns, "Security");
  soap::write_header_attributes(w, v, must_understand);
}

}  // namespace lather::wsse::detail
