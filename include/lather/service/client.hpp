// lather/service/client.hpp — code-first SOAP client: call an operation with bound structs.
//
//   lather::client c{"http://127.0.0.1:8080/perf"};        // pooled keep-alive connections
//   auto reply = c.call<perf::echoComplexTypeDocResponse>("echoComplexTypeDoc", request);
//
// The request struct is written as the operation's wrapper element (document/literal wrapped:
// {namespace of the request type}operation), the response read from the Body's first child.
// Request types whose meta<> says encoding::soap are called RPC/encoded (SOAP 1.1 section 5:
// xsi:typed parts, SOAP-ENC arrays, multi-ref responses with shared values and cycles);

// a SOAP fault comes back as soap::fault_error, transport failures as http::error, anything
// else unexpected (an HTML error page, a wrong element) as client_error with an excerpt.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "lather/bind/bind.hpp"
#include "lather/http/client.hpp"
#include "lather/service/call_options.hpp"
#include "lather/service/detail/function_ref.hpp"
#include "lather/service/future.hpp"
#include "lather/service/message_type.hpp"
#include "lather/service/service.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/fault.hpp"
#include "lather/soap/style.hpp"
#include "lather/soap/version.hpp"

namespace lather {

struct client_options : http::client_options {
  soap::version version = soap::version::soap11;
  /// How responses are read: tolerant of a subtype the server added (an xsi:type with no
  /// binding kept as bind::unknown_subtype; service_options::read is strict by default).
  bind::read_options read = bind::client_read_options();
  /// How requests are written: write_options::validate_facets checks the facets of the values
  /// sent (a value outside them throws bind::error facet_violation; nothing is sent). Off by
  /// default.
  bind::write_options write{};
  /// Limits of the response's XML reader (as service_options::xml_limits on the server):
  /// receive_sequence of a response larger than max_total_bytes (256 MB) needs it raised or
  /// set to 0.
  xml::limits xml_limits{};
  /// Namespaces declared once on the Envelope of every request (as
  /// service_options::envelope_namespaces on the server).
  std::vector<soap::namespace_binding> envelope_namespaces{};
  /// Start every request with <?xml version="1.0" encoding="UTF-8"?> (as
  /// service_options::xml_declaration on the server).
  bool xml_declaration = true;
};

/// The MIME parts of a message by Content-ID: a source of the part's bytes from its first
/// byte (each call a new one), or an empty one when there is no such part.
using part_source = std::function<byte_source(std::string_view content_id)>;

/// Client-side interceptor (logging, auth, metrics around every call of a client).
struct client_interceptor {
  /// Before sending: may write SOAP header entries (e.g. a security token) with `w`.
  std::function<void(std::string_view operation, xml::writer& w)> write_headers{};
  /// After the call, whatever its outcome (fault = a SOAP fault or any other failure).
  std::function<void(const call_info& info)> after{};
  /// Rewrites the whole serialized request envelope before it is sent (e.g. signs it). A
  /// client with such an interceptor buffers each request whole instead of streaming it; with
  /// a codec's message (lather::mtom) it gets the whole body as written (a MIME multipart
  /// body: the envelope's part and the attachments).
  std::function<void(std::string_view operation, std::string& envelope)> whole_request{};
  /// As write_headers, seeing the call's options (its SOAPAction, contract Action, per-call
  /// header reader); called after write_headers.
  std::function<void(std::string_view operation, const call_options& o, xml::writer& w)>
      write_call_headers{};
  /// Offered each response header entry that call_options::read_header did not take (same
  /// return values): headers a layer understands, e.g. WS-Addressing's.
  std::function<soap::header_use(std::string_view operation, const call_options& o,
                                 const soap::header_info& h, xml::reader& r)>
      read_header{};
  /// Sees the whole response envelope of an HTTP 200 answer before any of it is read (e.g. to
  /// verify its signature); may throw to reject it. A client with such an interceptor reads
  /// each such response whole (up to client_options::xml_limits.max_total_bytes). `parts`
  /// gives the MIME parts of a response that came through the codec (lather::mtom; as
  /// client_message::response_part), and is empty for a plain one.
  std::function<void(std::string_view operation, std::string_view envelope,
                     const part_source& parts)>
      whole_response{};
};

/// One call's message format when the envelope travels inside something else (lather/mtom:
/// MIME multipart/related), the client-side counterpart of message_codec; made per call by the
/// client's codec (client::codec). A client without one takes none of these steps.
class client_message {
 public:
  virtual ~client_message() = default;
  /// The request's Content-Type, or "" to send a plain SOAP message (asked once, first).
  virtual std::string_view request_type() = 0;
  /// The request envelope is about to be written with `w` (again for the one retry): what
  /// goes before it, written to w.out().
  virtual void begin_request(xml::writer& w) = 0;
  /// After the envelope: what follows it, appended to `out` (out.maybe_flush() streams it).
  virtual void end_request(byte_buffer& out) = 0;
  /// A response whose Content-Type is not a SOAP type: false to refuse it (client_error), else
  /// true with the SOAP Content-Type of the envelope inside in `envelope_type`; the envelope is
  /// then pulled through read_envelope. `body` pulls the HTTP body; `r` reads the envelope.
  virtual bool open_response(std::string_view content_type, const byte_source& body,
                             const xml::reader& r, std::string& envelope_type) = 0;
  virtual std::size_t read_envelope(char* dest, std::size_t capacity) = 0;
  /// The response envelope was read through its end, before the call returns.
  virtual void response_read() = 0;
  /// The bytes of the response's MIME part `content_id` (not percent-encoded) from its first
  /// byte, once the envelope has been read whole (client_interceptor::whole_response): the
  /// parts up to it are read and kept for the response's attachments; empty when there is no
  /// such part. Default: none.
  virtual byte_source response_part(std::string_view content_id);
};
/// Makes one call's client_message: (operation, SOAP version, action).
using client_codec = std::function<std::unique_ptr<client_message>(
    std::string_view operation, soap::version v, std::string_view action)>;

/// The peer answered something that is neither the expected response nor a SOAP fault.
class client_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class client {
 public:
  explicit client(std::string url, client_options opts = {});
  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// Call `operation` with `request`, return the response.
  template <class Resp, class Req>
  Resp call(std::string_view operation, const Req& request, const call_options& o = {}) {
    Resp r{};
    call(operation, request, r, o);
    return r;
  }
  /// Same, reading into `response` (reuse it across calls: no allocation once warmed up).
  template <class Req, class Resp>
  void call(std::string_view operation, const Req& request, Resp& response,
            const call_options& o = {}) {
    static_assert(soap::encoded_message<Req> == soap::encoded_message<Resp>,
                  "an RPC/encoded call needs encoding::soap in meta<Req> and meta<Resp>");
    call(operation, detail::message_type_part<Req, detail::writes>(), &request,
         detail::message_type_part<Resp, detail::reads>(), &response, o);
  }
  /// The same over message_type tables (lather/service/message_type.hpp): `request` points to a
  /// `request_type`, `response` to a `response_type`. No template is instantiated where it is
  /// called (lather-wsdl2cpp's proxies call this way). A request type whose meta<> says
  /// encoding::soap makes the call RPC/encoded (xsi:typed parts, SOAP-ENC arrays, multi-refs).
  void call(std::string_view operation, const message_type& request_type, const void* request,
            const message_type& response_type, void* response, const call_options& o = {});
  /// The same, asynchronously, owning its messages: returns at once, with `*request` (a
  /// `request_type`) moved into the call and a response (a `*response_type`; nullptr: a one-way
  /// call, as call_one_way) made for it. The call runs with `o` on a thread of the client's async
  /// pool (http::client_options::async_threads), then `c.done` runs there; the state returned
  /// gives a lather::future<Resp> the response or the call's exception. Nothing is instantiated
  /// per type where it is called (lather-wsdl2cpp's `_async` methods are this and a cast).
  /// `operation` is copied. The client's destructor waits for the calls in flight.
  std::shared_ptr<detail::async_state> async_call(std::string_view operation,
                                                  const message_type& request_type, void* request,
                                                  const message_type* response_type, call_options o,
                                                  async_completion c = {});

