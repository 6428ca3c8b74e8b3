// The interop contract's types (shared/interop/interop.wsdl and tests/interop/
// interop-encoded.wsdl) bound with lather::meta; used by lather-interop-server and
// lather-interop-client.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "lather/bind/meta.hpp"
#include "lather/bind/xsd.hpp"
#include "lather/soap/encoded.hpp"

namespace interop_types {

inline constexpr std::string_view ns = "urn:interop";

// ---- document/literal wrapped (interop.wsdl): qualified children, plain repeated arrays ----

struct Struct {
  std::string name;
  std::int32_t count = 0;
  double price = 0;
  lather::xsd::date_time when;
  std::vector<std::string> tags;
  lather::nillable<std::string> note;  // minOccurs 0, nillable: nil and absent both read as nil
};

struct EchoString {
  std::string value;
};
struct EchoStringResponse {
  std::string result;
};
struct EchoInt {
  std::int32_t value = 0;
};
struct EchoIntResponse {
  std::int32_t result = 0;
};
struct EchoStruct {
  Struct value;
};
struct EchoStructResponse {
  Struct result;
};
struct EchoArray {
  std::vector<Struct> value;
};
struct EchoArrayResponse {
  std::vector<Struct> result;
};
struct AddNumbers {
  std::int32_t a = 0;
  std::int32_t b = 0;
};
struct AddNumbersResponse {
  std::int32_t result = 0;
};
struct EchoBinary {
  lather::xsd::base64_binary value;
};
struct EchoBinaryResponse {
  lather::xsd::base64_binary result;
};

// ---- RPC/encoded (interop-encoded.wsdl): SOAP 1.1 section 5 values (xsi:type, SOAP-ENC
// arrays for the vectors, unqualified accessors) ----

struct EncodedStruct {
  std::string name;
  std::int32_t count = 0;
  double price = 0;
  lather::xsd::date_time when;
  std::vector<std::string> tags;
  std::optional<std::string> note;  // empty = xsi:nil
};
struct EncodedEchoString {
  std::string value;
};
struct EncodedEchoStringResponse {
  std::string result;
};
struct EncodedEchoInt {
  std::int32_t value = 0;
};
struct EncodedIntResponse {
  std::int32_t result = 0;
};
struct EncodedEchoStruct {
  EncodedStruct value;
};
struct EncodedEchoStructResponse {
  EncodedStruct result;
};
struct EncodedEchoArray {
  std::vector<EncodedStruct> value;
};
struct EncodedEchoArrayResponse {
  std::vector<EncodedStruct> result;
};
struct EncodedAddNumbers {
  std::int32_t a = 0;
  std::int32_t b = 0;
};
struct EncodedEchoBinary {
  lather::xsd::base64_binary value;
};
struct EncodedEchoBinaryResponse {
  lather::xsd::base64_binary result;
};

}  // namespace interop_types

// A literal type: XSD name `type_name`, fields in urn:interop (qualified).
#define INTEROP_LITERAL(T, type_name, ...)                    \
  template <>                                                 \
  struct lather::meta<interop_types::T> {                     \
    static constexpr std::string_view name = type_name;       \
    static constexpr std::string_view ns = interop_types::ns; \
    static constexpr auto fields = std::tuple{__VA_ARGS__};   \
  }
// An encoded type: its xsi:type QName {urn:interop}type_name and its accessors (unqualified,
// as section 5 writes them); encoding::soap makes the operations that take it rpc/encoded.
#define INTEROP_ENCODED(T, type_name, ...)                                \
  template <>                                                             \
  struct lather::meta<interop_types::T> {                                 \
    static constexpr std::string_view name = type_name;                   \
    static constexpr std::string_view ns = interop_types::ns;             \
    static constexpr auto element_form = lather::bind::form::unqualified; \
    static constexpr auto encoding = lather::bind::encoding::soap;        \
    static constexpr auto fields = std::tuple{__VA_ARGS__};               \
  }

INTEROP_LITERAL(Struct, "Struct", lather::element("name", &interop_types::Struct::name),
                lather::element("count", &interop_types::Struct::count),
                lather::element("price", &interop_types::Struct::price),
                lather::element("when", &interop_types::Struct::when),
                lather::element("tags", &interop_types::Struct::tags),
                lather::element("note", &interop_types::Struct::note).min(0));
