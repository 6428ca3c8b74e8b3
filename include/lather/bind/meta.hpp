// lather/bind/meta.hpp — compile-time binding metadata: how a C++ type maps to XML Schema.
//
// Describe a type once, non-intrusively, by specialising lather::meta<T>:
//
//   struct SimpleStruct { float varFloat; std::string varString; std::string varAttrString; };
//   template <> struct lather::meta<SimpleStruct> {
//     static constexpr std::string_view name = "SimpleStruct";          // XSD type name
//     static constexpr std::string_view ns = "http://example.com/t";    // target namespace
//     static constexpr auto fields = std::tuple{   // schema order; lather::fields(...) is cheaper
//         element("varFloat", &SimpleStruct::varFloat),
//         element("varString", &SimpleStruct::varString),
//         attribute("varAttrString", &SimpleStruct::varAttrString)};
//   };
//
// Keys a complex type's meta may have (only name, ns and fields are required):
//   element_form    lather::bind::form::qualified (default) or unqualified: elementFormDefault
//   using base = B  xsd:extension of B (B's fields come first; xsi:type polymorphism)
//   using derived = lather::types<D1, D2>   types an xsi:type may name where B is expected
//   encoding        lather::bind::encoding::soap: an RPC/encoded message (soap/encoded.hpp)
//   abstract        true: XSD abstract="true" (as an abstract C++ class is): no element may
//                   have it as its type, so where it is declared an xsi:type must name a
//                   concrete derived type (lather-wsdl2cpp says it for abstract types)
//   group           true: an inline model group, without an element of its own (group_type)
//   schema_only     true: every type T reaches maps to XML Schema (no maps, no arrays of
//                   arrays), so a service's WSDL generator takes it without checking each at
//                   compile time (lather-wsdl2cpp says it for every struct)
// An enumeration (a C++ enum restricted from xsd:string) has name, ns and
//   static constexpr auto values = lather::enum_values<Colour>({{Colour::red, "RED"}, ...});
//
// Member types carry occurrence: T is 1..1, std::optional<T> 0..1, std::vector<T> 0..unbounded,
// std::unique_ptr<T>/std::shared_ptr<T> 0..1 and polymorphic, lather::polymorphic<T> 1..1 and
// polymorphic (a value: lather/bind/polymorphic.hpp), lather::nillable<T> may be
// xsi:nil, std::optional<lather::nillable<T>> 0..1 and nillable with absent (nullopt) and nil
// (an empty nillable) distinct (an empty std::optional<T> of a .nillable() field is written as
// xsi:nil), std::variant<A, B> is an xsd:choice (see choice()). Field modifiers refine this:
// .min(n) .max(n) .nillable() .qualified() .unqualified() .in_namespace(uri) .default_value(text)
// .required() (attributes) .facets(f) (simple values: lather/bind/facets.hpp; a choice's
// alternatives take theirs in choice(m, names, facets)).
//
// Element and attribute names must be NCNames (XML names without ':'): a name that is not one
// fails to compile, with element_or_attribute_name_is_not_an_NCName in the error.
//
// Everything stays introspectable: lather::bind::describe<T>() (see describe.hpp) gives a static
// description for schema generators, lather::bind::visit_fields<T>(f) the compile-time fields.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "lather/bind/any_attributes.hpp"
#include "lather/bind/facets.hpp"
#include "lather/bind/unknown.hpp"
#include "lather/bind/xsd.hpp"
#include "lather/xml/name.hpp"

