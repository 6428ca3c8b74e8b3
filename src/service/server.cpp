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
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "lather/bind/error.hpp"
#include "lather/http/error.hpp"
#include "lather/service/addressing_action.hpp"
#include "lather/service/wsdl.hpp"
#include "lather/soap/error.hpp"
#include "lather/xml/error.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

#include "server_impl.hpp"

namespace lather {

using detail::mount_point;
using detail::operation_metrics;

namespace {

using clock = std::chrono::steady_clock;

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

namespace {

/// Counts a SOAP call in lather_in_flight for as long as it is handled, however it ends.
class in_flight_call {
 public:
  explicit in_flight_call(std::atomic<std::int64_t>& count) : count_(count) {
    count_.fetch_add(1, std::memory_order_relaxed);
  }
  ~in_flight_call() { count_.fetch_sub(1, std::memory_order_relaxed); }
  in_flight_call(const in_flight_call&) = delete;
  in_flight_call& operator=(const in_flight_call&) = delete;

 private:
  std::atomic<std::int64_t>& count_;
};

/// Why no operation takes an empty Body with SOAPAction `action` and WS-Addressing Action
/// `wsa_action`: none takes one, or several do and neither names one of them
/// (lather/service/empty_body.hpp).
std::string empty_body_reason(const service& svc, std::string_view action,
                              std::string_view wsa_action) {
  std::string names;
  for (const auto& op : svc.operations())
    if (op->request_element().empty()) names += (names.empty() ? "" : ", ") + op->name();
  if (names.empty()) return "the SOAP Body is empty";
  std::string which = action.empty() && wsa_action.empty()
                          ? "no SOAPAction or WS-Addressing Action says which"
                          : "SOAPAction \"" + std::string(action) + "\"";
  if (!wsa_action.empty())
    which += " and WS-Addressing Action \"" + std::string(wsa_action) + "\" name none of them";
  else if (!action.empty())
    which += " names none of them";
  return "the SOAP Body is empty and operations " + names + " take an empty Body: " + which +
         " (by its soapAction or WS-Addressing Action)";
}

/// A request's wsa:Action, kept for dispatch (addressing_action()).
struct addressing_state final : call_state {
  std::string action;
  void clear() override { action.clear(); }
};
constexpr char addressing_key = 0;

std::string& addressing_slot(call_context& ctx) {
  return ctx.state<addressing_state>(&addressing_key).action;
}

bool is_addressing_action(const soap::header_info& h) {
  return h.local == "Action" && (h.ns == "http://www.w3.org/2005/08/addressing" ||
                                 h.ns == "http://schemas.xmlsoap.org/ws/2004/08/addressing");
}

/// Reads the wsa:Action entry `r` is on (its start tag) through its end tag into `out`, its
/// text with the surrounding whitespace removed; "" when it holds markup or over 4 kB.
void read_addressing_action(xml::reader& r, std::string& out) {
  out.clear();
  if (r.is_empty_element()) {
    r.next();
    return;
  }
  bool usable = true;
  xml::token t = r.next_text_content();
  if (t == xml::token::end_element) {
    out = r.text();
  } else {
    for (; t != xml::token::end_element; t = r.next()) {
      if (t == xml::token::start_element) {
        usable = false;
        if (r.skip_element() != xml::token::end_element) return;  // the envelope reports it
      } else if (t == xml::token::text) {
        usable = usable && out.size() + r.text().size() <= 4096;
        if (usable) out += r.text();
      } else {
        return;  // an error: the envelope reader reports it
      }
    }
  }
  const std::size_t first = out.find_first_not_of(" \t\r\n");
  if (!usable || out.size() > 4096 || first == std::string::npos) return out.clear();
  out.erase(out.find_last_not_of(" \t\r\n") + 1).erase(0, first);
}

/// Reads the envelope up to the first Body child and returns the operation that takes it.
/// Throws a Sender fault (or the envelope reader's) when there is none.
const operation_entry& dispatch(soap_exchange& x, service& svc, std::string_view action) {
  const soap::version ver = x.version_;
  const bool accepted = ver == soap::version::soap11 ? svc.options().soap11 : svc.options().soap12;
  soap::envelope_options eo;
  eo.on_header = [&x, &svc](const soap::header_info& h, xml::reader& r) {
    for (const auto& hb : svc.headers())
      if (h.is(hb.ns, hb.local)) {
        hb.read(x, r);
        return soap::header_use::consumed;
      }
    // wsa:Action without lather::wsa: read for dispatch (a mustUnderstand one is not
    // understood, as every WS-Addressing header is then).
    if (!h.must_understand && is_addressing_action(h)) {
      read_addressing_action(r, addressing_slot(x));
      return soap::header_use::consumed;
    }
    return soap::header_use::not_understood;
  };
  // The endpoint's accepted version, for a precise VersionMismatch.
  if (!accepted)
    eo.expect = ver == soap::version::soap11 ? soap::version::soap12 : soap::version::soap11;
  else
    eo.expect = ver;
  x.env_.set_options(std::move(eo));
  x.env_.begin();
  if (!x.env_.at_body_element()) {
    // SOAPAction first, then wsa:Action: WS-Addressing 1.0 SOAP Binding lets a client send
    // SOAPAction "" (1.1) or no action parameter (1.2) with the Action in the header, and CXF
    // dispatches by it.
    if (const operation_entry* op = svc.find({}, {}, action)) return *op;
    const std::string_view wsa_action = addressing_action(x);
    if (!wsa_action.empty())
      if (const operation_entry* op = svc.find({}, {}, wsa_action)) return *op;
    throw sender_fault(empty_body_reason(svc, action, wsa_action));
  }
  const xml::reader& r = x.reader_;
  const operation_entry* op = svc.find(r.ns(), r.local_name(), action);
  if (!op) {
    std::string reason = "no operation takes body element {" + std::string(r.ns()) + "}" +
                         std::string(r.local_name());
    if (!action.empty()) reason += " (SOAPAction \"" + std::string(action) + "\")";
    throw sender_fault(std::move(reason));
  }
  if (op->request_element().empty())
    throw sender_fault("operation " + op->name() + " (SOAPAction \"" + std::string(action) +
                       "\") takes an empty Body, not {" + std::string(r.ns()) + "}" +
                       std::string(r.local_name()));
  if (op->request_element() != r.local_name() ||
      (op->request_ns() != r.ns() && !(r.ns().empty() && soap::is_rpc(op->options().style))))
    throw sender_fault("operation " + op->name() + " (SOAPAction \"" + std::string(action) +
                       "\") takes body element {" + std::string(op->request_ns()) + "}" +
                       std::string(op->request_element()) + ", not {" + std::string(r.ns()) + "}" +
                       std::string(r.local_name()));
  return *op;
}

/// True for an error of lather's own serialization: the XML writer's (a character XML cannot
/// carry, ...) anywhere, the binding's (a value a type cannot write: an enum value not in its
/// table, an unbound dynamic type) while the response was being written.
bool is_serialization_error(const std::exception& e, bool writing_response) {
  if (const auto* x = dynamic_cast<const xml::error*>(&e))
    return x->code() == xml::errc::writer_invalid_char || x->code() == xml::errc::writer_bad_state;
  return writing_response && dynamic_cast<const bind::error*>(&e) != nullptr;
}

/// What could not be written, from the response element down: "/GetUserResponse/user/birthDate:
/// value 7 is not in meta<Shade>::values" (the binding's path starts below the element the
/// operation started).
std::string unwritable_value(const std::exception& e, std::string_view response_element) {
  const auto* b = dynamic_cast<const bind::error*>(&e);
  bind::error_info info = b ? b->info() : bind::error_info{bind::errc::xml_error, {}, e.what()};
  if (!response_element.empty()) info = bind::enclose(std::move(info), response_element);
  return std::move(info.message);
}

/// The fault for the exception in flight, and what the error log should hear ("" = nothing):
/// a handler's own soap::fault_error and the request's errors are not the service's failures.
/// A value the service cannot serialize is a Server/Receiver fault, whatever the error's own
/// class, and its reason says so and names the field (lather's failure, not the handler's
/// internals).
soap::fault fault_for_failure(bool writing_response, std::string_view response_element,
                              bool hide_internal, std::string& logged) {
  const std::exception_ptr failure = std::current_exception();
  try {
    throw;
  } catch (const soap::fault_error&) {
  } catch (const std::exception& e) {
    if (is_serialization_error(e, writing_response)) {
      soap::fault f;
      f.code = soap::fault_code::receiver;
      f.reason = "the response could not be written: " + unwritable_value(e, response_element);
      logged = f.reason;
      return f;
    }
    if (!dynamic_cast<const xml::error*>(&e) && !dynamic_cast<const bind::error*>(&e))
      logged = e.what();
  } catch (...) {
    logged = "an exception that is not a std::exception";
  }
  return soap::fault_from_exception(failure, hide_internal);
}

/// Counts a call in /metrics once its response is complete and before its last bytes go out,
/// so that a client that has its response also finds it counted. Most responses go out from
/// inside the operation, before the call returns (soap_exchange::end_response, so that the
/// client does not wait while the operation frees its messages); the HTTP layer sends the rest
/// once the call returns. Counters only: what observes a finished call (the interceptors'
/// `after`, the access log) runs after the response has gone out, off the client's wait.
struct call_counter final : soap_exchange::response_observer {
  mount_point& mp;
  soap_exchange& x;
  call_info& info;
  const std::size_t& op_index;
  clock::time_point started;
  bool counted = false;

