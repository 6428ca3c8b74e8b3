// lather/bind/bind.hpp — read and write bound C++ values straight from/to the XML layer.
//
//   lather::xml::reader r;  r.reset(doc);  r.next();            // on <echoComplexTypeDoc>
//   perf::echoComplexTypeDoc req;
//   if (auto err = lather::bind::read(r, req)) fault(err.message);
//     // err.path = "/echoComplexTypeDoc/in/item[3]/varUByte", err.message =
//     // "/echoComplexTypeDoc/in/item[3]/varUByte: \"256\" is out of range for xsd:unsignedByte"
//
//   lather::xml::output out;  lather::xml::writer w{out};
//   lather::bind::write(w, perf::types_ns, "echoComplexTypeDoc", req);
//
// No tree in between: the reader is pulled token by token and the writer gets one call per
// element. Reading expects schema order (the fast path) and names the offending element
// otherwise; on error the destination is left valid but unspecified. Reading into a reused
// destination reuses its strings and vectors (no allocation once warmed up).
//
// read_content/write_content bind a type's attributes and children to an element the caller
// owns (SOAP wrapper elements, RPC parts). struct_reader reads one in parts: the fields before a
// sequence, its items one at a time, then the rest (streaming).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <variant>
#include <vector>

#include "lather/bind/detail/core.hpp"
#include "lather/bind/extern.hpp"
#include "lather/bind/meta.hpp"
#include "lather/bind/polymorphic.hpp"

