// lather/bind/detail/core.hpp — the non-template core the binding templates call into.
//
// The templates in bind.hpp only generate thin per-field thunks (fmt's vformat pattern); the
// element loop, schema-order matching, xsi handling, error paths and xsd:any capture are
// compiled once, in src/bind/core.cpp and src/bind/any.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lather/bind/describe.hpp"
#include "lather/bind/error.hpp"
#include "lather/bind/facets.hpp"
#include "lather/bind/meta.hpp"
#include "lather/bind/unknown.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::bind {

/// How read() treats input the schema does not allow.
struct read_options {
  /// Skip child elements the type does not declare instead of failing (attributes the type
  /// does not declare are always ignored, or kept by its xsd:anyAttribute field). A type with
  /// an unknown_elements member keeps them whatever this says (lather/bind/unknown.hpp).
  bool skip_unknown_elements = false;
  /// An element whose declared type is abstract (meta<T>::abstract) and that carries no
  /// xsi:type is an error, as XSD has it; true reads it as the declared type (for a client
  /// that tolerates a peer leaving xsi:type out). An xsi:type that names an abstract type is
  /// an error either way, and so is a missing one where the type is an abstract C++ class.
  bool keep_abstract_without_xsi_type = false;
  /// An xsi:type that names a type with no binding (a subtype the peer added) where a pointer
  /// to a polymorphic B is expected is an error (unknown_xsi_type), as for a server; true keeps
  /// it as an unknown_subtype<B>: B's content read, the whole element kept and written back as
  /// received. client_read_options() (client_options::read) sets it.
  bool keep_unknown_subtypes = false;
  /// Nesting of complex values (recursive types); beyond it errc::limit_exceeded.
  std::uint32_t max_depth = 256;
  /// Occurrences of one repeated element beyond which errc::limit_exceeded (a cap on memory
  /// amplification, independent of maxOccurs).
  std::uint32_t max_occurs = 1u << 24;
  /// Check the XSD facets of the fields that carry them (a table field's .facets(), which
  /// lather-wsdl2cpp writes for restricted simple types): a value outside them is
  /// errc::facet_violation. Off, the facets cost nothing.
  bool validate_facets = false;
  /// Read a date, time or dateTime that XSD refuses in the forms devices send (a space or '-'
  /// for 'T', minutes or seconds past 59 carried, a "+0200" zone: xsd::parse_lenient) instead
  /// of failing. client_read_options() sets it: one camera clock's quirk should not fail the
  /// whole response; a service stays strict.
  bool lenient_dates = false;
  /// An enumeration value the schema does not list (a server added it) read into an
  /// open_enum<E> (lather-wsdl2cpp's enumerations) is kept as received, and written back
  /// unchanged, instead of failing the read with errc::unknown_enum. client_read_options()
  /// sets it; a service stays strict (its peer's unknown value is a Client/Sender fault). A
  /// plain E (not open_enum) has nowhere to keep one: it is an error either way.
  bool keep_unknown_enums = false;
  /// Where not null, counts the child elements no field declares that reads with these options
  /// meet: kept (an unknown_elements member) or skipped (skip_unknown_elements). Nothing
  /// counted costs nothing: the counts are taken where such an element is met.
  unknown_counts* count_unknown = nullptr;
};

/// How a value is written (bind::write, write_content; a client's client_options::write, a
/// service's service_options::write).
struct write_options {
  /// Check the XSD facets of the fields that carry them (as read_options::validate_facets does
  /// on read) on the values written: a value outside them throws bind::error facet_violation
  /// with the field's path, before the element goes out. Off, the facets cost nothing.
  bool validate_facets = false;
};

/// Where `o` turns a check on (validate_facets), the write_options of the writes this thread
/// makes while it lives (the calls of bind::write and write_content that take options make one;
/// a client makes one of client_options::write around a request, a service of
/// service_options::write around a response). Scopes nest; one that turns nothing on changes
/// nothing (and costs a test).
class write_scope {
 public:
  explicit write_scope(const write_options& o) noexcept {
    if (o.validate_facets) [[unlikely]]
      enter(o);
  }
  ~write_scope() {
    if (entered_) [[unlikely]]
      leave();
  }
  write_scope(const write_scope&) = delete;
  write_scope& operator=(const write_scope&) = delete;

 private:
  void enter(const write_options& o) noexcept;
  void leave() noexcept;
  const write_options* outer_ = nullptr;
  bool entered_ = false;
};

