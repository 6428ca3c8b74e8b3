// The server side: WS-Addressing headers read while the envelope streams by, checked in an
// interceptor's `before` once the operation is known, answered by response headers (or, for a
// fault, by the interceptor's fault_headers).
#include "lather/wsa/server.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "lather/service/addressing_action.hpp"
#include "lather/soap/capture.hpp"
#include "lather/xml/writer.hpp"
#include "message_id_cache.hpp"
#include "read.hpp"
#include "reply_sender.hpp"

namespace lather::wsa {

namespace {

/// What the request said, and what the response will say (reused across calls).
struct addressing_state final : call_state {
  headers request;
  soap::version soap = soap::version::soap11;
  std::string reply_action;
  std::string_view fault_action;  // the Action of the fault written (a constant)
  bool diverted = false;          // the reply may go to a third address (divert_response)
  void clear() override {
    request.clear();
    reply_action.clear();
    fault_action = {};
    diverted = false;
  }
};

/// The key of every server_addressing's per-call state.
constinit const char state_key = 0;

addressing_state& state_of(call_context& ctx) {
  return ctx.state<addressing_state>(&state_key);
}

constexpr std::string_view header_names[] = {"To",      "Action",  "MessageID", "RelatesTo",
                                             "ReplyTo", "FaultTo", "From"};

/// Where a reply goes: a non-anonymous address, or nullptr for the HTTP response (anonymous,
/// none, or no EPR).
const endpoint_reference* third_party(const std::optional<endpoint_reference>& epr, version v) {
  if (!epr || epr->address == anonymous_address(v) || epr->address == none_address) return nullptr;
  return &*epr;
}

/// The none address: a reply (or fault) for it is not sent at all (WS-Addressing 1.0 Core
/// 2.1, SOAP Binding 5.1.2: the HTTP request is answered 202 with no body).
bool to_none(const std::optional<endpoint_reference>& epr) {
  return epr && epr->address == none_address;
}

/// Where the reply (fault = false) or fault goes: FaultTo for a fault when there is one, else
/// ReplyTo (WS-Addressing 1.0 Core 3.4).
const std::optional<endpoint_reference>& reply_target(const headers& h, bool fault) {
  return fault && h.fault_to ? h.fault_to : h.reply_to;
}

struct operation_info {
  std::string name;
  operation_actions actions;
  bool one_way = false;
  std::vector<operation_options::fault_action> faults;  // the contract's fault Actions
};

/// The Action the contract gives the fault `f` of operation `op` (by its detail element), ""
/// when it gives none.
std::string_view contract_fault_action(const operation_info* op, const soap::fault& f) {
  if (!op || op->faults.empty() || !f.has_detail) return {};
  std::string_view action;
  bool first = true;
  f.read_detail([&](xml::reader& r) {
    if (first)
      for (const auto& fa : op->faults)
        if (fa.ns == r.ns() && fa.element == r.local_name()) action = fa.action;
    first = false;
    r.skip_element();
  });
  return action;
}

}  // namespace

struct server_addressing::impl {
  server_policy endpoint;
  std::vector<std::pair<std::string, server_policy>> policies;
  std::vector<std::pair<std::string, operation_actions>> overrides;
  std::vector<std::string> destinations;
  std::vector<std::pair<std::string, std::string>> parameters;
  std::vector<operation_info> operations;
  reply_delivery delivery;
  std::unique_ptr<detail::reply_sender> sender;        // made by install() where a policy needs it
  std::unique_ptr<detail::message_id_cache> seen_ids;  // remember_message_ids()

  const server_policy& policy_for(std::string_view operation) const noexcept {
    for (const auto& [name, p] : policies)
      if (name == operation) return p;
    return endpoint;
  }
  const operation_info* info_for(std::string_view operation) const noexcept {
    for (const operation_info& o : operations)
      if (o.name == operation) return &o;
    return nullptr;
  }

