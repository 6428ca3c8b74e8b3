// The "add" operation's request and response (two ints in, their sum out), shared by the
// service tests that need a plain typed operation.
#pragma once

#include <cstdint>
#include <string_view>
#include <tuple>

#include "lather/service/service.hpp"

namespace lather_test {
constexpr std::string_view test_ns = "urn:lather:test";
struct add_request {
  std::int32_t a = 0;
  std::int32_t b = 0;
};
struct add_response {
  std::int32_t result = 0;
};
}  // namespace lather_test

template <>
struct lather::meta<lather_test::add_request> {
  static constexpr std::string_view name = "add";
  static constexpr std::string_view ns = lather_test::test_ns;
  static constexpr auto fields = std::tuple{element("a", &lather_test::add_request::a),
                                            element("b", &lather_test::add_request::b)};
};
template <>
struct lather::meta<lather_test::add_response> {
  static constexpr std::string_view name = "addResponse";
  static constexpr std::string_view ns = lather_test::test_ns;
  static constexpr auto fields = std::tuple{element("result", &lather_test::add_response::result)};
};