/// read_options as a client takes answers by default (client_options::read): undeclared child
/// elements skipped (a newer server's additions, USER-PAIN row 1: a strict client fails every
/// call), unknown subtypes and enumeration values kept, device date forms read (a server is
/// strict by default: read_options{}). A strict client sets skip_unknown_elements and
/// keep_unknown_enums back to false.
constexpr read_options client_read_options() noexcept {
  read_options o;
  o.skip_unknown_elements = true;
  o.keep_unknown_subtypes = true;
  o.lenient_dates = true;
  o.keep_unknown_enums = true;
  return o;
}

inline constexpr std::string_view xsi_namespace = "http://www.w3.org/2001/XMLSchema-instance";

namespace detail {

struct read_ctx;
struct field_match;
struct complex_vt;

// Each reads field `f` of the struct at `obj` (a table's member at obj + f.offset).
using read_elem_fn = bool (*)(read_ctx&, void* obj, std::uint32_t occurrence, std::uint32_t alt,
                              const field_match& f);
using read_attr_fn = bool (*)(read_ctx&, void* obj, const xml::attribute* attr,
                              const field_match& f);
/// Parses the reader's text() (a whole simple element read by xml::reader::next_simple_element)
/// into the field's slot for `occurrence`.
using read_leaf_fn = bool (*)(read_ctx&, void* obj, std::uint32_t occurrence, const field_match& f);
using parse_fn = errc (*)(std::string_view text, void* out, const xml::reader& r);
/// Table fields: reset what did not occur (`count` occurrences were read). nullptr for a single
/// value with min_occurs > 0: a complete read has checked that it occurred.
using finalize_fn = void (*)(void* obj, std::uint32_t count, const field_match& f);
/// Table fields: write the attribute, or the element(s), of the struct at `obj`; `leaves`
/// resolves the struct's own namespace for its simple children.
using write_fn = void (*)(xml::writer& w, const void* obj, const field_match& f,
                          xml::leaf_namespace& leaves);
/// Whether an element {ns}local may begin an occurrence of field `f` whose elements are not
/// found by name alone (field_match::group), setting `alt` to its choice alternative: 1 by an
/// element's name, 2 only by a wildcard (an alternative another one begins by name takes it), 0
/// not at all.
using starts_fn = int (*)(const field_match& f, std::string_view ns, std::string_view local,
                          std::uint32_t& alt);

/// What a table field's member of a table-bound value type (plain, optional, vector or
/// nillable) is asked by the library's routines: the one function per member type
/// that creates, empties and trims its occurrences.
enum class slot_op : std::uint8_t {
  value,  ///< the value of occurrence `occ`, created (and engaged) if need be
  nil,    ///< occurrence `occ` made nil or absent; nullptr if the shape has no nil
  trim,   ///< finalize: `occ` occurrences were read
};
using slot_fn = void* (*)(void* member, std::uint32_t occ, slot_op op);

struct enum_codec;

/// How the fields of one member type and kind are read and written: one constant per member
/// type, kind and file (table.hpp's codec<M, Unit>), shared by every such field, so that a
/// field carries one pointer to its routines, not one per routine. The template binding
/// (meta<T>) has one per field, of its per-field thunks.
struct field_codec {
  union {
    read_elem_fn read_elem = nullptr;  ///< elements, any, text
    read_attr_fn read_attr;            ///< attributes (xsd:anyAttribute: capture_attributes)
  };
  /// Elements of a simple or enumeration type (plain, optional, vector or nillable): read from
  /// one reader call when the element is plain on the wire (only where field_match::read_whole).
  read_leaf_fn read_leaf = nullptr;
  // Tables only (nullptr in the template binding):
  finalize_fn finalize = nullptr;  ///< elements and any (run only where field_match::resets)
  write_fn write = nullptr;        ///< see write_fn
  /// An element whose member holds values of a table-bound type or of an enumeration: read
  /// and finalize are the library's (read_table_field, read_enum_field, ...), the member type
  /// has only its occurrences' function (`slot`) and write; the value type's view or codec.
  slot_fn slot = nullptr;
  const complex_vt& (*vt)() noexcept = nullptr;  ///< table-bound value type: vt_of
  const enum_codec* enumeration = nullptr;       ///< enumeration
  /// describe<the member's value type>: what a table's description says of the field's type
  /// (describe_table), kept here once per member type rather than once per field.
  describe_fn type = nullptr;
  bool plain = false;  ///< enumeration: the member is the value itself (a default applies)
  /// A member of inline groups, or a choice with a group alternative (field_match::group).
  starts_fn starts = nullptr;
};

/// Run-time view of one field (one static array per complex type). The template binding
/// (meta<T>) points it to routines of per-field thunks; a table (lather/bind/table.hpp) to its
/// member type's codec, which finds the member at `offset`.
struct field_match {
  /// The element or attribute name, checked at compile time ("" for text and xsd:any).
  xml::ncname write_name = xml::ncname(std::string_view{});
  std::string_view ns;
  /// A choice's element names (alternative_count of them), or the default="..." of a field
  /// with has_default, or the facets of a field with has_facets (they hold its default): a
  /// choice has neither, so the three share the bytes (default_text()). An xsd:any field with
  /// wildcard_namespaces keeps its namespace constraint in default_value.
  union {
    const xml::ncname* write_alternatives = nullptr;
    std::string_view default_value;
    const facets* constraints;
  };
  const field_codec* routines = nullptr;
  std::uint32_t min_occurs = 0;
  std::uint32_t max_occurs = 0;
  std::uint32_t alternative_count = 0;
  /// The next field after this one that is not an attribute (field_count if none): where
  /// schema order expects the next child once this field has occurred maxOccurs times.
  std::uint32_t next_element = 0;
  std::uint32_t offset = 0;  ///< tables: the member's offset in the struct
  field_kind kind{};
  // Two bytes of flags (the struct 80 bytes).
  /// Tables: this field or a later one is an attribute (where write_table's attributes end);
  /// on the first field, also where a field has facets (write_table tests this flag alone).
  bool attribute_at_or_after : 1 = false;
  /// Tables: this field or a later one has facets (on the first field: write_table checks the
  /// type's facets, where write_options::validate_facets, before it writes any field).
  bool facets_at_or_after : 1 = false;
  bool required : 1 = false;  ///< attribute use="required"
  bool has_default : 1 = false;
  /// Read through routines->read_leaf: an element of a simple or enumeration type (plain,
  /// optional, vector or nillable) with an ASCII NCName, no choice, and the type's own
  /// namespace or none.
  bool read_whole : 1 = false;
  bool leaf_in_type_ns : 1 = false;  ///< read_whole fields: in the type's namespace (else in none)
  /// Tables: routines->finalize resets what did not occur (false for a single value with
  /// min_occurs > 0: a complete read has checked that it occurred; attributes and text).
  bool resets : 1 = false;
  bool nillable : 1 = false;    ///< tables: xsi:nil allowed
  bool in_type_ns : 1 = false;  ///< tables: ns is the declaring type's namespace
  /// Tables: a pointer member, whose xsi:type may name a derived type (describe_table).
  bool polymorphic : 1 = false;
  /// Tables: `constraints` are checked where read_options::validate_facets; on a choice (which
  /// keeps its alternatives' names there), some alternative has facets (alternative_facets).
  bool has_facets : 1 = false;
  /// Tables: a member of an inline group type (group_type), or a choice with such an
  /// alternative: an element that does not match its name (or its alternatives' names, which
  /// name the first element of each group) may still begin it (routines->starts).
  bool group : 1 = false;
  /// xsd:any, xsd:anyAttribute: `default_value` is the wildcard's namespace="..." as given
  /// (.namespaces()), checked on read (wildcard_allows); ##targetNamespace and ##other are
  /// relative to `ns`.
  bool wildcard_namespaces : 1 = false;
  /// Tables: on the first field, the type has an unknown field (field_kind::unknown), whose
  /// elements write_table puts back among the others (attribute_at_or_after set with it).
  bool keeps_unknown : 1 = false;
  /// xsd:anyAttribute (kind attribute, no name, in its type's namespace): the attributes no
  /// other field takes, into its any_attributes member (routines->read_attr: capture_attributes;
  /// write_any_attributes), at most one per type. The element loop reads it as any attribute,
  /// so that a type without one pays nothing for it: its min_occurs is its index in its type's
  /// fields and its max_occurs their count (make_match, link_fields), from which it finds the
  /// other attributes.
  bool any_attributes : 1 = false;

