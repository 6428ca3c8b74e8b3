// The types of tests/mtom/mtom-echo.wsdl (echoData), shared by the gSOAP interop test
// (tests/mtom) and the MTOM benchmark (bench/mtom).
#pragma once

#include <string>
#include <string_view>
#include <tuple>

#include "lather/mtom/attachment.hpp"
#include "lather/service/service.hpp"

namespace mtom_echo {
constexpr std::string_view ns = "urn:lather:mtom-interop";
struct echoData {
  std::string name;
  lather::mtom::attachment data;
};
struct echoDataResponse {
  std::string name;
  lather::mtom::attachment data;
};
/// Byte i of the payload both sides make: (31 i + 7) mod 256.
inline unsigned char payload_byte(std::size_t i) {
  return static_cast<unsigned char>(31 * i + 7);
}
}  // namespace mtom_echo

template <>
struct lather::meta<mtom_echo::echoData> {
  static constexpr std::string_view name = "echoData", ns = mtom_echo::ns;
  static constexpr auto fields = std::tuple{element("name", &mtom_echo::echoData::name),
                                            element("data", &mtom_echo::echoData::data)};
};
template <>
struct lather::meta<mtom_echo::echoDataResponse> {
  static constexpr std::string_view name = "echoDataResponse", ns = mtom_echo::ns;
  static constexpr auto fields = std::tuple{element("name", &mtom_echo::echoDataResponse::name),
                                            element("data", &mtom_echo::echoDataResponse::data)};
};
