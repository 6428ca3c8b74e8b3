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
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

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
  /// (InvalidAddressingHeader / OnlyAnonymousAddressSupported otherwise).
  bool anonymous_only = true;
  /// mustUnderstand on the Action of the response.
  bool must_understand = false;
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
