#include "lather/dynamic/client.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <mutex>

#include "codec.hpp"
#include "types.hpp"

namespace lather::dynamic {

struct dynamic_client::impl {
  std::shared_ptr<const wsdl::model> model;
  detail::type_model types;
  client_options options;
  std::vector<operation_info> operations;
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<http::client>, std::less<>> transports;

  impl(std::shared_ptr<const wsdl::model> m, client_options o)
      : model(std::move(m)), types(*model), options(std::move(o)) {
    list_operations();
  }

  void add_port(const wsdl::binding& b, const std::string& service, const std::string& port,
                const std::string& address) {
    for (const wsdl::binding_operation& bo : b.operations) {
      if (!bo.op) continue;
      operation_info op;
      op.name = bo.name;
      op.service = service;
      op.port = port;
      op.address = address;
      op.version =
          b.version == wsdl::soap_version::soap12 ? soap::version::soap12 : soap::version::soap11;
      op.rpc = bo.style == wsdl::binding_style::rpc;
      op.encoded = bo.input.body && bo.input.body->use == wsdl::body_use::encoded;
      op.one_way = !bo.op->output;
      op.soap_action = bo.soap_action;
      op.binding = &b;
      op.op = &bo;
      op.input_signature = detail::signature(types, detail::shape_of(op, false));
      if (!op.one_way) op.output_signature = detail::signature(types, detail::shape_of(op, true));
      operations.push_back(std::move(op));
    }
  }

  void list_operations() {
    std::vector<const wsdl::binding*> used;
    for (const wsdl::service* s : model->services())
      for (const wsdl::port& p : s->ports) {
        if (!p.binding || p.binding->version == wsdl::soap_version::none) continue;
        used.push_back(p.binding);
        add_port(*p.binding, s->name.local, p.name, p.address);
      }
    // A SOAP binding that no port uses is still callable (with an address given).
    for (const wsdl::binding* b : model->bindings())
      if (b->version != wsdl::soap_version::none &&
          std::find(used.begin(), used.end(), b) == used.end())
        add_port(*b, "", b->name.local, "");
  }

  http::client& transport(const std::string& url) {
    std::lock_guard lock(mutex);
    auto& slot = transports[url];
    if (!slot) {
      http::client_options o = options.http;
      if (options.trace)
        o.on_request_head = [user = std::move(o.on_request_head)](std::string_view head) {
          if (user) user(head);
          if (const traced_request* t = request_traced)
            (*t->trace)("request", without_cr(head) + *t->body);
        };
      slot = std::make_unique<http::client>(url, std::move(o));
    }
    return *slot;
  }

  // The call being traced on this thread (calls run on the calling thread): its request is
  // traced when its head goes on the wire, with the body the call writes after it.
  struct traced_request {
    const std::function<void(std::string_view, std::string_view)>* trace;
    const std::string* body;
  };
  static thread_local const traced_request* request_traced;

  static std::string without_cr(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text)
      if (c != '\r') out.push_back(c);
    return out;
  }
};

thread_local const dynamic_client::impl::traced_request* dynamic_client::impl::request_traced =
    nullptr;

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

dynamic_client::dynamic_client(const std::string& wsdl, client_options options) {
  std::shared_ptr<const wsdl::model> model = wsdl::load({wsdl}, options.load);
  impl_ = std::make_unique<impl>(std::move(model), std::move(options));
}

dynamic_client::dynamic_client(std::shared_ptr<const wsdl::model> model, client_options options)
    : impl_(std::make_unique<impl>(std::move(model), std::move(options))) {}

dynamic_client::~dynamic_client() = default;

const wsdl::model& dynamic_client::model() const noexcept {
  return *impl_->model;
}

std::span<const operation_info> dynamic_client::operations() const noexcept {
  return impl_->operations;
}

