// The server side: the Security header is read while the envelope streams by (the operation is
// not known yet), and checked against the operation's policy in an interceptor's `before`.
#include "lather/wsse/server.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <utility>
#include <vector>

#include "crypto.hpp"
#include "header.hpp"
#include "lather/wsse/client.hpp"
#include "lather/xml/reader.hpp"
#include "read.hpp"
#include "replay_cache.hpp"

namespace lather::wsse {

namespace {

using std::chrono::milliseconds;
using clock = std::chrono::system_clock;

/// Longest token field accepted (username, password, nonce, times): real ones are far shorter,
/// and nothing of an attacker's choosing is kept beyond this.
constexpr std::size_t max_field = 1024;

/// What the Security header of one call said (reused across calls: strings keep capacity).
struct security_state final : call_state {
  bool seen = false;  // a Security header targeted at us was read
  bool has_token = false, has_password = false, has_nonce = false, has_created = false;
  bool has_timestamp = false, has_expires = false;
  password_type type = password_type::text;
  std::string username, password, nonce_text, created;
  clock::time_point created_at, ts_created_at, ts_expires_at;
  std::vector<std::uint8_t> nonce;
  std::string scratch;                 // a time's text
  std::vector<std::uint8_t> received;  // the digest received
  bool authenticated = false;
  // The signature, verified on the whole request before dispatch: what it covers, or why it
  // failed (thrown only if the operation's policy asks for a signature).
  verified_signature verified;
  bool signature_verified = false;
  std::exception_ptr signature_error;

