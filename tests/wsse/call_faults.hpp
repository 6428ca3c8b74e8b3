// What a call of the WS-Security tests ended with: the WS-Security code of its fault, the
// reason of any other fault, "" when it succeeded.
#pragma once

#include <string>
#include <string_view>

#include "lather/service/client.hpp"
#include "lather/wsse/fault.hpp"

namespace wsse_test {

inline std::string code_of(const lather::soap::fault_error& e) {
  using lather::wsse::fault_code;
  for (auto c : {fault_code::invalid_security, fault_code::failed_check,
                 fault_code::failed_authentication, fault_code::message_expired})
    if (lather::wsse::is_fault(e.get(), c)) return std::string(lather::wsse::fault_code_name(c));
  return std::string(e.get().reason);
}

template <class Resp, class Req>
std::string fault_of(lather::client& c, std::string_view op, const Req& req,
                     const lather::call_options& o = {}) {
  try {
    c.call<Resp>(op, req, o);
  } catch (const lather::soap::fault_error& e) {
    return code_of(e);
  }
  return "";
}

}  // namespace wsse_test