namespace lather::bind {

namespace detail {

template <class T>
struct complex_vt_of;

/// complex_vt_of<T>::value through a call: where LATHER_BIND_EXTERN(T) is declared, the one
/// out-of-line instantiation (lather/bind/extern.hpp), else inlined like the constant.
template <class T>
const complex_vt& vt_of() noexcept {
  return complex_vt_of<T>::value;
}

template <std::size_t From, std::size_t... I>
std::index_sequence<From + I...> offset_index_sequence(std::index_sequence<I...>);
/// From, From + 1, ..., To - 1.
template <std::size_t From, std::size_t To>
using make_index_range =
    decltype(offset_index_sequence<From>(std::make_index_sequence<To - From>{}));

template <class X>
errc parse_simple_thunk(std::string_view text, void* out, const xml::reader& r) {
  return xsd_traits<X>::parse(text, *static_cast<X*>(out), r);
}

/// A date, time or dateTime, or an xsd:list of them (xsd::parse_lenient reads it).
template <class X>
concept lenient_date = requires(std::string_view text, X& x) {
  xsd::parse_lenient(text, x);
};

template <lenient_date X>
errc parse_lenient_thunk(std::string_view text, void* out, const xml::reader&) {
  return xsd::parse_lenient(text, *static_cast<X*>(out));
}

/// An xsd:list of an open enumeration (xsd::list<open_enum<E>>).
template <class X>
struct is_open_enum_list : std::false_type {};
template <class E>
struct is_open_enum_list<xsd::list<open_enum<E>>> : std::true_type {};

/// Such a list with read_options::keep_unknown_enums: an unlisted item kept as received.
template <class E>
errc parse_enum_list_kept(std::string_view text, xsd::list<open_enum<E>>& out) noexcept {
  return xsd::detail::parse_list_items(text, out.items, [](std::string_view item, open_enum<E>& x) {
    E v{};
    if (parse_enum(item, v) == errc::ok)
      x = v;
    else
      x.assign_unknown(item);
    return errc::ok;
  });
}
template <class X>
errc parse_enum_list_kept_thunk(std::string_view text, void* out, const xml::reader&) {
  return parse_enum_list_kept(text, *static_cast<X*>(out));
}

/// How read_simple parses a simple X: leniently where read_options::lenient_dates allows, and
/// a list of an open enumeration keeping unlisted items where keep_unknown_enums does.
template <class X>
parse_fn simple_parser(const read_ctx& c) noexcept {
  if constexpr (lenient_date<X>) {
    if (c.opts.lenient_dates) return &parse_lenient_thunk<X>;
  }
  if constexpr (is_open_enum_list<X>::value) {
    if (c.opts.keep_unknown_enums) return &parse_enum_list_kept_thunk<X>;
  }
  (void)c;
  return &parse_simple_thunk<X>;
}

/// `e`, the strict parse's error for `text`; for a date, time or dateTime (or a list of them)
/// where read_options::lenient_dates is on, the result of reading `text` again leniently.
template <class X>
errc reread_lenient(const read_ctx& c, std::string_view text, X& x, errc e) noexcept {
  if constexpr (lenient_date<X>) {
    if (c.opts.lenient_dates) return xsd::parse_lenient(text, x);
  }
  if constexpr (is_open_enum_list<X>::value) {
    if (c.opts.keep_unknown_enums && e == errc::unknown_enum) return parse_enum_list_kept(text, x);
  }
  (void)c, (void)text, (void)x;
  return e;
}

inline std::string_view trim_space(std::string_view s) noexcept {
  return xsd::detail::trim_xml_space(s);
}

template <class E>
errc parse_enum(std::string_view text, E& out) {
  std::string_view t = trim_space(text);
  for (const auto& e : meta<E>::values) {
    if (e.name == t) {
      out = e.value;
      return errc::ok;
    }
  }
  return errc::unknown_enum;
}

/// A listed value's name into `out` (unknown_enum otherwise: `out` unchanged).
template <class E>
errc parse_enum(std::string_view text, open_enum<E>& out) {
  E v{};
  const errc e = parse_enum(text, v);
  if (e == errc::ok) out = v;
  return e;
}

template <class E>
errc parse_enum_thunk(std::string_view text, void* out, const xml::reader&) {
  return parse_enum(text, *static_cast<E*>(out));
}

template <class E>
std::string_view enum_name(E v) {
  for (const auto& e : meta<E>::values)
    if (e.value == v) return e.name;
  throw_unknown_enum(static_cast<long long>(v), meta<E>::name);
}

/// An open enumeration: a listed value's name, or the unknown value's text.
template <class E>
std::string_view enum_name(const open_enum<E>& v) {
  return v.known() ? enum_name(v.value()) : std::string_view(v.text());
}
/// parse_enum as a read with `c`'s options does it: an open enumeration keeps an unlisted value
/// where read_options::keep_unknown_enums says so.
template <class X>
errc parse_enum_read(const read_ctx& c, std::string_view text, X& x) {
  errc e = parse_enum(text, x);
  if constexpr (open_enum_type<X>) {
    if (e == errc::unknown_enum && c.opts.keep_unknown_enums) {
      x.assign_unknown(text);
      e = errc::ok;
    }
  }
  (void)c;
  return e;
}
template <class X>
errc parse_enum_kept_thunk(std::string_view text, void* out, const xml::reader&) {
  X& x = *static_cast<X*>(out);
  if (parse_enum(text, x) != errc::ok) x.assign_unknown(text);
  return errc::ok;
}
/// How read_simple parses an enumeration X with `c`'s options.
template <class X>
parse_fn enum_parser(const read_ctx& c) noexcept {
  if constexpr (open_enum_type<X>) {
    if (c.opts.keep_unknown_enums) return &parse_enum_kept_thunk<X>;
  }
  (void)c;
  return &parse_enum_thunk<X>;
}

template <class X>
bool read_complex(read_ctx& c, X& x);
template <class P>
bool read_pointer(read_ctx& c, P& p);

template <class Slot>
bool read_item_at(read_ctx& c, Slot& s, std::uint32_t alt, const field_match* fm);

/// The indexes of a choice's alternatives (read_alternative, write_alternative).
template <class V>
using alternative_indexes = std::make_index_sequence<std::variant_size_v<V>>;

/// Alternative `alt` of the choice `v` (made the engaged one if it is not), on its start tag; a
/// nillable alternative takes xsi:nil. One function per variant type, whatever the number of
/// alternatives: a function per alternative (a table of them) is named by the whole variant
/// type in the object's symbol and section tables, kilobytes each for a choice of many types.
template <class V, std::size_t... I>
bool read_alternative(read_ctx& c, V& v, std::uint32_t alt, const field_match* fm,
                      std::index_sequence<I...>) {
  bool ok = false;
  (void)((alt == I && (v.index() == I || (v.template emplace<I>(), true)) &&
          (ok = read_item_at(c, *std::get_if<I>(&v), 0, fm), true)) ||
         ...);
  return ok;
}

/// Read one value of type X on its start tag (xsi:nil already handled, except for a choice:
/// its alternative `alt` decides whether xsi:nil is allowed).
template <class X>
bool read_value(read_ctx& c, X& x, std::uint32_t alt, const field_match* fm) {
  if constexpr (element_reading_type<X>) {
    std::string detail;
    const errc e = xsd_traits<X>::read_element(c.r, x, detail);
    return e == errc::ok || fail(c, e, std::move(detail));
  } else if constexpr (simple_type<X>) {
    if (const xml::attribute* t = scan_xsi(c.r).type)
      if (!check_xsi_simple(c, *t, xsd_namespace, xsd_traits<X>::type_name)) return false;
    return read_simple(c, simple_parser<X>(c), &x, xsd_traits<X>::type_name, fm);
  } else if constexpr (enumeration_type<X>) {
    using E = enum_of_t<X>;
    if (const xml::attribute* t = scan_xsi(c.r).type)
      if (!check_xsi_simple(c, *t, meta<E>::ns, meta<E>::name)) return false;
    return read_simple(c, enum_parser<X>(c), &x, meta<E>::name, fm);
  } else if constexpr (complex_type<X>) {
    return read_complex(c, x);
  } else if constexpr (std::is_same_v<X, any_element> || std::is_same_v<X, any_type>) {
    return capture_element(c, x.xml, std::is_same_v<X, any_element>);
  } else if constexpr (is_variant<X>::value) {
    return read_alternative(c, x, alt, fm, alternative_indexes<X>{});
  } else {
    static_assert(sizeof(X) == 0,
                  "lather::bind: no binding for this type: specialise lather::meta<T> "
                  "(complex type or enum) or xsd_traits<T> (simple type)");
    return false;
  }
}

/// The attributes and children of `x` (its xsi:type already checked).
template <class X>
bool read_body(read_ctx& c, X& x) {
  if constexpr (table_bound<X>) {
    return read_table_body(c, vt_of<X>(), &x);
  } else {
    std::array<std::uint32_t, field_count<X>> counts;
    return read_complex_body(c, vt_of<X>(), &x, counts.data());
  }
}

/// Where a value of type X is about to be read (`named`: an xsi:type named X): false, with the
/// error, when X is abstract (XSD cvc-elt 4.3), unless read_options keeps one without xsi:type.
template <class X>
bool concrete_or_kept(read_ctx& c, bool named) {
  if constexpr (abstract_type<X>) {
    if (named) return fail_abstract_xsi_type(c, meta<X>::ns, meta<X>::name);
    if (std::is_abstract_v<X> || !c.opts.keep_abstract_without_xsi_type)
      return fail_abstract(c, meta<X>::name);
  }
  (void)c, (void)named;
  return true;
}

template <class X>
bool read_complex(read_ctx& c, X& x) {
  if constexpr (abstract_type<X>) {  // by value: an xsi:type may name only X, which is abstract
    const xml::attribute* t = scan_xsi(c.r).type;
    if (t && check_xsi_complex(c, *t, vt_of<X>(), false) == -2) return false;
    if (!concrete_or_kept<X>(c, t != nullptr)) return false;
  }
  if constexpr (table_bound<X>) {
    return read_table_value(c, vt_of<X>(), &x);
  } else {
    if (const xml::attribute* t = scan_xsi(c.r).type)
      if (check_xsi_complex(c, *t, vt_of<X>(), false) == -2) return false;
    return read_body(c, x);
  }
}

/// The object `p` (a pointer or a polymorphic<B>) holds as a D: reused when it already has that
/// dynamic type, else a new one. Inlined: read_pointer's one function per P makes any D.
template <class D, class P>
[[gnu::always_inline]] inline D& object_of_type(P& p) {
  using B = typename shape<P>::value_type;
  if constexpr (is_polymorphic_holder<P>::value) {
    if (D* current = p.template get_if<D>()) return *current;
    return p.template emplace<D>();
  } else if (B* current = p.get(); current && typeid(*current) == typeid(D)) {
    return static_cast<D&>(*current);
  } else {
    auto make = []() __attribute__((always_inline)) {
      if constexpr (shape<P>::is_shared)
        return std::make_shared<D>();
      else
        return std::make_unique<D>();
    };
    auto made = make();
    D& obj = *made;
    p = std::move(made);
    return obj;
  }
}

/// read_body of a pointer's object, inlined in read_pointer: a table-bound type's through its
/// table (a read_body per type of a hierarchy costs a symbol and a section each).
template <class D>
[[gnu::always_inline]] inline bool read_object_body(read_ctx& c, D& obj) {
  if constexpr (table_bound<D>)
    return read_table_body(c, vt_of<D>(), &obj);
  else
    return read_body(c, obj);
}

/// Whether a pointer or polymorphic<B> P may hold an unknown_subtype<B>.
template <class P>
inline constexpr bool keeps_unknown_in =
    is_polymorphic_holder<P>::value ? holder_keeps_unknown<typename shape<P>::value_type>
                                    : keeps_unknown_subtypes<typename shape<P>::value_type>;

/// An element whose xsi:type names a type with no binding, as an unknown_subtype<B>
/// (read_options::keep_unknown_subtypes).
template <class P>
bool read_unknown(read_ctx& c, P& p, const xml::attribute& type) {
  using B = typename shape<P>::value_type;
  auto& obj = object_of_type<unknown_subtype<B>>(p);
  return read_unknown_subtype(c, type, vt_of<B>(), static_cast<B*>(&obj),
                              static_cast<retained_subtype&>(obj));
}

/// A pointer or polymorphic<B> member's object, of the type its xsi:type names (B without one).
template <class P>
bool read_pointer(read_ctx& c, P& p) {
  using B = typename shape<P>::value_type;
  int k = -1;
  const xml::attribute* t = scan_xsi(c.r).type;
  if (t) {
    k = check_xsi_complex(c, *t, vt_of<B>(), true, keeps_unknown_in<P>);
    if (k < -1) {
      if constexpr (keeps_unknown_in<P>)
        if (k == -3) return read_unknown(c, p, *t);
      return false;
    }
  }
  // One function per P, each type's reading inlined: a table of readers would carry the whole
  // list in its name, and a reader per type would cost a symbol and a section each.
  // `want`: the index of the xsi:type's type in derived_types_of<B>, or B's (no xsi:type).
  bool ok = false;
  const std::size_t want = k < 0 ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(k);
  auto read_as = [&]<class D>(std::size_t i) __attribute__((always_inline)) {
    if (i != want) return false;
    if constexpr (std::is_abstract_v<D>)
      (void)concrete_or_kept<D>(c, t != nullptr);  // refuses it, with the error
    else
      ok = concrete_or_kept<D>(c, t != nullptr) && read_object_body(c, object_of_type<D>(p));
    return true;
  };
  if (k < 0)
    read_as.template operator()<B>(want);
  else
    visit_first(derived_types_of<B>{}, read_as);
  return ok;
}

/// `from`'s alternative moved into `to` (an item of a vector of choices that grows).
template <class V, std::size_t... I>
void move_alternative(V& to, V& from, std::index_sequence<I...>) {
  (void)((from.index() == I && (to.template emplace<I>(std::move(*std::get_if<I>(&from))), true)) ||
         ...);
}

/// Whether a vector member M grows through append_item, not emplace_back: its items are
/// choices or bound types (structs, enumerations), generated per contract (the library's
/// codecs hold the vectors of built-in types).
template <class M>
inline constexpr bool appends_in_place =
    is_variant<slot_type<M>>::value || complex_type<value_type_of<M>> ||
    enumeration_type<value_type_of<M>>;

/// A new item at the end of the vector `m`, whose items are all in use. Not through
/// emplace_back: its reallocation is a function per vector type (a COMDAT group, a long name),
/// and it moves a choice's items with the variant's move constructor, one more function per
/// alternative (a jump table beyond 11 alternatives), each named by the whole variant type in
/// the object's symbol and section tables. Here the items move into a vector twice as long,
/// in the caller (a choice alternative by alternative): the spare items (default values) are
/// the next occurrences' slots, and the read's finalize trims those unused. `Unit` as
/// table.hpp's codec<M, Unit>: internal linkage where it is not inlined.
template <class Unit, class M>
typename M::value_type& append_item(M& m) {
  using Item = typename M::value_type;
  const std::size_t n = m.size();
  M bigger(n < 2 ? 4 : 2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (is_variant<Item>::value)
      move_alternative(bigger[i], m[i], alternative_indexes<Item>{});
    else if constexpr (is_nillable<Item>::value)
      std::construct_at(&bigger[i], std::move(m[i]));  // over a nil item: nothing to destroy
    else
      bigger[i] = std::move(m[i]);
  }
  m.swap(bigger);
  return m[n];
}

/// The slot for occurrence `occ` of a member: reuses vector elements and optional values.
template <class Unit = void, class M>
auto& slot_of(M& m, std::uint32_t occ) {
  using S = shape<M>;
  if constexpr (S::is_vector) {
    if (occ < m.size()) return m[occ];
    if constexpr (appends_in_place<M>)
      return append_item<Unit>(m);
    else
      return m.emplace_back();
  } else if constexpr (S::is_optional) {
    if (!m) m.emplace();
    return *m;
  } else {
    (void)occ;
    return m;
  }
}

/// A std::unique_ptr or std::shared_ptr member: 0..1, empty when absent or nil (a polymorphic<B>
/// is a pointer in shape, always holding an object).
template <class M>
inline constexpr bool nullable_pointer = shape<M>::is_pointer && !is_polymorphic_holder<M>::value;

/// std::vector<bool>: its items are proxies, not bool&, so an item is read into a bool and
/// stored with store_item.
template <class M>
inline constexpr bool is_bool_vector = false;
template <class A>
inline constexpr bool is_bool_vector<std::vector<bool, A>> = true;

template <class M>
void store_item(M& m, std::uint32_t occ, bool b) {
  if (occ < m.size())
    m[occ] = b;
  else
    m.push_back(b);
}

template <class T, std::size_t I, class Slot>
bool read_item(read_ctx& c, Slot& s, std::uint32_t alt);

/// One occurrence into its slot `s` (xsi:nil already handled): polymorphic through a pointer,
/// a nillable slot emplaced.
template <class Slot>
bool read_slot_value(read_ctx& c, Slot& s, std::uint32_t alt, const field_match* fm) {
  if constexpr (shape<Slot>::is_pointer) {
    return read_pointer(c, s);
  } else if constexpr (is_nillable<Slot>::value) {
    if (!s) s.emplace();
    return read_slot_value(c, *s, alt, fm);
  } else {
    return read_value(c, s, alt, fm);
  }
}

template <class T, std::size_t I>
bool read_elem(read_ctx& c, void* obj, std::uint32_t occ, std::uint32_t alt, const field_match&) {
  constexpr auto& f = std::get<I>(fields_of<T>);
  const field_match* fm = &complex_vt_of<T>::matches[I];
  auto& m = static_cast<T*>(obj)->*(f.member);
  using M = std::remove_cvref_t<decltype(m)>;
  using S = shape<M>;
  using Slot = slot_type<M>;
  if constexpr (f.kind == field_kind::unknown) {
    return read_unknown_element(c, m, occ, alt);  // alt: the field it comes before
  } else if constexpr (f.kind == field_kind::text) {
    if constexpr (enumeration_type<M>)
      return read_simple(c, enum_parser<M>(c), &m, meta<enum_of_t<M>>::name, fm);
    else
      return read_simple(c, simple_parser<M>(c), &m, xsd_traits<M>::type_name, fm);
  } else if constexpr (S::is_optional || nullable_pointer<M>) {
    if (const int nil = is_variant<Slot>::value ? 0 : nil_state(c)) {
      if (nil < 0) return false;
      if constexpr (is_nillable<Slot>::value) {
        slot_of(m, occ).reset();
        return skip_nil_content(c);
      }
      if (!f.is_nillable)
        return fail(c, errc::nil_not_allowed, "xsi:nil on an element that is not nillable");
      m.reset();
      return skip_nil_content(c);
    }
    if constexpr (S::is_pointer)
      return read_pointer(c, m);
    else
      return read_slot_value(c, slot_of(m, occ), alt, fm);
  } else if constexpr (is_bool_vector<M>) {
    bool b = false;
    if (!read_item<T, I>(c, b, alt)) return false;
    store_item(m, occ, b);
    return true;
  } else {
    return read_item<T, I>(c, slot_of(m, occ), alt);  // a plain member or a sequence's item
  }
}

/// One occurrence of an element field (`fm`) into its slot `s` (a plain member, or an item of
/// a sequence), on its start tag. A choice leaves xsi:nil to its alternative `alt`.
template <class Slot>
bool read_item_at(read_ctx& c, Slot& s, std::uint32_t alt, const field_match* fm) {
  if constexpr (group_type<Slot>) {  // a choice's alternative: its elements in place
    return read_group(c, vt_of<Slot>(), &s);
  } else if constexpr (is_variant<Slot>::value) {
    return read_value(c, s, alt, fm);
  } else {
    if (const int nil = nil_state(c)) {
      if (nil < 0) return false;
      if constexpr (is_nillable<Slot>::value) {
        s.reset();
        return skip_nil_content(c);
      }
      return fail(c, errc::nil_not_allowed, "xsi:nil on an element that is not nillable");
    }
    return read_slot_value(c, s, alt, fm);
  }
}

/// One occurrence of element field I of T into its slot `s`.
template <class T, std::size_t I, class Slot>
bool read_item(read_ctx& c, Slot& s, std::uint32_t alt) {
  return read_item_at(c, s, alt, &complex_vt_of<T>::matches[I]);
}

/// Whether field I of T is read through read_leaf (see field_match::read_whole).
template <class T, std::size_t I>
constexpr bool is_leaf_field() {
  constexpr auto& f = std::get<I>(fields_of<T>);
  using M = std::remove_cvref_t<decltype(std::declval<T&>().*(f.member))>;
  using X = value_type_of<M>;
  if constexpr (f.kind != field_kind::element || f.alternatives.size() != 0 ||
                f.has_facets ||  // read through read_simple, which checks them
                shape<M>::is_pointer || !(simple_type<X> || enumeration_type<X>) ||
                element_reading_type<X>) {
    return false;
  } else {
    // An ASCII NCName: what reader::next_simple_element may compare instead of parse.
    return xml::ncname{f.name}.checked() && (f.ns == meta<T>::ns || f.ns.empty());
  }
}

/// The first field after I that is not an attribute (nor the unknown field), or field_count<T>.
template <class T, std::size_t I>
constexpr std::uint32_t next_element_index() {
  constexpr auto kinds =
      std::apply([](const auto&... f) { return std::array<field_kind, sizeof...(f)>{f.kind...}; },
                 fields_of<T>);
  std::size_t j = I + 1;
  while (j < kinds.size() &&
         (kinds[j] == field_kind::attribute || kinds[j] == field_kind::unknown ||
          kinds[j] == field_kind::any_attribute))
    ++j;
  return static_cast<std::uint32_t>(j);
}

/// Field I of T from a simple element the reader has read whole (text() is its content).
template <class T, std::size_t I>
bool read_leaf(read_ctx& c, void* obj, std::uint32_t occ, const field_match&) {
  constexpr auto& f = std::get<I>(fields_of<T>);
  const field_match* fm = &complex_vt_of<T>::matches[I];
  auto& m = static_cast<T*>(obj)->*(f.member);
  using M = std::remove_cvref_t<decltype(m)>;
  using X = value_type_of<M>;
  X* x;
  [[maybe_unused]] bool item = false;
  if constexpr (is_bool_vector<M>) {
    x = &item;
  } else if constexpr (is_nillable<slot_type<M>>::value) {
    auto& slot = slot_of(m, occ);
    if (!slot) slot.emplace();
    x = &*slot;
  } else {
    x = &slot_of(m, occ);
  }
  const std::string_view text = simple_text(c.r.text(), fm);
  errc e;
  if constexpr (enumeration_type<X>) {
    e = parse_enum_read(c, text, *x);
    if (e != errc::ok) return fail_simple(c, e, text, meta<enum_of_t<X>>::name);
  } else {
    e = xsd_traits<X>::parse(text, *x, c.r);
    if (e != errc::ok) [[unlikely]]
      e = reread_lenient(c, text, *x, e);
    if (e != errc::ok) return fail_simple(c, e, text, xsd_traits<X>::type_name);
  }
  if constexpr (is_bool_vector<M>) store_item(m, occ, item);
  return true;
}

template <class T, std::size_t I>
bool read_attr(read_ctx& c, void* obj, const xml::attribute* a, const field_match&) {
  constexpr auto& f = std::get<I>(fields_of<T>);
  auto& m = static_cast<T*>(obj)->*(f.member);
  using M = std::remove_cvref_t<decltype(m)>;
  using X = value_type_of<M>;
  if (!a && !f.has_default) {
    if (f.is_required) return fail(c, errc::missing_attribute, "required attribute is missing");
    if constexpr (shape<M>::is_optional)
      m.reset();
    else
      m = M{};
    return true;
  }
  std::string_view text = a ? a->value : f.default_text;
  X& x = slot_of(m, 0);
  errc e;
  if constexpr (enumeration_type<X>) {
    e = parse_enum_read(c, text, x);
    if (e != errc::ok) return fail_enum(c, text, meta<enum_of_t<X>>::name);
  } else {
    e = xsd_traits<X>::parse(text, x, c.r);
    if (e != errc::ok) [[unlikely]]
      e = reread_lenient(c, text, x, e);
    if (e != errc::ok) return fail_value(c, e, text, xsd_traits<X>::type_name);
  }
  if constexpr (f.has_facets)
    if (a) return check_facets(c, complex_vt_of<T>::matches[I], text);
  return true;
}

/// Reset what did not occur: empty optionals, trimmed vectors, defaults for absent plain
/// members with minOccurs 0.
template <class T, std::size_t I>
void finalize_field(T& obj, std::uint32_t count) {
  constexpr auto& f = std::get<I>(fields_of<T>);
  if constexpr (f.kind == field_kind::unknown) {
    trim_unknown(obj.*(f.member), count);
  } else if constexpr (f.kind == field_kind::element || f.kind == field_kind::any) {
    auto& m = obj.*(f.member);
    using M = std::remove_cvref_t<decltype(m)>;
    using S = shape<M>;
    if constexpr (S::is_vector) {
      if (m.size() > count) m.erase(m.begin() + count, m.end());
    } else if constexpr (S::is_optional || nullable_pointer<M>) {
      if (count == 0) m.reset();
    } else {
      if (count == 0) {
        if constexpr (f.has_default && enumeration_type<M>) {
          if (parse_enum(f.default_text, m) == errc::ok) return;
        } else if constexpr (f.has_default &&
                             requires { xsd_traits<M>::parse(f.default_text, m); }) {
          if (xsd_traits<M>::parse(f.default_text, m) == errc::ok) return;
        }
        m = M{};
      }
    }
  }
}

template <class T>
void finalize_thunk(const complex_vt&, void* obj, const std::uint32_t* counts) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (finalize_field<T, I>(*static_cast<T*>(obj), counts[I]), ...);
  }
  (std::make_index_sequence<field_count<T>>{});
}

