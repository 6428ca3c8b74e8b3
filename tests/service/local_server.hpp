// A lather::server inside the test's process: 127.0.0.1, a reserved test port
// (tests/support/process.hpp: no other test and no client's connect() is ever given it, so
// nothing but the test reaches the server, which the allocation counts rely on), one service
// mounted, started at construction and stopped (gracefully) at destruction.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "../support/process.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"

namespace lather_test {

class local_server {
 public:
  /// `o`'s address and port are replaced (127.0.0.1, a test port); everything else is kept.
  local_server(std::string_view path, lather::service& svc, lather::server_options o = {}) {
    o.address = "127.0.0.1";
    o.port = static_cast<std::uint16_t>(lather::test::free_port());
    server_.emplace(o);
    server_->mount(std::string(path), svc);
    server_->start();
  }
  ~local_server() { server_->stop(); }
  local_server(const local_server&) = delete;
  local_server& operator=(const local_server&) = delete;

  std::string url(std::string_view path) const {
    return "http://127.0.0.1:" + std::to_string(server_->port()) + std::string(path);
  }

 private:
  std::optional<lather::server> server_;
};

}  // namespace lather_test
