// lather-wsdl2cpp: per portType a client proxy and an abstract service class, declared in the
// port type's header and defined in operations_<k>.cpp over the messages' message_type tables
// (no binding template is instantiated there); the output's CMakeLists.txt.
#include <algorithm>
#include <string_view>

#include "generate_emit.hpp"
#include "generate_names.hpp"

namespace lather::wsdl::detail {
namespace {

std::string mount_name(std::size_t k) {
  return "mount_" + std::to_string(k + 1);
}

/// The name of `op`'s settings (a lather_gen::op_info) in operations_<k>.cpp.
std::string info_name(const std::string& cls, const operation_plan& op) {
  return "lather_gen::" + cls + "_" + op.method;
}

/// `op`'s settings from the WSDL, the constant its client methods and its registration share.
std::string info_of(const std::string& cls, const operation_plan& op) {
  return "\nnamespace {\nnamespace lather_gen {\nconstexpr op_info " + cls + "_" + op.method +
         "{\n    " + quote(op.name) + ", " + quote(op.soap_action) + ",\n    " +
         quote(op.request_element) + ", " + quote(op.response_element) + ",\n    " +
         quote(op.element_ns) + ", " + quote(op.response_ns) + ", " + quote(op.action) + ", " +
         quote(op.response_action) + ",\n    " +
         (op.style.empty() ? std::string("false, lather::soap::style::document_wrapped")
                           : "true, lather::soap::style::" + op.style) +
         "};\n}  // namespace lather_gen\n}  // namespace\n";
}

/// The message_type table of a generated message struct (instantiated in bind_<k>.cpp).
std::string message_type(const std::string& type) {
  return "lather::message_type_of<" + type + ">()";
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

/// Whether `op`'s client methods throw typed faults (one-way operations: header faults only).
bool throws_typed(const operation_plan& op) {
  return (!op.faults.empty() && !op.one_way) || !header_faults(op).empty();
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
                     "(lather::soap::fault_error& e) {\n"
                     "  lather::soap::fault& f = e.get();\n";
  auto check = [&](const fault_plan& f, bool header) {
    text += "  if (" + f.detail_type + " d; read_entry(f, " + (header ? "true" : "false") + ", " +
            quote(f.ns) + ", " + quote(f.element) + ", lather::message_type_of<" + f.detail_type +
            ">(), &d))\n    throw " + f.cls + "(std::move(f), std::move(d));\n";
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

std::string header_params(const operation_plan& op) {
  std::string p = "const " + op.request_type + "& request";
  if (!op.request_headers.empty()) p += ", const " + op.request_headers_type + "& request_headers";
  if (!op.one_way) p += ", " + op.response_type + "& response";
  if (!op.response_headers.empty()) p += ", " + op.response_headers_type + "& response_headers";
  return p;
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

std::string faults_header(const std::string& cpp_namespace,
                          const std::vector<port_type_plan>& port_types) {
  std::set<std::string> includes, done;
  std::string classes;
  auto add = [&](const fault_plan& f, bool header) {
    if (!done.insert(f.cls).second) return;
    const std::string base = header ? "header_fault_of" : "fault_of";
    classes += "\n/// The fault whose " +
               std::string(header ? "header entry (soap:headerfault)" : "detail") + " is {" + f.ns +
               "}" + f.element +
               ": thrown by the client proxies when it\n/// arrives, and by a service "
               "implementation to send it.\nclass " +
               f.cls + " : public lather::soap::" + base + "<" + f.detail_type +
               "> {\n public:\n  " + f.cls + "(std::string reason, " + f.detail_type +
               " detail,\n    lather::soap::fault_code code = "
               "lather::soap::fault_code::sender)\n      : " +
               base + "(std::move(reason), std::move(detail), " + quote(f.ns) + ", " +
               quote(f.element) + ", code) {}\n  /// As received.\n  " + f.cls +
               "(lather::soap::fault received, " + f.detail_type + " detail)\n      : " + base +
               "(std::move(received), std::move(detail)) {}\n};\n";
  };
  for (const port_type_plan& pt : port_types)
    for (const operation_plan& op : pt.operations) {
      for (const fault_plan& f : op.faults) add(f, false);
      for (const fault_plan* f : header_faults(op)) add(*f, true);
    }
  if (classes.empty()) return {};
  for (const port_type_plan& pt : port_types)
    for (const operation_plan& op : pt.operations)
      if (!op.faults.empty() || !header_faults(op).empty())
        includes.insert(pt.includes.begin(), pt.includes.end());
  std::string text =
      "// Generated by lather-wsdl2cpp: do not edit.\n// The typed faults of the operations "
      "(wsdl:fault with a detail element).\n#pragma once\n\n#include <string>\n#include "
      "<utility>\n\n#include \"lather/soap/fault_of.hpp\"\n";
  for (const std::string& inc : includes) text += "#include \"" + inc + "\"\n";
  return text + "\nnamespace " + cpp_namespace + " {\n" + classes + "\n}  // namespace " +
         cpp_namespace + "\n";
}

namespace {

/// "Req request, ReqHeaders request_headers": the parameters of `op`'s `_async` forms with
/// SOAP headers before `done`.
std::string header_async_params(const operation_plan& op) {
  return op.request_type + " request" +
         (op.request_headers.empty() ? "" : ", " + op.request_headers_type + " request_headers");
}

/// The `done` of `op`'s `_async` forms with SOAP headers: the response's headers after it.
std::string header_async_done(const operation_plan& op) {
  return "std::function<void(std::exception_ptr error" +
         (op.one_way ? std::string() : ", " + op.response_type + "& response") +
         (op.response_headers.empty() ? ""
                                      : ", " + op.response_headers_type + "& response_headers") +
         ")>";
}

/// The callback `_async` form of `op` without options, `params` then `done`, a callable taking
/// the exception and `op`'s results (`with_headers`: the response's headers too): a template
/// over the callable, so that a braced list is never `done` and `op_async(request, {})` is the
/// future form with default options, as `op(request, {})` is the call with them. It calls the
/// form taking options (`args`: what it passes before `done`).
std::string async_callback_template(const operation_plan& op, bool with_headers,
                                    const std::string& params, const std::string& args) {
  const std::string types =
      "std::exception_ptr" + (op.one_way ? std::string() : ", " + op.response_type + "&") +
      (with_headers && !op.response_headers.empty() ? ", " + op.response_headers_type + "&" : "");
  return "  template <std::invocable<" + types +
         "> Done, class Options = lather::call_options>\n  void " + op.async_method + "(" + params +
         ", Done done) {\n    " + op.async_method + "(" + args + ", std::function<void(" + types +
         ")>(std::move(done)), Options{});\n  }\n";
}

/// The `_async` forms of `op` with its SOAP headers (in the client class): a callback form,
/// and a future form when the response has no headers to give.
std::string header_async_declarations(const operation_plan& op) {
  const std::string params = header_async_params(op), done = header_async_done(op);
  const std::string& async = op.async_method;
  std::string text =
      "  /// Asynchronous, with the SOAP headers" +
      std::string(op.response_headers.empty() ? ""
                                              : " (`done` gets the response's; no future form)") +
      ".\n";
  text += async_callback_template(
      op, true, params,
      std::string("std::move(request)") +
          (op.request_headers.empty() ? "" : ", std::move(request_headers)"));
  text += "  void " + async + "(" + params + ", " + done + " done, lather::call_options o);\n";
  if (!op.response_headers.empty()) return text;
  const std::string future =
      "lather::future<" + (op.one_way ? std::string("void") : op.response_type) + ">";
  // As the synchronous form: the headers by name, a braced list is lather::call_options;
  // `auto`: the future's type is complete only where the call is made.
  text += "  template <std::same_as<" + op.request_headers_type +
          "> Headers, class Options = lather::call_options>\n  auto " + async + "(" +
          op.request_type + " request, const Headers& request_headers) {\n    return " + async +
          "(std::move(request), request_headers, Options{});\n  }\n";
  text += "  " + future + " " + async + "(" + params + ", lather::call_options o);\n";
  return text;
}

}  // namespace

std::string port_type_header(const std::string& cpp_namespace, const port_type_plan& pt,
                             const std::string& faults_file) {
  std::string client, server, structs;
  bool faults = false;
  for (const operation_plan& op : pt.operations) {
    const std::string &Req = op.request_type, &Res = op.response_type, &method = op.method;
    faults |= throws_typed(op);
    if (has_headers(op)) {
      structs += header_structs(op);
      client +=
          "  /// " + op.name + " with its SOAP headers" +
          (op.response_headers.empty() ? "" : " (the response's are read into response_headers)") +
          ".\n";
      if (!op.request_headers.empty()) {
        // A template, so that a braced list as the second argument is never the headers:
        // op(request, {}) and op(request, {.timeout = ...}) are call_options, as for every
        // operation.
        const std::string& H = op.request_headers_type;
        client +=
            "  /// (The headers by name: a braced list here is lather::call_options.)\n"
            "  template <std::same_as<" +
            H + "> Headers";
        if (op.one_way) {
          // call_options is complete where the call is made (lather/service/client.hpp).
          client += ", class Options = lather::call_options>\n  void " + method + "(const " + Req +
                    "& request, const Headers& request_headers) {\n    " + method +
                    "(request, request_headers, Options{});\n  }\n";
        } else {
          const bool out = !op.response_headers.empty();
          client += ">\n  " + Res + " " + method + "(const " + Req +
                    "& request, const Headers& request_headers) {\n    " + Res + " response;\n" +
                    (out ? "    " + op.response_headers_type + " response_headers;\n" : "") +
                    "    " + method + "(request, request_headers, response" +
                    (out ? ", response_headers" : "") + ");\n    return response;\n  }\n";
        }
      }
      if (!op.one_way || op.request_headers.empty())
        client += "  void " + method + "(" + header_params(op) + ");\n";
      client += "  void " + method + "(" + header_params(op) + ", lather::call_options o);\n";
      client += header_async_declarations(op);
    }
    if (op.one_way) {
      client += "  /// " + op.name + ": {" + op.element_ns + "}" + op.request_element +
                ", one-way" + (op.style.empty() ? "" : " (" + op.style + ")") +
                ": returns once the service accepted the request\n  /// (HTTP 202, or 200 with "
                "an empty body); a fault throws " +
                (throws_typed(op) ? fault_list(op) + " for its header faults, else " : "") +
                "lather::soap::fault_error.\n";
      client += "  void " + method + "(const " + Req + "& request);\n";
      client += "  void " + method + "(const " + Req + "& request, lather::call_options o);\n";
      client +=
          "  /// Asynchronous: returns at once; `done` runs on a thread of the client's async "
          "pool,\n  /// with the call's exception in `error` when it failed.\n";
      const std::string done = "std::function<void(std::exception_ptr error)>";
      client += async_callback_template(op, false, Req + " request", "std::move(request)");
      client += "  void " + op.async_method + "(" + Req + " request, " + done +
                " done, lather::call_options o);\n";
      client += "  lather::future<void> " + op.async_method + "(" + Req + " request);\n";
      client += "  lather::future<void> " + op.async_method + "(" + Req +
                " request, lather::call_options o);\n";
      server +=
          "  /// One-way: the client gets HTTP 202 once this returns (a fault if it throws).\n";
      server += "  virtual void " + method + "(" + header_params(op) + ") = 0;\n";
      continue;
    }
    client += "  /// " + op.name + ": {" + op.element_ns + "}" + op.request_element + " -> " +
              op.response_element + (op.style.empty() ? "" : " (" + op.style + ")") + "\n";
    if (throws_typed(op)) {
      client +=
          "  /// Throws " + fault_list(op) + " for its faults, else lather::soap::fault_error.\n";
      server += "  /// May throw " + fault_list(op) + ".\n";
    }
    client += "  " + Res + " " + method + "(const " + Req + "& request);\n";
    client += "  " + Res + " " + method + "(const " + Req + "& request, lather::call_options o);\n";
    client += "  void " + method + "(const " + Req + "& request, " + Res + "& response);\n";
    client += "  void " + method + "(const " + Req + "& request, " + Res +
              "& response, lather::call_options o);\n";
    const std::string done = "std::function<void(std::exception_ptr error, " + Res + "& response)>";
    client +=
        "  /// Asynchronous: returns at once; `done` runs on a thread of the client's async "
        "pool with\n  /// the response, or with the call's exception in `error`.\n";
    client += async_callback_template(op, false, Req + " request", "std::move(request)");
    client += "  void " + op.async_method + "(" + Req + " request, " + done +
              " done, lather::call_options o);\n";
    client += "  lather::future<" + Res + "> " + op.async_method + "(" + Req + " request);\n";
    client += "  lather::future<" + Res + "> " + op.async_method + "(" + Req +
              " request, lather::call_options o);\n";
    if (has_headers(op))
      server += "  /// With the request's SOAP headers; the response's are sent as set.\n";
    server += "  virtual void " + method + "(" + header_params(op) + ") = 0;\n";
  }
  std::string mount, mounts;
  for (std::size_t k : pt.sources) {
    mount += "    " + mount_name(k) + "(s);\n";
    mounts += "  void " + mount_name(k) + "(lather::service& s);\n";
  }
  const std::string& cls = pt.cls;
  std::string text =
      "// Generated by lather-wsdl2cpp: do not edit.\n"
      "// The methods are defined in operations_<k>.cpp; a call needs lather/service/client.hpp.\n"
      "#pragma once\n\n#include <concepts>\n#include <exception>\n#include <functional>\n"
      "#include <utility>\n" +
      std::string(structs.empty() ? "" : "#include <optional>\n") + "\n";
  for (const std::string& inc : pt.includes) text += "#include \"" + inc + "\"\n";
  if (faults) text += "#include \"" + faults_file + "\"\n";
  text +=
      "\nnamespace lather {\nclass client;\nclass service;\nstruct call_options;\ntemplate <class "
      "T>\n"
      "class future;\n}  // namespace lather\n";
  text += "\nnamespace " + cpp_namespace + " {\n\n" + structs;
  text += "/// Client of portType " + pt.qname + ": one method per operation.\n";
  text += "class " + cls + "Client {\n public:\n  explicit " + cls +
          "Client(lather::client& c) : client_(&c) {}\n\n" + client +
          "\n private:\n  lather::client* client_;\n};\n\n";
  text += "/// Server side of portType " + pt.qname +
          ": implement the operations, then mount_on() a lather::service.\n";
  text += "class " + cls + "Service {\n public:\n  virtual ~" + cls + "Service() = default;\n" +
          server + "\n  /// Register every operation on `s`; this object must outlive it.\n" +
          "  void mount_on(lather::service& s) {\n" + mount + "  }\n\n private:\n" + mounts +
          "};\n\n";
  return text + "}  // namespace " + cpp_namespace + "\n";
}

namespace {

/// Reads a fault's detail or header entry into a typed fault's detail (operations_<k>.cpp,
/// once).
constexpr std::string_view read_entry_function =
    "\n/// Reads the fault's first detail entry (`header`: header entry) {ns}element into `out`\n"
    "/// (a `t`); false when there is none. One that does not bind throws\n"
    "/// lather::soap::fault_detail_error.\n"
    "bool read_entry(lather::soap::fault& f, bool header, std::string_view ns,\n"
    "                std::string_view element, const lather::message_type& t, void* out) {\n"
    "  bool found = false;\n"
    "  auto read = [&](lather::xml::reader& r) {\n"
    "    if (found || !r.is(ns, element)) {\n"
    "      r.skip_element();\n"
    "    } else {\n"
    "      found = true;\n"
    "      if (lather::bind::error_info e = t.read(r, out, lather::bind::read_options{}))\n"
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

/// The `_async` methods of `op` (class `cls` + "Client"; `thrower` as client_methods'): each one
/// call of lather_gen::start (client::async_call), which owns the request and the response
/// through their tables, so nothing is instantiated per operation here
/// (lather/service/future.hpp) but the response type's callback (the callback form without
/// options is a template in the header).
std::string async_methods(const std::string& cls, const operation_plan& op,
                          const std::string& thrower) {
  const std::string &Req = op.request_type, &async = op.async_method;
  const std::string client = cls + "Client::";
  const std::string result = op.one_way ? "void" : op.response_type;
  const std::string done = "std::function<void(std::exception_ptr" +
                           (op.one_way ? std::string() : ", " + result + "&") + ")>";
  const std::string start =
      "lather_gen::start(*client_, " + info_name(cls, op) + ", " + message_type(Req) +
      ", &request, " + (op.one_way ? std::string("nullptr") : "&" + message_type(result)) + ", ";
  const std::string fault = ", " + (thrower.empty() ? std::string("nullptr") : thrower) + ")";
  const std::string typed_done = "lather::typed_done(std::move(done))";
  std::string text = "void " + client + async + "(" + Req + " request, " + done +
                     " done, lather::call_options o) {\n  " + start + "&o, " + typed_done + fault +
                     ";\n}\n";
  const std::string future = "lather::future<" + result + ">";
  text += future + " " + client + async + "(" + Req + " request) {\n  return " + future + "(" +
          start + "nullptr, nullptr" + fault + ");\n}\n";
  text += future + " " + client + async + "(" + Req + " request, lather::call_options o) {\n  " +
          "return " + future + "(" + start + "&o, nullptr" + fault + ");\n}\n";
  return text;
}

/// The statement `call` (a line), inside a handler that passes a fault to `thrower` when there
/// is one.
std::string caught(const std::string& call, const std::string& thrower) {
  if (thrower.empty()) return "  " + call;
  return "  try {\n    " + call + "  } catch (lather::soap::fault_error& e) {\n    " + thrower +
         "(e);\n  }\n";
}

/// The client methods of one-way `op` (class `cls` + "Client"; `thrower` as client_methods').
std::string one_way_methods(const std::string& cls, const operation_plan& op,
                            const std::string& thrower) {
  const std::string &Req = op.request_type, &method = op.method, info = info_name(cls, op);
  const std::string client = cls + "Client::";
  const std::string call =
      caught("client_->call_one_way(" + info + ".name, " + message_type(Req) + ", &request, o);\n",
             thrower) +
      "}\n";
  std::string text = "void " + client + method + "(const " + Req +
                     "& request) {\n  static const lather::call_options o = "
                     "lather_gen::options(" +
                     info + ");\n" + call;
  text += "void " + client + method + "(const " + Req +
          "& request, lather::call_options o) {\n  lather_gen::apply(" + info + ", o);\n" + call;
  return text + async_methods(cls, op, thrower);
}

/// The client methods of `op` (class `cls` + "Client"); `thrower`: the function that throws
/// its typed faults ("" when it has none).
std::string client_methods(const std::string& cls, const operation_plan& op,
                           const std::string& thrower) {
  const std::string &Req = op.request_type, &Res = op.response_type, &method = op.method;
  const std::string client = cls + "Client::", info = info_name(cls, op);
  std::string text = Res + " " + client + method + "(const " + Req + "& request) {\n  " + Res +
                     " response;\n  " + method + "(request, response);\n  return response;\n}\n";
  text += Res + " " + client + method + "(const " + Req +
          "& request, lather::call_options o) {\n  " + Res + " response;\n  " + method +
          "(request, response, std::move(o));\n  return response;\n}\n";
  const std::string call = caught("client_->call(" + info + ".name, " + message_type(Req) +
                                      ", &request, " + message_type(Res) + ", &response, o);\n",
                                  thrower);
  // Without options: the contract's settings made once, so a call copies no strings (0
  // allocations per call once warm).
  text += "void " + client + method + "(const " + Req + "& request, " + Res +
          "& response) {\n  static const lather::call_options o = lather_gen::options(" + info +
          ");\n" + call + "}\n";
  text += "void " + client + method + "(const " + Req + "& request, " + Res +
          "& response, lather::call_options o) {\n  lather_gen::apply(" + info + ", o);\n" + call +
          "}\n";
  return text + async_methods(cls, op, thrower);
}

/// The helpers of operations with SOAP headers (operations_<k>.cpp, once).
constexpr std::string_view header_functions =
    "\n/// Writes the header entry {ns}element from `value`, a `t`.\n"
    "[[maybe_unused]] void write_header(lather::xml::writer& w, std::string_view ns,\n"
    "                                   std::string_view element, const lather::message_type& t,\n"
    "                                   const void* value) {\n"
    "  w.start_element(ns, element);\n"
    "  t.write_content(w, value);\n"
    "  w.end_element();\n"
    "}\n"
    "/// Adds the header entry {ns}element to the request `o` sends (`value`, a `t`, outlives "
    "it).\n"
    "[[maybe_unused]] void send_header(lather::call_options& o, std::string_view ns,\n"
    "                                  std::string_view element, const lather::message_type& t,\n"
    "                                  const void* value) {\n"
    "  o.headers.push_back([ns, element, &t, value](lather::xml::writer& w) {\n"
    "    write_header(w, ns, element, t, value);\n"
    "  });\n"
    "}\n"
    "/// Reads the header entry the reader is on into `value`, a `t`.\n"
    "[[maybe_unused]] void read_header(lather::xml::reader& r, const lather::message_type& t,\n"
    "                                  void* value) {\n"
    "  t.reset(value);\n"
    "  if (lather::bind::error_info e = t.read_content(r, value, lather::bind::read_options{}))\n"
    "    throw lather::bind::error(std::move(e));\n"
    "}\n"
    "/// A request without a header the contract requires (wsdl:required) is the sender's fault.\n"
    "[[noreturn, maybe_unused]] void missing_header(std::string_view ns, std::string_view element) "
    "{\n"
    "  lather::soap::fault f;\n"
    "  f.code = lather::soap::fault_code::sender;\n"
    "  f.reason = \"missing SOAP header {\" + std::string(ns) + \"}\" + std::string(element);\n"
    "  throw lather::soap::fault_error(std::move(f));\n"
    "}\n";

/// The helpers of operations with SOAP headers that are templates per header type (after
/// header_functions, in lather_gen): code per header type, not per operation.
constexpr std::string_view header_templates = R"(
namespace lather_gen {

/// A response header a call reads: {ns}element into `value`, a `type`, or into the
/// std::optional of one through `emplace`.
struct header_slot {
  std::string_view ns, element;
  const lather::message_type* type;
  void* value;
  void* (*emplace)(void* optional);
};
/// Makes `o` read `slots`' headers, and offer the others to the reader it had.
[[maybe_unused]] void read_headers(lather::call_options& o, std::vector<header_slot> slots) {
  o.read_header = [slots = std::move(slots), next = std::move(o.read_header)](
                      const lather::soap::header_info& h, lather::xml::reader& r) {
    for (const header_slot& s : slots)
      if (h.is(s.ns, s.element)) {
        read_header(r, *s.type, s.emplace ? s.emplace(s.value) : s.value);
        return lather::soap::header_use::consumed;
      }
    return next ? next(h, r) : lather::soap::header_use::not_understood;
  };
}
/// std::optional<H>::emplace() for a header_slot.
template <class H>
void* emplace(void* optional) {
  return &static_cast<std::optional<H>*>(optional)->emplace();
}
/// Adds the header entry {ns}element, `value`, to the response `ctx` answers.
template <class H>
void add_header(lather::call_context& ctx, std::string_view ns, std::string_view element,
                H value) {
  ctx.add_response_header([ns, element, v = std::move(value)](lather::xml::writer& w) {
    write_header(w, ns, element, lather::message_type_of<H>(), &v);
  });
}
/// Deletes a T (lather::detail::erased_done's `destroy`).
template <class T>
void destroy(void* p) noexcept {
  delete static_cast<T*>(p);
}

}  // namespace lather_gen
)";

/// The client methods of `op` that take and give its SOAP headers (after client_methods() or
/// one_way_methods(), whose settings they use); `thrower` as client_methods'.
std::string header_methods(const std::string& cls, const operation_plan& op,
                           const std::string& thrower) {
  const std::string &Req = op.request_type, &Res = op.response_type, &method = op.method;
  const std::string client = cls + "Client::", info = info_name(cls, op);
  const bool in = !op.request_headers.empty(), out = !op.response_headers.empty();
  // headers_<cls>_<method>(o[, request_headers][, response_headers]): the contract's settings
  // and the request's headers (which outlive the call) into `o`, and a reader of the response's.
  const std::string headers = "headers_" + cls + "_" + method;
  std::string text = "\nnamespace {\nvoid " + headers + "(lather::call_options& o" +
                     (in ? ", const " + op.request_headers_type + "& request_headers" : "") +
                     (out ? ", " + op.response_headers_type + "& response_headers" : "") +
                     ") {\n  lather_gen::apply(" + info + ", o);\n";
  for (const header_plan& h : op.request_headers) {
    const std::string send = "send_header(o, " + quote(h.ns) + ", " + quote(h.element) +
                             ", lather::message_type_of<" + h.type + ">(), ";
    text += h.required ? "  " + send + "&request_headers." + h.member + ");\n"
                       : "  if (request_headers." + h.member + ")\n    " + send +
                             "&*request_headers." + h.member + ");\n";
  }
  if (out) {
    text += "  response_headers = {};\n  lather_gen::read_headers(o, {";
    for (const header_plan& h : op.response_headers)
      text += "\n      {" + quote(h.ns) + ", " + quote(h.element) + ", &lather::message_type_of<" +
              h.type + ">(), &response_headers." + h.member + ", " +
              (h.required ? std::string("nullptr") : "&lather_gen::emplace<" + h.type + ">") + "},";
    text += "\n  });\n";
  }
  text += "}\n";
  // What an asynchronous call keeps: the headers and the callback.
  const std::string held = "async_headers_" + cls + "_" + method;
  const std::string params = header_async_params(op), done = header_async_done(op);
  text += "struct " + held + " {\n" +
          (in ? "  " + op.request_headers_type + " request_headers;\n" : "") +
          (out ? "  " + op.response_headers_type + " response_headers;\n" : "") + "  " + done +
          " done;\n};\n}  // namespace\n";

  const std::string args = std::string("request") + (in ? ", request_headers" : "") +
                           (op.one_way ? "" : ", response") + (out ? ", response_headers" : "");
  // (A one-way operation's form without options is the template in the header.)
  if (!op.one_way || !in)
    text += "void " + client + method + "(" + header_params(op) + ") {\n  " + method + "(" + args +
            ", lather::call_options{});\n}\n";
  text += "void " + client + method + "(" + header_params(op) + ", lather::call_options o) {\n  " +
          headers + "(o" + (in ? ", request_headers" : "") + (out ? ", response_headers" : "") +
          ");\n";
  text += caught(op.one_way ? "client_->call_one_way(" + info + ".name, " + message_type(Req) +
                                  ", &request, o);\n"
                            : "client_->call(" + info + ".name, " + message_type(Req) +
                                  ", &request, " + message_type(Res) + ", &response, o);\n",
                 thrower) +
          "}\n";

  // Asynchronous: the headers and the callback live in a `held`, which the completion owns
  // (lather::detail::erased_done: no std::function target type per operation).
  const std::string& async = op.async_method;
  auto call = [&](const std::string& completion, const std::string& result) {
    return "  auto* h = new " + held + ";\n  std::function<void(std::exception_ptr, void*)> c =\n" +
           "      lather::detail::erased_done(h, &lather_gen::destroy<" + held + ">, " +
           completion + ");\n" +
           (in ? "  h->request_headers = std::move(request_headers);\n" : "") + "  " + headers +
           "(o" + (in ? ", h->request_headers" : "") + (out ? ", h->response_headers" : "") +
           ");\n  " + result + "client_->async_call(" + info + ".name, " + message_type(Req) +
           ", &request, " + (op.one_way ? std::string("nullptr") : "&" + message_type(Res)) +
           ", std::move(o),\n                      {std::move(c), " +
           (thrower.empty() ? "nullptr" : thrower) + "})";
  };
  text += "void " + client + async + "(" + params + ", " + done +
          " done, lather::call_options o) {\n" +
          call("\n      [](void* p, std::exception_ptr error, void* " +
                   std::string(op.one_way ? "" : "response") + ") {\n        " + held +
                   "& x = *static_cast<" + held +
                   "*>(p);\n        if (x.done)\n          x.done(std::move(error)" +
                   (op.one_way ? "" : ", *static_cast<" + Res + "*>(response)") +
                   (out ? ", x.response_headers" : "") + ");\n      }",
               "h->done = std::move(done);\n  ") +
          ";\n}\n";
  if (!out) {
    const std::string future = "lather::future<" + (op.one_way ? std::string("void") : Res) + ">";
    text += future + " " + client + async + "(" + params + ", lather::call_options o) {\n" +
            call("[](void*, std::exception_ptr, void*) {}", "auto s = ") + ";\n  return " + future +
            "(std::move(s));\n}\n";
  }
  return text;
}

/// The handler of `op`, which has SOAP headers, for a lather::message_handler's with_context:
/// its request headers from the call's context, the response's added to it.
std::string header_handler(const std::string& service, const operation_plan& op) {
  std::string text = "[](void* self, lather::call_context& ctx, const void* request, void* " +
                     std::string(op.one_way ? "" : "response") + ") {\n";
  std::string args = "*static_cast<const " + op.request_type + "*>(request)";
  if (!op.request_headers.empty()) {
    text += "       " + op.request_headers_type + " request_headers;\n";
    for (const header_plan& h : op.request_headers) {
      text += "       if (void* h = lather::request_header(ctx, " + quote(h.ns) + ", " +
              quote(h.element) + "))\n         request_headers." + h.member +
              " = std::move(*static_cast<" + h.type + "*>(h));\n";
      if (h.required)
        text += "       else\n         missing_header(" + quote(h.ns) + ", " + quote(h.element) +
                ");\n";
    }
    args += ", request_headers";
  }
  if (!op.one_way) args += ", *static_cast<" + op.response_type + "*>(response)";
  if (!op.response_headers.empty()) {
    text += "       " + op.response_headers_type + " response_headers;\n";
    args += ", response_headers";
  }
  text += "       static_cast<" + service + "*>(self)->" + op.method + "(" + args + ");\n";
  for (const header_plan& h : op.response_headers) {
    const std::string add = "lather_gen::add_header(ctx, " + quote(h.ns) + ", " + quote(h.element) +
                            ", std::move(" + std::string(h.required ? "" : "*") +
                            "response_headers." + h.member + "));\n";
    text += h.required ? "       " + add
                       : "       if (response_headers." + h.member + ")\n         " + add;
  }
  if (op.response_headers.empty() && op.request_headers.empty()) text += "       (void)ctx;\n";
  return text + "     }";
}

/// The registration of `op` by mount_<k>() of class `service` (`cls` + "Service"): its entry
/// in the table that lather_gen::mount registers, and the constants it refers to
/// (`statics`, named after `n`, the entry's index).
std::string registration(const std::string& cls, const operation_plan& op, std::size_t n,
                         std::string& statics) {
  const std::string service = cls + "Service", id = std::to_string(n);
  auto table = [&](const std::string& type, const std::string& name, const std::string& rows) {
    if (rows.empty()) return std::string("{}");
    statics += "  static constexpr lather_gen::" + type + " " + name + "[] = {" + rows + "};\n";
    return std::string(name);
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
  std::size_t header_index = 0;
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
                 table("fault_entry", "header_faults_" + id + "_" + std::to_string(++header_index),
                       header_faults) +
                 "},";
    }
  std::string text =
      "    {&" + info_name(cls, op) + ", &lather::message_type_of<" + op.request_type + ">, " +
      (op.one_way ? std::string("nullptr") : "&lather::message_type_of<" + op.response_type + ">") +
      ",\n     ";
  if (has_headers(op)) {
    text += "{nullptr, nullptr,\n     " + header_handler(service, op) + "}";
  } else {
    text += "{[](void* self, const void* request, void*" +
            std::string(op.one_way ? "" : " response") + ") {\n       static_cast<" + service +
            "*>(self)->" + op.method + "(*static_cast<const " + op.request_type + "*>(request)" +
            (op.one_way ? "" : ",\n           *static_cast<" + op.response_type + "*>(response)") +
            ");\n     }}";
  }
  return text + ",\n     " + table("fault_entry", "faults_" + id, faults) + ", " +
         table("fault_action_entry", "fault_actions_" + id, actions) + ", " +
         table("header_entry", "headers_" + id, headers) + "},\n";
}

/// What every operations_<k>.cpp shares: the operations' settings, the asynchronous call and
/// the registration of a service's operations, as functions over constants (lather_gen::op_info,
/// lather_gen::op_entry) instead of code per operation.
constexpr std::string_view common_functions = R"(
namespace {
namespace lather_gen {

/// An operation's settings from the contract (of lather::call_options and
/// lather::operation_options).
struct op_info {
  std::string_view name, soap_action, request_element, response_element, element_ns, response_ns,
      action, response_action;
  bool styled;
  lather::soap::style style;
};

/// `i`'s settings over `o` (a lather::call_options or a lather::operation_options).
template <class Options>
void apply(const op_info& i, Options& o) {
  o.soap_action = i.soap_action;
  o.request_element = i.request_element;
  o.response_element = i.response_element;
  o.element_ns = i.element_ns;
  if (!i.response_ns.empty()) o.response_ns = i.response_ns;
  if (i.styled) o.style = i.style;
  if (!i.action.empty()) o.action = i.action;
  if (!i.response_action.empty()) o.response_action = i.response_action;
}

/// `i`'s settings alone.
[[maybe_unused]] lather::call_options options(const op_info& i) {
  lather::call_options o;
  apply(i, o);
  return o;
}

/// Starts an asynchronous call of `i` with `*o` (nullptr: no options) and i's settings.
[[maybe_unused]] std::shared_ptr<lather::detail::async_state> start(
    lather::client& c, const op_info& i, const lather::message_type& request_type, void* request,
    const lather::message_type* response_type, lather::call_options* o,
    std::function<void(std::exception_ptr, void*)> done,
    void (*typed_fault)(lather::soap::fault_error&)) {
  lather::call_options options = o ? std::move(*o) : lather::call_options{};
  apply(i, options);
  return c.async_call(i.name, request_type, request, response_type, std::move(options),
                      {std::move(done), typed_fault});
}

using type_fn = const lather::message_type& (*)() noexcept;
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
/// An operation of a service class: its messages (response nullptr: one-way) and its handler.
struct op_entry {
  const op_info* info;
  type_fn request, response;
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
    if (e.response)
      s.operation(std::string(e.info->name), e.request(), e.response(), handler, std::move(o));
    else
      s.operation(std::string(e.info->name), e.request(), handler, std::move(o));
  }
}

}  // namespace lather_gen
}  // namespace
)";

}  // namespace

std::string operations_source(const std::string& cpp_namespace, const std::string& describe_header,
                              const std::vector<port_type_plan>& port_types, std::size_t k,
                              const std::vector<operation_ref>& ops) {
  std::string text =
      "// Generated by lather-wsdl2cpp: do not edit.\n#include <exception>\n#include "
      "<functional>\n#include <memory>\n#include <optional>\n#include <span>\n#include "
      "<string>\n#include <string_view>\n#include <utility>\n#include <vector>\n\n#include "
      "\"lather/service/client.hpp\"\n#include "
      "\"lather/service/service.hpp\"\n#include \"" +
      describe_header + "\"\n";
  std::set<std::size_t> used;
  for (const operation_ref& r : ops) used.insert(r.port_type);
  for (std::size_t p : used) text += "#include \"" + port_types[p].header + "\"\n";
  // Operations with typed faults: throw_<k>_<i>() throws what they receive as its class.
  std::string throwers, methods;
  std::size_t thrown = 0;
  bool headers = false;
  for (std::size_t p : used) {
    const port_type_plan& pt = port_types[p];
    std::string statics, entries;
    std::size_t n = 0;
    for (const operation_ref& r : ops) {
      if (r.port_type != p) continue;
      const operation_plan& op = pt.operations[r.operation];
      std::string thrower;
      if (throws_typed(op)) {
        thrower = "throw_" + std::to_string(k + 1) + "_" + std::to_string(++thrown);
        throwers += fault_thrower(thrower, op);
      }
      methods += info_of(pt.cls, op);
      methods +=
          op.one_way ? one_way_methods(pt.cls, op, thrower) : client_methods(pt.cls, op, thrower);
      if (has_headers(op)) {
        headers = true;
        methods += header_methods(pt.cls, op, thrower);
      }
      entries += registration(pt.cls, op, ++n, statics);
    }
    methods += "\nvoid " + pt.cls + "Service::" + mount_name(k) + "(lather::service& s) {\n" +
               statics + "  static constexpr lather_gen::op_entry ops[] = {\n" + entries +
               "  };\n  lather_gen::mount(s, this, ops);\n}\n";
  }
  if (headers)
    text +=
        "#include \"lather/bind/error.hpp\"\n#include \"lather/soap/envelope.hpp\"\n#include "
        "\"lather/soap/fault.hpp\"\n#include \"lather/xml/reader.hpp\"\n#include "
        "\"lather/xml/writer.hpp\"\n";
  text += "\nnamespace " + cpp_namespace + " {\n" + std::string(common_functions);
  if (!throwers.empty() || headers)
    text += "\nnamespace {\n" + (throwers.empty() ? "" : std::string(read_entry_function)) +
            throwers +
            (headers ? std::string(header_functions) + std::string(header_templates) : "") +
            "\n}  // namespace\n";
  return text + methods + "\n}  // namespace " + cpp_namespace + "\n";
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
