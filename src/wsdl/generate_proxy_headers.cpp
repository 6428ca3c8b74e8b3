// lather-wsdl2cpp: the operations' SOAP headers in code_<k>.cpp (generate_proxy.cpp
// emits the rest): the helpers each such file gets once, the constant rows describing a header
// list, the client methods taking and giving the headers, and the service's handler.
#include <map>
#include <string_view>

#include "generate_names.hpp"
#include "generate_proxy.hpp"

namespace lather::wsdl::detail {
namespace {

/// `{&s.a, &s.b}`: the members of headers struct `s` that `headers` name, as `rows` index them.
std::string members(const std::string& s, const std::vector<header_plan>& headers) {
  std::string list;
  for (const header_plan& h : headers)
    list += (list.empty() ? "" : ", ") + std::string("&") + s + h.member;
  return "{" + list + "}";
}

}  // namespace

/// The helpers of operations with SOAP headers (code_<k>.cpp, once, before the
/// operations' constants): header entries written, read and checked through the headers
/// structs' members, one lather_gen::header_ops per header type and kind.
std::string_view header_functions() {
  return R"(
namespace lather_gen {

/// Writes the header entry {ns}element from `value`, a `t`.
[[maybe_unused]] void write_header(lather::xml::writer& w, std::string_view ns, std::string_view element,
                  const lather::message_type& t, const void* value) {
  w.start_element(ns, element);
  t.write_content(w, value);
  w.end_element();
}
/// Adds the header entry {ns}element, `value` (moved), to the response `ctx` answers.
template <class H>
void add_header(lather::call_context& ctx, std::string_view ns, std::string_view element,
                void* value) {
  ctx.add_response_header([ns, element, v = std::move(*static_cast<H*>(value))](
                              lather::xml::writer& w) {
    write_header(w, ns, element, lather::message_type_of<H>(), &v);
  });
}

/// How a member of a headers struct holds its header, an H: as std::optional<H>, or as H
/// (wsdl:required).
struct header_ops {
  bool required;
  /// The member's value, nullptr when it has none.
  const void* (*get)(const void* member);
  /// Empties the member (H{} when required).
  void (*reset)(void* member);
  /// The value a header entry read goes to (emplaced when optional).
  void* (*emplace)(void* member);
  /// member = std::move(*value).
  void (*assign)(void* member, void* value);
  /// add_header<H>.
  void (*add)(lather::call_context& ctx, std::string_view ns, std::string_view element,
              void* value);
};
template <class H>
[[maybe_unused]] constexpr header_ops optional_header{
    false,
    [](const void* m) -> const void* {
      const auto& o = *static_cast<const std::optional<H>*>(m);
      return o ? &*o : nullptr;
    },
    [](void* m) { static_cast<std::optional<H>*>(m)->reset(); },
    [](void* m) -> void* { return &static_cast<std::optional<H>*>(m)->emplace(); },
    [](void* m, void* v) { *static_cast<std::optional<H>*>(m) = std::move(*static_cast<H*>(v)); },
    &add_header<H>};
template <class H>
[[maybe_unused]] constexpr header_ops required_header{
    true,
    [](const void* m) -> const void* { return m; },
    [](void* m) { *static_cast<H*>(m) = H{}; },
    [](void* m) -> void* { return m; },
    [](void* m, void* v) { *static_cast<H*>(m) = std::move(*static_cast<H*>(v)); },
    &add_header<H>};

using type_fn = const lather::message_type& (*)() noexcept;
/// A SOAP header of an operation's request or response: {ns}element, a `type`, in the member
/// of its headers struct at the same index.
struct header_row {
  std::string_view ns, element;
  type_fn type;
  const header_ops* ops;
};

/// Adds the header entry {ns}element to the request `o` sends (`value`, a `t`, outlives it).
[[maybe_unused]] void send_header(lather::call_options& o, std::string_view ns, std::string_view element,
                 const lather::message_type& t, const void* value) {
  o.headers.push_back([ns, element, &t, value](lather::xml::writer& w) {
    write_header(w, ns, element, t, value);
  });
}
/// Makes `o` send the request's headers `in` (members of its headers struct, as `rows` say;
/// they outlive the call), and read the response's into `out` (as `response_rows`; reset
/// first) with `read` (the client's read options, which outlive the call), offering the
/// others to the reader it had.
[[maybe_unused]] void use_headers(lather::call_options& o, std::span<const header_row> rows,
                 std::span<const void* const> in, std::span<const header_row> response_rows,
                 std::span<void* const> out, const lather::bind::read_options& read) {
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (const void* v = rows[k].ops->get(in[k]))
      send_header(o, rows[k].ns, rows[k].element, rows[k].type(), v);
  if (response_rows.empty()) return;
  for (std::size_t k = 0; k < out.size(); ++k) response_rows[k].ops->reset(out[k]);
  o.read_header = [response_rows, out = std::vector<void*>(out.begin(), out.end()), &read,
                   next = std::move(o.read_header)](const lather::soap::header_info& h,
                                                     lather::xml::reader& r) {
    for (std::size_t k = 0; k < out.size(); ++k)
      if (h.is(response_rows[k].ns, response_rows[k].element)) {
        const lather::message_type& t = response_rows[k].type();
        void* value = response_rows[k].ops->emplace(out[k]);
        t.reset(value);
        if (lather::bind::error_info e = t.read_content(r, value, read))
          throw lather::bind::error(std::move(e));
        return lather::soap::header_use::consumed;
      }
    return next ? next(h, r) : lather::soap::header_use::not_understood;
  };
}

/// Moves the request's header entries from `ctx` into `in` (members of the request's headers
/// struct, as `rows` say); a request without a header the contract requires (wsdl:required)
/// is the sender's fault.
[[maybe_unused]] void take_headers(lather::call_context& ctx, std::span<const header_row> rows,
                  std::span<void* const> in) {
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (void* h = lather::request_header(ctx, rows[k].ns, rows[k].element)) {
      rows[k].ops->assign(in[k], h);
    } else if (rows[k].ops->required) {
      lather::soap::fault f;
      f.code = lather::soap::fault_code::sender;
      f.reason = "missing SOAP header {" + std::string(rows[k].ns) + "}" +
                 std::string(rows[k].element);
      throw lather::soap::fault_error(std::move(f));
    }
  }
}
/// Adds the response's headers `out` (members of its headers struct, as `rows` say; moved) to
/// the response `ctx` answers.
[[maybe_unused]] void give_headers(lather::call_context& ctx, std::span<const header_row> rows,
                  std::span<void* const> out) {
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (const void* v = rows[k].ops->get(out[k]))
      rows[k].ops->add(ctx, rows[k].ns, rows[k].element, const_cast<void*>(v));
}

/// Deletes a T (a response's headers struct, held_headers::destroy_headers).
template <class T>
void destroy(void* p) noexcept {
  delete static_cast<T*>(p);
}

/// How an asynchronous call with SOAP headers keeps the caller's callback (the inline
/// `_async` method passes lather::detail::header_callback_of<Res, RH>).
using header_callback_fn = lather::detail::header_callback_fn;
/// What such a call keeps until it completes: the request's header values, moved out of the
/// caller's struct, the callback and the response's headers struct it gets.
struct held_headers {
  held_headers() = default;
  held_headers(const held_headers&) = delete;
  held_headers& operator=(const held_headers&) = delete;
  ~held_headers() {
    for (auto& [t, v] : values) t->destroy(v);
    if (done) run(lather::detail::callback_op::destroy, done, nullptr, nullptr, nullptr);
    if (response_headers) destroy_headers(response_headers);
  }
  std::vector<std::pair<const lather::message_type*, void*>> values;
  header_callback_fn run = nullptr;
  void* done = nullptr;
  void* response_headers = nullptr;
  void (*destroy_headers)(void*) noexcept = nullptr;
};

/// An operation's method of a service class called with its request's headers struct and its
/// response's (serve_headers_<N>).
using serve_fn = void (*)(void* self, const void* request, void* request_headers, void* response,
                          void* response_headers);

}  // namespace lather_gen
)";
}

