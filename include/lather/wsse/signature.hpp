// lather/wsse/signature.hpp — XML Signature (XML-DSig) of SOAP messages, WS-Security X.509
// Token Profile: sign the Body, the Timestamp and chosen headers with RSA-SHA256 or RSA-SHA1
// over exclusive C14N; verify against a trust store.
//
//   auto me = lather::wsse::credentials::from_pem(key_pem, cert_pem);
//   lather::wsse::sign_envelope(message, me, {});            // message holds a Security header
//
//   lather::wsse::trust_store trusted;  trusted.add_pem(ca_pem);
//   auto v = lather::wsse::verify_envelope(message, trusted); // throws a WS-Security fault
//   if (!v.body) ...                                          // the Body actually processed
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "lather/byte_buffer.hpp"
#include "lather/soap/fault.hpp"
#include "lather/wsse/fault.hpp"

namespace lather::wsse {

enum class signature_algorithm { rsa_sha256, rsa_sha1 };
/// How the signature's KeyInfo names the certificate: a BinarySecurityToken in the message
/// referenced by wsu:Id (direct), or the certificate's issuer and serial number, or its
/// subject key identifier (the verifier must then know the certificate: trust_store).
enum class token_reference { direct, issuer_serial, subject_key_identifier };

/// An RSA private key and its X.509 certificate, for signing. Copies share the key.
class credentials {
 public:
  /// PEM texts; throws std::invalid_argument if either cannot be read or they do not match.
  static credentials from_pem(std::string_view key_pem, std::string_view cert_pem);
  static credentials from_files(const std::filesystem::path& key_pem,
                                const std::filesystem::path& cert_pem);
  struct impl;
  /// The key (throws std::invalid_argument for a default-constructed credentials).
  const impl& get() const {
    if (!impl_) throw std::invalid_argument("wsse::credentials without a key");
    return *impl_;
  }

 private:
  std::shared_ptr<const impl> impl_;
};

/// Certificates a verifier trusts: CAs, or the signers' own certificates (a certificate in
/// the store is trusted as it is, with or without a chain). Also where a verifier finds a
/// certificate that a signature names by issuer serial or key identifier but does not carry.
class trust_store {
 public:
  trust_store();
  /// One or more PEM certificates; throws std::invalid_argument if there is none.
  trust_store& add_pem(std::string_view pem);
  trust_store& add_file(const std::filesystem::path& pem);
  struct impl;
  const impl& get() const noexcept { return *impl_; }

 private:
  std::shared_ptr<impl> impl_;
};

struct signature_options {
  signature_algorithm algorithm = signature_algorithm::rsa_sha256;
  token_reference reference = token_reference::direct;
  bool body = true;       ///< sign the Body
  bool timestamp = true;  ///< sign the Security header's Timestamp (if it has one)
  /// Header entries to sign, {namespace, local name} (each occurrence).
  std::vector<soap::qname> headers{};
};

/// The MTOM parts a message's xop:Include elements refer to, for signing and verifying over
/// the XOP infoset: given a Content-ID (the href after "cid:", percent-decoded), a source of
/// the part's bytes from its first byte (each call a new one: the part is read once per
/// signature), or an empty byte_source when there is no such part. A signed element holding
/// `<xop:Include href="cid:..."/>` is then canonicalized and digested as if the Include were
/// the base64 of that part's bytes (as WSS4J and CXF do, XOP 1.0 section 3), so the signature
/// covers the attachment's content, and verifies the same once the part is inlined.
using xop_parts = std::function<byte_source(std::string_view content_id)>;

/// A key and how to sign with it (a client's requests, a server's responses).
struct signing {
  credentials key;
  signature_options options{};
};

/// Sign a SOAP 1.1 or 1.2 envelope in place. It must hold a wsse:Security header (the one
/// lather's client_security writes); a wsu:Id is added to each element signed that has none,
/// then a BinarySecurityToken (direct reference) and a ds:Signature go at the end of the
/// Security header. Throws std::invalid_argument for an envelope it cannot sign (among them one
/// whose signed elements hold an xop:Include: that needs its parts, below).
void sign_envelope(std::string& envelope, const credentials& key,
                   const signature_options& options = {});
/// The same over the XOP infoset of an MTOM message whose parts `parts` gives. An
/// xop:Include whose href is not "cid:" or names no part throws std::invalid_argument.
void sign_envelope(std::string& envelope, const credentials& key, const signature_options& options,
                   const xop_parts& parts);

/// Sign a message as serialized for HTTP: a SOAP envelope (sign_envelope), or an MTOM
/// multipart/related body (as lather::mtom writes it: "--boundary", the root part holding the
/// envelope, then the parts), whose envelope is signed in place over the XOP infoset with the
/// message's own parts. Throws std::invalid_argument for a message it cannot sign.
void sign_message(std::string& message, const credentials& key,
                  const signature_options& options = {});

/// What a verified signature covers. `body` and `timestamp` are true only when the element
/// signed is the envelope's own Body (the one a server processes, not a copy elsewhere) and
/// the Timestamp of the Security header verified.
struct verified_signature {
  bool body = false;
  bool timestamp = false;
  std::vector<soap::qname> headers;  ///< header entries signed
  std::string subject;               ///< the signer certificate's subject (RFC 2253)
  /// The signed Timestamp's Created and Expires (the epoch where it has none).
  std::chrono::system_clock::time_point created{}, expires{};
};

/// Verify the signature in the envelope's Security header (there must be one): every
/// reference's digest, the signature over SignedInfo, the certificate against `trusted`.
/// wsu:Ids must be unique in the whole message. Failures throw soap::fault_error with a
/// WS-Security code (InvalidSecurity, UnsupportedAlgorithm, SecurityTokenUnavailable,
/// FailedAuthentication for an untrusted certificate, FailedCheck for a digest or signature
/// that does not match).
verified_signature verify_envelope(std::string_view envelope, const trust_store& trusted);
/// The same into `out`, whose strings keep their capacity: with a signer seen before (its
/// certificate found trusted in the last minute), no C++ heap allocation once warm.
void verify_envelope(std::string_view envelope, const trust_store& trusted,
                     verified_signature& out);
/// Verify a message as received whole: a SOAP envelope, or an MTOM multipart/related body
/// (sign_message), over the XOP infoset with the message's own parts. A multipart body that
/// cannot be split is InvalidSecurity.
void verify_message(std::string_view message, const trust_store& trusted, verified_signature& out);

/// Verified over the XOP infoset of an MTOM message whose parts `parts` gives (sign_envelope
/// with parts). An xop:Include inside a signed element whose href is not "cid:" or names no
/// part is InvalidSecurity, and so is one verified without parts (a signature over the
/// Include alone would not cover the attachment); a part whose bytes changed fails its
/// digest (FailedCheck).
void verify_envelope(std::string_view envelope, const trust_store& trusted, verified_signature& out,
                     const xop_parts& parts);

}  // namespace lather::wsse