  void check(call_context& ctx) const {
    addressing_state& s = state_of(ctx);
    s.soap = ctx.version();
    const server_policy& policy = policy_for(ctx.operation());
    const headers& h = s.request;
    if (!h.ver) {
      if (policy.required)
        throw_fault(fault_kind::header_required, version::v1_0, invalid_reason::none,
                    {.header = "Action", .action = {}, .iri = {}});
      return;  // no WS-Addressing in, none out
    }
    const version v = *h.ver;
    const operation_info* op = info_for(ctx.operation());
    if (h.action.empty())
      throw_fault(fault_kind::header_required, v, invalid_reason::none,
                  {.header = "Action", .action = {}, .iri = {}});
    if (policy.required && h.message_id.empty() && !(op && op->one_way))
      throw_fault(fault_kind::header_required, v, invalid_reason::none,
                  {.header = "MessageID", .action = {}, .iri = {}});
    if (policy.check_action) {
      const std::string_view soap_action = ctx.soap_action();
      if (!soap_action.empty() && soap_action != h.action)
        throw_fault(fault_kind::invalid_header, v, invalid_reason::action_mismatch,
                    {.header = "Action", .action = {}, .iri = {}});
      std::string_view expected = op ? std::string_view(op->actions.request) : "";
      if (!expected.empty() && expected != h.action)
        throw_fault(fault_kind::action_not_supported, v, invalid_reason::none,
                    {.header = {}, .action = h.action, .iri = {}});
    }
    bool elsewhere = false;  // a reply goes to a third address
    for (const auto& [epr, name] : {std::pair{&h.reply_to, "ReplyTo"}, {&h.fault_to, "FaultTo"}}) {
      const endpoint_reference* target = third_party(*epr, v);
      if (!target) continue;
      if (policy.anonymous_only || !sender)
        throw_fault(fault_kind::invalid_header, v, invalid_reason::only_anonymous_address_supported,
                    {.header = name, .action = {}, .iri = {}});
      if (!sender->accepts(target->address))
        throw_fault(fault_kind::invalid_header, v, invalid_reason::invalid_address,
                    {.header = name, .action = {}, .iri = target->address});
      elsewhere = !(op && op->one_way);
    }
    if (elsewhere && h.message_id.empty())  // the reply could not say what it answers
      throw_fault(fault_kind::header_required, v, invalid_reason::none,
                  {.header = "MessageID", .action = {}, .iri = {}});
    if (elsewhere && !sender->has_room())
      throw_fault(fault_kind::endpoint_unavailable, v, invalid_reason::none,
                  {.header = {}, .action = {}, .iri = {}});
    if (!destinations.empty() && !h.to.empty() && h.to != anonymous_address(v) &&
        std::find(destinations.begin(), destinations.end(), h.to) == destinations.end())
      throw_fault(fault_kind::destination_unreachable, v, invalid_reason::none,
                  {.header = {}, .action = {}, .iri = h.to});
    // Last: a request refused for another reason may come again with its MessageID.
    if (seen_ids && !h.message_id.empty() && !seen_ids->insert(h.message_id))
      throw_fault(fault_kind::invalid_header, v, invalid_reason::duplicate_message_id,
                  {.header = "MessageID", .action = {}, .iri = {}});
    if (op && !op->actions.response.empty()) {
      s.reply_action = op->actions.response;
    } else {
      s.reply_action = h.action;
      s.reply_action += "Response";
    }
    if (op && op->one_way) return;
    ctx.add_response_header(
        [this, &s](xml::writer& w) { write_reply(w, s, s.reply_action, false); });
    const bool nowhere = to_none(reply_target(h, false)) || to_none(reply_target(h, true));
    if (!elsewhere && !nowhere) return;
    ctx.divert_response(
        [this, &s](bool fault, std::string_view content_type, std::string& envelope) {
          return send_elsewhere(s, fault, content_type, envelope);
        });
    s.diverted = elsewhere;
  }

  /// A response (or fault) for a non-anonymous address, queued for delivery there, or for the
  /// none address, dropped (true: the HTTP request is answered 202); false when it belongs on
  /// the HTTP response after all (a fault where FaultTo is anonymous).
  bool send_elsewhere(addressing_state& s, bool fault, std::string_view content_type,
                      std::string& envelope) const {
    const headers& h = s.request;
    const version v = h.ver.value_or(version::v1_0);
    if (to_none(reply_target(h, fault))) {
      envelope.clear();
      return true;
    }
    const endpoint_reference* to = third_party(reply_target(h, fault), v);
    if (!to) return false;
    const std::string_view action = fault ? s.fault_action : std::string_view(s.reply_action);
    detail::reply_sender::message m;
    m.address = to->address;
    m.content_type = content_type;
    if (s.soap == soap::version::soap12 && content_type.starts_with("application/soap+xml")) {
      m.content_type += "; action=\"";
      m.content_type += action;
      m.content_type += '"';
    } else if (s.soap == soap::version::soap11) {
      m.soap_action = action;
    }
    m.envelope = std::move(envelope);
    if (sender->post(m)) return true;
    envelope = std::move(m.envelope);
    if (fault) return false;  // no room after all: the fault goes back on the HTTP response
    s.diverted = false;       // the fault about it does too
    throw_fault(fault_kind::endpoint_unavailable, v, invalid_reason::none,
                {.header = {}, .action = {}, .iri = {}});
  }

  void write_reply(xml::writer& w, const addressing_state& s, std::string_view action,
                   bool fault) const {
    const headers& h = s.request;
    const version v = h.ver.value_or(version::v1_0);
    const std::optional<endpoint_reference>& target = reply_target(h, fault);
    // A reply for a third address that goes back on the HTTP response after all (a fault
    // raised before it could be diverted) is addressed as an anonymous one.
    const std::optional<endpoint_reference> none;
    const std::optional<endpoint_reference>& to =
        third_party(target, v) && !s.diverted ? none : target;
    const std::string id = new_message_id();
    detail::outgoing out;
    out.action = action;
    out.message_id = id;
    out.relates_to = h.message_id;
    // 1.0 leaves an anonymous To out; 2004/08 always names the destination.
    if (v == version::submission04)
      out.to = to ? to->address : anonymous_address(v);
    else if (third_party(to, v))
      out.to = to->address;
    if (to) out.reference_parameters = to->reference_parameters;
    out.must_understand = endpoint.must_understand;
    detail::write_headers(w, s.soap, v, out);
  }

