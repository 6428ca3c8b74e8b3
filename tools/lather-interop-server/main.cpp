// lather-interop-server — the interop contract served by lather, for the interop matrix
// (tests/interop): interop.wsdl's port type as document/literal wrapped at /interop (SOAP 1.1
// and 1.2; WSDL at /interop?wsdl) and as RPC/encoded at /interop/encoded.
// Prints READY once listening on 127.0.0.1:--port.
#include <signal.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>

#include "command_line.hpp"
#include "interop_types.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"

namespace {

using namespace interop_types;

// addNumbers(-1, ..): a Client/Sender fault "negative" with a detail naming the argument.
[[noreturn]] void negative(std::string_view argument, std::int32_t value) {
  lather::soap::fault f;
  f.code = lather::soap::fault_code::sender;
  f.reason = "negative";
  f.set_detail([&](lather::xml::writer& w) {
    w.start_element(ns, "negativeArgument");
    w.start_element(ns, "name");
    w.text(argument);
    w.end_element();
    w.start_element(ns, "value");
    w.text(std::to_string(value));
    w.end_element();
    w.end_element();
  });
  throw lather::soap::fault_error{std::move(f)};
}

std::int32_t checked_sum(std::int32_t a, std::int32_t b) {
  if (a < 0) negative("a", a);
  if (b < 0) negative("b", b);
  return a + b;
}

lather::operation_options literal(std::string_view operation) {
  lather::operation_options o;
  o.soap_action = "urn:interop#" + std::string(operation);
  return o;
}

lather::operation_options encoded(std::string_view operation) {
  lather::operation_options o = literal(operation);
  o.style = lather::soap::style::rpc_encoded;
  o.element_ns = std::string(ns);
  return o;
}

void add_literal_operations(lather::service& s) {
  s.operation(
      "echoString", [](EchoString& in, EchoStringResponse& out) { out.result.swap(in.value); },
      literal("echoString"));
  s.operation(
      "echoInt", [](const EchoInt& in) { return EchoIntResponse{in.value}; }, literal("echoInt"));
  s.operation(
      "echoStruct",
      [](EchoStruct& in, EchoStructResponse& out) { std::swap(out.result, in.value); },
      literal("echoStruct"));
  s.operation(
      "echoArray", [](EchoArray& in, EchoArrayResponse& out) { out.result.swap(in.value); },
      literal("echoArray"));
  s.operation(
      "addNumbers",
      [](const AddNumbers& in) { return AddNumbersResponse{checked_sum(in.a, in.b)}; },
      literal("addNumbers"));
  s.operation(
      "echoBinary",
      [](EchoBinary& in, EchoBinaryResponse& out) { out.result.bytes.swap(in.value.bytes); },
      literal("echoBinary"));
}

void add_encoded_operations(lather::service& s) {
  s.operation(
      "echoString",
      [](EncodedEchoString& in, EncodedEchoStringResponse& out) { out.result.swap(in.value); },
      encoded("echoString"));
  s.operation(
      "echoInt", [](const EncodedEchoInt& in) { return EncodedIntResponse{in.value}; },
      encoded("echoInt"));
  s.operation(
      "echoStruct",
      [](EncodedEchoStruct& in, EncodedEchoStructResponse& out) {
        std::swap(out.result, in.value);
      },
      encoded("echoStruct"));
  s.operation(
      "echoArray",
      [](EncodedEchoArray& in, EncodedEchoArrayResponse& out) { out.result.swap(in.value); },
      encoded("echoArray"));
  s.operation(
      "addNumbers",
      [](const EncodedAddNumbers& in) { return EncodedIntResponse{checked_sum(in.a, in.b)}; },
      encoded("addNumbers"));
  s.operation(
      "echoBinary",
      [](EncodedEchoBinary& in, EncodedEchoBinaryResponse& out) {
        out.result.bytes.swap(in.value.bytes);
      },
      encoded("echoBinary"));
}

}  // namespace

int main(int argc, char** argv) {
  lather::server_options opts;
  opts.address = "127.0.0.1";
  opts.threads = 2;
  lather::tools::command_line cli{
      "lather-interop-server",
      "Serves the interop contract for the interop matrix (tests/interop): document/literal\n"
      "wrapped at /interop (SOAP 1.1 and 1.2; WSDL at /interop?wsdl), RPC/encoded at\n"
      "/interop/encoded, on 127.0.0.1. Prints READY PORT once listening; SIGINT/SIGTERM stop "
      "it."};
  cli.add_option("--port", opts.port, "TCP port (default 0: a free one)")->type_name("P");
  cli.parse_or_exit(argc, argv);

  lather::service literal_service{"Interop", std::string(ns)};
  add_literal_operations(literal_service);
  lather::service_options encoded_options;
  encoded_options.soap12 = false;  // SOAP 1.1 section 5 only, like interop-encoded.wsdl
  lather::service encoded_service{"InteropEncoded", std::string(ns), encoded_options};
  add_encoded_operations(encoded_service);

  // Stop cleanly on SIGTERM/SIGINT: a thread waits for the signal and calls stop().
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  lather::server server{opts};
  server.mount("/interop", literal_service);
  server.mount("/interop/encoded", encoded_service);
  server.start();
  std::cout << "READY " << server.port() << std::endl;
  std::thread stopper([&] {
    int signal = 0;
    sigwait(&signals, &signal);
    server.stop();
  });
  server.run();
  stopper.join();
  return 0;
}
