// lather/service/future.hpp — the result of an asynchronous call over message_type tables
// (lather::client::async_call; lather-wsdl2cpp's `_async` proxy methods return one).
//
//   lather::future<acme::GetOrderResponse> f = proxy.GetOrder_async(request);
//   acme::GetOrderResponse r = f.get();  // waits; rethrows the call's exception
//
// Unlike std::future<T>, nothing is instantiated per T where the call is made: the call's state
// is one non-template class (src/service/async.cpp) that owns the request and the response
// through their tables, and only get() (in the caller's file) knows T.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace lather {

namespace soap {
class fault_error;
}  // namespace soap
namespace bind {
struct read_options;
}  // namespace bind

namespace detail {
/// The shared state of one asynchronous call (defined in src/service/async.cpp).
class async_state;
/// Waits until the call has completed.
void async_wait(const async_state& s);
/// Waits until the call has completed or `deadline` has passed: true if it has completed.
bool async_wait_until(const async_state& s, std::chrono::steady_clock::time_point deadline);
/// Waits; rethrows the call's exception, else returns its response (nullptr for one-way).
void* async_get(async_state& s);
}  // namespace detail

/// What client::async_call does when the call has completed.
struct async_completion {
  /// Called on the async pool's thread with nullptr or the call's exception, and the response
  /// (nullptr for a one-way call); may be empty.
  std::function<void(std::exception_ptr error, void* response)> done;
  /// Throws the typed fault class of a soap::fault_error the call received, its detail read
  /// with the client's client_options::read (it is called in that exception's handler and
  /// rethrows it when the fault is none of its types); may be null. lather-wsdl2cpp's
  /// operations with typed faults pass theirs.
  void (*typed_fault)(soap::fault_error&, const bind::read_options&) = nullptr;
};

namespace detail {
/// What a callback_fn does with a caller's callback.
enum class callback_op : unsigned char {
  take,     ///< returns a new F moved from `*done` (an F), or nullptr when it is empty
  call,     ///< calls `*done` with `*error` and the response (a T; unused for one-way calls)
  destroy,  ///< deletes `done` (what take returned)
};
/// How an asynchronous call keeps a caller's callback, an F (a std::function): one function per
/// F (callback_of), so that a caller passes its callback by address and nothing else is
/// instantiated per call site. Returns what `take` gives, else nullptr.
using callback_fn = void* (*)(callback_op op, void* done, std::exception_ptr* error,
                              void* response);
/// The callback of a call whose response is a T (void: one-way): a
/// `std::function<void(std::exception_ptr, T&)>` (`std::function<void(std::exception_ptr)>`).
template <class T>
struct callback_of_type {
  using type = std::function<void(std::exception_ptr, T&)>;
};
template <>
struct callback_of_type<void> {
  using type = std::function<void(std::exception_ptr)>;
};
template <class T>
using callback = typename callback_of_type<T>::type;
/// How an asynchronous call with SOAP headers keeps the caller's callback, a
/// header_callback<Res, RH>: as a callback_fn, with the response's headers struct (an RH) after
/// the response (a Res; none when void).
using header_callback_fn = void* (*)(callback_op op, void* done, std::exception_ptr* error,
                                     void* response, void* response_headers);
template <class Res, class RH>
struct header_callback_type {
  using type = std::function<void(std::exception_ptr, Res&, RH&)>;
};
template <class Res>
struct header_callback_type<Res, void> {
  using type = callback<Res>;
};
/// (An empty Body as the response: no response, its headers.)
template <class RH>
struct header_callback_type<void, RH> {
  using type = std::function<void(std::exception_ptr, RH&)>;
};
template <>
struct header_callback_type<void, void> {
  using type = callback<void>;
};
template <class Res, class RH>
using header_callback = typename header_callback_type<Res, RH>::type;
/// The header_callback_fn of header_callback<Res, RH>.
template <class Res, class RH>
void* header_callback_of(callback_op op, void* done, std::exception_ptr* error,
                         [[maybe_unused]] void* response, [[maybe_unused]] void* response_headers) {
  auto* f = static_cast<header_callback<Res, RH>*>(done);
  switch (op) {
    case callback_op::take:
      return *f ? new header_callback<Res, RH>(std::move(*f)) : nullptr;
    case callback_op::call:
      if constexpr (std::is_void_v<Res> && std::is_void_v<RH>)
        (*f)(std::move(*error));
      else if constexpr (std::is_void_v<Res>)
        (*f)(std::move(*error), *static_cast<RH*>(response_headers));
      else if constexpr (std::is_void_v<RH>)
        (*f)(std::move(*error), *static_cast<Res*>(response));
      else
        (*f)(std::move(*error), *static_cast<Res*>(response), *static_cast<RH*>(response_headers));
      break;
    case callback_op::destroy:
      delete f;
      break;
  }
  return nullptr;
}
/// The callback_fn of callback<T>.
template <class T>
void* callback_of(callback_op op, void* done, std::exception_ptr* error, void* response) {
  return header_callback_of<T, void>(op, done, error, response, nullptr);
}
/// async_completion::done over the callback `*done`, moved (`run`: its callback_of); empty when
/// it is. One callable type for every callback, so typed_done<T> adds one small function per T
/// (callback_of<T>), not a std::function target type.
std::function<void(std::exception_ptr, void*)> take_callback(void* done, callback_fn run);
}  // namespace detail

