#include "lather/service/client.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>

#include "lather/service/empty_body.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather {

// A call's header values when it sends a SOAP action, pooled per client so a warmed-up call
// allocates nothing; they live for the whole call (a retry on a fresh connection sends them
// again).
struct client::state {
  std::string header_value;  // Content-Type / SOAPAction, reused
  std::string action_value;
};

namespace {

// The writer a call uses to write its request and the reader it uses to read the response: the
// request is serialized into `buf`, which is the HTTP request's staging (http::client::post
// with a staging_lender): its sink is the HTTP body's, so the envelope goes from the writer to
// the socket through the chunking threshold with no copy in between. Lent per phase from one
// pool per process, not held per client for the whole call: the sets in use are those of the
// calls writing or reading right now, warm in the cache, whether the clients are fibers on a few
// threads (lather-bench --client-threads) or one blocking thread each (128 threads at PacketSize
// 100 held 128 cold sets when the pool was per thread). A call takes the request's set for the
// time its request is written and sent (a retry takes one again and writes the request anew),
// and the response's when the response starts: with many calls waiting for their responses,
// the few sets in use stay warm.
struct request_codec {
  xml::output buf;
  xml::writer writer{buf};
  std::string envelope;  // the request for interceptors that rewrite it whole
};
struct response_codec {
  std::string whole;  // the response, for interceptors that need it whole
  xml::reader reader;
  soap::envelope_reader envelope{reader};  // kept with the reader: its scope strings stay warm
};

template <class Codec>
class codec_lease {
 public:
  codec_lease() : lease_(spares().take()) {}
  Codec* get() const { return lease_.object.get(); }

 private:
  static detail::object_pool<Codec>& spares() {
    static detail::object_pool<Codec> pool;
    return pool;
  }
  typename detail::object_pool<Codec>::lease lease_;
};

// The request's set for one attempt of the HTTP call: taken when the request is about to be
// written, given back once it is on the wire.
class request_lender final : public http::staging_lender {
 public:
  xml::output& lend() override {
    lease_.emplace();
    return lease_->get()->buf;
  }
  void give_back() noexcept override { lease_.reset(); }
  request_codec& codec() { return *lease_->get(); }

 private:
  std::optional<codec_lease<request_codec>> lease_;
};

// The recorded Envelope starts for `namespaces`, shared by every client alive with the same
// list: at 1,024 clients (lather-bench --client-threads) each call used to write its start from
// its own client's copy, last touched ~1,000 calls earlier.
std::shared_ptr<const soap::envelope_starts> shared_envelope_starts(
    const std::vector<soap::namespace_binding>& namespaces, bool xml_declaration) {
  static std::mutex mutex;
  static std::vector<std::weak_ptr<const soap::envelope_starts>> recorded;
  const auto same = [&](const soap::envelope_starts& s) {
    return s.xml_declaration() == xml_declaration &&
           std::ranges::equal(s.namespaces(), namespaces, [](const auto& a, const auto& b) {
             return a.prefix == b.prefix && a.uri == b.uri;
           });
  };
  std::lock_guard lock(mutex);
  std::erase_if(recorded, [](const auto& w) { return w.expired(); });
  for (const auto& w : recorded)
    if (auto s = w.lock(); s && same(*s)) return s;
  auto s = std::make_shared<const soap::envelope_starts>(namespaces, xml_declaration);
  recorded.push_back(s);
  return s;
}

}  // namespace

client::client(std::string url, client_options opts)
    : url_(url),
      opts_(std::move(opts)),
      envelope_starts_(shared_envelope_starts(opts_.envelope_namespaces, opts_.xml_declaration)),
      pool_(std::make_unique<detail::object_pool<state>>()),
      http_(std::make_unique<http::client>(std::move(url),
                                           static_cast<const http::client_options&>(opts_))) {}

client::~client() = default;

std::string client::wsdl() {
  auto r = http_->get("?wsdl");
  if (r.status != 200)
    throw client_error("GET ?wsdl answered HTTP " + std::to_string(r.status) + ": " +
                       r.body.substr(0, 200));
  return std::move(r.body);
}

