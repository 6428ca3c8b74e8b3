// lather/wsdl/generate.hpp — C++ code from a loaded contract (the engine of lather-wsdl2cpp).
//
//   auto m = lather::wsdl::load({"perf.wsdl"});
//   for (const lather::wsdl::generated_file& f : lather::wsdl::generate_cpp(*m, {.cpp_namespace =
//   "perf"}))
//     write(dir / f.name, f.text);
//
// What comes out: one header per schema namespace with plain structs and their
// lather::meta<T> (the binding of lather/bind/meta.hpp), for every type that the
// document/literal operations of the SOAP bindings reach; names.txt (XSD name -> C++ name);
// a CMakeLists.txt for the output directory. Constructs the binding cannot express yet are
// refused with wsdl::error naming the construct and its position, never generated wrongly.
// docs/wsdl2cpp.md lists the mapping and what is refused.
#pragma once

#include <string>
#include <vector>

#include "lather/wsdl/model.hpp"

namespace lather::wsdl {

struct generate_options {
  std::string cpp_namespace = "generated";  ///< may be nested: "acme::perf"
  /// Also a samples header and mock_server.cpp, built as the project's `mock-server`: serves
  /// every SOAP port with sample answers (--port P) or writes every operation's sample
  /// request and response envelopes (--samples DIR).
  bool mock = false;
  /// Only these operations and what they reach (types, proxy and service methods, mock
  /// answers and samples); each is an operation name or PortType.Operation. Empty: every
  /// operation. A name no SOAP binding has is an error.
  std::vector<std::string> operations{};
  /// Translation units of the generated library: code_1.cpp ... code_<n>.cpp (each a share of
  /// the structs' binding and of the operations' client methods and service registration);
  /// with --mock also mock_1.cpp ... mock_<n>.cpp (samples). 0: by size (about 480 structs or
  /// 400 operations per code file, 400 samples per mock file). A fixed count gives file names a
  /// build can list before generating.
  std::size_t sources = 0;
  /// A WS-SecurityPolicy assertion lather::wsse does not implement (security_policy::
  /// unsupported) is an error (wsdl::error at its position) instead of a load warning.
  bool strict_policy = false;
  /// Every generated complexType with element content (literal use; one per hierarchy: a
  /// derived type shares its base's) gets a lather::bind::unknown_elements member, named in
  /// names.txt, that keeps the child elements the contract does not declare (what a newer peer
  /// added) and writes them back (docs/binding.md, "Unknown elements"). Off: such an element is
  /// an error unless read_options::skip_unknown_elements.
  bool keep_unknown = false;
};

struct generated_file {
  std::string name;  ///< relative path in the output directory
  std::string text;
};

struct generate_result {
  std::vector<generated_file> files;
  /// Operations not generated (rpc style, encoded use, no SOAP binding), one line each.
  std::vector<std::string> skipped;
};

/// Generate the C++ of `m`. Deterministic: the same model gives the same bytes. Throws
/// wsdl::error for an unsupported construct (with the position of its declaration) or a C++
/// namespace that is not a valid identifier path.
generate_result generate_cpp(const model& m, const generate_options& options = {});

}  // namespace lather::wsdl
