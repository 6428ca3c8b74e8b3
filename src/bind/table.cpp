// The routines that read and write a struct from its table (lather/bind/table.hpp), and the
// codecs of the simple types, compiled once for every program.
#include <alloca.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <type_traits>

#include "lather/bind/table.hpp"
#include "lather/bind/table_ref.hpp"

namespace lather::bind::detail {

// The occurrence counts of one value's fields live in the frame of the call that reads it
// (a nested value's below): as many as the type has fields, known only at run time here.
bool read_table_body(read_ctx& c, const complex_vt& vt, void* obj) {
  auto* counts = static_cast<std::uint32_t*>(alloca(sizeof(std::uint32_t) * vt.field_count));
  return read_complex_body(c, vt, obj, counts);
}

bool read_table_value(read_ctx& c, const complex_vt& vt, void* obj) {
  if (const xml::attribute* t = scan_xsi(c.r).type)
    if (check_xsi_complex(c, *t, vt, false) == -2) return false;
  auto* counts = static_cast<std::uint32_t*>(alloca(sizeof(std::uint32_t) * vt.field_count));
  return read_complex_body(c, vt, obj, counts);
}

namespace {
/// write_table's children of a type with an unknown field: each kept element just before the
/// field it came before (unknown_element::field), those after them all at the end.
[[gnu::noinline]] void write_table_with_unknown(xml::writer& w, const complex_vt& vt,
                                                const void* obj, xml::leaf_namespace& leaves) {
  const field_match* u = vt.fields;
  while (u->kind != field_kind::unknown) ++u;
  const auto& kept =
      *reinterpret_cast<const unknown_elements*>(static_cast<const char*>(obj) + u->offset);
  std::uint32_t from = 0;
  for (std::uint32_t i = 0; i < vt.field_count; ++i) {
    const field_match& f = vt.fields[i];
    if (f.kind == field_kind::attribute || f.kind == field_kind::unknown) continue;
    if (!kept.empty()) write_unknown(w, kept, from, i);
    from = i + 1;
    f.routines->write(w, obj, f, leaves);
  }
  if (!kept.empty()) write_unknown(w, kept, from, unknown_element::at_end);
}
}  // namespace

void write_table(xml::writer& w, const complex_vt& vt, const void* obj) {
  xml::leaf_namespace leaves{vt.ns};  // the simple children in the type's own namespace
  const field_match* const end = vt.fields + vt.field_count;
  // The first field's attribute_at_or_after is also set where a field has facets.
  if (vt.field_count == 0 || !vt.fields[0].attribute_at_or_after) {  // no attributes or facets
    for (const field_match* f = vt.fields; f != end; ++f) f->routines->write(w, obj, *f, leaves);
    return;
  }
  if (vt.fields[0].facets_at_or_after && validating_writes()) check_table_on_write(vt, obj);
  const field_match* wildcard = nullptr;  // xsd:anyAttribute: after the declared attributes
  for (const field_match* f = vt.fields; f != end && f->attribute_at_or_after; ++f) {
    if (f->kind != field_kind::attribute) continue;
    if (f->any_attributes) [[unlikely]]
      wildcard = f;
    else
      f->routines->write(w, obj, *f, leaves);
  }
  if (wildcard != nullptr) [[unlikely]]
    write_any_attributes(
        w, *wildcard,
        *reinterpret_cast<const any_attributes*>(static_cast<const char*>(obj) + wildcard->offset));
  if (vt.fields[0].keeps_unknown) [[unlikely]]
    return write_table_with_unknown(w, vt, obj, leaves);
  for (const field_match* f = vt.fields; f != end; ++f)
    if (f->kind != field_kind::attribute) f->routines->write(w, obj, *f, leaves);
}

namespace {
// xsi:nil on an occurrence of a slot member: made nil (or absent) where the field allows it.
// 0: not nil, read the value; 1: done (nil read); -1: failed.
int read_member_nil(read_ctx& c, void* member, std::uint32_t occ, const field_match& f,
                    slot_fn slot) {
  const int nil = nil_state(c);
  if (nil <= 0) return nil;
  if (!f.nillable || slot(member, occ, slot_op::nil) == nullptr)
    return fail(c, errc::nil_not_allowed, "xsi:nil on an element that is not nillable") ? 1 : -1;
  return skip_nil_content(c) ? 1 : -1;
}

// One occurrence of a slot member: nothing (or xsi:nil) for an absent or nil one, else the
// element `write_value` writes, a failure named by the element and by the item's index.
template <class WriteValue>
void write_member(xml::writer& w, const field_match& f, const void* value, std::size_t index,
                  WriteValue write_value) {
  const auto write_one = [&] {
    if (value == nullptr) {
      if (f.nillable) write_nil(w, f.ns, f.write_name);
      return;
    }
    try {
      write_value();
    } catch (...) {
      rethrow_in_element(f.write_name.text());
    }
  };
  if (index == 0) return write_one();
  try {
    write_one();
  } catch (...) {
    rethrow_in_item(index);
  }
}
}  // namespace

bool read_table_member(read_ctx& c, void* member, std::uint32_t occ, const field_match& f,
                       slot_fn slot, const complex_vt& vt) {
  if (const int nil = read_member_nil(c, member, occ, f, slot)) return nil > 0;
  return read_table_value(c, vt, slot(member, occ, slot_op::value));
}

namespace {
void* member_of(void* obj, const field_match& f) noexcept {
  return static_cast<char*>(obj) + f.offset;
}
bool read_any_attributes(read_ctx& c, void* obj, const xml::attribute*, const field_match& f) {
  return capture_attributes(c, f, *static_cast<any_attributes*>(member_of(obj, f)));
}
constexpr field_codec make_any_attribute_routines() {
  field_codec r{};
  r.read_attr = &read_any_attributes;
  r.type = &describe<any_attributes>;
  return r;
}
}  // namespace

constinit const field_codec any_attribute_routines = make_any_attribute_routines();

bool read_table_field(read_ctx& c, void* obj, std::uint32_t occ, std::uint32_t,
                      const field_match& f) {
  const field_codec& r = *f.routines;
  return read_table_member(c, member_of(obj, f), occ, f, r.slot, r.vt());
}

bool read_group_field(read_ctx& c, void* obj, std::uint32_t occ, std::uint32_t,
                      const field_match& f) {
  const field_codec& r = *f.routines;
  return read_group(c, r.vt(), r.slot(member_of(obj, f), occ, slot_op::value));
}

int group_field_starts(const field_match& f, std::string_view ns, std::string_view local,
                       std::uint32_t&) {
  return group_starts(f.routines->vt(), ns, local);
}

void finalize_slot_field(void* obj, std::uint32_t count, const field_match& f) {
  f.routines->slot(member_of(obj, f), count, slot_op::trim);
}

void write_table_member(xml::writer& w, const field_match& f, const complex_vt& vt,
                        const void* value, std::size_t index) {
  write_member(w, f, value, index, [&] {
    w.start_element(f.ns, f.write_name);
    write_table(w, vt, value);
    w.end_element();
  });
}

namespace {
// Calls f with a zero unsigned integer of an enumeration's width `size` (1, 2, 4 or 8 bytes):
// the one place that turns the width into a type, for storing and loading a value.
template <class F>
decltype(auto) with_enum_width(std::uint8_t size, F f) {
  switch (size) {
    case 1:
      return f(std::uint8_t{});
    case 2:
      return f(std::uint16_t{});
    case 4:
      return f(std::uint32_t{});
    default:
      return f(std::uint64_t{});
  }
}
// The value i into an object of E at `out`, in E's own width (its bytes, as memcpy copies them).
void store_enum_index(void* out, std::uint32_t i, const enum_codec& e) {
  with_enum_width(e.size, [&](auto u) {
    u = static_cast<decltype(u)>(i);
    std::memcpy(out, &u, sizeof u);
  });
}
// The value of an object of E at `value`, sign-extended where E's underlying type is signed.
long long load_enum_value(const void* value, const enum_codec& e) {
  return with_enum_width(e.size, [&](auto u) -> long long {
    std::memcpy(&u, value, sizeof u);
    return e.is_signed ? static_cast<long long>(static_cast<std::make_signed_t<decltype(u)>>(u))
                       : static_cast<long long>(u);
  });
}
}  // namespace

namespace {
// An open_enum<E> at `out`: its text (the unknown value's), then its E.
std::string& open_text(void* out) noexcept {
  return *static_cast<std::string*>(out);
}
const std::string& open_text(const void* out) noexcept {
  return *static_cast<const std::string*>(out);
}
void* open_value(void* out) noexcept {
  return static_cast<char*>(out) + sizeof(std::string);
}
const void* open_value(const void* out) noexcept {
  return static_cast<const char*>(out) + sizeof(std::string);
}
errc parse_listed(std::string_view text, void* out, const enum_codec& e, bool keep) {
  if (e.parse != nullptr) return e.parse(text, out, keep);
  text = trim_space(text);
  for (std::uint32_t i = 0; i < e.count; ++i) {
    if (e.names[i] != text) continue;
    store_enum_index(out, i, e);
    return errc::ok;
  }
  return errc::unknown_enum;
}
}  // namespace

errc parse_enum_value(std::string_view text, void* out, const enum_codec& e, bool keep) {
  if (!e.open) return parse_listed(text, out, e, keep);
  const errc r = parse_listed(text, open_value(out), e, keep);
  if (r == errc::ok) {
    open_text(out).clear();
  } else if (r == errc::unknown_enum && keep) {
    open_text(out).assign(text);
    store_enum_index(open_value(out), e.unknown, e);
    return errc::ok;
  }
  return r;
}

std::string_view enum_value_text(const void* value, const enum_codec& e) {
  if (e.open) {
    if (load_enum_value(open_value(value), e) == e.unknown) return open_text(value);
    value = open_value(value);
  }
  if (e.text != nullptr) return e.text(value);
  const long long v = load_enum_value(value, e);
  if (v >= 0 && static_cast<unsigned long long>(v) < e.count) return e.names[v];
  throw_unknown_enum(v, e.name);
}

bool read_enum_member(read_ctx& c, void* member, std::uint32_t occ, const field_match& f,
                      slot_fn slot, const enum_codec& e) {
  if (const int nil = read_member_nil(c, member, occ, f, slot)) return nil > 0;
  void* value = slot(member, occ, slot_op::value);
  if (const xml::attribute* t = scan_xsi(c.r).type)
    if (!check_xsi_simple(c, *t, e.ns, e.name)) return false;
  return read_enum_simple(c, e, value, &f);
}

bool read_enum_leaf(read_ctx& c, void* member, std::uint32_t occ, const field_match& f,
                    slot_fn slot, const enum_codec& e) {
  void* value = slot(member, occ, slot_op::value);
  const std::string_view text = simple_text(c.r.text(), &f);
  const errc err = parse_enum_value(text, value, e, c.opts.keep_unknown_enums);
  return err == errc::ok || fail_simple(c, err, text, e.name);
}

void write_enum_member(xml::writer& w, const field_match& f, xml::leaf_namespace& leaves,
                       const enum_codec& e, const void* value, std::size_t index) {
  write_member(w, f, value, index, [&] {
    xml::leaf_namespace own{f.ns};
    w.text_element(f.in_type_ns ? leaves : own, f.write_name, enum_value_text(value, e));
  });
}

bool read_enum_field(read_ctx& c, void* obj, std::uint32_t occ, std::uint32_t,
                     const field_match& f) {
  const field_codec& r = *f.routines;
  return read_enum_member(c, member_of(obj, f), occ, f, r.slot, *r.enumeration);
}

bool read_enum_leaf_field(read_ctx& c, void* obj, std::uint32_t occ, const field_match& f) {
  const field_codec& r = *f.routines;
  return read_enum_leaf(c, member_of(obj, f), occ, f, r.slot, *r.enumeration);
}

void finalize_enum_field(void* obj, std::uint32_t count, const field_match& f) {
  const field_codec& r = *f.routines;
  void* member = member_of(obj, f);
  r.slot(member, count, slot_op::trim);  // a plain value absent: E{}
  if (count == 0 && r.plain && f.has_default)
    (void)parse_enum_value(f.default_text(), member, *r.enumeration);
}

errc parse_enum_list(std::string_view text, void* list, const enum_list_codec& l, bool keep) {
  l.clear(list);
  return xsd::detail::for_each_list_item(text, [&](std::string_view text_of_item) {
    void* item;
    try {
      item = l.append(list);
    } catch (...) {
      return errc::limit_exceeded;
    }
    return parse_enum_value(text_of_item, item, *l.item, keep);
  });
}

void write_enum_list_member(xml::writer& w, const field_match& f, const enum_list_codec& l,
                            const void* value, std::size_t index) {
  write_member(w, f, value, index, [&] {
    w.start_element(f.ns, f.write_name);
    std::string text;
    const auto [items, count] = l.items(value);
    for (std::size_t k = 0; k < count; ++k) {
      if (k != 0) text.push_back(' ');
      text.append(enum_value_text(static_cast<const char*>(items) + k * l.item_size, *l.item));
    }
    xsd::detail::write_text(w, text);
    w.end_element();
  });
}

void finalize_table(const complex_vt& vt, void* obj, const std::uint32_t* counts) {
  for (std::uint32_t i = 0; i < vt.field_count; ++i)
    if (const field_match& f = vt.fields[i]; f.resets) f.routines->finalize(obj, counts[i], f);
}

namespace {
/// A choice's alternatives as choice_names<N> keeps them: the descriptions right after the
/// names field_match::write_alternatives points to.
std::span<const choice_alternative> described_alternatives(const field_match& f) noexcept {
  if (f.alternative_count == 0) return {};
  static_assert(sizeof(xml::ncname) % alignof(choice_alternative) == 0);
  return {reinterpret_cast<const choice_alternative*>(f.write_alternatives + f.alternative_count),
          f.alternative_count};
}
}  // namespace

const facets* alternative_facets(const field_match& f, std::string_view local) noexcept {
  if (!f.has_facets) return nullptr;
  for (const choice_alternative& a : described_alternatives(f))
    if (a.name == local) return a.constraints;
  return nullptr;
}

const type_description& describe_table(table_description& s, field_description* own,
                                       const table_type_info& info, const complex_vt& vt) noexcept {
  if (const type_description* d = s.ready.load(std::memory_order_acquire)) return *d;
  static std::mutex making;
  const std::lock_guard<std::mutex> lock(making);
  if (const type_description* d = s.ready.load(std::memory_order_acquire)) return *d;
  const field_match* const fields = vt.fields + (vt.field_count - info.own_fields);
  for (std::uint32_t i = 0; i < info.own_fields; ++i) {
    const field_match& f = fields[i];
    // (xsd:any, xsd:anyAttribute: its namespace constraint, for a service's WSDL.)
    const std::string_view text = f.wildcard_namespaces ? f.default_value : f.default_text();
    own[i] = {f.name(),
              f.ns,
              f.any_attributes ? field_kind::any_attribute : f.kind,
              f.any_attributes ? 0 : f.min_occurs,  // (its position, for the reader)
              f.any_attributes ? 1 : f.max_occurs,
              f.nillable,
              f.required,
              f.has_default,
              text,
              f.polymorphic,
              f.routines->type,
              described_alternatives(f),
              f.has_facets && f.alternative_count == 0 ? f.constraints : nullptr};
  }
  s.d = {vt.name,
         vt.ns,
         vt.text_field < 0 ? type_kind::complex : type_kind::simple_content,
         info.anonymous,
         info.element_form,
         {own, info.own_fields},
         info.base,
         info.derived,
         {},
         info.abstract,
         info.group};
  s.ready.store(&s.d, std::memory_order_release);
  return s.d;
}

const type_description& describe_table(table_description& s, const table_type_info& info,
                                       const complex_vt& vt) noexcept {
  // `own` follows `s` (table::described, whose layout table.hpp asserts).
  return describe_table(s, reinterpret_cast<field_description*>(&s + 1), info, vt);
}

const complex_vt& extend_table(extension_view& v, void* storage, std::uint32_t capacity,
                               const complex_vt& own) noexcept {
  const complex_vt& base = own.base();  // made first, outside the lock
  static std::mutex making;
  const std::lock_guard<std::mutex> lock(making);
  if (const complex_vt* done = v.ready.load(std::memory_order_acquire)) return *done;
  const std::uint32_t inherited = base.field_count, n = inherited + own.field_count;
  if (n != capacity) {  // the table was made for another base
    std::fputs("lather: an extension's table does not match its base's view\n", stderr);
    std::abort();
  }
  field_match* const fields =
      std::uninitialized_copy_n(base.fields, inherited, static_cast<field_match*>(storage)) -
      inherited;
  std::uninitialized_copy_n(own.fields, own.field_count, fields + inherited);
  // The base's fields in this type's namespace: its simple children written with its prefix,
  // read whole where fields() would read them so (a base's field whose own type read it in
  // another way stays on the general path, which reads the same).
  for (std::uint32_t i = 0; i < inherited; ++i) {
    field_match& f = fields[i];
    f.in_type_ns = f.ns == own.ns;
    if (f.read_whole && !f.in_type_ns && !f.ns.empty()) f.read_whole = false;
    f.leaf_in_type_ns = f.read_whole && f.in_type_ns;
  }
  link_fields(fields, n);
  complex_vt& out = v.vt;
  out = own;
  out.fields = fields;
  out.field_count = n;
  out.text_field = base.text_field >= 0  ? base.text_field
                   : own.text_field >= 0 ? static_cast<int>(inherited) + own.text_field
                                         : -1;
  out.finalize = base.finalize != nullptr || own.finalize != nullptr ? &finalize_table : nullptr;
  v.ready.store(&out, std::memory_order_release);
  return out;
}

}  // namespace lather::bind::detail

namespace lather::bind {

error_info read_content(xml::reader& r, table_ref t, void* value, const read_options& opts) {
  detail::read_ctx c{r, opts};
  if (!detail::begin_read(c) || !detail::read_table_body(c, t.vt(), value))
    return detail::finish_read(c);
  return {};
}

error_info read(xml::reader& r, table_ref t, void* value, const read_options& opts) {
  detail::read_ctx c{r, opts};
  if (!detail::begin_read(c) || !detail::refuse_nil(c) ||
      !detail::read_table_value(c, t.vt(), value))
    return detail::finish_read(c);
  return {};
}

void write_content(xml::writer& w, table_ref t, const void* value) {
  try {
    detail::write_table(w, t.vt(), value);
  } catch (const xml::error&) {
    detail::rethrow_as_write_error();
  }
}

}  // namespace lather::bind

#define LATHER_BIND_INSTANTIATE_CODEC(...) template struct lather::bind::detail::codec<__VA_ARGS__>;
LATHER_BIND_LIBRARY_CODECS(LATHER_BIND_INSTANTIATE_CODEC)
