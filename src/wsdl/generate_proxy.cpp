// lather-wsdl2cpp: per portType a client proxy and an abstract service class, declared in the
// port type's header and defined in code_<k>.cpp over the messages' message_type tables
// (no binding template is instantiated there); the output's CMakeLists.txt.
#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "generate_emit.hpp"
#include "generate_names.hpp"
#include "generate_proxy.hpp"

namespace lather::wsdl::detail {
namespace {

std::string mount_name(const port_type_plan& pt, std::size_t k) {
  return pt.mount_prefix + std::to_string(k + 1);
}

/// The message_type table of a message of C++ type `type`: lather::empty_body for an empty
/// Body ("").
std::string message_table(const std::string& type) {
  return type.empty() ? std::string("&lather::empty_body")
                      : "&lather::message_type_of<" + type + ">";
}

/// `op`'s row in lather_gen::infos: its settings from the WSDL, its messages and `thrower`,
/// the constant its client methods and its registration share.
std::string info_row(const operation_plan& op, const std::string& thrower) {
  return "    {" + quote(op.name) + ", " + quote(op.soap_action) + ",\n     " +
         quote(op.request_element) + ", " + quote(op.response_element) + ",\n     " +
         quote(op.element_ns) + ", " + quote(op.response_ns) + ", " + quote(op.action) + ", " +
         quote(op.response_action) + ",\n     " +
         (op.style.empty() ? std::string("false, lather::soap::style::document_wrapped")
                           : "true, lather::soap::style::" + op.style) +
         ",\n     " + message_table(op.request_type) + ", " +
         (op.one_way ? std::string("nullptr") : message_table(op.response_type)) + ", " + thrower +
         "},\n";
}

/// The typed soap:headerfaults of `op`'s request and response headers, each class once.
std::vector<const fault_plan*> header_faults(const operation_plan& op) {
  std::vector<const fault_plan*> out;
  for (const auto* headers : {&op.request_headers, &op.response_headers})
    for (const header_plan& h : *headers)
      for (const fault_plan& f : h.faults)
        if (std::none_of(out.begin(), out.end(),
                         [&](const fault_plan* o) { return o->cls == f.cls; }))
          out.push_back(&f);
  return out;
}

/// "X_fault, Y_header_fault": the classes of an operation's typed faults.
std::string fault_list(const operation_plan& op) {
  std::string list;
  for (const fault_plan* f : header_faults(op)) list += (list.empty() ? "" : ", ") + f->cls;
  if (!op.one_way)
    for (const fault_plan& f : op.faults) list += (list.empty() ? "" : ", ") + f.cls;
  return list;
}

/// The function that throws a fault an operation with typed faults received: as the class of
/// its typed header fault when a header entry of the fault is one of them (checked first: the
/// fault is about a header), else of its typed fault when its detail entry is one, as
/// soap::fault_detail_error when such an entry does not bind, else as it is (called in its
/// handler).
std::string fault_thrower(const std::string& name, const operation_plan& op) {
  std::string text = "\n[[noreturn]] void " + name +
                     "(lather::soap::fault_error& e, const lather::bind::read_options& o) {\n"
                     "  lather::soap::fault& f = e.get();\n";
  auto check = [&](const fault_plan& f, bool header) {
    text += "  if (" + f.detail_type + " d; read_entry(f, " + (header ? "true" : "false") + ", " +
            quote(f.ns) + ", " + quote(f.element) + ", lather::message_type_of<" + f.detail_type +
            ">(), &d, o))\n    throw " + f.cls + "(std::move(f), std::move(d));\n";
  };
  for (const fault_plan* f : header_faults(op)) check(*f, true);
  if (!op.one_way)
    for (const fault_plan& f : op.faults) check(f, false);
  return text + "  throw;\n}\n";
}

bool has_headers(const operation_plan& op) {
  return !op.request_headers.empty() || !op.response_headers.empty();
}

}  // namespace

/// One-way operations: header faults only.
bool throws_typed(const operation_plan& op) {
  return (!op.faults.empty() && !op.one_way) || !header_faults(op).empty();
}

std::string info_name(const std::string& cls, const operation_plan& op) {
  return "lather_gen::" + cls + "Ops::" + op.method;
}

std::string join(std::initializer_list<std::string> items) {
  std::string out;
  for (const std::string& i : items)
    if (!i.empty()) out += (out.empty() ? "" : ", ") + i;
  return out;
}

std::string request_param(const operation_plan& op, bool by_value) {
  if (!op.takes_request()) return {};
  return by_value ? op.request_type + " request" : "const " + op.request_type + "& request";
}

std::string request_arg(const operation_plan& op, bool moved) {
  return !op.takes_request() ? "" : moved ? "std::move(request)" : "request";
}

std::string request_pointer(const operation_plan& op) {
  return op.takes_request() ? "&request" : "nullptr";
}

std::string header_async_params(const operation_plan& op) {
  return join({request_param(op, true),
               op.request_headers.empty() ? "" : op.request_headers_type + " request_headers"});
}

std::string header_async_done(const operation_plan& op) {
  return "std::function<void(std::exception_ptr error" +
         (op.gives_response() ? ", " + op.response_type + "& response" : std::string()) +
         (op.response_headers.empty() ? ""
                                      : ", " + op.response_headers_type + "& response_headers") +
         ")>";
}

std::string header_params(const operation_plan& op) {
  return join(
      {request_param(op),
       op.request_headers.empty() ? "" : "const " + op.request_headers_type + "& request_headers",
       op.gives_response() ? op.response_type + "& response" : "",
       op.response_headers.empty() ? "" : op.response_headers_type + "& response_headers"});
}

namespace {

/// "X" of "::ns::X".
std::string unqualified(const std::string& type) {
  return type.substr(type.rfind("::") + 2);
}

/// The structs of an operation's SOAP headers (in the port type's header).
std::string header_structs(const operation_plan& op) {
  std::string text;
  for (int res = 0; res < 2; ++res) {
    const std::vector<header_plan>& headers = res ? op.response_headers : op.request_headers;
    if (headers.empty()) continue;
    const std::string& type = res ? op.response_headers_type : op.request_headers_type;
    const std::string& shared = res ? op.response_headers_struct : op.request_headers_struct;
    if (type != shared) {  // the same headers as an earlier operation's: its struct
      text += "/// The SOAP headers of " + op.name + "'s " + (res ? "response" : "request") +
              ": those of " + unqualified(shared) + ".\nusing " + unqualified(type) + " = " +
              unqualified(shared) + ";\n\n";
      continue;
    }
    text += "/// The SOAP headers (soap:header) of " + op.name + "'s " +
            (res ? "response: absent ones stay std::nullopt"
                 : "request: std::nullopt ones are not sent") +
            ".\nstruct " + unqualified(res ? op.response_headers_type : op.request_headers_type) +
            " {\n";
    for (const header_plan& h : headers)
      text += "  " + (h.required ? h.type : "std::optional<" + h.type + ">") + " " + h.member +
              "{};  // {" + h.ns + "}" + h.element + (h.required ? ", wsdl:required" : "") + "\n";
    text += "};\n\n";
  }
  return text;
}

}  // namespace

namespace {

/// Every typed fault class of `port_types`, once, with whether it is a header fault
/// (header_fault_of), in the order faults_header declares them.
std::vector<std::pair<const fault_plan*, bool>> fault_classes(
    const std::vector<port_type_plan>& port_types) {
  std::set<std::string> done;
  std::vector<std::pair<const fault_plan*, bool>> out;
  for (const port_type_plan& pt : port_types)
    for (const operation_plan& op : pt.operations) {
      for (const fault_plan& f : op.faults)
        if (done.insert(f.cls).second) out.emplace_back(&f, false);
      for (const fault_plan* f : header_faults(op))
        if (done.insert(f->cls).second) out.emplace_back(f, true);
    }
  return out;
}

/// The out-of-line members of the fault class `f` (declared by faults_header): the constructor
/// the proxies throw it with and the destructor, and with the destructor its vtable and
/// type_info, are compiled in this one file, not in each file that throws it. (The one a
/// service throws it with stays inline: compiled where a service uses it.)
std::string fault_definitions(const fault_plan& f, bool header) {
  return "\n" + f.cls + "::" + f.cls + "(lather::soap::fault received, " + f.detail_type +
         " detail)\n    : " + (header ? "header_fault_of" : "fault_of") +
         "(std::move(received), std::move(detail)) {}\n" + f.cls + "::~" + f.cls +
         "() = default;\n";
}

}  // namespace

std::string faults_header(const std::string& cpp_namespace,
                          const std::vector<port_type_plan>& port_types,
                          const std::set<std::string>& includes) {
  std::string classes;
  for (const auto& [f, header] : fault_classes(port_types)) {
    const std::string base = header ? "header_fault_of" : "fault_of";
    classes += "\n/// The fault whose " +
               std::string(header ? "header entry (soap:headerfault)" : "detail") + " is {" +
               f->ns + "}" + f->element +
               ": thrown by the client proxies when it\n/// arrives, and by a service "
               "implementation to send it.\nclass " +
               f->cls + " : public lather::soap::" + base + "<" + f->detail_type +
               "> {\n public:\n  " + f->cls + "(std::string reason, " + f->detail_type +
               " detail,\n    lather::soap::fault_code code = "
               "lather::soap::fault_code::sender)\n      : " +
               base + "(std::move(reason), std::move(detail), " + quote(f->ns) + ", " +
               quote(f->element) + ", code) {}\n  /// As received.\n  " + f->cls +
               "(lather::soap::fault received, " + f->detail_type + " detail);\n  ~" + f->cls +
               "() override;\n};\n";
  }
  if (classes.empty()) return {};
  std::string text =
      "// Generated by lather-wsdl2cpp: do not edit.\n// The typed faults of the operations "
      "(wsdl:fault with a detail element); the members the proxies use are defined in the code\n"
      "// file of the first operation that has them.\n#pragma once\n\n#include <string>\n#include "
      "<utility>\n\n#include \"lather/soap/fault_of.hpp\"\n";
  for (const std::string& inc : includes) text += "#include \"" + inc + "\"\n";
  return text + "\nnamespace " + cpp_namespace + " {\n" + classes + "\n}  // namespace " +
         cpp_namespace + "\n";
}

namespace {

/// How an inline method calls `method`, another form of itself: through `this` when a
/// parameter or local of the forms has that name (an operation "response" or "o").
std::string self_call(const std::string& method) {
  static const std::set<std::string, std::less<>> shadowed = {
      "request", "response", "o", "done", "request_headers", "response_headers"};
  return shadowed.count(method) ? "this->" + method : method;
}

/// The methods of a class that are inline in the port type's header: in the class (`split`
/// false), or declared there and defined after it (`defs`), where the types they return and
/// take by value are complete, so that the class needs only their declarations.
struct inline_methods {
  bool split;
  std::string cls;  ///< the class, for the definitions
  std::string in_class, defs;

