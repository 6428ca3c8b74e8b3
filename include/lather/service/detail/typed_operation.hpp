// lather/service/detail/typed_operation.hpp — the template half of service::operation():
// reads the request into a pooled object, calls the handler, writes the response. Everything
// else is non-template code in src/service (fmt's thin-template pattern).
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>

namespace lather::detail {

enum class handler_form { returns, out_param, one_way };

template <class Req, class Resp, class F, bool Ctx, handler_form Form>
class typed_operation final : public operation_entry {
 public:
  typed_operation(std::string name, F fn, operation_options opts, std::string_view tns)
      : fn_(std::move(fn)) {
    name_ = std::move(name);
    options_ = std::move(opts);
    one_way_ = Form == handler_form::one_way;
    const bool bare = options_.style == soap::style::document_bare;
    request_element_ = !options_.request_element.empty() ? options_.request_element
                       : bare                            ? std::string(meta<Req>::name)
                                                         : name_;
    if (!options_.response_element.empty()) {
      response_element_ = options_.response_element;
    } else if constexpr (Form != handler_form::one_way) {
      response_element_ = bare ? std::string(meta<Resp>::name) : soap::response_name(name_);
    }
    request_ns_ = !options_.element_ns.empty() ? options_.element_ns
                  : soap::is_rpc(options_.style) || meta<Req>::ns.empty()
                      ? std::string(tns)
                      : std::string(meta<Req>::ns);
  }

  void invoke(exchange& x) override {
    auto s = pool_.take();
    read_request(x, s->req);
    x.finish_request();
    if constexpr (Form == handler_form::one_way) {
      call(x, s->req);
      x.accept_one_way();
    } else {
      if constexpr (Form == handler_form::returns)
        s->resp = call(x, s->req);
      else
        call(x, s->req, s->resp);
      write_response(x, s->resp);
    }
  }

  void describe(wsdl_builder& b) const override;

 private:
  struct slot {
    Req req{};
    Resp resp{};
  };

  template <class... A>
  decltype(auto) call(exchange& x, A&... a) {
    if constexpr (Ctx)
      return fn_(static_cast<call_context&>(x), a...);
    else
      return fn_(a...);
  }

  void read_request(exchange& x, Req& req) {
    bind::error_info e;
    if (options_.style == soap::style::document_bare)
      e = bind::read(x.reader(), req, x.read_options());
    else
      e = bind::read_content(x.reader(), req, x.read_options());
    if (e) x.request_error(e);
  }

  void write_response(exchange& x, const Resp& resp) {
    xml::writer& w = x.begin_response(false);
    switch (options_.style) {
      case soap::style::document_bare:
        bind::write(w, request_ns_, response_element_, resp);
        break;
      case soap::style::rpc_literal:
      case soap::style::rpc_encoded:
        soap::write_rpc_start(w, x.version(), options_.style, request_ns_, response_element_);
        bind::write_content(w, resp);
        w.end_element();
        break;
      case soap::style::document_wrapped:
        w.start_element(request_ns_, response_element_);
        bind::write_content(w, resp);
        w.end_element();
        break;
    }
    x.end_response();
  }

  F fn_;
  object_pool<slot> pool_;
};

struct no_response {};

}  // namespace lather::detail

template <class F>
lather::service& lather::service::operation(std::string name, F handler, operation_options opts) {
  using traits = detail::callable_traits<std::decay_t<F>>;
  using params = detail::drop_context<typename traits::args>;
  using args = typename params::type;
  using R = typename traits::result;
  constexpr bool ctx = params::has_context;
  static_assert(std::tuple_size_v<args> == 1 || std::tuple_size_v<args> == 2,
                "an operation handler takes (Req) or (Req&, Resp&), optionally after "
                "lather::call_context&");
  using Req = std::remove_cvref_t<std::tuple_element_t<0, args>>;
  static_assert(bind::complex_type<Req>, "the request type needs lather::meta<Req> with fields");
  if constexpr (std::tuple_size_v<args> == 2) {
    using Resp = std::remove_cvref_t<std::tuple_element_t<1, args>>;
    static_assert(std::is_void_v<R>, "a (Req&, Resp&) handler returns void");
    static_assert(bind::complex_type<Resp>, "the response type needs lather::meta<Resp>");
    add(std::make_unique<detail::typed_operation<Req, Resp, std::decay_t<F>, ctx,
                                                 detail::handler_form::out_param>>(
        std::move(name), std::move(handler), std::move(opts), tns_));
  } else if constexpr (std::is_void_v<R>) {
    add(std::make_unique<detail::typed_operation<Req, detail::no_response, std::decay_t<F>, ctx,
                                                 detail::handler_form::one_way>>(
        std::move(name), std::move(handler), std::move(opts), tns_));
  } else {
    static_assert(bind::complex_type<R>, "the response type needs lather::meta<Resp>");
    add(std::make_unique<detail::typed_operation<Req, R, std::decay_t<F>, ctx,
                                                 detail::handler_form::returns>>(
        std::move(name), std::move(handler), std::move(opts), tns_));
  }
  return *this;
}