/// `op`'s header rows: the constant array (in `statics`, once per distinct list: `named`
/// maps its rows to its name) describing its request's (`response`: response's) headers.
std::string header_rows(const operation_plan& op, bool response,
                        std::map<std::string, std::string>& named, std::string& statics) {
  const std::vector<header_plan>& headers = response ? op.response_headers : op.request_headers;
  if (headers.empty()) return "{}";
  std::string rows;
  for (const header_plan& h : headers)
    rows += "\n    {" + quote(h.ns) + ", " + quote(h.element) + ", &lather::message_type_of<" +
            h.type + ">, &lather_gen::" + (h.required ? "required" : "optional") + "_header<" +
            h.type + ">},";
  auto [it, added] = named.emplace(rows, "header_rows_" + std::to_string(named.size() + 1));
  if (added) statics += "constexpr lather_gen::header_row " + it->second + "[] = {" + rows + "};\n";
  return "lather_gen::" + it->second;
}

namespace {

/// "const X& request_headers, Y& response_headers" of `op`'s headers structs, those it has.
std::string set_params(const operation_plan& op) {
  return join(
      {op.request_headers.empty() ? "" : "const " + op.request_headers_struct + "& request_headers",
       op.response_headers.empty() ? "" : op.response_headers_struct + "& response_headers"});
}

}  // namespace