/// The XML names of field I of T, checked once at compile time (the writer then skips its
/// per-element name check; see xml::ncname).
template <class T, std::size_t I>
struct field_names {
  static constexpr xml::ncname name{std::get<I>(fields_of<T>).name};
  static constexpr auto alternatives = []<std::size_t... A>(std::index_sequence<A...>) consteval {
    return std::array<xml::ncname, sizeof...(A)>{
        xml::ncname(std::get<I>(fields_of<T>).alternatives[A])...};
  }
  (std::make_index_sequence<std::get<I>(fields_of<T>).alternatives.size()>{});
};

/// Choice field I of T with its alternatives' facets (choice(m, names, facets)): its names with
/// their descriptions right after them, where alternative_facets finds each one's facets.
template <class T, std::size_t I>
struct choice_with_facets {
  static constexpr auto& f = std::get<I>(fields_of<T>);
  using V = value_type_of<typename std::remove_cvref_t<decltype(f)>::member_type>;
  static constexpr choice_names<f.alternatives.size()> value = {
      field_names<T, I>::alternatives,
      alternatives_of<V>::make(f.alternatives, f.alternative_constraints)};
};

/// field_match::routines::read_attr of an xsd:anyAttribute field I of T.
template <class T, std::size_t I>
bool read_any_attributes(read_ctx& c, void* obj, const xml::attribute*, const field_match& f) {
  return capture_attributes(c, f, static_cast<T*>(obj)->*(std::get<I>(fields_of<T>).member));
}

