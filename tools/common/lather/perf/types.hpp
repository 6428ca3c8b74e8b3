// lather/perf/types.hpp — the Apache CXF performance contract (perf.wsdl, doc/literal) bound
// for lather: the schema types, the wrapper elements of the three doc operations, and the
// values the CXF client sends (shared by the benchmarks, the perf server and the tests).
//
// Schema: targetNamespace http://cxf.apache.org/cxf/performance/types, elementFormDefault
// qualified, attributes unqualified. See shared/bench/cxf-perf/README.md.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "lather/bind/meta.hpp"
#include "lather/bind/xsd.hpp"

namespace lather::perf {

inline constexpr std::string_view types_ns = "http://cxf.apache.org/cxf/performance/types";
inline constexpr std::string_view service_ns = "http://cxf.apache.org/cxf/performance";
/// The namespace of the QName every CXF item carries ({http://cxf.apache.org}return).
inline constexpr std::string_view qname_value_ns = "http://cxf.apache.org";

enum class ColourEnum { RED, GREEN, BLUE };

struct SimpleStruct {
  float varFloat = 0;
  std::int16_t varShort = 0;
  std::string varString;
  std::int8_t varByte = 0;
  xsd::decimal varDecimal;
  double varDouble = 0;
  xsd::date_time varDateTime;
  std::string varAttrString;  ///< attribute (optional in the schema; empty when absent)
  friend bool operator==(const SimpleStruct&, const SimpleStruct&) = default;
};

struct NestedComplexType {
  std::string varString;
  std::uint8_t varUByte = 0;
  std::uint64_t varUnsignedLong = 0;
  float varFloat = 0;
  xsd::qname varQName;
  xsd::base64_binary varBase64Binary;
  xsd::hex_binary varHexBinary;
  SimpleStruct varStruct;
  ColourEnum varEnum = ColourEnum::RED;
  friend bool operator==(const NestedComplexType&, const NestedComplexType&) = default;
};

struct NestedComplexTypeSeq {
  std::vector<NestedComplexType> item;
  friend bool operator==(const NestedComplexTypeSeq&, const NestedComplexTypeSeq&) = default;
};

// Wrapper elements (anonymous complex types of the global elements).
struct echoComplexTypeDoc {
  NestedComplexTypeSeq in;
  std::int32_t id = 0;
  friend bool operator==(const echoComplexTypeDoc&, const echoComplexTypeDoc&) = default;
};
struct echoComplexTypeDocResponse {
  NestedComplexTypeSeq return_;  ///< element "return"
  std::int32_t idout = 0;
  friend bool operator==(const echoComplexTypeDocResponse&,
                         const echoComplexTypeDocResponse&) = default;
};
struct echoStringDoc {
  std::string in;
  friend bool operator==(const echoStringDoc&, const echoStringDoc&) = default;
};
struct echoStringDocResponse {
  std::string out;
  friend bool operator==(const echoStringDocResponse&, const echoStringDocResponse&) = default;
};
struct echoBase64Doc {
  xsd::base64_binary in;
  friend bool operator==(const echoBase64Doc&, const echoBase64Doc&) = default;
};
struct echoBase64DocResponse {
  xsd::base64_binary out;
  friend bool operator==(const echoBase64DocResponse&, const echoBase64DocResponse&) = default;
};

// ---- the CXF client's payloads (Client.java) ----

/// 256 bytes with the Java byte values -128..127.
inline std::vector<std::uint8_t> cxf_byte_pattern() {
  std::vector<std::uint8_t> b(256);
  for (int i = 0; i < 256; ++i) b[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i - 128);
  return b;
}

/// The one NestedComplexType value the CXF client repeats PacketSize times.
inline NestedComplexType make_cxf_item() {
  NestedComplexType t;
  t.varString = "#12345ABc";
  t.varUByte = 255;
  t.varUnsignedLong = 13691056728ull;
  t.varFloat = std::numeric_limits<float>::max();
  t.varQName.ns = qname_value_ns;
  t.varQName.local = "return";
  t.varBase64Binary.bytes = cxf_byte_pattern();
  t.varHexBinary.bytes = cxf_byte_pattern();
  t.varEnum = ColourEnum::RED;
  SimpleStruct& s = t.varStruct;
  s.varFloat = std::numeric_limits<float>::max();
  s.varShort = 32767;
  s.varString = "1234567890!@#$%^&*()abcdefghijk";
  s.varByte = 127;
  s.varDecimal.text = "3.1415926";
  s.varDouble = std::numeric_limits<double>::max();
  s.varDateTime.year = 2005;
  s.varDateTime.month = 12;
  s.varDateTime.day = 3;
  s.varDateTime.hour = 0;
  s.varDateTime.minute = 0;
  s.varDateTime.second = 9;
  s.varDateTime.tz_minutes = 0;
  s.varAttrString = s.varString;
  return t;
}

/// NestedComplexTypeSeq with `items` copies of make_cxf_item().
inline NestedComplexTypeSeq make_cxf_seq(int items) {
  NestedComplexTypeSeq seq;
  seq.item.assign(static_cast<std::size_t>(items < 0 ? 0 : items), make_cxf_item());
  return seq;
}

/// The echoComplexTypeDoc request body of PacketSize `items`.
inline echoComplexTypeDoc make_cxf_request(int items, std::int32_t id) {
  return {make_cxf_seq(items), id};
}

/// The 1024 x PacketSize character string echoStringDoc sends (contains & < >).
inline std::string make_cxf_string(int packet_size) {
  constexpr std::string_view base =
      "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*()_+?><[]/0123456789";
  std::string s;
  s.reserve(base.size() * 16 * static_cast<std::size_t>(packet_size < 0 ? 0 : packet_size));
  for (int i = 0; i < 16 * packet_size; ++i) s.append(base);
  return s;
}

/// The fixed 1024-byte array echoBase64Doc sends (4 x the -128..127 pattern).
inline xsd::base64_binary make_cxf_base64() {
  xsd::base64_binary b;
  std::vector<std::uint8_t> p = cxf_byte_pattern();
  for (int i = 0; i < 4; ++i) b.bytes.insert(b.bytes.end(), p.begin(), p.end());
  return b;
}

}  // namespace lather::perf

