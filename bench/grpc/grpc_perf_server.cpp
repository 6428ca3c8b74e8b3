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

[[noreturn]] void usage() {
  std::fprintf(stderr, "usage: grpc-perf-server --port P\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  int port = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--port" && i + 1 < argc) {
      char* end = nullptr;
      port = static_cast<int>(std::strtol(argv[++i], &end, 10));
      if (*end != '\0' || port < 0 || port > 65535) usage();
    } else {
      usage();
    }
  }
  if (port < 0) usage();

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