/// field_match::routines of field I of T: its own thunks (finalize and write are the type's).
template <class T, std::size_t I>
struct field_thunks {
  static constexpr field_codec routines = [] {
    field_codec r{};
    if constexpr (std::get<I>(fields_of<T>).kind == field_kind::attribute)
      r.read_attr = &read_attr<T, I>;
    else if constexpr (std::get<I>(fields_of<T>).kind == field_kind::any_attribute)
      r.read_attr = &read_any_attributes<T, I>;
    else
      r.read_elem = &read_elem<T, I>;
    if constexpr (is_leaf_field<T, I>()) r.read_leaf = &read_leaf<T, I>;
    return r;
  }();
};

/// Whether a member's value type holds inline groups: a group, or a choice with a group
/// alternative.
template <class X>
inline constexpr bool holds_group = group_type<X>;
template <class... As>
inline constexpr bool holds_group<std::variant<As...>> = (group_type<As> || ...);

template <class T, std::size_t I>
constexpr field_match make_match() {
  constexpr auto& f = std::get<I>(fields_of<T>);
  static_assert(
      !holds_group<value_type_of<std::remove_cvref_t<decltype(std::declval<T&>().*(f.member))>>>,
      "an inline group (meta<G>::group) is read and written in place through tables only: bind "
      "the type that holds it with LATHER_BIND_TABLE (docs/binding.md, \"Inline groups\")");
  field_match m{};
  m.write_name = field_names<T, I>::name;
  m.ns = f.ns;
  // An xsd:anyAttribute is an attribute to the reader's loops, told apart by its flag.
  m.kind = f.kind == field_kind::any_attribute ? field_kind::attribute : f.kind;
  m.any_attributes = f.kind == field_kind::any_attribute;
  m.min_occurs = f.min_occurs;
  m.max_occurs = f.max_occurs;
  if constexpr (f.kind == field_kind::any_attribute) {  // where it finds the other attributes
    m.min_occurs = static_cast<std::uint32_t>(I);
    m.max_occurs = static_cast<std::uint32_t>(field_count<T>);
  }
  static_assert(f.alternatives.size() == 0 || !f.has_default, "a choice has no default");
  if constexpr (f.alternatives.size() != 0 && f.has_facets) {  // alternative_facets finds them
    m.write_alternatives = choice_with_facets<T, I>::value.checked.data();
    m.has_facets = true;
  } else if constexpr (f.alternatives.size() != 0) {
    m.write_alternatives = field_names<T, I>::alternatives.data();
  }
  m.alternative_count = static_cast<std::uint32_t>(f.alternatives.size());
  m.required = f.is_required;
  if constexpr (f.has_default) {
    m.has_default = true;
    std::construct_at(&m.default_value, f.default_text);
  }
  static_assert(
      f.wildcard.empty() || f.kind == field_kind::any || f.kind == field_kind::any_attribute,
      "lather::field::namespaces() is for an any() or any_attribute() field");
  if constexpr (!f.wildcard.empty() && !f.has_default) {
    m.wildcard_namespaces = true;  // ##any too: described as given
    std::construct_at(&m.default_value, f.wildcard);
  }
  if constexpr (f.has_facets && f.alternatives.size() == 0) {
    static_assert(f.kind != field_kind::any, "facets are for a simple element, attribute or text");
    static_assert(!f.has_default || f.constraints->default_value == f.default_text,
                  "the facets hold the field's default (facets::default_value)");
    m.has_facets = true;
    std::construct_at(&m.constraints, f.constraints);
  }
  m.routines = &field_thunks<T, I>::routines;
  if constexpr (is_leaf_field<T, I>()) {
    m.read_whole = true;
    m.leaf_in_type_ns = f.ns == meta<T>::ns;
  }
  m.next_element = next_element_index<T, I>();
  return m;
}

