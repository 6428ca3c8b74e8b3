// Internal to lather_wsa: the queue and thread that POST replies to non-anonymous
// ReplyTo/FaultTo addresses (server.cpp), one HTTP client per address kept for reuse.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "lather/wsa/server.hpp"

namespace lather::wsa::detail {

class reply_sender {
 public:
  struct message {
    std::string address;
    std::string content_type;  ///< with the SOAP 1.2 action parameter
    std::string soap_action;   ///< SOAP 1.1: the SOAPAction header ("" = none)
    std::string envelope;
  };

  explicit reply_sender(reply_delivery opts);
  /// Stops the thread: the reply being sent finishes (within the timeout), queued ones are
  /// dropped (counted as failed).
  ~reply_sender();
  reply_sender(const reply_sender&) = delete;
  reply_sender& operator=(const reply_sender&) = delete;

  /// Whether `address` may be replied to (an http(s) URL the options accept).
  bool accepts(std::string_view address) const;
  /// Room for one more reply now; counts a refusal when there is none.
  bool has_room();
  /// Queue `m`; false (and `m` untouched) when the queue is full.
  bool post(message& m);
  delivery_stats stats() const;
  /// Wait until nothing is queued or being sent; false if `timeout` passed first.
  bool drain(std::chrono::milliseconds timeout);

 private:
  void run();
  void deliver(message& m);
  void failed(const message& m, std::string_view error);

  reply_delivery opts_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;  // nothing queued or being sent
  std::deque<message> queue_;
  std::size_t sending_ = 0;
  bool stopping_ = false;
  delivery_stats stats_;
  // Used by the thread only: a client per address, the most recent last.
  std::vector<std::pair<std::string, std::unique_ptr<http::client>>> clients_;
  std::thread thread_;
};

}  // namespace lather::wsa::detail
