// The server side of the service layer: one SOAP call from HTTP request to HTTP response.
//
// Per call nothing is allocated once warmed up: an exchange (reader, response buffer, writer)
// is taken from a pool, the request object comes from the operation's own pool, and the
// response is serialized into the exchange's buffer, which forwards to the HTTP body through
// the chunking threshold (so a large response streams while it is written).
#include "lather/service/server.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "lather/bind/error.hpp"
#include "lather/http/error.hpp"
#include "lather/service/wsdl.hpp"
#include "lather/soap/error.hpp"
#include "lather/xml/error.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather {
namespace {

using clock = std::chrono::steady_clock;

// Latency histogram buckets (seconds) for /metrics.
constexpr std::array<double, 14> latency_bounds = {
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0};

struct operation_metrics {
  std::atomic<std::uint64_t> requests{0}, faults{0}, bytes_in{0}, bytes_out{0};
  std::atomic<std::uint64_t> micros_total{0};
  std::array<std::atomic<std::uint64_t>, latency_bounds.size() + 1> buckets{};

  void record(const call_info& info) {
    requests.fetch_add(1, std::memory_order_relaxed);
    if (info.fault) faults.fetch_add(1, std::memory_order_relaxed);
    bytes_in.fetch_add(info.bytes_in, std::memory_order_relaxed);
    bytes_out.fetch_add(info.bytes_out, std::memory_order_relaxed);
    micros_total.fetch_add(info.micros, std::memory_order_relaxed);
    const double s = double(info.micros) * 1e-6;
    std::size_t b = 0;
    while (b < latency_bounds.size() && s > latency_bounds[b]) ++b;
    buckets[b].fetch_add(1, std::memory_order_relaxed);
  }
};

struct mount_point {
  std::string path;
  service* svc = nullptr;
  // Metrics per operation index, plus one slot for calls that failed before dispatch.
  std::vector<std::unique_ptr<operation_metrics>> metrics;
  std::string wsdl_cache;  // generated on first ?wsdl (per advertised address)
  std::string wsdl_address;
  std::mutex wsdl_mutex;
};

soap::fault_error sender_fault(std::string reason, std::error_code ec = {}) {
  soap::fault f;
  f.code = soap::fault_code::sender;
  f.reason = std::move(reason);
  return soap::fault_error(std::move(f), ec);
}

std::string substitute_address(std::string text, std::string_view address) {
  constexpr std::string_view placeholder = "{{address}}";
  for (std::size_t at = text.find(placeholder); at != std::string::npos;
       at = text.find(placeholder, at + address.size()))
    text.replace(at, placeholder.size(), address);
  return text;
}

/// In a catch block: the transport failed (client gone, body limit, I/O timeout, stopping),
/// so the HTTP layer answers or closes and nothing can be written here. An await that ended
/// without its resume (dropped, timed out) is the operation's failure: it gets a fault.
bool transport_failed() {
  try {
    throw;
  } catch (const http::error& e) {
    return e.code() != http::errc::resume_dropped && e.code() != http::errc::await_timeout;
  } catch (...) {
    return false;
  }
}

unsigned fault_status(soap::version v, const soap::fault& f) {
  // SOAP 1.2 HTTP binding (part 2, 7.5.2.2): Sender faults are 400, others 500.
  // SOAP 1.1 / WS-I BP R1126: every fault is 500.
  if (v == soap::version::soap12 && f.code == soap::fault_code::sender) return 400;
  return 500;
}

}  // namespace

// One SOAP call. Reused across calls (pooled); bound to the current HTTP request per call.
class soap_exchange final : public detail::exchange {
 public:
  explicit soap_exchange(const server_options& opts) {
    reader_.set_source([this](char* dest, std::size_t n) { return req_->read_body(dest, n); });
    const std::size_t piece = std::max<std::size_t>(opts.response_chunking.threshold, 1);
    if (opts.response_chunking.never) {
      // The response collects in the HTTP body, sent with its Content-Length at the end; it is
      // bounded like a request body: past body_limit the call fails (a Server fault).
      buf_.set_sink(
          [this, limit = opts.body_limit](std::string_view bytes) {
            xml::output& body = res_->body();
            if (body.size() + bytes.size() > limit)
              throw std::length_error("the response exceeds body_limit (" + std::to_string(limit) +
                                      " bytes), the most a never-chunked response may buffer");
            body.append(bytes);
          },
          piece);
      return;
    }
    // Forward the serialized response to the HTTP body through the chunking threshold.
    buf_.set_sink(
        [this](std::string_view bytes) {
          // Streaming starts: the status and Content-Type go out with the first chunk.
          if (!head_set_) set_head(200, version_);
          xml::output& body = res_->body();
          body.append(bytes);
          body.maybe_flush();
        },
        piece);
  }

