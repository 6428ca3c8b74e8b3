// Certificates for the signature tests, made with the openssl command line in a directory of
// the test's own: a CA, a signer certificate it issued (with a subject key identifier, serial
// 4242), and a self-signed certificate nobody trusts. Files: ca.pem, signer.key, signer.pem,
// rogue.key, rogue.pem.
#pragma once

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "../support/process.hpp"

namespace wsse_test {

/// Makes the files under a fresh temporary directory and returns it ("" on failure; `log`
/// gets openssl's output).
inline std::filesystem::path make_certificates(std::string_view name, std::string& log) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lather-" + std::string(name) + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string script =
      "set -e; cd '" + dir.string() +
      "'; printf 'subjectKeyIdentifier=hash\\n' > ext.cnf;"
      " openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem"
      " -subj '/CN=lather test CA' -days 2 2>&1;"
      " openssl req -newkey rsa:2048 -nodes -keyout signer.key -out signer.csr"
      " -subj '/O=lather/CN=signer' 2>&1;"
      " openssl x509 -req -in signer.csr -CA ca.pem -CAkey ca.key -set_serial 4242 -days 2"
      " -extfile ext.cnf -out signer.pem 2>&1;"
      " openssl req -x509 -newkey rsa:2048 -nodes -keyout rogue.key -out rogue.pem"
      " -subj '/CN=rogue' -days 2 2>&1";
  const auto r = lather::test::run({"/bin/sh", "-c", script},
                                   lather::test::clock::now() + std::chrono::seconds(60));
  log = r.out;
  return r.exit == 0 ? dir : std::filesystem::path{};
}

}  // namespace wsse_test
