// lather-wsdl2cpp: what the emitters of code_<k>.cpp share (generate_proxy.cpp and, for
// the operations' SOAP headers, generate_proxy_headers.cpp).
#pragma once

#include <array>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>

#include "generate_emit.hpp"

namespace lather::wsdl::detail {

/// The name of `op`'s settings (a lather_gen::op_info) in code_<k>.cpp.
std::string info_name(const std::string& cls, const operation_plan& op);

/// `items` joined by ", ", the empty ones left out: a parameter or argument list.
std::string join(std::initializer_list<std::string> items);

/// The request parameter of `op`'s client methods, "" for an empty Body (`by_value`: the
/// asynchronous forms', which own it).
std::string request_param(const operation_plan& op, bool by_value = false);

/// "request" ("std::move(request)" when `moved`), "" for an empty Body.
std::string request_arg(const operation_plan& op, bool moved = false);

/// "&request", "nullptr" for an empty Body (lather::empty_body() takes no value).
std::string request_pointer(const operation_plan& op);

/// "Req request, ReqHeaders request_headers": the parameters of `op`'s `_async` forms with
/// SOAP headers before `done`.
std::string header_async_params(const operation_plan& op);

/// The `done` of `op`'s `_async` forms with SOAP headers: the response's headers after it.
std::string header_async_done(const operation_plan& op);

/// The helpers of operations with SOAP headers (in lather_gen, once per code_<k>.cpp,
/// before the operations' constants).
std::string_view header_functions();
/// The asynchronous call of an operation with SOAP headers (in lather_gen, after the common
/// functions).
std::string_view header_start();

/// `op`'s header rows: the name of the constant array (in `statics`, once per distinct list:
/// `named` maps its rows to its name) describing its request's (`response`: response's)
/// headers, "{}" when there are none.
std::string header_rows(const operation_plan& op, bool response,
                        std::map<std::string, std::string>& named, std::string& statics);

/// The functions that send, read, take and give the headers of `op` and of every operation
/// with the same headers structs and rows (`rows`: header_rows()), in `statics` once per
/// distinct set (`named` maps a set to its number): the number N of use_headers_N,
/// start_headers_N and serve_headers_N.
std::string header_set(const operation_plan& op, const std::array<std::string, 2>& rows,
                       std::map<std::string, std::string>& named, std::string& statics);

/// The client method of `op` (class `cls` + "Client", its lather::client* `client_member`)
/// that takes and gives its SOAP headers with options (the others are inline in the port type's
/// header); `set`: its header_set().
std::string header_methods(const std::string& cls, const std::string& client_member,
                           const operation_plan& op, const std::string& set);

/// The handler of `op`, which has SOAP headers, for a lather::message_handler's with_context
/// (class `service`; `set`: its header_set()).
std::string header_handler(const std::string& service, const operation_plan& op,
                           const std::string& set);

}  // namespace lather::wsdl::detail
