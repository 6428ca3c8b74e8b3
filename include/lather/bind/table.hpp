// lather/bind/table.hpp — bind a struct from a constant table of field descriptors.
//
// meta<T> describes a struct at compile time and binding it instantiates templates per field.
// A table describes it as data instead: per field its name, namespace, occurrence, offset in
// the struct and its member type's codec (how a std::string, a std::optional<Address>, ...
// is read and written: one per member type, shared by every field of that type). Small
// non-template routines (src/bind/table.cpp) read and write any struct from its table, with
// the same rules and the same bytes as the template binding. lather-wsdl2cpp writes tables
// for the structs it generates, where compile time is what counts:
//
//   // in the header, after meta<acme::Order> (its name and namespace):
//   LATHER_BIND_TABLE(acme::Order);
//   // in one .cpp file:
//   #include "lather/bind/table.hpp"
//   namespace {
//   LATHER_BIND_TABLE_FILE();  // lather::bind::table's names, the codecs local to the file
//   constexpr auto order_fields = fields("urn:acme",   // the namespace of acme::Order
//       attribute<std::string>("urn:acme", "id", offsetof(acme::Order, id)).required(),
//       element<std::vector<acme::Line>>("urn:acme", "line", offsetof(acme::Order, line)),
//       element<std::optional<std::string>>("urn:acme", "note", offsetof(acme::Order, note))
//           .unqualified());
//   }  // namespace
//   LATHER_BIND_TABLE_DEFINE(order_fields, acme::Order);
//
// Each field names the namespace of the type that declares it (a base type's fields come
// first, with the base's namespace and .inherited(); or, for a type derived by extension from
// a table-bound base, extension() lists its own fields only and
// LATHER_BIND_TABLE_DEFINE_EXTENSION puts the base's first at run time), then takes the
// modifiers of lather::field. A choice names its alternatives with alternatives<M>({"a", "b"}). The
// same table describes the type for schema generators (describe<acme::Order>(), describe.hpp). The
// codecs of the simple types (xsd_traits) in the usual shapes are compiled in the lather library.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "lather/bind/bind.hpp"
#include "lather/bind/describe.hpp"
#include "lather/bind/facets.hpp"