  call_counter(mount_point& m, soap_exchange& e, call_info& i, const std::size_t& op,
               clock::time_point t)
      : mp(m), x(e), info(i), op_index(op), started(t) {}

  void response_complete() override {
    if (counted) return;
    counted = true;
    info.bytes_in = x.reader_.bytes_consumed();
    info.bytes_out = x.whole_response_ ? x.response_copy_.size() : x.buf_.flushed() + x.buf_.size();
    if (!info.fault) info.http_status = x.one_way_ || x.diverted_ ? 202 : 200;
    info.micros = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(clock::now() - started).count());
    mp.metrics[op_index]->record(info);
  }
};

/// Frees a call's exchange instead of pooling it once the request was large (as the typed
/// request/response objects, detail::pooled_message_limit): a huge token grows its reader's
/// buffers to the token's size, which the pool would otherwise keep for good.
struct drop_after_large_message {
  detail::object_pool<soap_exchange>::lease& lease;
  ~drop_after_large_message() {
    if (lease.object && lease->reader_.bytes_consumed() > detail::pooled_message_limit)
      lease.discard();  // (already discarded after an allocation failure)
  }
};

}  // namespace

/// In the catch block of a call whose response has not started: replaces whatever was
/// serialized with the fault envelope for the exception in flight, and tells the error log
/// about a failure of the service's own.
void server::impl::answer_fault(mount_point& mp, soap_exchange& x, http::response& res,
                                call_info& info) {
  std::string logged;
  soap::fault f = fault_for_failure(x.response_writer_.has_value(),
                                    x.op_ ? x.op_->response_element() : std::string_view{},
                                    opts.hide_internal_errors, logged);
  if (!logged.empty() && opts.error_log) opts.error_log({mp.path, info.operation, logged});
  info.fault = true;
  // A fault is sent as written, unless the call's response goes elsewhere (divert_response).
  const call_context::response_taker take = std::move(x.divert_);
  x.divert_ = nullptr;
  x.whole_response_ = static_cast<bool>(take);
  x.response_copy_.clear();
  x.buf_.clear();
  res.body().clear();  // what a never-chunked response had collected (nothing is sent yet)
  x.writer_.reset();
  x.response_writer_.reset();
  x.response_type_ = {};  // a fault goes out as a plain envelope
  soap::version fv = x.version_;
  if (f.code == soap::fault_code::version_mismatch) fv = soap::version::soap11;
  info.http_status = fault_status(fv, f);
  if (!take) x.set_head(info.http_status, fv);
  bool fault_headers = false;
  for (const auto& ic : mp.svc->interceptors())
    fault_headers |= static_cast<bool>(ic.fault_headers);
  if (!fault_headers) {
    soap::write_fault_envelope(x.writer_, fv, f, mp.svc->options().xml_declaration);
  } else {
    soap::write_fault_envelope(x.writer_, fv, f, mp.svc->options().xml_declaration,
                               [&](xml::writer& w) {
                                 for (const auto& ic : mp.svc->interceptors())
                                   if (ic.fault_headers) ic.fault_headers(x, f, w);
                               });
  }
  if (!take) return;
  x.response_copy_.append(x.buf_.view());
  x.buf_.clear();
  x.whole_response_ = false;
  bool taken = false;
  try {
    taken = take(true, soap::content_type_utf8(fv), x.response_copy_);
  } catch (const std::exception&) {
    // Not deliverable elsewhere: the fault goes back on the HTTP response.
  }
  if (taken) info.http_status = 202;
  x.set_head(info.http_status, fv);
  if (!taken) res.body().append(x.response_copy_);
}

void server::impl::handle_soap(mount_point& mp, http::request& req, http::response& res) {
  const auto started = clock::now();
  service& svc = *mp.svc;

  const std::string_view content_type = req.header("Content-Type");
  auto ct = soap::parse_content_type(content_type);
  const auto unsupported_media_type = [&] {
    // Not a SOAP media type: an HTTP-level answer, as CXF and WCF give (415).
    res.set_status(415);
    res.set_header("Content-Type", "text/plain; charset=utf-8");
    res.body().append(
        "expected Content-Type text/xml (SOAP 1.1) or application/soap+xml "
        "(SOAP 1.2)\n");
    http_errors.fetch_add(1, std::memory_order_relaxed);
  };
  if (!ct && !svc.codec()) return unsupported_media_type();
  // A codec's request (MIME multipart) is answered in the version its envelope has; a fault
  // before that is known is SOAP 1.2 when the Content-Type names application/soap+xml.
  const soap::version guessed =
      ct                                                                    ? ct->ver
      : content_type.find("application/soap+xml") != std::string_view::npos ? soap::version::soap12
                                                                            : soap::version::soap11;
  call_info info;
  info.version = guessed;
  std::string_view action = ct && ct->ver == soap::version::soap11
                                ? soap::unquote_soap_action(req.header("SOAPAction"))
                            : ct ? std::string_view(ct->action)
                                 : std::string_view{};

  auto lease = exchanges.take(opts);
  soap_exchange& x = *lease;
  const drop_after_large_message keep_small{lease};
  x.bind_call(req, res, svc, guessed, action);
  x.one_way_ = false;
  const in_flight_call counted{in_flight};
  struct end_codec_call {
    soap_exchange& x;
    ~end_codec_call() {
      if (x.codec_) x.codec_->end_call(x);
    }
  } const codec_call{x};

  std::size_t op_index = svc.operations().size();  // = "no operation" metrics slot
  call_counter counter{mp, x, info, op_index, started};
  x.observer_ = &counter;
  try {
    if (!ct) {
      if (!x.open_with_codec(content_type)) return unsupported_media_type();
      ct = soap::parse_content_type(x.envelope_type_);
      if (!ct) return unsupported_media_type();
      x.version_ = info.version = ct->ver;
      x.action_ = ct->ver == soap::version::soap11
                      ? soap::unquote_soap_action(req.header("SOAPAction"))
                      : std::string_view(ct->action);
      action = x.action_;
    }
    bool whole = false;
    for (const auto& ic : svc.interceptors()) whole |= static_cast<bool>(ic.whole_request);
    if (whole) {
      const std::string_view envelope = x.read_whole_request();
      for (const auto& ic : svc.interceptors())
        if (ic.whole_request) ic.whole_request(x, envelope);
    }
    const operation_entry& op = dispatch(x, svc, action);
    x.op_ = &op;
    op_index = op.index();
    info.operation = op.name();
    for (const auto& ic : svc.interceptors())
      if (ic.before) ic.before(x);
    const_cast<operation_entry&>(op).invoke(x);
    if (x.whole_response_ && !x.one_way_) x.rewrite_whole_response();
    if (!x.head_set_) x.set_head(x.one_way_ || x.diverted_ ? 202 : 200, ct->ver);
  } catch (const std::bad_alloc&) {
    // Out of memory part-way: the exchange's reader and writer may be half-updated, so it is
    // not reused, and the HTTP layer answers (500, or a cut connection once the response
    // started).
    lease.discard();
    throw;
  } catch (...) {
    // A transport failure is the HTTP layer's to answer. Part of a streamed response on the
    // wire: the only honest signal left is to cut the connection (the client sees a truncated
    // message, not a bogus success).
    if (transport_failed() || x.head_set_) throw;
    answer_fault(mp, x, res, info);
  }
  // Whatever the sink did not forward yet goes to the HTTP body now (small responses: all).
  if (x.buf_.size() > 0) res.body().append(x.buf_.view());
  counter.response_complete();  // unless it streamed and was counted before it went out
  report_call(mp, x, info);
}

void stderr_error_log(const call_error& e) {
  std::fprintf(stderr, "lather: POST %.*s %.*s: %.*s\n", static_cast<int>(e.path.size()),
               e.path.data(), static_cast<int>(e.operation.empty() ? 1 : e.operation.size()),
               e.operation.empty() ? "-" : e.operation.data(), static_cast<int>(e.message.size()),
               e.message.data());
}

void server::impl::report_call(mount_point& mp, soap_exchange& x, const call_info& info) {
  for (const auto& ic : mp.svc->interceptors())
    if (ic.after) ic.after(x, info);
  if (opts.access_log)
    std::fprintf(opts.access_log, "POST %s %s %u in=%llu out=%llu %lluus\n", mp.path.c_str(),
                 info.operation.empty() ? "-" : std::string(info.operation).c_str(),
                 info.http_status, static_cast<unsigned long long>(info.bytes_in),
                 static_cast<unsigned long long>(info.bytes_out),
                 static_cast<unsigned long long>(info.micros));
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

server::server(http::server_options http, soap_server_options soap)
    : server(server_options{std::move(http), std::move(soap)}) {}

server::server(server_options opts) : impl_(std::make_unique<impl>(std::move(opts))) {
  // Plain-text probes at exactly `path` (a longer path under it is 404).
  auto probe = [this](std::string path, std::function<bool(std::string&)> answer) {
    impl_->http.route(path, [path, answer](http::request& req, http::response& res) {
      res.set_header("Content-Type", "text/plain; charset=utf-8");
      std::string text;
      if (req.path() != path)
        res.set_status(404);
      else if (!answer(text))
        res.set_status(503);
      res.body().append(text);
    });
  };
  // Liveness: the process serves requests, also while it drains.
  for (const char* path : {"/healthz", "/livez"})
    probe(path, [](std::string& text) {
      text = "ok\n";
      return true;
    });
  // Readiness: 503 from the first moment of a drain, so a balancer stops sending first.
  probe("/readyz", [this](std::string& text) {
    const bool ready = !impl_->http.draining();
    text = ready ? "ready\n" : "draining\n";
    return ready;
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
  mount_point* raw = mp.get();
  impl_->mounts.push_back(std::move(mp));
  impl_->http.route(std::move(path), [this, raw](http::request& req, http::response& res) {
    impl_->handle(*raw, req, res);
  });
}

// The mounted services are complete once the server starts: their per-operation metrics are
// sized now, and later registrations throw (worker threads read them without a lock).
void server::seal_services() {
  for (auto& mp : impl_->mounts) {
    mp->svc->started_ = true;
    while (mp->metrics.size() <= mp->svc->operations().size())
      mp->metrics.push_back(std::make_unique<operation_metrics>());
  }
}

void server::start() {
  seal_services();
  impl_->http.start();
}
void server::run() {
  seal_services();
  impl_->http.run();
}
void server::stop() {
  impl_->http.stop();
}
bool server::draining() const noexcept {
  return impl_->http.draining();
}
std::uint16_t server::port() const {
  return impl_->http.port();
}
std::string server::metrics_text() const {
  return impl_->metrics_text();
}

std::string_view addressing_action(call_context& ctx) {
  return addressing_slot(ctx);
}

void set_addressing_action(call_context& ctx, std::string_view action) {
  addressing_slot(ctx).assign(action);
}

}  // namespace lather
