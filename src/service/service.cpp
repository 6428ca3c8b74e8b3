#include "lather/service/service.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "lather/service/current_call.hpp"
#include "lather/service/empty_body.hpp"

namespace lather {

namespace {
// The call whose message_handler runs on this thread (current_call_context()).
thread_local call_context* current_call = nullptr;

/// Makes `ctx` the current call while a handler runs (restoring the previous one: a handler
/// may serve a nested call on its own thread).
class current_call_scope {
 public:
  explicit current_call_scope(call_context& ctx) noexcept : previous_(current_call) {
    current_call = &ctx;
  }
  ~current_call_scope() { current_call = previous_; }
  current_call_scope(const current_call_scope&) = delete;
  current_call_scope& operator=(const current_call_scope&) = delete;

 private:
  call_context* previous_;
};

}  // namespace

call_context& current_call_context() {
  if (current_call == nullptr)
    throw std::logic_error(
        "current_call_context(): no call's handler (a generated service's method) is running on "
        "this thread");
  return *current_call;
}

const message_type& empty_body() noexcept {
  // Size 0: no value (message_type::create() gives one address for every message).
  static const message_type t = [] {
    message_type m;
    m.schema.expressible = true;
    return m;
  }();
  return t;
}

// Dispatch index: body element local name -> operations (usually one; "": those taking an
// empty Body). Heterogeneous lookup, so finding an operation from the reader's string_views
// allocates nothing.
struct service::index {
  struct hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept {
      return std::hash<std::string_view>{}(s);
    }
  };
  std::unordered_map<std::string, std::vector<const operation_entry*>, hash, std::equal_to<>>
      by_local;
  std::unordered_map<std::string, const operation_entry*, hash, std::equal_to<>> by_action;
};

service::service(std::string name, std::string target_namespace, service_options opts)
    : name_(std::move(name)),
      tns_(std::move(target_namespace)),
      opts_(std::move(opts)),
      index_(std::make_unique<index>()),
      envelope_starts_(opts_.envelope_namespaces, opts_.xml_declaration) {}

service::~service() = default;

void service::refuse_registration(std::string_view what) const {
  throw std::logic_error("service " + name_ + ": " + std::string(what) +
                         " after its server started");
}

void service::add(std::unique_ptr<operation_entry> op) {
  if (started_) refuse_registration("operation " + op->name() + " registered");
  op->index_ = ops_.size();
  index_->by_local[std::string(op->request_element())].push_back(op.get());
  if (!op->options().soap_action.empty())
    index_->by_action.emplace(op->options().soap_action, op.get());
  ops_.push_back(std::move(op));
}

void operation_entry::set_names(std::string name, operation_options opts, std::string_view tns,
                                std::string_view request_type, std::string_view request_type_ns,
                                std::string_view response_type, bool one_way) {
  name_ = std::move(name);
  options_ = std::move(opts);
  one_way_ = one_way;
  const bool bare = options_.style == soap::style::document_bare;
  request_element_ = !options_.request_element.empty() ? options_.request_element
                     : bare                            ? std::string(request_type)
                                                       : name_;
  if (!options_.response_element.empty())
    response_element_ = options_.response_element;
  else if (!one_way)
    response_element_ = bare ? std::string(response_type) : soap::response_name(name_);
  request_ns_ = !options_.element_ns.empty() ? options_.element_ns
                : soap::is_rpc(options_.style) || request_type_ns.empty()
                    ? std::string(tns)
                    : std::string(request_type_ns);
  response_ns_ = !options_.response_ns.empty() ? options_.response_ns : request_ns_;
}

namespace {

class raw_operation_entry final : public operation_entry {
 public:
  raw_operation_entry(std::string name, std::string ns, std::string local, service::raw_handler h,
                      operation_options opts)
      : handler_(std::move(h)) {
    name_ = std::move(name);
    request_ns_ = std::move(ns);
    response_ns_ = !opts.response_ns.empty() ? opts.response_ns : request_ns_;
    request_element_ = std::move(local);
    response_element_ = opts.response_element;
    options_ = std::move(opts);
  }
  void invoke(detail::exchange& x) override {
    xml::writer& w = x.begin_response(options_.style == soap::style::rpc_encoded);
    handler_(x, x.reader(), w);
    x.finish_request(false);
    x.end_response();
  }
  // A raw operation has no typed messages: its WSDL entry names the element only.
  void describe(wsdl_builder& b) const override {
    wsdl_operation_def d;
    d.name = name_;
    d.action = options_.soap_action;
    d.style = options_.style;
    d.element_ns = request_ns_;
    d.response_ns = response_ns_;
    d.request_element = request_element_;
    d.response_element = response_element_;
    b.add_operation(std::move(d), options_);
  }

