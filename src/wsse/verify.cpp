// Verifying: one pass indexes the message (Ids unique, which element is the Body, the
// Timestamp, the header entries, where the one Signature is), one reads the Security header,
// one canonicalizes SignedInfo and every referenced element; then digests, trust, signature.
// Buffers live in a per-thread workspace and a signer's certificate, once found trusted, is
// kept with its verification context, so a verification costs no C++ heap allocation once warm.
#include <openssl/evp.h>
#include <openssl/x509_vfy.h>

#include <algorithm>
#include <chrono>
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
/// How long a certificate found trusted is taken as trusted without checking its chain again
/// (its validity period and the store's content are checked again after that).
constexpr auto trust_recheck = std::chrono::seconds(60);

enum class part { other, body, timestamp, header };

// An element with an Id.
struct indexed {
  std::string id;
  part kind = part::other;
  std::string ns, local;            // of a header entry
  time_point created{}, expires{};  // of a Timestamp
};

struct reference {
  std::string id;
  digest_kind md = digest_kind::sha256;
  std::vector<std::string> prefixes;
  std::vector<std::uint8_t> digest;
};

struct binary_token {
  std::string id;
  std::vector<std::uint8_t> der;
};

enum class key_kind { none, direct, issuer_serial, ski, inline_cert };

// A certificate that signed a message, with what verifying its signatures needs.
struct known_signer {
  std::uint64_t store = 0;  // trust_store::impl::generation it was found trusted in
  std::vector<std::uint8_t> der;
  x509_ptr cert;
  std::chrono::steady_clock::time_point checked{};
  std::string subject;
  pkey_ctx_ptr verify;  // over the DigestInfo of either digest
};

struct verify_workspace {
  xml::reader reader;
  std::string text;
  // The message's index.
  reuse_pool<indexed> ids;
  std::vector<std::uint32_t> by_id;  // ids sorted by Id
  std::uint64_t security_ordinal = 0, signed_info_ordinal = 0;
  int signatures = 0;
  // The Signature and tokens of its Security header.
  std::vector<std::string> prefixes;  // SignedInfo's canonicalization PrefixList
  std::optional<digest_kind> md;
  reuse_pool<reference> references;
  std::vector<std::uint8_t> value;
  key_kind key = key_kind::none;
  std::string token_uri, issuer, serial;
  std::vector<std::uint8_t> ski, inline_der, der;
  reuse_pool<binary_token> tokens;
  canonicalizer c14n;
  std::vector<known_signer> signers;  // few: round robin past max_signers
  std::size_t next_signer = 0;

  static constexpr std::size_t max_signers = 8;

  void clear() {
    ids.clear();
    by_id.clear();
    security_ordinal = signed_info_ordinal = 0;
    signatures = 0;
    prefixes.clear();
    md.reset();
    references.clear();
    value.clear();
    key = key_kind::none;
    token_uri.clear();
    tokens.clear();
  }

  const indexed* find(std::string_view id) const {
    auto it = std::lower_bound(by_id.begin(), by_id.end(), id,
                               [&](std::uint32_t i, std::string_view v) { return ids[i].id < v; });
    return it != by_id.end() && ids[*it].id == id ? &ids[*it] : nullptr;
  }
};

thread_local verify_workspace workspace;
thread_local mime_message received_mime;

