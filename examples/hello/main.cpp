// The ten-line lather service: docs/getting-started.md walks through it.
#include <lather/service/server.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

struct greet { std::string name; };
struct greetResponse { std::string greeting; };
template <> struct lather::meta<greet> {
  static constexpr std::string_view name = "greet", ns = "urn:hello";
  static constexpr auto fields = std::tuple{element("name", &greet::name)};
};
template <> struct lather::meta<greetResponse> {
  static constexpr std::string_view name = "greetResponse", ns = "urn:hello";
  static constexpr auto fields = std::tuple{element("greeting", &greetResponse::greeting)};
};

int main(int argc, char** argv) {
  const unsigned long port = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 8080;  // 0: any free
  if (port > 65535) {
    std::fprintf(stderr, "usage: lather-example-hello [PORT]\n");
    return 2;
  }
  lather::service hello{"Hello", "urn:hello"};
  hello.operation("greet", [](const greet& in) { return greetResponse{"Hello, " + in.name + "!"}; });
  lather::server srv{{.port = static_cast<std::uint16_t>(port)}};
  srv.mount("/hello", hello);  // POST /hello (SOAP 1.1/1.2), GET /hello?wsdl
  srv.start();
  std::printf("listening on http://127.0.0.1:%u/hello\n", unsigned(srv.port()));
  std::fflush(stdout);
  srv.run();  // until SIGTERM/SIGINT
}