  /// One-way (a WSDL operation with an input and no output): send `request` and return once
  /// the peer has accepted it: HTTP 202 (call_options::on_accepted, when set, is called), or
  /// HTTP 200 with an empty body or an envelope with an empty Body. A fault answer throws
  /// soap::fault_error, as from call().
  template <class Req>
  void call_one_way(std::string_view operation, const Req& request, const call_options& o = {}) {
    call_one_way(operation, detail::message_type_part<Req, detail::writes>(), &request, o);
  }
  /// The same over a message_type table (lather-wsdl2cpp's proxies call this way).
  void call_one_way(std::string_view operation, const message_type& request_type,
                    const void* request, const call_options& o = {});

  /// Streaming request (lather/service/sequence.hpp): `head`'s fields, then the items
  /// `produce(sequence_writer<Req>& out)` pushes, each serialized straight into the (chunked)
  /// request body. Req's last field is the sequence (its value in `head` is ignored).
  template <class Resp, class Req, class Produce>
  Resp send_sequence(std::string_view operation, const Req& head, Produce&& produce,
                     const call_options& o = {}) {
    Resp response{};
    const bool bare = o.style == soap::style::document_bare;
    invoke(
        operation, o, false,
        [&](xml::writer& w) {
          detail::message_writer<Req> parts{start_literal<Req>(w, operation, o)};
          parts.write_head(head);
          detail::body_sink<Req> sink{parts};
          sequence_writer<Req> out{sink};
          produce(out);
          w.end_element();
        },
        [&](xml::reader& r, soap::envelope_reader&) {
          return bare ? bind::read(r, response, opts_.read)
                      : bind::read_content(r, response, opts_.read);
        });
    return response;
  }