namespace {

std::string excerpt(const xml::source_fn& body) {
  std::string text(200, '\0');
  std::size_t n = 0;
  while (n < text.size()) {
    std::size_t got = body(text.data() + n, text.size() - n);
    if (got == 0) break;
    n += got;
  }
  text.resize(n);
  for (char& c : text)
    if (c == '\r' || c == '\n') c = ' ';
  return text;
}

// The whole body into `out` (reused: it keeps its capacity), at most `limit` bytes (0 = no
// limit; past it the response is refused as the reader would refuse it).
void read_whole(const xml::source_fn& body, std::uint64_t limit, std::string& out) {
  if (out.capacity() > (4u << 20)) std::string().swap(out);  // one large response is not kept
  out.clear();
  constexpr std::size_t piece = 16384;
  for (;;) {
    const std::size_t used = out.size();
    out.resize(used + piece);
    const std::size_t n = body(out.data() + used, piece);
    out.resize(used + n);
    if (n == 0) break;
    if (limit != 0 && out.size() > limit)
      throw client_error("the response exceeds xml_limits.max_total_bytes (" +
                         std::to_string(limit) + " bytes)");
  }
}

}  // namespace

client& client::intercept(client_interceptor i) {
  reads_headers_ |= static_cast<bool>(i.read_header);
  interceptors_.push_back(std::move(i));
  return *this;
}

byte_source client_message::response_part(std::string_view) {
  return {};
}

client& client::codec(client_codec c) {
  codec_ = std::move(c);
  return *this;
}

soap::header_use client::read_response_header(std::string_view operation, const call_options& o,
                                              const soap::header_info& h, xml::reader& r) const {
  if (o.read_header)
    if (soap::header_use u = o.read_header(h, r); u != soap::header_use::not_understood) return u;
  for (const auto& i : interceptors_)
    if (i.read_header)
      if (soap::header_use u = i.read_header(operation, o, h, r);
          u != soap::header_use::not_understood)
        return u;
  return soap::header_use::not_understood;
}

void client::call(std::string_view operation, const message_type& request_type, const void* request,
                  const message_type& response_type, void* response, const call_options& o) {
  call_tables(operation, request_type, request, &response_type, response, o);
}

void client::call_one_way(std::string_view operation, const message_type& request_type,
                          const void* request, const call_options& o) {
  call_tables(operation, request_type, request, nullptr, nullptr, o);
}

void client::call_tables(std::string_view operation, const message_type& request_type,
                         const void* request, const message_type* response_type, void* response,
                         const call_options& o) {
  const bool one_way = !response_type;
  if (request_type.encoded) {
    // RPC/encoded (meta<Req>::encoding): xsi:typed parts, SOAP-ENC arrays, multi-refs.
    if (response_type && !response_type->encoded)
      throw std::invalid_argument("an RPC/encoded call needs encoding::soap in meta<Resp> as well");
    std::string_view ns = !o.element_ns.empty() ? std::string_view(o.element_ns) : request_type.ns;
    std::string_view element =
        !o.request_element.empty() ? std::string_view(o.request_element) : operation;
    invoke(
        operation, o, true,
        [&](xml::writer& w) { request_type.write_encoded(w, opts_.version, ns, element, request); },
        [&](xml::reader& r, soap::envelope_reader& env) {
          if (one_way) {  // a non-fault answer to a one-way call: not read
            r.skip_element();
            return bind::error_info{};
          }
          response_type->read_encoded(r, env, response, opts_.read);
          return bind::error_info{};
        },
        one_way);
    return;
  }
  if (o.style == soap::style::rpc_encoded || (response_type && response_type->encoded))
    throw std::invalid_argument(
        "rpc/encoded calls need request and response types whose meta<> says encoding::soap");
  const bool bare = o.style == soap::style::document_bare;
  // An empty Body (lather/service/empty_body.hpp): none is written; as a response, it is
  // answered as a one-way call is, and a Body element it is given is not read.
  const bool empty_request = &request_type == &empty_body();
  const bool no_response = one_way || response_type == &empty_body();
  invoke(
      operation, o, false,
      [&](xml::writer& w) {
        if (empty_request) return;
        const bind::write_scope scope(opts_.write);
        request_type.write_content(
            start_literal(w, operation, request_type.ns, request_type.name, o), request);
        w.end_element();
      },
      [&](xml::reader& r, soap::envelope_reader&) {
        if (no_response) {  // a non-fault answer to a one-way call: not read
          r.skip_element();
          return bind::error_info{};
        }
        return bare ? response_type->read(r, response, opts_.read)
                    : response_type->read_content(r, response, opts_.read);
      },
      no_response);
}