namespace lather {

/// Binding metadata of T. Specialise it (see the file comment); the primary template is left
/// undefined so the concepts below can tell bound types from others.
template <class T>
struct meta;

/// A value that may be absent on the wire as xsi:nil="true" (XSD nillable). Empty = nil.
///
/// Its destructor and move constructor are compiled out of line, once per T and translation
/// unit: a contract's struct T is destroyed and moved through its nillable holders in many
/// places (each vector of them that grows and shrinks, each optional emptied, each struct and
/// message that holds one), and inlining T's whole destructor or move into each of those
/// costs compile time and code for nothing. Defaulted on their first declaration, they stay
/// trivial for a trivial T, and noexcept as std::optional<T>'s.
template <class T>
class nillable : public std::optional<T> {
 public:
  using std::optional<T>::optional;
  nillable() = default;
  nillable(const nillable&) = default;
  [[gnu::noinline]] nillable(nillable&&) = default;
  nillable& operator=(const nillable&) = default;
  nillable& operator=(nillable&&) = default;
  [[gnu::noinline]] ~nillable() = default;
  bool is_nil() const noexcept { return !this->has_value(); }
  friend bool operator==(const nillable& a, const nillable& b) {
    return static_cast<const std::optional<T>&>(a) == static_cast<const std::optional<T>&>(b);
  }
};

/// A list of types (used for meta<T>::derived).
template <class... Ts>
struct types {};

template <class B>
class polymorphic;  // lather/bind/polymorphic.hpp

/// An enumeration E (meta<E>::values) that also holds a value the schema does not list, as
/// received (XSD enumerations grow: a server adds a value and an older client still reads the
/// response). Reading keeps such a value where read_options::keep_unknown_enums says so (a
/// client's default) and writing sends its text back unchanged; a known value is an E and its
/// text stays empty (no allocation). It converts to and from E, so `x == E::a`, `x = E::a` and
/// `switch (x)` work: an unknown value compares unequal to every enumerator and converts to an
/// E no enumerator has (the least non-negative such value), which a switch's default takes.
/// lather-wsdl2cpp declares every enumeration-typed element and attribute with it.
template <class E>
class open_enum {
  static_assert(
      std::is_enum_v<E> && requires { E{std::underlying_type_t<E>{}}; },
      "lather::open_enum<E>: E must be an enumeration with a fixed underlying type");

 public:
  using value_type = E;
  constexpr open_enum() noexcept { check_layout(); }
  constexpr open_enum(E v) noexcept : value_(v) { check_layout(); }
  constexpr open_enum& operator=(E v) noexcept {
    text_.clear();
    value_ = v;
    return *this;
  }
  /// A value the enumeration does not list, with its lexical form `text`.
  static open_enum unknown(std::string_view text) {
    open_enum o;
    o.assign_unknown(text);
    return o;
  }
  /// Make this value the unlisted one of lexical form `text` (its storage reused).
  void assign_unknown(std::string_view text) {
    text_.assign(text);
    constexpr E unknown = unknown_value();
    value_ = unknown;
  }
  /// Whether the value is one of meta<E>::values (or another E set from C++).
  constexpr bool known() const noexcept {
    constexpr E unknown = unknown_value();
    return value_ != unknown;
  }
  constexpr E value() const noexcept { return value_; }
  constexpr operator E() const noexcept { return value_; }
  /// An unknown value's lexical form as read; empty for a known one.
  const std::string& text() const noexcept { return text_; }
  /// The E an unknown value holds: the least non-negative one no enumerator of meta<E> has.
  static constexpr E unknown_value() noexcept {
    using U = std::underlying_type_t<E>;
    for (U u = 0;; ++u) {
      bool listed = false;
      for (const auto& e : meta<E>::values) listed = listed || e.value == static_cast<E>(u);
      if (!listed) return static_cast<E>(u);
    }
  }

  friend constexpr bool operator==(const open_enum& a, E b) noexcept { return a.value_ == b; }
  friend bool operator==(const open_enum& a, const open_enum& b) noexcept {
    return a.value_ == b.value_ && (a.known() || a.text_ == b.text_);
  }

 private:
  /// The library reads and writes an open_enum without E's type: the text at its start, the E
  /// after it (bind::detail::enum_codec::open).
  static constexpr void check_layout() noexcept {
    static_assert(std::is_standard_layout_v<open_enum> &&
                  offsetof(open_enum, value_) == sizeof(std::string));
  }
  std::string text_;
  E value_{};
};

}  // namespace lather

