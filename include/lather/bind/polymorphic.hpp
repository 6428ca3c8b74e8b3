// lather/bind/polymorphic.hpp — lather::polymorphic<B>: a value of type B or of a type derived
// from it, with value semantics (the shape of the C++26 proposal std::polymorphic, P3019).
//
//   struct Device { std::string label; };             // meta<Device>: derived = types<Disk>
//   struct Disk : Device { std::int64_t capacity; };
//   lather::polymorphic<Device> d;                    // a Device
//   d = Disk{{"sda"}, 512};                           // now a Disk (a copy of it)
//   if (const Disk* k = d.get_if<Disk>()) use(k->capacity);
//   lather::polymorphic<Device> e = d;                // a deep copy: another Disk
//   assert(e == d && e->label == "sda");
//
// The binding reads and writes it as an element of type B whose xsi:type names the object's
// type when it is not B (docs/binding.md, "Polymorphic values"); lather-wsdl2cpp gives it to
// an element whose declared type has derived types. The hierarchy is closed: the object's type
// is B, a type of meta<B>::derived (transitively), or lather::bind::unknown_subtype<B> (a
// subtype the peer has and this program has not, kept by the reader). B needs no virtual
// function: the holder knows its object's type.
#pragma once

#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "lather/bind/meta.hpp"

namespace lather {

template <class B>
class polymorphic;

namespace xml {
class writer;
class ncname;
}  // namespace xml

namespace bind::detail {
struct read_ctx;
template <class P>
bool read_pointer(read_ctx& c, P& p);
template <class P, class Name>
void write_polymorphic(xml::writer& w, std::string_view ns, Name local, const P& p);

/// Whether a polymorphic<B> may keep an unknown subtype (unknown_subtype<B> derives from B).
template <class B>
inline constexpr bool holder_keeps_unknown =
    !std::is_final_v<B> && std::is_default_constructible_v<B>;

/// The types a polymorphic<B>'s object may have: B, meta<B>::derived (transitively), and
/// unknown_subtype<B> where it can be made.
template <class B, class List>
struct holdable_list;
template <class B, class... Ds>
struct holdable_list<B, types<Ds...>> {
  using type = std::conditional_t<holder_keeps_unknown<B>, types<B, Ds..., unknown_subtype<B>>,
                                  types<B, Ds...>>;
};
template <class B>
using holdable_types = typename holdable_list<B, derived_types_of<B>>::type;

/// The index of D in List (the list's size if it is not there).
template <class D, class... Ts>
consteval std::size_t index_in(types<Ts...>) {
  constexpr bool same[] = {std::is_same_v<D, Ts>..., false};
  std::size_t i = 0;
  while (i < sizeof...(Ts) && !same[i]) ++i;
  return i;
}

/// The number of types in the list.
template <class... Ts>
consteval std::size_t list_size(types<Ts...>) {
  return sizeof...(Ts);
}

/// Calls f.template operator()<D>(i) for each type D of the list in order, i its index in the
/// list, until one returns true (the first match: a type, or the type of an index); the types
/// after it are not tried. Inlined, and so must f be (__attribute__((always_inline)) on the
/// lambda): a function per list would carry the whole list in its name, and one per type would
/// cost a symbol and a section each, which weigh more than its code. f does the test and the
/// work itself: a lambda wrapped around it would be one more instance per type. A pack expansion in
/// an array's initializer, not a fold: clang refuses a fold of more than 256 operands, and a
/// hierarchy can be wider (vSphere's MethodFault has 633 derived types). `done` stops the search at
/// the match: without it, g++ -O3 saw a deleted object's type tested again (destroy_held).
template <class... Ds, class F>
[[gnu::always_inline]] inline void visit_first(types<Ds...>, F&& f) {
  [[maybe_unused]] std::size_t i = 0;
  [[maybe_unused]] bool done = false;
  [[maybe_unused]] const bool tried[] = {
      (done || (f.template operator()<Ds>(i++) && (done = true)))..., false};
}

/// Deletes `object` as the type of index `index` in holdable_types<B>. One function per B,
/// each type's destructor inlined; a generated contract instantiates it in one file
/// (LATHER_BIND_POLYMORPHIC_EXTERN), elsewhere a holder's destructor only calls it.
template <class B>
void destroy_held(B* object, std::size_t index) noexcept {
  visit_first(
      holdable_types<B>{}, [&]<class D>(std::size_t i) __attribute__((always_inline)) {
        return i == index && (delete static_cast<D*>(object), true);
      });
}

}  // namespace bind::detail

/// A B or an object of a type derived from B (see the file comment). Always holds an object
/// (a B when default-constructed), except once moved from (valueless_after_move()): then it may
/// only be assigned to or destroyed (the binding writes nothing for it). Copies are deep (the
/// copy has the same dynamic type); == compares the dynamic types, then the values as that type.
template <class B>
class polymorphic {
  // B may be incomplete here (a member of B itself: a recursion the holder breaks).
  static_assert(!std::is_const_v<B> && !std::is_reference_v<B>,
                "lather::polymorphic<B>: B is a class type");

