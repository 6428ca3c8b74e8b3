// lather-call: inspect, call, mock and validate any WSDL from the shell, with no compile step
// (lather::dynamic_client). docs/lather-call.md.
//
//   lather-call WSDL                              services, ports, operations, signatures
//   lather-call WSDL OPERATION [key=value ...]    call it, print the answer as JSON
//   lather-call WSDL --sample OPERATION           a sample request (JSON and XML)
//   lather-call WSDL --validate FILE.xml          check a message against the schemas
//   lather-call WSDL --mock --port P              serve every port with sample answers
//
// Exit status: 0 done, 1 a SOAP fault (or --validate found problems), 2 usage, a contract
// that does not load, bad input, or a transport failure.
#include <atomic>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "lather/dynamic/client.hpp"
#include "lather/http/server.hpp"
#include "lather/soap/fault.hpp"
#include "lather/xml/writer.hpp"

namespace {

using lather::dynamic::operation_info;
using lather::dynamic::value;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// TEXT or @FILE.
std::string text_or_file(const std::string& arg) {
  return !arg.empty() && arg.front() == '@' ? read_file(arg.substr(1)) : arg;
}

// key=value: the value as JSON when it parses as such (numbers, true, {...}), else a string;
// a dotted key (a.b=1) builds nested objects.
void assign(value& into, const std::string& arg) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument("'" + arg + "' is not key=value");
  const std::string text = arg.substr(eq + 1);
  value v;
  try {
    v = value::from_json(text);
  } catch (const lather::dynamic::json_error&) {
    v = text;
  }
  value* at = &into;
  std::string_view key(arg.data(), eq);
  for (auto dot = key.find('.'); dot != std::string_view::npos; dot = key.find('.')) {
    at = &(*at)[key.substr(0, dot)];
    key.remove_prefix(dot + 1);
  }
  (*at)[key] = std::move(v);
}

std::string_view style_of(const operation_info& op) {
  return op.rpc ? (op.encoded ? "rpc/encoded" : "rpc/literal")
                : (op.encoded ? "document/encoded" : "document/literal");
}

void list(const lather::dynamic_client& c) {
  std::string service = "\x01", port = "\x01";
  for (const operation_info& op : c.operations()) {
    if (op.service != service) {
      service = op.service;
      std::printf("Service: %s\n",
                  service.empty() ? "(none: bindings no port uses)" : service.c_str());
      port = "\x01";
    }
    if (op.port != port) {
      port = op.port;
      std::printf("  Port: %s (SOAP %s, %.*s, binding %s)%s%s\n", port.c_str(),
                  op.version == lather::soap::version::soap11 ? "1.1" : "1.2",
                  static_cast<int>(style_of(op).size()), style_of(op).data(),
                  op.binding->name.local.c_str(), op.address.empty() ? "" : " ",
                  op.address.c_str());
      std::printf("    Operations:\n");
    }
    std::printf("      %s(%s)", op.name.c_str(), op.input_signature.c_str());
    if (op.one_way)
      std::printf(" (one-way)\n");
    else
      std::printf(" -> %s\n", op.output_signature.c_str());
  }
}

// The file name stem the corpus checker expects: PortType.Operation.
std::string sample_stem(const operation_info& op) {
  return op.binding->port_type->name.local + "." + op.name;
}

int write_samples(const lather::dynamic_client& c, const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::set<std::string> done;
  int failed = 0;
  for (const operation_info& op : c.operations()) {
    const std::string stem = sample_stem(op);
    if (!done.insert(stem).second) continue;
    try {
      std::ofstream(std::filesystem::path(dir) / (stem + ".req.xml"), std::ios::binary)
          << c.request(op, c.sample_input(op), c.sample_input_headers(op));
      if (!op.one_way)
        std::ofstream(std::filesystem::path(dir) / (stem + ".res.xml"), std::ios::binary)
            << c.response(op, c.sample_output(op), c.sample_output_headers(op));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "lather-call: %s: %s\n", stem.c_str(), e.what());
      ++failed;
    }
  }
  std::fprintf(stderr, "lather-call: %zu operations written to %s\n", done.size(), dir.c_str());
  return failed ? 1 : 0;
}