void client::invoke(std::string_view operation, const call_options& o, bool encoded,
                    detail::function_ref<void(xml::writer&)> write_body, body_reader read_body,
                    bool one_way) {
  if (interceptors_.empty())
    return invoke_plain(operation, o, encoded, write_body, read_body, one_way);
  const auto started = std::chrono::steady_clock::now();
  call_info info;
  info.operation = operation;
  info.version = opts_.version;
  try {
    invoke_plain(operation, o, encoded, write_body, read_body, one_way);
  } catch (...) {
    info.fault = true;
    info.http_status = 500;
    info.micros = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                                 std::chrono::steady_clock::now() - started)
                                                 .count());
    for (const auto& i : interceptors_)
      if (i.after) i.after(info);
    throw;
  }
  info.micros = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                               std::chrono::steady_clock::now() - started)
                                               .count());
  for (const auto& i : interceptors_)
    if (i.after) i.after(info);
}

void client::invoke_plain(std::string_view operation, const call_options& o, bool encoded,
                          detail::function_ref<void(xml::writer&)> write_body,
                          body_reader read_body, bool one_way) {
  // The header values: constants unless there is a SOAP action to send, else built into a set
  // pooled per client (they live for the whole call: a retry sends them again).
  const soap::version v = opts_.version;
  std::pair<std::string_view, std::string_view> headers[2] = {
      {"Content-Type", soap::content_type_utf8(v)}, {"SOAPAction", "\"\""}};
  const std::size_t header_count = v == soap::version::soap11 ? 2 : 1;
  std::optional<detail::object_pool<state>::lease> values;
  if (!o.soap_action.empty()) {
    values.emplace(pool_.get(), pool_->take_unique());
    state* s = values->object.get();
    if (v == soap::version::soap12) {
      soap::assign_content_type(s->header_value, v, o.soap_action);
      headers[0].second = s->header_value;
    } else {
      soap::assign_soap_action_header(s->action_value, o.soap_action);
      headers[1].second = s->action_value;
    }
  }
  bool rewrites = false;
  for (const auto& i : interceptors_) rewrites |= static_cast<bool>(i.whole_request);
  // A codec's message (MIME): its Content-Type replaces the SOAP one. An interceptor that
  // rewrites the request whole gets the whole message, parts included.
  std::unique_ptr<client_message> message;
  bool mime_request = false;
  if (codec_) {
    message = codec_(operation, v, o.soap_action);
    if (message) {
      const std::string_view type = message->request_type();
      mime_request = !type.empty();
      if (mime_request) headers[0].second = type;
    }
  }
  // What the two callbacks need, captured by one reference: a std::function holds a lambda of
  // up to two pointers without allocating.
  struct frame_t {
    const call_options& o;
    detail::function_ref<void(xml::writer&)>& write_body;
    body_reader& read_body;
    std::string_view operation;
    soap::version v;
    bool encoded;
    bool rewrites;
    client_message* message;
    bool mime_request;
    bool one_way;
    request_lender writing;
  } frame{o,        write_body,    read_body,    operation, v, encoded,
          rewrites, message.get(), mime_request, one_way,   {}};

  http_->post(
      "", std::span(headers, header_count), frame.writing,
      [this, &frame](xml::output&) {  // writes into the lent set's buf: the request's staging
        request_codec* s = &frame.writing.codec();
        s->writer.reset();
        const bool rewrites = frame.rewrites;
        // A rewriting interceptor needs the whole envelope: nothing goes out before it ran.
        if (rewrites) s->buf.clear_sink();
        if (frame.mime_request) frame.message->begin_request(s->writer);
        soap::envelope_writer env{s->writer, frame.v};
        env.begin(*envelope_starts_, frame.encoded);
        bool header_hooks = false;
        for (const auto& i : interceptors_) header_hooks |= i.write_headers || i.write_call_headers;
        if (!frame.o.headers.empty() || header_hooks) {
          env.begin_header();
          for (const auto& h : frame.o.headers) h(s->writer);
          for (const auto& i : interceptors_)
            if (i.write_headers) i.write_headers(frame.operation, s->writer);
          for (const auto& i : interceptors_)
            if (i.write_call_headers) i.write_call_headers(frame.operation, frame.o, s->writer);
        }
        env.begin_body();
        frame.write_body(s->writer);
        // The writer's closing flush() would hand the rest to the HTTP body as a chunk: without
        // the sink it stays buffered, and the HTTP client frames it (Content-Length when the
        // whole request fits within the threshold, else the last chunk). What a codec writes
        // after the envelope streams first.
        if (frame.mime_request) {
          env.end();
          frame.message->end_request(s->buf);
          s->buf.clear_sink();
        } else {
          s->buf.clear_sink();
          env.end();
        }
        if (rewrites) {
          s->envelope.assign(s->buf.view());
          for (const auto& i : interceptors_)
            if (i.whole_request) i.whole_request(frame.operation, s->envelope);
          s->buf.clear();
          s->buf.append(s->envelope);
        }
      },
      [this, &frame](const http::response_head& head, const xml::source_fn& body) {
        const bool xml_type = soap::parse_content_type(head.content_type).has_value() ||
                              head.content_type.starts_with("application/xml");
        if (head.status == 202 && frame.o.on_accepted) return frame.o.on_accepted();
        if (frame.one_way && (head.status == 202 || (head.status == 200 && head.content_length() &&
                                                     *head.content_length() == 0)))
          return;
        codec_lease<response_codec> lease;
        response_codec* s = lease.get();
        // A one-way acceptance without a SOAP Content-Type: its body must be blank.
        const bool plain_one_way =
            frame.one_way && head.status == 200 && !xml_type && !frame.message;
        std::string envelope_type;
        const bool decoded =
            !xml_type && frame.message &&
            (head.status == 200 || head.status == 500 || head.status == 400) &&
            frame.message->open_response(head.content_type, body, s->reader, envelope_type);
        if ((!xml_type && !decoded && !plain_one_way) ||
            (head.status != 200 && head.status != 500 && head.status != 400)) {
          throw client_error("HTTP " + std::to_string(head.status) + " (" +
                             std::string(head.content_type) + "): " + excerpt(body));
        }
        s->reader.reset();
        s->reader.set_limits(opts_.xml_limits);
        xml::source_fn source;
        if (decoded)
          source = [m = frame.message](char* d, std::size_t n) { return m->read_envelope(d, n); };
        else
          source = [&body](char* d, std::size_t n) { return body(d, n); };
        bool whole = false;
        for (const auto& i : interceptors_) whole |= static_cast<bool>(i.whole_response);
        if ((whole || frame.one_way) && head.status == 200) {
          read_whole(source, opts_.xml_limits.max_total_bytes, s->whole);
          // A one-way acceptance: a blank body.
          if (frame.one_way && s->whole.find_first_not_of(" \t\r\n") == std::string::npos) {
            if (decoded) frame.message->response_read();
            return;
          }
          if (plain_one_way)
            throw client_error("HTTP 200 (" + std::string(head.content_type) +
                               ") answering a one-way call: " + s->whole.substr(0, 200));
          part_source parts;
          if (decoded)
            parts = [m = frame.message](std::string_view id) { return m->response_part(id); };
          for (const auto& i : interceptors_)
            if (i.whole_response) i.whole_response(frame.operation, s->whole, parts);
          s->reader.reset(s->whole);
        } else {
          s->reader.set_source(std::move(source));
        }
        soap::envelope_reader& env = s->envelope;
        // The codec is shared by every client: each call sets its own header readers (or none).
        soap::envelope_options read_options;
        // A fault's header entries (fault::header_xml) are kept only where a fault can come:
        // a Fault answers with a status other than 200 (WS-I BP R1126), so a 200 response's
        // unknown header entries are skipped, not copied.
        read_options.keep_unread = head.status != 200;
        if (frame.o.read_header || reads_headers_)
          read_options.on_header = [this, &frame](const soap::header_info& h, xml::reader& r) {
            return read_response_header(frame.operation, frame.o, h, r);
          };
        env.set_options(std::move(read_options));
        env.begin();
        if (frame.one_way && !env.at_body_element()) {  // accepted: an empty Body
          env.finish();
          if (decoded) frame.message->response_read();
          return;
        }
        if (!env.at_body_element())
          throw client_error("HTTP " + std::to_string(head.status) + ": empty SOAP Body");
        if (env.at_fault()) {
          soap::fault f = soap::read_fault(s->reader, env.ver(), env.body_namespaces());
          f.header_xml = env.unread_headers();
          throw soap::fault_error(std::move(f));
        }
        if (head.status != 200)
          throw client_error("HTTP " + std::to_string(head.status) +
                             " with a non-fault body element {" + std::string(s->reader.ns()) +
                             "}" + std::string(s->reader.local_name()));
        if (bind::error_info e = frame.read_body(s->reader, env)) throw bind::error(std::move(e));
        if (!frame.encoded && env.next_body_element())
          throw client_error("unexpected second Body element {" + std::string(s->reader.ns()) +
                             "}" + std::string(s->reader.local_name()));
        env.finish();
        if (decoded) frame.message->response_read();
      },
      o.timeout);
}

}  // namespace lather
