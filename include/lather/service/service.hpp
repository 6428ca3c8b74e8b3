// lather/service/service.hpp — code-first SOAP services: C++ callables become operations.
//
//   lather::service perf{"PerfService", "http://cxf.apache.org/cxf/performance"};
//   perf.operation("echoComplexTypeDoc", [](const perf::echoComplexTypeDoc& in) {
//     return perf::echoComplexTypeDocResponse{in.in, in.id};
//   });
//   lather::server srv{{.port = 8080}};
//   srv.mount("/perf", perf);          // POST /perf: SOAP 1.1 and 1.2; GET /perf?wsdl: WSDL
//   srv.run();
//
// An operation's request and response are bound structs (lather::meta<T>, see
// lather/bind/meta.hpp). Their fields are the parameters: for document/literal wrapped (the
// default) the request struct is the wrapper element named after the operation, in the
// struct's namespace, and the response is the wrapper `<operation>Response`; for RPC styles
// the fields are the parts. Handler shapes (an optional leading `lather::call_context&` is
// allowed in each):
//   Resp f(const Req&)        the usual form
//   void f(Req&, Resp&)       no allocation: both objects are pooled and reused across calls
//                             (swap rather than move out of Req to keep its capacity warm)
//   void f(const Req&)        one-way: HTTP 202, no response envelope
//   void f(const Req&, lather::reply<Resp>)   async: answer later, from any thread
//                             (lather/service/reply.hpp); no server thread waits meanwhile
// Throw lather::soap::fault_of<Detail> for a fault declared in operation_options::faults (or
// soap::fault_error for any fault of your own);
// any other exception becomes a Server/Receiver fault without internal details.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "lather/bind/bind.hpp"
#include "lather/detail/object_pool.hpp"
#include "lather/http/server.hpp"
#include "lather/service/message_type.hpp"
#include "lather/service/reply.hpp"
#include "lather/service/sequence.hpp"
#include "lather/soap/encoded.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/fault.hpp"
#include "lather/soap/fault_of.hpp"
#include "lather/soap/style.hpp"
#include "lather/soap/version.hpp"
#include "lather/xml/reader.hpp"