template <class... Ds>
std::array<const complex_vt*, sizeof...(Ds)> derived_vt_list(types<Ds...>) {
  return {&vt_of<Ds>()...};
}
/// `Unit` as table.hpp's codec: a type local to the file (or function) that binds T gives this
/// function, its list and the list's guard internal linkage: no COMDAT group per T.
template <class T, class Unit = void>
vt_list derived_vts() {
  // Filled on first use, not constant: a derived type's binding may be compiled elsewhere.
  static const auto list = derived_vt_list(derived_types_of<T>{});
  return list;
}

/// complex_vt::base and complex_vt::derived of T (nullptr and the shared one when it has none).
template <class T>
constexpr auto base_vt_fn() {
  if constexpr (derived_type<T>)
    return &vt_of<typename meta<T>::base>;
  else
    return static_cast<const complex_vt& (*)() noexcept>(nullptr);
}
template <class T, class Unit = void>
constexpr auto derived_vts_fn() {
  if constexpr (std::is_same_v<derived_types_of<T>, types<>>)
    return &no_derived_vts;
  else
    return &derived_vts<T, Unit>;
}

template <class T>
constexpr int text_index_v = [] {
  int idx = -1;
  int i = 0;
  std::apply([&](const auto&... f) { ((f.kind == field_kind::text ? (idx = i, ++i) : ++i), ...); },
             fields_of<T>);
  return idx;
}();

/// The index of T's xsd:anyAttribute field, or -1 (at most one, its bases' included).
template <class T>
constexpr int any_attribute_index_v = [] {
  int idx = -1, count = 0, i = 0;
  std::apply(
      [&](const auto&... f) {
        ((f.kind == field_kind::any_attribute ? (idx = i, ++count, ++i) : ++i), ...);
      },
      fields_of<T>);
  return count > 1 ? -2 : idx;
}();

template <class T>
struct complex_vt_of {
  static_assert(any_attribute_index_v<T> >= -1,
                "a type has one any_attribute() field at most, its bases' included");
  static constexpr auto matches = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<field_match, sizeof...(I)>{make_match<T, I>()...};
  }
  (std::make_index_sequence<field_count<T>>{});
  static constexpr complex_vt value = {meta<T>::name,   meta<T>::ns,
                                       matches.data(),  static_cast<std::uint32_t>(matches.size()),
                                       text_index_v<T>, &finalize_thunk<T>,
                                       base_vt_fn<T>(), derived_vts_fn<T>()};
};

// ---- writing ----

// `Name` is std::string_view (a caller's name: checked by the writer) or xml::ncname (metadata).
// `leaves`: ns resolved for the leaves of the enclosing struct (its own namespace), or nullptr.
template <class Name, class X>
void write_value(xml::writer& w, std::string_view ns, Name local, const X& x,
                 xml::leaf_namespace* leaves = nullptr);
template <class T>
void write_complex_content(xml::writer& w, const T& x);

template <class X>
void write_simple_text(xml::writer& w, const X& x) {
  if constexpr (enumeration_type<X>)
    w.text(enum_name(x));
  else
    xsd_traits<X>::write(x, w);
}

/// `use(text)` with the text `x` is written as: a string's, an enumeration's name, a simple
/// type's lexical form (nothing for a value of another type).
template <class X, class Use>
void with_written_text(const X& x, Use&& use) {
  if constexpr (std::is_same_v<X, std::string>) {
    use(std::string_view(x));
  } else if constexpr (enumeration_type<X>) {
    use(enum_name(x));
  } else if constexpr (requires(std::string & s) { xsd_traits<X>::format(x, s); }) {
    std::string text;
    xsd_traits<X>::format(x, text);
    use(std::string_view(text));
  }
}

/// Where write_options::validate_facets is in force: the facets of field `f` (has_facets)
/// checked on `x`'s text before it is written (check_written_facets). Out of line: a field with
/// facets costs the writes that do not check them one test of a flag.
template <class X>
[[gnu::noinline]] void check_facets_on_write(const field_match& f, const X& x, bool in_element) {
  if (!validating_writes()) return;
  with_written_text(x, [&](std::string_view text) { check_written_facets(f, text, in_element); });
}

/// The same for the engaged alternative of a meta<T> choice `v` whose alternatives have facets
/// (field `f`, choice(m, names, facets)): that alternative's, if it has any (a nil one has no
/// value to check).
template <class V, std::size_t... A>
[[gnu::noinline]] void check_alternative_on_write(const field_match& f, const V& v,
                                                  std::index_sequence<A...>) {
  if (!validating_writes() || v.valueless_by_exception()) return;
  const std::string_view name = f.alternative(static_cast<std::uint32_t>(v.index()));
  const facets* x = alternative_facets(f, name);
  if (x == nullptr) return;
  auto check = [&](const auto& value) {
    using X = std::remove_cvref_t<decltype(value)>;
    if constexpr (is_nillable<X>::value) {
      if (value)
        with_written_text(*value, [&](std::string_view t) { check_written_facets(*x, name, t); });
    } else {
      with_written_text(value, [&](std::string_view t) { check_written_facets(*x, name, t); });
    }
  };
  (void)((v.index() == A && (check(*std::get_if<A>(&v)), true)) || ...);
}

template <class X>
void write_attribute_value(xml::writer& w, std::string_view ns, xml::ncname name, const X& x) {
  if constexpr (std::is_same_v<X, std::string>) {
    w.attribute(ns, name, x);
  } else if constexpr (enumeration_type<X>) {
    w.attribute(ns, name, enum_name(x));
  } else if constexpr (std::is_same_v<X, xsd::qname>) {
    std::string v{w.prefix_for(x.ns)};
    if (!v.empty()) v.push_back(':');
    v.append(x.local);
    w.attribute(ns, name, v);
  } else {
    std::string v;
    xsd_traits<X>::format(x, v);
    w.attribute(ns, name, v);
  }
}

/// Whether the object of the pointer or polymorphic<B> `p` (not empty) is exactly a D (inlined
/// in write_polymorphic's search).
template <class D, class P>
[[gnu::always_inline]] inline bool holds_type(const P& p) {
  if constexpr (is_polymorphic_holder<P>::value)
    return p.template holds<D>();
  else
    return typeid(*p) == typeid(D);
}

/// Whether the pointer or polymorphic<B> `p` has an object to write.
template <class P>
bool has_object(const P& p) {
  if constexpr (is_polymorphic_holder<P>::value)
    return !p.valueless_after_move();
  else
    return p != nullptr;
}