void index_message(verify_workspace& ws, std::string_view doc) {
  xml::reader& r = ws.reader;
  r.reset(doc);
  std::uint64_t ordinal = 0, current_security = 0;
  bool in_header = false, in_security = false, in_signature = false;
  std::size_t timestamp = 0;  // 1 + the index of the Timestamp being read, if it has an Id
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    if (t == xml::token::error) throw xml::error(r.error());
    const std::uint32_t depth = r.depth();
    if (t == xml::token::end_element) {
      if (depth == 4) in_signature = false, timestamp = 0;
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
      ++ws.signatures;
      ws.security_ordinal = current_security;
      in_signature = !r.is_empty_element();
    }
    if (depth == 5 && in_signature && r.is(ds_ns, "SignedInfo")) ws.signed_info_ordinal = ordinal;
    if (depth == 5 && timestamp && (r.is(wsu_ns, "Created") || r.is(wsu_ns, "Expires"))) {
      indexed& ts = ws.ids[timestamp - 1];
      time_point& at = r.local_name() == "Created" ? ts.created : ts.expires;
      read_text(r, ws.text, max_time);
      const auto parsed = parse_time(ws.text);
      if (!parsed) throw_fault(fault_code::invalid_security_token);
      at = *parsed;
      continue;
    }
    const std::string_view id = id_of(r);
    if (id.empty()) continue;
    indexed& entry = ws.ids.add();
    entry.id.assign(id);
    entry.kind = part::other;
    entry.ns.clear();
    entry.local.clear();
    entry.created = entry.expires = time_point{};
    if (env_child && r.local_name() == "Body") {
      entry.kind = part::body;
    } else if (depth == 4 && in_security && r.is(wsu_ns, "Timestamp")) {
      entry.kind = part::timestamp;
      if (!r.is_empty_element()) timestamp = ws.ids.size();
    } else if (depth == 3 && in_header) {
      entry.kind = part::header;
      entry.ns.assign(r.ns());
      entry.local.assign(r.local_name());
    }
  }
  // Unique Ids in the whole message: a second element with a signed Id is how signature
  // wrapping moves the signed content away from what is processed.
  if (!sort_unique(
          ws.ids, [](const indexed& e) -> const std::string& { return e.id; }, ws.by_id))
    throw_fault(fault_code::invalid_security);
}

std::string_view attribute(const xml::reader& r, std::string_view local) {
  const xml::attribute* a = r.find_attribute({}, local);
  return a ? a->value : std::string_view{};
}

// The digest of the element's Algorithm, one of two URIs (else UnsupportedAlgorithm).
digest_kind algorithm(const xml::reader& r, std::string_view sha1, std::string_view sha256) {
  const std::string_view uri = attribute(r, "Algorithm");
  if (uri == sha1) return digest_kind::sha1;
  if (uri != sha256) throw_fault(fault_code::unsupported_algorithm);
  return digest_kind::sha256;
}

// An exc-c14n method (CanonicalizationMethod or Transform): its PrefixList into `prefixes`.
void read_c14n_method(xml::reader& r, std::vector<std::string>& prefixes) {
  if (attribute(r, "Algorithm") != exc_c14n_uri) throw_fault(fault_code::unsupported_algorithm);
  prefixes.clear();
  for_each_child(r, [&] {
    if (r.is(exc_c14n_uri, "InclusiveNamespaces"))
      split_prefixes(attribute(r, "PrefixList"), prefixes);
    r.skip_element();
  });
}

void read_base64(verify_workspace& ws, xml::reader& r, std::vector<std::uint8_t>& out) {
  read_text(r, ws.text, max_text);
  if (xsd::base64_decode(ws.text, out) != bind::errc::ok || out.empty())
    throw_fault(fault_code::invalid_security);
}

void read_reference(verify_workspace& ws, xml::reader& r) {
  if (ws.references.size() == max_references) throw_fault(fault_code::invalid_security);
  reference& ref = ws.references.add();
  const std::string_view uri = attribute(r, "URI");
  // Only same-document references by Id: the whole document ("") or another resource
  // cannot be what a SOAP signature covers.
  if (uri.size() < 2 || uri[0] != '#') throw_fault(fault_code::unsupported_algorithm);
  ref.id.assign(uri.substr(1));
  int transforms = 0;
  bool has_md = false, has_digest = false;
  for_each_child(r, [&] {
    if (r.is(ds_ns, "Transforms")) {
      for_each_child(r, [&] {
        if (!r.is(ds_ns, "Transform") || ++transforms > 1)
          throw_fault(fault_code::unsupported_algorithm);
        read_c14n_method(r, ref.prefixes);
      });
    } else if (r.is(ds_ns, "DigestMethod")) {
      ref.md = algorithm(r, sha1_uri, sha256_uri);
      has_md = true;
      r.skip_element();
    } else if (r.is(ds_ns, "DigestValue")) {
      read_base64(ws, r, ref.digest);
      has_digest = true;
    } else {
      throw_fault(fault_code::invalid_security);
    }
  });
  if (transforms != 1 || !has_md || !has_digest) throw_fault(fault_code::invalid_security);
}

