#include "lather/service/service.hpp"

#include <string>
#include <unordered_map>

namespace lather {

// Dispatch index: body element local name -> operations (usually one). Heterogeneous lookup,
// so finding an operation from the reader's string_views allocates nothing.
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

void service::add(std::unique_ptr<operation_entry> op) {
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
}

namespace {

class raw_operation_entry final : public operation_entry {
 public:
  raw_operation_entry(std::string name, std::string ns, std::string local, service::raw_handler h,
                      operation_options opts)
      : handler_(std::move(h)) {
    name_ = std::move(name);
    request_ns_ = std::move(ns);
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
    d.request_element = request_element_;
    d.response_element = response_element_;
    b.add_operation(std::move(d), options_);
  }

 private:
  service::raw_handler handler_;
};

}  // namespace

service& service::raw_operation(std::string name, std::string ns, std::string local,
                                raw_handler handler, operation_options opts) {
  add(std::make_unique<raw_operation_entry>(std::move(name), std::move(ns), std::move(local),
                                            std::move(handler), std::move(opts)));
  return *this;
}

service& service::header(std::string ns, std::string local, header_reader read) {
  headers_.push_back({std::move(ns), std::move(local), std::move(read)});
  return *this;
}

service& service::intercept(interceptor i) {
  interceptors_.push_back(std::move(i));
  return *this;
}

service& service::codec(std::shared_ptr<message_codec> c) {
  codec_ = std::move(c);
  return *this;
}

const operation_entry* service::find(std::string_view ns, std::string_view local,
                                     std::string_view action) const noexcept {
  auto it = index_->by_local.find(local);
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
