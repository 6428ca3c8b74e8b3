// One timer thread for async-handler deadlines: a map of deadlines under a mutex, a condition
// variable to sleep until the next one. Started on first use; calls are rare (one per async
// call) and cheap, so a single thread serves every server in the process.
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "lather/service/service.hpp"

namespace lather::detail {
namespace {

class timer_thread {
 public:
  // Never destroyed: its detached thread waits on the condition variable until the process
  // ends, and destroying a condition variable with a waiter blocks exit forever (glibc).
  static timer_thread& get() {
    static timer_thread* t = new timer_thread;
    return *t;
  }
  std::uint64_t add(std::chrono::steady_clock::time_point when, std::function<void()> f) {
    std::lock_guard lock(m_);
    const std::uint64_t id = ++next_id_;
    entries_.emplace(std::pair{when, id}, std::move(f));
    cv_.notify_one();
    return id;
  }
  void remove(std::uint64_t id) {
    std::lock_guard lock(m_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->first.second == id) {
        entries_.erase(it);
        return;
      }
  }

 private:
  timer_thread() : worker_([this] { run(); }) { worker_.detach(); }
  void run() {
    std::unique_lock lock(m_);
    for (;;) {
      if (entries_.empty()) {
        cv_.wait(lock);
        continue;
      }
      auto first = entries_.begin();
      // A copy: wait_until reads its deadline again after the wait, when a remove() made
      // meanwhile may have freed the entry's key.
      const std::chrono::steady_clock::time_point when = first->first.first;
      if (std::chrono::steady_clock::now() < when) {
        cv_.wait_until(lock, when);
        continue;
      }
      std::function<void()> f = std::move(first->second);
      entries_.erase(first);
      lock.unlock();
      f();
      lock.lock();
    }
  }
  std::mutex m_;
  std::condition_variable cv_;
  std::map<std::pair<std::chrono::steady_clock::time_point, std::uint64_t>, std::function<void()>>
      entries_;
  std::uint64_t next_id_ = 0;
  std::thread worker_;
};

}  // namespace

void run_detached(std::function<void()> job) {
  std::thread(std::move(job)).detach();
}

deadline_guard::deadline_guard(std::chrono::milliseconds after, std::function<void()> expire)
    : id_(timer_thread::get().add(std::chrono::steady_clock::now() + after, std::move(expire))) {}

deadline_guard::~deadline_guard() {
  timer_thread::get().remove(id_);
}

soap::fault timeout_fault() {
  soap::fault f;
  f.code = soap::fault_code::receiver;
  f.reason = "the operation timed out";
  return f;
}

}  // namespace lather::detail
