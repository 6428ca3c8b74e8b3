// The messages of tests/wsa/wsa-echo.wsdl (the interop contract: gSOAP, lather-call).
#pragma once

#include <string>
#include <string_view>
#include <tuple>

#include "lather/bind/meta.hpp"

namespace wsa_interop {
constexpr std::string_view ns = "urn:lather:wsa-interop";
struct echo {
  std::string text;
};
struct echoResponse {
  std::string text;
};
}  // namespace wsa_interop

template <>
struct lather::meta<wsa_interop::echo> {
  static constexpr std::string_view name = "echo", ns = wsa_interop::ns;
  static constexpr auto fields = std::tuple{element("text", &wsa_interop::echo::text)};
};
template <>
struct lather::meta<wsa_interop::echoResponse> {
  static constexpr std::string_view name = "echoResponse", ns = wsa_interop::ns;
  static constexpr auto fields = std::tuple{element("text", &wsa_interop::echoResponse::text)};
};