void read_signed_info(verify_workspace& ws, xml::reader& r) {
  bool has_c14n = false;
  for_each_child(r, [&] {
    if (r.is(ds_ns, "CanonicalizationMethod")) {
      read_c14n_method(r, ws.prefixes);
      has_c14n = true;
    } else if (r.is(ds_ns, "SignatureMethod")) {
      ws.md = algorithm(r, rsa_sha1_uri, rsa_sha256_uri);
      r.skip_element();
    } else if (r.is(ds_ns, "Reference")) {
      read_reference(ws, r);
    } else {
      throw_fault(fault_code::invalid_security);
    }
  });
  if (!has_c14n || !ws.md || ws.references.empty()) throw_fault(fault_code::invalid_security);
}

void read_x509_data(verify_workspace& ws, xml::reader& r) {
  for_each_child(r, [&] {
    if (r.is(ds_ns, "X509IssuerSerial")) {
      ws.key = key_kind::issuer_serial;
      for_each_child(r, [&] {
        if (r.is(ds_ns, "X509IssuerName"))
          read_text(r, ws.issuer, max_text);
        else if (r.is(ds_ns, "X509SerialNumber"))
          read_text(r, ws.serial, max_text);
        else
          r.skip_element();
      });
    } else if (r.is(ds_ns, "X509Certificate")) {
      read_base64(ws, r, ws.inline_der);
      ws.key = key_kind::inline_cert;
    } else if (r.is(ds_ns, "X509SKI")) {
      read_base64(ws, r, ws.ski);
      ws.key = key_kind::ski;
    } else {
      r.skip_element();
    }
  });
}

void read_key_info(verify_workspace& ws, xml::reader& r) {
  for_each_child(r, [&] {
    if (r.is(ds_ns, "X509Data")) {
      read_x509_data(ws, r);
    } else if (r.is(wsse_ns, "SecurityTokenReference")) {
      for_each_child(r, [&] {
        if (r.is(wsse_ns, "Reference")) {
          const std::string_view uri = attribute(r, "URI");
          if (uri.size() < 2 || uri[0] != '#') throw_fault(fault_code::security_token_unavailable);
          ws.token_uri.assign(uri.substr(1));
          ws.key = key_kind::direct;
          r.skip_element();
        } else if (r.is(wsse_ns, "KeyIdentifier")) {
          if (attribute(r, "ValueType") != ski_uri)
            throw_fault(fault_code::unsupported_security_token);
          read_base64(ws, r, ws.ski);
          ws.key = key_kind::ski;
        } else if (r.is(ds_ns, "X509Data")) {
          read_x509_data(ws, r);
        } else {
          throw_fault(fault_code::unsupported_security_token);
        }
      });
    } else {
      r.skip_element();
    }
  });
}

void read_signature(verify_workspace& ws, xml::reader& r) {
  bool has_info = false, has_value = false;
  for_each_child(r, [&] {
    if (r.is(ds_ns, "SignedInfo")) {
      read_signed_info(ws, r);
      has_info = true;
    } else if (r.is(ds_ns, "SignatureValue")) {
      read_base64(ws, r, ws.value);
      has_value = true;
    } else if (r.is(ds_ns, "KeyInfo")) {
      read_key_info(ws, r);
    } else {
      r.skip_element();  // ds:Object
    }
  });
  if (!has_info || !has_value) throw_fault(fault_code::invalid_security);
}