std::string header_set(const operation_plan& op, const std::array<std::string, 2>& rows,
                       std::map<std::string, std::string>& named, std::string& statics) {
  const bool in = !op.request_headers.empty(), out = !op.response_headers.empty();
  const std::string key =
      op.request_headers_struct + " " + op.response_headers_struct + " " + rows[0] + " " + rows[1];
  auto [it, added] = named.emplace(key, std::to_string(named.size() + 1));
  if (!added) return it->second;
  const std::string& n = it->second;
  const std::string in_array =
      in ? "  void* const in[] = " + members("request_headers.", op.request_headers) + ";\n" : "";
  const std::string in_arg = in ? "in" : "{}", out_arg = out ? "out" : "{}";
  // The client's call: the request's headers sent, the response's read.
  std::string text = "\n/// The headers of " + op.name +
                     " and of the operations with the same ones: sent and read by a call,\n"
                     "/// moved into an asynchronous call, taken and given by the service.\n";
  text +=
      "[[maybe_unused]] void use_headers_" + n + "(" +
      join({"const lather::client& c", "lather::call_options& o", set_params(op)}) + ") {\n" +
      (in ? "  const void* const in[] = " + members("request_headers.", op.request_headers) + ";\n"
          : "") +
      (out ? "  void* const out[] = " + members("response_headers.", op.response_headers) + ";\n"
           : "") +
      "  use_headers(o, " + rows[0] + ", " + in_arg + ", " + rows[1] + ", " + out_arg +
      ", c.options().read);\n}\n";
  // The asynchronous call: the request's headers struct moved into it (a start_headers_fn).
  text += "[[maybe_unused]] std::shared_ptr<lather::detail::async_state> start_headers_" + n +
          "(\n    lather::client& c, const op_info& i, void* request, lather::call_options& o,\n"
          "    void*" +
          (in ? " headers" : "") + ", void* done, header_callback_fn run) {\n" +
          (in ? "  auto& request_headers = *static_cast<" + op.request_headers_struct +
                    "*>(headers);\n" + in_array
              : "");
  if (out)
    text += "  auto* response_headers = new " + op.response_headers_struct +
            ";\n  void* const out[] = " + members("response_headers->", op.response_headers) +
            ";\n";
  text += "  return start_with_headers(c, i, request, o, " + rows[0] + ", " + in_arg + ", " +
          rows[1] + ", " + out_arg + ", done, " +
          (out ? "response_headers, &destroy<" + op.response_headers_struct + ">"
               : std::string("nullptr, nullptr")) +
          ", run);\n}\n";
  // The service's handler: the request's headers from the call's context, the method called
  // with both structs, the response's added to the context.
  text += "[[maybe_unused]] void serve_headers_" + n +
          "(void* self, lather::call_context& ctx, const void* request,\n"
          "                                     void* response, serve_fn call) {\n";
  if (in)
    text += "  " + op.request_headers_struct + " request_headers;\n" + in_array +
            "  take_headers(ctx, " + rows[0] + ", in);\n";
  if (out) text += "  " + op.response_headers_struct + " response_headers;\n";
  text += "  call(self, request, " + std::string(in ? "&request_headers" : "nullptr") +
          ", response, " + (out ? "&response_headers" : "nullptr") + ");\n";
  if (out)
    text += "  void* const out[] = " + members("response_headers.", op.response_headers) +
            ";\n  give_headers(ctx, " + rows[1] + ", out);\n";
  if (!in && !out) text += "  (void)ctx;\n";
  statics += text + "}\n";
  return n;
}