  void bind_call(http::request& req, http::response& res, service& svc, soap::version v,
                 std::string_view action) {
    req_ = &req;
    res_ = &res;
    svc_ = &svc;
    version_ = v;
    action_ = action;
    op_ = nullptr;
    head_set_ = false;
    response_headers_.clear();
    reader_.reset();
    reader_.set_limits(svc.options().xml_limits);
    buf_.clear();
    writer_.reset();
  }

  // ---- call_context ----
  soap::version version() const override { return version_; }
  std::string_view operation() const override { return op_ ? std::string_view(op_->name()) : ""; }
  std::string_view soap_action() const override { return action_; }
  std::string_view http_header(std::string_view name) const override { return req_->header(name); }
  std::string_view remote_user() const override {
    const std::string* u = req_->authenticated_user();
    return u ? std::string_view(*u) : std::string_view{};
  }
  void add_response_header(std::function<void(xml::writer&)> write_entry) override {
    response_headers_.push_back(std::move(write_entry));
  }

  // ---- exchange ----
  xml::reader& reader() override { return reader_; }
  const bind::read_options& read_options() const override { return svc_->options().read; }
  std::chrono::milliseconds handler_timeout() const override {
    return svc_->options().handler_timeout;
  }
  soap::envelope_reader& envelope() override { return env_; }
  void finish_request(bool body_consumed) override {
    if (!body_consumed && env_.next_body_element()) {
      throw sender_fault("unexpected second Body element {" + std::string(reader_.ns()) + "}" +
                         std::string(reader_.local_name()));
    }
    env_.finish();
  }
  xml::writer& begin_response(bool encoded) override {
    response_writer_.emplace(writer_, version_);
    response_writer_->begin(svc_->envelope_starts(), encoded);
    if (!response_headers_.empty()) {
      response_writer_->begin_header();
      for (auto& h : response_headers_) h(writer_);
    }
    response_writer_->begin_body();
    return writer_;
  }
  void end_response() override {
    response_writer_->end();
    response_writer_.reset();
    // A response that already streams is complete: its last chunk goes out now, not when the
    // call returns, so the client does not wait while the operation frees a large message's
    // objects (32,000 CXF items take ~10 ms to free).
    if (head_set_) {
      buf_.flush();
      res_->finish();
    }
  }
  void accept_one_way() override { one_way_ = true; }
  [[noreturn]] void request_error(const bind::error_info& e) override {
    throw sender_fault(e.message, make_error_code(e.code));
  }

  // ---- driving a call ----
  void set_head(unsigned status, soap::version v) {
    head_set_ = true;
    if (status != 200) res_->set_status(status);
    // The SOAP media types, checked once for every call.
    static const http::header_line content_type[2] = {
        {"Content-Type", soap::content_type_utf8(soap::version::soap11)},
        {"Content-Type", soap::content_type_utf8(soap::version::soap12)}};
    if (status != 202) res_->set_header(content_type[v == soap::version::soap12]);
  }
  bool head_set_ = false;
  const operation_entry* op_ = nullptr;
  bool one_way_ = false;
  xml::reader reader_;
  soap::envelope_reader env_{reader_};  // kept with the reader: its scope strings stay warm
  xml::output buf_;
  xml::writer writer_{buf_};
  std::optional<soap::envelope_writer> response_writer_;
  std::vector<std::function<void(xml::writer&)>> response_headers_;
  http::request* req_ = nullptr;
  http::response* res_ = nullptr;
  service* svc_ = nullptr;
  soap::version version_ = soap::version::soap11;
  std::string_view action_;
};

struct server::impl {
  server_options opts;
  http::server http;
  std::vector<std::unique_ptr<mount_point>> mounts;
  std::atomic<std::int64_t> in_flight{0};
  std::atomic<std::uint64_t> http_errors{0};

  explicit impl(server_options o)
      : opts(std::move(o)), http(static_cast<http::server_options&>(opts)) {}

  detail::object_pool<soap_exchange> exchanges;