namespace lather {

namespace http {
class request;
class response;
}  // namespace http
class wsdl_builder;

/// A fault an operation declares (operation_options::faults): the generated WSDL gets a
/// wsdl:message whose part is the detail element, a wsdl:fault in the portType operation and a
/// soap:fault in each binding, and the schema declares the detail element with its type. Make
/// one with lather::fault_type<Detail>() and throw soap::fault_of<Detail> from the handler
/// (lather-wsdl2cpp's services fill it from the contract's wsdl:fault).
struct fault_declaration {
  std::string name{};           ///< wsdl:fault name (default: the detail type's name)
  std::string ns{}, element{};  ///< the detail element {ns}element
  /// The detail element's type (its `schema` describes it); the WSDL leaves out a fault whose
  /// type it cannot describe.
  const message_type* detail = nullptr;
};

/// A SOAP header of an operation (soap:header), for the generated WSDL: the global element
/// {ns}element, the part that carries it, and the header faults (soap:headerfault) the
/// operation may answer when processing that header fails: each a fault_declaration (`name`
/// unused) whose element travels as a header entry of the fault (soap::header_fault_of).
/// The service reads request headers through service::header; lather-wsdl2cpp's services
/// declare their contract's headers so.
struct header_declaration {
  std::string ns{}, element{};
  const message_type* type = nullptr;  ///< the element's type (its `schema` describes it)
  std::string part{};                  ///< the message part's name ("": the element's)
  bool response = false;               ///< a header of the response (else of the request)
  bool required = false;               ///< wsdl:required="true"
  std::vector<fault_declaration> faults{};
};

/// Per-operation settings (every member has a default, as call_options').
struct operation_options {
  soap::style style = soap::style::document_wrapped;
  std::string soap_action{};  ///< advertised in the WSDL; dispatch fallback
  /// The WS-Addressing Actions of the request and the response in the contract (wsam:Action,
  /// or the default action pattern); "" = none. Read by lather::wsa only.
  std::string action{}, response_action{};
  /// The WS-Addressing Action of a fault the contract gives one (wsam:Action on wsdl:fault, or
  /// the default pattern): the fault whose detail is element {ns}element. Read by lather::wsa.
  struct fault_action {
    std::string ns{}, element{}, action{};
  };
  std::vector<fault_action> fault_actions{};
  std::string request_element{};   ///< default: the operation name
  std::string response_element{};  ///< default: operation name + "Response"
  /// Namespace of the wrapper elements. Default: the request type's namespace
  /// (document styles) or the service's target namespace (RPC styles).
  std::string element_ns{};
  /// Namespace of the response element when the contract puts it in another one than the
  /// request's (document styles); "" = as the request's.
  std::string response_ns{};
  std::string documentation{};  ///< wsdl:documentation
  /// Deadline of the handler. A synchronous handler with a timeout runs on a thread of its own
  /// while the server thread serves other calls (C++ cannot pre-empt a blocked function): at
  /// the deadline the client gets the Server fault "the operation timed out" and the late
  /// result is dropped when the handler returns. 0 (default): synchronous handlers run on the
  /// server thread with no deadline (no thread hop on the hot path); async handlers use
  /// service_options::handler_timeout. A handler with a timeout cannot take call_context&.
  std::chrono::milliseconds timeout{0};
  /// Typed faults the handler may throw (soap::fault_of<Detail>), for the WSDL.
  std::vector<fault_declaration> faults{};
  /// SOAP headers of the request and the response, with their header faults, for the WSDL.
  std::vector<header_declaration> headers{};
};

using soap::fault_of;

/// Declare that an operation throws soap::fault_of<Detail>:
///   opts.faults = {lather::fault_type<InvalidId>()};
template <class Detail>
fault_declaration fault_type(std::string name = {}) {
  static_assert(bind::complex_type<Detail>, "a fault detail type needs lather::meta<Detail>");
  return {name.empty() ? std::string(meta<Detail>::name) : std::move(name),
          std::string(meta<Detail>::ns), std::string(meta<Detail>::name),
          &detail::message_type_part<Detail, detail::described>()};
}

/// State of one call that a service's header readers and interceptors share: a header read
/// before dispatch, checked in `before` once the operation is known (lather/wsse does this).
/// Derive from it and get it with call_context::state<T>(key).
class call_state {
 public:
  virtual ~call_state() = default;
  /// Called before the object is first used in a call: drop the previous call's values (keep
  /// capacity: the object is reused across calls, so a warm server allocates nothing for it).
  virtual void clear() = 0;
};

/// What a handler can see of the call besides its parameters (declare a leading
/// `lather::call_context&` parameter to get it).
class call_context {
 public:
  virtual soap::version version() const = 0;
  virtual std::string_view operation() const = 0;
  /// SOAPAction (1.1) or the action parameter (1.2), unquoted.
  virtual std::string_view soap_action() const = 0;
  /// An HTTP request header (case-insensitive name); "" when absent.
  virtual std::string_view http_header(std::string_view name) const = 0;
  virtual std::string_view remote_user() const = 0;  ///< Basic-auth user or ""
  /// The client's IP address as the server accepted its connection (TLS included):
  /// "127.0.0.1", "::1"; "" if unknown. Behind a reverse proxy it is the proxy's: the address a
  /// proxy forwards is not parsed (any client can send X-Forwarded-For); where a trusted proxy
  /// sets it, read it with http_header("X-Forwarded-For") or http_header("Forwarded").
  virtual std::string_view remote_address() const = 0;
  virtual std::uint16_t remote_port() const = 0;  ///< the client's TCP port; 0 if unknown
  /// Add a SOAP header entry to the response (written before the Body).
  virtual void add_response_header(std::function<void(xml::writer&)> write_entry) = 0;
  /// Takes a response envelope to deliver elsewhere (see divert_response): `fault` says whether
  /// it is a fault, `content_type` is the Content-Type it would have had on the HTTP response.
  /// Returns false to leave it to the HTTP response after all; may throw soap::fault_error for
  /// a response (not a fault), which is then answered instead, on the HTTP response.
  using response_taker =
      std::function<bool(bool fault, std::string_view content_type, std::string& envelope)>;
  /// Deliver this call's response (or fault) elsewhere (WS-Addressing's non-anonymous
  /// ReplyTo/FaultTo): the envelope is collected whole (up to server_options::body_limit)
  /// instead of streamed, handed to `take` once complete and, when it takes it, the HTTP
  /// request is answered 202 Accepted with no body. Call it before the response starts (from
  /// an interceptor's `before`); faults raised earlier go back on the HTTP response.
  virtual void divert_response(response_taker take) = 0;
  /// The bytes of the request's MIME part whose Content-ID is `content_id` (not percent-encoded)
  /// from its first byte, for a request that came through a codec (lather::mtom); each call a
  /// new source; empty when there is no such part (or no codec). For an interceptor that needs
  /// the attachments before the handler runs (a signature over them, from whole_request): the
  /// codec reads and keeps the parts up to that one (as it keeps parts for the handler), and
  /// the handler's attachments come from what it kept.
  virtual byte_source request_part(std::string_view content_id);
  /// This call's state object for `key` (the address of something its user owns, so users do
  /// not collide): made by `make` the first time the call's pooled slot needs one, cleared
  /// (call_state::clear) the first time each call asks for it.
  virtual call_state& state(const void* key, std::unique_ptr<call_state> (*make)()) = 0;
  /// The same, typed: T derives from call_state and is default-constructible.
  template <class T>
  T& state(const void* key) {
    return static_cast<T&>(
        state(key, []() -> std::unique_ptr<call_state> { return std::make_unique<T>(); }));
  }