namespace lather::bind {

/// What a field is in XML.
enum class field_kind : std::uint8_t {
  element,    ///< a child element (repeated for std::vector)
  attribute,  ///< an attribute of the type's element
  text,       ///< the text value of a simple-content type (xsd:simpleContent)
  any,        ///< xsd:any: foreign child elements kept as raw XML (any_element)
  /// Not in the schema: the child elements no other field takes, kept (unknown_elements,
  /// lather/bind/unknown.hpp).
  unknown,
  /// xsd:anyAttribute: the attributes no other field takes, kept by name (any_attributes)
  any_attribute,
};

/// How values of a type go on the wire (meta<T>::encoding, optional).
enum class encoding : std::uint8_t {
  literal,  ///< as its schema says (document/literal, rpc/literal): the default
  /// SOAP 1.1 section 5 (lather/soap/encoded.hpp): xsi:type on every value, SOAP-ENC arrays,
  /// multi-refs; a request or response type with it makes its operation rpc/encoded
  soap,
};

/// Element form (elementFormDefault / form="..."): qualified elements are in the namespace of
/// the type that declares them, unqualified ones in no namespace.
enum class form : std::uint8_t { unset, qualified, unqualified };

/// maxOccurs="unbounded".
inline constexpr std::uint32_t unbounded = 0xFFFFFFFFu;

/// One foreign element captured whole (xsd:any): its XML text with every namespace it uses
/// declared on it, so it can be re-emitted anywhere faithfully.
struct any_element {
  std::string xml;
  friend bool operator==(const any_element&, const any_element&) = default;
};

/// The content of an element declared as xsd:anyType: the element as received (attributes,
/// namespace declarations, children, text). On write its content goes under the field's name.
struct any_type {
  std::string xml;
  friend bool operator==(const any_type&, const any_type&) = default;
};

/// What an element keeps when its xsi:type names a type with no binding (a subtype the peer
/// has and this program has not): the part of unknown_subtype<B> that does not depend on B.
struct retained_subtype {
  /// The xsi:type: its namespace and local name (and the prefix it had, for information).
  xsd::qname type;
  /// The element as received, as standalone XML (any_type's form). Writing the object writes
  /// this content back under the member's name, with `type` as its xsi:type.
  std::string xml;
  friend bool operator==(const retained_subtype&, const retained_subtype&) = default;
};

/// A value whose xsi:type names a type with no binding, where a std::shared_ptr<B> (or
/// std::unique_ptr<B>) member expects a B or a type derived from it (read_options::
/// keep_unknown_subtypes): a B with B's content read from the element (other elements and
/// attributes skipped), and the whole element kept (retained_subtype). Written back, the
/// element is the one received (retained_subtype::xml), whatever B's members hold by then.
/// Only for a polymorphic B that can be made (an abstract C++ class cannot; a B whose meta
/// says `abstract` can: this object's type is the peer's, not B).
template <class B>
struct unknown_subtype final : B, retained_subtype {
  friend bool operator==(const unknown_subtype& a,
                         const unknown_subtype& b) requires std::equality_comparable<B> {
    return static_cast<const B&>(a) == static_cast<const B&>(b) &&
           static_cast<const retained_subtype&>(a) == static_cast<const retained_subtype&>(b);
  }
};

/// Whether an unknown xsi:type where a pointer to B is expected can be kept as an
/// unknown_subtype<B>.
template <class B>
inline constexpr bool keeps_unknown_subtypes =
    std::is_polymorphic_v<B> && !std::is_abstract_v<B> && !std::is_final_v<B> &&
    std::is_default_constructible_v<B>;

// ---- member shapes: how a member type maps to occurrence ----

/// How a member type maps to occurrence: its per-occurrence value_type, minOccurs/maxOccurs,
/// and which kind of holder it is (every layer that walks members uses this one description).
template <class T>
struct shape {
  using value_type = T;
  static constexpr std::uint32_t min = 1, max = 1;
  static constexpr bool is_optional = false, is_vector = false, is_pointer = false;
  static constexpr bool is_shared = false;  ///< std::shared_ptr (RPC/encoded multi-refs)
};
template <class T>
struct shape<std::optional<T>> {
  using value_type = T;
  static constexpr std::uint32_t min = 0, max = 1;
  static constexpr bool is_optional = true, is_vector = false, is_pointer = false;
  static constexpr bool is_shared = false;
};
template <class T, class A>
struct shape<std::vector<T, A>> {
  using value_type = T;
  static constexpr std::uint32_t min = 0, max = unbounded;
  static constexpr bool is_optional = false, is_vector = true, is_pointer = false;
  static constexpr bool is_shared = false;
};
template <class T, class D>
struct shape<std::unique_ptr<T, D>> {
  using value_type = T;
  static constexpr std::uint32_t min = 0, max = 1;
  static constexpr bool is_optional = false, is_vector = false, is_pointer = true;
  static constexpr bool is_shared = false;
};
template <class T>
struct shape<std::shared_ptr<T>> {
  using value_type = T;
  static constexpr std::uint32_t min = 0, max = 1;
  static constexpr bool is_optional = false, is_vector = false, is_pointer = true;
  static constexpr bool is_shared = true;
};
/// lather::nillable<T> (xsi:nil).
template <class T>
struct is_nillable : std::false_type {};
template <class T>
struct is_nillable<nillable<T>> : std::true_type {
  using value_type = T;
};
/// std::variant (an xsd:choice).
template <class T>
struct is_variant : std::false_type {};
template <class... Ts>
struct is_variant<std::variant<Ts...>> : std::true_type {};

namespace detail {
template <class T>
struct unwrap_nillable {
  using type = T;
};
template <class T>
struct unwrap_nillable<nillable<T>> {
  using type = T;
};
/// The declared type of a choice alternative's element: nillable<X> peeled, and a
/// polymorphic<B>'s B (its xsi:type may name a type of B's hierarchy).
template <class A>
struct declared_type {
  using type = typename unwrap_nillable<A>::type;
};
template <class B>
struct declared_type<polymorphic<B>> {
  using type = B;
};
template <class B>
struct declared_type<nillable<polymorphic<B>>> {
  using type = B;
};
}  // namespace detail

/// The per-occurrence value type of a member: vector<optional<...>> etc. peeled, nillable kept.
template <class Member>
using slot_type = typename shape<Member>::value_type;
/// The bound value type: slot_type without nillable.
template <class Member>
using value_type_of = typename detail::unwrap_nillable<slot_type<Member>>::type;

// ---- type categories ----

/// Whether T is bound through a table (LATHER_BIND_TABLE(T), lather/bind/table.hpp): its
/// meta<T> names the type and its hierarchy, its table (and describe<T>()) holds the fields.
template <class T>
inline constexpr bool table_bound = false;

/// A complex type: meta<T> lists fields, or a table does.
template <class T>
concept complex_type = table_bound<T> || requires {
  meta<T>::fields;
};
/// An enumeration bound through meta<T>::values.
template <class T>
concept enum_type = std::is_enum_v<T> && requires {
  meta<T>::values;
};
namespace detail {
template <class E>
errc parse_enum(std::string_view text, E& out);
template <class E>
std::string_view enum_name(E v);
}  // namespace detail

namespace detail {
/// E for E and for open_enum<E>: the type whose meta<E> names the values (`open`: an
/// open_enum).
template <class T>
struct enum_of {
  using type = T;
  static constexpr bool open = false;
};
template <class E>
struct enum_of<open_enum<E>> {
  using type = E;
  static constexpr bool open = true;
};
}  // namespace detail
/// An open_enum<E> (lather::open_enum) of an enumeration E.
template <class T>
concept open_enum_type = detail::enum_of<T>::open && enum_type<typename T::value_type>;
/// An enumeration, closed (E) or open (open_enum<E>): read and written by its names.
template <class T>
concept enumeration_type = enum_type<T> || open_enum_type<T>;
template <class T>
using enum_of_t = typename detail::enum_of<T>::type;

/// An enumeration as an xsd:list item: its names in meta<E>::values.
template <enum_type E>
struct list_item<E> {
  static constexpr std::string_view type_name = meta<E>::name;
  template <class... Ctx>
  static errc parse(std::string_view text, E& out, const Ctx&...) noexcept {
    return detail::parse_enum(text, out);
  }
  static void format(E value, std::string& out) { out.append(detail::enum_name(value)); }
};
/// An open enumeration as an xsd:list item (bind::read keeps an unknown item where
/// read_options::keep_unknown_enums says so; here, without the options, it is an error).
template <open_enum_type E>
struct list_item<E> {
  static constexpr std::string_view type_name = meta<typename E::value_type>::name;
  template <class... Ctx>
  static errc parse(std::string_view text, E& out, const Ctx&...) {
    typename E::value_type v{};
    const errc e = detail::parse_enum(text, v);
    if (e == errc::ok) out = v;
    return e;
  }
  static void format(const E& value, std::string& out) {
    if (value.known())
      out.append(detail::enum_name(value.value()));
    else
      out.append(value.text());
  }
};

/// An inline model group (meta<T>::group = true, table-bound types only): a struct for a
/// nested xs:sequence (or a choice inside one) whose fields are read and written in place, in
/// the content of the element that holds it, without an element of its own. A member of it
/// (plain, optional or vector) or a choice alternative of it begins where one of the elements
/// that may start it occurs (lather-wsdl2cpp writes them: docs/binding.md, "Inline groups").
template <class T>
concept group_type = requires {
  requires bool{meta<T>::group};
};

/// A complex type that declares an extension base.
template <class T>
concept derived_type = complex_type<T> && requires {
  typename meta<T>::base;
};

// ---- fields ----

/// One field of a complex type. Built with lather::element(), attribute(), text(), any(),
/// any_attribute() or choice() and refined with the modifiers; `Alts` is the number of choice
/// alternatives.
template <class Owner, class Member, std::size_t Alts = 0>
struct field {
  using owner_type = Owner;
  using member_type = Member;

