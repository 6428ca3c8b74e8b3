// lather-wsdl2cpp WSDL... -o DIR [--namespace NS] [--catalog FILE]... [--operations LIST]
//                 [--sources N] [--mock] [--depfile FILE] [--strict-policy] [--keep-unknown]
//
// Reads the contract offline (lather::wsdl::load) and writes the generated C++ into DIR
// (lather::wsdl::generate_cpp): one header per schema namespace, names.txt, CMakeLists.txt.
// --depfile writes a Makefile-style dependency file naming every document read, for a build
// system that reruns the generator when an import changes (lather_generate() in CMake).
// A WS-SecurityPolicy assertion lather::wsse does not implement is a warning with its
// file:line:column, an error with --strict-policy.
// Exit codes: 0 written, 1 the contract cannot be loaded or generated, 2 usage (--help).
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "lather/wsdl/generate.hpp"
#include "lather/wsdl/load.hpp"

namespace {

/// A path in a Makefile rule: spaces, '#' and '$' escaped as GNU make (and Ninja) read them.
std::string make_path(const std::filesystem::path& p) {
  std::string out;
  for (char c : p.generic_string()) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

/// `DIR/names.txt: <every file the contract was read from> <the catalogs>`, and names.txt
/// touched so that it is newer than all of them (the build's stamp of this run).
void write_depfile(const std::string& file, const std::string& out_dir,
                   const lather::wsdl::model& m, const std::vector<std::string>& catalogs) {
  namespace fs = std::filesystem;
  const fs::path names = fs::absolute(fs::path(out_dir) / "names.txt");
  fs::last_write_time(names, fs::file_time_type::clock::now());
  std::string rule = make_path(names) + ":";
  std::error_code ec;
  auto add = [&](const std::string& f) {
    // Standard schemas compiled into lather have no file.
    if (fs::is_regular_file(f, ec)) rule += " \\\n  " + make_path(fs::absolute(f));
  };
  for (const std::string& f : m.files()) add(f);
  for (const std::string& f : catalogs) add(f);
  if (const fs::path dir = fs::path(file).parent_path(); !dir.empty()) fs::create_directories(dir);
  std::ofstream out(file, std::ios::binary);
  out << rule << "\n";
  if (!out) throw std::runtime_error("cannot write " + file + ": " + std::strerror(errno));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  std::string out_dir;
  bool quiet = false;
  lather::wsdl::load_options lo;
  lather::wsdl::generate_options go;
  lather::tools::command_line cli{
      "lather-wsdl2cpp",
      "Reads the contract offline and writes the generated C++ into DIR: one header per schema\n"
      "namespace, the sources of a static library, names.txt, CMakeLists.txt. Exit status:\n"
      "0 written, 1 the contract cannot be loaded or generated, 2 usage."};
  cli.add_option("WSDL", inputs, "the contract's WSDL files")->type_name("FILE")->required();
  cli.add_option("-o,--output", out_dir, "directory to write (created; files in it are replaced)")
      ->type_name("DIR")
      ->required();
  cli.add_option("--namespace", go.cpp_namespace,
                 "C++ namespace of the generated code (default: " + go.cpp_namespace + ")")
      ->type_name("NS");
  cli.add_option("--catalog", lo.catalogs,
                 "OASIS XML catalog for absolute schema URLs (repeatable)")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cli.add_flag("--mock", go.mock,
               "also a mock server (mock_server.cpp, target mock-server): --port P serves every "
               "SOAP port with sample answers, --samples DIR writes each operation's sample "
               "request and response");
  cli.add_option("--operations", go.operations,
                 "generate only these operations and what they reach (comma-separated names "
                 "or PortType.Operation)")
      ->type_name("LIST")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cli.add_option("--sources", go.sources,
                 "translation units: code_1..N.cpp (and mock_1..N.cpp); default: by size")
      ->type_name("N");
  std::string depfile;
  cli.add_option("--depfile", depfile,
                 "also write FILE: `DIR/names.txt: ` and every WSDL, schema and catalog file "
                 "read (Makefile syntax); names.txt is then rewritten on every run")
      ->type_name("FILE");
  cli.add_flag(
      "--strict-policy", go.strict_policy,
      "a WS-SecurityPolicy assertion lather::wsse does not implement (sp:SymmetricBinding, "
      "encryption, ...) is an error, not a warning");
  cli.add_flag("--keep-unknown", go.keep_unknown,
               "every type with element content keeps the child elements the contract does not "
               "declare (a lather::bind::unknown_elements member) and writes them back");
  cli.add_flag("-q,--quiet", quiet, "no summary on stderr");
  cli.parse_or_exit(argc, argv);
  try {
    auto start = std::chrono::steady_clock::now();
    auto model = lather::wsdl::load(inputs, lo);
    auto loaded = std::chrono::steady_clock::now();
    for (const std::string& w : model->warnings()) std::cerr << "warning: " << w << "\n";
    lather::wsdl::generate_result r = lather::wsdl::generate_cpp(*model, go);
    std::filesystem::create_directories(out_dir);
    std::size_t bytes = 0;
    for (const lather::wsdl::generated_file& f : r.files) {
      std::filesystem::path p = std::filesystem::path(out_dir) / f.name;
      // Unchanged files keep their time stamp, so a build does not recompile them.
      std::ifstream old(p, std::ios::binary);
      std::string before((std::istreambuf_iterator<char>(old)), std::istreambuf_iterator<char>());
      if (!old || before != f.text) std::ofstream(p, std::ios::binary) << f.text;
      bytes += f.text.size();
    }
    if (!depfile.empty()) write_depfile(depfile, out_dir, *model, lo.catalogs);
    for (const std::string& s : r.skipped) std::cerr << "skipped: " << s << "\n";
    if (!quiet) {
      auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
      std::fprintf(stderr,
                   "lather-wsdl2cpp: %zu files, %zu bytes in %s (load %.1f ms, generate %.1f ms)\n",
                   r.files.size(), bytes, out_dir.c_str(), ms(loaded - start),
                   ms(std::chrono::steady_clock::now() - loaded));
    }
    return 0;
  } catch (const lather::wsdl::error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "lather-wsdl2cpp: " << e.what() << "\n";
    return 1;
  }
}
