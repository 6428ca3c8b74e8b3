// lather/bind/table_ref.hpp — a table-bound type (LATHER_BIND_TABLE, lather/bind/table.hpp)
// by its table, for type-erased callers such as lather::message_type_of: read_content, read
// and write_content over it are plain calls into the library, with no code per type.
//
//   lather::bind::table_ref t = lather::bind::table_ref::of<acme::Order>();
//   acme::Order order;
//   if (auto err = lather::bind::read(r, t, &order)) fail(err.message);
#pragma once

#include "lather/bind/error.hpp"
#include "lather/bind/extern.hpp"
#include "lather/bind/meta.hpp"

namespace lather::xml {
class reader;
}  // namespace lather::xml

namespace lather::bind {

struct read_options;

/// A table-bound type T by its table (the value pointers below point to a T).
class table_ref {
 public:
  template <class T>
  requires table_bound<T>
  static table_ref of() noexcept { return table_ref(detail::vt_of<T>()); }
  /// The type whose view (detail::vt_of<T>()) is `vt`.
  static table_ref of(const detail::complex_vt& vt) noexcept { return table_ref(vt); }
  const detail::complex_vt& vt() const noexcept { return *vt_; }

 private:
  explicit table_ref(const detail::complex_vt& vt) noexcept : vt_(&vt) {}
  const detail::complex_vt* vt_;
};

/// read_content<T> (lather/bind/bind.hpp) for the T of `t`.
error_info read_content(xml::reader& r, table_ref t, void* value, const read_options& opts);
/// read<T> for the T of `t`.
error_info read(xml::reader& r, table_ref t, void* value, const read_options& opts);
/// write_content<T> for the T of `t`.
void write_content(xml::writer& w, table_ref t, const void* value);

}  // namespace lather::bind