/// write_complex_content of `obj`, a D: write_polymorphic's, for a D not bound through a table.
template <class D>
void write_content_as(xml::writer& w, const void* obj) {
  write_complex_content(w, *static_cast<const D*>(obj));
}

/// Simple types whose text lather formats itself (numbers, dates, binary): writing one cannot
/// fail, so write_value gives it no error path. (A landing pad per such leaf made GCC inline
/// less of a struct's writing: +0.5 % instructions per 100-item serialization.)
template <class X>
inline constexpr bool formats_own_text =
    std::is_arithmetic_v<X> || std::is_same_v<X, xsd::date_time> || std::is_same_v<X, xsd::date> ||
    std::is_same_v<X, xsd::time> || std::is_same_v<X, xsd::duration> ||
    std::is_same_v<X, xsd::hex_binary> || std::is_same_v<X, xsd::base64_binary>;

template <class Name>
std::string_view name_text(Name name) {
  if constexpr (std::is_same_v<Name, xml::ncname>)
    return name.text();
  else
    return name;
}

/// The object of the pointer or polymorphic<B> `p` (has_object): as a B, or with an xsi:type
/// naming its type.
template <class P, class Name>
void write_polymorphic(xml::writer& w, std::string_view ns, Name local, const P& p) {
  using B = typename shape<P>::value_type;
  const B& b = *p;
  if constexpr (std::is_polymorphic_v<B> || is_polymorphic_holder<P>::value) {
    if (!holds_type<B>(p)) {
      try {
        // The object's type found, then written by one piece of code: per type only a test and
        // what tells the types apart (their code once per type would weigh kilobytes for a
        // hierarchy of a hundred types, in each file that writes it).
        const complex_vt* vt = nullptr;
        const void* obj = nullptr;
        bool abstract = false;
        void (*content)(xml::writer&, const void*) = nullptr;
        visit_first(
            derived_types_of<B>{}, [&]<class D>(std::size_t) __attribute__((always_inline)) {
              if (!holds_type<D>(p)) return false;
              vt = &vt_of<D>();
              obj = static_cast<const D*>(&b);
              abstract = abstract_type<D>;
              if constexpr (!table_bound<D>) content = &write_content_as<D>;
              return true;
            });
        if (vt != nullptr) {
          if (abstract) throw_abstract_type(vt->ns, vt->name);
          w.start_element(ns, local);
          write_xsi_type(w, vt->ns, vt->name);
          if (content != nullptr)
            content(w, obj);
          else
            write_table(w, *vt, obj);
          w.end_element();
          return;
        }
        // An element read with an xsi:type that has no binding: written back as received.
        const retained_subtype* kept = nullptr;
        if constexpr (!is_polymorphic_holder<P>::value)
          kept = dynamic_cast<const retained_subtype*>(&b);
        else if constexpr (holder_keeps_unknown<B>)
          kept = p.template get_if<unknown_subtype<B>>();
        if (kept != nullptr)
          write_unknown_subtype(w, ns, name_text(local), *kept);
        else
          throw_unregistered_type(meta<B>::name);
      } catch (...) {
        rethrow_in_element(name_text(local));
      }
      return;
    }
  }
  write_value(w, ns, local, b);
}

/// write_value for a value that is there (not an empty optional, pointer or nil).
template <class Name, class X>
void write_present_value(xml::writer& w, std::string_view ns, Name local, const X& x,
                         xml::leaf_namespace* leaves) {
  if constexpr (simple_type<X> || enumeration_type<X>) {
    if constexpr (std::is_same_v<Name, xml::ncname>) {
      xml::leaf_namespace own{ns};
      xml::leaf_namespace& leaf_ns = leaves != nullptr ? *leaves : own;
      if constexpr (enumeration_type<X>)
        return w.text_element(leaf_ns, local, enum_name(x));
      else if constexpr (requires { xsd_traits<X>::write_leaf(x, w, leaf_ns, local); })
        return xsd_traits<X>::write_leaf(x, w, leaf_ns, local);
    }
    w.start_element(ns, local);
    write_simple_text(w, x);
    w.end_element();
  } else if constexpr (complex_type<X>) {
    // An element of an abstract type is not valid with or without an xsi:type naming it.
    if constexpr (abstract_type<X>) throw_abstract_type(meta<X>::ns, meta<X>::name);
    w.start_element(ns, local);
    write_complex_content(w, x);
    w.end_element();
  } else if constexpr (std::is_same_v<X, any_type>) {
    replay_element(w, x.xml, true, ns, name_text(local));
  } else if constexpr (std::is_same_v<X, any_element>) {
    replay_element(w, x.xml, false, {}, {});
  } else {
    static_assert(sizeof(X) == 0,
                  "lather::bind: no binding for this type: specialise lather::meta<T> "
                  "(complex type or enum) or xsd_traits<T> (simple type)");
  }
}

template <class Name, class X>
void write_value(xml::writer& w, std::string_view ns, Name local, const X& x,
                 xml::leaf_namespace* leaves) {
  if constexpr (group_type<X>) {  // a choice's alternative: its elements in place
    (void)ns, (void)local, (void)leaves;
    write_table(w, vt_of<X>(), &x);
  } else if constexpr (is_nillable<X>::value) {
    if (!x)
      write_nil(w, ns, local);
    else
      write_value(w, ns, local, *x, leaves);
  } else if constexpr (shape<X>::is_optional) {
    if (x) write_value(w, ns, local, *x, leaves);
  } else if constexpr (shape<X>::is_pointer) {
    if (has_object(x)) write_polymorphic(w, ns, local, x);
  } else if constexpr (formats_own_text<X>) {
    write_present_value(w, ns, local, x, leaves);
  } else {
    // A failure names the element on its way out (no instructions while nothing fails).
    try {
      write_present_value(w, ns, local, x, leaves);
    } catch (...) {
      rethrow_in_element(name_text(local));
    }
  }
}

/// The engaged alternative of the choice `v` as element {ns}names[index]. One function per
/// variant type, as read_alternative (std::visit would add one per alternative).
template <class V, std::size_t... I>
void write_alternative(xml::writer& w, std::string_view ns, const xml::ncname* names, const V& v,
                       std::index_sequence<I...>) {
  if (v.valueless_by_exception()) throw std::bad_variant_access{};  // as std::visit
  (void)((v.index() == I && (write_value(w, ns, names[I], *std::get_if<I>(&v)), true)) || ...);
}

template <class T, std::size_t I, class Slot>
void write_slot(xml::writer& w, const Slot& s, xml::leaf_namespace& leaves) {
  constexpr auto& f = std::get<I>(fields_of<T>);
  using names = field_names<T, I>;
  if constexpr (is_nillable<Slot>::value) {
    if (!s) return write_nil(w, f.ns, names::name);
    write_slot<T, I>(w, *s, leaves);
  } else if constexpr (is_variant<Slot>::value) {
    if constexpr (f.has_facets)
      check_alternative_on_write(complex_vt_of<T>::matches[I], s, alternative_indexes<Slot>{});
    write_alternative(w, f.ns, names::alternatives.data(), s, alternative_indexes<Slot>{});
  } else {
    if constexpr (f.has_facets && (simple_type<Slot> || enumeration_type<Slot>))
      check_facets_on_write(complex_vt_of<T>::matches[I], s, true);
    if constexpr (f.ns == meta<T>::ns)
      write_value(w, f.ns, names::name, s, &leaves);
    else
      write_value(w, f.ns, names::name, s);
  }
}

template <class T, std::size_t I>
void write_attr(xml::writer& w, const T& obj) {
  constexpr auto& f = std::get<I>(fields_of<T>);
  if constexpr (f.kind == field_kind::attribute) {
    const auto& m = obj.*(f.member);
    using M = std::remove_cvref_t<decltype(m)>;
    try {
      if constexpr (shape<M>::is_optional) {
        if constexpr (f.has_facets)
          if (m) check_facets_on_write(complex_vt_of<T>::matches[I], *m, false);
        if (m) write_attribute_value(w, f.ns, field_names<T, I>::name, *m);
      } else {
        if constexpr (f.has_facets) check_facets_on_write(complex_vt_of<T>::matches[I], m, false);
        write_attribute_value(w, f.ns, field_names<T, I>::name, m);
      }
    } catch (...) {
      rethrow_in_attribute(field_names<T, I>::name.text());
    }
  }
}

