// lather/wsa/client.hpp — WS-Addressing on lather::client: Action, MessageID, To,
// ReplyTo/FaultTo/From and an endpoint reference's reference parameters on each call that
// needs them; the response's headers for the caller to see.
//
//   lather::client events{"http://cam/onvif/events"};
//   lather::wsa::client_addressing wsa;        // WS-Addressing 1.0, where the contract asks
//   wsa.install(events);                       // To = the client's URL
//   ...
//   lather::client sub{epr.address};           // a subscription the device handed out
//   lather::wsa::client_addressing{{.to = epr}}.install(sub);  // its reference parameters go
//                                                               // back with every call
//   lather::wsa::call c;                       // this call: what was sent, what came back
//   auto r = proxy.PullMessages(request, c.options());
//   c.response().action; c.response().reply_to_message() == c.message_id();
//
// Which calls carry the headers: by default (`send::contract`) those whose Action is known from
// the contract (call_options::action, which generated proxies fill from wsam:Action /
// wsaw:Action), from operation() or from the call (call::action); other calls go out without
// any, since devices have been seen to reject WS-Addressing where their contract does not
// declare it. `send::always` adds them to every call, the Action then falling back to the
// SOAPAction. Each header is written once: the call's Action wins over the operation's, which
// wins over the contract's.
//
// The response's Action is checked (client_policy::check_response_action) against the one
// expected, found the same way (call::response_action, operation()'s third argument,
// call_options::response_action from the contract): a response whose Action differs fails the
// call with lather::client_error. A fault, a response without WS-Addressing and a call with no
// expected Action are not checked.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "lather/service/client.hpp"
#include "lather/wsa/addressing.hpp"
#include "lather/wsa/fault.hpp"

namespace lather::wsa {

enum class send : std::uint8_t {
  contract,  ///< only calls with an Action from the contract, operation() or the call
  always,    ///< every call (Action: as for `contract`, else the SOAPAction)
};

struct client_policy {
  version ver = version::v1_0;
  send when = send::contract;
  /// The destination: To = its address (default: the client's URL) and its reference
  /// parameters sent as header entries (IsReferenceParameter="true").
  std::optional<endpoint_reference> to{};
  /// ReplyTo; default: none in 1.0 (anonymous is implied), anonymous in 2004/08 (where a
  /// request expecting a reply must carry one).
  std::optional<endpoint_reference> reply_to{};
  std::optional<endpoint_reference> fault_to{};
  std::optional<endpoint_reference> from{};
  /// mustUnderstand on Action and To (WCF's habit; some services refuse it).
  bool must_understand = false;
  /// The MessageID form: prefix + UUID ("urn:uuid:" per RFC 4122; some devices want "uuid:").
  std::string message_id_prefix = "urn:uuid:";
  /// A response whose Action is not the one expected fails the call (client_error).
  bool check_response_action = true;
};

/// One call's WS-Addressing: what to send besides the endpoint's policy, and what came back.
/// Reusable across calls (one at a time).
class call {
 public:
  std::string action;      ///< the Action for this call (wins over operation() and contract)
  std::string message_id;  ///< the MessageID to send; "" = a fresh one
  /// The Action the response must have (wins over operation() and the contract); "" = theirs.
  std::string response_action;
  /// `base` made to use this object: the response's header entries are read into it, and an
  /// HTTP 202 Accepted answer (the reply goes to a non-anonymous ReplyTo, or nowhere for
  /// ReplyTo none) ends the call cleanly, with accepted() true and the response untouched.
  lather::call_options options(lather::call_options base = {});
  /// The peer answered 202 Accepted: the request was taken and its reply, if any, is sent
  /// to the ReplyTo address, not on this connection (response() is then empty).
  bool accepted() const noexcept { return accepted_; }
  /// The MessageID sent.
  const std::string& sent_message_id() const noexcept { return sent_; }
  /// The WS-Addressing headers of the response (or fault), and the reference parameters it
  /// carried.
  const headers& response() const noexcept { return response_; }
  /// The response says it answers the request sent (RelatesTo reply = the MessageID sent).
  bool correlated() const noexcept {
    return !sent_.empty() && response_.reply_to_message() == sent_;
  }

 private:
  friend struct call_access;
  std::string sent_;
  headers response_;
  bool accepted_ = false;
};

/// WS-Addressing for one peer (one lather::client). Copies share their state.
class client_addressing {
 public:
  explicit client_addressing(client_policy endpoint = {});
  /// The Action of one operation and, when not empty, the Action its response must have
  /// (instead of the contract's). Set before install().
  client_addressing& operation(std::string name, std::string action,
                               std::string response_action = {});
  /// Add the interceptor that writes the headers and understands the response's (once per
  /// client).
  void install(lather::client& c) const;

 private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

}  // namespace lather::wsa
