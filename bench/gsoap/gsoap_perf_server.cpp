// gsoap-perf-server — gSOAP 2.8 serving the CXF perf DocPortType, as a benchmark peer.
//
// gSOAP's documented multi-threaded server pattern: one master context accepts, a fixed pool of
// worker contexts (soap_copy) takes accepted sockets from a queue, soap_serve() handles every
// request of a keep-alive connection, and memory is freed after each request (fserveloop runs
// soap_destroy + soap_end). A keep-alive connection occupies one worker until it closes, so run
// at least as many threads as client connections.
//
//   gsoap-perf-server --port P [--threads N] [--io buffer|store|chunk]
//                     [--qname-prefix generated|fixed] [--timeout S] [--quiet]   (--help)
//
// The service answers POSTs on any path (gSOAP does not route by path); /perf is printed.
//
// Built a second time against libgsoapssl++ (WITH_OPENSSL) as gsoap-perf-server-tls, which
// adds --tls-keyfile FILE: HTTPS, gSOAP's soap_ssl_server_context (TLS 1.2 and 1.3, its session
// id context set, so its OpenSSL session cache and tickets are on) and soap_ssl_accept in each
// worker before soap_serve.
#include <sys/socket.h>

#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bound_port.hpp"
#include "command_line.hpp"
#include "gsoap_perf_model.hpp"

namespace {

struct options {
  int port = 8080;
  int threads = 64;
  int io_mode = SOAP_IO_BUFFER;
  gsoap_qname_prefix qname = gsoap_qname_prefix::as_generated;
  int timeout_s = 0;
  bool quiet = false;
  std::string tls_keyfile;  ///< WITH_OPENSSL: private key and certificate chain, one PEM file
};

options parse_options(int argc, char** argv) {
  options opts;
  std::string io = "buffer", qname = "generated";
  lather::tools::command_line cli{
      "gsoap-perf-server",
      "gSOAP 2.8 serving the CXF perf DocPortType on 127.0.0.1, a benchmark peer: one keep-alive\n"
      "connection per worker thread. Prints \"listening on http://127.0.0.1:PORT/perf\"."};
  cli.add_option("--port", opts.port, "TCP port (default 8080; 0 picks a free one)")
      ->type_name("P");
  cli.add_option("--threads", opts.threads, "worker threads, one per connection (default 64)")
      ->type_name("N");
  cli.add_option("--io", io,
                 "response framing: buffer (two passes, Content-Length; default),\n"
                 "store (one pass into memory) or chunk")
      ->type_name("buffer|store|chunk");
  cli.add_option("--qname-prefix", qname,
                 "generated (default: a fresh xmlns per QName value) or fixed\n"
                 "(its namespace declared once on the Envelope)")
      ->type_name("generated|fixed");
  cli.add_option("--timeout", opts.timeout_s, "socket send/receive timeout (default 0: none)")
      ->type_name("SECONDS");
  cli.add_flag("--quiet", opts.quiet, "no accept errors on stderr");
#ifdef WITH_OPENSSL
  cli.add_option("--tls-keyfile", opts.tls_keyfile,
                 "serve HTTPS: the private key and certificate chain in one PEM file")
      ->type_name("FILE");
#endif
  cli.parse_or_exit(argc, argv);
  opts.io_mode = gsoap_perf::parse_io_mode(cli, io);
  opts.qname = gsoap_perf::parse_qname_prefix(cli, qname);
  if (opts.threads < 1) cli.fail("--threads must be >= 1");
  if (opts.port < 0 || opts.port > 65535) cli.fail("--port must be 0..65535");
  if (opts.timeout_s < 0) cli.fail("--timeout must be >= 0");
  return opts;
}

/// Accepted sockets waiting for a worker.
class socket_queue {
 public:
  void push(SOAP_SOCKET socket) {
    {
      std::lock_guard lock(mutex_);
      sockets_.push_back(socket);
    }
    ready_.notify_one();
  }
  SOAP_SOCKET pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [this] { return !sockets_.empty(); });
    const SOAP_SOCKET socket = sockets_.front();
    sockets_.pop_front();
    return socket;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<SOAP_SOCKET> sockets_;
};

int free_request_memory(soap* ctx) {
  soap_destroy(ctx);
  soap_end(ctx);
  return SOAP_OK;
}