template <>
struct lather::meta<lather::perf::ColourEnum> {
  using E = lather::perf::ColourEnum;
  static constexpr std::string_view name = "ColourEnum";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr auto values =
      enum_values<E>({{E::RED, "RED"}, {E::GREEN, "GREEN"}, {E::BLUE, "BLUE"}});
};

template <>
struct lather::meta<lather::perf::SimpleStruct> {
  using T = lather::perf::SimpleStruct;
  static constexpr std::string_view name = "SimpleStruct";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr auto fields = std::tuple{
      element("varFloat", &T::varFloat),       element("varShort", &T::varShort),
      element("varString", &T::varString),     element("varByte", &T::varByte),
      element("varDecimal", &T::varDecimal),   element("varDouble", &T::varDouble),
      element("varDateTime", &T::varDateTime), attribute("varAttrString", &T::varAttrString)};
};

template <>
struct lather::meta<lather::perf::NestedComplexType> {
  using T = lather::perf::NestedComplexType;
  static constexpr std::string_view name = "NestedComplexType";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr auto fields = std::tuple{element("varString", &T::varString),
                                            element("varUByte", &T::varUByte),
                                            element("varUnsignedLong", &T::varUnsignedLong),
                                            element("varFloat", &T::varFloat),
                                            element("varQName", &T::varQName),
                                            element("varBase64Binary", &T::varBase64Binary),
                                            element("varHexBinary", &T::varHexBinary),
                                            element("varStruct", &T::varStruct),
                                            element("varEnum", &T::varEnum)};
};

template <>
struct lather::meta<lather::perf::NestedComplexTypeSeq> {
  using T = lather::perf::NestedComplexTypeSeq;
  static constexpr std::string_view name = "NestedComplexTypeSeq";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr auto fields = std::tuple{element("item", &T::item)};
};

// Wrapper elements: anonymous types, named after their element.
template <>
struct lather::meta<lather::perf::echoComplexTypeDoc> {
  using T = lather::perf::echoComplexTypeDoc;
  static constexpr std::string_view name = "echoComplexTypeDoc";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr bool anonymous = true;
  static constexpr auto fields = std::tuple{element("in", &T::in), element("id", &T::id)};
};
template <>
struct lather::meta<lather::perf::echoComplexTypeDocResponse> {
  using T = lather::perf::echoComplexTypeDocResponse;
  static constexpr std::string_view name = "echoComplexTypeDocResponse";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr bool anonymous = true;
  static constexpr auto fields =
      std::tuple{element("return", &T::return_), element("idout", &T::idout)};
};
template <>
struct lather::meta<lather::perf::echoStringDoc> {
  using T = lather::perf::echoStringDoc;
  static constexpr std::string_view name = "echoStringDoc";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr bool anonymous = true;
  static constexpr auto fields = std::tuple{element("in", &T::in)};
};
template <>
struct lather::meta<lather::perf::echoStringDocResponse> {
  using T = lather::perf::echoStringDocResponse;
  static constexpr std::string_view name = "echoStringDocResponse";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr bool anonymous = true;
  static constexpr auto fields = std::tuple{element("out", &T::out)};
};
template <>
struct lather::meta<lather::perf::echoBase64Doc> {
  using T = lather::perf::echoBase64Doc;
  static constexpr std::string_view name = "echoBase64Doc";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr bool anonymous = true;
  static constexpr auto fields = std::tuple{element("in", &T::in)};
};
template <>
struct lather::meta<lather::perf::echoBase64DocResponse> {
  using T = lather::perf::echoBase64DocResponse;
  static constexpr std::string_view name = "echoBase64DocResponse";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr bool anonymous = true;
  static constexpr auto fields = std::tuple{element("out", &T::out)};
};
