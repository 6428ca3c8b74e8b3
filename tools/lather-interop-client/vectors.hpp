// The VECTORS.md calls and comparison rules for C++ interop clients (lather's, and the gSOAP
// peer of tests/interop).
// A client adapts its stack to `InteropCalls`; `run_vector_checks` sends every call and
// prints one line per check: "PASS <check>" or "FAIL <check> <detail>".  The check names
// and values match tests/interop/peers/vectors.py and tests/interop/peers/php/client.php.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace interop {

// One interop.wsdl Struct in stack-neutral form.
struct Item {
  std::string name;
  int count = 0;
  double price = 0;
  std::int64_t when_us = 0;  // the instant, microseconds since 1970-01-01T00:00:00Z
  std::vector<std::string> tags;
  std::optional<std::string> note;  // nullopt = nil or absent
};

// How one call ended.  A fault carries its code as a resolved QName.
struct CallStatus {
  enum class Kind { ok, fault, error } kind = Kind::ok;
  std::string code_namespace;  // fault code's namespace URI
  std::string code_local;      // fault code's local name (Client, Sender, ...)
  std::string reason;          // faultstring / Reason Text
  std::string error;           // transport or decoding failure

  static CallStatus failed(std::string what) {
    CallStatus status;
    status.kind = Kind::error;
    status.error = std::move(what);
    return status;
  }
};

// The six operations of interop.wsdl, as one stack calls them.
class InteropCalls {
 public:
  virtual ~InteropCalls() = default;
  virtual CallStatus echo_string(const std::string& value, std::string& result) = 0;
  virtual CallStatus echo_int(int value, int& result) = 0;
  virtual CallStatus echo_struct(const Item& value, Item& result) = 0;
  virtual CallStatus echo_array(const std::vector<Item>& value, std::vector<Item>& result) = 0;
  virtual CallStatus add_numbers(int a, int b, int& result) = 0;
  virtual CallStatus echo_binary(const std::vector<unsigned char>& value,
                                 std::vector<unsigned char>& result) = 0;
};

// Runs every check; returns the number of failures.  `soap12` selects the expected fault
// code ({SOAP 1.2 env}Sender instead of {SOAP 1.1 env}Client).
int run_vector_checks(InteropCalls& calls, bool soap12, std::ostream& out);

}  // namespace interop