namespace lather::bind::detail {

/// Whether the library compiles codec<M> (LATHER_BIND_LIBRARY_CODECS, below).
template <class M>
inline constexpr bool library_codec = false;

/// How one member type M is read and written: the field (offset, names, occurrence) comes
/// from the table at run time, so each member type is compiled once, not once per field.
/// `Unit`, a type local to the file whose tables use the codec (element<M, Unit> etc.), gives
/// its functions internal linkage: no COMDAT group, section names and global symbols per
/// function in that file's object. void: one shared instance (the library's codecs).
template <class M, class Unit = void>
struct codec {
  using unit = Unit;
  static bool read(read_ctx& c, void* obj, std::uint32_t occ, std::uint32_t alt,
                   const field_match& f);
  static bool read_leaf(read_ctx& c, void* obj, std::uint32_t occ, const field_match& f);
  static bool read_attr(read_ctx& c, void* obj, const xml::attribute* a, const field_match& f);
  static void finalize(void* obj, std::uint32_t count, const field_match& f);
  /// An element field (write_text and write_any: the other kinds, so that this one does not
  /// test the kind for each field written).
  static void write(xml::writer& w, const void* obj, const field_match& f,
                    xml::leaf_namespace& leaves);
  static void write_text(xml::writer& w, const void* obj, const field_match& f,
                         xml::leaf_namespace& leaves);
  static void write_any(xml::writer& w, const void* obj, const field_match& f,
                        xml::leaf_namespace& leaves);
  static void write_attr(xml::writer& w, const void* obj, const field_match& f,
                         xml::leaf_namespace& leaves);
  /// A choice with an inline group alternative (field_codec::starts).
  static int starts(const field_match& f, std::string_view ns, std::string_view local,
                    std::uint32_t& alt);
  /// field_match::routines of a field of M of each kind: one constant each, shared by every
  /// such field of the file (of the program, for the library's codecs: compiled there).
  static const field_codec element_routines;
  /// An element that does not reset (a single value that must occur): without finalize, so
  /// that a member type whose fields all must occur compiles no finalize (for a struct, its
  /// move assignment and what that inlines).
  static const field_codec single_routines;
  static const field_codec attribute_routines;
  static const field_codec text_routines;
  static const field_codec any_routines;
};

/// field_match::routines of every table's xsd:anyAttribute field (its member is always an
/// any_attributes: no codec per file).
extern const field_codec any_attribute_routines;

// ---- the non-template routines (src/bind/table.cpp) ----

/// complex_vt::finalize for a table: each field's codec resets what did not occur.
void finalize_table(const complex_vt& vt, void* obj, const std::uint32_t* counts);
/// The fields' next_element, attribute_at_or_after and facets_at_or_after, which follow from
/// their kinds, facets and order alone: worked out by fields() at compile time and by
/// extend_table at run time.
constexpr void link_fields(field_match* fields, std::uint32_t n) noexcept {
  std::uint32_t next = n;
  bool attribute = false, facets = false, unknown = false;
  for (std::uint32_t i = n; i-- > 0;) {
    field_match& f = fields[i];
    f.next_element = next;
    if (f.any_attributes) {  // where it finds the other attributes (capture_attributes)
      f.min_occurs = i;
      f.max_occurs = n;
    }
    if (f.kind != field_kind::attribute && f.kind != field_kind::unknown) next = i;
    attribute = attribute || f.kind == field_kind::attribute;
    f.attribute_at_or_after = attribute;
    facets = facets || f.has_facets;
    f.facets_at_or_after = facets;
    unknown = unknown || f.kind == field_kind::unknown;
  }
  // write_table's one test for the usual type (no attributes, no facets, no unknown field) is
  // of this flag.
  if (n != 0 && (facets || unknown)) fields[0].attribute_at_or_after = true;
  if (n != 0) fields[0].keeps_unknown = unknown;
}
/// What describe<T>() of a table-bound T says beyond its view (LATHER_BIND_TABLE_DESCRIBE_):
/// one small constant per type, its pointers null for most.
struct table_type_info {
  describe_fn base;                      ///< describe<meta<T>::base>, or nullptr
  std::span<const describe_fn> derived;  ///< meta<T>::derived, flattened
  std::uint32_t own_fields;              ///< the last own_fields fields of the view are T's own
  form element_form;
  bool anonymous;
  bool abstract;
  bool group;  ///< group_type<T>
};
/// describe<T>() of a table-bound T, zero (.bss) until its first use.
struct table_description {
  std::atomic<const type_description*> ready;
  type_description d;
};
/// The description of a table-bound type, made once (whichever thread comes first) from its
/// view `vt` into `s` and `own` (room for info.own_fields): names, namespaces, occurrences and
/// defaults are the view's, each field's type its routines' (field_codec::type), a choice's
/// alternatives its choice_names'. None of it is a constant of its own: a constant description
/// costs a pointer, and in a position-independent program a load-time relocation, per name,
/// namespace and type of each field.
const type_description& describe_table(table_description& s, field_description* own,
                                       const table_type_info& info, const complex_vt& vt) noexcept;
/// The same with `own` right after `s` (lather::bind::table::described): one address less to
/// load in each describe<T>().
const type_description& describe_table(table_description& s, const table_type_info& info,
                                       const complex_vt& vt) noexcept;
/// The run-time view of a type derived by extension, made once (extend_table).
struct extension_view {
  std::atomic<const complex_vt*> ready;  ///< &vt once it is complete
  complex_vt vt;
};
/// The view of an extension (once, whichever thread comes first): the base's view (own.base())
/// first, then `own`'s fields, into `storage` (room for `capacity`), with what depends on the
/// position and on the type's namespace worked out again as fields() does.
const complex_vt& extend_table(extension_view& v, void* storage, std::uint32_t capacity,
                               const complex_vt& own) noexcept;

template <class M>
M& member_at(void* obj, const field_match& f) noexcept {
  return *reinterpret_cast<M*>(static_cast<char*>(obj) + f.offset);
}
template <class M>
const M& member_at(const void* obj, const field_match& f) noexcept {
  return *reinterpret_cast<const M*>(static_cast<const char*>(obj) + f.offset);
}

/// Whether a field of member type M may be read through read_leaf (see is_leaf_field).
template <class M>
inline constexpr bool leaf_member = [] {
  using X = value_type_of<M>;
  return !shape<M>::is_pointer && !is_variant<X>::value &&
         (simple_type<X> || enumeration_type<X>)&&!element_reading_type<X>;
}();

/// Whether M may be bound to an attribute: a simple value, plain or optional.
template <class M>
inline constexpr bool attribute_member = (simple_type<value_type_of<M>> ||
                                          enumeration_type<value_type_of<M>>)&&!shape<M>::is_vector
                                         && !shape<M>::is_pointer &&
                                         !is_nillable<slot_type<M>>::value;

template <class E>
std::string_view enum_text(const void* value) {
  return enum_name(*static_cast<const E*>(value));
}
template <class E>
errc parse_enum_text(std::string_view text, void* out, bool) {
  return parse_enum(text, *static_cast<E*>(out));
}
/// Whether E's values are 0, 1, ... in the order of meta<E>::values: its enum_codec is data.
template <class E>
consteval bool sequential_enum() {
  for (std::size_t i = 0; i < meta<E>::values.size(); ++i)
    if (static_cast<long long>(meta<E>::values[i].value) != static_cast<long long>(i)) return false;
  return sizeof(E) <= 8;
}
/// E's enum_codec: `names` (enum_names<E>()) looked up by the library where E is a
/// sequential_enum, else E's own functions; `open`: open_enum<E>'s.
template <class E, bool Open = false>
constexpr enum_codec make_enum_codec(const std::string_view* names) {
  enum_codec e{};
  if constexpr (Open) {
    e.open = true;
    e.unknown = static_cast<std::uint32_t>(open_enum<E>::unknown_value());
  }
  e.size = static_cast<std::uint8_t>(sizeof(E));
  e.name = meta<E>::name;
  e.ns = meta<E>::ns;
  if constexpr (sequential_enum<E>()) {
    e.names = names;
    e.count = static_cast<std::uint32_t>(meta<E>::values.size());
    e.is_signed = std::is_signed_v<std::underlying_type_t<E>>;
  } else {
    e.parse = &parse_enum_text<E>;
    e.text = &enum_text<E>;
  }
  return e;
}
template <class E>
inline constexpr auto enum_names_of = enum_names<E>();
/// E's codec where E has no LATHER_BIND_ENUM (an inline variable in each file that uses it).
template <class E>
inline constexpr enum_codec enum_codec_of = make_enum_codec<E>(enum_names_of<E>.data());
template <class E>
inline constexpr enum_codec open_enum_codec_of = make_enum_codec<E, true>(enum_names_of<E>.data());
/// Whether open_enum<E> may be: E's underlying type is fixed.
template <class E>
inline constexpr bool may_be_open = requires {
  E{std::underlying_type_t<E>{}};
};
/// The codec of E (or of open_enum<E>): the one LATHER_BIND_ENUM_DEFINE defines for the
/// program where E has LATHER_BIND_ENUM, else enum_codec_of<E> (open_enum_codec_of<E>).
template <class X>
constexpr const enum_codec& enum_codec_ref() noexcept {
  using E = enum_of_t<X>;
  constexpr bool open = open_enum_type<X>;
  if constexpr (requires { enum_defined<E>::codec; })
    return open ? enum_defined<E>::open_codec : enum_defined<E>::codec;
  else if constexpr (open)
    return open_enum_codec_of<E>;
  else
    return enum_codec_of<E>;
}

/// A simple-content type's text field into `m`.
template <class M>
bool read_text(read_ctx& c, M& m, const field_match& f) {
  if constexpr (enumeration_type<M>)
    return read_enum_simple(c, enum_codec_ref<M>(), &m, &f);
  else if constexpr (simple_type<M>)
    return read_simple(c, simple_parser<M>(c), &m, xsd_traits<M>::type_name, &f);
  else
    return fail(c, errc::xml_error, "a text field of a complex type");
}

/// Whether M holds values of a table-bound type (plain, optional, vector or nillable; not a
/// pointer). Its codec's read and write forward to the library (read_table_member,
/// write_table_member), which create, empty and trim the occurrences through table_slot<M>:
/// the value type's constructor and destructor are compiled into that one function of M, not
/// into each of its codec's functions.
template <class M>
inline constexpr bool table_member = table_bound<value_type_of<M>> && !shape<M>::is_pointer;

/// Whether M holds inline groups (group_type: plain, optional or vector): read and written in
/// place by the library (read_group_field, write_table), through table_slot<M> as a table_member.
template <class M>
inline constexpr bool group_member = group_type<value_type_of<M>> && !shape<M>::is_pointer;
/// Whether a choice (a std::variant) has an inline group alternative.
template <class V>
inline constexpr bool group_choice = false;
template <class... As>
inline constexpr bool group_choice<std::variant<As...>> = (group_type<As> || ...);

/// Whether M holds values of an enumeration (plain, optional, vector or nillable): read and
/// written like a table_member, through the enumeration's enum_codec.
template <class M>
inline constexpr bool enum_member =
    enumeration_type<value_type_of<M>> && !shape<M>::is_pointer && !is_bool_vector<M>;

/// An xsd:list of an enumeration.
template <class X>
struct is_enum_list : std::false_type {};
template <enumeration_type E>
struct is_enum_list<xsd::list<E>> : std::true_type {};
/// Whether M holds xsd:lists of an enumeration (plain, optional, vector or nillable): read like
/// an enum_member, the whole list one value (enum_list_value_of), written by the library.
template <class M>
inline constexpr bool enum_list_member =
    is_enum_list<value_type_of<M>>::value && !shape<M>::is_pointer;

template <class E>
void enum_list_clear(void* list) {
  static_cast<xsd::list<E>*>(list)->items.clear();
}
template <class E>
void* enum_list_append(void* list) {
  return &static_cast<xsd::list<E>*>(list)->items.emplace_back();
}
template <class E>
std::pair<const void*, std::size_t> enum_list_items(const void* list) {
  const std::vector<E>& items = static_cast<const xsd::list<E>*>(list)->items;
  return {items.data(), items.size()};
}
/// One per enumeration used in a list.
template <class E>
inline constexpr enum_list_codec enum_list_codec_of{&enum_codec_ref<E>(), sizeof(E),
                                                    &enum_list_clear<E>, &enum_list_append<E>,
                                                    &enum_list_items<E>};
template <class E>
errc parse_enum_list_thunk(std::string_view text, void* out, bool keep) {
  return parse_enum_list(text, out, enum_list_codec_of<E>, keep);
}
/// A list of E read as one simple value (xsd_traits<xsd::list<E>>'s names: xsi:type checked as
/// a built-in type's).
template <class E>
inline constexpr enum_codec enum_list_value_of{&parse_enum_list_thunk<E>, nullptr,
                                               list_item<E>::type_name, xsd_namespace};
template <class X>
struct list_item_of;
template <class E>
struct list_item_of<xsd::list<E>> {
  using type = E;
};

/// The occurrences of a table_member, enum_member or enum_list_member type M (see slot_op). Each
/// shape's lifetime code is written once: nil and trim share the one place that destroys values,
/// and nil and value the one that creates an item, so the value type's destructor and the vector's
/// growth are inlined once per member type, not once per operation.
template <class M, class Unit = void>
[[gnu::noinline]] void* table_slot(void* member, std::uint32_t occ, slot_op op) {
  M& m = *static_cast<M*>(member);
  using S = shape<M>;
  constexpr bool nillable_slot = is_nillable<slot_type<M>>::value;
  if (op != slot_op::value) {
    if constexpr (S::is_vector) {
      if (!nillable_slot && op == slot_op::nil) return nullptr;
      // Not erase(): that would instantiate the items' move assignment, never run at the end.
      // A nil item drops the items after it as well: a read that goes on creates them again,
      // and a complete read trims them anyway.
      while (m.size() > occ) m.pop_back();
    } else if constexpr (S::is_optional || nillable_slot) {
      if (op == slot_op::nil || occ == 0) m.reset();
    } else {
      if (op == slot_op::nil) return nullptr;
      if (occ == 0) m = M{};
    }
    if (op == slot_op::trim) return nullptr;
    if constexpr (!nillable_slot) return member;  // an optional made absent
  }
  auto& s = slot_of<Unit>(m, occ);  // a nil item of a vector or an optional is created here
  if constexpr (nillable_slot) {
    if (op == slot_op::nil) return member;
    if (!s) s.emplace();
    return &*s;
  } else {
    return &s;
  }
}

/// The value of a table_member's occurrence `s`, nullptr where it is absent or nil.
template <class Slot>
const void* table_value_ptr(const Slot& s) {
  if constexpr (is_nillable<Slot>::value || shape<Slot>::is_optional)
    return s ? table_value_ptr(*s) : nullptr;
  else
    return &s;
}

/// Calls write(value, index) for each occurrence of a table_member, enum_member or
/// enum_list_member M: each item of a vector with its index from 1, else the one value with 0;
/// value is nullptr where the occurrence is absent or nil (table_value_ptr), and an absent
/// std::optional<nillable<X>> has no occurrence (its nil one is written as xsi:nil).
template <class M, class Write>
void for_each_occurrence(const M& m, Write write) {
  if constexpr (shape<M>::is_vector) {
    std::size_t index = 0;
    for (const slot_type<M>& s : m) write(table_value_ptr(s), ++index);
  } else if constexpr (shape<M>::is_optional && is_nillable<slot_type<M>>::value) {
    if (m) write(table_value_ptr(*m), 0);
  } else {
    write(table_value_ptr(m), 0);
  }
}

template <class M, class Unit>
bool codec<M, Unit>::read(read_ctx& c, void* obj, std::uint32_t occ, std::uint32_t alt,
                          const field_match& f) {
  M& m = member_at<M>(obj, f);
  using S = shape<M>;
  using Slot = slot_type<M>;
  if (f.kind == field_kind::text) return read_text(c, m, f);
  if constexpr (table_member<M>) {
    (void)alt;
    return read_table_member(c, &m, occ, f, &table_slot<M, Unit>, vt_of<value_type_of<M>>());
  } else if constexpr (enum_member<M>) {
    (void)alt;
    return read_enum_member(c, &m, occ, f, &table_slot<M, Unit>,
                            enum_codec_ref<value_type_of<M>>());
  } else if constexpr (enum_list_member<M>) {
    (void)alt;
    using E = typename list_item_of<value_type_of<M>>::type;
    return read_enum_member(c, &m, occ, f, &table_slot<M, Unit>, enum_list_value_of<E>);
  } else if constexpr (S::is_optional || nullable_pointer<M>) {
    // A choice leaves xsi:nil to its alternative.
    if (const int nil = is_variant<Slot>::value ? 0 : nil_state(c)) {
      if (nil < 0) return false;
      if constexpr (is_nillable<Slot>::value) {
        slot_of<Unit>(m, occ).reset();
        return skip_nil_content(c);
      }
      if (!f.nillable)
        return fail(c, errc::nil_not_allowed, "xsi:nil on an element that is not nillable");
      m.reset();
      return skip_nil_content(c);
    }
    if constexpr (S::is_pointer)
      return read_pointer(c, m);
    else
      return read_slot_value(c, slot_of<Unit>(m, occ), alt, &f);
  } else if constexpr (is_bool_vector<M>) {
    bool b = false;
    if (!read_item_at(c, b, alt, &f)) return false;
    store_item(m, occ, b);
    return true;
  } else {
    return read_item_at(c, slot_of<Unit>(m, occ), alt, &f);
  }
}

template <class M, class Unit>
bool codec<M, Unit>::read_leaf(read_ctx& c, void* obj, std::uint32_t occ, const field_match& f) {
  if constexpr (enum_member<M>) {
    return read_enum_leaf(c, &member_at<M>(obj, f), occ, f, &table_slot<M, Unit>,
                          enum_codec_ref<value_type_of<M>>());
  } else if constexpr (enum_list_member<M>) {
    return read_enum_leaf(c, &member_at<M>(obj, f), occ, f, &table_slot<M, Unit>,
                          enum_list_value_of<typename list_item_of<value_type_of<M>>::type>);
  } else if constexpr (leaf_member<M>) {
    M& m = member_at<M>(obj, f);
    using X = value_type_of<M>;
    X* x;
    [[maybe_unused]] bool item = false;
    if constexpr (is_bool_vector<M>) {
      x = &item;
    } else if constexpr (is_nillable<slot_type<M>>::value) {
      auto& slot = slot_of<Unit>(m, occ);
      if (!slot) slot.emplace();
      x = &*slot;
    } else {
      x = &slot_of<Unit>(m, occ);
    }
    const std::string_view text = simple_text(c.r.text(), &f);
    errc e;
    if constexpr (enum_type<X>) {
      e = parse_enum(text, *x);
      if (e != errc::ok) return fail_simple(c, e, text, meta<X>::name);
    } else {
      e = xsd_traits<X>::parse(text, *x, c.r);
      if (e != errc::ok) [[unlikely]]
        e = reread_lenient(c, text, *x, e);
      if (e != errc::ok) return fail_simple(c, e, text, xsd_traits<X>::type_name);
    }
    if constexpr (is_bool_vector<M>) store_item(m, occ, item);
    return true;
  } else {
    (void)obj, (void)occ;
    return fail_not_simple(c, f, false);
  }
}

template <class M, class Unit>
bool codec<M, Unit>::read_attr(read_ctx& c, void* obj, const xml::attribute* a,
                               const field_match& f) {
  if constexpr (attribute_member<M>) {
    M& m = member_at<M>(obj, f);
    if (!a && !f.has_default) {
      if (f.required) return fail(c, errc::missing_attribute, "required attribute is missing");
      if constexpr (shape<M>::is_optional)
        m.reset();
      else
        m = M{};
      return true;
    }
    using X = value_type_of<M>;
    const std::string_view text = a ? a->value : f.default_text();
    X& x = slot_of(m, 0);
    if constexpr (enumeration_type<X>) {
      const enum_codec& e = enum_codec_ref<X>();
      if (parse_enum_value(text, &x, e, c.opts.keep_unknown_enums) != errc::ok)
        return fail_enum(c, text, e.name);
    } else {
      if (f.has_facets && a) [[unlikely]]  // tested here, where f is at hand anyway
        return read_attribute_with_facets(c, simple_parser<X>(c), &x, text,
                                          xsd_traits<X>::type_name, f);
      errc e = xsd_traits<X>::parse(text, x, c.r);
      if (e != errc::ok) [[unlikely]]
        e = reread_lenient(c, text, x, e);
      if (e != errc::ok) return fail_value(c, e, text, xsd_traits<X>::type_name);
    }
    return true;
  } else {
    (void)obj, (void)a;
    return fail_not_simple(c, f, true);
  }
}

template <class M, class Unit>
void codec<M, Unit>::finalize(void* obj, std::uint32_t count, const field_match& f) {
  M& m = member_at<M>(obj, f);
  using S = shape<M>;
  if constexpr (table_member<M>) {
    table_slot<M, Unit>(&m, count, slot_op::trim);
  } else if constexpr (S::is_vector) {
    // Not erase(): that would instantiate the items' move assignment, never run at the end.
    while (m.size() > count) m.pop_back();
  } else if constexpr (S::is_optional || nullable_pointer<M>) {
    if (count == 0) m.reset();
  } else {
    if (count != 0) return;
    if (f.has_default) {
      if constexpr (enumeration_type<M>) {
        if (parse_enum_value(f.default_text(), &m, enum_codec_ref<M>()) == errc::ok) return;
      } else if constexpr (requires { xsd_traits<M>::parse(f.default_text(), m); }) {
        if (xsd_traits<M>::parse(f.default_text(), m) == errc::ok) return;
      }
    }
    m = M{};
  }
}

/// One occurrence of an element field (write_slot's counterpart), of codec<M, Unit>.
template <class Unit, class Slot>
void write_table_slot(xml::writer& w, const Slot& s, const field_match& f,
                      xml::leaf_namespace& leaves) {
  if constexpr (is_nillable<Slot>::value) {
    if (!s) return write_nil(w, f.ns, f.write_name);
    write_table_slot<Unit>(w, *s, f, leaves);
  } else if constexpr (is_variant<Slot>::value) {
    write_alternative(w, f.ns, f.write_alternatives, s, alternative_indexes<Slot>{});
  } else if constexpr (simple_type<Slot> || enumeration_type<Slot>) {
    if (f.in_type_ns)
      write_value(w, f.ns, f.write_name, s, &leaves);
    else
      write_value(w, f.ns, f.write_name, s);
  } else {  // `leaves` is for simple values only: one call, not one per branch
    write_value(w, f.ns, f.write_name, s);
  }
}

template <class M, class Unit>
void codec<M, Unit>::write(xml::writer& w, const void* obj, const field_match& f,
                           xml::leaf_namespace& leaves) {
  const M& m = member_at<M>(obj, f);
  using S = shape<M>;
  if constexpr (group_member<M>) {  // in place: no element of its own
    const complex_vt& vt = vt_of<value_type_of<M>>();
    for_each_occurrence(m, [&](const void* v, std::size_t) {
      if (v != nullptr) write_table(w, vt, v);
    });
  } else if constexpr (table_member<M>) {
    const complex_vt& vt = vt_of<value_type_of<M>>();
    for_each_occurrence(
        m, [&](const void* v, std::size_t index) { write_table_member(w, f, vt, v, index); });
  } else if constexpr (enum_member<M>) {
    const enum_codec& e = enum_codec_ref<value_type_of<M>>();
    for_each_occurrence(
        m, [&](const void* v, std::size_t index) { write_enum_member(w, f, leaves, e, v, index); });
  } else if constexpr (enum_list_member<M>) {
    const enum_list_codec& l = enum_list_codec_of<typename list_item_of<value_type_of<M>>::type>;
    for_each_occurrence(
        m, [&](const void* v, std::size_t index) { write_enum_list_member(w, f, l, v, index); });
  } else if constexpr (S::is_vector) {
    std::size_t index = 0;
    for (const slot_type<M>& s : m) {  // bool for a std::vector<bool>'s proxies
      ++index;
      try {
        write_table_slot<Unit>(w, s, f, leaves);
      } catch (...) {
        rethrow_in_item(index);
      }
    }
  } else if constexpr (S::is_optional) {
    // An empty optional<nillable<X>> is absent (as write_child).
    if (m)
      write_table_slot<Unit>(w, *m, f, leaves);
    else if (!is_nillable<slot_type<M>>::value && f.nillable)
      write_nil(w, f.ns, f.write_name);
  } else if constexpr (S::is_pointer) {
    if (has_object(m))
      write_polymorphic(w, f.ns, f.write_name, m);
    else if (f.nillable)
      write_nil(w, f.ns, f.write_name);
  } else {
    write_table_slot<Unit>(w, m, f, leaves);
  }
}

/// Whether {ns}local may begin an inline group alternative of the choice V (starts_fn): the
/// first that begins with it by name, else the first whose wildcard takes it.
template <class A>
int alternative_starts(std::string_view ns, std::string_view local) noexcept {
  if constexpr (group_type<A>)
    return group_starts(vt_of<A>(), ns, local);
  else
    return (void)ns, (void)local, 0;
}
template <class V, std::size_t... I>
int group_alternative_starts(std::string_view ns, std::string_view local, std::uint32_t& alt,
                             std::index_sequence<I...>) {
  int found = 0;
  (void)([&] {
    const int s = alternative_starts<std::variant_alternative_t<I, V>>(ns, local);
    if (s != 0 && (found == 0 || s == 1)) {
      alt = static_cast<std::uint32_t>(I);
      found = s;
    }
    return s == 1;
  }() || ...);
  return found;
}

template <class M, class Unit>
int codec<M, Unit>::starts(const field_match&, std::string_view ns, std::string_view local,
                           std::uint32_t& alt) {
  using V = slot_type<M>;
  if constexpr (group_choice<V>)
    return group_alternative_starts<V>(ns, local, alt, alternative_indexes<V>{});
  else
    return (void)ns, (void)local, (void)alt, 0;
}

template <class M, class Unit>
void codec<M, Unit>::write_text(xml::writer& w, const void* obj, const field_match& f,
                                xml::leaf_namespace&) {
  if constexpr (enumeration_type<M>)
    w.text(enum_value_text(&member_at<M>(obj, f), enum_codec_ref<M>()));
  else if constexpr (simple_type<M>)
    write_simple_text(w, member_at<M>(obj, f));
}

template <class M, class Unit>
void codec<M, Unit>::write_any(xml::writer& w, const void* obj, const field_match& f,
                               xml::leaf_namespace&) {
  if constexpr (std::is_same_v<slot_type<M>, any_element>) {
    const M& m = member_at<M>(obj, f);
    if constexpr (shape<M>::is_vector) {
      for (const any_element& a : m) replay_element(w, a.xml, false, {}, {});
    } else if constexpr (shape<M>::is_optional) {
      if (m) replay_element(w, m->xml, false, {}, {});
    } else {
      replay_element(w, m.xml, false, {}, {});
    }
  } else {
    (void)w, (void)obj, (void)f;
  }
}

template <class M, class Unit>
void codec<M, Unit>::write_attr(xml::writer& w, const void* obj, const field_match& f,
                                xml::leaf_namespace&) {
  if constexpr (attribute_member<M>) {
    const M& m = member_at<M>(obj, f);
    try {
      using X = value_type_of<M>;
      if constexpr (enumeration_type<X> && shape<M>::is_optional) {
        if (m) w.attribute(f.ns, f.write_name, enum_value_text(&*m, enum_codec_ref<X>()));
      } else if constexpr (enumeration_type<X>) {
        w.attribute(f.ns, f.write_name, enum_value_text(&m, enum_codec_ref<X>()));
      } else if constexpr (shape<M>::is_optional) {
        if (m) write_attribute_value(w, f.ns, f.write_name, *m);
      } else {
        write_attribute_value(w, f.ns, f.write_name, m);
      }
    } catch (...) {
      rethrow_in_attribute(f.write_name.text());
    }
  } else {
    (void)w, (void)obj, (void)f;
  }
}

/// Only the routines a field's kind uses are instantiated: read_leaf where M may be read whole
/// (the field reads through it where fields() decides so), finalize for elements and any (run
/// where the field resets).
template <class C, class M, field_kind Kind, bool Resets = true>
constexpr field_codec routines_of() {
  field_codec r{};
  r.type = &describe<enum_of_t<typename shape<value_type_of<M>>::value_type>>;
  if constexpr (Kind == field_kind::element && (table_member<M> || enum_member<M>)) {
    // Read and finalized by the library through the occurrences' function and the value
    // type's view or codec: M compiles table_slot and write, not read and finalize.
    using X = value_type_of<M>;
    r.slot = &table_slot<M, typename C::unit>;
    r.write = &C::write;
    if constexpr (group_member<M>) {
      r.read_elem = &read_group_field;
      r.starts = &group_field_starts;
      r.vt = &vt_of<X>;
      if constexpr (Resets) r.finalize = &finalize_slot_field;
    } else if constexpr (table_member<M>) {
      r.read_elem = &read_table_field;
      r.vt = &vt_of<X>;
      if constexpr (Resets) r.finalize = &finalize_slot_field;
    } else {
      r.read_elem = &read_enum_field;
      r.read_leaf = &read_enum_leaf_field;
      r.enumeration = &enum_codec_ref<X>();
      r.plain = std::is_same_v<M, X>;
      if constexpr (Resets) r.finalize = &finalize_enum_field;
    }
  } else if constexpr (Kind == field_kind::attribute) {
    r.read_attr = &C::read_attr;
    r.write = &C::write_attr;
  } else {
    r.read_elem = &C::read;
    if constexpr (Kind == field_kind::text) {
      r.write = &C::write_text;
    } else {
      if constexpr (Kind == field_kind::any) {
        r.write = &C::write_any;
      } else {
        r.write = &C::write;
        if constexpr (leaf_member<M>) r.read_leaf = &C::read_leaf;
        if constexpr (group_choice<slot_type<M>>) r.starts = &C::starts;
      }
      if constexpr (Resets) r.finalize = &C::finalize;
    }
  }
  return r;
}
template <class M, class Unit>
constinit const field_codec codec<M, Unit>::element_routines =
    routines_of<codec<M, Unit>, M, field_kind::element>();
template <class M, class Unit>
constinit const field_codec codec<M, Unit>::single_routines =
    routines_of<codec<M, Unit>, M, field_kind::element, false>();
template <class M, class Unit>
constinit const field_codec codec<M, Unit>::attribute_routines =
    routines_of<codec<M, Unit>, M, field_kind::attribute>();
template <class M, class Unit>
constinit const field_codec codec<M, Unit>::text_routines =
    routines_of<codec<M, Unit>, M, field_kind::text>();
template <class M, class Unit>
constinit const field_codec codec<M, Unit>::any_routines =
    routines_of<codec<M, Unit>, M, field_kind::any>();

// Not constexpr on purpose: reached only while a table is evaluated, where calling it is an
// error whose message names it (field_match keeps a choice's names where a default would be).
inline void a_choice_has_no_default() {}
inline void a_choice_has_no_facets() {}
inline void facets_come_after_the_default() {}
inline void the_facets_hold_the_default() {}
inline void namespaces_are_for_any_fields() {}
inline void one_any_attribute_per_type() {}

}  // namespace lather::bind::detail