  void write_fault_headers(call_context& ctx, const soap::fault& f, xml::writer& w) const {
    addressing_state& s = state_of(ctx);
    s.soap = ctx.version();
    std::optional<version> v = s.request.ver;
    std::optional<version> code_version = version_of(f.received_code.ns);
    if (!v) v = code_version;
    if (!v) return;  // neither the request nor the fault is about WS-Addressing
    if (!s.request.ver) s.request.ver = v;
    std::string_view action = code_version ? fault_action(*v) : std::string_view{};
    if (action.empty()) action = contract_fault_action(info_for(ctx.operation()), f);
    if (action.empty()) action = *v == version::submission04 ? fault_action(*v) : soap_fault_action;
    s.fault_action = action;
    write_reply(w, s, action, true);
    if (code_version && ctx.version() == soap::version::soap12 && f.has_detail) {
      // SOAP 1.2 carries a WS-Addressing fault's detail in a header (SOAP Binding 6.4).
      w.start_element(namespace_of(*v), xml::ncname{"FaultDetail"});
      w.raw("");
      w.raw(f.detail_xml);
      w.end_element();
    }
  }
};

server_addressing::server_addressing(server_policy endpoint) : impl_(std::make_unique<impl>()) {
  impl_->endpoint = endpoint;
}

server_addressing::~server_addressing() = default;

server_addressing& server_addressing::operation(std::string name, server_policy policy) {
  impl_->policies.emplace_back(std::move(name), policy);
  return *this;
}

server_addressing& server_addressing::actions(std::string operation, operation_actions a) {
  impl_->overrides.emplace_back(std::move(operation), std::move(a));
  return *this;
}

server_addressing& server_addressing::destination(std::string address) {
  impl_->destinations.push_back(std::move(address));
  return *this;
}

server_addressing& server_addressing::reference_parameter(std::string ns, std::string local) {
  impl_->parameters.emplace_back(std::move(ns), std::move(local));
  return *this;
}

server_addressing& server_addressing::deliver_replies(reply_delivery d) {
  impl_->delivery = std::move(d);
  return *this;
}

delivery_stats server_addressing::replies() const {
  return impl_->sender ? impl_->sender->stats() : delivery_stats{};
}

server_addressing& server_addressing::remember_message_ids(message_id_memory m) {
  impl_->seen_ids =
      m.capacity ? std::make_unique<detail::message_id_cache>(m.capacity, m.window) : nullptr;
  return *this;
}

bool server_addressing::drain_replies(std::chrono::milliseconds timeout) {
  return !impl_->sender || impl_->sender->drain(timeout);
}

void server_addressing::install(service& svc) {
  bool third_parties = !impl_->endpoint.anonymous_only;
  for (const auto& [name, p] : impl_->policies) third_parties |= !p.anonymous_only;
  if (third_parties) impl_->sender = std::make_unique<detail::reply_sender>(impl_->delivery);
  for (const auto& op : svc.operations()) {
    operation_info info{op->name(),
                        {op->options().action, op->options().response_action},
                        op->one_way(),
                        op->options().fault_actions};
    if (info.actions.request.empty()) info.actions.request = op->options().soap_action;
    for (const auto& [name, a] : impl_->overrides)
      if (name == info.name) info.actions = a;
    impl_->operations.push_back(std::move(info));
  }
  for (std::string_view ns : {ns_1_0, ns_2004})
    for (std::string_view local : header_names)
      svc.header(std::string(ns), std::string(local), [](call_context& ctx, xml::reader& r) {
        soap::header_info info;
        info.ns = r.ns();
        info.local = r.local_name();
        detail::read_header(state_of(ctx).request, info, r);
        // The service dispatches an empty Body by it.
        if (info.local == "Action") set_addressing_action(ctx, state_of(ctx).request.action);
      });
  for (const auto& [ns, local] : impl_->parameters)
    svc.header(ns, local, [](call_context& ctx, xml::reader& r) {
      state_of(ctx).request.reference_parameters.push_back(soap::capture_element(r, {}));
    });
  svc.intercept({.before = [self = impl_.get()](call_context& ctx) { self->check(ctx); },
                 .after = {},
                 .whole_request = {},
                 .fault_headers = [self = impl_.get()](
                                      call_context& ctx, const soap::fault& f,
                                      xml::writer& w) { self->write_fault_headers(ctx, f, w); }});
}

const headers& server_addressing::request(call_context& ctx) {
  return state_of(ctx).request;
}

std::optional<std::string> server_addressing::reference_parameter(call_context& ctx,
                                                                  std::string_view ns,
                                                                  std::string_view local) {
  for (const std::string& xml : state_of(ctx).request.reference_parameters)
    if (std::optional<parameter_value> p = parameter_of(xml); p && p->ns == ns && p->local == local)
      return std::move(p->text);
  return std::nullopt;
}

void server_addressing::fail(call_context& ctx, fault_kind k, invalid_reason reason,
                             const problem& p) {
  throw_fault(k, state_of(ctx).request.ver.value_or(version::v1_0), reason, p);
}

}  // namespace lather::wsa
