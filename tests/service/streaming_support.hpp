// Helpers shared by the streaming tests: peak RSS of this process, a SOAP 1.1 request head,
// and a response reader that binds every <item> as it arrives.
#pragma once

#include <cstddef>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>

#include "lather/bind/bind.hpp"
#include "lather/http/client.hpp"
#include "lather/perf/types.hpp"
#include "lather/xml/error.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace streaming_support {

inline long peak_rss_kb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}
inline void reset_peak_rss() {
  std::ofstream("/proc/self/clear_refs") << "5";
}

inline constexpr std::pair<std::string_view, std::string_view> soap11_headers[] = {
    {"Content-Type", "text/xml; charset=utf-8"}, {"SOAPAction", "\"\""}};

/// Open a SOAP 1.1 Envelope and Body (end_document() closes them).
inline void begin_soap11_body(lather::xml::writer& w) {
  w.declare_namespace("soap", "http://schemas.xmlsoap.org/soap/envelope/");
  w.start_element("http://schemas.xmlsoap.org/soap/envelope/", "Envelope");
  w.start_element("http://schemas.xmlsoap.org/soap/envelope/", "Body");
}

/// Read a whole response body (no size cap), binding each <item> as a CXF NestedComplexType
/// while it arrives. Returns the number of items; `bytes` gets the body size.
inline long read_items(const lather::xml::source_fn& src, std::size_t& bytes) {
  lather::xml::limits unlimited;
  unlimited.max_total_bytes = 0;
  lather::xml::reader r{unlimited};
  r.reset();
  r.set_source([&](char* d, std::size_t n) {
    std::size_t got = src(d, n);
    bytes += got;
    return got;
  });
  lather::perf::NestedComplexType item;
  long received = 0;
  for (auto t = r.next(); t != lather::xml::token::end_document; t = r.next()) {
    if (t == lather::xml::token::error) throw lather::xml::error(r.error());
    if (t == lather::xml::token::start_element && r.local_name() == "item") {
      lather::bind::read_or_throw(r, item);
      ++received;
    }
  }
  return received;
}

}  // namespace streaming_support
