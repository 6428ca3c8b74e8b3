#include "reply_sender.hpp"

#include <algorithm>
#include <exception>

namespace lather::wsa::detail {

namespace {
/// Clients kept for reuse (each holds its keep-alive connections); the oldest goes first.
constexpr std::size_t max_clients = 16;
}  // namespace

reply_sender::reply_sender(reply_delivery opts) : opts_(std::move(opts)) {
  http::client_options& c = opts_.client;
  c.connect_timeout = std::min(c.connect_timeout, opts_.timeout);
  c.io_timeout = std::min(c.io_timeout, opts_.timeout);
  c.call_timeout = std::min(c.call_timeout, opts_.timeout);
  c.max_connections = 1;  // one thread sends
  thread_ = std::thread([this] { run(); });
}

reply_sender::~reply_sender() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    stats_.failed += queue_.size();
    queue_.clear();
  }
  wake_.notify_all();
  thread_.join();
}

bool reply_sender::accepts(std::string_view address) const {
  if (!address.starts_with("http://") && !address.starts_with("https://")) return false;
  return !opts_.accept || opts_.accept(address);
}

bool reply_sender::has_room() {
  std::lock_guard lock(mutex_);
  if (queue_.size() + sending_ < opts_.queue_limit) return true;
  ++stats_.refused;
  return false;
}

bool reply_sender::post(message& m) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() + sending_ >= opts_.queue_limit) return false;
    queue_.push_back(std::move(m));
  }
  wake_.notify_one();
  return true;
}

delivery_stats reply_sender::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

bool reply_sender::drain(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return idle_.wait_for(lock, timeout, [this] { return queue_.empty() && sending_ == 0; });
}

void reply_sender::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    message m = std::move(queue_.front());
    queue_.pop_front();
    ++sending_;
    lock.unlock();
    deliver(m);
    lock.lock();
    if (--sending_ == 0 && queue_.empty()) idle_.notify_all();
  }
}

void reply_sender::deliver(message& m) {
  auto it = std::find_if(clients_.begin(), clients_.end(),
                         [&](const auto& c) { return c.first == m.address; });
  try {
    if (it == clients_.end()) {
      if (clients_.size() == max_clients) clients_.erase(clients_.begin());
      clients_.emplace_back(m.address, std::make_unique<http::client>(m.address, opts_.client));
      it = clients_.end() - 1;
    }
    const std::string quoted = "\"" + m.soap_action + "\"";
    std::pair<std::string_view, std::string_view> headers[2] = {{"Content-Type", m.content_type},
                                                                {"SOAPAction", quoted}};
    unsigned status = 0;
    it->second->post(
        "", std::span(headers, m.soap_action.empty() ? 1 : 2),
        [&](byte_buffer& out) { out.append(m.envelope); },
        [&](const http::response_head& head, const byte_source&) { status = head.status; },
        opts_.timeout);
    if (status < 200 || status > 299) return failed(m, "HTTP " + std::to_string(status));
    std::lock_guard lock(mutex_);
    ++stats_.delivered;
  } catch (const std::exception& e) {
    if (it != clients_.end()) clients_.erase(it);  // its connection may be broken
    failed(m, e.what());
  }
}

void reply_sender::failed(const message& m, std::string_view error) {
  {
    std::lock_guard lock(mutex_);
    ++stats_.failed;
  }
  if (opts_.on_failure) opts_.on_failure(m.address, error);
}

}  // namespace lather::wsa::detail
