// lather/service/reply.hpp — completing an operation later (async handlers).
//
//   svc.operation("slow", [&pool](const slow_req& in, lather::reply<slow_resp> done) {
//     pool.submit([in, done] { done(slow_resp{compute(in)}); });   // any thread, any time
//   });
//
// The server thread is free while the call waits: the connection's coroutine is suspended
// (http::server::await) and resumes on its own thread when the reply is given. A reply that is
// dropped without being called completes the call with a Server fault, so a lost callback can
// never hang a client. Only the first call of a reply counts.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

namespace lather {

namespace detail {
template <class Resp>
struct reply_state {
  std::mutex m;
  bool done = false;
  std::optional<Resp> value;
  std::exception_ptr error;
  std::function<void()> resume;

  /// How to resume the waiting call; resumes right away when the call completed already (a
  /// deadline can expire before the waiting side got here).
  void set_resume(std::function<void()> r) {
    {
      std::lock_guard lock(m);
      if (!done) {
        resume = std::move(r);
        return;
      }
    }
    r();
  }

  void complete(std::optional<Resp> v, std::exception_ptr e) {
    std::function<void()> r;
    {
      std::lock_guard lock(m);
      if (done) return;
      done = true;
      value = std::move(v);
      error = e;
      r = std::move(resume);
    }
    if (r) r();
  }
};
// Shared by the copies of one reply: when the last copy goes away unanswered, the call fails.
template <class Resp>
struct reply_token {
  explicit reply_token(std::shared_ptr<reply_state<Resp>> s) : state(std::move(s)) {}
  reply_token(const reply_token&) = delete;
  reply_token& operator=(const reply_token&) = delete;
  std::shared_ptr<reply_state<Resp>> state;
  ~reply_token() {
    state->complete(std::nullopt,
                    std::make_exception_ptr(std::runtime_error("the handler dropped its reply")));
  }
};
}  // namespace detail

template <class Resp>
class reply {
 public:
  explicit reply(std::shared_ptr<detail::reply_state<Resp>> s)
      : token_(std::make_shared<detail::reply_token<Resp>>(std::move(s))) {}
  /// Complete the call with a response.
  void operator()(Resp value) const { token_->state->complete(std::move(value), nullptr); }
  /// Complete the call with a fault: pass std::make_exception_ptr(soap::fault_error{...}) for
  /// a fault of your own; other exceptions give a Server fault.
  void fail(std::exception_ptr e) const { token_->state->complete(std::nullopt, e); }

 private:
  std::shared_ptr<detail::reply_token<Resp>> token_;
};

namespace detail {
/// Runs `job` on a thread of its own (synchronous handlers with a timeout).
void run_detached(std::function<void()> job);

/// Calls `expire` once `after` has passed unless the returned guard was destroyed first
/// (one shared timer thread for the whole process; src/service/timeouts.cpp).
class deadline_guard {
 public:
  deadline_guard(std::chrono::milliseconds after, std::function<void()> expire);
  ~deadline_guard();
  deadline_guard(const deadline_guard&) = delete;
  deadline_guard& operator=(const deadline_guard&) = delete;

 private:
  std::uint64_t id_;
};
}  // namespace detail

template <class T>
struct is_reply : std::false_type {};
template <class T>
struct is_reply<reply<T>> : std::true_type {
  using response = T;
};

}  // namespace lather
