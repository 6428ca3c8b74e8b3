// lather/service/detail/typed_operation.hpp — the template half of service::operation():
// reads the request into a pooled object, calls the handler, writes the response. Everything
// else is non-template code in src/service (fmt's thin-template pattern).
#pragma once

#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

namespace lather::detail {

enum class handler_form { returns, out_param, one_way, async };

struct no_response {};

template <class Req, class Resp, class F, bool Ctx, bool In, bool Out>
class streaming_operation;  // detail/streaming_operation.hpp

/// The fault an async handler gets when it does not answer within handler_timeout.
soap::fault timeout_fault();

/// Name and namespace of a message type's meta<T> (RPC/encoded messages too: their parts are
/// the fields).
template <class T>
constexpr std::string_view message_type_name() {
  if constexpr (bind::complex_type<T>)
    return meta<T>::name;
  else
    return {};
}
template <class T>
constexpr std::string_view message_type_ns() {
  if constexpr (bind::complex_type<T>)
    return meta<T>::ns;
  else
    return {};
}

/// Call a handler with its arguments, after the call context when it takes one.
template <bool Ctx, class F, class... A>
decltype(auto) call_handler(F& fn, exchange& x, A&&... a) {
  if constexpr (Ctx)
    return fn(static_cast<call_context&>(x), std::forward<A>(a)...);
  else
    return fn(std::forward<A>(a)...);
}

/// Drops a pooled request/response slot after a large message instead of giving it back (also
/// on a failed call: a partly read big request is as big).
template <class Lease>
struct trim_after_large_message {
  exchange& x;
  Lease& s;
  ~trim_after_large_message() {
    if (x.reader().bytes_consumed() > pooled_message_limit) s.discard();
  }
};
template <class Lease>
trim_after_large_message(exchange&, Lease&) -> trim_after_large_message<Lease>;

// The steps of an operation's call for a message type `t` (src/service/service.cpp), shared by
// the typed operations and the type-erased ones.

/// Read a literal request message (wrapper or bare element) into `req`, a `t`; a binding error
/// is the sender's fault.
void read_literal(exchange& x, const operation_entry& op, const message_type& t, void* req);
/// Read the request into `req`, a `t`: RPC/encoded or literal as the operation's style says.
void read_request(exchange& x, const operation_entry& op, const message_type& t, void* req);
/// Write `resp`, a `t`, as the literal response and end the response.
void write_literal(exchange& x, const operation_entry& op, const message_type& t, const void* resp);
/// Write `resp`, a `t`, as the operation's style says and end the response.
void write_response(exchange& x, const operation_entry& op, const message_type& t,
                    const void* resp);

/// Start the literal response's element (wrapper, RPC wrapper or bare element), left open.
inline xml::writer& start_literal(exchange& x, const operation_entry& op) {
  xml::writer& w = x.begin_response(false);
  if (soap::is_rpc(op.options().style))
    soap::write_rpc_start(w, x.version(), op.options().style, op.response_ns(),
                          op.response_element());
  else
    w.start_element(op.response_ns(), op.response_element());
  return w;
}

/// start_literal, then `head`'s attributes and children; the element is left open.
template <class Resp>
xml::writer& begin_literal(exchange& x, const operation_entry& op, const Resp& head) {
  xml::writer& w = start_literal(x, op);
  bind::write_content(w, head, x.write_options());
  return w;
}

template <class Req>
void read_literal(exchange& x, const operation_entry& op, Req& req) {
  read_literal(x, op, message_type_part<Req, reads>(), &req);
}

template <class Resp>
void write_literal(exchange& x, const operation_entry& op, const Resp& resp) {
  write_literal(x, op, message_type_part<Resp, writes>(), &resp);
}

template <class Req, class Resp, class F, bool Ctx, handler_form Form>
class typed_operation final : public operation_entry {
 public:
  typed_operation(std::string name, F fn, operation_options opts, std::string_view tns)
      : fn_(std::move(fn)) {
    if constexpr (soap::encoded_message<Req>)
      opts.style = soap::style::rpc_encoded;
    else if (opts.style == soap::style::rpc_encoded)
      throw std::invalid_argument("operation " + name +
                                  ": rpc/encoded needs request and response types whose meta<> "
                                  "says encoding::soap (see lather/soap/encoded.hpp)");
    if (Ctx && opts.timeout.count() > 0)
      throw std::invalid_argument("operation " + name +
                                  ": a handler with a timeout cannot take call_context&");
    set_names(std::move(name), std::move(opts), tns, message_type_name<Req>(),
              message_type_ns<Req>(), message_type_name<Resp>(), Form == handler_form::one_way);
  }

