// grpc-perf-server — gRPC sync server echoing the CXF perf payload (perf.proto), a benchmark peer.
//
//   grpc-perf-server --port P      (127.0.0.1 only; port 0 picks a free port)
//
// gRPC's default sync-server settings (its own thread pool). Prints
// "listening on 127.0.0.1:P" once ready.
#include <grpcpp/grpcpp.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "command_line.hpp"
#include "perf.grpc.pb.h"

namespace {

class perf_service final : public lather::bench::PerfService::Service {
  grpc::Status EchoComplexTypeDoc(grpc::ServerContext*,
                                  const lather::bench::EchoComplexTypeRequest* request,
                                  lather::bench::EchoComplexTypeResponse* response) override {
    *response->mutable_return_() = request->in();
    response->set_idout(request->id());
    return grpc::Status::OK;
  }
};

}  // namespace

int main(int argc, char** argv) {
  int port = -1;
  lather::tools::command_line cli{
      "grpc-perf-server",
      "gRPC sync server echoing the CXF perf payload (perf.proto) on 127.0.0.1, a benchmark\n"
      "peer. Prints \"listening on 127.0.0.1:PORT\" once ready."};
  cli.add_option("--port", port, "TCP port (0 picks a free one)")->type_name("P")->required();
  cli.parse_or_exit(argc, argv);
  if (port < 0 || port > 65535) cli.fail("--port must be 0..65535");

  perf_service service;
  grpc::ServerBuilder builder;
  int bound_port = 0;
  builder.AddListeningPort("127.0.0.1:" + std::to_string(port), grpc::InsecureServerCredentials(),
                           &bound_port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || bound_port == 0) {
    std::fprintf(stderr, "grpc-perf-server: cannot listen on 127.0.0.1:%d\n", port);
    return 1;
  }
  std::printf("listening on 127.0.0.1:%d\n", bound_port);
  std::fflush(stdout);
  server->Wait();
}
