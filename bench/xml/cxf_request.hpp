// bench/xml/cxf_request.hpp — the CXF performance client's echoComplexTypeDoc request, written
// with lather's writer (shared by the XML benchmark and the writer tests).
//
// Shape and values follow /work/shared/bench/cxf-perf/README.md "Payloads the client sends":
// SOAP 1.1 envelope, doc/literal wrapped, `items` copies of the same NestedComplexType, values
// as JAXB prints them (Float.MAX_VALUE -> 3.4028235E38, hexBinary upper case, dateTime with
// millis). Prefixes and their placement are the ones the JAXB RI produces (ns2 for the schema
// namespace on the wrapper element, the QName's namespace declared on varQName as ns3).
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "lather/xml/writer.hpp"

namespace lather::bench {

inline constexpr std::string_view soap11_ns = "http://schemas.xmlsoap.org/soap/envelope/";
inline constexpr std::string_view perf_types_ns = "http://cxf.apache.org/cxf/performance/types";

/// The 256 bytes -128..127 the client puts in varBase64Binary and varHexBinary, encoded.
struct cxf_binary_values {
  std::string base64;
  std::string hex;
  cxf_binary_values() {
    std::array<unsigned char, 256> bytes{};
    for (int i = 0; i < 256; ++i) bytes[i] = static_cast<unsigned char>(i - 128);
    static constexpr char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    static constexpr char hexdigits[] = "0123456789ABCDEF";
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
      const std::uint32_t n = (std::uint32_t{bytes[i]} << 16) |
                              (i + 1 < bytes.size() ? std::uint32_t{bytes[i + 1]} << 8 : 0) |
                              (i + 2 < bytes.size() ? std::uint32_t{bytes[i + 2]} : 0);
      base64 += b64[(n >> 18) & 63];
      base64 += b64[(n >> 12) & 63];
      base64 += i + 1 < bytes.size() ? b64[(n >> 6) & 63] : '=';
      base64 += i + 2 < bytes.size() ? b64[n & 63] : '=';
    }
    for (unsigned char b : bytes) {
      hex += hexdigits[b >> 4];
      hex += hexdigits[b & 15];
    }
  }
};

/// Writes the whole request (envelope included) for `items` items and request id `id`.
inline void write_cxf_echo_complex_request(xml::writer& w, const cxf_binary_values& bin, int items,
                                           int id = 1) {
  constexpr std::string_view t = perf_types_ns;
  auto leaf = [&w](std::string_view local, std::string_view value) {
    w.start_element(perf_types_ns, local);
    w.text(value);
    w.end_element();
  };
  w.declare_namespace("soap", soap11_ns);
  w.start_element(soap11_ns, "Envelope");
  w.start_element(soap11_ns, "Body");
  w.raw("");  // close <soap:Body> so ns2 is declared on the wrapper, as JAXB does
  w.declare_namespace("ns2", t);
  w.start_element(t, "echoComplexTypeDoc");
  w.start_element(t, "in");
  for (int i = 0; i < items; ++i) {
    w.start_element(t, "item");
    leaf("varString", "#12345ABc");
    leaf("varUByte", "255");
    leaf("varUnsignedLong", "13691056728");
    leaf("varFloat", "3.4028235E38");
    w.start_element(t, "varQName");
    w.declare_namespace("ns3", "http://cxf.apache.org");
    w.text(w.prefix_for("http://cxf.apache.org"));
    w.text(":return");
    w.end_element();
    leaf("varBase64Binary", bin.base64);
    leaf("varHexBinary", bin.hex);
    w.start_element(t, "varStruct");
    w.attribute("", "varAttrString", "1234567890!@#$%^&*()abcdefghijk");
    leaf("varFloat", "3.4028235E38");
    leaf("varShort", "32767");
    leaf("varString", "1234567890!@#$%^&*()abcdefghijk");
    leaf("varByte", "127");
    leaf("varDecimal", "3.1415926");
    leaf("varDouble", "1.7976931348623157E308");
    leaf("varDateTime", "2005-12-03T00:00:09.000Z");
    w.end_element();  // varStruct
    leaf("varEnum", "RED");
    w.end_element();  // item
  }
  w.end_element();  // in
  char digits[16];
  const auto end = std::to_chars(digits, digits + sizeof digits, id).ptr;
  leaf("id", std::string_view(digits, static_cast<std::size_t>(end - digits)));
  w.end_document();
}

}  // namespace lather::bench
