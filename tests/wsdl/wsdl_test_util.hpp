// Helpers of the wsdl tests: a scratch directory of files, a WSDL around a schema body, the
// message of a thrown wsdl::error.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>

#include "lather/wsdl/load.hpp"

namespace lather::wsdl::test {

namespace fs = std::filesystem;

/// A fresh directory of files for one test.
class files {
 public:
  files() {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("lather-wsdl-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(dir_);
  }
  ~files() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string add(const std::string& name, std::string_view text) {
    fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

 private:
  fs::path dir_;
};

/// A WSDL whose types section holds `schema_body` in targetNamespace urn:t (prefix t).
inline std::string wsdl_with_schema(std::string_view schema_body,
                                    std::string_view schema_attrs = "") {
  return std::string(R"(<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:t="urn:t"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types>
  <xs:schema targetNamespace="urn:t" )") +
         std::string(schema_attrs) + ">\n" + std::string(schema_body) + R"(
  </xs:schema>
 </types>
</definitions>
)";
}

inline std::unique_ptr<const model> load_text(files& f, const std::string& text) {
  return load({f.add("a.wsdl", text)});
}

/// The message of a wsdl::error thrown by `f`, or "" when nothing was thrown.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

}  // namespace lather::wsdl::test