std::string url_path(const std::string& address) {
  const auto scheme = address.find("://");
  if (scheme == std::string::npos) return "/";
  const auto slash = address.find('/', scheme + 3);
  if (slash == std::string::npos) return "/";
  std::string path = address.substr(slash);
  if (auto q = path.find_first_of("?#"); q != std::string::npos) path.erase(q);
  return path.empty() ? "/" : path;
}

int mock(const lather::dynamic_client& c, std::uint16_t port, const std::string& address) {
  lather::http::server_options so;
  so.port = port;
  so.address = address;
  so.threads = 1;
  lather::http::server srv{so};
  std::set<std::string> paths;
  for (const operation_info& op : c.operations()) paths.insert(url_path(op.address));
  for (const std::string& path : paths)
    srv.route(path, [&c](lather::http::request& req, lather::http::response& res) {
      std::string body;
      char chunk[16384];
      for (std::size_t n; (n = req.read_body(chunk, sizeof chunk)) != 0;) body.append(chunk, n);
      const auto type = lather::soap::parse_content_type(req.header("Content-Type"));
      const auto v = type ? type->ver : lather::soap::version::soap11;
      res.set_header("Content-Type", lather::soap::content_type_utf8(v));
      auto fault = [&](std::string reason) {
        lather::xml::writer w{res.body()};
        lather::soap::fault f;
        f.code = lather::soap::fault_code::sender;
        f.reason = std::move(reason);
        res.set_status(500);
        lather::soap::write_fault_envelope(w, v, f);
      };
      try {
        bool output = false;
        const operation_info* op = c.match(body, &output);
        if (!op || output) return fault("no operation of the contract takes this message");
        if (op->one_way) return res.set_status(202);
        // The answer in the version the request came in.
        res.body().append(c.response(*op, c.sample_output(*op), c.sample_output_headers(*op), v));
      } catch (const std::exception& e) {
        fault(e.what());
      }
    });
  srv.start();
  for (const std::string& path : paths) std::printf("serving %s\n", path.c_str());
  std::printf("listening on http://%s:%u\n", address.c_str(), unsigned(srv.port()));
  std::fflush(stdout);
  srv.run();
  return 0;
}