  Member Owner::*member;
  std::string_view name;
  field_kind kind;
  std::uint32_t min_occurs;
  std::uint32_t max_occurs;
  bool is_nillable = false;
  bool is_required = false;  ///< attributes: use="required"
  form element_form = form::unset;
  bool has_ns = false;    ///< ns was set explicitly or resolved from the owning type
  std::string_view ns{};  ///< namespace of the element/attribute ("" = none)
  bool has_default = false;
  std::string_view default_text{};                    ///< XSD default="..." (lexical form)
  std::array<std::string_view, Alts> alternatives{};  ///< choice: element name per alternative
  /// choice(m, names, facets): each alternative's facets (nullptr for one without); has_facets
  /// says they were given.
  std::array<const bind::facets*, Alts> alternative_constraints{};
  /// any(), any_attribute(): the namespace constraint ("" = ##any)
  std::string_view wildcard{};
  const bind::facets* constraints = nullptr;  ///< .facets(): the XSD facets of a simple value
  /// .facets() was given: what the binding tests at compile time, never `constraints` against
  /// nullptr (g++ -fsanitize=undefined takes no address of a constant with external linkage,
  /// such as a static member of a meta<T> in a header, as comparable with nullptr there).
  bool has_facets = false;

  constexpr field min(std::uint32_t n) const {
    field f = *this;
    f.min_occurs = n;
    return f;
  }
  constexpr field max(std::uint32_t n) const {
    field f = *this;
    f.max_occurs = n;
    return f;
  }
  constexpr field nillable() const {
    field f = *this;
    f.is_nillable = true;
    return f;
  }
  constexpr field required() const {
    field f = *this;
    f.is_required = true;
    return f;
  }
  constexpr field qualified() const {
    field f = *this;
    f.element_form = form::qualified;
    return f;
  }
  constexpr field unqualified() const {
    field f = *this;
    f.element_form = form::unqualified;
    return f;
  }
  /// An element or attribute in another namespace (e.g. ref="other:elem").
  constexpr field in_namespace(std::string_view uri) const {
    field f = *this;
    f.has_ns = true;
    f.ns = uri;
    return f;
  }
  /// XSD default: used when an attribute is absent or an element is present but empty.
  constexpr field default_value(std::string_view text) const {
    field f = *this;
    f.has_default = true;
    f.default_text = text;
    return f;
  }
  /// The XSD facets of a simple element's, attribute's or text's type (lather/bind/facets.hpp),
  /// checked on read where read_options::validate_facets and on write where
  /// write_options::validate_facets. `x` is a constant of static storage; with a default, it
  /// holds the default too (x.default_value).
  constexpr field facets(const bind::facets& x) const {
    static_assert(Alts == 0,
                  "a choice's alternatives take their facets in choice(m, names, facets)");
    field f = *this;
    f.constraints = &x;
    f.has_facets = true;
    return f;
  }
  /// any(), any_attribute(): the wildcard's namespace constraint, as XSD's namespace="..."
  /// writes it (##any, ##other, or a list of URIs, ##targetNamespace and ##local; the last two
  /// and ##other relative to the field's namespace, its type's): an element (an attribute)
  /// outside it is not the wildcard's. Described (describe<T>(), a service's WSDL) as given.
  constexpr field namespaces(std::string_view constraint) const {
    field f = *this;
    f.wildcard = constraint;
    return f;
  }
};

namespace detail {

// Not constexpr on purpose: reached only while a constant is evaluated, where calling it is an
// error whose message names it.
inline void element_or_attribute_name_is_not_an_NCName() {}

/// Metadata is evaluated when the program compiles (meta<T>::fields is constexpr): a name that
/// is not an NCName (empty, with ':', a space, a leading digit, ...) stops the compilation there,
/// with the call above in the error message.
constexpr void check_name(std::string_view name) {
  if (std::is_constant_evaluated() && !xml::is_ncname(name))
    element_or_attribute_name_is_not_an_NCName();
}

}  // namespace detail

/// One entry of a field_list.
template <std::size_t I, class F>
struct field_slot {
  F value;
};
template <class Indexes, class... Fs>
struct field_slots;
template <std::size_t... I, class... Fs>
struct field_slots<std::index_sequence<I...>, Fs...> : field_slot<I, Fs>... {};

/// meta<T>::fields made with lather::fields(...): a plain aggregate, far cheaper to compile
/// than a std::tuple of the same fields (bind makes the tuple only where it binds T).
template <class... Fs>
struct field_list : field_slots<std::index_sequence_for<Fs...>, Fs...> {
  static constexpr std::size_t size = sizeof...(Fs);
};

template <class L>
struct is_field_list : std::false_type {};
template <class... Fs>
struct is_field_list<field_list<Fs...>> : std::true_type {};

/// Entry I of a field_list.
template <std::size_t I, class F>
constexpr const F& field_at(const field_slot<I, F>& s) {
  return s.value;
}

}  // namespace lather::bind