 public:
  using value_type = B;

  /// A value-initialized B.
  polymorphic() : polymorphic(std::in_place_type<B>) {}
  /// A D made from `args`: B or a type of meta<B>::derived.
  template <class D, class... Args>
  explicit polymorphic(std::in_place_type_t<D>, Args&&... args)
      : p_(new D(std::forward<Args>(args)...)), index_(index_of<D>()) {}
  /// A copy of `value` as its static type (B or a type of meta<B>::derived).
  template <class U>
  requires(std::derived_from<std::remove_cvref_t<U>, B> &&
           !std::is_same_v<std::remove_cvref_t<U>, polymorphic>)
      polymorphic(U&& value)  // NOLINT(google-explicit-constructor): a value converts
      : polymorphic(std::in_place_type<std::remove_cvref_t<U>>, std::forward<U>(value)) {}

  polymorphic(const polymorphic& other)
      : p_(other.p_ != nullptr ? clone(other) : nullptr), index_(other.index_) {}
  polymorphic(polymorphic&& other) noexcept
      : p_(std::exchange(other.p_, nullptr)), index_(other.index_) {}
  polymorphic& operator=(const polymorphic& other) {
    if (this != &other) *this = polymorphic(other);
    return *this;
  }
  polymorphic& operator=(polymorphic&& other) noexcept {
    if (this != &other) {
      destroy();
      p_ = std::exchange(other.p_, nullptr);
      index_ = other.index_;
    }
    return *this;
  }
  ~polymorphic() { destroy(); }

  /// Replaces the object with a D made from `args` (B or a type of meta<B>::derived). (Inlined:
  /// the binding's reader makes any type of the hierarchy in one function, where a function per
  /// type would cost a symbol and a section each.)
  template <class D, class... Args>
  [[gnu::always_inline]] D& emplace(Args&&... args) {
    D* made = new D(std::forward<Args>(args)...);
    destroy();
    p_ = made;
    index_ = index_of<D>();
    return *made;
  }

  B& get() noexcept { return *p_; }
  const B& get() const noexcept { return *p_; }
  B& operator*() noexcept { return *p_; }
  const B& operator*() const noexcept { return *p_; }
  B* operator->() noexcept { return p_; }
  const B* operator->() const noexcept { return p_; }

  /// Whether the object's dynamic type is exactly D.
  template <class D>
  [[gnu::always_inline]] bool holds() const noexcept {
    return p_ != nullptr && index_ == index_of<D>();
  }
  /// The object as a D if its dynamic type is exactly D, else nullptr.
  template <class D>
  [[gnu::always_inline]] D* get_if() noexcept {
    return holds<D>() ? static_cast<D*>(p_) : nullptr;
  }
  template <class D>
  [[gnu::always_inline]] const D* get_if() const noexcept {
    return holds<D>() ? static_cast<const D*>(p_) : nullptr;
  }

  bool valueless_after_move() const noexcept { return p_ == nullptr; }

  void swap(polymorphic& other) noexcept {
    std::swap(p_, other.p_);
    std::swap(index_, other.index_);
  }
  friend void swap(polymorphic& a, polymorphic& b) noexcept { a.swap(b); }

  /// Same dynamic type and equal values as that type (each type of the hierarchy needs ==).
  friend bool operator==(const polymorphic& a, const polymorphic& b) {
    if (a.p_ == nullptr || b.p_ == nullptr) return a.p_ == b.p_;
    return a.index_ == b.index_ && equal(a, b);
  }