void print_fault(const lather::dynamic::fault_error& e) {
  const lather::soap::fault& f = e.get();
  value out;
  out["fault"] =
      f.received_code.local.empty()
          ? std::string(lather::soap::fault_code_name(f.code, lather::soap::version::soap11))
          : f.received_code.local;
  out["reason"] = f.reason;
  if (!f.node.empty()) out["node"] = f.node;
  if (!e.detail().is_null()) out["detail"] = e.detail();
  std::fprintf(stderr, "SOAP fault: %s\n", out.to_json(2).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::string wsdl, operation, port, json, headers, validate_file, samples_dir, soap_version;
  std::string user, listen_address = "127.0.0.1", wsa_version, wsa_action;
  std::vector<std::string> assignments;
  bool raw_xml = false, sample = false, trace = false, mock_mode = false, wsa = false;
  unsigned timeout_ms = 0, connect_timeout_ms = 0;
  lather::dynamic::client_options options;
  lather::http::tls_options tls;
  bool insecure = false;
  lather::tools::command_line cli{
      "lather-call",
      "Inspect, call, mock and validate any WSDL with no compile step. With only WSDL: lists\n"
      "services, ports, operations and signatures. With OPERATION: sends it (input from --json\n"
      "and key=value arguments) and prints the answer as JSON. Exit status: 0 done, 1 SOAP fault\n"
      "(or --validate found problems), 2 usage, contract load, bad input or transport failure."};
  cli.add_option("WSDL", wsdl, "the contract (read offline, imports through --catalog)")
      ->type_name("FILE")
      ->required();
  cli.add_option("OPERATION", operation, "the operation to call or sample")->type_name("NAME");
  cli.add_option("ARGS", assignments, "input members as key=value (a.b=1 nests; JSON values)")
      ->type_name("KEY=VALUE");
  cli.add_option("--port", port,
                 "the WSDL port whose operation to call; with --mock the TCP port to listen on")
      ->type_name("NAME|P");
  cli.add_option("--address", options.address, "send to this URL instead of the port's address")
      ->type_name("URL");
  cli.add_option("--json", json, "the input as JSON text, or @FILE")->type_name("TEXT|@FILE");
  cli.add_option("--headers", headers, "SOAP header parts as a JSON object, or @FILE")
      ->type_name("TEXT|@FILE");
  cli.add_flag("--xml", raw_xml, "print the response envelope as received, not JSON");
  cli.add_flag("--sample", sample, "print a sample request of OPERATION (JSON and XML)");
  cli.add_option("--samples", samples_dir,
                 "write PortType.Operation.req.xml/.res.xml samples of every operation to DIR")
      ->type_name("DIR");
  cli.add_option("--validate", validate_file,
                 "check a request or response envelope against the schemas")
      ->type_name("FILE.xml");
  cli.add_flag("--mock", mock_mode, "serve every port with sample answers (--port P)");
  cli.add_option("--listen", listen_address, "--mock: address to listen on (default 127.0.0.1)")
      ->type_name("A");
  cli.add_flag("--trace", trace, "print the request and response as sent and received");
  cli.add_flag("--wsa", wsa,
               "send WS-Addressing headers (Action from the WSDL, MessageID, To) and check the "
               "response's RelatesTo and Action");
  cli.add_option("--wsa-version", wsa_version, "--wsa in this version (default 1.0)")
      ->type_name("1.0|2004")
      ->check(CLI::IsMember({"1.0", "2004"}));
  cli.add_option("--wsa-action", wsa_action, "--wsa with this Action instead of the WSDL's")
      ->type_name("URI");
  cli.add_option("--soap", soap_version, "send SOAP 1.1 or 1.2 (default: the port's)")
      ->type_name("1.1|1.2")
      ->check(CLI::IsMember({"1.1", "1.2"}));
  cli.add_option("--timeout", timeout_ms, "whole call timeout in ms (default 60000)")
      ->type_name("MS");
  cli.add_option("--connect-timeout", connect_timeout_ms, "connect timeout in ms (default 10000)")
      ->type_name("MS");
  cli.add_option("--user", user, "HTTP Basic credentials")->type_name("USER:PASSWORD");
  cli.add_option("--cacert", tls.ca_file, "CA bundle to verify the server (PEM)")
      ->type_name("FILE");
  cli.add_option("--cert", tls.cert_file, "client certificate (PEM)")->type_name("FILE");
  cli.add_option("--key", tls.key_file, "client certificate's private key (PEM)")
      ->type_name("FILE");
  cli.add_flag("--insecure", insecure, "do not verify the server's certificate");
  cli.add_option("--catalog", options.load.catalogs,
                 "OASIS XML catalog for absolute schema URLs (repeatable)")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cli.parse_or_exit(argc, argv);

  if (sample && operation.empty()) cli.fail("--sample needs an OPERATION");
  if (mock_mode && !operation.empty()) cli.fail("--mock takes no OPERATION");
  std::uint16_t mock_port = 0;
  if (mock_mode && !port.empty()) {
    unsigned p = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (ec != std::errc{} || end != port.data() + port.size() || p > 65535)
      cli.fail("--port with --mock: '" + port + "' is not a TCP port");
    mock_port = static_cast<std::uint16_t>(p);
  }
  if (!soap_version.empty())
    options.version =
        soap_version == "1.2" ? lather::soap::version::soap12 : lather::soap::version::soap11;
  if (timeout_ms) options.http.call_timeout = std::chrono::milliseconds(timeout_ms);
  if (connect_timeout_ms)
    options.http.connect_timeout = std::chrono::milliseconds(connect_timeout_ms);
  if (!user.empty()) {
    const auto colon = user.find(':');
    options.http.auth = lather::http::basic_auth{
        user.substr(0, colon), colon == std::string::npos ? "" : user.substr(colon + 1)};
  }
  if (!tls.ca_file.empty() || !tls.cert_file.empty() || insecure) {
    tls.verify_peer = !insecure;
    options.http.tls = tls;
  }
  if (trace)
    options.trace = [](std::string_view what, std::string_view text) {
      std::fprintf(stderr, "--- %.*s\n%.*s%s", static_cast<int>(what.size()), what.data(),
                   static_cast<int>(text.size()), text.data(),
                   text.empty() || text.back() == '\n' ? "" : "\n");
    };

  std::unique_ptr<lather::dynamic_client> client;
  try {
    client = std::make_unique<lather::dynamic_client>(wsdl, options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());  // wsdl::error: file:line:column: why
    return 2;
  }
  lather::dynamic_client& c = *client;
  for (const std::string& w : c.model().warnings())
    std::fprintf(stderr, "warning: %s\n", w.c_str());
  try {
    if (!samples_dir.empty()) return write_samples(c, samples_dir);
    if (mock_mode) return mock(c, mock_port, listen_address);
    if (!validate_file.empty()) {
      const std::vector<std::string> problems = c.validate(read_file(validate_file));
      for (const std::string& p : problems) std::printf("%s\n", p.c_str());
      if (problems.empty()) std::printf("%s: valid\n", validate_file.c_str());
      return problems.empty() ? 0 : 1;
    }
    if (operation.empty()) {
      if (!assignments.empty() || !json.empty()) cli.fail("input given but no OPERATION");
      list(c);
      return 0;
    }
    const operation_info& op = c.find(operation, port);
    if (sample) {
      const value in = c.sample_input(op), hdrs = c.sample_input_headers(op);
      std::printf("%s\n", in.to_json(2).c_str());
      if (!hdrs.is_null()) std::printf("headers: %s\n", hdrs.to_json(2).c_str());
      std::printf("%s\n", c.request(op, in, hdrs).c_str());
      return 0;
    }
    value input =
        json.empty() ? value(lather::dynamic::object{}) : value::from_json(text_or_file(json));
    for (const std::string& a : assignments) assign(input, a);
    lather::dynamic::call_options co;
    co.port = op.port;
    if (!headers.empty()) co.headers = value::from_json(text_or_file(headers));
    if (wsa || !wsa_version.empty() || !wsa_action.empty()) {
      co.addressing =
          wsa_version == "2004" ? lather::wsa::version::submission04 : lather::wsa::version::v1_0;
      co.action = wsa_action;
    }
    try {
      const lather::dynamic::call_result r = c.call(op, input, co);
      if (raw_xml)
        std::printf("%s\n", r.envelope.c_str());
      else if (r.headers.is_null())
        std::printf("%s\n", r.body.to_json(2).c_str());
      else
        std::printf("%s\n", value(lather::dynamic::object{{"headers", r.headers}, {"body", r.body}})
                                .to_json(2)
                                .c_str());
      for (const std::string& p : r.problems)
        std::fprintf(stderr, "%s%s\n",
                     p.starts_with("WS-Addressing:") ? "lather-call: "
                                                     : "response does not match the schema: ",
                     p.c_str());
      if (!r.skipped_headers.empty()) {
        std::string names;
        for (const std::string& h : r.skipped_headers) names += (names.empty() ? "" : ", ") + h;
        std::fprintf(stderr,
                     "lather-call: skipped %zu header entr%s the contract does not declare for "
                     "%s: %s\n",
                     r.skipped_headers.size(), r.skipped_headers.size() == 1 ? "y" : "ies",
                     op.name.c_str(), names.c_str());
      }
      return 0;
    } catch (const lather::dynamic::fault_error& e) {
      print_fault(e);
      return 1;
    }
  } catch (const lather::soap::fault_error& e) {
    std::fprintf(stderr, "lather-call: not a SOAP answer: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lather-call: %s\n", e.what());
    return 2;
  }
}