namespace lather {

/// meta<T>::fields = lather::fields(element(...), attribute(...), ...): the same fields as a
/// std::tuple{...} of them, cheaper to compile where many types are bound (lather-wsdl2cpp
/// writes it).
template <class... Fs>
constexpr bind::field_list<Fs...> fields(Fs... f) {
  return {{{f}...}};
}

/// A child element bound to a member. Occurrence follows the member type (see file comment).
template <class Owner, class Member>
constexpr bind::field<Owner, Member> element(std::string_view name, Member Owner::*m) {
  bind::detail::check_name(name);
  using S = bind::shape<Member>;
  bind::field<Owner, Member> f{m, name, bind::field_kind::element, S::min, S::max};
  f.is_nillable = bind::is_nillable<bind::slot_type<Member>>::value;
  return f;
}

/// An attribute (optional unless .required(); unqualified unless .qualified()/.in_namespace()).
template <class Owner, class Member>
constexpr bind::field<Owner, Member> attribute(std::string_view name, Member Owner::*m) {
  bind::detail::check_name(name);
  return {m, name, bind::field_kind::attribute, 0, 1};
}

/// The text value of a simple-content type (a struct with attributes and a text value).
template <class Owner, class Member>
constexpr bind::field<Owner, Member> text(Member Owner::*m) {
  return {m, {}, bind::field_kind::text, 1, 1};
}

/// xsd:any: foreign elements at this point of the sequence, kept as raw XML. The member is an
/// any_element, std::optional<any_element> or std::vector<any_element>.
template <class Owner, class Member>
constexpr bind::field<Owner, Member> any(Member Owner::*m) {
  using S = bind::shape<Member>;
  static_assert(std::is_same_v<typename S::value_type, bind::any_element>,
                "lather::any() needs an any_element member (or optional/vector of it)");
  return {m, {}, bind::field_kind::any, S::min, S::max};
}

/// xsd:anyAttribute: the attributes of the type's element that no attribute field takes (and
/// that .namespaces(), if given, allows), kept in an any_attributes member and written after
/// the declared attributes (lather/bind/any_attributes.hpp). One per type, its bases included.
template <class Owner, class Member>
constexpr bind::field<Owner, Member> any_attribute(Member Owner::*m) {
  static_assert(std::is_same_v<Member, bind::any_attributes>,
                "lather::any_attribute() needs a lather::bind::any_attributes member");
  return {m, {}, bind::field_kind::any_attribute, 0, 1};
}

/// The child elements no other field of the type takes, kept in an unknown_elements member
/// and written back (lather/bind/unknown.hpp): not part of the schema. One per type.
template <class Owner, class Member>
constexpr bind::field<Owner, Member> unknown(Member Owner::*m) {
  static_assert(std::is_same_v<Member, bind::unknown_elements>,
                "lather::unknown() needs an unknown_elements member");
  bind::field<Owner, Member> f{m, {}, bind::field_kind::unknown, 0, bind::unbounded};
  f.has_ns = true;  // none: its elements are in any namespace
  return f;
}

/// xsd:choice over a std::variant member (or optional/vector of one): one element name per
/// alternative, in the variant's order.
template <class Owner, class Member, std::size_t N>
constexpr bind::field<Owner, Member, N> choice(Member Owner::*m,
                                               const std::string_view (&names)[N]) {
  using S = bind::shape<Member>;
  static_assert(bind::is_variant<typename S::value_type>::value,
                "lather::choice() needs a std::variant member (or optional/vector of one)");
  static_assert(std::variant_size_v<typename S::value_type> == N,
                "lather::choice(): give one element name per variant alternative");
  bind::field<Owner, Member, N> f{m, {}, bind::field_kind::element, S::min, S::max};
  for (std::size_t i = 0; i < N; ++i) {
    bind::detail::check_name(names[i]);
    f.alternatives[i] = names[i];
  }
  return f;
}
/// The same with each alternative's facets (lather/bind/facets.hpp; nullptr for one without),
/// checked as a field's are (.facets()) on the value of the alternative that occurs, and
/// described with it:
///   choice(&T::what, {"code", "count"}, {&code_facets, nullptr})
template <class Owner, class Member, std::size_t N>
constexpr bind::field<Owner, Member, N> choice(Member Owner::*m, const std::string_view (&names)[N],
                                               const bind::facets* const (&constraints)[N]) {
  bind::field<Owner, Member, N> f = choice(m, names);
  for (std::size_t i = 0; i < N; ++i) f.alternative_constraints[i] = constraints[i];
  f.has_facets = true;  // not from the pointers: see field::has_facets
  return f;
}

/// One value of an enumeration.
template <class E>
struct enumerator {
  E value;
  std::string_view name;
};

/// meta<E>::values = enum_values<E>({{E::a, "A"}, {E::b, "B"}}).
template <class E, std::size_t N>
constexpr std::array<enumerator<E>, N> enum_values(const enumerator<E> (&v)[N]) {
  std::array<enumerator<E>, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = v[i];
  return out;
}

}  // namespace lather