namespace lather::bind::table {

/// One field of a table, built by element(), attribute(), text(), any() or choice() and refined
/// with the modifiers of lather::field; fields() resolves it.
struct field {
  detail::field_match m;
  std::string_view owner_ns;  ///< the namespace of the type that declares the field
  form element_form = form::unset;
  bool has_ns = false;
  bool is_inherited = false;
  /// An element whose member type may be read whole (its routines have read_leaf).
  bool has_leaf = false;
  /// An element's routines where it does not reset (fields() picks them): codec::single_routines.
  const bind::detail::field_codec* single = nullptr;
  bool repeated = false;  ///< a vector: its tail beyond the items read is trimmed

  consteval field min(std::uint32_t n) const {
    field f = *this;
    f.m.min_occurs = n;
    return f;
  }
  consteval field max(std::uint32_t n) const {
    field f = *this;
    f.m.max_occurs = n;
    return f;
  }
  consteval field nillable() const {
    field f = *this;
    f.m.nillable = true;
    return f;
  }
  consteval field required() const {
    field f = *this;
    f.m.required = true;
    return f;
  }
  consteval field qualified() const {
    field f = *this;
    f.element_form = form::qualified;
    return f;
  }
  consteval field unqualified() const {
    field f = *this;
    f.element_form = form::unqualified;
    return f;
  }
  consteval field in_namespace(std::string_view uri) const {
    field f = *this;
    f.has_ns = true;
    f.m.ns = uri;
    return f;
  }
  consteval field default_value(std::string_view text) const {
    field f = *this;
    if (f.m.alternative_count != 0) bind::detail::a_choice_has_no_default();
    if (f.m.has_facets) bind::detail::facets_come_after_the_default();
    f.m.has_default = true;
    std::construct_at(&f.m.default_value, text);  // clang 14: not by assignment
    return f;
  }
  /// The XSD facets of the field's type (lather/bind/facets.hpp), checked on read where
  /// read_options::validate_facets and on write where write_options::validate_facets (all of a
  /// type's fields before it is written): a simple element, attribute or text field, not a
  /// choice (its alternatives take theirs in alternatives()).
  /// After .default_value(), whose text `x` then holds too (x.default_value).
  consteval field facets(const bind::facets& x) const {
    field f = *this;
    if (f.m.alternative_count != 0) bind::detail::a_choice_has_no_facets();
    if (f.m.has_default && x.default_value != f.m.default_value)
      bind::detail::the_facets_hold_the_default();
    f.m.has_facets = true;
    f.has_leaf = false;  // read through read_simple, which checks them
    std::construct_at(&f.m.constraints, &x);
    return f;
  }
  /// An any() or any_attribute() field's namespace constraint, as XSD's namespace="..." writes
  /// it: ##any (the default), ##other, or a list of URIs, ##targetNamespace and ##local;
  /// ##targetNamespace and ##other name the field's namespace (its type's unless
  /// .in_namespace()). The wildcard takes no element outside it: a choice reads such an element
  /// as another alternative's, a sequence as an unexpected element; an attribute outside it is
  /// ignored. Described (describe<T>(), a service's WSDL) as given.
  consteval field namespaces(std::string_view constraint) const {
    field f = *this;
    if (f.m.kind != field_kind::any && !f.m.any_attributes)
      bind::detail::namespaces_are_for_any_fields();
    f.m.wildcard_namespaces = !constraint.empty();
    std::construct_at(&f.m.default_value, constraint);
    return f;
  }
  /// A field of a base type (they come first): not described as the type's own.
  consteval field inherited() const {
    field f = *this;
    f.is_inherited = true;
    return f;
  }
};

namespace detail {
/// The element names of a choice and their types (bind::detail::choice_names). In a detail
/// namespace, so that a call choice<M>(..., names) does not find table::choice by
/// argument-dependent lookup beside a file's own (LATHER_BIND_TABLE_FILE).
using bind::detail::choice_names;
template <class... As, std::size_t N, std::size_t... I>
consteval choice_names<N> make_alternatives(const std::string_view (&names)[N],
                                            const std::array<const bind::facets*, N>& constraints,
                                            std::index_sequence<I...>, std::variant<As...>*) {
  return {{xml::ncname(names[I])...},
          {choice_alternative{names[I], &describe<typename bind::detail::declared_type<As>::type>,
                              is_nillable<As>::value, constraints[I]}...}};
}
}  // namespace detail
using detail::choice_names;
/// The element names of the alternatives of choice member type M (a std::variant, or an
/// optional or vector of one), in the variant's order.
template <class M, std::size_t N>
consteval choice_names<N> alternatives(const std::string_view (&names)[N]) {
  using V = value_type_of<M>;
  static_assert(std::variant_size_v<V> == N, "one element name per alternative");
  return detail::make_alternatives(names, std::array<const bind::facets*, N>{},
                                   std::make_index_sequence<N>{}, static_cast<V*>(nullptr));
}
/// The same with each alternative's facets (lather/bind/facets.hpp; nullptr for one without),
/// checked as a field's are (.facets()) on the value of the alternative that occurs:
///   alternatives<M>({"code", "count"}, {&code_facets, nullptr})
template <class M, std::size_t N>
consteval choice_names<N> alternatives(const std::string_view (&names)[N],
                                       const bind::facets* const (&constraints)[N]) {
  using V = value_type_of<M>;
  static_assert(std::variant_size_v<V> == N, "one element name per alternative");
  std::array<const bind::facets*, N> each{};
  for (std::size_t i = 0; i < N; ++i) each[i] = constraints[i];
  return detail::make_alternatives(names, each, std::make_index_sequence<N>{},
                                   static_cast<V*>(nullptr));
}

/// The fields of a table (fields() makes it): how the binding reads and writes them, and so
/// how describe<T>() describes them (the base types' `inherited` fields first, described by
/// describe<base>). The binding's view (complex_vt) copies them, so the table itself is not
/// in the program.
template <std::size_t N>
struct field_table {
  std::array<bind::detail::field_match, N> match;
  std::size_t inherited = 0;
  /// An extension's table (extension()): how many fields its base's view has, not repeated
  /// here.
  std::size_t base_fields = 0;
  /// Some field has something to reset after a complete read (field_match::resets): the table
  /// has a complex_vt::finalize.
  bool resets = false;
};

namespace detail {
template <class M, field_kind Kind, class Unit>
consteval field make(std::string_view owner_ns, std::string_view name, std::size_t offset) {
  using S = shape<M>;
  // The library's codec where it has one, else the file's own.
  using codec =
      bind::detail::codec<M, std::conditional_t<bind::detail::library_codec<M>, void, Unit>>;
  field f{};
  f.owner_ns = owner_ns;
  f.m.write_name = xml::ncname(name);
  f.m.kind = Kind;
  f.m.min_occurs = S::min;
  f.m.max_occurs = S::max;
  f.m.offset = static_cast<std::uint32_t>(offset);
  f.m.nillable = is_nillable<slot_type<M>>::value;
  f.m.polymorphic = S::is_pointer || shape<slot_type<M>>::is_pointer;
  f.m.group = Kind == field_kind::element &&
              (bind::detail::group_member<M> || bind::detail::group_choice<slot_type<M>>);
  f.repeated = S::is_vector;
  if constexpr (Kind == field_kind::attribute) {
    f.m.routines = &codec::attribute_routines;
  } else if constexpr (Kind == field_kind::text) {
    f.m.routines = &codec::text_routines;
  } else if constexpr (Kind == field_kind::any) {
    f.m.routines = &codec::any_routines;
  } else {
    f.m.routines = &codec::element_routines;
    f.single = &codec::single_routines;
  }
  f.has_leaf = Kind == field_kind::element && bind::detail::leaf_member<M>;
  return f;
}
// Not constexpr on purpose: reached only while a table is evaluated, where calling it is an
// error whose message names it.
inline void inherited_fields_come_first() {}
// (Plain constexpr, and the consteval calls above in return statements: clang 14 rejects a
// consteval call that initializes a variable inside a consteval function template.)
constexpr field with_occurs(field f, std::uint32_t min, std::uint32_t max) {
  f.m.min_occurs = min;
  f.m.max_occurs = max;
  return f;
}
template <std::size_t N>
constexpr field with_alternatives(field f, const choice_names<N>& names) {
  if (f.m.has_default) bind::detail::a_choice_has_no_default();
  f.m.alternative_count = static_cast<std::uint32_t>(N);
  f.m.write_alternatives = names.checked.data();
  for (const choice_alternative& a : names.described)  // alternative_facets finds them
    f.m.has_facets = f.m.has_facets || a.constraints != nullptr;
  return f;
}
}  // namespace detail

/// A child element of member type M at `offset` in the struct (lather::element).
template <class M, class Unit = void>
consteval field element(std::string_view owner_ns, std::string_view name, std::size_t offset) {
  bind::detail::check_name(name);
  return detail::make<M, field_kind::element, Unit>(owner_ns, name, offset);
}
/// An attribute (lather::attribute: optional unless .required(), unqualified unless
/// .qualified()).
template <class M, class Unit = void>
consteval field attribute(std::string_view owner_ns, std::string_view name, std::size_t offset) {
  bind::detail::check_name(name);
  return detail::with_occurs(detail::make<M, field_kind::attribute, Unit>(owner_ns, name, offset),
                             0, 1);
}
/// The text value of a simple-content type (lather::text).
template <class M, class Unit = void>
consteval field text(std::string_view owner_ns, std::size_t offset) {
  return detail::with_occurs(detail::make<M, field_kind::text, Unit>(owner_ns, {}, offset), 1, 1);
}
/// xsd:any over an any_element member, or an optional or vector of them (lather::any).
template <class M, class Unit = void>
consteval field any(std::string_view owner_ns, std::size_t offset) {
  static_assert(std::is_same_v<slot_type<M>, any_element>, "any() needs any_element members");
  return detail::make<M, field_kind::any, Unit>(owner_ns, {}, offset);
}
/// The child elements no other field takes, kept in the unknown_elements member at `offset`
/// (lather::unknown, lather/bind/unknown.hpp): not part of the schema. Read and written by the
/// library (no codec of the file's).
consteval field unknown(std::string_view owner_ns, std::size_t offset) {
  field f{};
  f.owner_ns = owner_ns;
  f.has_ns = true;  // none: its elements are in any namespace
  f.m.kind = field_kind::unknown;
  f.m.min_occurs = 0;
  f.m.max_occurs = unbounded;
  f.m.offset = static_cast<std::uint32_t>(offset);
  f.m.routines = &bind::detail::unknown_routines;
  f.repeated = true;
  return f;
}
/// xsd:anyAttribute over an any_attributes member (lather::any_attribute): the attributes no
/// other field of the type takes, written after them. One per type, its bases' included.
consteval field any_attribute(std::string_view owner_ns, std::size_t offset) {
  field f{};
  f.owner_ns = owner_ns;
  f.m.write_name = xml::ncname(std::string_view{});
  f.m.kind = field_kind::attribute;  // to the reader's loops; told apart by any_attributes
  f.m.any_attributes = true;
  f.m.min_occurs = 0;
  f.m.max_occurs = 1;
  f.m.offset = static_cast<std::uint32_t>(offset);
  f.m.routines = &bind::detail::any_attribute_routines;
  return f;
}
/// xsd:choice over a std::variant member, or an optional or vector of one (lather::choice).
template <class M, class Unit = void, std::size_t N>
consteval field choice(std::string_view owner_ns, std::size_t offset,
                       const choice_names<N>& names) {
  static_assert(std::variant_size_v<slot_type<M>> == N, "one element name per alternative");
  return detail::with_alternatives(detail::make<M, field_kind::element, Unit>(owner_ns, {}, offset),
                                   names);
}

/// The fields of a struct whose namespace is `type_ns`, in schema order (its base's first):
/// namespaces resolved as meta<T>'s are, and what the reader needs precomputed.
template <class... F>
consteval field_table<sizeof...(F)> fields(std::string_view type_ns, F... f) {
  std::array<field, sizeof...(F)> in{f...};
  field_table<sizeof...(F)> out{};
  bool wildcard = false;
  for (std::size_t i = 0; i < in.size(); ++i) {
    field& x = in[i];
    bind::detail::field_match& m = x.m;
    if (m.any_attributes && std::exchange(wildcard, true))
      bind::detail::one_any_attribute_per_type();
    if (!x.has_ns) {
      form fm = x.element_form;
      if (fm == form::unset)  // (an anyAttribute's: its type's, which its constraint names)
        fm = m.kind == field_kind::attribute && !m.any_attributes ? form::unqualified
                                                                  : form::qualified;
      m.ns = fm == form::qualified ? x.owner_ns : std::string_view{};
    }
    m.in_type_ns = m.ns == type_ns;
    if (x.has_leaf && m.alternative_count == 0 && m.write_name.checked() &&
        (m.in_type_ns || m.ns.empty())) {
      m.read_whole = true;
      m.leaf_in_type_ns = m.in_type_ns;
    }
    // A complete read checks that each element occurred min_occurs times: a single value
    // that must occur has nothing left to reset (attributes and text never have).
    const bool resets = m.kind != field_kind::attribute && m.kind != field_kind::text &&
                        (x.repeated || m.min_occurs == 0);
    m.resets = resets;
    if (!resets && m.kind == field_kind::element) m.routines = x.single;
    out.resets = out.resets || resets;
    out.match[i] = m;
    if (x.is_inherited) {
      if (out.inherited != i) detail::inherited_fields_come_first();
      out.inherited = i + 1;
    }
  }
  bind::detail::link_fields(out.match.data(), static_cast<std::uint32_t>(out.match.size()));
  return out;
}

namespace detail {
// Not constexpr on purpose, as inherited_fields_come_first.
inline void an_extension_repeats_no_base_field() {}
template <std::size_t N>
constexpr field_table<N> with_base(field_table<N> t, std::size_t base_fields) {
  if (t.inherited != 0) an_extension_repeats_no_base_field();
  t.base_fields = base_fields;
  return t;
}
}  // namespace detail

/// The fields of a type derived by extension from a table-bound base, its own only (`f` as
/// fields() takes them): the base's view (`base_fields` fields, its bases' included) is not
/// repeated. LATHER_BIND_TABLE_DEFINE_EXTENSION binds it: the
/// run-time view puts the base's fields first, as XSD extension orders them.
template <class... F>
consteval field_table<sizeof...(F)> extension(std::string_view type_ns, std::size_t base_fields,
                                              F... f) {
  return detail::with_base(fields(type_ns, f...), base_fields);
}

namespace detail {
template <std::size_t N>
constexpr int text_field(const field_table<N>& f) {
  for (std::size_t i = 0; i < N; ++i)
    if (f.match[i].kind == field_kind::text) return static_cast<int>(i);
  return -1;
}
}  // namespace detail

/// The run-time view of T (meta<T> names it and its hierarchy) over `fields`. `Unit`, a type
/// local to the function that defines vt_of<T>, gives T's list of derived views (derived_vts)
/// internal linkage.
template <class T, class Unit = void, std::size_t N>
constexpr bind::detail::complex_vt complex(const field_table<N>& f,
                                           const std::array<bind::detail::field_match, N>& match) {
  return {meta<T>::name,
          meta<T>::ns,
          match.data(),
          static_cast<std::uint32_t>(N),
          detail::text_field(f),
          f.resets ? &bind::detail::finalize_table : nullptr,
          bind::detail::base_vt_fn<T>(),
          bind::detail::derived_vts_fn<T, Unit>()};
}

/// What describe<T>() says of T beyond its view, `own` of whose fields are T's own.
template <class T>
constexpr bind::detail::table_type_info type_info(std::size_t own) {
  return {bind::detail::base_describer<T>(),
          bind::detail::derived_describers<T>,
          static_cast<std::uint32_t>(own),
          bind::detail::type_form<T>(),
          bind::detail::anonymous_type<T>(),
          abstract_type<T>,
          group_type<T>};
}

/// What vt_of<T>() returns, with the fields it points to: one constant, not two (complex()
/// takes the address of `match` while `x` is being initialized, and is constexpr, not consteval,
/// for that: clang 14 does not take such a consteval call as a constant expression).
template <std::size_t N>
struct bound {
  std::array<bind::detail::field_match, N> match;
  bind::detail::complex_vt vt;
};
/// vt_of<T>() of an extension (LATHER_BIND_TABLE_DEFINE_EXTENSION): its view, filled on first
/// use from the base's view and the own fields, with room for N fields. Zero until then, so
/// the program carries no bytes of it (.bss), and no guard: one load tests it on each use.
template <std::size_t N>
struct extended {
  bind::detail::extension_view view;
  alignas(bind::detail::field_match) std::byte fields[N * sizeof(bind::detail::field_match)];