 protected:
  ~call_context() = default;
};

/// Typed SOAP header binding: headers the service understands (so mustUnderstand="1" on them
/// is satisfied) and a callback that reads each one.
using header_reader = std::function<void(call_context&, xml::reader&)>;

/// Interceptors: called around every call of the service (logging, auth, metrics). `before`
/// may throw soap::fault_error to reject the call; `after` sees the outcome (fault or not).
struct call_info {
  std::string_view operation{};  ///< "" when dispatch failed
  soap::version version = soap::version::soap11;
  bool fault = false;
  unsigned http_status = 200;
  std::uint64_t bytes_in = 0, bytes_out = 0;
  std::uint64_t micros = 0;
};
struct interceptor {
  std::function<void(call_context&)> before{};
  std::function<void(call_context&, const call_info&)> after{};
  /// Sees the whole request envelope before any of it is read (e.g. to verify a signature
  /// over parts that come after the header saying so); may throw soap::fault_error. A service
  /// with such an interceptor reads each request whole (up to server_options::body_limit)
  /// instead of streaming it.
  std::function<void(call_context&, std::string_view envelope)> whole_request{};
  /// Writes SOAP header entries into the fault response of a call (the headers added with
  /// call_context::add_response_header belong to a normal response only), e.g. the
  /// WS-Addressing headers of a fault. `f` is the fault being sent.
  std::function<void(call_context&, const soap::fault& f, xml::writer&)> fault_headers{};
  /// Rewrites the whole serialized response envelope before it is sent (e.g. signs it); may
  /// throw (the call then answers a fault). Not called for faults or one-way calls. A service
  /// with such an interceptor buffers each response whole (up to server_options::body_limit)
  /// instead of streaming it.
  std::function<void(call_context&, std::string& envelope)> whole_response{};
};

/// A body that carries the envelope inside something else (lather/mtom: MIME multipart/related
/// for MTOM/XOP and SwA), installed with service::codec(). Requests with a SOAP media type never
/// reach open_request, and a service without a codec takes none of these steps. Per-call data
/// lives in the call's state (call_context::state), which the server pools.
class message_codec {
 public:
  virtual ~message_codec() = default;
  /// A request whose Content-Type is not a SOAP media type: false to refuse it (415), else
  /// true with the SOAP Content-Type of the envelope inside in `envelope_type` (its action
  /// parameter as SOAP 1.2 has it); the envelope is then pulled through read_envelope. `body`
  /// pulls the HTTP body; `r` is the reader the envelope will be read with (bindings that
  /// need the message find it by that reader, e.g. an xop:Include).
  virtual bool open_request(call_context& ctx, std::string_view content_type,
                            const byte_source& body, const xml::reader& r,
                            std::string& envelope_type) = 0;
  /// The envelope's bytes, as http::request::read_body (0 = end of the envelope).
  virtual std::size_t read_envelope(call_context& ctx, char* dest, std::size_t capacity) = 0;
  /// The request's envelope was read through its end, before the handler runs.
  virtual void request_read(call_context& ctx) = 0;
  /// The response envelope is about to be written with `w`: "" to send it as a plain SOAP
  /// message, else the Content-Type to send, with what goes before the envelope written to
  /// w.out() already. Not called for a fault.
  virtual std::string_view begin_response(call_context& ctx, xml::writer& w) = 0;
  /// After the response envelope (when begin_response returned a type): what follows it,
  /// appended to `out` (calling out.maybe_flush() streams it).
  virtual void end_response(call_context& ctx, byte_buffer& out) = 0;
  /// The call is over, however it ended (also when no other step was taken).
  virtual void end_call(call_context& ctx) noexcept = 0;
  /// call_context::request_part: the part `content_id` of the request, kept for the handler
  /// too; empty when there is none. Default: none.
  virtual byte_source request_part(call_context& ctx, std::string_view content_id);
};

namespace detail {

/// One call as the service layer sees it (implemented in src/service); the typed operation
/// templates below call only these non-template members.
class exchange : public call_context {
 public:
  virtual xml::reader& reader() = 0;  ///< positioned on the request's body element
  virtual const bind::read_options& read_options() const = 0;
  virtual const bind::write_options& write_options() const = 0;
  virtual std::chrono::milliseconds handler_timeout() const = 0;
  virtual soap::envelope_reader& envelope() = 0;
  /// The request was read through its end tag: check the rest of the envelope (after
  /// `body_consumed` = the trailing Body children were read already, e.g. multi-refs).
  virtual void finish_request(bool body_consumed) = 0;
  /// Start the response envelope (headers, Body) and return the writer for its body.
  virtual xml::writer& begin_response(bool encoded) = 0;
  virtual void end_response() = 0;
  /// One-way: answer 202 with no body.
  virtual void accept_one_way() = 0;
  [[noreturn]] virtual void request_error(const bind::error_info& e) = 0;

