// The client side: the headers written by an interceptor that sees the call's options, the
// response's headers read into the call's wsa::call when it has one.
#include "lather/wsa/client.hpp"

#include <utility>
#include <vector>

#include "read.hpp"

namespace lather::wsa {

struct call_access {
  static void start(call& c, std::string sent) {
    c.sent_ = std::move(sent);
    c.response_.clear();
  }
  static headers& response(call& c) { return c.response_; }
};

namespace {

// call_options::read_header of a call made with call::options(): the response's WS-Addressing
// headers and reference parameters go into the call. Found again by the interceptor through
// std::function::target, so the MessageID it writes is the call's.
struct call_reader {
  call* target;
  soap::header_use operator()(const soap::header_info& h, xml::reader& r) const {
    return detail::read_header(call_access::response(*target), h, r)
               ? soap::header_use::consumed
               : soap::header_use::not_understood;
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
  return base;
}

struct client_addressing::impl {
  client_policy endpoint;
  std::vector<std::pair<std::string, std::string>> actions;  // operation -> Action
  std::optional<endpoint_reference> anonymous;               // 2004/08's default ReplyTo

  std::string_view action_of(std::string_view operation) const noexcept {
    for (const auto& [name, a] : actions)
      if (name == operation) return a;
    return {};
  }

  void write(std::string_view operation, const call_options& o, xml::writer& w, soap::version sv,
             const std::string& url) const {
    const call_reader* per_call = o.read_header.target<call_reader>();
    call* c = per_call ? per_call->target : nullptr;
    std::string_view action = c && !c->action.empty() ? std::string_view(c->action) : "";
    if (action.empty()) action = action_of(operation);
    if (action.empty()) action = o.action;
    if (action.empty() && endpoint.when == send::always) action = o.soap_action;
    if (action.empty()) return;  // not asked for: no WS-Addressing headers at all
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

client_addressing& client_addressing::operation(std::string name, std::string action) {
  impl_->actions.emplace_back(std::move(name), std::move(action));
  return *this;
}

void client_addressing::install(lather::client& c) const {
  c.intercept(
      {.write_headers = {},
       .after = {},
       .whole_request = {},
       .write_call_headers = [self = impl_, v = c.options().version, url = c.url()](
                                 std::string_view operation, const call_options& o,
                                 xml::writer& w) { self->write(operation, o, w, v, url); },
       .read_header =
           [](std::string_view, const call_options&, const soap::header_info& h, xml::reader&) {
             // Without a wsa::call the response's headers are understood and skipped (a
             // mustUnderstand Action must not fail the call).
             if (version_of(h.ns) && known_header(h.local)) return soap::header_use::understood;
             return soap::header_use::not_understood;
           }});
}

}  // namespace lather::wsa
