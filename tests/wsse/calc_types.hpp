// The services of the WS-Security tests: "add" (protected) and "now" (the server's UTC time,
// open to anyone, as ONVIF's GetSystemDateAndTime).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

#include "lather/service/service.hpp"

namespace wsse_test {
constexpr std::string_view ns = "urn:lather:wsse-test";
struct add {
  std::int32_t a = 0, b = 0;
};
struct addResponse {
  std::int32_t result = 0;
  std::string user;
};
struct now {};
struct nowResponse {
  std::string utc;
};
}  // namespace wsse_test

template <>
struct lather::meta<wsse_test::add> {
  static constexpr std::string_view name = "add", ns = wsse_test::ns;
  static constexpr auto fields =
      std::tuple{element("a", &wsse_test::add::a), element("b", &wsse_test::add::b)};
};
template <>
struct lather::meta<wsse_test::addResponse> {
  static constexpr std::string_view name = "addResponse", ns = wsse_test::ns;
  static constexpr auto fields = std::tuple{element("result", &wsse_test::addResponse::result),
                                            element("user", &wsse_test::addResponse::user)};
};
template <>
struct lather::meta<wsse_test::now> {
  static constexpr std::string_view name = "now", ns = wsse_test::ns;
  static constexpr auto fields = std::tuple{};
};
template <>
struct lather::meta<wsse_test::nowResponse> {
  static constexpr std::string_view name = "nowResponse", ns = wsse_test::ns;
  static constexpr auto fields = std::tuple{element("utc", &wsse_test::nowResponse::utc)};
};