 protected:
  ~exchange() = default;
};

/// Messages up to this size leave their request/response objects in the pool, warm for the
/// next call; larger ones free them, so one big message does not pin its object graph (or,
/// with a swapping handler, two of them) for the life of the server. 4 MiB keeps the CXF
/// payloads warm up to ~2,500 items (re-allocating 1,000 items per call made the one-call
/// split of the Axis table slower than two calls of 500).
inline constexpr std::uint64_t pooled_message_limit = 4u << 20;

template <class T>
struct callable_traits : callable_traits<decltype(&T::operator())> {};
template <class C, class R, class... A>
struct callable_traits<R (C::*)(A...) const> {
  using result = R;
  using args = std::tuple<A...>;
};
template <class C, class R, class... A>
struct callable_traits<R (C::*)(A...)> {
  using result = R;
  using args = std::tuple<A...>;
};
template <class R, class... A>
struct callable_traits<R (*)(A...)> {
  using result = R;
  using args = std::tuple<A...>;
};

template <class Tuple>
struct drop_context {
  using type = Tuple;
  static constexpr bool has_context = false;
};
template <class... A>
struct drop_context<std::tuple<call_context&, A...>> {
  using type = std::tuple<A...>;
  static constexpr bool has_context = true;
};

}  // namespace detail

/// The request's SOAP header entry {ns}local as read by service::header(ns, local, t): a
/// pointer to the `t` (the caller may move from it), nullptr when the request has none.
void* request_header(call_context& ctx, std::string_view ns, std::string_view local);

/// A registered operation (type-erased); the server dispatches to it, the WSDL generator
/// describes it.
class operation_entry {
 public:
  virtual ~operation_entry() = default;
  const std::string& name() const noexcept { return name_; }
  const operation_options& options() const noexcept { return options_; }
  std::string_view request_ns() const noexcept { return request_ns_; }
  std::string_view request_element() const noexcept { return request_element_; }
  std::string_view response_element() const noexcept { return response_element_; }
  std::string_view response_ns() const noexcept { return response_ns_; }
  bool one_way() const noexcept { return one_way_; }
  /// Position in service::operations() (set when registered; indexes per-operation metrics).
  std::size_t index() const noexcept { return index_; }
  /// Read the request, run the handler, write the response.
  virtual void invoke(detail::exchange& x) = 0;
  /// Add the request/response types and elements to a WSDL being generated (wsdl.hpp).
  virtual void describe(wsdl_builder& b) const = 0;

