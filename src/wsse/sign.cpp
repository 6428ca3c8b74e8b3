// Signing: wsu:Ids on the elements to sign, their exclusive-C14N digests, SignedInfo signed
// with the RSA key, then BinarySecurityToken and ds:Signature appended to the Security header.
#include <openssl/evp.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "dsig.hpp"
#include "lather/bind/xsd.hpp"
#include "lather/soap/version.hpp"
#include "lather/wsse/c14n.hpp"
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

// What signing needs to know of the message before touching it.
struct layout {
  std::set<std::string, std::less<>> ids;  // every Id in the message
  struct target {
    std::size_t start;  // offset of the start tag's '<'
    std::string id;     // "" when it has none yet
    bool wsu_in_scope;  // the wsu prefix is bound to wsu_ns there
    bool wsu_taken;     // the wsu prefix is bound to something else there
  };
  std::vector<target> targets;
  std::size_t security_start = std::string::npos;  // '<' of the Security start tag
  std::size_t security_end = std::string::npos;    // '<' of its end tag (npos: <x/>)
  std::string security_qname;
};

std::string b64(std::span<const std::uint8_t> bytes) {
  std::string out;
  xsd::base64_encode(bytes, out);
  return out;
}

layout scan(std::string_view doc, const signature_options& o) {
  layout l;
  xml::reader r;
  r.reset(doc);
  bool in_header = false, in_security = false;
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    if (t == xml::token::error) throw xml::error(r.error());
    if (t == xml::token::end_element) {
      if (r.depth() == 3 && in_security) {
        l.security_end = r.where().offset;
        in_security = false;
      }
      if (r.depth() == 2) in_header = false;
      continue;
    }
    if (t != xml::token::start_element) continue;
    const std::uint32_t depth = r.depth();
    const std::string_view id = id_of(r);
    if (!id.empty() && !l.ids.emplace(id).second)
      throw std::invalid_argument("the message has two elements with Id " + std::string(id));
    const bool env_child = depth == 2 && soap::version_from_namespace(r.ns()).has_value();
    if (env_child && r.local_name() == "Header") in_header = true;
    bool sign = false;
    if (env_child && r.local_name() == "Body") sign = o.body;
    if (depth == 3 && in_header) {
      if (r.is(wsse_ns, "Security") && l.security_start == std::string::npos) {
        l.security_start = r.where().offset;
        l.security_qname = r.prefix().empty()
                               ? std::string(r.local_name())
                               : std::string(r.prefix()) + ":" + std::string(r.local_name());
        in_security = !r.is_empty_element();
      }
      for (const soap::qname& h : o.headers)
        if (r.is(h.ns, h.local)) sign = true;
    }
    if (depth == 4 && in_security && o.timestamp && r.is(wsu_ns, "Timestamp")) sign = true;
    if (sign) {
      const auto wsu = r.lookup_namespace("wsu");
      l.targets.push_back(
          {r.where().offset, std::string(id), wsu && *wsu == wsu_ns, wsu && *wsu != wsu_ns});
    }
  }
  if (l.security_start == std::string::npos)
    throw std::invalid_argument("the message has no wsse:Security header to sign in");
  return l;
}

std::string fresh_id(std::set<std::string, std::less<>>& ids, std::string_view stem) {
  for (int n = 1;; ++n) {
    std::string id = std::string(stem) + "-" + std::to_string(n);
    if (ids.insert(id).second) return id;
  }
}

std::vector<std::uint8_t> rsa_sign(EVP_PKEY* key, const EVP_MD* md, std::string_view data) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
  std::size_t size = 0;
  std::vector<std::uint8_t> out;
  bool ok = ctx && EVP_DigestSignInit(ctx.get(), nullptr, md, nullptr, key) == 1 &&
            EVP_DigestSign(ctx.get(), nullptr, &size,
                           reinterpret_cast<const unsigned char*>(data.data()), data.size()) == 1;
  if (ok) {
    out.resize(size);
    ok = EVP_DigestSign(ctx.get(), out.data(), &size,
                        reinterpret_cast<const unsigned char*>(data.data()), data.size()) == 1;
    out.resize(size);
  }
  if (!ok) throw std::runtime_error("OpenSSL signing failed");
  return out;
}

std::string algorithm_element(std::string_view name, std::string_view uri) {
  return "<ds:" + std::string(name) + " Algorithm=\"" + std::string(uri) +
         "\"></ds:" + std::string(name) + ">";
}

}  // namespace