  void invoke(exchange& x) override {
    if constexpr (Form != handler_form::async && !Ctx)
      if (options_.timeout.count() > 0) return invoke_with_deadline(x);
    auto s = pool_.take();
    trim_after_large_message trim{x, s};
    read_request(x, s->req);
    x.finish_request(options_.style == soap::style::rpc_encoded);
    if constexpr (Form == handler_form::one_way) {
      call_handler<Ctx>(fn_, x, s->req);
      x.accept_one_way();
    } else {
      if constexpr (Form == handler_form::returns) {
        s->resp = call_handler<Ctx>(fn_, x, s->req);
      } else if constexpr (Form == handler_form::async) {
        auto state = std::make_shared<reply_state<Resp>>();
        // A handler that never answers gets a Server fault after handler_timeout.
        const auto limit = options_.timeout.count() > 0 ? options_.timeout : x.handler_timeout();
        deadline_guard deadline{limit, [state] {
                                  state->complete(
                                      std::nullopt,
                                      std::make_exception_ptr(soap::fault_error(timeout_fault())));
                                }};
        // No server-side await timeout: `deadline` answers with a SOAP fault instead.
        http::server::await(
            [&](std::function<void()> resume) {
              state->set_resume(std::move(resume));
              call_async(x, s->req, reply<Resp>{state});
            },
            std::chrono::milliseconds{0});
        if (state->error) std::rethrow_exception(state->error);
        s->resp = std::move(*state->value);
      } else {
        call_handler<Ctx>(fn_, x, s->req, s->resp);
      }
      write_response(x, s->resp);
    }
  }

  void describe(wsdl_builder& b) const override;

 private:
  struct slot {
    Req req{};
    Resp resp{};
  };

  // A synchronous handler with a deadline: it runs on a thread of its own that owns the
  // request (a late handler still has it); this call waits without holding the server thread
  // and answers whichever comes first, the result or the timeout fault.
  void invoke_with_deadline(exchange& x) {
    auto s = std::make_shared<slot>();
    read_request(x, s->req);
    x.finish_request(options_.style == soap::style::rpc_encoded);
    auto state = std::make_shared<reply_state<Resp>>();
    deadline_guard deadline{options_.timeout, [state] {
                              state->complete(
                                  std::nullopt,
                                  std::make_exception_ptr(soap::fault_error(timeout_fault())));
                            }};
    http::server::await(
        [&](std::function<void()> resume) {
          state->set_resume(std::move(resume));
          run_detached([this, s, state] {
            try {
              if constexpr (Form == handler_form::one_way) {
                fn_(s->req);
                state->complete(Resp{}, nullptr);
              } else if constexpr (Form == handler_form::returns) {
                state->complete(fn_(s->req), nullptr);
              } else {
                fn_(s->req, s->resp);
                state->complete(std::move(s->resp), nullptr);
              }
            } catch (...) {
              state->complete(std::nullopt, std::current_exception());
            }
          });
        },
        std::chrono::milliseconds{0});  // `deadline` answers with a SOAP fault
    if (state->error) std::rethrow_exception(state->error);
    if constexpr (Form == handler_form::one_way)
      x.accept_one_way();
    else
      write_response(x, *state->value);
  }

  void call_async(exchange& x, Req& req, reply<Resp> r) {
    if constexpr (Form == handler_form::async) {
      call_handler<Ctx>(fn_, x, req, std::move(r));
    }
  }

  void read_request(exchange& x, Req& req) {
    detail::read_request(x, *this, message_type_part<Req, reads>(), &req);
  }