void read_binary_token(verify_workspace& ws, xml::reader& r) {
  const std::string_view type = attribute(r, "ValueType");
  const std::string_view encoding = attribute(r, "EncodingType");
  if ((!type.empty() && type != x509v3_uri) ||
      (!encoding.empty() && encoding != base64_encoding_uri)) {
    r.skip_element();  // a token of another kind: not ours to judge unless referenced
    return;
  }
  binary_token& token = ws.tokens.add();
  token.id.assign(id_of(r));
  read_base64(ws, r, token.der);
}

void read_security(verify_workspace& ws, std::string_view doc) {
  xml::reader& r = ws.reader;
  r.reset(doc);
  std::uint64_t ordinal = 0;
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    if (t != xml::token::start_element || ++ordinal != ws.security_ordinal) continue;
    for_each_child(r, [&] {
      if (r.is(wsse_ns, "BinarySecurityToken"))
        read_binary_token(ws, r);
      else if (r.is(ds_ns, "Signature"))
        read_signature(ws, r);
      else
        r.skip_element();
    });
    break;
  }
}

x509_ptr parse_certificate(std::span<const std::uint8_t> der) {
  x509_ptr cert = read_der_certificate(der);
  if (!cert) throw_fault(fault_code::invalid_security_token);
  return cert;
}

// The DER of the certificate the KeyInfo names: carried by the message, or known to the
// trust store (by issuer serial or key identifier).
std::span<const std::uint8_t> signer_der(verify_workspace& ws, const trust_store::impl& trusted) {
  auto matches = [&](X509* c) {
    if (ws.key == key_kind::issuer_serial)
      return issuer_name(c) == ws.issuer && serial_number(c) == ws.serial;
    return subject_key_id(c) == ws.ski;
  };
  switch (ws.key) {
    case key_kind::direct:
      for (const binary_token& t : ws.tokens)
        if (t.id == ws.token_uri) return t.der;
      throw_fault(fault_code::security_token_unavailable);
    case key_kind::inline_cert:
      return ws.inline_der;
    case key_kind::issuer_serial:
    case key_kind::ski:
      for (const binary_token& t : ws.tokens)
        if (matches(parse_certificate(t.der).get())) return t.der;
      for (const x509_ptr& c : trusted.known)
        if (matches(c.get())) {
          ws.der = der_of(c.get());
          return ws.der;
        }
      throw_fault(fault_code::security_token_unavailable);
    case key_kind::none:
      break;
  }
  throw_fault(fault_code::security_token_unavailable);
}

bool chains_to(X509* cert, const trust_store::impl& trusted) {
  std::unique_ptr<X509_STORE_CTX, decltype(&X509_STORE_CTX_free)> ctx{X509_STORE_CTX_new(),
                                                                      &X509_STORE_CTX_free};
  return ctx && X509_STORE_CTX_init(ctx.get(), trusted.store.get(), cert, nullptr) == 1 &&
         X509_verify_cert(ctx.get()) == 1;
}

// The signer whose certificate is `der`, trusted by `trusted`: kept from an earlier message
// when that one was found trusted by the same store within trust_recheck.
known_signer& trusted_signer(verify_workspace& ws, std::span<const std::uint8_t> der,
                             const trust_store::impl& trusted) {
  const auto now = std::chrono::steady_clock::now();
  for (known_signer& k : ws.signers)
    if (k.store == trusted.generation && now - k.checked < trust_recheck &&
        std::equal(k.der.begin(), k.der.end(), der.begin(), der.end()))
      return k;
  x509_ptr cert = parse_certificate(der);
  if (!chains_to(cert.get(), trusted)) throw_fault(fault_code::failed_authentication);
  if (ws.signers.size() < verify_workspace::max_signers) ws.signers.emplace_back();
  known_signer& k = ws.signers[ws.next_signer++ % ws.signers.size()];
  k.store = trusted.generation;
  k.der.assign(der.begin(), der.end());
  k.cert = std::move(cert);
  k.checked = now;
  k.subject = subject_name(k.cert.get());
  k.verify.reset();
  return k;
}