  void clear() override {
    seen = has_token = has_password = has_nonce = has_created = false;
    has_timestamp = has_expires = authenticated = false;
    type = password_type::text;
    username.clear();
    password.clear();
    nonce_text.clear();
    created.clear();
    nonce.clear();
    // verified.headers is left as it is (its strings keep their capacity): it means something
    // only once verify_envelope has filled it, which sets `verified` true.
    verified.body = verified.timestamp = false;
    verified.subject.clear();
    signature_verified = false;
    signature_error = nullptr;
  }
};

/// The key of every server_security's per-call state (one per service).
constinit const char state_key = 0;

void read_text(xml::reader& r, std::string& out) {
  detail::read_text(r, out, max_field);
}

clock::time_point read_time(xml::reader& r, std::string& text) {
  read_text(r, text);
  const auto t = parse_time(text);
  if (!t) throw_fault(fault_code::invalid_security_token);
  return *t;
}

using detail::for_each_child;

void read_username_token(xml::reader& r, security_state& s) {
  if (s.has_token) throw_fault(fault_code::invalid_security);  // one token per message
  s.has_token = true;
  for_each_child(r, [&] {
    if (r.is(wsse_ns, "Username")) {
      read_text(r, s.username);
    } else if (r.is(wsse_ns, "Password")) {
      if (s.has_password) throw_fault(fault_code::invalid_security_token);
      s.has_password = true;
      const xml::attribute* type = r.find_attribute({}, "Type");
      // No Type is PasswordText (UsernameToken Profile 1.1, section 3.1); the QName forms
      // of the draft profile ("wsse:PasswordDigest") are still sent by old stacks.
      const std::string_view t = type ? type->value : password_text_uri;
      if (t.ends_with("#PasswordDigest") || t.ends_with(":PasswordDigest"))
        s.type = password_type::digest;
      else if (t.ends_with("#PasswordText") || t.ends_with(":PasswordText"))
        s.type = password_type::text;
      else
        throw_fault(fault_code::unsupported_security_token);
      read_text(r, s.password);
    } else if (r.is(wsse_ns, "Nonce")) {
      if (s.has_nonce) throw_fault(fault_code::invalid_security_token);
      s.has_nonce = true;
      const xml::attribute* enc = r.find_attribute({}, "EncodingType");
      if (enc && enc->value != base64_encoding_uri)
        throw_fault(fault_code::unsupported_security_token);
      read_text(r, s.nonce_text);
      if (xsd::base64_decode(s.nonce_text, s.nonce) != bind::errc::ok || s.nonce.empty())
        throw_fault(fault_code::invalid_security_token);
    } else if (r.is(wsu_ns, "Created") || r.is(wsse_ns, "Created")) {
      // wsse:Created: the draft profile's name, still sent by some devices.
      if (s.has_created) throw_fault(fault_code::invalid_security_token);
      s.has_created = true;
      s.created_at = read_time(r, s.created);
    } else {
      r.skip_element();
    }
  });
  if (s.username.empty()) throw_fault(fault_code::invalid_security_token);
}

void read_timestamp(xml::reader& r, security_state& s) {
  if (s.has_timestamp) throw_fault(fault_code::invalid_security);  // one per header (WSS 10.)
  s.has_timestamp = true;
  bool has_created = false;
  for_each_child(r, [&] {
    if (r.is(wsu_ns, "Created") && !has_created) {
      has_created = true;
      s.ts_created_at = read_time(r, s.scratch);
    } else if (r.is(wsu_ns, "Expires") && !s.has_expires) {
      s.has_expires = true;
      s.ts_expires_at = read_time(r, s.scratch);
    } else {
      throw_fault(fault_code::invalid_security);
    }
  });
  if (!has_created) throw_fault(fault_code::invalid_security);
}

void read_security(xml::reader& r, security_state& s) {
  if (s.seen) throw_fault(fault_code::invalid_security);  // two headers for this node
  s.seen = true;
  for_each_child(r, [&] {
    if (r.is(wsse_ns, "UsernameToken"))
      read_username_token(r, s);
    else if (r.is(wsu_ns, "Timestamp"))
      read_timestamp(r, s);
    else
      r.skip_element();
  });
}

}  // namespace

struct server_security::impl {
  password_lookup lookup;
  server_policy endpoint;
  std::vector<std::pair<std::string, server_policy>> operations;
  std::atomic<std::int64_t> skew_ms{300'000}, ttl_ms{300'000};
  detail::replay_cache replay{100'000};
  trust_store trusted;

  template <class Member>
  bool any(Member member) const noexcept {
    bool found = static_cast<bool>(endpoint.*member);
    for (const auto& [name, p] : operations) found |= static_cast<bool>(p.*member);
    return found;
  }

  // A response to be signed carries a Security header with a Timestamp (signed with the Body).
  void add_response_security(call_context& ctx) {
    if (!policy_for(ctx.operation()).sign_response) return;
    ctx.add_response_header([self = this, v = ctx.version()](xml::writer& w) {
      detail::start_security(w, v, false);
      detail::write_timestamp(w, clock::now(), milliseconds{self->ttl_ms.load()});
      w.end_element();
    });
  }

  void sign_response(call_context& ctx, std::string& envelope) const {
    const server_policy& p = policy_for(ctx.operation());
    // An MTOM response (lather::mtom) is signed over its XOP infoset: the signature covers
    // the attachments' bytes.
    if (p.sign_response) sign_message(envelope, p.sign_response->key, p.sign_response->options);
  }

  void verify_signature(call_context& ctx, std::string_view envelope) {
    security_state& s = ctx.state<security_state>(&state_key);
    try {
      // An MTOM request is verified over its XOP infoset: the parts its signed xop:Includes
      // name are read here (kept for the handler, memory or temporary file), before dispatch.
      const xop_parts parts = [&ctx](std::string_view id) { return ctx.request_part(id); };
      verify_envelope(envelope, trusted, s.verified, parts);
      s.signature_verified = true;
    } catch (...) {
      s.signature_error = std::current_exception();
    }
  }

  static void check_signature(const server_policy& policy, const security_state& s) {
    if (s.signature_error) std::rethrow_exception(s.signature_error);
    if (!s.signature_verified || !s.verified.body || (policy.timestamp && !s.verified.timestamp))
      throw_fault(fault_code::invalid_security);
    for (const soap::qname& h : policy.signed_headers)
      if (std::find(s.verified.headers.begin(), s.verified.headers.end(), h) ==
          s.verified.headers.end())
        throw_fault(fault_code::invalid_security);
  }

  const server_policy& policy_for(std::string_view operation) const noexcept {
    for (const auto& [name, p] : operations)
      if (name == operation) return p;
    return endpoint;
  }

  void check(call_context& ctx) {
    const server_policy& policy = policy_for(ctx.operation());
    if (!policy.requires_anything()) return;
    security_state& s = ctx.state<security_state>(&state_key);
    if (!s.seen) throw_fault(fault_code::invalid_security);
    if (policy.signature) check_signature(policy, s);
    const clock::time_point now = clock::now();
    const milliseconds skew{skew_ms.load(std::memory_order_relaxed)};
    const milliseconds ttl{ttl_ms.load(std::memory_order_relaxed)};
    auto check_fresh = [&](clock::time_point created) {
      if (created > now + skew || created + ttl + skew < now)
        throw_fault(fault_code::message_expired);
    };
    if (policy.timestamp && !s.has_timestamp) throw_fault(fault_code::invalid_security);
    if (s.has_timestamp) {
      check_fresh(s.ts_created_at);
      if (s.has_expires && s.ts_expires_at + skew < now) throw_fault(fault_code::message_expired);
    }
    if (policy.username_token && !s.has_token) throw_fault(fault_code::invalid_security);
    if (s.has_token) verify_token(policy, s, now, skew, ttl, check_fresh);
  }

  template <class CheckFresh>
  void verify_token(const server_policy& policy, security_state& s, clock::time_point now,
                    milliseconds skew, milliseconds ttl, CheckFresh& check_fresh) {
    if (!s.has_password) throw_fault(fault_code::unsupported_security_token);
    const bool digest = s.type == password_type::digest;
    if (digest ? !policy.allow_digest : !policy.allow_text)
      throw_fault(fault_code::unsupported_security_token);
    if (digest &&
        ((policy.require_nonce && !s.has_nonce) || (policy.require_created && !s.has_created)))
      throw_fault(fault_code::invalid_security_token);
    if (s.has_created) check_fresh(s.created_at);

    const std::optional<std::string> expected = lookup(s.username);
    bool ok = false;
    if (expected) {
      if (digest) {
        // Over the Created text as received, not as re-formatted.
        const detail::sha1_digest want =
            detail::sha1({s.nonce, detail::bytes(s.created), detail::bytes(*expected)});
        ok = xsd::base64_decode(s.password, s.received) == bind::errc::ok &&
             detail::equal_secret(s.received, want);
      } else {
        // Hashes of equal length, compared in constant time.
        ok = detail::equal_secret(detail::sha256({detail::bytes(s.password)}),
                                  detail::sha256({detail::bytes(*expected)}));
      }
    }
    if (!ok) throw_fault(fault_code::failed_authentication);

    if (s.has_nonce) {
      // Remembered until the Created it came with is stale anyway.
      const clock::time_point born = s.has_created ? s.created_at : now;
      const detail::sha256_digest h = detail::sha256(
          {s.nonce, detail::bytes(std::string_view("\0", 1)), detail::bytes(s.created)});
      detail::replay_cache::key k;
      std::copy_n(h.begin(), k.size(), k.begin());
      if (!replay.insert(k, now, std::max(born, now) + ttl + 2 * skew))
        throw_fault(fault_code::invalid_security);
    }
    s.authenticated = true;
  }
};

server_security::server_security(password_lookup lookup, server_policy endpoint)
    : impl_(std::make_unique<impl>()) {
  impl_->lookup = std::move(lookup);
  impl_->endpoint = endpoint;
}

server_security::~server_security() = default;

server_security& server_security::operation(std::string name, server_policy policy) {
  impl_->operations.emplace_back(std::move(name), policy);
  return *this;
}

void server_security::install(service& svc) {
  svc.header(std::string(wsse_ns), "Security", [](call_context& ctx, xml::reader& r) {
    read_security(r, ctx.state<security_state>(&state_key));
  });
  svc.intercept({.before =
                     [self = impl_.get()](call_context& ctx) {
                       self->check(ctx);
                       self->add_response_security(ctx);
                     },
                 .after = {},
                 .whole_request = {}});
  if (impl_->any(&server_policy::sign_response))
    svc.intercept({.before = {},
                   .after = {},
                   .whole_request = {},
                   .fault_headers = {},
                   .whole_response = [self = impl_.get()](call_context& ctx, std::string& e) {
                     self->sign_response(ctx, e);
                   }});
  if (impl_->any(&server_policy::signature))
    svc.intercept({.before = {},
                   .after = {},
                   .whole_request = [self = impl_.get()](call_context& ctx, std::string_view e) {
                     self->verify_signature(ctx, e);
                   }});
}

void server_security::set_max_skew(std::chrono::milliseconds skew) noexcept {
  impl_->skew_ms.store(skew.count(), std::memory_order_relaxed);
}

void server_security::set_ttl(std::chrono::milliseconds ttl) noexcept {
  impl_->ttl_ms.store(ttl.count(), std::memory_order_relaxed);
}

void server_security::set_replay_capacity(std::size_t entries) {
  impl_->replay.set_capacity(entries);
}

std::size_t server_security::replay_entries() const {
  return impl_->replay.size();
}

void server_security::set_trust_store(trust_store trusted) {
  impl_->trusted = std::move(trusted);
}

std::string_view server_security::signer(call_context& ctx) {
  const security_state& s = ctx.state<security_state>(&state_key);
  return s.verified.subject;
}

std::string_view server_security::user(call_context& ctx) {
  const security_state& s = ctx.state<security_state>(&state_key);
  return s.authenticated ? std::string_view(s.username) : std::string_view{};
}

}  // namespace lather::wsse
