// lather/service/detail/describe.hpp — how a typed operation describes itself for WSDL
// generation (needs both typed_operation and wsdl_builder complete).
#pragma once

#include <tuple>
#include <type_traits>
#include <variant>

#include "lather/service/detail/streaming_operation.hpp"
#include "lather/service/detail/typed_operation.hpp"
#include "lather/service/message_type.hpp"
#include "lather/service/wsdl.hpp"

namespace lather::detail {

template <class V, class... Seen>
constexpr bool schema_expressible();

template <class T, class... Seen>
constexpr bool fields_expressible() {
  return std::apply(
      [](const auto&... f) {
        return (schema_expressible<
                    bind::value_type_of<typename std::remove_cvref_t<decltype(f)>::member_type>, T,
                    Seen...>() &&
                ...);
      },
      bind::fields_of<T>);
}

/// Whether wsdl_builder can write V, and every type it reaches, as XML Schema (`Seen`: the
/// types being checked, so recursive types end). RPC/encoded-only values (SOAP-ENC arrays of
/// arrays, maps) are not: operations with them are described by service_options::static_wsdl.
template <class V, class... Seen>
constexpr bool schema_expressible() {
  if constexpr ((std::is_same_v<V, Seen> || ...)) {
    return true;
  } else if constexpr (bind::simple_type<V> || bind::enumeration_type<V> ||
                       std::is_same_v<V, bind::any_type> || std::is_same_v<V, bind::any_element> ||
                       std::is_same_v<V, bind::any_attributes>) {
    return true;
  } else if constexpr (bind::is_variant<V>::value) {
    return []<class... A>(std::variant<A...>*) {
      return (schema_expressible<A, Seen...>() && ...);
    }(static_cast<V*>(nullptr));
  } else if constexpr (bind::complex_type<V> && requires { requires meta<V>::schema_only; }) {
    return true;  // says so itself: nothing to check in the types it reaches
  } else if constexpr (bind::complex_type<V>) {
    bool ok = fields_expressible<V, Seen...>() && []<class... D>(lather::types<D...>) {
      return (schema_expressible<D, V, Seen...>() && ...);
    }(bind::derived_types_of<V>{});
    if constexpr (bind::derived_type<V>)
      ok = ok && schema_expressible<typename meta<V>::base, V, Seen...>();
    return ok;
  } else {
    return false;
  }
}

template <class T>
constexpr message_schema make_message_schema() {
  message_schema m;
  m.expressible = std::is_same_v<T, no_response> || schema_expressible<T>();
  if constexpr (bind::complex_type<T> && schema_expressible<T>()) m.describe = &bind::describe<T>;
  return m;
}
/// How the WSDL describes T (no_response: nothing to describe).
template <class T>
inline constexpr message_schema message_schema_v = make_message_schema<T>();

/// The WSDL description of an operation whose messages are described by `req` and `resp`
/// (src/service/wsdl.cpp).
void describe_operation(wsdl_builder& b, const operation_entry& op, bool has_response,
                        const message_schema& req, const message_schema& resp);

/// The same for messages Req and Resp (streaming operations are described by their plain
/// message structs, like the non-streaming equivalent).
template <class Req, class Resp>
void describe_operation(wsdl_builder& b, const operation_entry& op, bool has_response) {
  describe_operation(b, op, has_response, message_schema_v<Req>, message_schema_v<Resp>);
}

}  // namespace lather::detail

template <class Req, class Resp, class F, bool Ctx, lather::detail::handler_form Form>
void lather::detail::typed_operation<Req, Resp, F, Ctx, Form>::describe(wsdl_builder& b) const {
  describe_operation<Req, Resp>(b, *this, Form != handler_form::one_way);
}

template <class Req, class Resp, class F, bool Ctx, bool In, bool Out>
void lather::detail::streaming_operation<Req, Resp, F, Ctx, In, Out>::describe(
    wsdl_builder& b) const {
  describe_operation<Req, Resp>(b, *this, !std::is_same_v<Resp, no_response>);
}
