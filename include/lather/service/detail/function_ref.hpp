// A non-owning callable reference: passing a lambda through a non-template boundary without
// the heap allocation std::function makes for captures larger than its small buffer.
#pragma once

#include <type_traits>
#include <utility>

namespace lather::detail {

template <class Sig>
class function_ref;

template <class R, class... A>
class function_ref<R(A...)> {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, function_ref>)
  function_ref(F&& f) noexcept  // NOLINT: implicit by design, like std::function
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, A... a) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<A>(a)...);
        }) {}
  R operator()(A... a) const { return call_(obj_, std::forward<A>(a)...); }

 private:
  void* obj_;
  R (*call_)(void*, A...);
};

}  // namespace lather::detail
