#pragma once

// Support header below every layer (std only): the http layer and the service layer both keep
// warm objects for reuse, and a lower layer may not include a higher one.

#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace lather::detail {

/// Reused objects (buffers, request/response objects, per-call state): a warmed-up call
/// allocates nothing. take() hands out the most recently returned object (LIFO: the warmest)
/// or constructs one; the pool keeps at most `max_free` returned objects and frees the rest,
/// so it never holds more than were in use at once. Thread-safe.
template <class T>
class object_pool {
 public:
  explicit object_pool(std::size_t max_free = 1024) : max_free_(max_free) {}

  /// Gives its object back when it goes away, unless discard() was called.
  struct lease {
    object_pool* pool;
    std::unique_ptr<T> object;
    lease(object_pool* p, std::unique_ptr<T> o) : pool(p), object(std::move(o)) {}
    lease(const lease&) = delete;
    lease& operator=(const lease&) = delete;
    ~lease() { pool->give_back(object); }
    void discard() { object.reset(); }
    T* operator->() const { return object.get(); }
    T& operator*() const { return *object; }
  };

  template <class... Args>
  lease take(Args&&... args) {
    return {this, take_unique(std::forward<Args>(args)...)};
  }
  template <class... Args>
  std::unique_ptr<T> take_unique(Args&&... args) {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        auto o = std::move(free_.back());
        free_.pop_back();
        return o;
      }
    }
    return std::make_unique<T>(std::forward<Args>(args)...);
  }
  /// Takes `o` (leaving it empty; an empty one is ignored). One past the limit is freed
  /// outside the lock.
  void give_back(std::unique_ptr<T>& o) {
    if (!o) return;
    std::unique_ptr<T> excess;
    {
      std::lock_guard lock(mutex_);
      if (free_.size() < max_free_) {
        try {
          free_.push_back(std::move(o));
        } catch (const std::bad_alloc&) {  // called from ~lease: never throw
          excess = std::move(o);
        }
      } else {
        excess = std::move(o);
      }
    }
  }

 private:
  std::size_t max_free_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<T>> free_;
};

}  // namespace lather::detail