bool signature_matches(known_signer& k, digest_kind md, std::string_view data,
                       std::span<const std::uint8_t> value) {
  pkey_ctx_ptr& ctx = k.verify;
  if (!ctx) ctx = rsa_context(X509_get0_pubkey(k.cert.get()), false);
  if (!ctx) return false;
  std::array<std::uint8_t, 51> encoded;
  const std::span<const std::uint8_t> digest = encoded_digest(md, data, encoded);
  return EVP_PKEY_verify(ctx.get(), value.data(), value.size(), digest.data(), digest.size()) == 1;
}

}  // namespace

void verify_envelope(std::string_view envelope, const trust_store& trusted,
                     verified_signature& out) {
  verify_envelope(envelope, trusted, out, {});
}

void verify_envelope(std::string_view envelope, const trust_store& trusted, verified_signature& out,
                     const xop_parts& parts) {
  verify_workspace& ws = workspace;
  ws.clear();
  try {
    index_message(ws, envelope);
    if (ws.signatures != 1 || !ws.signed_info_ordinal) throw_fault(fault_code::invalid_security);
    read_security(ws, envelope);
  } catch (const xml::error&) {
    throw_fault(fault_code::invalid_security);
  }
  if (!ws.md) throw_fault(fault_code::invalid_security);
  known_signer& signer = trusted_signer(ws, signer_der(ws, trusted.get()), trusted.get());

  ws.c14n.clear();
  c14n_target& info = ws.c14n.add();
  info.ordinal = ws.signed_info_ordinal;
  info.prefixes.assign(ws.prefixes.begin(), ws.prefixes.end());
  for (const reference& ref : ws.references) {
    if (!ws.find(ref.id)) throw_fault(fault_code::failed_check);
    c14n_target& t = ws.c14n.add();
    t.id.assign(ref.id);
    t.md = ref.md;
    t.prefixes.assign(ref.prefixes.begin(), ref.prefixes.end());
  }
  try {
    ws.c14n.run(envelope, parts ? &parts : nullptr);
  } catch (const xml::error&) {
    throw_fault(fault_code::invalid_security);
  } catch (const std::invalid_argument&) {  // an xop:Include to no part of the message
    throw_fault(fault_code::invalid_security);
  }
  for (std::size_t i = 0; i < ws.references.size(); ++i)
    if (!equal_secret(ws.c14n[i + 1].digest_bytes(), ws.references[i].digest))
      throw_fault(fault_code::failed_check);
  if (!signature_matches(signer, *ws.md, ws.c14n[0].canonical, ws.value))
    throw_fault(fault_code::failed_check);

  out.body = out.timestamp = false;
  out.created = out.expires = time_point{};
  out.subject.assign(signer.subject);
  std::size_t headers = 0;
  for (const reference& ref : ws.references) {
    const indexed& what = *ws.find(ref.id);
    if (what.kind == part::body) out.body = true;
    if (what.kind == part::timestamp) {
      out.timestamp = true;
      out.created = what.created;
      out.expires = what.expires;
    }
    if (what.kind == part::header) {
      if (headers == out.headers.size()) out.headers.emplace_back();
      soap::qname& h = out.headers[headers++];
      h.ns.assign(what.ns);
      h.local.assign(what.local);
      h.prefix.clear();
    }
  }
  out.headers.resize(headers);
}

void verify_message(std::string_view message, const trust_store& trusted, verified_signature& out) {
  bool multipart = false;
  try {
    multipart = split_mime(message, received_mime);
  } catch (const std::invalid_argument&) {
    throw_fault(fault_code::invalid_security);
  }
  if (!multipart) return verify_envelope(message, trusted, out);
  verify_envelope(message.substr(received_mime.root_begin, received_mime.root_size), trusted, out,
                  received_mime.source());
}

verified_signature verify_envelope(std::string_view envelope, const trust_store& trusted) {
  verified_signature v;
  verify_envelope(envelope, trusted, v);
  return v;
}

}  // namespace lather::wsse