template <class T, std::size_t I>
void write_child(xml::writer& w, const T& obj, xml::leaf_namespace& leaves) {
  constexpr auto& f = std::get<I>(fields_of<T>);
  const auto& m = obj.*(f.member);
  using M = std::remove_cvref_t<decltype(m)>;
  using S = shape<M>;
  if constexpr (f.kind == field_kind::text) {
    if constexpr (f.has_facets) check_facets_on_write(complex_vt_of<T>::matches[I], m, false);
    write_simple_text(w, m);
  } else if constexpr (f.kind == field_kind::any) {
    if constexpr (S::is_vector) {
      for (const any_element& a : m) replay_element(w, a.xml, false, {}, {});
    } else if constexpr (S::is_optional) {
      if (m) replay_element(w, m->xml, false, {}, {});
    } else {
      replay_element(w, m.xml, false, {}, {});
    }
  } else if constexpr (f.kind == field_kind::element) {
    using names = field_names<T, I>;
    if constexpr (S::is_vector) {
      std::size_t index = 0;
      for (const slot_type<M>& s : m) {  // bool for a std::vector<bool>'s proxies
        ++index;
        try {
          write_slot<T, I>(w, s, leaves);
        } catch (...) {
          rethrow_in_item(index);
        }
      }
    } else if constexpr (S::is_optional) {
      // An empty optional<X> of a nillable field is xsi:nil; an empty optional<nillable<X>>
      // is absent (its engaged, empty nillable is the nil).
      if (m)
        write_slot<T, I>(w, *m, leaves);
      else if constexpr (f.is_nillable && !is_nillable<slot_type<M>>::value)
        write_nil(w, f.ns, names::name);
    } else if constexpr (S::is_pointer) {
      if (has_object(m))
        write_polymorphic(w, f.ns, names::name, m);
      else if (f.is_nillable)
        write_nil(w, f.ns, names::name);
    } else {
      write_slot<T, I>(w, m, leaves);
    }
  }
}

/// The index of T's unknown field (lather::unknown), or field_count<T>.
template <class T>
inline constexpr std::size_t unknown_index = [] {
  std::size_t found = field_count<T>, i = 0;
  visit_fields<T>([&](const auto& f) {
    if (f.kind == field_kind::unknown && found == field_count<T>) found = i;
    ++i;
  });
  return found;
}();

/// Before child field I of T: the unknown elements that came before it (from field `from` on).
template <class T, std::size_t I>
void write_unknown_before(xml::writer& w, const unknown_elements& kept, std::uint32_t& from) {
  constexpr field_kind kind = std::get<I>(fields_of<T>).kind;
  if constexpr (kind != field_kind::attribute && kind != field_kind::unknown) {
    if (!kept.empty()) write_unknown(w, kept, from, I);
    from = I + 1;
  }
}

/// The attributes of `x` (with `Attributes`) and its children from field From up to field To;
/// its unknown elements among them (those before field To: struct_writer writes the rest).
template <class T, bool Attributes, std::size_t From, std::size_t To>
[[gnu::always_inline]] inline void write_fields(xml::writer& w, const T& x) {
  xml::leaf_namespace leaves{meta<T>::ns};  // the simple children in T's own namespace
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    if constexpr (Attributes) {
      (write_attr<T, I>(w, x), ...);
      if constexpr (constexpr int any = any_attribute_index_v<T>; any >= 0)  // after the others
        write_any_attributes(w, complex_vt_of<T>::matches[any],
                             x.*(std::get<any>(fields_of<T>).member));
    }
    if constexpr (unknown_index<T> == field_count<T>) {
      (write_child<T, I>(w, x, leaves), ...);
    } else {
      const unknown_elements& kept = x.*(std::get<unknown_index<T>>(fields_of<T>).member);
      std::uint32_t from = From;
      ((write_unknown_before<T, I>(w, kept, from), write_child<T, I>(w, x, leaves)), ...);
      if (!kept.empty())
        write_unknown(w, kept, from, To == field_count<T> ? unknown_element::at_end : To);
    }
  }
  (make_index_range<From, To>{});
}

template <class T>
void write_complex_content(xml::writer& w, const T& x) {
  if constexpr (table_bound<T>)
    write_table(w, vt_of<T>(), &x);
  else
    write_fields<T, true, 0, field_count<T>>(w, x);
}

/// The sequence field of T whose member is Sequence (struct_reader, struct_writer).
template <class T, auto Sequence>
struct sequence_field {
  static constexpr std::size_t index = [] {
    std::size_t found = field_count<T>, i = 0;
    visit_fields<T>([&](const auto& f) {
      if constexpr (std::is_same_v<decltype(f.member), decltype(Sequence)>)
        if (f.member == Sequence) found = i;
      ++i;
    });
    return found;
  }();
  static_assert(index < field_count<T>, "Sequence is not a field of meta<T>");
  static constexpr const auto& field = std::get<index>(fields_of<T>);
  using member = typename std::remove_cvref_t<decltype(field)>::member_type;
  static_assert(field.kind == field_kind::element && shape<member>::is_vector,
                "Sequence must be a std::vector member bound as an element");
  using item = slot_type<member>;
};

template <class T>
bool read_top(read_ctx& c, T& value) {
  if constexpr (is_nillable<T>::value) {
    if (const xml::attribute* nil = scan_xsi(c.r).nil) {
      int v = nil_value(c, *nil);
      if (v < 0) return false;
      if (v == 1) {
        value.reset();
        return skip_nil_content(c);
      }
    }
    if (!value) value.emplace();
    return read_top(c, *value);
  } else if constexpr (is_polymorphic_holder<T>::value) {
    return refuse_nil(c) && read_pointer(c, value);
  } else if constexpr (shape<T>::is_pointer) {
    return read_pointer(c, value);
  } else {
    return refuse_nil(c) && read_value(c, value, 0, nullptr);
  }
}

}  // namespace detail

/// Read the element the reader is positioned on (token::start_element) into `value`; on return
/// the reader is on that element's end tag. Returns an empty error_info on success.
template <class T>
error_info read(xml::reader& r, T& value, const read_options& opts = {}) {
  detail::read_ctx c{r, opts};
  if (!detail::begin_read(c) || !detail::read_top(c, value)) return detail::finish_read(c);
  return {};
}

/// The typed view of a captured element: `xml` (an any_element's, an any_type's, an
/// unknown_elements item's, a retained_subtype's: standalone XML) read into `value` as read()
/// reads the element a reader is on, whatever the element is called. Where a schema says what
/// an xsd:any may hold (processContents="lax" beside known global elements, a vendor
/// extension), read it as that type without giving up the captured text.
template <class T>
error_info read_captured(std::string_view xml, T& value, const read_options& opts = {}) {
  xml::reader r;
  r.reset(xml);
  if (r.next() != xml::token::start_element)
    return {errc::xml_error, {}, "not a captured element: " + std::string(r.error().message())};
  return read(r, value, opts);
}

/// Read the attributes and children of the element the reader is positioned on into a
/// complex `value`, whatever that element is called and ignoring its xsi:type (for wrapper
/// elements the caller owns). The reader ends on the element's end tag.
template <complex_type T>
error_info read_content(xml::reader& r, T& value, const read_options& opts = {}) {
  detail::read_ctx c{r, opts};
  if (!detail::begin_read(c) || !detail::read_body(c, value)) return detail::finish_read(c);
  return {};
}

