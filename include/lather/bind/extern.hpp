// lather/bind/extern.hpp — compile a complex type's reading and writing in one translation unit.
//
// Every translation unit that reads or writes a bound type instantiates its binding there, and
// that of every type it reaches. For many types used from many files (generated contracts),
// compile each one once instead:
//
//   // in the header, after meta<acme::Order>:
//   LATHER_BIND_EXTERN(acme::Order);
//   // in one .cpp file that includes lather/bind/bind.hpp and that header:
//   LATHER_BIND_INSTANTIATE(acme::Order);
//
// Elsewhere, reading or writing an Order (or a type holding one) calls that one out-of-line
// copy instead of instantiating it again. The bytes read and written are the same. For complex
// types (meta<T>::fields); lather-wsdl2cpp declares it for every struct it generates.
#pragma once

#include "lather/bind/meta.hpp"

namespace lather::xml {
class writer;
}  // namespace lather::xml

namespace lather::bind {
struct type_description;
template <class T>
const type_description& describe();
}  // namespace lather::bind

namespace lather::bind::detail {
struct complex_vt;
struct enum_codec;
/// Specialized by LATHER_BIND_ENUM(E): E's names and codec, defined once for the program.
template <class E>
struct enum_defined {};
struct read_ctx;
template <class T>
const complex_vt& vt_of() noexcept;
template <class X>
bool read_complex(read_ctx& c, X& x);
template <class X>
bool read_body(read_ctx& c, X& x);
template <class T>
void write_complex_content(xml::writer& w, const T& x);
}  // namespace lather::bind::detail

/// T's reading and writing are instantiated in another translation unit (the one with
/// LATHER_BIND_INSTANTIATE(T)).
#define LATHER_BIND_EXTERN(...)                                                  \
  extern template const ::lather::bind::detail::complex_vt&                      \
  lather::bind::detail::vt_of<__VA_ARGS__>() noexcept;                           \
  extern template bool lather::bind::detail::read_complex<__VA_ARGS__>(          \
      ::lather::bind::detail::read_ctx&, __VA_ARGS__&);                          \
  extern template void lather::bind::detail::write_complex_content<__VA_ARGS__>( \
      ::lather::xml::writer&, const __VA_ARGS__&)

/// Instantiate T's reading and writing here (after lather/bind/bind.hpp).
#define LATHER_BIND_INSTANTIATE(...)                                                               \
  template const ::lather::bind::detail::complex_vt&                                               \
  lather::bind::detail::vt_of<__VA_ARGS__>() noexcept;                                             \
  template bool lather::bind::detail::read_complex<__VA_ARGS__>(::lather::bind::detail::read_ctx&, \
                                                                __VA_ARGS__&);                     \
  template void lather::bind::detail::write_complex_content<__VA_ARGS__>(::lather::xml::writer&,   \
                                                                         const __VA_ARGS__&)

/// describe<E>() of an enumeration E and the codec its table fields are read and written with
/// (lather/bind/table.hpp) are defined in another translation unit, the one with
/// LATHER_BIND_ENUM_DEFINE(E) (lather/bind/table.hpp): in the header, after meta<E>, so that
/// every file naming them sees these declarations first.
#define LATHER_BIND_ENUM(...)                                                                    \
  template <>                                                                                    \
  const ::lather::bind::type_description& lather::bind::describe<__VA_ARGS__>();                 \
  template <>                                                                                    \
  struct lather::bind::detail::enum_defined<__VA_ARGS__> {                                       \
    static const std::array<std::string_view, ::lather::meta<__VA_ARGS__>::values.size()> names; \
    static const ::lather::bind::detail::enum_codec codec;                                       \
    static const ::lather::bind::detail::enum_codec open_codec; /* open_enum's */                \
  }

/// T's reading, writing and description (describe<T>) come from a table
/// (lather/bind/table.hpp) defined in another translation unit with LATHER_BIND_TABLE_DEFINE.
/// They go through vt_of<T>() into the library's table routines: vt_of and describe are T's
/// only functions.
#define LATHER_BIND_TABLE(...)                                                   \
  template <>                                                                    \
  inline constexpr bool lather::bind::table_bound<__VA_ARGS__> = true;           \
  template <>                                                                    \
  const ::lather::bind::type_description& lather::bind::describe<__VA_ARGS__>(); \
  template <>                                                                    \
  const ::lather::bind::detail::complex_vt& lather::bind::detail::vt_of<__VA_ARGS__>() noexcept
