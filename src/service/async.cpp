// client::async_call over message_type tables and the state lather::future reads: one
// non-template path for every asynchronous call of generated proxies.
#include <condition_variable>
#include <mutex>
#include <string>

#include "lather/service/client.hpp"
#include "lather/service/future.hpp"

namespace lather {
namespace detail {

class async_state {
 public:
  async_state(std::string_view operation, const message_type& request_type,
              const message_type* response_type, call_options o, async_completion c)
      : operation(operation),
        request_type(&request_type),
        response_type(response_type),
        options(std::move(o)),
        completion(std::move(c)) {}
  async_state(const async_state&) = delete;
  async_state& operator=(const async_state&) = delete;
  ~async_state() {
    if (request) request_type->destroy(request);
    if (response) response_type->destroy(response);
  }

  // Set once by the call's thread, read by the future after `ready` (under `m`).
  void complete(std::exception_ptr e) {
    {
      std::lock_guard lock(m);
      error = std::move(e);
      ready = true;
    }
    cv.notify_all();
  }

  const std::string operation;
  const message_type* const request_type;
  void* request = nullptr;
  const message_type* const response_type;
  void* response = nullptr;
  const call_options options;
  async_completion completion;

  mutable std::mutex m;
  mutable std::condition_variable cv;
  bool ready = false;
  std::exception_ptr error;
};

void async_wait(const async_state& s) {
  std::unique_lock lock(s.m);
  s.cv.wait(lock, [&] { return s.ready; });
}

bool async_wait_until(const async_state& s, std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(s.m);
  return s.cv.wait_until(lock, deadline, [&] { return s.ready; });
}

void* async_get(async_state& s) {
  async_wait(s);
  if (s.error) std::rethrow_exception(s.error);
  return s.response;
}

namespace {
// take_callback's callable: copies share the callback it took, which `run` calls and deletes.
struct taken_callback {
  std::shared_ptr<void> done;
  callback_fn run;
  void operator()(std::exception_ptr error, void* response) const {
    run(callback_op::call, done.get(), &error, response);
  }
};
}  // namespace

std::function<void(std::exception_ptr, void*)> take_callback(void* done, callback_fn run) {
  void* f = run(callback_op::take, done, nullptr, nullptr);
  if (!f) return nullptr;
  auto destroy = [run](void* p) noexcept { run(callback_op::destroy, p, nullptr, nullptr); };
  return taken_callback{std::shared_ptr<void>(f, destroy), run};
}

}  // namespace detail

std::function<void(std::exception_ptr, void*)> typed_done(
    std::function<void(std::exception_ptr error)> done) {
  return detail::take_callback(&done, &detail::callback_of<void>);
}

std::shared_ptr<detail::async_state> client::async_call(std::string_view operation,
                                                        const message_type& request_type,
                                                        void* request,
                                                        const message_type* response_type,
                                                        call_options o, async_completion c) {
  auto s = std::make_shared<detail::async_state>(operation, request_type, response_type,
                                                 std::move(o), std::move(c));
  s->request = request_type.create_moved(request);
  if (response_type) s->response = response_type->create();
  http_->async_run([this, s] {
    std::exception_ptr failure;
    try {
      call_tables(s->operation, *s->request_type, s->request, s->response_type, s->response,
                  s->options);
    } catch (soap::fault_error& e) {
      failure = std::current_exception();
      if (s->completion.typed_fault) {
        try {
          s->completion.typed_fault(e, opts_.read);
        } catch (...) {
          failure = std::current_exception();
        }
      }
    } catch (...) {
      failure = std::current_exception();
    }
    if (s->completion.done) s->completion.done(failure, s->response);
    s->complete(std::move(failure));
  });
  return s;
}

}  // namespace lather
