// The routines that read and write a struct from its table (lather/bind/table.hpp), and the
// codecs of the simple types, compiled once for every program.
#include "lather/bind/table.hpp"

namespace lather::bind::detail {

bool read_table(read_ctx& c, const complex_vt& vt, void* obj, std::uint32_t* counts) {
  if (const xml::attribute* t = scan_xsi(c.r).type)
    if (check_xsi_complex(c, *t, vt, false) == -2) return false;
  return read_complex_body(c, vt, obj, counts);
}

void write_table(xml::writer& w, const complex_vt& vt, const void* obj) {
  xml::leaf_namespace leaves{vt.ns};  // the simple children in the type's own namespace
  const field_match* end = vt.fields + vt.field_count;
  for (const field_match* f = vt.fields; f != end; ++f)
    if (f->kind == field_kind::attribute) f->write(w, obj, *f, leaves);
  for (const field_match* f = vt.fields; f != end; ++f)
    if (f->kind != field_kind::attribute) f->write(w, obj, *f, leaves);
}

void finalize_table(const complex_vt& vt, void* obj, const std::uint32_t* counts) {
  for (std::uint32_t i = 0; i < vt.field_count; ++i)
    if (const field_match& f = vt.fields[i]; f.finalize != nullptr) f.finalize(obj, counts[i], f);
}

}  // namespace lather::bind::detail

#define LATHER_BIND_INSTANTIATE_CODEC(...) template struct lather::bind::detail::codec<__VA_ARGS__>;
LATHER_BIND_LIBRARY_CODECS(LATHER_BIND_INSTANTIATE_CODEC)
