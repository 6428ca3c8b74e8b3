// lather/wsa/server.hpp — WS-Addressing on a lather::service: the request's headers read and
// checked, the response's written (Action, MessageID, RelatesTo, the ReplyTo's reference
// parameters), the WS-Addressing faults.
//
//   lather::wsa::server_addressing wsa{{.required = true}};
//   wsa.operation("GetSystemDateAndTime", {});            // addressing optional here
//   wsa.reference_parameter("urn:sub", "SubscriptionId");   // a parameter our EPRs hand out
//   wsa.install(svc);                                       // after the operations
//   ... in a handler taking call_context& ctx:
//   auto id = lather::wsa::server_addressing::reference_parameter(ctx, "urn:sub",
//                                                                 "SubscriptionId");
//   if (!id || !known(*id)) lather::wsa::server_addressing::fail(
//       ctx, lather::wsa::fault_kind::destination_unreachable);
//
// A request is answered in the WS-Addressing version it used; a request without any
// WS-Addressing header (where none is required) gets a response without any.
//
// Replies to a third address (non-anonymous ReplyTo/FaultTo, WS-Addressing 1.0 SOAP Binding
// 5.1.2) where a policy sets anonymous_only = false: the HTTP request is answered 202
// Accepted at once and the response (a fault: to FaultTo, else ReplyTo) is POSTed to that
// address from a bounded queue (reply_delivery), with To, RelatesTo and the EPR's reference
// parameters. A fault raised before the operation is known still goes back on the HTTP
// response.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "lather/http/client.hpp"
#include "lather/service/service.hpp"
#include "lather/wsa/addressing.hpp"
#include "lather/wsa/fault.hpp"

namespace lather::wsa {

struct server_policy {
  /// Require Action, and MessageID where a reply is expected (MessageAddressingHeaderRequired
  /// otherwise).
  bool required = false;
  /// The Action must be the operation's (ActionNotSupported), and a SOAPAction that is not
  /// empty must equal it (InvalidAddressingHeader / ActionMismatch).
  bool check_action = true;
  /// ReplyTo and FaultTo must be anonymous: replies go back on the HTTP response
  /// (InvalidAddressingHeader / OnlyAnonymousAddressSupported otherwise). false: a
  /// non-anonymous http(s) address is answered there (reply_delivery).
  bool anonymous_only = true;
  /// mustUnderstand on the Action of the response.
  bool must_understand = false;
};

/// How replies to non-anonymous addresses are sent (server_policy::anonymous_only = false).
struct reply_delivery {
  /// Replies queued or being sent at most. A request that would exceed it is answered on the
  /// HTTP response with EndpointUnavailable (before its handler runs).
  std::size_t queue_limit = 64;
  /// Each delivery POST (connect included); a reply not delivered by then is dropped.
  std::chrono::milliseconds timeout{10'000};
  /// The addresses replies may go to. Unset: any http:// or https:// address, which lets any
  /// caller make the service POST to any host it can reach: set it where callers are not
  /// trusted. An address refused is InvalidAddressingHeader / InvalidAddress.
  std::function<bool(std::string_view address)> accept{};
  /// Told of each reply that could not be delivered (the caller got its 202 already).
  std::function<void(std::string_view address, std::string_view error)> on_failure{};
  /// The HTTP client's options (TLS trust for https:// ReplyTo addresses, ...); its timeouts
  /// are capped at `timeout`.
  http::client_options client{};
};

/// The MessageIDs a service remembers to refuse a message received twice (a replay, or a
/// client that resends): InvalidAddressingHeader / DuplicateMessageID (WS-Addressing 1.0 SOAP
/// Binding 6.4.1). Bounded: the last `capacity` MessageIDs accepted, each for at most `window`.
/// The memory is per server_addressing (one process), fixed at `capacity` x 16 bytes plus a
/// table of 2 x capacity x 8 bytes; a request costs one hash and a lookup under a mutex.
struct message_id_memory {
  std::size_t capacity = 0;  ///< 0: off (the default)
  std::chrono::seconds window{300};
};

/// Counts of replies sent to non-anonymous addresses.
struct delivery_stats {
  std::uint64_t delivered = 0;  ///< answered 2xx by the reply endpoint
  std::uint64_t failed = 0;     ///< not delivered (refused, unreachable, timed out, not 2xx)
  std::uint64_t refused = 0;    ///< requests answered EndpointUnavailable: the queue was full
};

/// The Actions of one operation: the request's and the response's. Empty: from the
/// operation's operation_options (action, response_action; generated services fill them from
/// the contract), else the request's SOAPAction and, for the response, the request's Action
/// followed by "Response".
struct operation_actions {
  std::string request, response;
};

class server_addressing {
 public:
  explicit server_addressing(server_policy endpoint = {});
  ~server_addressing();
  server_addressing(const server_addressing&) = delete;
  server_addressing& operator=(const server_addressing&) = delete;

  /// The policy of one operation (instead of the endpoint's). Set before install().
  server_addressing& operation(std::string name, server_policy policy);
  /// The Actions of one operation (instead of its operation_options'). Before install().
  server_addressing& actions(std::string operation, operation_actions a);
  /// The To values accepted besides anonymous (the endpoint's public addresses); none set:
  /// any. Another To is DestinationUnreachable. Before install().
  server_addressing& destination(std::string address);
  /// Understand the header {ns}local, a reference parameter of the endpoint references this
  /// service hands out: it is read into request(ctx).reference_parameters. Before install().
  server_addressing& reference_parameter(std::string ns, std::string local);
  /// Refuse a MessageID seen before (off unless called with a capacity). Before install().
  server_addressing& remember_message_ids(message_id_memory m);
  /// How replies to non-anonymous addresses are delivered (defaults otherwise). Before
  /// install().
  server_addressing& deliver_replies(reply_delivery d);
  /// What was delivered so far.
  delivery_stats replies() const;
  /// Wait until every reply queued so far was delivered or failed (e.g. before shutting
  /// down: replies still queued when this object is destroyed are dropped); false if
  /// `timeout` passed first.
  bool drain_replies(std::chrono::milliseconds timeout);
  /// Register the headers and the checks with `svc` (once; after its operations; it must
  /// outlive the service's calls).
  void install(service& svc);

  /// The WS-Addressing headers of this call's request.
  static const headers& request(call_context& ctx);
  /// The text of the reference parameter {ns}local this call's request carried, nullopt if
  /// none.
  static std::optional<std::string> reference_parameter(call_context& ctx, std::string_view ns,
                                                        std::string_view local);
  /// Throw a WS-Addressing fault in the version of this call's request.
  [[noreturn]] static void fail(call_context& ctx, fault_kind k,
                                invalid_reason reason = invalid_reason::none,
                                const problem& p = {});

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace lather::wsa