/// A complex value read in parts, in the simdjson On-Demand shape: the fields before one of its
/// sequences (the head), then that sequence's items one at a time into storage the caller
/// owns, then the rest. The binding's rules are those of read_content (schema order,
/// occurrences, xsi:nil, attributes, the same error paths); only the items skip `value`. For a
/// document too big to hold, or items to handle while the rest still arrives:
///
///   upload head;  Row row;                   // meta<upload>: name, tag, row (a vector)
///   bind::struct_reader<upload, &upload::row> in{r, head};   // r on <upload>
///   while (in.next(row)) consume(row);       // each row bound as it arrives
///   if (bind::error_info e = in.finish()) fail(e);   // fields after the rows; any error
///
/// read_head() reads the attributes and the fields before the sequence (next() calls it if
/// need be); next() binds the next item into `item` (reusing it: no allocation once warm) and
/// returns false at the end of the sequence or on an error; finish() skips the items not read,
/// reads the fields after the sequence through the end tag and returns the first error of
/// the whole read. `value`'s sequence stays empty; its fields after the sequence are valid
/// after finish(). Items beyond read_options::max_occurs are allowed (they are not held). The
/// reader must be on the value's start tag and ends on its end tag; like read_content, the
/// element's name and xsi:type are the caller's.
template <complex_type T, auto Sequence>
class struct_reader {
  using sequence = detail::sequence_field<T, Sequence>;
  static constexpr std::size_t index = sequence::index;

 public:
  /// The type of one item (the sequence's element type, nillable or pointer kept).
  using item_type = typename sequence::item;

  struct_reader(xml::reader& r, T& value, const read_options& opts = {})
      : opts_(opts), c_(r, opts_), value_(value) {}
  struct_reader(const struct_reader&) = delete;
  struct_reader& operator=(const struct_reader&) = delete;

  /// Read the attributes and the fields before the sequence into `value`; the fields after it
  /// are reset until finish(). Empty on success.
  error_info read_head() {
    if (at_ == position::start) open();
    return at_ == position::failed ? error_ : error_info{};
  }

  /// Bind the next item into `item`: false at the end of the sequence or on an error.
  bool next(item_type& item) {
    if (at_ == position::start) open();
    if (at_ == position::after_item) advance();
    if (at_ != position::on_item) return false;
    if (!detail::read_item<T, index>(c_, item, cursor_.alt)) return fail_item();
    ++counts_[index];
    at_ = position::after_item;
    return true;
  }

  /// Skip the items not read and read the rest of the value through its end tag. Empty
  /// unless this read failed anywhere.
  error_info finish() {
    if (at_ == position::start) open();
    while (at_ == position::on_item || at_ == position::after_item) {
      if (at_ == position::after_item) {
        advance();
        continue;
      }
      const xml::token t = c_.r.skip_element();
      if (t != xml::token::end_element) {
        detail::fail_xml(c_, t);
        fail();
        break;
      }
      ++counts_[index];
      at_ = position::after_item;
    }
    return at_ == position::failed ? error_ : error_info{};
  }

  /// Items bound or skipped so far.
  std::uint32_t count() const noexcept { return counts_[index]; }

 private:
  enum class position : std::uint8_t { start, on_item, after_item, done, failed };

  void open() {
    (value_.*Sequence).clear();
    if (!detail::begin_read(c_)) return fail();
    const detail::body_step s =
        detail::open_complex_body(c_, vt(), &value_, counts_.data(), cursor_);
    if (s == detail::body_step::stopped)
      advance();  // the children: up to the first item
    else
      settle(s);
    // The head is complete: reset the fields that did not occur (a reused value).
    if (at_ == position::on_item && vt().finalize) vt().finalize(vt(), &value_, counts_.data());
  }
  void advance() {
    settle(detail::read_complex_children(c_, vt(), &value_, counts_.data(), cursor_, index));
  }
  void settle(detail::body_step s) {
    switch (s) {
      case detail::body_step::done:
        at_ = position::done;
        break;
      case detail::body_step::stopped:  // on an item's start tag
        at_ = position::on_item;
        break;
      case detail::body_step::failed:
        fail();
        break;
    }
  }
  bool fail_item() {
    detail::push_field_segment(c_, detail::complex_vt_of<T>::matches[index], counts_[index],
                               cursor_.alt);
    fail();
    return false;
  }
  void fail() {
    error_ = detail::finish_read(c_);
    at_ = position::failed;
  }
  static const detail::complex_vt& vt() noexcept { return detail::vt_of<T>(); }

  read_options opts_;  // c_ refers to it
  detail::read_ctx c_;
  T& value_;
  std::array<std::uint32_t, field_count<T>> counts_{};
  detail::body_cursor cursor_;
  position at_ = position::start;
  error_info error_;
};

/// write_content in parts, struct_reader's counterpart: the attributes and the fields before
/// one of T's sequences, then items one at a time as they are produced, then the fields after
/// it; the bytes are those of write_content on the whole value. The caller starts and ends the
/// element.
///
///   w.start_element(ns, "dump");
///   bind::struct_writer<dump, &dump::row> out{w};
///   out.write_head(head);                  // head's sequence is not written
///   for (...) out.write_item(make_row());  // serialized right away
///   out.finish(head);                      // the fields after the sequence
///   w.end_element();
template <complex_type T, auto Sequence>
class struct_writer {
  static constexpr std::size_t index = detail::sequence_field<T, Sequence>::index;

 public:
  using item_type = typename detail::sequence_field<T, Sequence>::item;

  explicit struct_writer(xml::writer& w) noexcept : w_(w) {}
  /// The attributes of `value` and its fields before the sequence.
  void write_head(const T& value) { detail::write_fields<T, true, 0, index>(w_, value); }
  /// One item of the sequence.
  void write_item(const item_type& item) {
    xml::leaf_namespace leaves{meta<T>::ns};
    detail::write_slot<T, index>(w_, item, leaves);
  }
  /// The fields of `value` after the sequence.
  void finish(const T& value) {
    detail::write_fields<T, false, index + 1, field_count<T>>(w_, value);
  }

 private:
  xml::writer& w_;
};

/// Throwing form of read().
template <class T>
void read_or_throw(xml::reader& r, T& value, const read_options& opts = {}) {
  if (error_info e = read(r, value, opts)) throw error(std::move(e));
}

/// Write `value` as element {ns}local (nothing for an empty optional/pointer; xsi:nil for a
/// nil nillable). A value that cannot be written (an enum value not in its meta<E>::values, an
/// unlisted dynamic type, a character XML cannot carry) throws bind::error whose path names
/// the element or attribute ("/local/user[2]/birthDate"); the writer's own errors come as
/// errc::xml_error with its message.
template <class T>
void write(xml::writer& w, std::string_view ns, std::string_view local, const T& value) {
  try {
    detail::write_value(w, ns, local, value);
  } catch (const xml::error&) {
    detail::rethrow_as_write_error();
  }
}

/// Write the attributes and children of a complex `value` into the element the caller has
/// just started (before any other content). Errors as write()'s, the path starting at the
/// field ("/user/birthDate").
template <complex_type T>
void write_content(xml::writer& w, const T& value) {
  try {
    detail::write_complex_content(w, value);
  } catch (const xml::error&) {
    detail::rethrow_as_write_error();
  }
}

/// The other way: `value` written as the element {ns}local into standalone XML, for an
/// any_element (or unknown_elements item) to send. Errors as write()'s.
template <class T>
any_element to_captured(std::string_view ns, std::string_view local, const T& value) {
  xml::output out;
  xml::writer w{out};
  write(w, ns, local, value);
  return any_element{out.take()};
}

/// write() with `opts` (write_options::validate_facets: a value outside its field's facets
/// throws bind::error facet_violation before it is written).
template <class T>
void write(xml::writer& w, std::string_view ns, std::string_view local, const T& value,
           const write_options& opts) {
  const write_scope scope(opts);
  write(w, ns, local, value);
}

/// write_content() with `opts`, as write().
template <complex_type T>
void write_content(xml::writer& w, const T& value, const write_options& opts) {
  const write_scope scope(opts);
  write_content(w, value);
}

}  // namespace lather::bind