  const bind::detail::complex_vt& get(const bind::detail::complex_vt& own) noexcept {
    const bind::detail::complex_vt* v = view.ready.load(std::memory_order_acquire);
    return v != nullptr
               ? *v
               : bind::detail::extend_table(view, fields, static_cast<std::uint32_t>(N), own);
  }
};
/// An extension's base fields keep their offsets: the base is at the start of T (the first
/// base of a single inheritance, polymorphic if T is).
template <class T>
consteval bool extends_table_at_start() {
  using B = typename meta<T>::base;
  static_assert(table_bound<B>, "an extension's base is bound through a table");
  static_assert(std::is_base_of_v<B, T> && (std::is_polymorphic_v<B> || !std::is_polymorphic_v<T>),
                "the base's fields are at the same offsets in T");
  return true;
}

/// What describe<T>() returns, with the own fields' descriptions it points to: zero (.bss)
/// until describe_table fills it.
template <std::size_t Own>
struct described {
  bind::detail::table_description s;
  std::array<field_description, Own> own;
};
static_assert(offsetof(described<1>, own) == sizeof(bind::detail::table_description) &&
                  offsetof(described<3>, own) == sizeof(bind::detail::table_description),
              "describe_table finds `own` right after `s`");

/// One type's entry in the views of a file (LATHER_BIND_TABLE_VIEW): its fields, its view (for
/// an extension, of its own fields) and what describe<T>() says beyond it.
template <std::size_t N>
struct view {
  std::array<bind::detail::field_match, N> match;
  bind::detail::complex_vt vt;
  bind::detail::table_type_info info;
};
/// T's entry over `f`, whose `match` is at `self` (the entry's own member: complex() takes its
/// address while the file's views are being initialized).
template <class T, class Unit, std::size_t N>
constexpr view<N> make_view(const field_table<N>& f,
                            const std::array<bind::detail::field_match, N>& self) {
  return {f.match, complex<T, Unit>(f, self), type_info<T>(N - f.inherited)};
}

}  // namespace lather::bind::table

