// greeter-server [PORT]: serves the greeter on 127.0.0.1 (PORT 0 or none: any free port) and
// prints the URL it serves.
#include <cstdio>
#include <string>

#include "greeter.hpp"

int main(int argc, char** argv) {
  lather::service greeter{"Greeter", "urn:greeter"};
  greeter.operation("greet",
                    [](const greet& in) { return greetResponse{"Hello, " + in.name + "!"}; });

  lather::server_options options;
  options.port = argc > 1 ? static_cast<std::uint16_t>(std::stoi(argv[1])) : 0;
  lather::server server{options};
  server.mount("/greeter", greeter);
  server.start();
  std::printf("http://127.0.0.1:%u/greeter\n", unsigned(server.port()));
  std::fflush(stdout);
  server.run();
}