  void handle(mount_point& mp, http::request& req, http::response& res);
  void handle_soap(mount_point& mp, http::request& req, http::response& res);
  void serve_wsdl(mount_point& mp, http::request& req, http::response& res);
  std::string metrics_text() const;
};

void server::impl::handle(mount_point& mp, http::request& req, http::response& res) {
  if (req.path() != mp.path) {
    res.set_status(404);
    res.set_header("Content-Type", "text/plain; charset=utf-8");
    res.body().append("not found\n");
    return;
  }
  if (req.method() == "GET" || req.method() == "HEAD") {
    std::string_view q = req.query();
    if (q == "wsdl" || q == "WSDL" || q.starts_with("wsdl=") || q.starts_with("WSDL=")) {
      serve_wsdl(mp, req, res);
      return;
    }
    res.set_status(405);
    res.set_header("Allow", "POST");
    res.set_header("Content-Type", "text/plain; charset=utf-8");
    res.body().append("POST a SOAP request here, or GET ?wsdl for the WSDL\n");
    return;
  }
  if (req.method() != "POST") {
    res.set_status(405);
    res.set_header("Allow", "POST, GET");
    return;
  }
  handle_soap(mp, req, res);
}

void server::impl::handle_soap(mount_point& mp, http::request& req, http::response& res) {
  const auto started = clock::now();
  service& svc = *mp.svc;
  call_info info;

  auto ct = soap::parse_content_type(req.header("Content-Type"));
  if (!ct) {
    // Not a SOAP media type: an HTTP-level answer, as CXF and WCF give (415).
    res.set_status(415);
    res.set_header("Content-Type", "text/plain; charset=utf-8");
    res.body().append(
        "expected Content-Type text/xml (SOAP 1.1) or application/soap+xml "
        "(SOAP 1.2)\n");
    http_errors.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  info.version = ct->ver;
  std::string_view action = ct->ver == soap::version::soap11
                                ? soap::unquote_soap_action(req.header("SOAPAction"))
                                : std::string_view(ct->action);

  auto lease = exchanges.take(opts);
  soap_exchange& x = *lease;
  x.bind_call(req, res, svc, ct->ver, action);
  x.one_way_ = false;
  in_flight.fetch_add(1, std::memory_order_relaxed);

  bool accepted = ct->ver == soap::version::soap11 ? svc.options().soap11 : svc.options().soap12;
  std::size_t op_index = svc.operations().size();  // = "no operation" metrics slot
  try {
    soap::envelope_options eo;
    eo.on_header = [&x, &svc](const soap::header_info& h, xml::reader& r) {
      for (const auto& hb : svc.headers())
        if (h.is(hb.ns, hb.local)) {
          hb.read(x, r);
          return soap::header_use::consumed;
        }
      return soap::header_use::not_understood;
    };
    // The endpoint's accepted version, for a precise VersionMismatch.
    if (!accepted)
      eo.expect = ct->ver == soap::version::soap11 ? soap::version::soap12 : soap::version::soap11;
    else
      eo.expect = ct->ver;
    x.env_.set_options(std::move(eo));
    x.env_.begin();
    if (!x.env_.at_body_element()) throw sender_fault("the SOAP Body is empty");
    const operation_entry* op = svc.find(x.reader_.ns(), x.reader_.local_name(), action);
    if (!op) {
      std::string reason = "no operation takes body element {" + std::string(x.reader_.ns()) + "}" +
                           std::string(x.reader_.local_name());
      if (!action.empty()) reason += " (SOAPAction \"" + std::string(action) + "\")";
      throw sender_fault(std::move(reason));
    }
    if (op->request_element() != x.reader_.local_name() ||
        (op->request_ns() != x.reader_.ns() &&
         !(x.reader_.ns().empty() && soap::is_rpc(op->options().style))))
      throw sender_fault("operation " + op->name() + " (SOAPAction \"" + std::string(action) +
                         "\") takes body element {" + std::string(op->request_ns()) + "}" +
                         std::string(op->request_element()) + ", not {" +
                         std::string(x.reader_.ns()) + "}" + std::string(x.reader_.local_name()));
    x.op_ = op;
    op_index = op->index();
    info.operation = op->name();
    for (const auto& ic : svc.interceptors())
      if (ic.before) ic.before(x);
    const_cast<operation_entry*>(op)->invoke(x);
    if (!x.head_set_) x.set_head(x.one_way_ ? 202 : 200, ct->ver);
  } catch (...) {
    if (transport_failed()) {
      in_flight.fetch_sub(1, std::memory_order_relaxed);
      throw;
    }
    soap::fault f = soap::fault_from_exception(std::current_exception(), opts.hide_internal_errors);
    info.fault = true;
    if (x.head_set_) {
      // Part of a streamed response is already on the wire: the only honest signal left is
      // to cut the connection (the client sees a truncated message, not a bogus success).
      in_flight.fetch_sub(1, std::memory_order_relaxed);
      throw;
    }
    x.buf_.clear();
    res.body().clear();  // what a never-chunked response had collected (nothing is sent yet)
    x.writer_.reset();
    x.response_writer_.reset();
    soap::version fv = x.version_;
    if (f.code == soap::fault_code::version_mismatch) fv = soap::version::soap11;
    info.http_status = fault_status(fv, f);
    x.set_head(info.http_status, fv);
    soap::write_fault_envelope(x.writer_, fv, f);
  }
  // Whatever the sink did not forward yet goes to the HTTP body now (small responses: all).
  if (x.buf_.size() > 0) res.body().append(x.buf_.view());
  info.bytes_in = x.reader_.bytes_consumed();
  info.bytes_out = x.buf_.flushed() + x.buf_.size();
  if (!info.fault) info.http_status = x.one_way_ ? 202 : 200;
  info.micros = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(clock::now() - started).count());
  mp.metrics[op_index]->record(info);
  for (const auto& ic : svc.interceptors())
    if (ic.after) ic.after(x, info);
  if (opts.access_log)
    std::fprintf(opts.access_log, "POST %s %s %u in=%llu out=%llu %lluus\n", mp.path.c_str(),
                 info.operation.empty() ? "-" : std::string(info.operation).c_str(),
                 info.http_status, static_cast<unsigned long long>(info.bytes_in),
                 static_cast<unsigned long long>(info.bytes_out),
                 static_cast<unsigned long long>(info.micros));
  in_flight.fetch_sub(1, std::memory_order_relaxed);
}