  /// `head` (a template head, "" when none; `head_def`: without its default arguments) `ret`
  /// `name`(`params`) { `body` }.
  void add(const std::string& head, const std::string& head_def, const std::string& ret,
           const std::string& name, const std::string& params, const std::string& body) {
    const std::string decl = ret + " " + name + "(" + params + ")";
    in_class += head.empty() ? "" : "  " + head + "\n";
    if (!split) {
      in_class += "  " + decl + " {\n" + body + "  }\n";
      return;
    }
    in_class += "  " + decl + ";\n";
    std::string outside;  // `body` indented as at namespace scope
    for (std::size_t at = 0; at < body.size();) {
      const std::size_t end = body.find('\n', at) + 1;
      outside += body.substr(at + 2, end - at - 2);
      at = end;
    }
    defs += (head_def.empty() ? std::string("inline ") : head_def + "\n") + ret + " " + cls +
            "::" + name + "(" + params + ") {\n" + outside + "}\n";
  }
};

/// The client's private start_<k>() that starts `op`'s asynchronous calls (k: its code_<k>.cpp).
std::string start_name(const port_type_plan& pt, const operation_plan& op) {
  return pt.start_prefix + std::to_string(op.source + 1);
}

/// The body of an `_async` method of `op` (inline in the port type's header): one call of the
/// client's start_<k>() with `op`'s row there, its `options` ("&o", "nullptr"; with `headers`,
/// the SOAP headers' overload: "o" and the request's headers) and `done` with the callback_fn
/// of its type (header_callback_fn with `headers`), or without a callback (`callback` false) a
/// future form, which returns the call's state as its `future`.
std::string async_body(const port_type_plan& pt, const operation_plan& op, bool headers,
                       const std::string& options, bool callback, const std::string& future) {
  const std::string res = op.gives_response() ? op.response_type : std::string("void");
  const std::string rh = op.response_headers.empty() ? "void" : op.response_headers_type;
  const std::string run = !callback ? "nullptr"
                          : headers ? "&lather::detail::header_callback_of<" + res + ", " + rh + ">"
                                    : "&lather::detail::callback_of<" + res + ">";
  const std::string call =
      start_name(pt, op) + "(" +
      join({std::to_string(op.source_row), request_pointer(op), options,
            headers ? (op.request_headers.empty() ? "nullptr" : "&request_headers") : "",
            callback ? "&done" : "nullptr", run}) +
      ")";
  return callback ? "    " + call + ";\n" : "    return " + future + "(" + call + ");\n";
}

/// The callback `_async` form of `op` without options, `params` then `done`, a callable taking
/// the exception and `op`'s results (`with_headers`: the response's headers too): a template
/// over the callable, so that a braced list is never `done` and `op_async(request, {})` is the
/// future form with default options, as `op(request, {})` is the call with them. It calls the
/// form taking options (`args`: what it passes before `done`).
void async_callback_template(inline_methods& m, const operation_plan& op, bool with_headers,
                             const std::string& params, const std::string& args) {
  const std::string types =
      "std::exception_ptr" + (op.gives_response() ? ", " + op.response_type + "&" : std::string()) +
      (with_headers && !op.response_headers.empty() ? ", " + op.response_headers_type + "&" : "");
  const std::string head = "template <std::invocable<" + types + "> Done";
  m.add(head + ", class Options = lather::call_options>", head + ", class Options>", "void",
        op.async_method, join({params, "Done done"}),
        "    " + self_call(op.async_method) + "(" +
            join({args, "std::function<void(" + types + ")>(std::move(done))", "Options{}"}) +
            ");\n");
}

/// The `_async` forms of `op` (request parameter `req`, callback type `done`, returning
/// `future`) that take options or return a future: each one call of the client's
/// start_<k>(), inline, so that their code (with the callback's lather::detail::callback_of)
/// is emitted where a program calls them, not in the library. (Each file including the header
/// instantiates the callbacks' std::function types: their parameters' types.)
void async_methods(inline_methods& m, const port_type_plan& pt, const operation_plan& op,
                   const std::string& req, const std::string& done, const std::string& future) {
  const std::string& async = op.async_method;
  m.add("", "", "void", async, join({req, done + " done", "lather::call_options o"}),
        async_body(pt, op, false, "&o", true, ""));
  m.add("", "", future, async, req, async_body(pt, op, false, "nullptr", false, future));
  m.add("", "", future, async, join({req, "lather::call_options o"}),
        async_body(pt, op, false, "&o", false, future));
}

/// The `_async` forms of `op` with its SOAP headers (in the client class): a callback form,
/// and a future form, which gives the response's headers with the response
/// (lather::with_headers) when it has some.
void header_async_methods(inline_methods& m, const port_type_plan& pt, const operation_plan& op) {
  const std::string params = header_async_params(op), done = header_async_done(op);
  const std::string& async = op.async_method;
  const bool out = !op.response_headers.empty();
  m.in_class += "  /// Asynchronous, with the SOAP headers" +
                std::string(!out ? ""
                            : op.request_headers.empty()
                                ? " (`done`, and the future form's result, get the response's: "
                                  "the future form\n  /// takes lather::with_response_headers)"
                                : " (`done`, and the future form's result, get the response's)") +
                ".\n";
  async_callback_template(m, op, true, params,
                          join({request_arg(op, true),
                                op.request_headers.empty() ? "" : "std::move(request_headers)"}));
  m.add("", "", "void", async, join({params, done + " done", "lather::call_options o"}),
        async_body(pt, op, true, "o", true, ""));
  const std::string res = op.gives_response() ? op.response_type : std::string("void");
  const std::string future =
      "lather::future<" +
      (out ? "lather::with_headers<" + res + ", " + op.response_headers_type + ">" : res) + ">";
  // Without request headers, the tag tells the form from the one without headers.
  const std::string tag =
      out && op.request_headers.empty() ? "lather::with_response_headers_t" : "";
  if (!op.request_headers.empty()) {
    // As the synchronous form: the headers by name, a braced list is lather::call_options;
    // `auto`: the future's type is complete only where the call is made.
    const std::string head = "template <std::same_as<" + op.request_headers_type + "> Headers";
    m.add(head + ", class Options = lather::call_options>", head + ", class Options>", "auto",
          async, join({request_param(op, true), "const Headers& request_headers"}),
          "    return " + self_call(async) + "(" +
              join({request_arg(op, true), "request_headers", "Options{}"}) + ");\n");
  } else if (out) {
    m.add("", "", future, async, join({request_param(op, true), tag}),
          "    return " + self_call(async) + "(" +
              join({request_arg(op, true), "lather::with_response_headers",
                    "lather::call_options{}"}) +
              ");\n");
  }
  if (!out) {
    m.add("", "", future, async, join({params, "lather::call_options o"}),
          async_body(pt, op, true, "o", false, future));
    return;
  }
  // The call owns the response's headers struct; start_<k>() says where, in `*done`.
  const std::string call = start_name(pt, op) + "(" +
                           join({std::to_string(op.source_row), request_pointer(op), "o",
                                 op.request_headers.empty() ? "nullptr" : "&request_headers",
                                 "&response_headers", "nullptr"}) +
                           ")";
  m.add("", "", future, async, join({params, tag, "lather::call_options o"}),
        "    void* response_headers = nullptr;\n    auto state = " + call + ";\n    return " +
            future + "(std::move(state), static_cast<" + op.response_headers_type +
            "*>(response_headers));\n");
}

}  // namespace

std::vector<generated_file> port_type_header(const std::string& cpp_namespace,
                                             const port_type_plan& pt,
                                             const std::string& faults_file) {
  const bool split = !pt.decl_header.empty();
  inline_methods client{split, pt.cls + "Client", "", ""};
  std::string server, structs, messages;
  std::set<std::string> declared;
  bool faults = false;
  for (const operation_plan& op : pt.operations) {
    const std::string &Res = op.response_type, &method = op.method;
    const std::string req = request_param(op), req_value = request_param(op, true);
    const bool gives = op.gives_response(), out = !op.response_headers.empty();
    for (const std::string* t : {&op.request_type, &op.response_type})
      if (!t->empty() && declared.insert(*t).second)
        messages += "struct " + unqualified(*t) + ";\n";
    faults |= throws_typed(op);
    if (has_headers(op)) {
      structs += header_structs(op);
      client.in_class += "  /// " + op.name + " with its SOAP headers" +
                         (out ? " (the response's are read into response_headers)" : "") + ".\n";
      if (!op.request_headers.empty()) {
        // A template, so that a braced list as the second argument is never the headers:
        // op(request, {}) and op(request, {.timeout = ...}) are call_options, as for every
        // operation.
        const std::string& H = op.request_headers_type;
        const std::string params = join({req, "const Headers& request_headers"});
        client.in_class +=
            "  /// (The headers by name: a braced list here is lather::call_options.)\n";
        const std::string head = "template <std::same_as<" + H + "> Headers";
        if (!gives && !out) {
          // call_options is complete where the call is made (lather/service/client.hpp).
          client.add(head + ", class Options = lather::call_options>", head + ", class Options>",
                     "void", method, params,
                     "    " + self_call(method) + "(" +
                         join({request_arg(op), "request_headers", "Options{}"}) + ");\n");
        } else {
          client.add(head + ">", head + ">", gives ? Res : std::string("void"), method, params,
                     (gives ? "    " + Res + " response;\n" : "") +
                         (out ? "    " + op.response_headers_type + " response_headers;\n" : "") +
                         "    " + self_call(method) + "(" +
                         join({request_arg(op), "request_headers", gives ? "response" : "",
                               out ? "response_headers" : ""}) +
                         ");\n" + (gives ? "    return response;\n" : ""));
        }
      }
      if (gives || out || op.request_headers.empty()) {
        const std::string args =
            join({request_arg(op), op.request_headers.empty() ? "" : "request_headers",
                  gives ? "response" : "", out ? "response_headers" : ""});
        client.add(
            "", "", "void", method, header_params(op),
            "    " + self_call(method) + "(" + join({args, "lather::call_options{}"}) + ");\n");
      }
      client.in_class +=
          "  void " + method + "(" + join({header_params(op), "lather::call_options o"}) + ");\n";
      header_async_methods(client, pt, op);
    }
    const std::string in_body = op.takes_request() ? "{" + op.element_ns + "}" + op.request_element
                                                   : std::string("an empty Body");
    const std::string style = op.style.empty() ? "" : " (" + op.style + ")";
    std::string& text = client.in_class;
    if (op.one_way) {
      text += "  /// " + op.name + ": " + in_body + ", one-way" + style +
              ": returns once the service accepted the request\n  /// (HTTP 202, or 200 with "
              "an empty body); a fault throws " +
              (throws_typed(op) ? fault_list(op) + " for its header faults, else " : "") +
              "lather::soap::fault_error.\n";
    } else {
      text += "  /// " + op.name + ": " + in_body + " -> " +
              (gives ? op.response_element : std::string("an empty Body")) + style + "\n";
      if (throws_typed(op)) {
        text +=
            "  /// Throws " + fault_list(op) + " for its faults, else lather::soap::fault_error.\n";
        server += "  /// May throw " + fault_list(op) + ".\n";
      }
    }
    if (!gives) {  // one-way, or an empty Body as the response: nothing to return
      text += "  void " + method + "(" + req + ");\n";
      text += "  void " + method + "(" + join({req, "lather::call_options o"}) + ");\n";
      text +=
          "  /// Asynchronous: returns at once; `done` runs on a thread of the client's async "
          "pool,\n  /// with the call's exception in `error` when it failed.\n";
      const std::string done = "std::function<void(std::exception_ptr error)>";
      async_callback_template(client, op, false, req_value, request_arg(op, true));
      async_methods(client, pt, op, req_value, done, "lather::future<void>");
      if (op.one_way)
        server +=
            "  /// One-way: the client gets HTTP 202 once this returns (a fault if it throws).\n";
      server += "  virtual void " + method + "(" + header_params(op) + ") = 0;\n";
      continue;
    }
    // Inline: the library instantiates no response type's destructor for them.
    client.add("", "", Res, method, req,
               "    " + Res + " response;\n    " + self_call(method) + "(" +
                   join({request_arg(op), "response"}) + ");\n    return response;\n");
    client.add("", "", Res, method, join({req, "lather::call_options o"}),
               "    " + Res + " response;\n    " + self_call(method) + "(" +
                   join({request_arg(op), "response", "std::move(o)"}) +
                   ");\n    return response;\n");
    client.in_class += "  void " + method + "(" + join({req, Res + "& response"}) + ");\n";
    client.in_class += "  void " + method + "(" +
                       join({req, Res + "& response", "lather::call_options o"}) + ");\n";
    const std::string done = "std::function<void(std::exception_ptr error, " + Res + "& response)>";
    client.in_class +=
        "  /// Asynchronous: returns at once; `done` runs on a thread of the client's async "
        "pool with\n  /// the response, or with the call's exception in `error`.\n";
    async_callback_template(client, op, false, req_value, request_arg(op, true));
    async_methods(client, pt, op, req_value, done, "lather::future<" + Res + ">");
    if (has_headers(op))
      server += "  /// With the request's SOAP headers; the response's are sent as set.\n";
    server += "  virtual void " + method + "(" + header_params(op) + ") = 0;\n";
  }
  std::string mount, mounts, starts;
  for (std::size_t k : pt.sources) {
    mount += "    " + mount_name(pt, k) + "(s);\n";
    mounts += "  void " + mount_name(pt, k) + "(lather::service& s);\n";
    // Every operation has the `_async` forms without SOAP headers; those with headers also
    // the header forms.
    bool headers = false;
    for (const operation_plan& op : pt.operations) headers |= op.source == k && has_headers(op);
    const std::string start = "  std::shared_ptr<lather::detail::async_state> " + pt.start_prefix +
                              std::to_string(k + 1) +
                              "(std::size_t op, void* request, lather::call_options";
    starts += start + "* o, void* done,\n      lather::detail::callback_fn run);\n";
    if (headers)
      starts += start +
                "& o, void* request_headers,\n      void* done, "
                "lather::detail::header_callback_fn run);\n";
  }
  const std::string& cls = pt.cls;
  const std::string head = "// Generated by lather-wsdl2cpp: do not edit.\n";
  const std::string standard =
      "#pragma once\n\n#include <concepts>\n#include <cstddef>\n#include <exception>\n"
      "#include <functional>\n#include <memory>\n#include <utility>\n" +
      std::string(structs.empty() ? "" : "#include <optional>\n") + "\n";
  const std::string types_includes = [&] {
    std::string t;
    for (const std::string& inc : pt.includes) t += "#include \"" + inc + "\"\n";
    return t;
  }();
  std::string text = head;
  if (split) {
    text += "// The classes of " + pt.header +
            " (which a program includes) over the declarations of their messages,\n// for "
            "code_<k>.cpp; the methods are defined there and in " +
            pt.header + ".\n" + standard;
    for (const std::string& inc : pt.decl_includes) text += "#include \"" + inc + "\"\n";
  } else {
    text +=
        "// The methods are defined in code_<k>.cpp; a call needs lather/service/client.hpp.\n" +
        standard + types_includes;
  }
  text +=
      "#include \"lather/service/call_options.hpp\"\n#include "
      "\"lather/service/current_call.hpp\"\n#include \"lather/service/future.hpp\"\n";
  if (faults && !split) text += "#include \"" + faults_file + "\"\n";
  text += "\nnamespace lather {\nclass client;\nclass service;\n}  // namespace lather\n";
  text += "\nnamespace " + cpp_namespace + " {\n\n" + (split ? messages + "\n" : "") + structs;
  text += "/// Client of portType " + pt.qname + ": one method per operation.\n";
  text += "class " + cls + "Client {\n public:\n  explicit " + cls +
          "Client(lather::client& c) : " + pt.client + "(&c) {}\n\n" + client.in_class +
          "\n private:\n"
          "  // Start an asynchronous call of the operation at row `op` of code_<k>.cpp's "
          "operations\n  // (the `_async` methods' one path): `request`, the options and the "
          "callback are moved.\n" +
          starts + "  lather::client* " + pt.client + ";\n};\n\n";
  text += "/// Server side of portType " + pt.qname + ": implement the operations, then " +
          pt.mount_on + "() a lather::service.\n";
  text += "class " + cls + "Service {\n public:\n  virtual ~" + cls + "Service() = default;\n" +
          server + "\n  /// Register every operation on `s`; this object must outlive it.\n" +
          "  void " + pt.mount_on + "(lather::service& s) {\n" + mount + "  }\n\n protected:\n" +
          "  /// Inside an operation's method: the call's context (its HTTP headers, SOAPAction,\n"
          "  /// Basic-auth user, response SOAP headers; lather/service/service.hpp). Throws\n"
          "  /// std::logic_error outside a call.\n  static lather::call_context& " +
          pt.context + "() { return lather::current_call_context(); }\n\n private:\n" + mounts +
          "};\n\n";
  text += "}  // namespace " + cpp_namespace + "\n";
  if (!split) return {{pt.header, std::move(text)}};
  std::string pub = head + "// The client proxy and service class of portType " + pt.qname +
                    " (declared in " + pt.decl_header +
                    "),\n// with the types of their messages. The methods are defined in "
                    "code_<k>.cpp; a call needs\n// lather/service/client.hpp.\n" +
                    standard + "#include \"" + pt.decl_header + "\"\n" + types_includes;
  if (faults) pub += "#include \"" + faults_file + "\"\n";
  pub += "\nnamespace " + cpp_namespace +
         " {\n\n// The client's methods that return a response, take a callable or start an "
         "asynchronous\n// call: inline, where the types are complete.\n" +
         client.defs + "\n}  // namespace " + cpp_namespace + "\n";
  return {{pt.decl_header, std::move(text)}, {pt.header, std::move(pub)}};
}

namespace {

/// Reads a fault's detail or header entry into a typed fault's detail (code_<k>.cpp,
/// once).
constexpr std::string_view read_entry_function =
    "\n/// Reads the fault's first detail entry (`header`: header entry) {ns}element into `out`\n"
    "/// (a `t`) with `o` (the client's read options); false when there is none. One that does\n"
    "/// not bind throws lather::soap::fault_detail_error.\n"
    "bool read_entry(lather::soap::fault& f, bool header, std::string_view ns,\n"
    "                std::string_view element, const lather::message_type& t, void* out,\n"
    "                const lather::bind::read_options& o) {\n"
    "  bool found = false;\n"
    "  auto read = [&](lather::xml::reader& r) {\n"
    "    if (found || !r.is(ns, element)) {\n"
    "      r.skip_element();\n"
    "    } else {\n"
    "      found = true;\n"
    "      if (lather::bind::error_info e = t.read(r, out, o))\n"
    "        throw lather::bind::error(std::move(e));\n"
    "    }\n"
    "  };\n"
    "  try {\n"
    "    header ? f.read_header(read) : f.read_detail(read);\n"
    "  } catch (lather::bind::error& e) {\n"
    "    throw lather::soap::fault_detail_error(std::move(f), ns, element, e.info(), header);\n"
    "  }\n"
    "  return found;\n"
    "}\n";

/// The client methods of `op` (class `cls` + "Client") without SOAP headers: each one call of
/// lather_gen::call (the value-returning and `_async` forms are inline in the header).
std::string client_methods(const std::string& cls, const std::string& client_member,
                           const operation_plan& op) {
  const std::string &Res = op.response_type, &method = op.method;
  const std::string client = cls + "Client::", info = info_name(cls, op);
  const std::string params =
      join({request_param(op), op.gives_response() ? Res + "& response" : ""});
  const std::string call = "  lather_gen::call(*" + client_member + ", " + info + ", " +
                           request_pointer(op) + ", " +
                           (op.gives_response() ? "&response" : "nullptr") + ", ";
  std::string text = "void " + client + method + "(" + params + ") {\n" + call + "nullptr);\n}\n";
  text += "void " + client + method + "(" + join({params, "lather::call_options o"}) + ") {\n" +
          call + "&o);\n}\n";
  return text;
}

/// The registration of `op` by mount_<k>() of class `service` (`cls` + "Service"): its entry
/// in the table that lather_gen::mount registers. The constant arrays it refers to go to
/// `statics`, each distinct one once (`named` maps a type and rows to its name).
std::string registration(const std::string& cls, const operation_plan& op, const std::string& set,
                         std::map<std::string, std::string>& named, std::string& statics) {
  const std::string service = cls + "Service";
  auto table = [&](const std::string& type, const std::string& name, const std::string& list) {
    if (list.empty()) return std::string("{}");
    auto [it, added] = named.emplace(type + list, name + "_" + std::to_string(named.size() + 1));
    if (added)
      statics +=
          "  static constexpr lather_gen::" + type + " " + it->second + "[] = {" + list + "};\n";
    return it->second;
  };
  // The typed faults, for the service's ?wsdl.
  std::string faults, actions, headers;
  if (!op.one_way)
    for (const fault_plan& f : op.faults)
      faults += "\n      {" + quote(f.name) + ", " + quote(f.ns) + ", " + quote(f.element) +
                ", &lather::message_type_of<" + f.detail_type + ">},";
  for (const auto& [ns, element, action] : op.fault_actions)
    actions += "\n      {" + quote(ns) + ", " + quote(element) + ", " + quote(action) + "},";
  // The typed headers with their header faults: for the service's ?wsdl, and the request's
  // understood by the service.
  for (const auto* list : {&op.request_headers, &op.response_headers})
    for (const header_plan& h : *list) {
      std::string header_faults;
      for (const fault_plan& f : h.faults)
        header_faults += "\n      {\"\", " + quote(f.ns) + ", " + quote(f.element) +
                         ", &lather::message_type_of<" + f.detail_type + ">},";
      headers += "\n      {" + quote(h.ns) + ", " + quote(h.element) +
                 ", &lather::message_type_of<" + h.type + ">, " + quote(h.part) + ", " +
                 (list == &op.response_headers ? "true" : "false") + ", " +
                 (h.required ? "true" : "false") + ", " +
                 table("fault_entry", "header_faults", header_faults) + "},";
    }
  std::string text = "    {&" + info_name(cls, op) + ",\n     ";
  if (has_headers(op)) {
    text += "{nullptr, nullptr,\n     " + header_handler(service, op, set) + "}";
  } else {
    const bool req = op.takes_request(), res = op.gives_response();
    text += "{[](void* self, const void*" + std::string(req ? " request" : "") + ", void*" +
            (res ? " response" : "") + ") {\n       static_cast<" + service + "*>(self)->" +
            op.method + "(" +
            join({req ? "*static_cast<const " + op.request_type + "*>(request)" : "",
                  res ? "*static_cast<" + op.response_type + "*>(response)" : ""}) +
            ");\n     }}";
  }
  return text + ",\n     " + table("fault_entry", "faults", faults) + ", " +
         table("fault_action_entry", "fault_actions", actions) + ", " +
         table("header_entry", "headers", headers) + "},\n";
}

/// What every code_<k>.cpp shares, first: an operation's settings and messages.
constexpr std::string_view common_head = R"(
namespace {
namespace lather_gen {

using type_fn = const lather::message_type& (*)() noexcept;
/// An operation: its settings from the contract (of lather::call_options and
/// lather::operation_options), its messages (response nullptr: one-way) and the function that
/// throws its typed faults (nullptr: none).
struct op_info {
  std::string_view name, soap_action, request_element, response_element, element_ns, response_ns,
      action, response_action;
  bool styled;
  lather::soap::style style;
  type_fn request, response;
  void (*typed_fault)(lather::soap::fault_error&, const lather::bind::read_options&);
};

/// `i`'s settings over `o` (a lather::call_options or a lather::operation_options); a
/// SOAPAction or WS-Addressing Action the caller set wins over the contract's.
template <class Options>
void apply(const op_info& i, Options& o) {
  if (o.soap_action.empty()) o.soap_action = i.soap_action;
  o.request_element = i.request_element;
  o.response_element = i.response_element;
  o.element_ns = i.element_ns;
  if (!i.response_ns.empty()) o.response_ns = i.response_ns;
  if (i.styled) o.style = i.style;
  if (o.action.empty()) o.action = i.action;
  if (!i.response_action.empty()) o.response_action = i.response_action;
}

}  // namespace lather_gen
}  // namespace
)";

/// What every code_<k>.cpp shares, after the operations' constants (lather_gen::infos):
/// the call, the asynchronous call and the registration of a service's operations, as
/// functions over those constants instead of code per operation.
constexpr std::string_view common_tail = R"(
/// `i`'s settings alone, made once for every operation of the file (so a call copies no
/// strings: 0 allocations per call once warm).
[[maybe_unused]] const lather::call_options& options(const op_info& i) {
  static const std::vector<lather::call_options> all = [] {
    std::vector<lather::call_options> v(std::size(infos));
    for (std::size_t k = 0; k < v.size(); ++k) apply(infos[k], v[k]);
    return v;
  }();
  return all[static_cast<std::size_t>(&i - infos)];
}

/// Starts an asynchronous call of `i` with `*o` (nullptr: no options) and i's settings, which
/// then calls `*done` (nullptr: none), a callback `run` keeps (its callback_fn: taken first,
/// so that the call owns it whatever happens). The one path of every `_async` method.
[[maybe_unused]] std::shared_ptr<lather::detail::async_state> start(
    lather::client& c, const op_info& i, void* request, lather::call_options* o, void* done,
    lather::detail::callback_fn run) {
  std::function<void(std::exception_ptr, void*)> completion =
      run ? lather::detail::take_callback(done, run) : nullptr;
  lather::call_options options = o ? std::move(*o) : lather::call_options{};
  apply(i, options);
  return c.async_call(i.name, i.request(), request, i.response ? &i.response() : nullptr,
                      std::move(options), {std::move(completion), i.typed_fault});
}

/// Calls `i` with `*o` and i's settings (nullptr: i's settings alone), its typed faults thrown
/// as their classes.
[[maybe_unused]] void call(lather::client& c, const op_info& i, const void* request,
                           void* response, lather::call_options* o) {
  if (o) apply(i, *o);
  const lather::call_options& options = o ? *o : lather_gen::options(i);
  try {
    if (i.response)
      c.call(i.name, i.request(), request, i.response(), response, options);
    else
      c.call_one_way(i.name, i.request(), request, options);
  } catch (lather::soap::fault_error& e) {
    if (!i.typed_fault) throw;
    i.typed_fault(e, c.options().read);
  }
}

/// A typed fault of an operation, for the service's ?wsdl.
struct fault_entry {
  std::string_view name, ns, element;
  type_fn detail;
};
/// The WS-Addressing Action of a fault.
struct fault_action_entry {
  std::string_view ns, element, action;
};
/// A SOAP header of a request or a response (lather::header_declaration).
struct header_entry {
  std::string_view ns, element;
  type_fn type;
  std::string_view part;
  bool response, required;
  std::span<const fault_entry> faults;
};
/// An operation of a service class and its handler.
struct op_entry {
  const op_info* info;
  lather::message_handler handler;
  std::span<const fault_entry> faults;
  std::span<const fault_action_entry> fault_actions;
  std::span<const header_entry> headers;
};

/// Registers `ops` on `s`, their handlers called with `self`.
[[maybe_unused]] void mount(lather::service& s, void* self, std::span<const op_entry> ops) {
  for (const op_entry& e : ops) {
    lather::operation_options o;
    apply(*e.info, o);
    for (const fault_action_entry& a : e.fault_actions)
      o.fault_actions.push_back({std::string(a.ns), std::string(a.element), std::string(a.action)});
    for (const fault_entry& f : e.faults)
      o.faults.push_back(
          {std::string(f.name), std::string(f.ns), std::string(f.element), &f.detail()});
    for (const header_entry& h : e.headers) {
      lather::header_declaration d{std::string(h.ns), std::string(h.element), &h.type(),
                                   std::string(h.part), h.response, h.required, {}};
      for (const fault_entry& f : h.faults)
        d.faults.push_back(
            {std::string(f.name), std::string(f.ns), std::string(f.element), &f.detail()});
      o.headers.push_back(std::move(d));
      // The request's headers are understood by the service.
      if (!h.response) s.header(std::string(h.ns), std::string(h.element), h.type());
    }
    lather::message_handler handler = e.handler;
    handler.target = self;
    if (e.info->response)
      s.operation(std::string(e.info->name), e.info->request(), e.info->response(), handler,
                  std::move(o));
    else
      s.operation(std::string(e.info->name), e.info->request(), handler, std::move(o));
  }
}
)";

}  // namespace