 protected:
  /// Name, options and element names of a typed operation: from the options where they say,
  /// else from the operation name and the message types (`response_type` for bare style).
  void set_names(std::string name, operation_options opts, std::string_view tns,
                 std::string_view request_type, std::string_view request_type_ns,
                 std::string_view response_type, bool one_way);

  std::string name_;
  operation_options options_;
  std::string request_ns_, request_element_, response_element_, response_ns_;
  bool one_way_ = false;

 private:
  friend class service;
  std::size_t index_ = 0;
};

/// The handler of a type-erased operation (service::operation with message types): `fn` gets
/// `target`, the request and the response (pointers to the message types' objects; the
/// response is nullptr for a one-way operation).
struct message_handler {
  void (*fn)(void* target, const void* request, void* response) = nullptr;
  void* target = nullptr;
  /// Instead of `fn`, when set: the same with the call's context (its SOAP headers:
  /// request_header(), call_context::add_response_header).
  void (*with_context)(void* target, call_context& ctx, const void* request,
                       void* response) = nullptr;
};

struct service_options {
  bool soap11 = true;  ///< accept SOAP 1.1 requests
  bool soap12 = true;  ///< accept SOAP 1.2 requests
  bind::read_options read{};
  /// How responses are written: write_options::validate_facets checks the facets of the
  /// values the handlers answer (a value outside them: a Server fault, nothing of the response
  /// sent). Off by default.
  bind::write_options write{};
  /// Limits of the request's XML reader. Streaming services taking requests larger than
  /// max_total_bytes (256 MB) raise it or set it to 0; http server_options::body_limit caps
  /// the body as well.
  xml::limits xml_limits{};
  /// An async handler (lather::reply) that has not answered by then gets a Server fault
  /// "the operation timed out" (synchronous handlers: operation_options::timeout).
  std::chrono::milliseconds handler_timeout{60'000};
  /// Default for operation_options::element_ns when the request type has no namespace.
  std::string element_ns{};
  /// Names in the generated WSDL for a service that implements an existing contract: a client
  /// generated from that contract looks its port up by name in ?wsdl (JAX-WS:
  /// Service.create(url, {tns}service).getPort({tns}port, SEI)). Empty: <name>PortType,
  /// <name>SoapBinding, <name>SoapPort; the SOAP 1.2 binding and port are named like the
  /// SOAP 1.1 ones with "Soap12" appended (default <name>Soap12Binding, <name>Soap12Port).
  struct contract_names {
    std::string port_type{}, binding{}, port{};
  } wsdl_names{};
  /// Serve this WSDL at ?wsdl instead of generating one ("{{address}}" is replaced by the
  /// endpoint address) — for contract-first services and styles the generator does not
  /// describe (RPC/encoded).
  std::string static_wsdl{};
  /// Namespaces declared once on the Envelope of every response (CXF's soap.env.ns.map). A
  /// namespace the response's QName values (or elements) use is then in scope everywhere, so
  /// the writer does not declare it again on each element that needs it.
  std::vector<soap::namespace_binding> envelope_namespaces{};
  /// Start every response (faults too) with <?xml version="1.0" encoding="UTF-8"?>; false
  /// saves its 38 bytes where every client is known to do without (soap4r cannot).
  bool xml_declaration = true;
};

class service {
 public:
  service(std::string name, std::string target_namespace, service_options opts = {});
  ~service();
  service(const service&) = delete;
  service& operator=(const service&) = delete;

  /// Register an operation (see the file comment for handler shapes).
  template <class F>
  service& operation(std::string name, F handler, operation_options opts = {});

