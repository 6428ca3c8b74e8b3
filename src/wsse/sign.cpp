// Signing: wsu:Ids on the elements to sign, their exclusive-C14N digests, SignedInfo signed
// with the RSA key, then BinarySecurityToken and ds:Signature appended to the Security header.
// Every buffer lives in a per-thread workspace and the RSA context is kept per key, so a
// signature costs no C++ heap allocation once the workspace has grown to the messages signed.
#include <openssl/evp.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "dsig.hpp"
#include "lather/bind/xsd.hpp"
#include "lather/soap/version.hpp"
#include "lather/wsse/signature.hpp"
#include "lather/xml/error.hpp"
#include "lather/xml/reader.hpp"
#include "x509.hpp"

namespace lather::wsse {

namespace {

using namespace detail;

struct insertion {
  std::size_t at;
  std::string text;
};

// An element to sign.
struct sign_target {
  std::size_t start;  // offset of the start tag's '<'
  std::string id;     // "" when it has none yet
  bool wsu_in_scope;  // the wsu prefix is bound to wsu_ns there
  bool wsu_taken;     // the wsu prefix is bound to something else there
};

// A key's signing context, made on its first use by a thread.
struct signer {
  EVP_PKEY* key;
  digest_kind md;
  pkey_ctx_ptr ctx;
};

struct sign_workspace {
  xml::reader reader;
  reuse_pool<std::string> ids;       // every Id in the message, and those made for it
  std::vector<std::uint32_t> by_id;  // the message's Ids (the first of `ids`), sorted
  reuse_pool<sign_target> targets;
  std::size_t security_start = 0, security_end = 0;  // '<' of the Security start / end tag
  bool security_empty = false;                       // <wsse:Security .../>
  std::string security_qname;
  reuse_pool<insertion> edits;
  canonicalizer c14n;
  std::string signed_info, block, bst_id, sig_id;
  std::vector<std::uint8_t> signature;
  std::vector<signer> signers;  // few: one per key and digest this thread signs with
  mime_message mime;
  std::string mime_envelope;  // the root part of an MTOM message, signed apart