/// T (declared LATHER_BIND_TABLE(T)) is read and written from the table `FIELDS` (a constant
/// made by lather::bind::table::fields): defines T's binding here.
#define LATHER_BIND_TABLE_DEFINE(FIELDS, ...)                                                     \
  LATHER_BIND_TABLE_DESCRIBE_(FIELDS, __VA_ARGS__)                                                \
  LATHER_BIND_UNIT_()                                                                             \
  template <>                                                                                     \
  const ::lather::bind::detail::complex_vt& lather::bind::detail::vt_of<__VA_ARGS__>() noexcept { \
    static constexpr ::lather::bind::table::bound<(FIELDS).match.size()> x{                       \
        (FIELDS).match,                                                                           \
        ::lather::bind::table::complex<__VA_ARGS__, lather_unit>(FIELDS, x.match)};               \
    return x.vt;                                                                                  \
  }

/// The same for a type derived by extension (meta<T>::base), from `FIELDS` made by
/// lather::bind::table::extension: its own fields are constants, its view with the base's
/// fields first is filled on first use. Not inlined: each codec that reads or writes T calls
/// it, where a table's vt_of<T>() is a constant's address.
#define LATHER_BIND_TABLE_DEFINE_EXTENSION(FIELDS, ...)                                            \
  LATHER_BIND_TABLE_DESCRIBE_(FIELDS, __VA_ARGS__)                                                 \
  static_assert(::lather::bind::table::extends_table_at_start<__VA_ARGS__>());                     \
  LATHER_BIND_UNIT_()                                                                              \
  template <>                                                                                      \
  [[gnu::noinline]] const ::lather::bind::detail::complex_vt&                                      \
  lather::bind::detail::vt_of<__VA_ARGS__>() noexcept {                                            \
    static constexpr ::lather::bind::table::bound<(FIELDS).match.size()> own{                      \
        (FIELDS).match,                                                                            \
        ::lather::bind::table::complex<__VA_ARGS__, lather_unit>(FIELDS, own.match)};              \
    static constinit ::lather::bind::table::extended<(FIELDS).base_fields + (FIELDS).match.size()> \
        x{};                                                                                       \
    return x.get(own.vt);                                                                          \
  }