std::string header_methods(const std::string& cls, const std::string& client_member,
                           const operation_plan& op, const std::string& set) {
  const std::string client = cls + "Client::", info = info_name(cls, op);
  const bool in = !op.request_headers.empty(), out = !op.response_headers.empty();
  // (The form without options and the `_async` forms are inline in the header.)
  return "void " + client + op.method + "(" + join({header_params(op), "lather::call_options o"}) +
         ") {\n" + "  lather_gen::use_headers_" + set + "(" +
         join({"*" + client_member, "o", in ? "request_headers" : "",
               out ? "response_headers" : ""}) +
         ");\n  lather_gen::call(*" + client_member + ", " + info + ", " + request_pointer(op) +
         ", " + (op.gives_response() ? "&response" : "nullptr") + ", &o);\n}\n";
}

std::string header_handler(const std::string& service, const operation_plan& op,
                           const std::string& set) {
  const bool in = !op.request_headers.empty(), out = !op.response_headers.empty();
  std::string args =
      op.takes_request() ? "*static_cast<const " + op.request_type + "*>(request)" : "";
  if (in) args = join({args, "*static_cast<const " + op.request_headers_type + "*>(in)"});
  if (op.gives_response()) args = join({args, "*static_cast<" + op.response_type + "*>(response)"});
  if (out) args = join({args, "*static_cast<" + op.response_headers_type + "*>(out)"});
  return "[](void* self, lather::call_context& ctx, const void* request, void* response) {\n"
         "       lather_gen::serve_headers_" +
         set + "(self, ctx, request, response,\n         [](void* self, const void* " +
         (op.takes_request() ? "request" : "") + ", void* " + (in ? "in" : "") + ", void* " +
         (op.gives_response() ? "response" : "") + ", void* " + (out ? "out" : "") +
         ") {\n           static_cast<" + service + "*>(self)->" + op.method + "(" + args +
         ");\n         });\n     }";
}

/// The asynchronous call of an operation with SOAP headers (after common_tail, in lather_gen).
std::string_view header_start() {
  return R"(
/// Starts an asynchronous call of `i` with `o` that sends the request's headers
/// `*request_headers` (moved into the call) and gives the callback `*done` (moved; nullptr:
/// none) the response's, as `run` says: start_headers_<N>, one per header set.
using start_headers_fn = std::shared_ptr<lather::detail::async_state> (*)(
    lather::client& c, const op_info& i, void* request, lather::call_options& o,
    void* request_headers, void* done, header_callback_fn run);

/// The callback_fn of a held_headers, which the call owns once it took it.
[[maybe_unused]] void* run_held(lather::detail::callback_op op, void* p,
                                std::exception_ptr* error, void* response) {
  auto* h = static_cast<held_headers*>(p);
  switch (op) {
    case lather::detail::callback_op::take:
      return p;
    case lather::detail::callback_op::call:
      if (h->done)
        h->run(lather::detail::callback_op::call, h->done, error, response, h->response_headers);
      break;
    case lather::detail::callback_op::destroy:
      delete h;
      break;
  }
  return nullptr;
}

/// Starts an asynchronous call of `i` with `o` and i's settings that sends the request's
/// headers `in` (moved into the call) and reads the response's into `out` (members of
/// `*response_headers`, which `destroy_headers` deletes with the call's state), then calls
/// `*done` (moved) as `run` says. Without `run` (a future form) `done` is nullptr or where
/// `response_headers` goes (the future reads them from the call's state).
[[maybe_unused]] std::shared_ptr<lather::detail::async_state> start_with_headers(
    lather::client& cl, const op_info& i, void* request, lather::call_options& o,
    std::span<const header_row> rows, std::span<void* const> in,
    std::span<const header_row> response_rows, std::span<void* const> out, void* done,
    void* response_headers, void (*destroy_headers)(void*) noexcept,
    header_callback_fn run) {
  std::unique_ptr<held_headers> h(new held_headers);
  h->run = run;
  h->response_headers = response_headers;
  h->destroy_headers = destroy_headers;
  if (run)
    h->done = run(lather::detail::callback_op::take, done, nullptr, nullptr, nullptr);
  else if (done)
    *static_cast<void**>(done) = response_headers;
  // The moved values stand for the caller's members: each is sent as it is.
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (const void* v = rows[k].ops->get(in[k])) {
      const lather::message_type& t = rows[k].type();
      h->values.emplace_back(&t, t.create_moved(const_cast<void*>(v)));
      send_header(o, rows[k].ns, rows[k].element, t, h->values.back().second);
    }
  use_headers(o, {}, {}, response_rows, out, cl.options().read);
  return start(cl, i, request, &o, h.release(), &run_held);
}
)";
}

}  // namespace lather::wsdl::detail
