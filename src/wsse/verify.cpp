// Verifying: one pass indexes the message (Ids unique, which element is the Body, the
// Timestamp, the header entries, where the one Signature is), one reads the Security header,
// one canonicalizes SignedInfo and every referenced element; then digests, trust, signature.
#include <openssl/evp.h>
#include <openssl/x509_vfy.h>

#include <map>
#include <optional>

#include "crypto.hpp"
#include "dsig.hpp"
#include "lather/bind/xsd.hpp"
#include "lather/soap/version.hpp"
#include "lather/wsse/client.hpp"
#include "lather/wsse/signature.hpp"
#include "lather/xml/error.hpp"
#include "read.hpp"
#include "x509.hpp"

namespace lather::wsse {

namespace {

using namespace detail;

constexpr std::size_t max_text = 64 * 1024;  // a certificate in base64 fits many times
/// References in one SignedInfo: canonicalizing costs (references x elements), so a message
/// with thousands of them is refused instead of processed; real ones have a handful.
constexpr std::size_t max_references = 64;
constexpr std::size_t max_time = 64;  // an xsd:dateTime

enum class part { other, body, timestamp, header };

struct indexed {
  part kind = part::other;
  soap::qname name;                 // of a header entry
  time_point created{}, expires{};  // of a Timestamp
};

struct message_index {
  std::map<std::string, indexed, std::less<>> ids;
  std::uint64_t security_ordinal = 0;     // the Security header holding the Signature
  std::uint64_t signed_info_ordinal = 0;  // its SignedInfo
  int signatures = 0;
};

message_index index_message(std::string_view doc) {
  message_index m;
  xml::reader r;
  r.reset(doc);
  std::uint64_t ordinal = 0, current_security = 0;
  bool in_header = false, in_security = false, in_signature = false;
  indexed* timestamp = nullptr;  // the Timestamp being read, if it has an Id
  std::string text;
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    if (t == xml::token::error) throw xml::error(r.error());
    const std::uint32_t depth = r.depth();
    if (t == xml::token::end_element) {
      if (depth == 4) in_signature = false, timestamp = nullptr;
      if (depth == 3) in_security = false;
      if (depth == 2) in_header = false;
      continue;
    }
    if (t != xml::token::start_element) continue;
    ++ordinal;
    const bool env_child = depth == 2 && soap::version_from_namespace(r.ns()).has_value();
    if (env_child && r.local_name() == "Header") in_header = !r.is_empty_element();
    if (depth == 3 && in_header && r.is(wsse_ns, "Security")) {
      in_security = !r.is_empty_element();
      current_security = ordinal;
    }
    if (depth == 4 && in_security && r.is(ds_ns, "Signature")) {
      ++m.signatures;
      m.security_ordinal = current_security;
      in_signature = !r.is_empty_element();
    }
    if (depth == 5 && in_signature && r.is(ds_ns, "SignedInfo")) m.signed_info_ordinal = ordinal;
    if (depth == 5 && timestamp && (r.is(wsu_ns, "Created") || r.is(wsu_ns, "Expires"))) {
      time_point& at = r.local_name() == "Created" ? timestamp->created : timestamp->expires;
      read_text(r, text, max_time);
      const auto parsed = parse_time(text);
      if (!parsed) throw_fault(fault_code::invalid_security_token);
      at = *parsed;
      continue;
    }
    const std::string_view id = id_of(r);
    if (id.empty()) continue;
    indexed entry;
    if (env_child && r.local_name() == "Body")
      entry.kind = part::body;
    else if (depth == 4 && in_security && r.is(wsu_ns, "Timestamp"))
      entry.kind = part::timestamp;
    else if (depth == 3 && in_header)
      entry = {part::header, {std::string(r.ns()), std::string(r.local_name()), {}}};
    // Unique Ids in the whole message: a second element with a signed Id is how signature
    // wrapping moves the signed content away from what is processed.
    const bool is_timestamp = entry.kind == part::timestamp;
    const auto [at, fresh] = m.ids.emplace(id, std::move(entry));
    if (!fresh) throw_fault(fault_code::invalid_security);
    if (is_timestamp && !r.is_empty_element()) timestamp = &at->second;
  }
  return m;
}

struct reference {
  std::string id;
  const EVP_MD* md = nullptr;
  std::vector<std::string> prefixes;
  std::vector<std::uint8_t> digest;
};

struct signature_info {
  std::vector<std::string> prefixes;  // SignedInfo's canonicalization PrefixList
  const EVP_MD* md = nullptr;
  std::vector<reference> references;
  std::vector<std::uint8_t> value;
  enum class key { none, direct, issuer_serial, ski, inline_cert } key_kind = key::none;
  std::string token_uri, issuer, serial;
  std::vector<std::uint8_t> ski;
  x509_ptr inline_cert;
  std::map<std::string, x509_ptr, std::less<>> tokens;  // BinarySecurityTokens by Id
};

std::string_view attribute(const xml::reader& r, std::string_view local) {
  const xml::attribute* a = r.find_attribute({}, local);
  return a ? a->value : std::string_view{};
}

// An exc-c14n method (CanonicalizationMethod or Transform): its PrefixList.
std::vector<std::string> read_c14n_method(xml::reader& r) {
  if (attribute(r, "Algorithm") != exc_c14n_uri) throw_fault(fault_code::unsupported_algorithm);
  std::vector<std::string> prefixes;
  for_each_child(r, [&] {
    if (r.is(exc_c14n_uri, "InclusiveNamespaces"))
      prefixes = split_prefixes(attribute(r, "PrefixList"));
    r.skip_element();
  });
  return prefixes;
}

std::vector<std::uint8_t> read_base64(xml::reader& r) {
  std::string text;
  read_text(r, text, max_text);
  std::vector<std::uint8_t> out;
  if (xsd::base64_decode(text, out) != bind::errc::ok || out.empty())
    throw_fault(fault_code::invalid_security);
  return out;
}

void read_reference(xml::reader& r, signature_info& s) {
  if (s.references.size() == max_references) throw_fault(fault_code::invalid_security);
  reference ref;
  const std::string_view uri = attribute(r, "URI");
  // Only same-document references by Id: the whole document ("") or another resource
  // cannot be what a SOAP signature covers.
  if (uri.size() < 2 || uri[0] != '#') throw_fault(fault_code::unsupported_algorithm);
  ref.id = uri.substr(1);
  int transforms = 0;
  bool has_digest = false;
  for_each_child(r, [&] {
    if (r.is(ds_ns, "Transforms")) {
      for_each_child(r, [&] {
        if (!r.is(ds_ns, "Transform") || ++transforms > 1)
          throw_fault(fault_code::unsupported_algorithm);
        ref.prefixes = read_c14n_method(r);
      });
    } else if (r.is(ds_ns, "DigestMethod")) {
      const std::string_view alg = attribute(r, "Algorithm");
      ref.md = alg == sha256_uri ? EVP_sha256() : alg == sha1_uri ? EVP_sha1() : nullptr;
      if (!ref.md) throw_fault(fault_code::unsupported_algorithm);
      r.skip_element();
    } else if (r.is(ds_ns, "DigestValue")) {
      ref.digest = read_base64(r);
      has_digest = true;
    } else {
      throw_fault(fault_code::invalid_security);
    }
  });
  if (transforms != 1 || !ref.md || !has_digest) throw_fault(fault_code::invalid_security);
  s.references.push_back(std::move(ref));
}

void read_signed_info(xml::reader& r, signature_info& s) {
  bool has_c14n = false;
  for_each_child(r, [&] {
    if (r.is(ds_ns, "CanonicalizationMethod")) {
      s.prefixes = read_c14n_method(r);
      has_c14n = true;
    } else if (r.is(ds_ns, "SignatureMethod")) {
      const std::string_view alg = attribute(r, "Algorithm");
      s.md = alg == rsa_sha256_uri ? EVP_sha256() : alg == rsa_sha1_uri ? EVP_sha1() : nullptr;
      if (!s.md) throw_fault(fault_code::unsupported_algorithm);
      r.skip_element();
    } else if (r.is(ds_ns, "Reference")) {
      read_reference(r, s);
    } else {
      throw_fault(fault_code::invalid_security);
    }
  });
  if (!has_c14n || !s.md || s.references.empty()) throw_fault(fault_code::invalid_security);
}

void read_x509_data(xml::reader& r, signature_info& s) {
  for_each_child(r, [&] {
    if (r.is(ds_ns, "X509IssuerSerial")) {
      s.key_kind = signature_info::key::issuer_serial;
      for_each_child(r, [&] {
        if (r.is(ds_ns, "X509IssuerName"))
          read_text(r, s.issuer, max_text);
        else if (r.is(ds_ns, "X509SerialNumber"))
          read_text(r, s.serial, max_text);
        else
          r.skip_element();
      });
    } else if (r.is(ds_ns, "X509Certificate")) {
      s.inline_cert = read_der_certificate(read_base64(r));
      if (!s.inline_cert) throw_fault(fault_code::invalid_security_token);
      s.key_kind = signature_info::key::inline_cert;
    } else if (r.is(ds_ns, "X509SKI")) {
      s.ski = read_base64(r);
      s.key_kind = signature_info::key::ski;
    } else {
      r.skip_element();
    }
  });
}

void read_key_info(xml::reader& r, signature_info& s) {
  for_each_child(r, [&] {
    if (r.is(ds_ns, "X509Data")) {
      read_x509_data(r, s);
    } else if (r.is(wsse_ns, "SecurityTokenReference")) {
      for_each_child(r, [&] {
        if (r.is(wsse_ns, "Reference")) {
          const std::string_view uri = attribute(r, "URI");
          if (uri.size() < 2 || uri[0] != '#') throw_fault(fault_code::security_token_unavailable);
          s.token_uri = uri.substr(1);
          s.key_kind = signature_info::key::direct;
          r.skip_element();
        } else if (r.is(wsse_ns, "KeyIdentifier")) {
          if (attribute(r, "ValueType") != ski_uri)
            throw_fault(fault_code::unsupported_security_token);
          s.ski = read_base64(r);
          s.key_kind = signature_info::key::ski;
        } else if (r.is(ds_ns, "X509Data")) {
          read_x509_data(r, s);
        } else {
          throw_fault(fault_code::unsupported_security_token);
        }
      });
    } else {
      r.skip_element();
    }
  });
}

void read_signature(xml::reader& r, signature_info& s) {
  bool has_info = false, has_value = false;
  for_each_child(r, [&] {
    if (r.is(ds_ns, "SignedInfo")) {
      read_signed_info(r, s);
      has_info = true;
    } else if (r.is(ds_ns, "SignatureValue")) {
      s.value = read_base64(r);
      has_value = true;
    } else if (r.is(ds_ns, "KeyInfo")) {
      read_key_info(r, s);
    } else {
      r.skip_element();  // ds:Object
    }
  });
  if (!has_info || !has_value) throw_fault(fault_code::invalid_security);
}

void read_binary_token(xml::reader& r, signature_info& s) {
  const std::string_view type = attribute(r, "ValueType");
  const std::string_view encoding = attribute(r, "EncodingType");
  if ((!type.empty() && type != x509v3_uri) ||
      (!encoding.empty() && encoding != base64_encoding_uri)) {
    r.skip_element();  // a token of another kind: not ours to judge unless referenced
    return;
  }
  std::string id(id_of(r));
  x509_ptr cert = read_der_certificate(read_base64(r));
  if (!cert) throw_fault(fault_code::invalid_security_token);
  s.tokens[std::move(id)] = std::move(cert);
}

signature_info read_security(std::string_view doc, std::uint64_t security_ordinal) {
  signature_info s;
  xml::reader r;
  r.reset(doc);
  std::uint64_t ordinal = 0;
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    if (t != xml::token::start_element || ++ordinal != security_ordinal) continue;
    for_each_child(r, [&] {
      if (r.is(wsse_ns, "BinarySecurityToken"))
        read_binary_token(r, s);
      else if (r.is(ds_ns, "Signature"))
        read_signature(r, s);
      else
        r.skip_element();
    });
    break;
  }
  return s;
}

