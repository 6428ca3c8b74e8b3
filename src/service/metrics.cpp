// The Prometheus text of /metrics: per-operation counters and latency histograms, calls in
// flight, and the HTTP server's connection and spin counters.
#include <cstdio>
#include <string>

#include "server_impl.hpp"

namespace lather {

using detail::latency_bounds;
using detail::mount_point;
using detail::operation_metrics;

std::string server::impl::metrics_text() const {
  std::string out;
  auto line = [&out](const std::string& s) {
    out += s;
    out += '\n';
  };
  line("# HELP lather_requests_total SOAP calls handled, by service and operation.");
  line("# TYPE lather_requests_total counter");
  auto label = [](const mount_point& mp, std::size_t i) {
    std::string op = i < mp.svc->operations().size() ? mp.svc->operations()[i]->name() : "";
    return "{service=\"" + mp.svc->name() + "\",path=\"" + mp.path + "\",operation=\"" + op + "\"}";
  };
  for (const auto& mp : mounts)
    for (std::size_t i = 0; i < mp->metrics.size(); ++i)
      line("lather_requests_total" + label(*mp, i) + " " +
           std::to_string(mp->metrics[i]->requests.load()));
  line("# HELP lather_faults_total SOAP faults returned.");
  line("# TYPE lather_faults_total counter");
  for (const auto& mp : mounts)
    for (std::size_t i = 0; i < mp->metrics.size(); ++i)
      line("lather_faults_total" + label(*mp, i) + " " +
           std::to_string(mp->metrics[i]->faults.load()));
  line("# HELP lather_request_bytes_total SOAP request bytes parsed.");
  line("# TYPE lather_request_bytes_total counter");
  for (const auto& mp : mounts)
    for (std::size_t i = 0; i < mp->metrics.size(); ++i)
      line("lather_request_bytes_total" + label(*mp, i) + " " +
           std::to_string(mp->metrics[i]->bytes_in.load()));
  line("# HELP lather_response_bytes_total SOAP response bytes written.");
  line("# TYPE lather_response_bytes_total counter");
  for (const auto& mp : mounts)
    for (std::size_t i = 0; i < mp->metrics.size(); ++i)
      line("lather_response_bytes_total" + label(*mp, i) + " " +
           std::to_string(mp->metrics[i]->bytes_out.load()));
  line("# HELP lather_request_duration_seconds Time from request start to response written.");
  line("# TYPE lather_request_duration_seconds histogram");
  for (const auto& mp : mounts) {
    for (std::size_t i = 0; i < mp->metrics.size(); ++i) {
      const auto& m = *mp->metrics[i];
      std::string l = label(*mp, i);
      l.pop_back();  // reopen the label set for "le"
      std::uint64_t cumulative = 0;
      for (std::size_t b = 0; b < latency_bounds.size(); ++b) {
        cumulative += m.buckets[b].load();
        char bound[32];
        std::snprintf(bound, sizeof bound, "%g", latency_bounds[b]);
        line("lather_request_duration_seconds_bucket" + l + ",le=\"" + bound + "\"} " +
             std::to_string(cumulative));
      }
      cumulative += m.buckets[latency_bounds.size()].load();
      line("lather_request_duration_seconds_bucket" + l + ",le=\"+Inf\"} " +
           std::to_string(cumulative));
      char sum[64];
      std::snprintf(sum, sizeof sum, "%.6f", double(m.micros_total.load()) * 1e-6);
      line("lather_request_duration_seconds_sum" + label(*mp, i) + " " + sum);
      line("lather_request_duration_seconds_count" + label(*mp, i) + " " +
           std::to_string(m.requests.load()));
    }
  }
  line("# HELP lather_in_flight SOAP calls being handled now.");
  line("# TYPE lather_in_flight gauge");
  line("lather_in_flight " + std::to_string(in_flight.load()));
  line("# HELP lather_http_errors_total Requests refused before SOAP processing (e.g. 415).");
  line("# TYPE lather_http_errors_total counter");
  line("lather_http_errors_total " + std::to_string(http_errors.load()));
  auto st = http.get_stats();
  line("# HELP lather_http_connections_total Connections accepted.");
  line("# TYPE lather_http_connections_total counter");
  line("lather_http_connections_total " + std::to_string(st.connections_total));
  line("# HELP lather_http_connections_open Connections open now.");
  line("# TYPE lather_http_connections_open gauge");
  line("lather_http_connections_open " + std::to_string(st.connections_open));
  line("# HELP lather_http_spins_total Worker spins before sleeping (spin_budget), by outcome.");
  line("# TYPE lather_http_spins_total counter");
  line("lather_http_spins_total{outcome=\"found_work\"} " + std::to_string(st.spins_found_work));
  line("lather_http_spins_total{outcome=\"gave_up\"} " + std::to_string(st.spins_gave_up));
  line("# HELP lather_tls_handshakes_total TLS handshakes completed, by session resumption.");
  line("# TYPE lather_tls_handshakes_total counter");
  line("lather_tls_handshakes_total{resumed=\"false\"} " +
       std::to_string(st.tls_handshakes - st.tls_resumed));
  line("lather_tls_handshakes_total{resumed=\"true\"} " + std::to_string(st.tls_resumed));
  return out;
}

}  // namespace lather
