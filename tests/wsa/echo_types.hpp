// The service of the WS-Addressing tests: "echo" answers the text and the request's addressing
// headers as the server read them; "pull" needs the reference parameter an EPR handed out.
#pragma once

#include <string>
#include <string_view>
#include <tuple>

#include "lather/service/service.hpp"

namespace wsa_test {
constexpr std::string_view ns = "urn:lather:wsa-test";
constexpr std::string_view sub_ns = "urn:lather:wsa-test:subscription";
struct echo {
  std::string text;
};
struct echoResponse {
  std::string text, to, action, message_id, reply_to;
};
struct pull {};
struct pullResponse {
  std::string subscription;
};
}  // namespace wsa_test

template <>
struct lather::meta<wsa_test::echo> {
  static constexpr std::string_view name = "echo", ns = wsa_test::ns;
  static constexpr auto fields = std::tuple{element("text", &wsa_test::echo::text)};
};
template <>
struct lather::meta<wsa_test::echoResponse> {
  using R = wsa_test::echoResponse;
  static constexpr std::string_view name = "echoResponse", ns = wsa_test::ns;
  static constexpr auto fields =
      std::tuple{element("text", &R::text), element("to", &R::to), element("action", &R::action),
                 element("messageId", &R::message_id), element("replyTo", &R::reply_to)};
};
template <>
struct lather::meta<wsa_test::pull> {
  static constexpr std::string_view name = "pull", ns = wsa_test::ns;
  static constexpr auto fields = std::tuple{};
};
template <>
struct lather::meta<wsa_test::pullResponse> {
  static constexpr std::string_view name = "pullResponse", ns = wsa_test::ns;
  static constexpr auto fields =
      std::tuple{element("subscription", &wsa_test::pullResponse::subscription)};
};