const operation_info& dynamic_client::find(std::string_view operation,
                                           std::string_view port) const {
  for (const operation_info& op : impl_->operations)
    if (op.name == operation && (port.empty() || op.port == port)) return op;
  if (!port.empty() && std::none_of(impl_->operations.begin(), impl_->operations.end(),
                                    [&](const operation_info& op) { return op.port == port; })) {
    std::string ports;
    for (const operation_info& op : impl_->operations)
      if (ports.find(op.port) == std::string::npos) ports += (ports.empty() ? "" : ", ") + op.port;
    throw std::invalid_argument("no port " + std::string(port) + " (ports: " + ports + ")");
  }
  std::vector<std::pair<std::size_t, std::string_view>> near;
  for (const operation_info& op : impl_->operations) {
    if (!port.empty() && op.port != port) continue;
    std::size_t d = edit_distance(operation, op.name);
    const std::string lower_op = [&] {
      std::string s(op.name);
      for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return s;
    }();
    std::string lower_asked(operation);
    for (char& c : lower_asked) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!lower_asked.empty() && lower_op.find(lower_asked) != std::string::npos)
      d = std::min<std::size_t>(d, 1);
    if (std::none_of(near.begin(), near.end(), [&](const auto& n) { return n.second == op.name; }))
      near.emplace_back(d, op.name);
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string names;
  for (std::size_t i = 0; i < near.size() && i < 5; ++i)
    names += (i ? ", " : "") + std::string(near[i].second);
  throw std::invalid_argument("no operation " + std::string(operation) +
                              (port.empty() ? "" : " on port " + std::string(port)) +
                              (names.empty() ? "" : "; nearest: " + names));
}

std::string dynamic_client::request(const operation_info& op, const value& input,
                                    const value& headers) const {
  return detail::write_message(impl_->types, op, false, input, headers,
                               impl_->options.version.value_or(op.version));
}

std::string dynamic_client::response(const operation_info& op, const value& output,
                                     const value& headers,
                                     std::optional<soap::version> version) const {
  return detail::write_message(impl_->types, op, true, output, headers,
                               version.value_or(impl_->options.version.value_or(op.version)));
}

call_result dynamic_client::read_response(const operation_info& op,
                                          std::string_view envelope) const {
  return detail::read_message(impl_->types, op, true, envelope);
}

const operation_info* dynamic_client::match(std::string_view envelope, bool* output) const {
  const wsdl::qname body = detail::body_element(envelope);
  for (int direction = 0; direction < 2; ++direction)
    for (const operation_info& op : impl_->operations) {
      if (direction == 1 && op.one_way) continue;
      const detail::message_shape m = detail::shape_of(op, direction == 1);
      const bool same =
          m.rpc ? (m.rpc_ns.empty() || body.ns == m.rpc_ns) && body.local == m.rpc_name
          : !m.body.empty() && m.body.front()->element ? m.body.front()->element->name == body
                                                       : m.body.empty() && body.local.empty();
      if (same) {
        if (output) *output = direction == 1;
        return &op;
      }
    }
  return nullptr;
}

std::vector<std::string> dynamic_client::validate(std::string_view envelope) const {
  bool output = false;
  const operation_info* op = match(envelope, &output);
  if (!op) {
    const wsdl::qname body = detail::body_element(envelope);
    return {"/Envelope/Body/" + body.local +
            ": no operation of the contract has the body element " + body.str()};
  }
  try {
    return detail::read_message(impl_->types, *op, output, envelope).problems;
  } catch (const soap::fault_error&) {
    return {};  // a fault is a valid answer of any operation
  }
}

value dynamic_client::sample_input(const operation_info& op) const {
  return detail::sample_body(impl_->types, detail::shape_of(op, false));
}
value dynamic_client::sample_output(const operation_info& op) const {
  return detail::sample_body(impl_->types, detail::shape_of(op, true));
}
value dynamic_client::sample_input_headers(const operation_info& op) const {
  return detail::sample_headers(impl_->types, detail::shape_of(op, false));
}
value dynamic_client::sample_output_headers(const operation_info& op) const {
  return detail::sample_headers(impl_->types, detail::shape_of(op, true));
}

call_result dynamic_client::call(std::string_view operation, const value& input,
                                 const call_options& o) {
  return call(find(operation, o.port), input, o);
}

