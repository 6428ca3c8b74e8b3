// greeter-client URL NAME: calls greet on the greeter at URL and prints the greeting.
#include <cstdio>
#include <exception>

#include "greeter.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: greeter-client URL NAME\n");
    return 2;
  }
  try {
    lather::client client{argv[1]};
    auto reply = client.call<greetResponse>("greet", greet{argv[2]});
    std::printf("%s\n", reply.greeting.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "greeter-client: %s\n", e.what());
    return 1;
  }
}
