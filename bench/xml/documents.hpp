// bench/xml/documents.hpp — the documents the XML benchmark parses, all written with lather's
// writer: the CXF echoComplexTypeDoc request (1, 100, 10,000 items), a text-heavy document (the
// CXF echoStringDoc request at PacketSize 100) and an attribute-heavy document.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cxf_request.hpp"
#include "lather/xml/writer.hpp"

namespace lather::bench {

struct xml_document {
  std::string name;
  std::string bytes;
};

inline std::string cxf_echo_complex_request(int items) {
  static const cxf_binary_values bin;
  xml::output out;
  xml::writer w{out};
  write_cxf_echo_complex_request(w, bin, items);
  return out.take();
}

/// CXF's echoStringDoc request: the 64-character string (with & < > to escape) repeated
/// 16 x packet_size times.
inline std::string cxf_echo_string_request(int packet_size) {
  constexpr std::string_view piece =
      "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*()_+?><[]/0123456789";
  std::string value;
  for (int i = 0; i < 16 * packet_size; ++i) value += piece;
  xml::output out;
  xml::writer w{out};
  w.declare_namespace("soap", soap11_ns);
  w.start_element(soap11_ns, "Envelope");
  w.start_element(soap11_ns, "Body");
  w.raw("");  // close <soap:Body>: ns2 goes on the wrapper, as JAXB puts it
  w.declare_namespace("ns2", perf_types_ns);
  w.start_element(perf_types_ns, "echoStringDoc");
  w.start_element(perf_types_ns, "in");
  w.text(value);
  w.end_document();
  return out.take();
}

/// Rows of ten attributes each (one namespaced xsi:type, some values with entities).
inline std::string attribute_heavy_document(int rows) {
  constexpr std::string_view xsi = "http://www.w3.org/2001/XMLSchema-instance";
  xml::output out;
  xml::writer w{out};
  w.declare_namespace("xsi", xsi);
  w.start_element("urn:lather:bench", "table");
  std::string number;
  for (int i = 0; i < rows; ++i) {
    number = std::to_string(i);
    w.start_element("urn:lather:bench", "row");
    w.attribute("", "id", number);
    w.attribute("", "name", "customer-" + number);
    w.attribute("", "email", "customer" + number + "@example.com");
    w.attribute("", "company", i % 7 == 0 ? "Smith & Sons <Ltd>" : "Acme Corporation");
    w.attribute("", "city", "Amsterdam");
    w.attribute("", "country", "NL");
    w.attribute("", "balance", "12345.67");
    w.attribute("", "created", "2005-12-03T00:00:09.000Z");
    w.attribute("", "active", i % 2 == 0 ? "true" : "false");
    w.attribute(xsi, "type", "ns1:CustomerRow");
    w.end_element();
  }
  w.end_document();
  return out.take();
}

inline std::vector<xml_document> benchmark_documents() {
  return {
      {"cxf-complex-1", cxf_echo_complex_request(1)},
      {"cxf-complex-100", cxf_echo_complex_request(100)},
      {"cxf-complex-10000", cxf_echo_complex_request(10000)},
      {"text-heavy", cxf_echo_string_request(100)},
      {"attribute-heavy", attribute_heavy_document(2000)},
  };
}

}  // namespace lather::bench