  constexpr std::string_view name() const noexcept { return write_name.text(); }
  /// The XSD default of the value ("" if it has none).
  constexpr std::string_view default_text() const noexcept {
    if (!has_default) return {};
    return has_facets ? constraints->default_value : default_value;
  }
  /// Choice alternative `a`'s element name.
  constexpr std::string_view alternative(std::uint32_t a) const noexcept {
    return write_alternatives[a].text();
  }
};

using vt_list = std::span<const complex_vt* const>;

/// The element names of a choice, in the variant's order, and their descriptions (static
/// storage: a table's alternatives(), a meta<T> choice with its alternatives' facets). The
/// field keeps `checked` (field_match::write_alternatives); its description and
/// alternative_facets find `described` right after it (described_alternatives), not through a
/// pointer of its own.
template <std::size_t N>
struct choice_names {
  std::array<xml::ncname, N> checked;
  std::array<choice_alternative, N> described;
};
static_assert(offsetof(choice_names<1>, described) == sizeof(xml::ncname) &&
              offsetof(choice_names<3>, described) == 3 * sizeof(xml::ncname));

/// Run-time view of one complex type.
struct complex_vt {
  std::string_view name;
  std::string_view ns;
  const field_match* fields;
  std::uint32_t field_count;
  int text_field;  ///< index of the simple-content text field, or -1
  /// Reset fields that did not occur (optional, vector tail, defaults); nullptr: a table
  /// whose fields have nothing to reset after a complete read.
  void (*finalize)(const complex_vt& vt, void* obj, const std::uint32_t* counts);
  /// vt_of<the extension base> (no function of its own per derived type), or nullptr.
  const complex_vt& (*base)() noexcept;
  vt_list (*derived)();  ///< meta<T>::derived, flattened
};

/// complex_vt::derived of a type without derived types: shared by all of them
/// (src/bind/core.cpp), not one per type.
vt_list no_derived_vts() noexcept;

/// Per-read state. Error details are only built on failure; the happy path touches none of
/// the strings.
struct read_ctx {
  read_ctx(xml::reader& reader, const read_options& options) : r(reader), opts(options) {}
  xml::reader& r;
  const read_options& opts;
  std::uint32_t depth = 0;
  /// Unknown subtypes being read inside one another's kept element (read_unknown_subtype).
  std::uint32_t kept_depth = 0;
  errc code = errc::ok;
  std::string detail;
  /// Path segments collected while unwinding, innermost first: name and 1-based index (0 =
  /// not repeated). Names are static (metadata) strings.
  std::vector<std::pair<std::string_view, std::uint32_t>> segments;
  std::array<char, 128> root{};  ///< local name of the element read() started on
  std::uint32_t root_size = 0;
};

/// The xsi attributes of the current start tag.
struct xsi_attrs {
  const xml::attribute* nil = nullptr;
  const xml::attribute* type = nullptr;
};
/// The search of scan_xsi (src/bind/core.cpp).
xsi_attrs find_xsi(std::span<const xml::attribute> attributes) noexcept;
/// Most elements carry no attribute at all: that case costs a test where the thunks call this.
[[gnu::always_inline]] inline xsi_attrs scan_xsi(const xml::reader& r) noexcept {
  if (r.attributes().empty()) return {};
  return find_xsi(r.attributes());
}

// ---- reading (src/bind/core.cpp) ----

/// Record an error; always returns false so callers can `return fail(...)`.
bool fail(read_ctx& c, errc code, std::string detail);
/// The same with a constant message (no std::string built at the call).
bool fail(read_ctx& c, errc code, const char* detail);
/// A field bound to a value that cannot be read as a simple element (or an attribute).
bool fail_not_simple(read_ctx& c, const field_match& f, bool attribute);
/// Record a value error with describe_value_error's message.
bool fail_value(read_ctx& c, errc code, std::string_view text, std::string_view type_name);
/// Record the reader's error (token::error or token::need_more).
bool fail_xml(read_ctx& c, xml::token t);
inline void push_segment(read_ctx& c, std::string_view name, std::uint32_t index) {
  c.segments.emplace_back(name, index);
}

/// On a start tag: remember the root name. False (with an error) otherwise.
bool begin_read(read_ctx& c);
/// Build the error_info of a failed read (path + message).
error_info finish_read(read_ctx& c);

/// xsi:nil="true"/"1" → true; "false"/"0" → false; anything else fails (returns -1).
int nil_value(read_ctx& c, const xml::attribute& nil);
/// xsi:nil on the current start tag: 1 nil, 0 absent or false, -1 after recording an error.
inline int nil_state(read_ctx& c) {
  const xml::attribute* nil = scan_xsi(c.r).nil;
  return nil != nullptr ? nil_value(c, *nil) : 0;
}
/// Consume the (empty) content of an element that carries xsi:nil="true".
bool skip_nil_content(read_ctx& c);
/// The start tag of an element that is not nillable: true without xsi:nil or with a false one;
/// false after recording the error (nil_not_allowed, or xsi:nil's invalid lexical value).
bool refuse_nil(read_ctx& c);

/// Read a simple-content element on its start tag through its end tag: the text is parsed by
/// `parse` into `out`. `fm` supplies the default for an empty element (may be null).
bool read_simple(read_ctx& c, parse_fn parse, void* out, std::string_view type_name,
                 const field_match* fm);
/// The text of a simple element, or the field's default when it is empty.
inline std::string_view simple_text(std::string_view text, const field_match* fm) noexcept {
  if (text.empty() && fm != nullptr && fm->has_default) return fm->default_text();
  return text;
}
/// Where read_options::validate_facets: field `f`'s facets (has_facets) checked on `text`, a
/// value of it as read; false after recording errc::facet_violation. A field without facets
/// costs a read the test of that bit, before a simple value's parse (read_simple, a table's
/// read_attr); one with facets is never read whole (read_leaf).
bool check_facets(read_ctx& c, const field_match& f, std::string_view text);
/// The same against facets `x` (a choice alternative's: alternative_facets).
bool check_facets(read_ctx& c, const facets& x, std::string_view text);
/// The facets a read of field `f` (has_facets) on the start tag of its element checks: none
/// (nullptr) unless read_options::validate_facets; a choice's alternative's (by the element's
/// name), else f's own.
const facets* facets_to_check(const read_ctx& c, const field_match& f) noexcept;
/// The facets of choice field `f`'s alternative named `local` (has_facets on a choice: some
/// alternative has facets, kept beside its description; table.hpp's alternatives()), nullptr
/// where it has none.
const facets* alternative_facets(const field_match& f, std::string_view local) noexcept;
/// An attribute's value with facets: parsed by `parse` into `out`, then checked.
bool read_attribute_with_facets(read_ctx& c, parse_fn parse, void* out, std::string_view text,
                                std::string_view type_name, const field_match& f);
/// Record the error of a simple value's parse (unknown_enum or a value error).
bool fail_simple(read_ctx& c, errc e, std::string_view text, std::string_view type_name);
/// xsi:type on a simple-typed element: built-in XSD types and the declared type are accepted
/// (the lexical check decides); anything else fails.
bool check_xsi_simple(read_ctx& c, const xml::attribute& type, std::string_view type_ns,
                      std::string_view type_name);
/// xsi:type on a complex-typed element. Returns -1 for the declared type itself, k >= 0 for
/// declared.derived()[k] (only when `polymorphic`), -2 after recording an error, -3 (nothing
/// recorded) for a type with no binding where `keeps_unknown` and read_options::
/// keep_unknown_subtypes allow an unknown_subtype (read_unknown_subtype).
int check_xsi_complex(read_ctx& c, const xml::attribute& type, const complex_vt& declared,
                      bool polymorphic, bool keeps_unknown = false);
/// An element whose xsi:type (`type`) names a type with no binding, on its start tag through
/// its end tag: the type and the whole element into `kept`, then the content of the declared
/// type `vt` read from it into `obj` (elements and attributes it does not declare skipped).
/// Each kept element holds those of the unknown subtypes in its declared type's content again:
/// limit_exceeded beyond max_kept_nesting of them inside one another (memory at most that many
/// times the input's).
inline constexpr std::uint32_t max_kept_nesting = 8;
bool read_unknown_subtype(read_ctx& c, const xml::attribute& type, const complex_vt& vt, void* obj,
                          retained_subtype& kept);
/// An inline group (group_type) at `obj`, on the start tag of an element that may begin it,
/// through its last element: the token after that (another element's start tag or the end tag
/// of the enclosing element) is given back to the reader (xml::reader::unread) for the caller.
bool read_group(read_ctx& c, const complex_vt& vt, void* obj);

/// Whether xsd:any field `f` may take an element in namespace `ns` (its namespace constraint:
/// ##any, ##other, or a list of URIs, ##targetNamespace and ##local); the same for an
/// xsd:anyAttribute field and an attribute.
bool wildcard_allows(const field_match& f, std::string_view ns) noexcept;
/// The xsd:anyAttribute field `f` (any_attributes), on the start tag of its type's value: `out`
/// made the start tag's attributes that no other attribute field of the type takes, that are
/// not the binding's own (xsi:*, SOAP encoding) nor SOAP's (the envelope namespaces:
/// mustUnderstand, actor/role, relay, encodingStyle) and that `f`'s constraint allows, in document
/// order (its strings reused). True (nothing here fails; a bool as read_attr_fn's).
bool capture_attributes(read_ctx& c, const field_match& f, any_attributes& out);
/// The attributes of `a`, the member of the xsd:anyAttribute field `f`, on the open start tag
/// (after the type's other attributes): one that another attribute field of the type names, or
/// in the XML Schema instance namespace, throws bind::error (it would be written twice, or
/// contradict the binding's own).
void write_any_attributes(xml::writer& w, const field_match& f, const any_attributes& a);
/// Whether {ns}local may begin a value of the inline group `vt`: an element of one of its
/// fields up to and including the first that must occur (as starts_fn: 1, 2 by a wildcard, 0).
int group_starts(const complex_vt& vt, std::string_view ns, std::string_view local) noexcept;
/// read_elem_fn and starts_fn of a table field whose member holds inline groups (plain, optional
/// or vector: field_codec::slot and ::vt).
bool read_group_field(read_ctx& c, void* obj, std::uint32_t occ, std::uint32_t alt,
                      const field_match& f);
int group_field_starts(const field_match& f, std::string_view ns, std::string_view local,
                       std::uint32_t& alt);

/// Read a complex value on its start tag through its end tag (xsi already checked).
/// `counts` has vt.field_count slots.
bool read_complex_body(read_ctx& c, const complex_vt& vt, void* obj, std::uint32_t* counts);

// A table-bound type (lather/bind/table.hpp) is read and written through its complex_vt by
// these library routines: no function of its own per type beyond vt_of and describe.
/// read_complex for a table-bound type: xsi:type checked, then the body.
bool read_table_value(read_ctx& c, const complex_vt& vt, void* obj);
/// read_body for a table-bound type.
bool read_table_body(read_ctx& c, const complex_vt& vt, void* obj);
/// write_complex_content for a table-bound type: the attributes, then the children.
void write_table(xml::writer& w, const complex_vt& vt, const void* obj);

/// A table field whose member (at `member`) holds values of a table-bound type (`vt`): one
/// occurrence read on its start tag, xsi:nil included.
bool read_table_member(read_ctx& c, void* member, std::uint32_t occ, const field_match& f,
                       slot_fn slot, const complex_vt& vt);
/// read_elem_fn and finalize_fn of such a field (field_codec::slot and ::vt).
bool read_table_field(read_ctx& c, void* obj, std::uint32_t occ, std::uint32_t alt,
                      const field_match& f);
void finalize_slot_field(void* obj, std::uint32_t count, const field_match& f);
/// One occurrence of such a field: `value` nullptr for an absent or nil one (xsi:nil written
/// if the field is nillable); `index` the 1-based item of a vector, 0 for a single value.
void write_table_member(xml::writer& w, const field_match& f, const complex_vt& vt,
                        const void* value, std::size_t index);

/// An enumeration (meta<E>) as the library reads and writes a table field of it: plain,
/// optional, vector or nillable, through the member type's slot_fn as above. Data where E's
/// values are 0, 1, ... in the order of meta<E>::values (lather-wsdl2cpp's enumerations): the
/// library looks the names up, no function per enumeration; else its two functions.
struct enum_codec {
  /// Text to value (a list of E for enum_list_value_of, whose items an unlisted value is kept
  /// in where `keep`); nullptr: through `names`.
  errc (*parse)(std::string_view text, void* out, bool keep) = nullptr;
  /// Value to text (throws if unlisted); nullptr: through `names`.
  std::string_view (*text)(const void* value) = nullptr;
  std::string_view name;                    ///< meta<E>::name
  std::string_view ns;                      ///< meta<E>::ns
  const std::string_view* names = nullptr;  ///< names[i]: the lexical value of E(i)
  std::uint32_t count = 0;                  ///< of names
  std::uint8_t size = 0;                    ///< sizeof(E)
  bool is_signed = false;                   ///< E's underlying type (for an error's message)
  /// The value is an open_enum<E>: its text (std::string) first, then the E; an unlisted value
  /// holds E(unknown) and its text.
  bool open = false;
  std::uint32_t unknown = 0;  ///< open_enum<E>::unknown_value()
};
/// Text (XML whitespace around it ignored) to the value at `out`: ok or unknown_enum; an
/// unlisted value of an open_enum kept (ok) where `keep` (read_options::keep_unknown_enums).
errc parse_enum_value(std::string_view text, void* out, const enum_codec& e, bool keep = false);
/// The lexical value of the value at `value` (throws bind::error if E has no such value).
std::string_view enum_value_text(const void* value, const enum_codec& e);
/// read_simple for an enumeration: its parse_enum_value.
bool read_enum_simple(read_ctx& c, const enum_codec& e, void* out, const field_match* fm);
bool read_enum_member(read_ctx& c, void* member, std::uint32_t occ, const field_match& f,
                      slot_fn slot, const enum_codec& e);
/// read_leaf_fn's work: the reader's text() parsed into occurrence `occ`.
bool read_enum_leaf(read_ctx& c, void* member, std::uint32_t occ, const field_match& f,
                    slot_fn slot, const enum_codec& e);
void write_enum_member(xml::writer& w, const field_match& f, xml::leaf_namespace& leaves,
                       const enum_codec& e, const void* value, std::size_t index);
/// read_elem_fn, read_leaf_fn and finalize_fn of an enumeration field (field_codec::slot and
/// ::enumeration).
bool read_enum_field(read_ctx& c, void* obj, std::uint32_t occ, std::uint32_t alt,
                     const field_match& f);
bool read_enum_leaf_field(read_ctx& c, void* obj, std::uint32_t occ, const field_match& f);
void finalize_enum_field(void* obj, std::uint32_t count, const field_match& f);
/// An xsd:list of an enumeration (xsd::list<E>) as the library reads and writes it: the items
/// through the enumeration's enum_codec, the list's storage through these.
struct enum_list_codec {
  const enum_codec* item;
  std::size_t item_size;                                      ///< sizeof(E)
  void (*clear)(void* list);                                  ///< no items
  void* (*append)(void* list);                                ///< a new last item (may throw)
  std::pair<const void*, std::size_t> (*items)(const void*);  ///< the items and their count
};
/// xsd_traits<xsd::list<E>>::parse's work: the items separated by XML whitespace.
errc parse_enum_list(std::string_view text, void* list, const enum_list_codec& l, bool keep);
/// One occurrence of a field of such lists (see write_table_member).
void write_enum_list_member(xml::writer& w, const field_match& f, const enum_list_codec& l,
                            const void* value, std::size_t index);

// A complex value read in parts (bind::struct_reader): read_complex_body's two halves.
enum class body_step : std::uint8_t { done, stopped, failed };
/// Where the children of a complex value are being read.
struct body_cursor {
  std::uint32_t field = 0;  ///< schema-order cursor: the field of the last child read
  std::uint32_t alt = 0;    ///< stopped: the choice alternative of the element stopped on
  bool in_type_ns = false;  ///< the value's element is in its type's namespace
  bool in_no_ns = false;    ///< ... in no namespace
};
/// On the start tag: depth, attributes, and simple content whole (done); stopped: children
/// follow, from `at`.
body_step open_complex_body(read_ctx& c, const complex_vt& vt, void* obj, std::uint32_t* counts,
                            body_cursor& at);
/// The children from `at` through the end tag (done, the value finalized), or up to the start
/// tag of an element of field `stop` (stopped: that element unread and uncounted, `at` on it).
body_step read_complex_children(read_ctx& c, const complex_vt& vt, void* obj, std::uint32_t* counts,
                                body_cursor& at, std::uint32_t stop);
/// The path segment of occurrence `count` (0-based) of field `f` (an element that failed).
void push_field_segment(read_ctx& c, const field_match& f, std::uint32_t count, std::uint32_t alt);

/// Unknown enumeration value.
bool fail_enum(read_ctx& c, std::string_view text, std::string_view type_name);
/// No xsi:type where the declared type is abstract.
bool fail_abstract(read_ctx& c, std::string_view type_name);
/// An xsi:type that names an abstract type.
bool fail_abstract_xsi_type(read_ctx& c, std::string_view type_ns, std::string_view type_name);

// ---- xsd:any (src/bind/any.cpp) ----

/// Capture the element on its start tag (through its end tag) as standalone XML. Without
/// `keep_name` (anyType: the name is replaced on write) the root's own prefix is not carried.
/// `faithful` (unknown_subtype): every element declares the prefixes its name and attributes
/// use under the names they had, where the captured text has them bound otherwise, so that
/// write_unknown_subtype writes the prefixes received, not ones of its own.
bool capture_element(read_ctx& c, std::string& xml, bool keep_name, bool faithful = false);
/// Re-emit a captured element. With `rename`, its start tag gets ns/local instead (anyType).
void replay_element(xml::writer& w, std::string_view xml, bool rename, std::string_view ns,
                    std::string_view local);
/// An unknown_subtype's element as it was received, named {ns}local, with its xsi:type.
void write_unknown_subtype(xml::writer& w, std::string_view ns, std::string_view local,
                           const retained_subtype& kept);

// ---- unknown elements (src/bind/any.cpp) ----

/// The element on its start tag (through its end tag) kept as occurrence `occ` of `m` (its
/// string reused), before field `field` (unknown_element::field); counted as kept.
bool read_unknown_element(read_ctx& c, unknown_elements& m, std::uint32_t occ, std::uint32_t field);
/// Counted as skipped (read_options::count_unknown), where an unknown element is skipped.
void count_skipped(const read_ctx& c) noexcept;
/// finalize of an unknown field: the `count` elements read kept, the rest dropped.
void trim_unknown(unknown_elements& m, std::uint32_t count);
/// The elements of `m` whose field is in [from, to], in their order (to: unknown_element::at_end
/// for all the rest).
void write_unknown(xml::writer& w, const unknown_elements& m, std::uint32_t from, std::uint32_t to);
/// field_match::routines of a table's unknown field (table::unknown).
extern const field_codec unknown_routines;

// ---- writing (src/bind/core.cpp) ----

/// xsi:type="p:name" on the open start tag (declaring p for ns when needed).
void write_xsi_type(xml::writer& w, std::string_view ns, std::string_view name);
/// <ns:local xsi:nil="true"/>
void write_nil(xml::writer& w, std::string_view ns, std::string_view local);
void write_nil(xml::writer& w, std::string_view ns, xml::ncname local);
[[noreturn]] void throw_write_error(errc code, std::string message);
/// An enum value missing from meta<E>::values.
[[noreturn]] void throw_unknown_enum(long long value, std::string_view type_name);
/// A dynamic type missing from meta<B>::derived.
[[noreturn]] void throw_unregistered_type(std::string_view base_name);
/// An object whose dynamic type is abstract: no element may have it as its type, named by
/// xsi:type or not.
[[noreturn]] void throw_abstract_type(std::string_view ns, std::string_view name);
/// In a catch handler of a write: the error in flight thrown again with the element `name`
/// (or the attribute, "@name") in front of its path, as a bind::error (the writer's
/// xml::error becomes errc::xml_error with its message); any other exception unchanged. The
/// path of a failed write is built this way, on the way out, so writing pays nothing for it.
[[noreturn]] void rethrow_in_element(std::string_view name);
[[noreturn]] void rethrow_in_attribute(std::string_view name);
/// The same around the 1-based `index`-th item of a repeated element: "[index]" on the first
/// segment of the path ("/item/price" becomes "/item[3]/price").
[[noreturn]] void rethrow_in_item(std::size_t index);
/// Around a public write entry point: the writer's xml::error as a bind::error (path "").
[[noreturn]] void rethrow_as_write_error();
/// Whether the write running on this thread checks facets (write_options::validate_facets in
/// the innermost write_scope).
bool validating_writes() noexcept;
/// Field `f`'s facets (has_facets) checked on `text`, its value as written: a violation throws
/// errc::facet_violation, named by f's element where `in_element` (else the caller names the
/// attribute or the text's element).
void check_written_facets(const field_match& f, std::string_view text, bool in_element);
/// The same against facets `x`, named by element `name` (a choice alternative's).
void check_written_facets(const facets& x, std::string_view name, std::string_view text);
/// Where validating_writes(): the facets of the fields of table-bound `obj` (its view `vt`)
/// checked on the texts their write routines make, written aside first (a violation throws as
/// check_written_facets, the path naming the field, its item, or its attribute).
void check_table_on_write(const complex_vt& vt, const void* obj);

}  // namespace detail
}  // namespace lather::bind
