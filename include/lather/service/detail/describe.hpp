// lather/service/detail/describe.hpp — how a typed operation describes itself for WSDL
// generation (needs both typed_operation and wsdl_builder complete).
#pragma once

#include "lather/service/detail/typed_operation.hpp"
#include "lather/service/wsdl.hpp"

// The typed operations describe themselves through the builder.
template <class Req, class Resp, class F, bool Ctx, lather::detail::handler_form Form>
void lather::detail::typed_operation<Req, Resp, F, Ctx, Form>::describe(wsdl_builder& b) const {
  wsdl_operation_def d;
  d.name = name_;
  d.action = options_.soap_action;
  d.documentation = options_.documentation;
  d.style = options_.style;
  d.one_way = Form == handler_form::one_way;
  d.element_ns = request_ns_;
  d.request_element = request_element_;
  d.response_element = response_element_;
  constexpr bool has_response = Form != handler_form::one_way;
  // Encoded messages (soap::encoded_type) are described by service_options::static_wsdl.
  if constexpr (bind::complex_type<Req> && (bind::complex_type<Resp> || !has_response)) {
    switch (options_.style) {
      case soap::style::document_wrapped:
        b.add_element(request_ns_, request_element_, b.fields_of<Req>());
        if constexpr (has_response)
          b.add_element(request_ns_, response_element_, b.fields_of<Resp>());
        break;
      case soap::style::document_bare:
        b.add_element(request_ns_, request_element_, b.type_of<Req>());
        if constexpr (has_response)
          b.add_element(request_ns_, response_element_, b.type_of<Resp>());
        break;
      case soap::style::rpc_literal:
      case soap::style::rpc_encoded:
        d.request_parts = b.fields_of<Req>();
        if constexpr (has_response) d.response_parts = b.fields_of<Resp>();
        break;
    }
  }
  b.add_operation(std::move(d));
}
