// Internal to lather_service: the SOAP server's state, shared by server.cpp (one call from
// HTTP request to HTTP response) and metrics.cpp (the /metrics text).
#pragma once

#include "lather/service/server.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "soap_exchange.hpp"

namespace lather {
namespace detail {

// Latency histogram buckets (seconds) for /metrics.
constexpr std::array<double, 14> latency_bounds = {
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0};

struct operation_metrics {
  std::atomic<std::uint64_t> requests{0}, faults{0}, bytes_in{0}, bytes_out{0};
  std::atomic<std::uint64_t> micros_total{0};
  std::array<std::atomic<std::uint64_t>, latency_bounds.size() + 1> buckets{};

  void record(const call_info& info) {
    requests.fetch_add(1, std::memory_order_relaxed);
    if (info.fault) faults.fetch_add(1, std::memory_order_relaxed);
    bytes_in.fetch_add(info.bytes_in, std::memory_order_relaxed);
    bytes_out.fetch_add(info.bytes_out, std::memory_order_relaxed);
    micros_total.fetch_add(info.micros, std::memory_order_relaxed);
    const double s = double(info.micros) * 1e-6;
    std::size_t b = 0;
    while (b < latency_bounds.size() && s > latency_bounds[b]) ++b;
    buckets[b].fetch_add(1, std::memory_order_relaxed);
  }
};

struct mount_point {
  std::string path;
  service* svc = nullptr;
  // Metrics per operation index, plus one slot for calls that failed before dispatch.
  std::vector<std::unique_ptr<operation_metrics>> metrics;
  std::string wsdl_cache;  // generated on first ?wsdl (per advertised address)
  std::string wsdl_address;
  std::mutex wsdl_mutex;
};

}  // namespace detail

struct server::impl {
  server_options opts;
  http::server http;
  std::vector<std::unique_ptr<detail::mount_point>> mounts;
  std::atomic<std::int64_t> in_flight{0};
  std::atomic<std::uint64_t> http_errors{0};

  explicit impl(server_options o)
      : opts(std::move(o)), http(static_cast<http::server_options&>(opts)) {}

  detail::object_pool<soap_exchange> exchanges;

  void handle(detail::mount_point& mp, http::request& req, http::response& res);
  void handle_soap(detail::mount_point& mp, http::request& req, http::response& res);
  void answer_fault(detail::mount_point& mp, soap_exchange& x, http::response& res,
                    call_info& info);
  /// After a call (counted in its metrics already): the interceptors' `after`, the access log
  /// line.
  void report_call(detail::mount_point& mp, soap_exchange& x, const call_info& info);
  void serve_wsdl(detail::mount_point& mp, http::request& req, http::response& res);
  std::string metrics_text() const;
};

}  // namespace lather
