// lather/service/detail/describe.hpp — how a typed operation describes itself for WSDL
// generation (needs both typed_operation and wsdl_builder complete).
#pragma once

#include <tuple>
#include <type_traits>
#include <variant>

#include "lather/service/detail/streaming_operation.hpp"
#include "lather/service/detail/typed_operation.hpp"
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
  } else if constexpr (bind::simple_type<V> || bind::enum_type<V> ||
                       std::is_same_v<V, bind::any_type> || std::is_same_v<V, bind::any_element>) {
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

/// The WSDL description of an operation whose messages are Req and Resp (streaming operations
/// are described by their plain message structs, like the non-streaming equivalent).
template <class Req, class Resp>
void describe_operation(wsdl_builder& b, const operation_entry& op, bool has_response) {
  const operation_options& o = op.options();
  wsdl_operation_def d;
  d.name = op.name();
  d.action = o.soap_action;
  d.documentation = o.documentation;
  d.style = o.style;
  d.one_way = !has_response;
  d.element_ns = std::string(op.request_ns());
  d.request_element = std::string(op.request_element());
  d.response_element = std::string(op.response_element());
  const std::string ns = d.element_ns;
  // Messages the schema cannot express are described by service_options::static_wsdl.
  if constexpr (schema_expressible<Req>() &&
                (schema_expressible<Resp>() || std::is_same_v<Resp, no_response>)) {
    switch (o.style) {
      case soap::style::document_wrapped:
        b.add_element(ns, d.request_element, b.fields_of<Req>());
        if (has_response) {
          if constexpr (bind::complex_type<Resp>)
            b.add_element(ns, d.response_element, b.fields_of<Resp>());
        }
        break;
      case soap::style::document_bare:
        b.add_element(ns, d.request_element, b.type_of<Req>());
        if (has_response) {
          if constexpr (bind::complex_type<Resp>)
            b.add_element(ns, d.response_element, b.type_of<Resp>());
        }
        break;
      case soap::style::rpc_literal:
      case soap::style::rpc_encoded:
        d.request_parts = b.fields_of<Req>();
        if constexpr (bind::complex_type<Resp>)
          if (has_response) d.response_parts = b.fields_of<Resp>();
        break;
    }
  }
  b.add_operation(std::move(d), o);
}

template <class Detail>
void describe_fault(wsdl_builder& b, const fault_declaration& f) {
  b.add_element(f.ns, f.element, b.type_of<Detail>());
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
