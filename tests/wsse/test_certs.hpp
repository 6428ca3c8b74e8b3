// Certificates for the signature tests, made with the openssl command line: a CA, a signer
// certificate it issued (with a subject key identifier, serial 4242), and a self-signed certificate
// nobody trusts. Files: ca.pem, signer.key, signer.pem, rogue.key, rogue.pem.
#pragma once

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "../support/paths.hpp"
#include "../support/process.hpp"

namespace wsse_test {

/// The directory holding the files ("" on failure; `log` gets openssl's output). Made once per
/// build tree and kept (valid for ten years): test processes run one test each and in
/// parallel, and three RSA keys take seconds. Made in a directory of this process, then
/// renamed into place, so parallel tests never see half of it.
inline std::filesystem::path make_certificates(std::string& log) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(lather::test::bin_dir).parent_path() / "wsse-test-certs";
  if (fs::exists(dir / "rogue.pem")) return dir;
  const fs::path work = dir.string() + ".tmp-" + std::to_string(::getpid());
  fs::remove_all(work);
  fs::create_directories(work);
  const std::string script =
      "set -e; cd '" + work.string() +
      "'; printf 'subjectKeyIdentifier=hash\\n' > ext.cnf;"
      " openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem"
      " -subj '/CN=lather test CA' -days 3650 2>&1;"
      " openssl req -newkey rsa:2048 -nodes -keyout signer.key -out signer.csr"
      " -subj '/O=lather/CN=signer' 2>&1;"
      " openssl x509 -req -in signer.csr -CA ca.pem -CAkey ca.key -set_serial 4242 -days 3650"
      " -extfile ext.cnf -out signer.pem 2>&1;"
      " openssl req -x509 -newkey rsa:2048 -nodes -keyout rogue.key -out rogue.pem"
      " -subj '/CN=rogue' -days 3650 2>&1";
  const auto r = lather::test::run({"/bin/sh", "-c", script},
                                   lather::test::clock::now() + std::chrono::seconds(60));
  log = r.out;
  std::error_code ec;
  if (r.exit == 0) fs::rename(work, dir, ec);  // fails if another test got there first
  fs::remove_all(work, ec);
  return fs::exists(dir / "rogue.pem") ? dir : fs::path{};
}

}  // namespace wsse_test
