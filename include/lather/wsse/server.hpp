// lather/wsse/server.hpp — WS-Security on a lather::service: the Security header checked per
// endpoint and per operation before the handler runs.
//
//   lather::wsse::server_security sec{[](std::string_view user) -> std::optional<std::string> {
//     if (user == "admin") return "secret";                 // the password, for the digest
//     return std::nullopt;
//   }, {.username_token = true}};
//   sec.operation("GetSystemDateAndTime", {});                // open to anyone (ONVIF)
//   sec.install(svc);                                        // before the server starts
//   sec.set_max_skew(std::chrono::seconds(30));              // at any time
//   ... in a handler: lather::wsse::server_security::user(ctx) is the authenticated user.
//
// Failures are SOAP faults with a WS-Security code and the spec's reason, nothing more
// (lather/wsse/fault.hpp); docs/wsse.md lists which check gives which code.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lather/service/service.hpp"
#include "lather/wsse/fault.hpp"
#include "lather/wsse/signature.hpp"

namespace lather::wsse {

/// What a call must carry. All false: nothing is checked and a Security header, if any, is
/// ignored (ONVIF's GetSystemDateAndTime must answer a client whose clock is off).
struct server_policy {
  bool username_token = false;  ///< require a UsernameToken (any token present is verified)
  bool allow_text = true;       ///< accept PasswordText (use it over TLS only)
  bool allow_digest = true;     ///< accept PasswordDigest
  bool require_nonce = true;    ///< a digest must carry a Nonce (replay protection)
  bool require_created = true;  ///< a digest must carry a Created (freshness)
  bool timestamp = false;       ///< require wsu:Timestamp (signed, if a signature is required)
  /// Require an X.509 signature (trusted by set_trust_store) covering the Body; the service
  /// then reads each request whole before processing it.
  bool signature = false;
  /// Header entries the signature must cover too, {namespace, local name}.
  std::vector<soap::qname> signed_headers{};
  /// Sign each response (not faults): a Security header with a wsu:Timestamp (Expires =
  /// Created + the TTL) goes into the response, which is then buffered whole and signed with
  /// `sign_response->options` (the Body and that Timestamp by default).
  std::optional<signing> sign_response{};
  bool requires_anything() const noexcept { return username_token || timestamp || signature; }
};

/// The password of a user (for PasswordText and PasswordDigest alike), nullopt for an unknown
/// user. Called from the server's worker threads, concurrently.
using password_lookup = std::function<std::optional<std::string>(std::string_view username)>;

class server_security {
 public:
  explicit server_security(password_lookup lookup, server_policy endpoint = {});
  ~server_security();
  server_security(const server_security&) = delete;
  server_security& operator=(const server_security&) = delete;

  /// The policy of one operation (instead of the endpoint's). Set before install().
  server_security& operation(std::string name, server_policy policy);
  /// Register the Security header and the check with `svc` (once; one server_security per
  /// service; it must outlive the service's calls).
  void install(service& svc);

  /// Settings that may change while the server runs (from any thread).
  /// How far a Created or Expires may be from this server's clock (default 5 minutes).
  void set_max_skew(std::chrono::milliseconds skew) noexcept;
  /// How old a Created may be (default 5 minutes; plus the skew).
  void set_ttl(std::chrono::milliseconds ttl) noexcept;
  /// Nonces remembered (default 100,000): within ttl + skew a nonce+Created seen before is a
  /// replay. Size it for the highest message rate times (ttl + 2 skew); past it the oldest
  /// entry is dropped.
  void set_replay_capacity(std::size_t entries);
  /// Entries in the replay cache now (for tests and metrics).
  std::size_t replay_entries() const;

  /// Certificates trusted to sign requests (before install()).
  void set_trust_store(trust_store trusted);

  /// The user a UsernameToken authenticated for this call, "" if none.
  static std::string_view user(call_context& ctx);
  /// The subject (RFC 2253) of the certificate whose signature verified for this call, "" if
  /// none.
  static std::string_view signer(call_context& ctx);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace lather::wsse
