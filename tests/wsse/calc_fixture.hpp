// The fixture of the WS-Security tests that call a lather server: the test certificates
// (test_certs.hpp, made once), the "Calc" service and a server on a free loopback port. A
// derived fixture registers operations and its server_security, mounts and starts srv_.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "calc_types.hpp"
#include "lather/service/server.hpp"
#include "test_certs.hpp"

namespace wsse_test {

class calc_fixture : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string log;
    dir_ = make_certificates(log);
    ASSERT_FALSE(dir_.empty()) << log;
  }
  void TearDown() override { srv_.stop(); }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(srv_.port()) + "/calc"; }
  static std::optional<std::string> no_passwords(std::string_view) { return std::nullopt; }

  static inline std::filesystem::path dir_;
  lather::service svc_{"Calc", std::string(ns)};
  lather::server srv_{{.address = "127.0.0.1", .port = 0, .threads = 2}};
};

}  // namespace wsse_test
