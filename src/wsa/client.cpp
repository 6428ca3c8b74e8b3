// The client side: the headers written by an interceptor that sees the call's options, the
// response's headers read into the call's wsa::call when it has one, the response's Action
// checked once the call is known not to have ended in a fault.
#include "lather/wsa/client.hpp"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "read.hpp"

namespace lather::wsa {

struct call_access {
  static void start(call& c, std::string sent) {
    c.sent_ = std::move(sent);
    c.response_.clear();
    c.accepted_ = false;
  }
  static headers& response(call& c) { return c.response_; }
  static void accept(call& c) { c.accepted_ = true; }
};

namespace {

// The response Action the call in progress on this thread expects, set when its headers are
// written. Checked in the interceptor's `after`: only then is it known whether the answer was a
// fault (whose Action is a fault's). A client's calls run on the calling thread, one at a time.
struct action_check {
  bool active = false;  // headers were written and a response Action is expected
  bool mismatch = false;
  std::string expected, got, read;  // (capacity kept: no allocation per call once warm)

  void start(std::string_view want) {
    active = !want.empty();
    mismatch = false;
    expected.assign(want);
  }
  void received(std::string_view action) {
    if (!active || action == expected) return;
    mismatch = true;
    got.assign(action);
  }
};
thread_local action_check pending_check;

// call_options::read_header of a call made with call::options(): the response's WS-Addressing
// headers and reference parameters go into the call. Found again by the interceptor through
// std::function::target, so the MessageID it writes is the call's.
struct call_reader {
  call* target;
  soap::header_use operator()(const soap::header_info& h, xml::reader& r) const {
    headers& response = call_access::response(*target);
    if (!detail::read_header(response, h, r)) return soap::header_use::not_understood;
    if (h.local == "Action") pending_check.received(response.action);
    return soap::header_use::consumed;
  }
};

bool known_header(std::string_view local) {
  for (std::string_view k :
       {"To", "Action", "MessageID", "RelatesTo", "ReplyTo", "FaultTo", "From", "FaultDetail"})
    if (local == k) return true;
  return false;
}

}  // namespace

lather::call_options call::options(lather::call_options base) {
  call_access::start(*this, {});
  base.read_header = call_reader{this};
  base.on_accepted = [this] { call_access::accept(*this); };
  return base;
}

struct client_addressing::impl {
  client_policy endpoint;
  struct operation_actions {
    std::string name, action, response_action;
  };
  std::vector<operation_actions> actions;
  std::optional<endpoint_reference> anonymous;  // 2004/08's default ReplyTo

  const operation_actions* actions_of(std::string_view operation) const noexcept {
    for (const operation_actions& a : actions)
      if (a.name == operation) return &a;
    return nullptr;
  }

  void write(std::string_view operation, const call_options& o, xml::writer& w, soap::version sv,
             const std::string& url) const {
    const call_reader* per_call = o.read_header.target<call_reader>();
    call* c = per_call ? per_call->target : nullptr;
    const operation_actions* op = actions_of(operation);
    std::string_view action = c && !c->action.empty() ? std::string_view(c->action) : "";
    if (action.empty() && op) action = op->action;
    if (action.empty()) action = o.action;
    if (action.empty() && endpoint.when == send::always) action = o.soap_action;
    pending_check.start({});
    if (action.empty()) return;  // not asked for: no WS-Addressing headers at all
    if (endpoint.check_response_action) {
      std::string_view expected = c ? std::string_view(c->response_action) : "";
      if (expected.empty() && op) expected = op->response_action;
      if (expected.empty()) expected = o.response_action;
      pending_check.start(expected);
    }
    std::string id =
        c && !c->message_id.empty() ? c->message_id : new_message_id(endpoint.message_id_prefix);
    detail::outgoing out;
    out.action = action;
    out.message_id = id;
    out.to = endpoint.to && !endpoint.to->address.empty() ? std::string_view(endpoint.to->address)
                                                          : std::string_view(url);
    out.reply_to = endpoint.reply_to ? &*endpoint.reply_to : anonymous ? &*anonymous : nullptr;
    out.fault_to = endpoint.fault_to ? &*endpoint.fault_to : nullptr;
    out.from = endpoint.from ? &*endpoint.from : nullptr;
    if (endpoint.to) out.reference_parameters = endpoint.to->reference_parameters;
    out.must_understand = endpoint.must_understand;
    detail::write_headers(w, sv, endpoint.ver, out);
    if (c) call_access::start(*c, std::move(id));
  }
};

client_addressing::client_addressing(client_policy endpoint) : impl_(std::make_shared<impl>()) {
  impl_->endpoint = std::move(endpoint);
  if (impl_->endpoint.ver == version::submission04)
    impl_->anonymous =
        endpoint_reference{std::string(anonymous_address(version::submission04)), {}};
}

client_addressing& client_addressing::operation(std::string name, std::string action,
                                                std::string response_action) {
  impl_->actions.push_back({std::move(name), std::move(action), std::move(response_action)});
  return *this;
}

void client_addressing::install(lather::client& c) const {
  c.intercept(
      {.write_headers = {},
       .after =
           [](const call_info& info) {
             action_check& check = pending_check;
             const bool failed = check.active && check.mismatch && !info.fault;
             check.active = false;
             if (failed)
               throw client_error("WS-Addressing: the response's Action is \"" + check.got +
                                  "\", expected \"" + check.expected + "\"");
           },
       .whole_request = {},
       .write_call_headers = [self = impl_, v = c.options().version, url = c.url()](
                                 std::string_view operation, const call_options& o,
                                 xml::writer& w) { self->write(operation, o, w, v, url); },
       .read_header =
           [](std::string_view, const call_options&, const soap::header_info& h, xml::reader& r) {
             // Without a wsa::call the response's headers are understood and skipped (a
             // mustUnderstand Action must not fail the call); the Action is read when checked.
             if (!version_of(h.ns) || !known_header(h.local))
               return soap::header_use::not_understood;
             if (h.local != "Action" || !pending_check.active) return soap::header_use::understood;
             action_check& check = pending_check;
             try {
               detail::read_text(r, check.read);
             } catch (const std::invalid_argument&) {
               throw client_error("WS-Addressing: the response's Action is not text");
             }
             check.received(check.read);
             return soap::header_use::consumed;
           }});
}

}  // namespace lather::wsa