source_part operations_source(const std::string& cpp_namespace, const std::string& describe_header,
                              const std::string& faults_header,
                              const std::vector<port_type_plan>& port_types, std::size_t k,
                              const std::vector<operation_ref>& ops,
                              std::set<std::string>& defined_faults) {
  source_part out{
      {"<exception>", "<functional>", "<iterator>", "<memory>", "<optional>", "<span>", "<string>",
       "<string_view>", "<type_traits>", "<utility>", "<vector>", "\"lather/service/client.hpp\"",
       "\"lather/service/service.hpp\"", "\"" + describe_header + "\""},
      ""};
  std::set<std::size_t> used;
  for (const operation_ref& r : ops) used.insert(r.port_type);
  for (std::size_t p : used) {
    const port_type_plan& pt = port_types[p];
    out.includes.push_back("\"" + (pt.decl_header.empty() ? pt.header : pt.decl_header) + "\"");
  }
  // Operations with typed faults: throw_<k>_<i>() throws what they receive as its class, one
  // function per distinct list of typed faults.
  std::map<std::string, std::string> throwers, rows_named, sets_named;
  std::string thrower_text, infos, refs, rows_text, methods, header_starts;
  bool headers = false, empty = false;
  for (std::size_t p : used) {
    const port_type_plan& pt = port_types[p];
    std::string statics, entries;
    bool header_async = false;
    std::map<std::string, std::string> statics_named;
    // Each port type's operations by method name in a namespace of their own: <cls>Ops::<m>.
    refs += "namespace " + pt.cls + "Ops {\n";
    for (const operation_ref& r : ops) {
      if (r.port_type != p) continue;
      const operation_plan& op = pt.operations[r.operation];
      std::string thrower = "nullptr";
      if (throws_typed(op)) {
        const std::string body = fault_thrower("", op);
        auto [it, added] = throwers.emplace(
            body, "throw_" + std::to_string(k + 1) + "_" + std::to_string(throwers.size() + 1));
        if (added) thrower_text += fault_thrower(it->second, op);
        thrower = it->second;
      }
      infos += info_row(op, thrower);
      empty |= !op.takes_request() || (!op.one_way && !op.gives_response());
      refs += "constexpr const lather_gen::op_info& " + op.method + " = lather_gen::infos[" +
              std::to_string(op.source_row) + "];\n";
      methods += '\n';
      methods += client_methods(pt.cls, pt.client, op);
      std::string set;
      if (has_headers(op)) {
        headers = true;
        set = header_set(op,
                         {header_rows(op, false, rows_named, rows_text),
                          header_rows(op, true, rows_named, rows_text)},
                         sets_named, rows_text);
        methods += header_methods(pt.cls, pt.client, op, set);
      }
      header_async |= has_headers(op);
      header_starts +=
          "    " + (set.empty() ? std::string("nullptr") : "&start_headers_" + set) + ",\n";
      entries += registration(pt.cls, op, set, statics_named, statics);
    }
    refs += "}  // namespace " + pt.cls + "Ops\n";
    // The entries of the inline `_async` methods (in the port type's header).
    const std::string start = "\nstd::shared_ptr<lather::detail::async_state> " + pt.cls +
                              "Client::" + pt.start_prefix + std::to_string(k + 1) +
                              "(\n    std::size_t op, void* request, lather::call_options";
    methods += start +
               "* o, void* done, lather::detail::callback_fn run) {\n"
               "  return lather_gen::start(*" +
               pt.client + ", lather_gen::infos[op], request, o, done, run);\n}\n";
    if (header_async)
      methods += start +
                 "& o, void* request_headers, void* done,\n"
                 "    lather::detail::header_callback_fn run) {\n"
                 "  return lather_gen::header_starts[op](*" +
                 pt.client + ", lather_gen::infos[op], request, o,\n" + std::string(38, ' ') +
                 "request_headers, done, run);\n}\n";
    methods += "\nvoid " + pt.cls + "Service::" + mount_name(pt, k) + "(lather::service& s) {\n" +
               statics + "  static constexpr lather_gen::op_entry ops[] = {\n" + entries +
               "  };\n  lather_gen::mount(s, this, ops);\n}\n";
  }
  // The members of the fault classes no earlier file defined, of this file's operations.
  std::string fault_members;
  std::map<std::string, bool> header_class;
  for (const auto& [f, header] : fault_classes(port_types)) header_class[f->cls] = header;
  for (const operation_ref& r : ops) {
    const operation_plan& op = port_types[r.port_type].operations[r.operation];
    std::vector<const fault_plan*> faults = header_faults(op);
    for (const fault_plan& f : op.faults) faults.push_back(&f);
    for (const fault_plan* f : faults)
      if (defined_faults.insert(f->cls).second)
        fault_members += fault_definitions(*f, header_class.at(f->cls));
  }
  // The classes' declarations do not include the fault classes their throwers need.
  if ((!thrower_text.empty() || !fault_members.empty()) &&
      !port_types[*used.begin()].decl_header.empty())
    out.includes.push_back("\"" + faults_header + "\"");
  if (empty) out.includes.push_back("\"lather/service/empty_body.hpp\"");
  if (headers)
    out.includes.insert(
        out.includes.end(),
        {"\"lather/bind/error.hpp\"", "\"lather/soap/envelope.hpp\"", "\"lather/soap/fault.hpp\"",
         "\"lather/xml/reader.hpp\"", "\"lather/xml/writer.hpp\""});
  std::string& text = out.body;
  text += "namespace " + cpp_namespace + " {\n" + std::string(common_head);
  if (!thrower_text.empty() || headers)
    text += "\nnamespace {\n" + (thrower_text.empty() ? "" : std::string(read_entry_function)) +
            thrower_text + (headers ? std::string(header_functions()) : "") + "}  // namespace\n";
  text +=
      "\nnamespace {\nnamespace lather_gen {\n\n/// The operations of this file.\nconstexpr "
      "op_info infos[] = {\n" +
      infos + "};\n" + refs + std::string(common_tail) +
      (headers ? std::string(header_start()) + "\n" + rows_text +
                     "\n/// The start_headers_<N> of each operation of this file (nullptr: it has "
                     "no SOAP headers).\nconstexpr start_headers_fn header_starts[] = {\n" +
                     header_starts + "};\n"
               : std::string()) +
      "\n}  // namespace lather_gen\n}  // namespace\n";
  text += methods + fault_members + "\n}  // namespace " + cpp_namespace + "\n";
  return out;
}