  void write_response(exchange& x, const Resp& resp) {
    detail::write_response(x, *this, message_type_part<Resp, writes>(), &resp);
  }

  F fn_;
  object_pool<slot> pool_;
};

}  // namespace lather::detail

template <class F>
lather::service& lather::service::operation(std::string name, F handler, operation_options opts) {
  using traits = detail::callable_traits<std::decay_t<F>>;
  using params = detail::drop_context<typename traits::args>;
  using args = typename params::type;
  using R = typename traits::result;
  constexpr bool ctx = params::has_context;
  constexpr std::size_t arity = std::tuple_size_v<args>;
  using Last = std::remove_cvref_t<std::tuple_element_t<arity - 1, args>>;
  using Second = std::remove_cvref_t<std::tuple_element_t<arity == 1 ? 0 : 1, args>>;
  constexpr bool streams_in = arity >= 2 && is_sequence_reader<Second>::value;
  constexpr bool streams_out = arity >= 2 && is_sequence_writer<Last>::value;
  static_assert(arity == 1 || arity == 2 || (arity == 3 && streams_in && streams_out),
                "an operation handler takes (Req), (Req&, Resp&), (Req, reply<Resp>) or a "
                "streaming form (Req, sequence_reader<Item>[, sequence_writer<Resp>&]), "
                "(Req, sequence_writer<Resp>&), optionally after lather::call_context&");
  using Req = std::remove_cvref_t<std::tuple_element_t<0, args>>;
  static_assert(bind::complex_type<Req>, "the request type needs lather::meta<Req>");
  if constexpr (streams_in || streams_out) {
    static_assert(bind::complex_type<Req>, "a streaming request needs lather::meta<Req>");
    if constexpr (streams_in)
      static_assert(std::is_same_v<typename is_sequence_reader<Second>::item,
                                   typename detail::stream_field<Req>::item>,
                    "sequence_reader<Item>: Item must be the element type of the request's "
                    "last field");
    using Resp = typename std::conditional_t<
        streams_out, is_sequence_writer<Last>,
        std::conditional<std::is_void_v<R>, detail::no_response, R>>::type;
    static_assert(!streams_out || std::is_void_v<R>,
                  "a handler with a sequence_writer returns void");
    add(std::make_unique<
        detail::streaming_operation<Req, Resp, std::decay_t<F>, ctx, streams_in, streams_out>>(
        std::move(name), std::move(handler), std::move(opts), tns_));
  } else if constexpr (std::tuple_size_v<args> == 2 && is_reply<Last>::value) {
    using Resp = typename is_reply<Last>::response;
    static_assert(std::is_void_v<R>, "an async handler returns void and answers via its reply");
    add(std::make_unique<
        detail::typed_operation<Req, Resp, std::decay_t<F>, ctx, detail::handler_form::async>>(
        std::move(name), std::move(handler), std::move(opts), tns_));
  } else if constexpr (std::tuple_size_v<args> == 2) {
    using Resp = std::remove_cvref_t<std::tuple_element_t<1, args>>;
    static_assert(std::is_void_v<R>, "a (Req&, Resp&) handler returns void");
    static_assert(bind::complex_type<Resp>, "the response type needs lather::meta<Resp>");
    add(std::make_unique<
        detail::typed_operation<Req, Resp, std::decay_t<F>, ctx, detail::handler_form::out_param>>(
        std::move(name), std::move(handler), std::move(opts), tns_));
  } else if constexpr (std::is_void_v<R>) {
    add(std::make_unique<detail::typed_operation<Req, detail::no_response, std::decay_t<F>, ctx,
                                                 detail::handler_form::one_way>>(
        std::move(name), std::move(handler), std::move(opts), tns_));
  } else {
    static_assert(bind::complex_type<R>, "the response type needs lather::meta<Resp>");
    add(std::make_unique<
        detail::typed_operation<Req, R, std::decay_t<F>, ctx, detail::handler_form::returns>>(
        std::move(name), std::move(handler), std::move(opts), tns_));
  }
  return *this;
}
