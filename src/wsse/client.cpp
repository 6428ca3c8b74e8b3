// The client side: the Security header written into each request by an interceptor.
#include <algorithm>
#include <array>
#include <atomic>
#include <utility>
#include <vector>

#include "crypto.hpp"
#include "header.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/wsse/client.hpp"
#include "lather/xml/writer.hpp"

namespace lather::wsse {

struct client_security::impl {
  client_policy endpoint;
  std::vector<std::pair<std::string, client_policy>> operations;
  std::atomic<std::int64_t> offset_ms{0};

  const client_policy& policy_for(std::string_view operation) const noexcept {
    for (const auto& [name, p] : operations)
      if (name == operation) return p;
    return endpoint;
  }
};

client_security::client_security(client_policy endpoint) : impl_(std::make_shared<impl>()) {
  impl_->endpoint = std::move(endpoint);
}

client_security& client_security::operation(std::string name, client_policy policy) {
  impl_->operations.emplace_back(std::move(name), std::move(policy));
  return *this;
}

void client_security::set_clock_offset(std::chrono::milliseconds offset) noexcept {
  impl_->offset_ms.store(offset.count(), std::memory_order_relaxed);
}

std::chrono::milliseconds client_security::clock_offset() const noexcept {
  return std::chrono::milliseconds{impl_->offset_ms.load(std::memory_order_relaxed)};
}

void client_security::install(lather::client& c) const {
  const soap::version v = c.options().version;
  bool signs = impl_->endpoint.sign.has_value();
  bool verifies = impl_->endpoint.verify_response.has_value();
  for (const auto& [name, p] : impl_->operations) {
    signs |= p.sign.has_value();
    verifies |= p.verify_response.has_value();
  }
  c.intercept({.write_headers =
                   [self = *this, v](std::string_view operation, xml::writer& w) {
                     self.write_header(w, v, self.impl_->policy_for(operation));
                   },
               .after = {},
               .whole_request = {}});
  if (signs)
    c.intercept(
        {.write_headers = {},
         .after = {},
         .whole_request = [self = *this](std::string_view operation, std::string& envelope) {
           const client_policy& p = self.impl_->policy_for(operation);
           // An MTOM request (lather::mtom) is signed over its XOP infoset: the signature
           // covers the attachments' bytes.
           if (p.sign) sign_message(envelope, p.sign->key, p.sign->options);
         }});
  if (verifies)
    c.intercept(
        {.write_headers = {},
         .after = {},
         .whole_request = {},
         .write_call_headers = {},
         .read_header =
             [](std::string_view, const call_options&, const soap::header_info& h, xml::reader&) {
               // Checked whole by whole_response: mustUnderstand on it is satisfied.
               return h.is(wsse_ns, "Security") ? soap::header_use::understood
                                                : soap::header_use::not_understood;
             },
         .whole_response =
             [self = *this](std::string_view operation, std::string_view envelope,
                            const part_source& parts) {
               const client_policy& p = self.impl_->policy_for(operation);
               if (p.verify_response) self.verify(*p.verify_response, envelope, parts);
             }});
}

void client_security::verify(const response_verification& want, std::string_view envelope) const {
  verify(want, envelope, {});
}

void client_security::verify(const response_verification& want, std::string_view envelope,
                             const xop_parts& parts) const {
  thread_local verified_signature v;  // its strings' capacity kept between responses
  verify_envelope(envelope, want.trusted, v, parts);
  if (!v.body || (want.timestamp && !v.timestamp)) throw_fault(fault_code::invalid_security);
  for (const soap::qname& h : want.signed_headers)
    if (std::find(v.headers.begin(), v.headers.end(), h) == v.headers.end())
      throw_fault(fault_code::invalid_security);
  if (!want.timestamp) return;
  // Against the peer's clock, as the Created and Expires we send.
  const time_point now = std::chrono::system_clock::now() + clock_offset();
  if (v.created > now + want.max_skew ||
      (v.expires != time_point{} && v.expires + want.max_skew < now))
    throw_fault(fault_code::message_expired);
}

void client_security::write_header(xml::writer& w, soap::version v,
                                   const client_policy& policy) const {
  if (!policy.token && !policy.timestamp && !policy.sign) return;
  const time_point now = std::chrono::system_clock::now() + clock_offset();
  std::array<char, 24> created_text;
  const std::string_view created = format_time(now, created_text);

  detail::start_security(w, v, policy.must_understand);
  if (policy.timestamp) detail::write_timestamp(w, now, policy.timestamp_ttl);
  if (policy.token) {
    const username_token& t = *policy.token;
    w.start_element(wsse_ns, "UsernameToken");
    w.attribute(wsu_ns, "Id", "UsernameToken-1");
    detail::write_leaf(w, wsse_ns, "Username", t.username);
    std::array<std::uint8_t, 16> nonce;
    if (t.nonce) detail::random_bytes(nonce);
    const std::span<const std::uint8_t> nonce_sent =
        t.nonce ? std::span<const std::uint8_t>(nonce) : std::span<const std::uint8_t>{};
    const std::string_view created_sent = t.created ? created : std::string_view{};
    w.start_element(wsse_ns, "Password");
    if (t.type == password_type::digest) {
      w.attribute({}, "Type", password_digest_uri);
      // Over exactly the nonce bytes and the Created text written below.
      std::array<char, 28> digest;
      w.text(detail::password_digest_text(nonce_sent, created_sent, t.password, digest));
    } else {
      w.attribute({}, "Type", password_text_uri);
      w.text(t.password);
    }
    w.end_element();
    if (t.nonce) {
      std::array<char, 24> encoded;
      w.start_element(wsse_ns, "Nonce");
      w.attribute({}, "EncodingType", base64_encoding_uri);
      w.text(detail::base64(nonce, encoded));
      w.end_element();
    }
    if (t.created) detail::write_leaf(w, wsu_ns, "Created", created_sent);
    w.end_element();
  }
  w.end_element();
}

}  // namespace lather::wsse