  EVP_PKEY_CTX* signer_for(EVP_PKEY* key, digest_kind md) {
    for (signer& s : signers)
      if (s.key == key && s.md == md) return s.ctx.get();
    pkey_ctx_ptr ctx = rsa_context(key, true);
    if (!ctx) throw std::runtime_error("OpenSSL signing failed");
    // The context holds a reference to the key: its address cannot be reused while kept.
    return signers.emplace_back(signer{key, md, std::move(ctx)}).ctx.get();
  }
};

thread_local sign_workspace workspace;

// Whether the message has `id` or one was made for it: the message's are sorted (by_id), the
// few made since are not.
bool has_id(const sign_workspace& ws, std::string_view id) {
  const auto less = [&](std::uint32_t i, std::string_view v) { return ws.ids[i] < v; };
  const auto it = std::lower_bound(ws.by_id.begin(), ws.by_id.end(), id, less);
  if (it != ws.by_id.end() && ws.ids[*it] == id) return true;
  return std::find(ws.ids.begin() + ws.by_id.size(), ws.ids.end(), id) != ws.ids.end();
}

void scan(sign_workspace& ws, std::string_view doc, const signature_options& o) {
  ws.ids.clear();
  ws.by_id.clear();
  ws.targets.clear();
  ws.security_start = std::string::npos;
  ws.security_end = std::string::npos;
  xml::reader& r = ws.reader;
  r.reset(doc);
  bool in_header = false, in_security = false;
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    if (t == xml::token::error) throw xml::error(r.error());
    if (t == xml::token::end_element) {
      if (r.depth() == 3 && in_security) {
        ws.security_end = r.where().offset;
        in_security = false;
      }
      if (r.depth() == 2) in_header = false;
      continue;
    }
    if (t != xml::token::start_element) continue;
    const std::uint32_t depth = r.depth();
    const std::string_view id = id_of(r);
    if (!id.empty()) ws.ids.add().assign(id);
    const bool env_child = depth == 2 && soap::version_from_namespace(r.ns()).has_value();
    if (env_child && r.local_name() == "Header") in_header = true;
    bool sign = false;
    if (env_child && r.local_name() == "Body") sign = o.body;
    if (depth == 3 && in_header) {
      if (r.is(wsse_ns, "Security") && ws.security_start == std::string::npos) {
        ws.security_start = r.where().offset;
        ws.security_qname.assign(r.prefix());
        if (!r.prefix().empty()) ws.security_qname += ':';
        ws.security_qname += r.local_name();
        in_security = !r.is_empty_element();
      }
      for (const soap::qname& h : o.headers)
        if (r.is(h.ns, h.local)) sign = true;
    }
    if (depth == 4 && in_security && o.timestamp && r.is(wsu_ns, "Timestamp")) sign = true;
    if (sign) {
      const auto wsu = r.lookup_namespace("wsu");
      sign_target& target = ws.targets.add();
      target.start = r.where().offset;
      target.id.assign(id);
      target.wsu_in_scope = wsu && *wsu == wsu_ns;
      target.wsu_taken = wsu && *wsu != wsu_ns;
    }
  }
  if (ws.security_start == std::string::npos)
    throw std::invalid_argument("the message has no wsse:Security header to sign in");
  if (!sort_unique(
          ws.ids, [](const std::string& id) -> const std::string& { return id; }, ws.by_id))
    throw std::invalid_argument("the message has two elements with the same Id");
  ws.security_empty = ws.security_end == std::string::npos;
}

// `stem`-N for the smallest N not taken in the message, into `out` (and taken from now on).
void fresh_id(sign_workspace& ws, std::string_view stem, std::string& out) {
  for (unsigned n = 1;; ++n) {
    char digits[16];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    out.assign(stem);
    out += '-';
    out.append(digits, end);
    if (!has_id(ws, out)) {
      ws.ids.add().assign(out);
      return;
    }
  }
}

// Append each piece to `out` (no temporary strings).
template <class... Pieces>
void append(std::string& out, const Pieces&... pieces) {
  ((out += pieces), ...);
}

void append_algorithm(std::string& out, std::string_view name, std::string_view uri) {
  append(out, "<ds:", name, " Algorithm=\"", uri, "\"></ds:", name, ">");
}

// SignedInfo, written in its exclusive-C14N form (what is signed is then the text itself:
// xmlsec1 and zeep verify it in tests/wsse), referencing each target with its digest.
void write_signed_info(sign_workspace& ws, bool sha1) {
  std::string& out = ws.signed_info;
  out.clear();
  append(out, "<ds:SignedInfo xmlns:ds=\"", ds_ns, "\">");
  append_algorithm(out, "CanonicalizationMethod", exc_c14n_uri);
  append_algorithm(out, "SignatureMethod", sha1 ? rsa_sha1_uri : rsa_sha256_uri);
  for (std::size_t i = 0; i < ws.c14n.size(); ++i) {
    const c14n_target& t = ws.c14n[i];
    out += "<ds:Reference URI=\"#";
    escape_attribute(out, t.id);
    out += "\"><ds:Transforms>";
    append_algorithm(out, "Transform", exc_c14n_uri);
    out += "</ds:Transforms>";
    append_algorithm(out, "DigestMethod", sha1 ? sha1_uri : sha256_uri);
    out += "<ds:DigestValue>";
    xsd::base64_encode(t.digest_bytes(), out);
    out += "</ds:DigestValue></ds:Reference>";
  }
  out += "</ds:SignedInfo>";
}

// The token (direct reference) and the signature, for the end of the Security header.
void write_block(sign_workspace& ws, const credentials::impl& k, const signature_options& o) {
  std::string& out = ws.block;
  out.clear();
  constexpr std::string_view wsse_decl =
      "xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/"
      "oasis-200401-wss-wssecurity-secext-1.0.xsd\"";
  static_assert(wsse_decl.substr(12, wsse_decl.size() - 13) == wsse_ns);
  if (o.reference == token_reference::direct) {
    fresh_id(ws, "X509", ws.bst_id);
    append(out, "<wsse:BinarySecurityToken ", wsse_decl, " xmlns:wsu=\"", wsu_ns,
           "\" EncodingType=\"", base64_encoding_uri, "\" ValueType=\"", x509v3_uri, "\" wsu:Id=\"",
           ws.bst_id, "\">", k.der_base64, "</wsse:BinarySecurityToken>");
  }
  fresh_id(ws, "SIG", ws.sig_id);
  append(out, "<ds:Signature xmlns:ds=\"", ds_ns, "\" Id=\"", ws.sig_id, "\">", ws.signed_info,
         "<ds:SignatureValue>");
  xsd::base64_encode(ws.signature, out);
  append(out, "</ds:SignatureValue><ds:KeyInfo><wsse:SecurityTokenReference ", wsse_decl, ">");
  switch (o.reference) {
    case token_reference::direct:
      append(out, "<wsse:Reference URI=\"#", ws.bst_id, "\" ValueType=\"", x509v3_uri, "\"/>");
      break;
    case token_reference::issuer_serial:
      append(out, "<ds:X509Data><ds:X509IssuerSerial><ds:X509IssuerName>", k.issuer_escaped,
             "</ds:X509IssuerName><ds:X509SerialNumber>", k.serial,
             "</ds:X509SerialNumber></ds:X509IssuerSerial></ds:X509Data>");
      break;
    case token_reference::subject_key_identifier:
      append(out, "<wsse:KeyIdentifier EncodingType=\"", base64_encoding_uri, "\" ValueType=\"",
             ski_uri, "\">", k.ski_base64, "</wsse:KeyIdentifier>");
      break;
  }
  out += "</wsse:SecurityTokenReference></ds:KeyInfo></ds:Signature>";
}

void rsa_sign(sign_workspace& ws, EVP_PKEY* key, digest_kind md, std::string_view data) {
  std::array<std::uint8_t, 51> encoded;
  const std::span<const std::uint8_t> digest = encoded_digest(md, data, encoded);
  EVP_PKEY_CTX* ctx = ws.signer_for(key, md);
  ws.signature.resize(static_cast<std::size_t>(EVP_PKEY_get_size(key)));
  std::size_t size = ws.signature.size();
  if (EVP_PKEY_sign(ctx, ws.signature.data(), &size, digest.data(), digest.size()) != 1)
    throw std::runtime_error("OpenSSL signing failed");
  ws.signature.resize(size);
}

}  // namespace

