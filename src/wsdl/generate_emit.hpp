// lather-wsdl2cpp: what the generator's plan hands the emitters of the port type headers
// (generate_proxy.cpp) and of the mock server (generate_mock.cpp).
#pragma once

#include <array>
#include <set>
#include <string>
#include <vector>

#include "lather/wsdl/generate.hpp"

namespace lather::wsdl::detail {

/// A generated struct and the statements that give a `v` of it its sample value.
struct mock_struct {
  std::string name;  ///< C++ name (in the generated namespace)
  std::string base;  ///< C++ base struct, "" when none
  std::string statements;
};

/// A typed fault: the exception class generated for a fault detail element (faults.hpp).
struct fault_plan {
  std::string name;         ///< the wsdl:fault name (the operation's)
  std::string cls;          ///< the exception class (in the generated namespace)
  std::string detail_type;  ///< qualified C++ type of the detail element
  std::string ns, element;  ///< the detail element
};

/// A soap:header part of an operation's request or response, as a member of its headers struct.
struct header_plan {
  std::string member;       ///< the member (the part's name)
  std::string type;         ///< qualified C++ type of the header element
  std::string ns, element;  ///< the header element
  bool required = false;    ///< wsdl:required="true": a plain member, else std::optional
  std::string part;         ///< the part's name
  /// Its soap:headerfaults with a typed entry (a literal element part of a generated struct
  /// type; `name` unused): the proxy throws their classes, the service implementation may.
  std::vector<fault_plan> faults;
};

struct operation_plan {
  std::string name, method;  ///< WSDL operation, proxy/service method
  std::string async_method;  ///< the proxy's asynchronous method
  std::string soap_action;
  /// Qualified C++ types; "" for an empty Body (a message without a body part, sent and read
  /// as lather::empty_body(): no request parameter, no response value).
  std::string request_type, response_type;
  std::string element_ns, request_element, response_element;
  std::string response_ns;              ///< "" = element_ns (document: the output element's)
  std::string style;                    ///< "" (document), "rpc_literal" or "rpc_encoded"
  std::string action, response_action;  ///< WS-Addressing Actions in force ("" = none)
  /// Faults with an Action in force: detail element namespace, local name, Action.
  std::vector<std::array<std::string, 3>> fault_actions;
  /// The wsdl:faults with a typed detail (a literal element part of a generated struct type):
  /// the proxy throws their classes, the service implementation may.
  std::vector<fault_plan> faults;
  /// A one-way operation (input, no output): response_type and response_element are "".
  bool one_way = false;
  /// Whether a call takes a request value, gives a response value (empty Bodies do not).
  bool takes_request() const { return !request_type.empty(); }
  bool gives_response() const { return !one_way && !response_type.empty(); }
  /// The typed soap:header parts of the request and of the response, and the structs that
  /// hold them (qualified C++ names; "" when there is none).
  std::vector<header_plan> request_headers, response_headers;
  std::string request_headers_type, response_headers_type;
  /// The structs those names are: the type itself, or (an alias) the first operation's of the
  /// port type with the same headers, whose struct and code its operations share.
  std::string request_headers_struct, response_headers_struct;
  /// The code_<k>.cpp (k, from 0) that defines it, and its row in that file's table of
  /// operations: what its inline `_async` methods pass to the client's start_<k>().
  std::size_t source = 0, source_row = 0;
};

struct port_type_plan {
  std::string name;   ///< WSDL portType local name (sample file names)
  std::string qname;  ///< {ns}name, for comments
  std::string cls;    ///< the generated <cls>Client and <cls>Service classes
  std::string header;
  bool soap12 = false;  ///< version of the samples (the first SOAP binding's)
  std::vector<operation_plan> operations;
  std::set<std::string> includes;  ///< the type headers of its messages
  /// The code_<k>.cpp (k) that define some of its operations (mount_<k>).
  std::vector<std::size_t> sources;
  /// The classes' own members, named so that no operation's method takes their name (an
  /// operation keeps its name; names.txt gives the member's other one): the service class's
  /// accessor of the call's lather::call_context ("context"), its mount_on() and the prefix of
  /// its mount_<k>() ("mount_"), the client's pointer to its lather::client ("client_") and
  /// the prefix of its start_<k>() ("start_"), which start the asynchronous calls.
  std::string context, mount_on, mount_prefix, client, start_prefix;
  /// When the type headers are in parts (several code_<k>.cpp): the header declaring its
  /// classes over declarations of its messages, which code_<k>.cpp include instead of `header`,
  /// and the parts it includes (the types of the SOAP headers); "" and none otherwise.
  std::string decl_header;
  std::vector<std::string> decl_includes;
};

/// An operation of the output: port type and operation indexes.
struct operation_ref {
  std::size_t port_type, operation;
};

/// A URL path the mock serves, and the port types (indexes) bound there.
struct mock_path {
  std::string path;
  std::vector<std::size_t> port_types;
};

struct mock_input {
  std::string cpp_namespace, target, service_name, target_namespace;
  std::vector<std::string> type_headers;
  std::string describe_header;  ///< declares the messages' message_type tables extern
  std::vector<mock_struct> structs;
  /// mock_<k>.cpp defines sample() for structs [first, second).
  std::vector<std::pair<std::size_t, std::size_t>> struct_sources;
  std::vector<port_type_plan> port_types;
  std::vector<mock_path> paths;
};

/// The parameters of an operation's service method (and of the client's methods with SOAP
/// headers): the request, its headers, the response and its headers (those it has).
std::string header_params(const operation_plan& op);

/// The header of one port type: its client proxy and abstract service class, declared (their
/// methods are in code_<k>.cpp). `faults_header`: the header of the fault classes. With a
/// `decl_header`, two: that one with the classes, and `header` including it, the type headers
/// and the methods that are inline.
std::vector<generated_file> port_type_header(const std::string& cpp_namespace,
                                             const port_type_plan& pt,
                                             const std::string& faults_header);

/// The fault classes of every typed fault of `port_types` (a header including `includes`,
/// the headers of their detail types), "" when there is none.
std::string faults_header(const std::string& cpp_namespace,
                          const std::vector<port_type_plan>& port_types,
                          const std::set<std::string>& includes);

/// Whether an operation's client methods throw typed faults (faults_header's classes).
bool throws_typed(const operation_plan& op);

/// A share of a generated translation unit (code_<k>.cpp): the #include lines it needs and
/// its code.
struct source_part {
  std::vector<std::string> includes;
  std::string body;
};

/// The operations' share of code_<k>.cpp: the client methods and service registrations of
/// `ops`, and the members of the fault classes of `ops` not in `defined_faults` (which it adds
/// them to: each class's in one file).
source_part operations_source(const std::string& cpp_namespace, const std::string& describe_header,
                              const std::string& faults_header,
                              const std::vector<port_type_plan>& port_types, std::size_t k,
                              const std::vector<operation_ref>& ops,
                              std::set<std::string>& defined_faults);

/// code_<k>.cpp: its parts' #include lines (each once, the standard ones first) and their code.
std::string translation_unit(const std::string& comment, const std::vector<source_part>& parts);

/// The CMakeLists.txt of the output: a static library `target` of `sources` (and with mock
/// sources, its mock server).
std::string cmake_lists(const std::string& target, const std::vector<std::string>& sources,
                        const std::vector<std::string>& mock_sources);

/// The samples header (`samples_file`), mock_<k>.cpp and mock_server.cpp; appends the names of
/// the sources to `sources`.
std::vector<generated_file> generate_mock(const mock_input& in, const std::string& samples_file,
                                          std::vector<std::string>& sources);

/// The path the checker and the mock agree on for a soap:address location: its URL path ("/"
/// when empty, "/" prepended to a relative one, "/" for a non-HTTP address).
std::string address_path(const std::string& location);

}  // namespace lather::wsdl::detail