 private:
  service::raw_handler handler_;
};

/// An operation over message_type tables: the typed operation's out_param form (or its
/// one-way form, without a response table), without templates.
class erased_operation final : public operation_entry {
 public:
  erased_operation(std::string name, const message_type& request, const message_type* response,
                   message_handler handler, operation_options opts, std::string_view tns)
      : request_(request), response_(response), handler_(handler) {
    if (response && request.encoded != response->encoded)
      throw std::invalid_argument("operation " + name +
                                  ": the request and response types must both be rpc/encoded "
                                  "(meta<>::encoding) or both literal");
    if (request.encoded)
      opts.style = soap::style::rpc_encoded;
    else if (opts.style == soap::style::rpc_encoded)
      throw std::invalid_argument("operation " + name +
                                  ": rpc/encoded needs request and response types whose meta<> "
                                  "says encoding::soap (see lather/soap/encoded.hpp)");
    if (opts.timeout.count() > 0)
      throw std::invalid_argument("operation " + name +
                                  ": operation_options::timeout needs a typed handler");
    if (!handler.fn && !handler.with_context)
      throw std::invalid_argument("operation " + name + ": no handler");
    set_names(std::move(name), std::move(opts), tns, request.name, request.ns,
              response ? response->name : std::string_view{}, !response);
    // An empty Body has no element (lather/service/empty_body.hpp).
    if (&request == &empty_body()) request_element_.clear();
    if (response == &empty_body()) response_element_.clear();
  }

  void invoke(detail::exchange& x) override {
    auto s = pool_.take(request_, response_);
    detail::trim_after_large_message trim{x, s};
    detail::read_request(x, *this, request_, s->request.get());
    x.finish_request(options_.style == soap::style::rpc_encoded);
    {
      const current_call_scope current(x);
      if (handler_.with_context)
        handler_.with_context(handler_.target, x, s->request.get(), s->response.get());
      else
        handler_.fn(handler_.target, s->request.get(), s->response.get());
    }
    if (response_)
      detail::write_response(x, *this, *response_, s->response.get());
    else
      x.accept_one_way();
  }

  void describe(wsdl_builder& b) const override {
    static constexpr message_schema none{true, nullptr};
    detail::describe_operation(b, *this, response_ != nullptr, request_.schema,
                               response_ ? response_->schema : none);
  }

 private:
  struct slot {
    slot(const message_type& req, const message_type* resp)
        : request(make_message_value(req)),
          response(resp ? make_message_value(*resp) : message_value(nullptr, {resp})) {}
    message_value request, response;
  };

  const message_type& request_;
  const message_type* response_;
  message_handler handler_;
  detail::object_pool<slot> pool_;
};

}  // namespace

void detail::read_literal(exchange& x, const operation_entry& op, const message_type& t,
                          void* req) {
  if (&t == &empty_body()) return;
  if (!t.reads())
    throw std::logic_error("operation " + op.name() + ": a literal style needs lather::meta<Req>");
  const bind::error_info e = op.options().style == soap::style::document_bare
                                 ? t.read(x.reader(), req, x.read_options())
                                 : t.read_content(x.reader(), req, x.read_options());
  if (e) x.request_error(e);
}

void detail::read_request(exchange& x, const operation_entry& op, const message_type& t,
                          void* req) {
  if (op.options().style != soap::style::rpc_encoded) return read_literal(x, op, t, req);
  if (!t.read_encoded)
    throw std::logic_error("operation " + op.name() + ": rpc/encoded needs meta<Req>::encoding");
  t.read_encoded(x.reader(), x.envelope(), req, x.read_options());
}

void detail::write_literal(exchange& x, const operation_entry& op, const message_type& t,
                           const void* resp) {
  if (&t == &empty_body()) {
    x.begin_response(false);
    x.end_response();
    return;
  }
  if (!t.writes())
    throw std::logic_error("operation " + op.name() + ": a literal style needs lather::meta<Resp>");
  xml::writer& w = start_literal(x, op);
  const bind::write_scope scope(x.write_options());
  t.write_content(w, resp);
  w.end_element();
  x.end_response();
}

void detail::write_response(exchange& x, const operation_entry& op, const message_type& t,
                            const void* resp) {
  if (op.options().style != soap::style::rpc_encoded) return write_literal(x, op, t, resp);
  if (!t.write_encoded)
    throw std::logic_error("operation " + op.name() + ": rpc/encoded needs meta<Resp>::encoding");
  t.write_encoded(x.begin_response(true), x.version(), op.response_ns(), op.response_element(),
                  resp);
  x.end_response();
}

service& service::operation(std::string name, const message_type& request,
                            const message_type& response, message_handler handler,
                            operation_options opts) {
  add(std::make_unique<erased_operation>(std::move(name), request, &response, handler,
                                         std::move(opts), tns_));
  return *this;
}

service& service::operation(std::string name, const message_type& request, message_handler handler,
                            operation_options opts) {
  add(std::make_unique<erased_operation>(std::move(name), request, nullptr, handler,
                                         std::move(opts), tns_));
  return *this;
}