 private:
  /// D's index in holdable_types<B>: what the holder knows of its object's type.
  template <class D>
  static constexpr std::size_t index_of() noexcept {
    static_assert(std::is_base_of_v<B, D> && !std::is_abstract_v<D>,
                  "lather::polymorphic<B> holds a concrete type derived from B");
    constexpr bind::detail::holdable_types<B> all{};
    constexpr std::size_t i = bind::detail::index_in<D>(all);
    static_assert(i < bind::detail::list_size(all),
                  "lather::polymorphic<B> holds B or a type of meta<B>::derived: the hierarchy is "
                  "closed (its types are the ones the binding can write)");
    return i;
  }
  void destroy() noexcept {
    if (p_ != nullptr) bind::detail::destroy_held<B>(p_, index_);
  }
  static B* clone(const polymorphic& from) {
    B* made = nullptr;
    bind::detail::visit_first(
        bind::detail::holdable_types<B>{}, [&]<class D>(
                                               std::size_t i) __attribute__((always_inline)) {
          return i == from.index_ && (made = new D(static_cast<const D&>(*from.p_)), true);
        });
    return made;
  }
  static bool equal(const polymorphic& a, const polymorphic& b) {
    bool same = false;
    bind::detail::visit_first(
        bind::detail::holdable_types<B>{}, [&]<class D>(
                                               std::size_t i) __attribute__((always_inline)) {
          static_assert(std::equality_comparable<D>,
                        "lather::polymorphic<B>'s == compares as the object's type: give each "
                        "type of the hierarchy an operator==");
          return i == a.index_ &&
                 (same = static_cast<const D&>(*a.p_) == static_cast<const D&>(*b.p_), true);
        });
    return same;
  }

  B* p_;
  std::size_t index_;
};

namespace bind {

/// lather::polymorphic<B>.
template <class T>
struct is_polymorphic_holder : std::false_type {};
template <class B>
struct is_polymorphic_holder<polymorphic<B>> : std::true_type {};

/// A polymorphic<B> member: one B (1..1) whose dynamic type an xsi:type names, read and
/// written where a pointer to B is (is_pointer: polymorphic), but never absent.
template <class B>
struct shape<polymorphic<B>> {
  using value_type = B;
  static constexpr std::uint32_t min = 1, max = 1;
  static constexpr bool is_optional = false, is_vector = false, is_pointer = true;
  static constexpr bool is_shared = false;
};

}  // namespace bind

}  // namespace lather

/// B's hierarchy is compiled in another translation unit, the one with
/// LATHER_BIND_POLYMORPHIC_INSTANTIATE(B): destroying a polymorphic<B>'s object as its type, and
/// reading and writing a polymorphic<B> member (lather/bind/bind.hpp), each a function with
/// every type's part inlined. Elsewhere a holder calls them instead of compiling them again.
/// Before any use of polymorphic<B>; B may be incomplete. (lather-wsdl2cpp declares it for each
/// base its holders bind, in the base's header. Copying and comparing holders stay where a
/// program does it: the generated code does neither.)
#define LATHER_BIND_POLYMORPHIC_EXTERN(...)                                                        \
  extern template void lather::bind::detail::destroy_held<__VA_ARGS__>(__VA_ARGS__*,               \
                                                                       std::size_t) noexcept;      \
  extern template bool lather::bind::detail::read_pointer<::lather::polymorphic<__VA_ARGS__>>(     \
      ::lather::bind::detail::read_ctx&, ::lather::polymorphic<__VA_ARGS__>&);                     \
  extern template void lather::bind::detail::write_polymorphic<::lather::polymorphic<__VA_ARGS__>, \
                                                               ::lather::xml::ncname>(             \
      ::lather::xml::writer&, std::string_view, ::lather::xml::ncname,                             \
      const ::lather::polymorphic<__VA_ARGS__>&)

/// Compile B's hierarchy here (after lather/bind/bind.hpp and every type of the hierarchy).
#define LATHER_BIND_POLYMORPHIC_INSTANTIATE(...)                                            \
  template void lather::bind::detail::destroy_held<__VA_ARGS__>(__VA_ARGS__*,               \
                                                                std::size_t) noexcept;      \
  template bool lather::bind::detail::read_pointer<::lather::polymorphic<__VA_ARGS__>>(     \
      ::lather::bind::detail::read_ctx&, ::lather::polymorphic<__VA_ARGS__>&);              \
  template void lather::bind::detail::write_polymorphic<::lather::polymorphic<__VA_ARGS__>, \
                                                        ::lather::xml::ncname>(             \
      ::lather::xml::writer&, std::string_view, ::lather::xml::ncname,                      \
      const ::lather::polymorphic<__VA_ARGS__>&)