// The certificate the KeyInfo names: in the message, or known to the trust store.
X509* resolve_certificate(signature_info& s, const trust_store::impl& trusted) {
  auto matches = [&](X509* c) {
    if (s.key_kind == signature_info::key::issuer_serial)
      return issuer_name(c) == s.issuer && serial_number(c) == s.serial;
    return subject_key_id(c) == s.ski;
  };
  switch (s.key_kind) {
    case signature_info::key::direct: {
      auto it = s.tokens.find(s.token_uri);
      if (it == s.tokens.end()) throw_fault(fault_code::security_token_unavailable);
      return it->second.get();
    }
    case signature_info::key::inline_cert:
      return s.inline_cert.get();
    case signature_info::key::issuer_serial:
    case signature_info::key::ski:
      for (auto& [id, c] : s.tokens)
        if (matches(c.get())) return c.get();
      for (const x509_ptr& c : trusted.known)
        if (matches(c.get())) return c.get();
      throw_fault(fault_code::security_token_unavailable);
    case signature_info::key::none:
      break;
  }
  throw_fault(fault_code::security_token_unavailable);
}

bool trusted_certificate(X509* cert, const trust_store::impl& trusted) {
  std::unique_ptr<X509_STORE_CTX, decltype(&X509_STORE_CTX_free)> ctx{X509_STORE_CTX_new(),
                                                                      &X509_STORE_CTX_free};
  return ctx && X509_STORE_CTX_init(ctx.get(), trusted.store.get(), cert, nullptr) == 1 &&
         X509_verify_cert(ctx.get()) == 1;
}