namespace lather::bind {

namespace detail {

template <class T>
constexpr form type_form() {
  if constexpr (requires { meta<T>::element_form; })
    return meta<T>::element_form;
  else
    return form::qualified;
}

/// Fill in the namespace of a field declared by type T (elements: T's namespace when
/// qualified; attributes: none unless qualified; xsd:any and xsd:anyAttribute: T's, which their
/// namespace constraint's ##targetNamespace and ##other name).
template <class T, class F>
constexpr F resolve_field(F f) {
  if (f.has_ns) return f;
  form fm = f.element_form;
  if (fm == form::unset)
    fm = f.kind == field_kind::attribute                                    ? form::unqualified
         : f.kind == field_kind::any || f.kind == field_kind::any_attribute ? form::qualified
                                                                            : type_form<T>();
  f.has_ns = true;
  f.ns = (fm == form::qualified) ? std::string_view{meta<T>::ns} : std::string_view{};
  return f;
}

template <class T, std::size_t... I>
constexpr auto own_fields_of_list(std::index_sequence<I...>) {
  return std::tuple{resolve_field<T>(field_at<I>(meta<T>::fields))...};
}

template <class T>
constexpr auto own_fields() {
  using list = std::remove_cvref_t<decltype(meta<T>::fields)>;
  if constexpr (is_field_list<list>::value)
    return own_fields_of_list<T>(std::make_index_sequence<list::size>{});
  else
    return std::apply([](auto... f) { return std::tuple{resolve_field<T>(f)...}; },
                      meta<T>::fields);
}

template <class T>
constexpr auto collect_fields() {
  if constexpr (derived_type<T>) {
    using B = typename meta<T>::base;
    static_assert(std::is_base_of_v<B, T>, "meta<T>::base must be a base class of T");
    return std::tuple_cat(collect_fields<B>(), own_fields<T>());
  } else {
    return own_fields<T>();
  }
}

template <class... Lists>
struct concat_types;
template <>
struct concat_types<> {
  using type = types<>;
};
template <class... As>
struct concat_types<types<As...>> {
  using type = types<As...>;
};
template <class... As, class... Bs, class... Rest>
struct concat_types<types<As...>, types<Bs...>, Rest...> {
  using type = typename concat_types<types<As..., Bs...>, Rest...>::type;
};

template <class T>
struct derived_list;
template <class... Ts>
struct flatten_derived {
  using type = typename concat_types<types<Ts>..., typename derived_list<Ts>::type...>::type;
};
template <class T>
struct derived_list {
  using type = types<>;
};
template <class T>
requires requires {
  typename meta<T>::derived;
}
struct derived_list<T> {
  template <class... Ts>
  static auto flatten(types<Ts...>) -> typename flatten_derived<Ts...>::type;
  using type = decltype(flatten(typename meta<T>::derived{}));
};

}  // namespace detail

/// Every field of T, base-type fields first, namespaces resolved.
template <complex_type T>
inline constexpr auto fields_of = detail::collect_fields<T>();

/// T's own fields, without those of its extension base, namespaces resolved (what a schema
/// generator writes inside xsd:extension).
template <complex_type T>
inline constexpr auto own_fields_of = detail::own_fields<T>();

/// Number of fields of T (including inherited ones).
template <complex_type T>
inline constexpr std::size_t field_count =
    std::tuple_size_v<std::remove_cvref_t<decltype(fields_of<T>)>>;

/// Every type derived from T that an xsi:type may name (meta<T>::derived, transitively).
template <class T>
using derived_types_of = typename detail::derived_list<T>::type;

/// Call f(field) for every field of T (compile-time field objects: f.member, f.name, ...).
template <complex_type T, class F>
constexpr void visit_fields(F&& f) {
  std::apply([&f](const auto&... fld) { (f(fld), ...); }, fields_of<T>);
}

/// meta<T>::encoding, or encoding::literal when the meta does not say.
template <class T>
inline constexpr encoding encoding_of = [] {
  if constexpr (requires { meta<T>::encoding; })
    return encoding{meta<T>::encoding};
  else
    return encoding::literal;
}();

/// Whether T is an abstract complex type: meta<T>::abstract, or an abstract C++ class. No
/// element's type may be one (XSD cvc-elt 4.3, cvc-type 2): a reader refuses an xsi:type that
/// names T, and T where it is declared without an xsi:type (read_options says when to keep it).
template <class T>
inline constexpr bool abstract_type = [] {
  if constexpr (requires { meta<T>::abstract; })
    return std::is_abstract_v<T> || bool{meta<T>::abstract};
  else
    return std::is_abstract_v<T>;
}();

/// XSD type name and namespace of a bound type (xsd namespace for built-ins).
template <class T>
constexpr std::string_view type_name_of() {
  if constexpr (simple_type<T>)
    return xsd_traits<T>::type_name;
  else if constexpr (std::is_same_v<T, any_type>)
    return "anyType";
  else
    return meta<T>::name;
}
template <class T>
constexpr std::string_view type_ns_of() {
  if constexpr (simple_type<T> || std::is_same_v<T, any_type>)
    return xsd_namespace;
  else
    return meta<T>::ns;
}

}  // namespace lather::bind