void sign_envelope(std::string& envelope, const credentials& key, const signature_options& o) {
  sign_envelope(envelope, key, o, {});
}

void sign_envelope(std::string& envelope, const credentials& key, const signature_options& o,
                   const xop_parts& parts) {
  const credentials::impl& k = key.get();  // before the message is touched
  if (o.reference == token_reference::subject_key_identifier && k.ski_base64.empty())
    throw std::invalid_argument("the certificate has no subject key identifier");
  sign_workspace& ws = workspace;
  scan(ws, envelope, o);
  if (ws.targets.empty()) throw std::invalid_argument("nothing to sign in the message");

  // 1. An Id on each element to sign (insertions from the end, so offsets stay valid).
  ws.edits.clear();
  for (sign_target& t : ws.targets) {
    if (!t.id.empty()) continue;
    fresh_id(ws, "id", t.id);
    const std::string_view prefix = t.wsu_taken ? "lather-wsu" : "wsu";
    insertion& e = ws.edits.add();
    e.text.assign(" ");
    if (!t.wsu_in_scope) append(e.text, "xmlns:", prefix, "=\"", wsu_ns, "\" ");
    append(e.text, prefix, ":Id=\"", t.id, "\"");
    e.at = start_tag_end(envelope, t.start);
    if (envelope[e.at - 1] == '/') --e.at;
  }
  const std::size_t security_tag_end = start_tag_end(envelope, ws.security_start);
  std::sort(ws.edits.begin(), ws.edits.end(), [](auto& a, auto& b) { return a.at > b.at; });
  // Offsets of the Security header's end move with the Ids inserted before it.
  std::size_t shift_end = 0, shift_tag = 0;
  for (const insertion& e : ws.edits) {
    if (!ws.security_empty && e.at <= ws.security_end) shift_end += e.text.size();
    if (e.at <= security_tag_end) shift_tag += e.text.size();
    envelope.insert(e.at, e.text);
  }

  // 2. Digests of the elements as they now are.
  const bool sha1 = o.algorithm == signature_algorithm::rsa_sha1;
  const digest_kind md = sha1 ? digest_kind::sha1 : digest_kind::sha256;
  ws.c14n.clear();
  for (const sign_target& t : ws.targets) {
    c14n_target& c = ws.c14n.add();
    c.id.assign(t.id);
    c.md = md;
  }
  ws.c14n.run(envelope, parts ? &parts : nullptr);

  // 3. SignedInfo, written in its canonical form, and signed.
  write_signed_info(ws, sha1);
  rsa_sign(ws, k.key.get(), md, ws.signed_info);

  // 4. The token and the signature, at the end of the Security header.
  write_block(ws, k, o);
  if (ws.security_empty) {
    const std::size_t slash = security_tag_end + shift_tag - 1;  // "<wsse:Security .../>"
    append(ws.block, "</", ws.security_qname, ">");
    envelope.replace(slash, 2, ">");
    envelope.insert(slash + 1, ws.block);
  } else {
    envelope.insert(ws.security_end + shift_end, ws.block);
  }
}

void sign_message(std::string& message, const credentials& key, const signature_options& o) {
  sign_workspace& ws = workspace;
  if (!split_mime(message, ws.mime)) return sign_envelope(message, key, o);
  // Signed apart (the parts it reads stay where they are), then put back in place.
  std::string& envelope = ws.mime_envelope;
  envelope.assign(message, ws.mime.root_begin, ws.mime.root_size);
  sign_envelope(envelope, key, o, ws.mime.source());
  message.replace(ws.mime.root_begin, ws.mime.root_size, envelope);
}

}  // namespace lather::wsse
