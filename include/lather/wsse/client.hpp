// lather/wsse/client.hpp — WS-Security on lather::client: a Security header on every call.
//
//   lather::wsse::client_security sec{{.token = lather::wsse::username_token{"admin", "pw"}}};
//   sec.operation("GetSystemDateAndTime", {});   // this one goes out without a Security header
//   sec.install(client);                         // keep `sec` or not: the client shares its state
//   ...
//   // a device whose clock is off (ONVIF): ask it its time, then sign with its clock
//   auto sent = std::chrono::system_clock::now();
//   auto t = device.call<GetSystemDateAndTimeResponse>("GetSystemDateAndTime", {});
//   auto received = std::chrono::system_clock::now();
//   sec.set_clock_offset(lather::wsse::clock_offset(lather::wsse::utc_time(y, mo, d, h, mi, s),
//                                                   sent, received));
//
// Each message gets a fresh 16-byte Nonce from OpenSSL's RAND_bytes, Created is this machine's
// UTC time plus the peer's clock offset, with milliseconds ("2024-05-01T12:00:00.123Z"), and
// the PasswordDigest is Base64(SHA-1(nonce + created + password)) over exactly the Created
// text and nonce bytes that are written.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lather/bind/xsd.hpp"
#include "lather/service/client.hpp"
#include "lather/wsse/fault.hpp"
#include "lather/wsse/signature.hpp"

namespace lather::wsse {

enum class password_type { text, digest };

/// A UsernameToken (WSS UsernameToken Profile 1.1).
struct username_token {
  std::string username;
  std::string password;
  password_type type = password_type::digest;
  bool nonce = true;    ///< send a fresh random Nonce (part of the digest)
  bool created = true;  ///< send wsu:Created (part of the digest)
};

/// What each response's signature must cover, and who may make it (the client then reads
/// each response whole before it is bound). A fault is not required to be signed.
struct response_verification {
  trust_store trusted;    ///< certificates trusted to sign responses
  bool timestamp = true;  ///< the Security header's Timestamp must be signed and current
  std::vector<soap::qname> signed_headers{};  ///< header entries that must be signed too
  std::chrono::seconds max_skew{300};         ///< how far the Timestamp may be off our clock
};

/// What goes into the Security header of a call. Nothing set: no Security header.
struct client_policy {
  std::optional<username_token> token{};
  bool timestamp = false;                   ///< send wsu:Timestamp (Created, Expires)
  std::chrono::seconds timestamp_ttl{300};  ///< Expires = Created + timestamp_ttl
  bool must_understand = true;              ///< mustUnderstand on the Security header
  /// Sign the request (the client then sends each request whole, not streamed).
  std::optional<signing> sign{};
  /// Verify each response's signature (the Body always; failures throw soap::fault_error with
  /// a WS-Security code, as the server's checks do).
  std::optional<response_verification> verify_response{};
};

/// WS-Security for one peer (one lather::client): a policy for the endpoint, optional
/// policies per operation, and the peer's clock offset. Copies share their state.
class client_security {
 public:
  explicit client_security(client_policy endpoint = {});
  /// The policy of one operation (instead of the endpoint's). Set before install().
  client_security& operation(std::string name, client_policy policy);
  /// peer clock - this machine's clock, added to every Created/Expires sent (any time, from
  /// any thread).
  void set_clock_offset(std::chrono::milliseconds offset) noexcept;
  std::chrono::milliseconds clock_offset() const noexcept;
  /// Add the interceptor that writes the Security header to `c` (once per client).
  void install(lather::client& c) const;
  /// Write the Security header `policy` asks for (what install()'s interceptor does).
  void write_header(xml::writer& w, soap::version v, const client_policy& policy) const;
  /// Check a response envelope as install()'s interceptor does for `verify_response`: throws
  /// soap::fault_error with a WS-Security code if it does not verify or is not current.
  void verify(const response_verification& want, std::string_view envelope) const;
  /// The same for an MTOM response whose parts `parts` gives (over its XOP infoset).
  void verify(const response_verification& want, std::string_view envelope,
              const xop_parts& parts) const;

 private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

using time_point = std::chrono::system_clock::time_point;

/// The clock offset of a peer (peer - local) from the time it reported (ONVIF
/// GetSystemDateAndTime's UTCDateTime) and when this machine sent the request and received
/// the answer: the peer is assumed to have read its clock halfway between.
std::chrono::milliseconds clock_offset(time_point peer_utc, time_point sent, time_point received);
/// A UTC time from calendar fields (ONVIF's UTCDateTime: Date Year/Month/Day, Time
/// Hour/Minute/Second).
time_point utc_time(int year, unsigned month, unsigned day, unsigned hour, unsigned minute,
                    unsigned second);
/// An xsd:dateTime as a time point (no timezone = UTC); nullopt if it is not one.
std::optional<time_point> parse_time(std::string_view xsd_date_time);
/// `t` as xsd:dateTime in UTC with milliseconds ("2024-05-01T12:00:00.123Z", 24 characters)
/// written into `out`; returns the text.
std::string_view format_time(time_point t, std::span<char, 24> out) noexcept;

/// Base64(SHA-1(nonce + created + password)): the UsernameToken PasswordDigest.
std::string password_digest(std::span<const std::uint8_t> nonce, std::string_view created,
                            std::string_view password);

}  // namespace lather::wsse