std::string translation_unit(const std::string& comment, const std::vector<source_part>& parts) {
  std::string text = "// Generated by lather-wsdl2cpp: do not edit.\n" + comment + "\n";
  std::vector<std::string> standard, own;
  for (const source_part& part : parts)
    for (const std::string& inc : part.includes) {
      std::vector<std::string>& list = inc.front() == '<' ? standard : own;
      if (std::find(list.begin(), list.end(), inc) == list.end()) list.push_back(inc);
    }
  std::sort(standard.begin(), standard.end());
  for (const std::string& inc : standard) text += "#include " + inc + "\n";
  if (!standard.empty()) text += "\n";
  for (const std::string& inc : own) text += "#include " + inc + "\n";
  for (const source_part& part : parts)
    if (!part.body.empty()) text += "\n" + part.body;
  return text;
}

std::string cmake_lists(const std::string& target, const std::vector<std::string>& sources,
                        const std::vector<std::string>& mock_sources) {
  std::string cmake =
      "# Generated by lather-wsdl2cpp: the generated code as a static library.\n"
      "cmake_minimum_required(VERSION 3.25)\n"
      "project(" +
      target + "_contract LANGUAGES CXX)\nfind_package(lather REQUIRED)\nadd_library(" + target +
      " STATIC";
  for (const std::string& s : sources) cmake += "\n    " + s;
  cmake += ")\ntarget_include_directories(" + target +
           " PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})\n"
           "target_link_libraries(" +
           target + " PUBLIC lather::lather)\ntarget_compile_features(" + target +
           " PUBLIC cxx_std_20)\n";
  if (!mock_sources.empty()) {
    cmake +=
        "\n# --mock: the mock server, at the top of this project's build directory.\n"
        "add_executable(" +
        target + "_mock_server";
    for (const std::string& s : mock_sources) cmake += "\n    " + s;
    cmake += ")\ntarget_link_libraries(" + target + "_mock_server PRIVATE " + target +
             ")\n"
             "set_target_properties(" +
             target +
             "_mock_server PROPERTIES OUTPUT_NAME mock-server\n"
             "                      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})\n";
  }
  return cmake;
}

}  // namespace lather::wsdl::detail