  /// Streaming response: `consume(const Resp& head, sequence_reader<Item> items)` gets the
  /// response's fields before its sequence (Resp's last field) and the items, each bound as
  /// it arrives; items it leaves unread are skipped. A bad item throws bind::error.
  template <class Resp, class Req, class Consume>
  void receive_sequence(std::string_view operation, const Req& request, Consume&& consume,
                        const call_options& o = {}) {
    invoke(
        operation, o, false,
        [&](xml::writer& w) { open_literal(w, operation, request, o).end_element(); },
        [&](xml::reader& r, soap::envelope_reader&) {
          Resp head{}, items{};
          detail::message_stream<Resp> in{r, opts_.read, head, items};
          in.read_head();
          sequence_reader<typename detail::stream_field<Resp>::item> reader{in};
          consume(static_cast<const Resp&>(head), reader);
          in.drain();
          return bind::error_info{};
        });
  }

  /// Add an interceptor (before the first call; not synchronised with calls in flight).
  client& intercept(client_interceptor i);
  /// Encode requests and decode responses with `c` (before the first call). lather::mtom
  /// installs itself this way (lather/mtom/mtom.hpp).
  client& codec(client_codec c);

  /// The service's WSDL (GET ?wsdl).
  std::string wsdl();
  http::client& transport() noexcept { return *http_; }
  /// The URL the client was made with.
  const std::string& url() const noexcept { return url_; }
  /// The options the client was made with (an interceptor writing header attributes needs
  /// the SOAP version).
  const client_options& options() const noexcept { return opts_; }

 private:
  // Start the literal request element (wrapper, RPC wrapper or bare element) and write
  // `request`'s attributes and children; the caller ends it.
  template <class Req>
  xml::writer& open_literal(xml::writer& w, std::string_view operation, const Req& request,
                            const call_options& o) {
    bind::write_content(start_literal<Req>(w, operation, o), request, opts_.write);
    return w;
  }
  // Start the literal request element for a Req, left open.
  template <class Req>
  xml::writer& start_literal(xml::writer& w, std::string_view operation, const call_options& o) {
    return start_literal(w, operation, meta<Req>::ns, meta<Req>::name, o);
  }
  // Start the literal request element for a message type {ns}name, left open (inline: it is on
  // every call's path).
  xml::writer& start_literal(xml::writer& w, std::string_view operation, std::string_view type_ns,
                             std::string_view type_name, const call_options& o) {
    const bool bare = o.style == soap::style::document_bare;
    std::string_view ns = !o.element_ns.empty() ? std::string_view(o.element_ns) : type_ns;
    std::string_view element = !o.request_element.empty() ? std::string_view(o.request_element)
                               : bare                     ? type_name
                                                          : operation;
    if (soap::is_rpc(o.style))
      soap::write_rpc_start(w, opts_.version, o.style, ns, element);
    else
      w.start_element(ns, element);
    return w;
  }

  // `encoded`: the envelope declares SOAP-ENC, and read_body reads the rest of the Body too
  // (the multi-refs after the wrapper).
  using body_reader = detail::function_ref<bind::error_info(xml::reader&, soap::envelope_reader&)>;
  // `one_way`: the answer is an acceptance (202, or 200 with nothing in the Body), or a fault.
  void invoke(std::string_view operation, const call_options& o, bool encoded,
              detail::function_ref<void(xml::writer&)> write_body, body_reader read_body,
              bool one_way = false);
  void invoke_plain(std::string_view operation, const call_options& o, bool encoded,
                    detail::function_ref<void(xml::writer&)> write_body, body_reader read_body,
                    bool one_way);
  // call() and call_one_way() (response_type nullptr) over message_type tables.
  void call_tables(std::string_view operation, const message_type& request_type,
                   const void* request, const message_type* response_type, void* response,
                   const call_options& o);

  soap::header_use read_response_header(std::string_view operation, const call_options& o,
                                        const soap::header_info& h, xml::reader& r) const;

  std::string url_;
  client_options opts_;
  bool reads_headers_ = false;  // an interceptor has read_header
  // opts_.envelope_namespaces, recorded once per process for all clients with the same list
  // (so with many clients the recorded start a call writes is warm, not one per client)
  std::shared_ptr<const soap::envelope_starts> envelope_starts_;
  std::vector<client_interceptor> interceptors_;
  client_codec codec_;
  struct state;
  std::unique_ptr<detail::object_pool<state>> pool_;
  // Declared last, so destroyed first: its destructor waits for the async calls, which use
  // the members above.
  std::unique_ptr<http::client> http_;
};

}  // namespace lather