  /// Register an operation whose messages are described by tables (lather/service/
  /// message_type.hpp) and whose handler is `handler.fn(handler.target, &request, &response)`,
  /// a `void f(const Req&, Resp&)` form: no template is instantiated where it is called
  /// (lather-wsdl2cpp's services register this way). Request and response objects are pooled
  /// as with the typed forms. operation_options::timeout is not supported here.
  service& operation(std::string name, const message_type& request, const message_type& response,
                     message_handler handler, operation_options opts = {});
  /// The same for a one-way operation (no response: HTTP 202, no envelope); the handler's
  /// response pointer is nullptr.
  service& operation(std::string name, const message_type& request, message_handler handler,
                     operation_options opts = {});

  /// Message-level operation taking body element {ns}local: `handler` gets the reader on
  /// that element's start tag (it must read through the end tag) and the writer positioned in
  /// the response Body (nothing written = empty Body). Nothing is buffered on either side: a
  /// handler that reads one item and writes one item at a time streams a request and response
  /// of any size in bounded memory (the response goes out chunked as it is written).
  using raw_handler = std::function<void(call_context&, xml::reader&, xml::writer&)>;
  service& raw_operation(std::string name, std::string ns, std::string local, raw_handler handler,
                         operation_options opts = {});

  /// Understand the SOAP header {ns}local: `read` gets the reader on its start tag and must
  /// read it through its end tag (e.g. lather::bind::read into a header struct).
  service& header(std::string ns, std::string local, header_reader read);
  /// Understand the SOAP header {ns}local and read it into an object of message type `t`
  /// (lather/service/message_type.hpp), kept in the call's state: a handler with the call's
  /// context gets it with request_header() (lather-wsdl2cpp's services read their soap:header
  /// parts this way). A header that does not bind is a Sender fault. Registering an element
  /// that is registered already (by an operation of another port type) adds nothing.
  service& header(std::string ns, std::string local, const message_type& t);
  service& intercept(interceptor i);
  /// Decode requests and encode responses with `c` (one per service; before the server
  /// starts). lather::mtom installs itself this way (lather/mtom/mtom.hpp).
  service& codec(std::shared_ptr<message_codec> c);
  message_codec* codec() const noexcept { return codec_.get(); }

  const std::string& name() const noexcept { return name_; }
  const std::string& target_namespace() const noexcept { return tns_; }
  const service_options& options() const noexcept { return opts_; }
  std::span<const std::unique_ptr<operation_entry>> operations() const noexcept { return ops_; }

  /// Dispatch: the operation taking body element {ns}local, else the one whose SOAPAction is
  /// `action`; nullptr when none.
  const operation_entry* find(std::string_view ns, std::string_view local,
                              std::string_view action) const noexcept;
  struct header_binding {
    std::string ns, local;
    header_reader read;
  };
  std::span<const header_binding> headers() const noexcept { return headers_; }
  std::span<const interceptor> interceptors() const noexcept { return interceptors_; }
  /// The response Envelope starts with options().envelope_namespaces and
  /// options().xml_declaration, recorded once.
  const soap::envelope_starts& envelope_starts() const noexcept { return envelope_starts_; }

 private:
  friend class server;
  void add(std::unique_ptr<operation_entry> op);
  /// Throws std::logic_error (saying "<what> after its server started") when a server serving
  /// this service has started: it sized its per-operation metrics then, and its worker threads
  /// read the registrations unlocked. Call it only when started_ is set, so a registration
  /// builds no message.
  [[noreturn]] void refuse_registration(std::string_view what) const;

  std::string name_, tns_;
  bool started_ = false;  // set by server::start/run
  service_options opts_;
  std::vector<std::unique_ptr<operation_entry>> ops_;
  std::vector<header_binding> headers_;
  std::vector<interceptor> interceptors_;
  std::shared_ptr<message_codec> codec_;
  struct index;
  std::unique_ptr<index> index_;
  soap::envelope_starts envelope_starts_;  // opts_.envelope_namespaces, recorded once
};

}  // namespace lather

#include "lather/service/detail/describe.hpp"
#include "lather/service/detail/message_type_of.hpp"
#include "lather/service/detail/typed_operation.hpp"
#include "lather/service/wsdl.hpp"
