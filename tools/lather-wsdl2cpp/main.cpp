// lather-wsdl2cpp WSDL... -o DIR [--namespace NS] [--catalog FILE]...
//
// Reads the contract offline (lather::wsdl::load) and writes the generated C++ into DIR
// (lather::wsdl::generate_cpp): one header per schema namespace, names.txt, CMakeLists.txt.
// Exit codes: 0 written, 1 the contract cannot be loaded or generated, 2 usage.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "lather/wsdl/generate.hpp"
#include "lather/wsdl/load.hpp"

namespace {

constexpr std::string_view usage =
    "usage: lather-wsdl2cpp WSDL... -o DIR [--namespace NS] [--catalog FILE]...\n"
    "  -o, --output DIR   directory to write (created; files in it are replaced)\n"
    "  --namespace NS     C++ namespace of the generated code (default: generated)\n"
    "  --catalog FILE     OASIS XML catalog for absolute schema URLs (repeatable)\n"
    "  -q, --quiet        no summary on stderr\n";

int fail_usage(const std::string& why) {
  std::cerr << "lather-wsdl2cpp: " << why << "\n" << usage;
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  std::string out_dir;
  bool quiet = false;
  lather::wsdl::load_options lo;
  lather::wsdl::generate_options go;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&](std::string& dest) {
      if (i + 1 >= argc) return false;
      dest = argv[++i];
      return true;
    };
    if (a == "-h" || a == "--help") {
      std::cout << usage;
      return 0;
    } else if (a == "-o" || a == "--output") {
      if (!value(out_dir)) return fail_usage("-o needs a directory");
    } else if (a == "--namespace") {
      if (!value(go.cpp_namespace)) return fail_usage("--namespace needs a name");
    } else if (a == "--catalog") {
      std::string c;
      if (!value(c)) return fail_usage("--catalog needs a file");
      lo.catalogs.push_back(c);
    } else if (a == "-q" || a == "--quiet") {
      quiet = true;
    } else if (a.starts_with("-")) {
      return fail_usage("unknown option " + std::string(a));
    } else {
      inputs.emplace_back(a);
    }
  }
  if (inputs.empty()) return fail_usage("no WSDL given");
  if (out_dir.empty()) return fail_usage("no output directory (-o DIR)");
  try {
    auto start = std::chrono::steady_clock::now();
    auto model = lather::wsdl::load(inputs, lo);
    auto loaded = std::chrono::steady_clock::now();
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
    for (const std::string& w : model->warnings()) std::cerr << "warning: " << w << "\n";
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
