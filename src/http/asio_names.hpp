// Internal to lather_http: the short names its translation units use for Asio and Beast.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>

namespace lather::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;
using clock_type = std::chrono::steady_clock;
using sys_error = boost::system::error_code;

}  // namespace lather::http