bool signature_matches(X509* cert, const EVP_MD* md, std::string_view data,
                       std::span<const std::uint8_t> value) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
  EVP_PKEY* key = X509_get0_pubkey(cert);
  return ctx && key && EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA &&
         EVP_DigestVerifyInit(ctx.get(), nullptr, md, nullptr, key) == 1 &&
         EVP_DigestVerify(ctx.get(), value.data(), value.size(),
                          reinterpret_cast<const unsigned char*>(data.data()), data.size()) == 1;
}

}  // namespace

verified_signature verify_envelope(std::string_view envelope, const trust_store& trusted) {
  message_index m;
  signature_info s;
  try {
    m = index_message(envelope);
    if (m.signatures != 1 || !m.signed_info_ordinal) throw_fault(fault_code::invalid_security);
    s = read_security(envelope, m.security_ordinal);
  } catch (const xml::error&) {
    throw_fault(fault_code::invalid_security);
  }
  X509* cert = resolve_certificate(s, trusted.get());
  if (!trusted_certificate(cert, trusted.get())) throw_fault(fault_code::failed_authentication);

  std::vector<c14n_target> targets;
  targets.push_back({.ordinal = m.signed_info_ordinal, .prefixes = s.prefixes});
  for (const reference& ref : s.references) {
    if (!m.ids.contains(ref.id)) throw_fault(fault_code::failed_check);
    targets.push_back({.id = ref.id, .md = ref.md, .prefixes = ref.prefixes});
  }
  canonicalize_targets(envelope, targets);
  for (std::size_t i = 0; i < s.references.size(); ++i)
    if (!equal_secret(targets[i + 1].digest, s.references[i].digest))
      throw_fault(fault_code::failed_check);
  if (!signature_matches(cert, s.md, targets[0].canonical, s.value))
    throw_fault(fault_code::failed_check);

  verified_signature v;
  v.subject = subject_name(cert);
  for (const reference& ref : s.references) {
    const indexed& what = m.ids.find(ref.id)->second;
    if (what.kind == part::body) v.body = true;
    if (what.kind == part::timestamp) {
      v.timestamp = true;
      v.created = what.created;
      v.expires = what.expires;
    }
    if (what.kind == part::header) v.headers.push_back(what.name);
  }
  return v;
}

}  // namespace lather::wsse