service& service::raw_operation(std::string name, std::string ns, std::string local,
                                raw_handler handler, operation_options opts) {
  add(std::make_unique<raw_operation_entry>(std::move(name), std::move(ns), std::move(local),
                                            std::move(handler), std::move(opts)));
  return *this;
}

service& service::header(std::string ns, std::string local, header_reader read) {
  if (started_) refuse_registration("header {" + ns + "}" + local + " registered");
  headers_.push_back({std::move(ns), std::move(local), std::move(read)});
  return *this;
}

namespace {

/// The typed header entries of one call (service::header with a message type).
class typed_headers final : public call_state {
 public:
  struct entry {
    std::string_view ns, local;  // the registration's, which outlives the call
    const message_type* type;
    message_value value;
    bool present = false;
  };
  void clear() override {
    for (entry& e : entries) e.present = false;
  }
  entry& find(std::string_view ns, std::string_view local, const message_type& t) {
    for (entry& e : entries)
      if (e.type == &t && e.ns == ns && e.local == local) return e;
    entries.push_back({ns, local, &t, make_message_value(t)});
    return entries.back();
  }
  std::vector<entry> entries;
};

constexpr char typed_headers_key = 0;

}  // namespace

service& service::header(std::string ns, std::string local, const message_type& t) {
  for (const header_binding& h : headers_)
    if (h.ns == ns && h.local == local) return *this;
  // headers_ does not change once calls run, so the call reads its strings in place.
  const std::size_t i = headers_.size();
  headers_.push_back(
      {std::move(ns), std::move(local), [this, i, &t](call_context& ctx, xml::reader& r) {
         const header_binding& b = headers_[i];
         typed_headers::entry& e =
             ctx.state<typed_headers>(&typed_headers_key).find(b.ns, b.local, t);
         t.reset(e.value.get());
         if (bind::error_info err = t.read_content(r, e.value.get(), opts_.read)) {
           soap::fault f;
           f.code = soap::fault_code::sender;
           f.reason = "SOAP header {" + b.ns + "}" + b.local + ": " + err.message;
           throw soap::fault_error(std::move(f));
         }
         e.present = true;
       }});
  return *this;
}

void* request_header(call_context& ctx, std::string_view ns, std::string_view local) {
  for (typed_headers::entry& e : ctx.state<typed_headers>(&typed_headers_key).entries)
    if (e.present && e.ns == ns && e.local == local) return e.value.get();
  return nullptr;
}

service& service::intercept(interceptor i) {
  if (started_) refuse_registration("interceptor added");
  interceptors_.push_back(std::move(i));
  return *this;
}

byte_source call_context::request_part(std::string_view) {
  return {};
}

byte_source message_codec::request_part(call_context&, std::string_view) {
  return {};
}

service& service::codec(std::shared_ptr<message_codec> c) {
  if (started_) refuse_registration("codec set");
  codec_ = std::move(c);
  return *this;
}

const operation_entry* service::find(std::string_view ns, std::string_view local,
                                     std::string_view action) const noexcept {
  auto it = index_->by_local.find(local);
  if (local.empty()) {
    // An empty Body: the operation taking one that `action` names, by its soapAction or its
    // WS-Addressing Action (as CXF matches SOAPAction), else the only one.
    if (it == index_->by_local.end()) return nullptr;
    if (!action.empty())
      for (const operation_entry* op : it->second)
        if (op->options().soap_action == action || op->options().action == action) return op;
    return it->second.size() == 1 ? it->second.front() : nullptr;
  }
  if (it != index_->by_local.end()) {
    const operation_entry* match = nullptr;
    int matches = 0;
    for (const operation_entry* op : it->second)
      if (op->request_ns() == ns) {
        match = op;
        ++matches;
      }
    if (matches == 1) return match;
    if (matches > 1) {
      // Several operations take the same element (bare style): SOAPAction decides.
      for (const operation_entry* op : it->second)
        if (op->request_ns() == ns && op->options().soap_action == action) return op;
      return match;
    }
    // An RPC wrapper in no namespace: what clients send for a WSDL whose rpc soap:body has no
    // namespace attribute (CXF's own perf.wsdl, against WS-I BP R2717; zeep then sends
    // <echoStringRPC>). CXF reads such a WSDL as the target namespace, which lather writes;
    // the unqualified wrapper is accepted too when exactly one RPC operation has that name.
    if (ns.empty()) {
      for (const operation_entry* op : it->second)
        if (soap::is_rpc(op->options().style)) {
          match = op;
          ++matches;
        }
      if (matches == 1) return match;
    }
  }
  // Unknown element: the operation SOAPAction names, so the caller can say precisely which
  // element that operation expected (server.cpp checks the element before reading).
  if (!action.empty()) {
    auto a = index_->by_action.find(action);
    if (a != index_->by_action.end()) return a->second;
  }
  return nullptr;
}

}  // namespace lather