void serve_connections(soap* ctx, socket_queue& queue, bool tls) {
  for (;;) {
    ctx->socket = queue.pop();
#ifdef WITH_OPENSSL
    if (!tls || soap_ssl_accept(ctx) == SOAP_OK) soap_serve(ctx);
#else
    (void)tls;
    soap_serve(ctx);
#endif
    soap_destroy(ctx);
    soap_end(ctx);
    soap_force_closesock(ctx);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const options opts = parse_options(argc, argv);
  std::signal(SIGPIPE, SIG_IGN);

  soap master;
  soap_init1(&master, SOAP_IO_KEEPALIVE | opts.io_mode);
  soap_set_namespaces(&master, gsoap_perf::namespace_table(opts.qname));
  master.bind_flags = SO_REUSEADDR;
  master.max_keep_alive = 0;  // 0 = keep connections open (gSOAP's default closes after 100)
  // Socket timeouts make gSOAP select() before every recv/send; off by default (fastest), and
  // benchmark clients close their connections, which frees the workers.
  master.recv_timeout = opts.timeout_s;
  master.send_timeout = opts.timeout_s;
  master.fserveloop = &free_request_memory;
  const bool tls = !opts.tls_keyfile.empty();
#ifdef WITH_OPENSSL
  if (tls) {
    soap_ssl_init();
    if (soap_ssl_server_context(
            &master,
            SOAP_SSL_NO_AUTHENTICATION | SOAP_SSL_NO_DEFAULT_CA_PATH | SOAP_TLSv1_2 | SOAP_TLSv1_3,
            opts.tls_keyfile.c_str(), nullptr, nullptr, nullptr, nullptr, nullptr,
            "gsoap-perf-server") != SOAP_OK) {
      soap_print_fault(&master, stderr);
      return 1;
    }
  }
#endif
  if (!soap_valid_socket(soap_bind(&master, "127.0.0.1", opts.port, 1024))) {
    soap_print_fault(&master, stderr);
    return 1;
  }

  socket_queue queue;
  std::vector<std::thread> workers;
  workers.reserve(static_cast<std::size_t>(opts.threads));
  for (int i = 0; i < opts.threads; ++i) {
    soap* worker = soap_copy(&master);
    workers.emplace_back([worker, &queue, tls] { serve_connections(worker, queue, tls); });
  }

  std::printf("listening on %s://127.0.0.1:%d/perf\n", tls ? "https" : "http",
              gsoap_peer::bound_port(master.master));
  std::fflush(stdout);
  for (;;) {
    const SOAP_SOCKET socket = soap_accept(&master);
    if (!soap_valid_socket(socket)) {
      if (!opts.quiet) soap_print_fault(&master, stderr);
      continue;
    }
    queue.push(socket);
  }
}

// The service operations. The Doc operations are what the benchmark calls; the RPC and the
// duplicate Sec/Wrapped bindings of perf.wsdl are generated too and answer the same way.

int __tns__echoComplexTypeDoc(soap* ctx, _x1__echoComplexTypeDoc* request,
                              _x1__echoComplexTypeDocResponse& response) {
  if (request == nullptr || request->in == nullptr) {
    return soap_sender_fault(ctx, "missing echoComplexTypeDoc/in", nullptr);
  }
  response.return_ = request->in;
  response.idout = request->id;
  return SOAP_OK;
}

int __tns__echoStringDoc(soap* ctx, _x1__echoStringDoc* request,
                         _x1__echoStringDocResponse& response) {
  if (request == nullptr) return soap_sender_fault(ctx, "missing echoStringDoc", nullptr);
  response.out.swap(request->in);
  return SOAP_OK;
}

int __tns__echoBase64Doc(soap* ctx, _x1__echoBase64Doc* request,
                         _x1__echoBase64DocResponse& response) {
  if (request == nullptr) return soap_sender_fault(ctx, "missing echoBase64Doc", nullptr);
  response.out = request->in;
  return SOAP_OK;
}

int __tns__echoComplexTypeDoc_(soap* ctx, _x1__echoComplexTypeDoc* request,
                               _x1__echoComplexTypeDocResponse& response) {
  return __tns__echoComplexTypeDoc(ctx, request, response);
}
int __tns__echoStringDoc_(soap* ctx, _x1__echoStringDoc* request,
                          _x1__echoStringDocResponse& response) {
  return __tns__echoStringDoc(ctx, request, response);
}
int __tns__echoBase64Doc_(soap* ctx, _x1__echoBase64Doc* request,
                          _x1__echoBase64DocResponse& response) {
  return __tns__echoBase64Doc(ctx, request, response);
}
int __tns__echoComplexTypeDoc__(soap* ctx, _x1__echoComplexTypeDoc* request,
                                _x1__echoComplexTypeDocResponse& response) {
  return __tns__echoComplexTypeDoc(ctx, request, response);
}
int __tns__echoStringDoc__(soap* ctx, _x1__echoStringDoc* request,
                           _x1__echoStringDocResponse& response) {
  return __tns__echoStringDoc(ctx, request, response);
}
int __tns__echoBase64Doc__(soap* ctx, _x1__echoBase64Doc* request,
                           _x1__echoBase64DocResponse& response) {
  return __tns__echoBase64Doc(ctx, request, response);
}

int echoStringRPC(soap*, std::string in, echoStringRPCResponse& response) {
  response.out.swap(in);
  return SOAP_OK;
}
int echoBase64RPC(soap*, xsd__base64Binary in, echoBase64RPCResponse& response) {
  response.out = in;
  return SOAP_OK;
}
int echoComplexTypeRPC(soap*, x1__NestedComplexTypeSeq* in, echoComplexTypeRPCResponse& response) {
  response.out = in;
  return SOAP_OK;
}