/// `done` as async_completion::done, for a call whose response is a T.
template <class T>
std::function<void(std::exception_ptr, void*)> typed_done(
    std::function<void(std::exception_ptr error, T& response)> done) {
  return detail::take_callback(&done, &detail::callback_of<T>);
}
/// `done` as async_completion::done, for a one-way call.
std::function<void(std::exception_ptr, void*)> typed_done(
    std::function<void(std::exception_ptr error)> done);

namespace detail {
/// What every future has: the call's state, and waiting for it.
class future_base {
 public:
  future_base() noexcept = default;
  explicit future_base(std::shared_ptr<async_state> state) noexcept : state_(std::move(state)) {}

  /// Whether it refers to a call (false once get() has run).
  bool valid() const noexcept { return state_ != nullptr; }
  /// Waits until the call has completed.
  void wait() const { async_wait(*state_); }
  /// Waits at most `timeout`: true if the call has completed.
  template <class Rep, class Period>
  bool wait_for(const std::chrono::duration<Rep, Period>& timeout) const {
    return async_wait_until(*state_,
                            std::chrono::steady_clock::now() +
                                std::chrono::ceil<std::chrono::steady_clock::duration>(timeout));
  }

 protected:
  std::shared_ptr<async_state> state_;
};
}  // namespace detail

/// The result of an asynchronous call whose response is a T (void: one-way), as std::future:
/// get() waits and returns the response or rethrows the call's exception, once.
template <class T>
class future : public detail::future_base {
 public:
  using future_base::future_base;

  /// Waits, then returns the response or rethrows the call's exception.
  T get() {
    std::shared_ptr<detail::async_state> s = std::move(state_);
    if constexpr (std::is_void_v<T>) {
      detail::async_get(*s);
    } else {
      T response = std::move(*static_cast<T*>(detail::async_get(*s)));
      return response;
    }
  }
};

/// What the future form of a call whose response has SOAP headers gives (lather-wsdl2cpp:
/// `lather::future<lather::with_headers<Response, op_response_headers>>`): the response and
/// the response's headers struct; Res void for an empty Body as the response.
template <class Res, class RH>
struct with_headers {
  Res response;
  RH response_headers;
};
template <class RH>
struct with_headers<void, RH> {
  RH response_headers;
};

/// Picks the future form that gives the response's SOAP headers of an operation whose request
/// has none, whose other forms take the same arguments: `op_async(request,
/// lather::with_response_headers)` (`[, o]`).
/// (Not constructible from `{}`: a braced list there stays lather::call_options.)
struct with_response_headers_t {
  struct tag {};
  explicit constexpr with_response_headers_t(tag) noexcept {}
};
inline constexpr with_response_headers_t with_response_headers{with_response_headers_t::tag{}};

/// The result of an asynchronous call whose response has SOAP headers: get() waits and returns
/// the response with its headers struct (an RH the call owns, read while the response is), or
/// rethrows the call's exception, once.
template <class Res, class RH>
class future<with_headers<Res, RH>> : public detail::future_base {
 public:
  future() noexcept = default;
  future(std::shared_ptr<detail::async_state> state, RH* response_headers) noexcept
      : future_base(std::move(state)), headers_(response_headers) {}

  /// Waits, then returns the response and its headers or rethrows the call's exception.
  with_headers<Res, RH> get() {
    std::shared_ptr<detail::async_state> s = std::move(state_);
    void* response = detail::async_get(*s);
    if constexpr (std::is_void_v<Res>) {
      (void)response;
      return {std::move(*headers_)};
    } else {
      return {std::move(*static_cast<Res*>(response)), std::move(*headers_)};
    }
  }

 private:
  RH* headers_ = nullptr;
};

}  // namespace lather