void sign_envelope(std::string& envelope, const credentials& key, const signature_options& o) {
  const credentials::impl& k = key.get();  // before the message is touched
  layout l = scan(envelope, o);
  if (l.targets.empty()) throw std::invalid_argument("nothing to sign in the message");

  // 1. An Id on each element to sign (insertions from the end, so offsets stay valid).
  std::vector<std::string> ids;
  std::vector<insertion> edits;
  for (auto& t : l.targets) {
    if (t.id.empty()) {
      t.id = fresh_id(l.ids, "id");
      const std::string_view prefix = t.wsu_taken ? "lather-wsu" : "wsu";
      std::string attrs = " ";
      if (!t.wsu_in_scope)
        attrs += "xmlns:" + std::string(prefix) + "=\"" + std::string(wsu_ns) + "\" ";
      attrs += std::string(prefix) + ":Id=\"" + t.id + "\"";
      std::size_t end = start_tag_end(envelope, t.start);
      if (envelope[end - 1] == '/') --end;
      edits.push_back({end, std::move(attrs)});
    }
    ids.push_back(t.id);
  }
  const bool security_empty = l.security_end == std::string::npos;
  const std::size_t security_tag_end = start_tag_end(envelope, l.security_start);
  std::sort(edits.begin(), edits.end(), [](auto& a, auto& b) { return a.at > b.at; });
  // Offsets of the Security header's end move with the Ids inserted before it.
  std::size_t shift_end = 0, shift_tag = 0;
  for (const insertion& e : edits) {
    if (!security_empty && e.at <= l.security_end) shift_end += e.text.size();
    if (e.at <= security_tag_end) shift_tag += e.text.size();
    envelope.insert(e.at, e.text);
  }

  // 2. Digests of the elements as they now are.
  const bool sha1 = o.algorithm == signature_algorithm::rsa_sha1;
  const EVP_MD* md = sha1 ? EVP_sha1() : EVP_sha256();
  std::vector<c14n_target> targets;
  for (const std::string& id : ids) targets.push_back({.id = id, .md = md});
  canonicalize_targets(envelope, targets);

  // 3. SignedInfo, written in its canonical form (checked by canonicalizing it), and signed.
  std::string signed_info = "<ds:SignedInfo xmlns:ds=\"" + std::string(ds_ns) + "\">";
  signed_info += algorithm_element("CanonicalizationMethod", exc_c14n_uri);
  signed_info += algorithm_element("SignatureMethod", sha1 ? rsa_sha1_uri : rsa_sha256_uri);
  for (const c14n_target& t : targets) {
    signed_info += "<ds:Reference URI=\"#" + escaped(t.id) + "\"><ds:Transforms>";
    signed_info += algorithm_element("Transform", exc_c14n_uri);
    signed_info += "</ds:Transforms>";
    signed_info += algorithm_element("DigestMethod", sha1 ? sha1_uri : sha256_uri);
    signed_info += "<ds:DigestValue>" + b64(t.digest) + "</ds:DigestValue></ds:Reference>";
  }
  signed_info += "</ds:SignedInfo>";
  c14n_target info{.ordinal = 1};
  canonicalize_targets(signed_info, std::span(&info, 1));
  const std::string signature_value = b64(rsa_sign(k.key.get(), md, info.canonical));

  // 4. The token and the signature, at the end of the Security header.
  std::set<std::string, std::less<>>& taken = l.ids;
  std::string block;
  std::string reference;
  const std::string wsse_decl = "xmlns:wsse=\"" + std::string(wsse_ns) + "\"";
  switch (o.reference) {
    case token_reference::direct: {
      const std::string bst_id = fresh_id(taken, "X509");
      block += "<wsse:BinarySecurityToken " + wsse_decl + " xmlns:wsu=\"" + std::string(wsu_ns) +
               "\" EncodingType=\"" + std::string(base64_encoding_uri) + "\" ValueType=\"" +
               std::string(x509v3_uri) + "\" wsu:Id=\"" + bst_id + "\">" +
               b64(der_of(k.cert.get())) + "</wsse:BinarySecurityToken>";
      reference =
          "<wsse:Reference URI=\"#" + bst_id + "\" ValueType=\"" + std::string(x509v3_uri) + "\"/>";
      break;
    }
    case token_reference::issuer_serial:
      reference = "<ds:X509Data><ds:X509IssuerSerial><ds:X509IssuerName>" +
                  escaped(issuer_name(k.cert.get())) + "</ds:X509IssuerName><ds:X509SerialNumber>" +
                  serial_number(k.cert.get()) +
                  "</ds:X509SerialNumber></ds:X509IssuerSerial></ds:X509Data>";
      break;
    case token_reference::subject_key_identifier: {
      const auto ski = subject_key_id(k.cert.get());
      if (ski.empty()) throw std::invalid_argument("the certificate has no subject key identifier");
      reference = "<wsse:KeyIdentifier EncodingType=\"" + std::string(base64_encoding_uri) +
                  "\" ValueType=\"" + std::string(ski_uri) + "\">" + b64(ski) +
                  "</wsse:KeyIdentifier>";
      break;
    }
  }
  block += "<ds:Signature xmlns:ds=\"" + std::string(ds_ns) + "\" Id=\"" + fresh_id(taken, "SIG") +
           "\">" + signed_info + "<ds:SignatureValue>" + signature_value +
           "</ds:SignatureValue><ds:KeyInfo><wsse:SecurityTokenReference " + wsse_decl + ">" +
           reference + "</wsse:SecurityTokenReference></ds:KeyInfo></ds:Signature>";
  if (security_empty) {
    const std::size_t slash = security_tag_end + shift_tag - 1;  // "<wsse:Security .../>"
    envelope.replace(slash, 2, ">" + block + "</" + l.security_qname + ">");
  } else {
    envelope.insert(l.security_end + shift_end, block);
  }
}

}  // namespace lather::wsse