/// `lather_unit`, a type of the file's unnamed namespace (declared again by each use): as the
/// `Unit` of a template, it gives the instance internal linkage, with a short name in the
/// object's symbol table.
#define LATHER_BIND_UNIT_() \
  namespace {               \
  struct lather_unit;       \
  }

#define LATHER_BIND_TABLE_DESCRIBE_(FIELDS, ...)                                                   \
  template <>                                                                                      \
  const ::lather::bind::type_description& lather::bind::describe<__VA_ARGS__>() {                  \
    static constexpr ::lather::bind::detail::table_type_info info =                                \
        ::lather::bind::table::type_info<__VA_ARGS__>((FIELDS).match.size() - (FIELDS).inherited); \
    static constinit ::lather::bind::table::described<(FIELDS).match.size() - (FIELDS).inherited>  \
        x{};                                                                                       \
    return ::lather::bind::detail::describe_table(x.s, info,                                       \
                                                  ::lather::bind::detail::vt_of<__VA_ARGS__>());   \
  }

// ---- the tables of a whole file, in two objects ----
//
// LATHER_BIND_TABLE_DEFINE gives each type a constant (its view) and a zero-initialized object
// (its description) of its own, local to its vt_of<T>() and describe<T>(): each a symbol named
// after the type in the object's symbol table. A file that binds many types (lather-wsdl2cpp's
// code files) puts them in two objects for the whole file instead, with the same contents:
//
//   namespace {
//   LATHER_BIND_TABLE_FILE();
//   constexpr auto order_fields = fields(...);
//   constexpr auto rush_order_fields = extension(...);  // acme::RushOrder extends acme::Order
//   struct lather_views {  // the views: one constant
//     LATHER_BIND_TABLE_VIEW(order_fields, acme::Order);
//     LATHER_BIND_TABLE_VIEW(rush_order_fields, acme::RushOrder);
//   };
//   struct lather_state {  // filled on first use: zero until then (.bss)
//     LATHER_BIND_TABLE_STATE(order_fields);
//     LATHER_BIND_TABLE_STATE_EXTENSION(rush_order_fields);
//   };
//   }  // namespace
//   LATHER_BIND_TABLE_FILE_VIEWS();
//   LATHER_BIND_TABLE_DEFINE_VIEW(order_fields, acme::Order)
//   LATHER_BIND_TABLE_DEFINE_VIEW_EXTENSION(rush_order_fields, acme::RushOrder)
//
// FIELDS is the name of the table's constant (the members are named after it).