void server::impl::serve_wsdl(mount_point& mp, http::request& req, http::response& res) {
  std::string address = opts.public_base_url;
  if (address.empty()) {
    std::string_view host = req.header("Host");
    address = std::string(opts.tls ? "https://" : "http://") +
              (host.empty() ? opts.address + ":" + std::to_string(http.port()) : std::string(host));
  }
  address += mp.path;
  std::string text;
  {
    std::lock_guard lock(mp.wsdl_mutex);
    if (mp.wsdl_cache.empty() || mp.wsdl_address != address) {
      mp.wsdl_cache = mp.svc->options().static_wsdl.empty()
                          ? generate_wsdl(*mp.svc, address)
                          : substitute_address(mp.svc->options().static_wsdl, address);
      mp.wsdl_address = address;
    }
    text = mp.wsdl_cache;
  }
  res.set_header("Content-Type", "text/xml; charset=utf-8");
  if (req.method() == "GET") res.body().append(text);
}

std::string server::impl::metrics_text() const {
  std::string out;
  auto line = [&out](const std::string& s) {
    out += s;
    out += '\n';
  };
  line("# HELP lather_requests_total SOAP calls handled, by service and operation.");
  line("# TYPE lather_requests_total counter");
  auto label = [](const mount_point& mp, std::size_t i) {
    std::string op = i < mp.svc->operations().size() ? mp.svc->operations()[i]->name() : "";
    return "{service=\"" + mp.svc->name() + "\",path=\"" + mp.path + "\",operation=\"" + op + "\"}";
  };
  for (const auto& mp : mounts)
    for (std::size_t i = 0; i < mp->metrics.size(); ++i)
      line("lather_requests_total" + label(*mp, i) + " " +
           std::to_string(mp->metrics[i]->requests.load()));
  line("# HELP lather_faults_total SOAP faults returned.");
  line("# TYPE lather_faults_total counter");
  for (const auto& mp : mounts)
    for (std::size_t i = 0; i < mp->metrics.size(); ++i)
      line("lather_faults_total" + label(*mp, i) + " " +
           std::to_string(mp->metrics[i]->faults.load()));
  line("# HELP lather_request_bytes_total SOAP request bytes parsed.");
  line("# TYPE lather_request_bytes_total counter");
  for (const auto& mp : mounts)
    for (std::size_t i = 0; i < mp->metrics.size(); ++i)
      line("lather_request_bytes_total" + label(*mp, i) + " " +
           std::to_string(mp->metrics[i]->bytes_in.load()));
  line("# HELP lather_response_bytes_total SOAP response bytes written.");
  line("# TYPE lather_response_bytes_total counter");
  for (const auto& mp : mounts)
    for (std::size_t i = 0; i < mp->metrics.size(); ++i)
      line("lather_response_bytes_total" + label(*mp, i) + " " +
           std::to_string(mp->metrics[i]->bytes_out.load()));
  line("# HELP lather_request_duration_seconds Time from request start to response written.");
  line("# TYPE lather_request_duration_seconds histogram");
  for (const auto& mp : mounts) {
    for (std::size_t i = 0; i < mp->metrics.size(); ++i) {
      const auto& m = *mp->metrics[i];
      std::string l = label(*mp, i);
      l.pop_back();  // reopen the label set for "le"
      std::uint64_t cumulative = 0;
      for (std::size_t b = 0; b < latency_bounds.size(); ++b) {
        cumulative += m.buckets[b].load();
        char bound[32];
        std::snprintf(bound, sizeof bound, "%g", latency_bounds[b]);
        line("lather_request_duration_seconds_bucket" + l + ",le=\"" + bound + "\"} " +
             std::to_string(cumulative));
      }
      cumulative += m.buckets[latency_bounds.size()].load();
      line("lather_request_duration_seconds_bucket" + l + ",le=\"+Inf\"} " +
           std::to_string(cumulative));
      char sum[64];
      std::snprintf(sum, sizeof sum, "%.6f", double(m.micros_total.load()) * 1e-6);
      line("lather_request_duration_seconds_sum" + label(*mp, i) + " " + sum);
      line("lather_request_duration_seconds_count" + label(*mp, i) + " " +
           std::to_string(m.requests.load()));
    }
  }
  line("# HELP lather_in_flight SOAP calls being handled now.");
  line("# TYPE lather_in_flight gauge");
  line("lather_in_flight " + std::to_string(in_flight.load()));
  line("# HELP lather_http_errors_total Requests refused before SOAP processing (e.g. 415).");
  line("# TYPE lather_http_errors_total counter");
  line("lather_http_errors_total " + std::to_string(http_errors.load()));
  auto st = http.get_stats();
  line("# HELP lather_http_connections_total Connections accepted.");
  line("# TYPE lather_http_connections_total counter");
  line("lather_http_connections_total " + std::to_string(st.connections_total));
  line("# HELP lather_http_connections_open Connections open now.");
  line("# TYPE lather_http_connections_open gauge");
  line("lather_http_connections_open " + std::to_string(st.connections_open));
  line("# HELP lather_http_spins_total Worker spins before sleeping (spin_budget), by outcome.");
  line("# TYPE lather_http_spins_total counter");
  line("lather_http_spins_total{outcome=\"found_work\"} " + std::to_string(st.spins_found_work));
  line("lather_http_spins_total{outcome=\"gave_up\"} " + std::to_string(st.spins_gave_up));
  return out;
}