INTEROP_LITERAL(EchoString, "echoString",
                lather::element("value", &interop_types::EchoString::value));
INTEROP_LITERAL(EchoStringResponse, "echoStringResponse",
                lather::element("result", &interop_types::EchoStringResponse::result));
INTEROP_LITERAL(EchoInt, "echoInt", lather::element("value", &interop_types::EchoInt::value));
INTEROP_LITERAL(EchoIntResponse, "echoIntResponse",
                lather::element("result", &interop_types::EchoIntResponse::result));
INTEROP_LITERAL(EchoStruct, "echoStruct",
                lather::element("value", &interop_types::EchoStruct::value));
INTEROP_LITERAL(EchoStructResponse, "echoStructResponse",
                lather::element("result", &interop_types::EchoStructResponse::result));
INTEROP_LITERAL(EchoArray, "echoArray", lather::element("value", &interop_types::EchoArray::value));
INTEROP_LITERAL(EchoArrayResponse, "echoArrayResponse",
                lather::element("result", &interop_types::EchoArrayResponse::result));
INTEROP_LITERAL(AddNumbers, "addNumbers", lather::element("a", &interop_types::AddNumbers::a),
                lather::element("b", &interop_types::AddNumbers::b));
INTEROP_LITERAL(AddNumbersResponse, "addNumbersResponse",
                lather::element("result", &interop_types::AddNumbersResponse::result));
INTEROP_LITERAL(EchoBinary, "echoBinary",
                lather::element("value", &interop_types::EchoBinary::value));
INTEROP_LITERAL(EchoBinaryResponse, "echoBinaryResponse",
                lather::element("result", &interop_types::EchoBinaryResponse::result));

INTEROP_ENCODED(EncodedStruct, "Struct",
                lather::element("name", &interop_types::EncodedStruct::name),
                lather::element("count", &interop_types::EncodedStruct::count),
                lather::element("price", &interop_types::EncodedStruct::price),
                lather::element("when", &interop_types::EncodedStruct::when),
                lather::element("tags", &interop_types::EncodedStruct::tags),
                lather::element("note", &interop_types::EncodedStruct::note));
INTEROP_ENCODED(EncodedEchoString, "echoString",
                lather::element("value", &interop_types::EncodedEchoString::value));
INTEROP_ENCODED(EncodedEchoStringResponse, "echoStringResponse",
                lather::element("result", &interop_types::EncodedEchoStringResponse::result));
INTEROP_ENCODED(EncodedEchoInt, "echoInt",
                lather::element("value", &interop_types::EncodedEchoInt::value));
INTEROP_ENCODED(EncodedIntResponse, "intResponse",
                lather::element("result", &interop_types::EncodedIntResponse::result));
INTEROP_ENCODED(EncodedEchoStruct, "echoStruct",
                lather::element("value", &interop_types::EncodedEchoStruct::value));
INTEROP_ENCODED(EncodedEchoStructResponse, "echoStructResponse",
                lather::element("result", &interop_types::EncodedEchoStructResponse::result));
INTEROP_ENCODED(EncodedEchoArray, "echoArray",
                lather::element("value", &interop_types::EncodedEchoArray::value));
INTEROP_ENCODED(EncodedEchoArrayResponse, "echoArrayResponse",
                lather::element("result", &interop_types::EncodedEchoArrayResponse::result));
INTEROP_ENCODED(EncodedAddNumbers, "addNumbers",
                lather::element("a", &interop_types::EncodedAddNumbers::a),
                lather::element("b", &interop_types::EncodedAddNumbers::b));
INTEROP_ENCODED(EncodedEchoBinary, "echoBinary",
                lather::element("value", &interop_types::EncodedEchoBinary::value));
INTEROP_ENCODED(EncodedEchoBinaryResponse, "echoBinaryResponse",
                lather::element("result", &interop_types::EncodedEchoBinaryResponse::result));

#undef INTEROP_LITERAL
#undef INTEROP_ENCODED