/// T's view over FIELDS, a member of the file's struct lather_views.
#define LATHER_BIND_TABLE_VIEW(FIELDS, ...)                          \
  ::lather::bind::table::view<(FIELDS).match.size()> FIELDS##_view = \
      ::lather::bind::table::make_view<__VA_ARGS__, lather_unit>(FIELDS, FIELDS##_view.match)

/// T's description, filled on first use, a member of the file's struct lather_state.
#define LATHER_BIND_TABLE_STATE(FIELDS) \
  ::lather::bind::table::described<(FIELDS).match.size() - (FIELDS).inherited> FIELDS##_described

/// The same for a type derived by extension, with its view made on first use.
#define LATHER_BIND_TABLE_STATE_EXTENSION(FIELDS) \
  LATHER_BIND_TABLE_STATE(FIELDS);                \
  ::lather::bind::table::extended<(FIELDS).base_fields + (FIELDS).match.size()> FIELDS##_extended

/// The file's two objects, of lather_views and lather_state.
#define LATHER_BIND_TABLE_FILE_VIEWS()     \
  namespace {                              \
  constexpr lather_views lather_views_v{}; \
  constinit lather_state lather_state_v{}; \
  }                                        \
  static_assert(true)

/// describe<T>() over the file's objects.
#define LATHER_BIND_TABLE_DESCRIBE_VIEW_(FIELDS, ...)                                            \
  template <>                                                                                    \
  const ::lather::bind::type_description& lather::bind::describe<__VA_ARGS__>() {                \
    return ::lather::bind::detail::describe_table(lather_state_v.FIELDS##_described.s,           \
                                                  lather_views_v.FIELDS##_view.info,             \
                                                  ::lather::bind::detail::vt_of<__VA_ARGS__>()); \
  }

/// LATHER_BIND_TABLE_DEFINE over the file's objects (FIELDS's members of them).
#define LATHER_BIND_TABLE_DEFINE_VIEW(FIELDS, ...)                                                \
  LATHER_BIND_TABLE_DESCRIBE_VIEW_(FIELDS, __VA_ARGS__)                                           \
  template <>                                                                                     \
  const ::lather::bind::detail::complex_vt& lather::bind::detail::vt_of<__VA_ARGS__>() noexcept { \
    return lather_views_v.FIELDS##_view.vt;                                                       \
  }

/// LATHER_BIND_TABLE_DEFINE_EXTENSION over the file's objects.
#define LATHER_BIND_TABLE_DEFINE_VIEW_EXTENSION(FIELDS, ...)                      \
  LATHER_BIND_TABLE_DESCRIBE_VIEW_(FIELDS, __VA_ARGS__)                           \
  static_assert(::lather::bind::table::extends_table_at_start<__VA_ARGS__>());    \
  template <>                                                                     \
  [[gnu::noinline]] const ::lather::bind::detail::complex_vt&                     \
  lather::bind::detail::vt_of<__VA_ARGS__>() noexcept {                           \
    return lather_state_v.FIELDS##_extended.get(lather_views_v.FIELDS##_view.vt); \
  }

/// Define describe<E>() of an enumeration E and its codec here, once for the program (declared
/// by LATHER_BIND_ENUM, lather/bind/extern.hpp): its names, description and codec are constants
/// of this file, not inline variables and functions that each object using E carries as COMDAT
/// groups.
#define LATHER_BIND_ENUM_DEFINE(...)                                                       \
  constinit const std::array<std::string_view, ::lather::meta<__VA_ARGS__>::values.size()> \
      lather::bind::detail::enum_defined<__VA_ARGS__>::names =                             \
          ::lather::bind::detail::enum_names<__VA_ARGS__>();                               \
  constinit const ::lather::bind::detail::enum_codec                                       \
      lather::bind::detail::enum_defined<__VA_ARGS__>::codec =                             \
          ::lather::bind::detail::make_enum_codec<__VA_ARGS__>(                            \
              ::lather::bind::detail::enum_defined<__VA_ARGS__>::names.data());            \
  constinit const ::lather::bind::detail::enum_codec                                       \
      lather::bind::detail::enum_defined<__VA_ARGS__>::open_codec =                        \
          ::lather::bind::detail::make_enum_codec<                                         \
              __VA_ARGS__, ::lather::bind::detail::may_be_open<__VA_ARGS__>>(              \
              ::lather::bind::detail::enum_defined<__VA_ARGS__>::names.data());            \
  template <>                                                                              \
  const ::lather::bind::type_description& lather::bind::describe<__VA_ARGS__>() {          \
    static constexpr ::lather::bind::type_description d =                                  \
        ::lather::bind::detail::enum_description<__VA_ARGS__>(                             \
            ::lather::bind::detail::enum_defined<__VA_ARGS__>::names);                     \
    return d;                                                                              \
  }                                                                                        \
  static_assert(true)

/// In an unnamed namespace of the file that defines tables, instead of `using namespace
/// lather::bind::table;`: the same names, with element(), attribute(), text(), any() and
/// choice() passing a type local to the file as the codecs' Unit. The codecs the file's tables
/// instantiate (and their table_slot) then have internal linkage: no COMDAT group, section
/// names or global symbols per function in its object. A member type that the tables of two
/// files use is compiled in each.
#define LATHER_BIND_TABLE_FILE()                                                                   \
  using namespace ::lather::bind::table;                                                           \
  struct lather_unit;                                                                              \
  template <class M>                                                                               \
  consteval ::lather::bind::table::field element(std::string_view owner_ns, std::string_view name, \
                                                 std::size_t offset) {                             \
    return ::lather::bind::table::element<M, lather_unit>(owner_ns, name, offset);                 \
  }                                                                                                \
  template <class M>                                                                               \
  consteval ::lather::bind::table::field attribute(std::string_view owner_ns,                      \
                                                   std::string_view name, std::size_t offset) {    \
    return ::lather::bind::table::attribute<M, lather_unit>(owner_ns, name, offset);               \
  }                                                                                                \
  template <class M>                                                                               \
  consteval ::lather::bind::table::field text(std::string_view owner_ns, std::size_t offset) {     \
    return ::lather::bind::table::text<M, lather_unit>(owner_ns, offset);                          \
  }                                                                                                \
  template <class M>                                                                               \
  consteval ::lather::bind::table::field any(std::string_view owner_ns, std::size_t offset) {      \
    return ::lather::bind::table::any<M, lather_unit>(owner_ns, offset);                           \
  }                                                                                                \
  template <class M, std::size_t N>                                                                \
  consteval ::lather::bind::table::field choice(                                                   \
      std::string_view owner_ns, std::size_t offset,                                               \
      const ::lather::bind::table::choice_names<N>& names) {                                       \
    return ::lather::bind::table::choice<M, lather_unit>(owner_ns, offset, names);                 \
  }                                                                                                \
  static_assert(true)

// The codecs of the simple types in the shapes generated code uses, compiled in the library.
#define LATHER_BIND_SIMPLE_CODEC_SHAPES(X, T) \
  X(T)                                        \
  X(std::optional<T>)                         \
  X(std::vector<T>)                           \
  X(::lather::nillable<T>)                    \
  X(std::optional<::lather::nillable<T>>) X(std::vector<::lather::nillable<T>>)
#define LATHER_BIND_LIBRARY_CODECS(X)                                     \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, std::string)                         \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, bool)                                \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, std::int8_t)                         \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, std::int16_t)                        \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, std::int32_t)                        \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, std::int64_t)                        \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, std::uint8_t)                        \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, std::uint16_t)                       \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, std::uint32_t)                       \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, std::uint64_t)                       \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, float)                               \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, double)                              \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::normalized_string)    \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::token)                \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::any_uri)              \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::integer)              \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::non_negative_integer) \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::positive_integer)     \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::non_positive_integer) \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::negative_integer)     \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::decimal)              \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::date_time)            \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::date)                 \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::time)                 \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::duration)             \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::hex_binary)           \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::base64_binary)        \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::qname)                \
  LATHER_BIND_SIMPLE_CODEC_SHAPES(X, ::lather::xsd::list<std::string>)    \
  X(::lather::bind::any_element)                                          \
  X(std::optional<::lather::bind::any_element>)                           \
  X(std::vector<::lather::bind::any_element>)                             \
  X(::lather::bind::any_type)                                             \
  X(std::optional<::lather::bind::any_type>)                              \
  X(std::vector<::lather::bind::any_type>) X(::lather::nillable<::lather::bind::any_type>)

#define LATHER_BIND_LIBRARY_CODEC(...) \
  template <>                          \
  inline constexpr bool lather::bind::detail::library_codec<__VA_ARGS__> = true;
LATHER_BIND_LIBRARY_CODECS(LATHER_BIND_LIBRARY_CODEC)
#undef LATHER_BIND_LIBRARY_CODEC
#define LATHER_BIND_EXTERN_CODEC(...) \
  extern template struct lather::bind::detail::codec<__VA_ARGS__>;
LATHER_BIND_LIBRARY_CODECS(LATHER_BIND_EXTERN_CODEC)
#undef LATHER_BIND_EXTERN_CODEC