server::server(server_options opts) : impl_(std::make_unique<impl>(std::move(opts))) {
  impl_->http.route("/healthz", [](http::request& req, http::response& res) {
    res.set_header("Content-Type", "text/plain; charset=utf-8");
    if (req.path() != "/healthz") {
      res.set_status(404);
      return;
    }
    res.body().append("ok\n");
  });
  impl_->http.route("/metrics", [this](http::request& req, http::response& res) {
    if (req.path() != "/metrics") {
      res.set_status(404);
      return;
    }
    res.set_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    res.body().append(impl_->metrics_text());
  });
}

server::~server() = default;

void server::mount(std::string path, service& s) {
  auto mp = std::make_unique<mount_point>();
  mp->path = path;
  mp->svc = &s;
  for (std::size_t i = 0; i <= s.operations().size(); ++i)
    mp->metrics.push_back(std::make_unique<operation_metrics>());
  mount_point* raw = mp.get();
  impl_->mounts.push_back(std::move(mp));
  impl_->http.route(std::move(path), [this, raw](http::request& req, http::response& res) {
    impl_->handle(*raw, req, res);
  });
}

void server::start() {
  impl_->http.start();
}
void server::run() {
  impl_->http.run();
}
void server::stop() {
  impl_->http.stop();
}
std::uint16_t server::port() const {
  return impl_->http.port();
}
std::string server::metrics_text() const {
  return impl_->metrics_text();
}

}  // namespace lather
