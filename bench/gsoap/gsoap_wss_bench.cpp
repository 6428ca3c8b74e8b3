// gsoap-wss-bench — gSOAP 2.8 with its wsse plugin (wsseapi.c, smdevp.c, mecevp.c) as the
// WS-Security benchmark peer: a server thread and a client in one process over one loopback
// keep-alive connection, calling add(2, 3) for --seconds and printing calls per second.
//
//   gsoap-wss-bench --mode plain|digest|sign [--seconds S] [--certs DIR]
//
// digest: the client adds a UsernameToken with PasswordDigest (soap_wsse_add_UsernameTokenDigest)
// to each request, the server checks it (soap_wsse_verify_Password). sign: the client adds a
// Timestamp and a BinarySecurityToken and signs Body and Timestamp with RSA-SHA256 over exc-c14n
// (soap_wsse_sign_body, soap_wsse_sign_only); the server verifies (soap_wsse_verify_auto with
// DIR/ca.pem as cafile) and checks that the Body was signed (soap_wsse_verify_body). DIR holds
// signer.key, signer.pem and ca.pem. Output: "RESULT engine=gsoap mode=M calls_per_s=N".
#include <openssl/pem.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "bound_port.hpp"
#include "calc.nsmap"
#include "soapH.h"
#include "wsseapi.h"

namespace {

enum class mode { plain, digest, sign };
constexpr const char* user = "alice";
constexpr const char* password = "wonderland";

int base_flags(mode m) {
  // Buffered: Content-Length framing, so the connection stays open between calls.
  return SOAP_IO_KEEPALIVE | SOAP_IO_BUFFER | (m == mode::sign ? SOAP_XML_CANONICAL : 0);
}

}  // namespace

int ns__add(soap* ctx, int a, int b, ns__addResponse* out) {
  const mode m = *static_cast<const mode*>(ctx->user);
  if (m == mode::digest) {
    const char* name = soap_wsse_get_Username(ctx);
    if (!name || std::strcmp(name, user) != 0 || soap_wsse_verify_Password(ctx, password)) {
      soap_wsse_delete_Security(ctx);
      return soap_wsse_sender_fault(ctx, "authentication failed", nullptr);
    }
  } else if (m == mode::sign) {
    if (soap_wsse_verify_Timestamp(ctx) || soap_wsse_verify_body(ctx)) {
      soap_wsse_delete_Security(ctx);
      return soap_wsse_sender_fault(ctx, "signature required", nullptr);
    }
  }
  soap_wsse_delete_Security(ctx);
  out->result = a + b;
  return SOAP_OK;
}

int main(int argc, char** argv) {
  mode m = mode::plain;
  double seconds = 3;
  std::string certs = ".";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--mode")
      m = value == "digest" ? mode::digest : value == "sign" ? mode::sign : mode::plain;
    else if (flag == "--seconds")
      seconds = std::stod(value);
    else if (flag == "--certs")
      certs = value;
  }
  const char* mode_name = m == mode::digest ? "digest" : m == mode::sign ? "sign" : "plain";

  soap server;
  soap_init1(&server, base_flags(m));
  soap_set_namespaces(&server, namespaces);
  soap_register_plugin(&server, soap_wsse);
  server.user = &m;
  server.bind_flags = SO_REUSEADDR;
  server.max_keep_alive = 0;  // keep the connection (gSOAP's default closes after 100 calls)
  const std::string cafile = certs + "/ca.pem";
  if (m == mode::sign) {
    soap_wsse_verify_auto(&server, SOAP_SMD_NONE, nullptr, 0);
    server.cafile = cafile.c_str();
  }
  if (!soap_valid_socket(soap_bind(&server, "127.0.0.1", 0, 16))) {
    soap_print_fault(&server, stderr);
    return 1;
  }
  const std::string endpoint =
      "http://127.0.0.1:" + std::to_string(gsoap_peer::bound_port(server.master)) + "/calc";
  std::thread serving([&server] {
    // One client connection, served until it closes.
    if (soap_valid_socket(soap_accept(&server))) soap_serve(&server);
    soap_destroy(&server);
    soap_end(&server);
    soap_force_closesock(&server);
  });

  EVP_PKEY* key = nullptr;
  X509* cert = nullptr;
  if (m == mode::sign) {
    FILE* f = std::fopen((certs + "/signer.key").c_str(), "r");
    if (f) key = PEM_read_PrivateKey(f, nullptr, nullptr, nullptr), std::fclose(f);
    f = std::fopen((certs + "/signer.pem").c_str(), "r");
    if (f) cert = PEM_read_X509(f, nullptr, nullptr, nullptr), std::fclose(f);
    if (!key || !cert) {
      std::fprintf(stderr, "cannot read %s/signer.key and signer.pem\n", certs.c_str());
      return 1;
    }
  }
  soap client;
  soap_init1(&client, base_flags(m));
  soap_set_namespaces(&client, namespaces);
  soap_register_plugin(&client, soap_wsse);
  long calls = 0, failures = 0;
  const auto start = std::chrono::steady_clock::now();
  const auto until = start + std::chrono::duration<double>(seconds);
  auto now = start;
  do {
    if (m == mode::digest) {
      soap_wsse_add_UsernameTokenDigest(&client, "User", user, password);
    } else if (m == mode::sign) {
      soap_wsse_add_Timestamp(&client, "Time", 300);
      soap_wsse_add_BinarySecurityTokenX509(&client, "X509Token", cert);
      soap_wsse_add_KeyInfo_SecurityTokenReferenceX509(&client, "#X509Token");
      soap_wsse_sign_body(&client, SOAP_SMD_SIGN_RSA_SHA256, key, 0);
      soap_wsse_sign_only(&client, "Time Body");
    }
    ns__addResponse out;
    if (soap_call_ns__add(&client, endpoint.c_str(), nullptr, 2, 3, &out) != SOAP_OK ||
        out.result != 5) {
      if (failures++ == 0) soap_print_fault(&client, stderr);
    }
    soap_wsse_delete_Security(&client);
    soap_destroy(&client);
    soap_end(&client);
    ++calls;
    now = std::chrono::steady_clock::now();
  } while (now < until);
  soap_force_closesock(&client);  // ends the server's soap_serve
  serving.join();
  soap_done(&client);
  soap_done(&server);
  const double elapsed = std::chrono::duration<double>(now - start).count();
  std::printf("RESULT engine=gsoap mode=%s calls_per_s=%.0f failures=%ld\n", mode_name,
              calls / elapsed, failures);
  return failures == 0 ? 0 : 1;
}
