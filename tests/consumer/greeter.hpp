// The greeter contract, shared by greeter-server and greeter-client: two plain structs and
// how they look in XML.
#pragma once

#include <lather/service.hpp>

#include <string>
#include <string_view>
#include <tuple>

struct greet {
  std::string name;
};
struct greetResponse {
  std::string greeting;
};

template <>
struct lather::meta<greet> {
  static constexpr std::string_view name = "greet", ns = "urn:greeter";
  static constexpr auto fields = std::tuple{element("name", &greet::name)};
};
template <>
struct lather::meta<greetResponse> {
  static constexpr std::string_view name = "greetResponse", ns = "urn:greeter";
  static constexpr auto fields = std::tuple{element("greeting", &greetResponse::greeting)};
};