call_result dynamic_client::call(const operation_info& op, const value& input,
                                 const call_options& o) {
  const client_options& opts = impl_->options;
  const soap::version v = opts.version.value_or(op.version);
  const std::string url = !opts.address.empty() ? opts.address : op.address;
  if (url.empty())
    throw std::invalid_argument("port " + op.port + " has no address; give one (--address URL)");
  // WS-Addressing: the Action from the call, else the contract (as wsdl::load resolved it).
  std::string message_id, wsa_action;
  if (o.addressing) {
    wsa_action = !o.action.empty() ? o.action : op.op ? op.op->input_action : std::string();
    if (wsa_action.empty()) wsa_action = op.soap_action;
    if (wsa_action.empty())
      throw std::invalid_argument("operation " + op.name +
                                  " has no WS-Addressing Action nor SOAPAction in the contract; "
                                  "give one (--wsa-action URI)");
    message_id = wsa::new_message_id();
  }
  const std::string envelope =
      !o.addressing
          ? request(op, input, o.headers)
          : detail::write_message(
                impl_->types, op, false, input, o.headers, v, [&](xml::writer& w) {
                  wsa::write_request_headers(w, v, *o.addressing, {wsa_action, message_id, url});
                });
  const std::string content_type =
      soap::content_type(v, v == soap::version::soap12 ? op.soap_action : "");
  const std::string action = soap::soap_action_header(op.soap_action);
  std::pair<std::string_view, std::string_view> headers[2] = {{"Content-Type", content_type},
                                                              {"SOAPAction", action}};
  const std::size_t header_count = v == soap::version::soap11 ? 2 : 1;
  // Tracing: the request head as sent, with the envelope; the response's status line and
  // every header field, with the body (even when the status is refused).
  const impl::traced_request traced{&opts.trace, &envelope};
  struct trace_scope {
    explicit trace_scope(const impl::traced_request* t) { impl::request_traced = t; }
    ~trace_scope() { impl::request_traced = nullptr; }
  } scope{opts.trace ? &traced : nullptr};
  std::string answer;
  http::client& transport = impl_->transport(url);
  transport.post(
      "", std::span(headers, header_count), [&](byte_buffer& out) { out.append(envelope); },
      [&](const http::response_head& head, const byte_source& body) {
        const bool soap_type = soap::parse_content_type(head.content_type).has_value() ||
                               head.content_type.starts_with("application/xml");
        const bool refused =
            (head.status != 200 && head.status != 202 && head.status != 500 &&
             head.status != 400) ||
            (!soap_type && head.status != 202 && !(op.one_way && head.status == 200));
        if (refused && !opts.trace) throw http::status_error(head, body);
        char chunk[16384];
        for (std::size_t n; (n = body(chunk, sizeof chunk)) != 0;) answer.append(chunk, n);
        if (opts.trace) {
          std::string text = "HTTP/" + std::string(head.version() == 10 ? "1.0 " : "1.1 ") +
                             std::to_string(head.status) + " " + std::string(head.reason()) + "\n";
          for (std::size_t i = 0; i < head.header_count(); ++i) {
            const auto [name, value] = head.header_at(i);
            text.append(name).append(": ").append(value).append("\n");
          }
          opts.trace("response", text + "\n" + answer);
        }
        if (refused) {
          std::size_t at = 0;
          const byte_source rest = [&](char* dest, std::size_t n) {
            n = std::min(n, answer.size() - at);
            std::memcpy(dest, answer.data() + at, n);
            at += n;
            return n;
          };
          throw http::status_error(head, rest);
        }
      },
      o.timeout);
  if (op.one_way && answer.empty()) {
    call_result r;
    r.body = nullptr;
    r.message_id = std::move(message_id);
    return r;
  }
  call_result r = detail::read_message(impl_->types, op, true, answer);
  if (o.addressing) {
    check_addressing(op, std::move(message_id), r);
    std::erase_if(r.skipped_headers, [](const std::string& h) {  // read into r.addressing
      return h.starts_with("{" + std::string(wsa::ns_1_0) + "}") ||
             h.starts_with("{" + std::string(wsa::ns_2004) + "}");
    });
  }
  return r;
}

void dynamic_client::check_addressing(const operation_info& op, std::string message_id,
                                      call_result& r) const {
  r.message_id = std::move(message_id);
  try {
    r.addressing = wsa::read_headers(r.envelope);
  } catch (const std::exception& e) {
    r.problems.push_back(std::string("WS-Addressing: ") + e.what());
    return;
  }
  const wsa::headers& h = r.addressing;
  if (!h.ver) {
    r.problems.push_back("WS-Addressing: the response has no WS-Addressing headers");
    return;
  }
  if (h.reply_to_message() != r.message_id)
    r.problems.push_back("WS-Addressing: the response's RelatesTo is \"" +
                         std::string(h.reply_to_message()) + "\", not the MessageID sent \"" +
                         r.message_id + "\"");
  const std::string_view expected = op.op ? std::string_view(op.op->output_action) : "";
  if (!expected.empty() && h.action != expected)
    r.problems.push_back("WS-Addressing: the response's Action is \"" + h.action +
                         "\", expected \"" + std::string(expected) + "\"");
}

}  // namespace lather::dynamic
