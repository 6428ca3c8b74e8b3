// lather/service/detail/message_type_of.hpp — message_type_of<T>(): the table of
// lather/service/message_type.hpp, built from T's binding (needs service.hpp's includes).
#pragma once

#include <new>
#include <type_traits>
#include <utility>

#include "lather/bind/bind.hpp"
#include "lather/bind/table_ref.hpp"
#include "lather/service/detail/describe.hpp"
#include "lather/service/message_type.hpp"
#include "lather/soap/encoded.hpp"

namespace lather {
namespace detail {

/// The decode_options of an RPC/encoded message read with `o`: its lenient_dates and
/// validate_facets.
inline soap::decode_options decode_options_for(const bind::read_options& o) noexcept {
  soap::decode_options d;
  d.lenient_dates = o.lenient_dates;
  d.validate_facets = o.validate_facets;
  return d;
}

/// `Unit`: a type local to the translation unit that defines T's table gives the functions
/// made here internal linkage (LATHER_MESSAGE_TYPE_DEFINE); void: shared (COMDAT) copies.
/// `Life`: where not void, the class whose static members are T's lifetime functions
/// (LATHER_MESSAGE_TYPE_FILE's lather_life<T>: a shorter name in the object than a lambda's).
template <class T, unsigned Parts, class Unit = void, class Life = void>
constexpr message_type make_message_type() {
  static_assert(bind::complex_type<T>, "a message type needs lather::meta<T>");
  message_type m;
  m.ns = meta<T>::ns;
  m.name = meta<T>::name;
  m.encoded = soap::encoded_message<T>;
  if constexpr ((Parts & lifetime) != 0) {
    // The least code per T: the library allocates, frees and resets over these.
    m.size = sizeof(T);
    m.align = alignof(T);
    constexpr bool moved = (Parts & moves) != 0;
    if constexpr (!std::is_void_v<Life>) {
      m.construct = &Life::construct;
      m.destruct = &Life::destruct;
      if constexpr (moved) m.move_construct = &Life::move_construct;
      if constexpr (!std::is_nothrow_default_constructible_v<T>)
        m.assign_default = &Life::assign_default;
    } else {
      m.construct = [](void* at) { ::new (at) T{}; };
      m.destruct = [](void* p) noexcept { static_cast<T*>(p)->~T(); };
      if constexpr (moved)
        m.move_construct = [](void* at, void* from) {
          ::new (at) T(std::move(*static_cast<T*>(from)));
        };
      if constexpr (!std::is_nothrow_default_constructible_v<T>)
        m.assign_default = [](void* p) { *static_cast<T*>(p) = T{}; };
    }
  }
  if constexpr (bind::table_bound<T> && !soap::encoded_message<T>) {
    // Through T's table: plain calls into the library, no reading or writing code per T.
    if constexpr ((Parts & (reads | writes)) != 0) m.table = &bind::detail::vt_of<T>;
  } else {
    if constexpr ((Parts & writes) != 0) {
      if constexpr (soap::encoded_message<T>) {
        m.write_encoded = [](xml::writer& w, soap::version v, std::string_view ns,
                             std::string_view element, const void* p) {
          soap::write_encoded_message(w, v, ns, element, *static_cast<const T*>(p));
        };
      } else {
        m.write_content_fn = [](xml::writer& w, const void* p) {
          bind::write_content(w, *static_cast<const T*>(p));
        };
      }
    }
    if constexpr ((Parts & reads) != 0) {
      if constexpr (soap::encoded_message<T>) {
        m.read_encoded = [](xml::reader& r, soap::envelope_reader& env, void* p,
                            const bind::read_options& o) {
          soap::read_encoded_message(r, env, *static_cast<T*>(p), decode_options_for(o));
        };
      } else {
        m.read_content_fn = [](xml::reader& r, void* p, const bind::read_options& o) {
          return bind::read_content(r, *static_cast<T*>(p), o);
        };
        m.read_fn = [](xml::reader& r, void* p, const bind::read_options& o) {
          return bind::read(r, *static_cast<T*>(p), o);
        };
      }
    }
  }
  if constexpr ((Parts & described) != 0) m.schema = make_message_schema<T>();
  return m;
}

template <class T, unsigned Parts>
inline constexpr message_type message_type_v = make_message_type<T, Parts>();

template <class T, unsigned Parts>
const message_type& message_type_part() noexcept {
  return message_type_v<T, Parts>;
}

}  // namespace detail

template <class T>
const message_type& message_type_of() noexcept {
  return detail::message_type_v<T, detail::all_parts>;
}

}  // namespace lather
