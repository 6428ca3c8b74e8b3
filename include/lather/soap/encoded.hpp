// lather/soap/encoded.hpp — RPC/encoded values (SOAP 1.1 section 5): xsi:type, SOAP-ENC arrays,
// apachesoap:Map, and multi-ref id/href graphs (shared objects and cycles).
//
// An encoded struct is an ordinary lather::meta<T> binding (bind/meta.hpp): its xsi:type QName
// is {ns}name and its fields are the accessors, in schema order. A message type whose meta says
// `encoding = bind::encoding::soap` makes an operation or a client call RPC/encoded:
//
//   struct Setting { std::string status; std::shared_ptr<Setting> parent;
//                    std::vector<std::shared_ptr<Setting>> children; ... };
//   template <> struct lather::meta<Setting> {
//     static constexpr std::string_view ns = "urn:fetch", name = "Setting";
//     static constexpr auto encoding = lather::bind::encoding::soap;
//     static constexpr auto fields = std::tuple{
//         element("status", &Setting::status), element("parent", &Setting::parent),
//         element("children", &Setting::children)};
//   };
//
// Value kinds: XSD simple types (bind::xsd_traits), encoded structs, std::optional (nil when
// empty), std::shared_ptr (nil when null; the unit of sharing), std::vector (SOAP-ENC array),
// soap::multi_array (multi-dimensional), std::map and soap::apache_map (apachesoap:Map), and
// bind::any_type (xsd:anyType: the accessor as received, its xsi:type included).
//
// Writing a response part (shared_ptr identity decides what is a multi-ref):
//
//   soap::encoder enc{writer};
//   enc.count(result);                            // reference-count pass, every part first
//   soap::write_rpc_start(writer, v, soap::style::rpc_encoded, "urn:fetch", "fetchResponse");
//   enc.write("", "return", result);
//   writer.end_element();                         // the RPC wrapper
//   enc.write_independents();                     // multiRef elements, after the wrapper
//
// Reading (one pass; forward/backward hrefs, shared objects restored as shared, cycles):
//
//   soap::decoder dec{reader, env.body_namespaces()};
//   soap::rpc_reader parts{reader};
//   while (parts.next()) if (parts.name() == "return") dec.read(result); else
//   reader.skip_element(); dec.read_trailing(env);                       // independent elements,
//   then resolve
//
// The decoder is linear: ids live in one hash map; a forward href creates the (empty) target
// object at once, and the element with that id later fills it in place, so shared_ptr slots never
// need fixing up. By-value slots get one copy at finish(), ordered so that a copy happens only
// after everything it contains is complete. Elements with an id that appear before any
// reference are kept as XML text and decoded once referenced (a worklist, no recursion).
// Declared array sizes are never used to pre-allocate; sizes are checked against the items.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "lather/bind/meta.hpp"
#include "lather/bind/xsd.hpp"
#include "lather/soap/capture.hpp"
#include "lather/soap/detail/tables.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/error.hpp"
#include "lather/soap/style.hpp"
#include "lather/soap/version.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::soap {

/// A struct the encoding can write: any type bound with lather::meta<T>; every field is an
/// accessor element named as in meta (section 5 has no attributes), its xsi:type is
/// {meta<T>::ns}meta<T>::name.
template <class T>
concept encoded_struct = bind::complex_type<T>;

namespace detail {
template <class T>
inline constexpr bool soap_encoded = bind::encoding_of<T> == bind::encoding::soap;
}  // namespace detail

/// A message type that makes an operation (or a client call) RPC/encoded: its meta<T> has
/// `static constexpr auto encoding = lather::bind::encoding::soap;`.
template <class T>
concept encoded_message = bind::complex_type<T> && detail::soap_encoded<T>;

/// apachesoap:Map as an ordered list of pairs (keeps duplicates and order as received).
template <class K, class V>
struct apache_map {
  std::vector<std::pair<K, V>> items;
  friend bool operator==(const apache_map&, const apache_map&) = default;
};

/// A multi-dimensional SOAP-ENC array (arrayType="xsd:int[2,3]"): items in row-major order.
template <class T>
struct multi_array {
  using value_type = T;
  std::vector<std::size_t> dims;
  std::vector<T> items;
  friend bool operator==(const multi_array&, const multi_array&) = default;
};

namespace detail {
template <class T>
struct is_map : std::false_type {};
template <class K, class V, class C, class A>
struct is_map<std::map<K, V, C, A>> : std::true_type {};
template <class T>
struct is_apache_map : std::false_type {};
template <class K, class V>
struct is_apache_map<apache_map<K, V>> : std::true_type {};
template <class T>
struct is_multi_array : std::false_type {};
template <class T>
struct is_multi_array<multi_array<T>> : std::true_type {};

/// The accessor names of T's fields, in order.
template <class T>
inline constexpr auto field_names = std::apply(
    [](const auto&... f) { return std::array<std::string_view, sizeof...(f)>{f.name...}; },
    bind::fields_of<T>);
}  // namespace detail

struct encode_options {
  /// Axis style: every struct, array and map behind a shared_ptr becomes a multiRef, even when
  /// referenced once. Default (soap4r style): only values referenced more than once.
  bool multiref_all = false;
  /// Values behind shared_ptr nested deeper than this are written as multi-refs, so a long
  /// chain (a linked list) never produces deep XML or deep recursion.
  std::uint32_t max_inline_depth = 32;
};

/// Writes encoded values. One encoder per message (or reset()); not thread-safe.
class encoder {
 public:
  explicit encoder(xml::writer& w, encode_options options = {});
  ~encoder();
  encoder(const encoder&) = delete;
  encoder& operator=(const encoder&) = delete;

  /// Reference-counting pass over a value; call for every part before writing any.
  template <class T>
  void count(const T& value) {
    count_value(value);
    drain_visits();
  }
  /// Write `value` as the accessor element {ns}name with xsi:type.
  template <class T>
  void write(std::string_view ns, std::string_view name, const T& value) {
    write_value(ns, name, value, 0);
  }
  /// Write the multi-ref targets referenced so far as independent elements
  /// (<multiRef id="idN" soapenc:root="0" xsi:type="...">), after the body's main element.
  void write_independents();
  /// Forget all references (next message); keeps capacity.
  void reset();

 private:
  using erased_fn = void (*)(encoder&, const void*);
  using ref_info = detail::pointer_table::info;
  struct pending_write {
    const void* object;
    erased_fn write;
    std::uint32_t id;
  };

  ref_info& lookup(const void* object);
  void drain_visits();
  void start(std::string_view ns, std::string_view name);
  void end();
  void type_attribute(std::string_view ns, std::string_view local);
  /// A value of an abstract type (meta<T>::abstract): no element may have it as its type.
  [[noreturn]] static void fail_abstract(std::string_view ns, std::string_view local);
  void nil();
  void href(ref_info& ref, const void* object, erased_fn write);
  void array_type_attribute(std::size_t items, std::string_view dims = {});
  /// xsd:anyType: the held element under the accessor's name (an empty one when it holds none).
  void write_any(std::string_view ns, std::string_view name, const bind::any_type& v);
  void append_qname(std::string_view ns, std::string_view local);  // to type_text_

  template <class T>
  void append_type() {
    using U = std::remove_cvref_t<T>;
    if constexpr (bind::shape<U>::is_shared) {
      append_type<typename U::element_type>();
    } else if constexpr (bind::shape<U>::is_optional) {
      append_type<typename U::value_type>();
    } else if constexpr (bind::simple_type<U>) {
      append_qname(xsd_ns, bind::xsd_traits<U>::type_name);
    } else if constexpr (std::is_same_v<U, bind::any_type>) {
      append_qname(xsd_ns, "anyType");
    } else if constexpr (encoded_struct<U>) {
      append_qname(lather::meta<U>::ns, lather::meta<U>::name);
    } else if constexpr (bind::shape<U>::is_vector) {
      append_type<typename U::value_type>();
      type_text_ += "[]";
    } else if constexpr (detail::is_multi_array<U>::value) {
      append_type<typename U::value_type>();
      type_text_ += "[]";
    } else if constexpr (detail::is_map<U>::value || detail::is_apache_map<U>::value) {
      append_qname(apache_soap_ns, "Map");
    } else {
      static_assert(sizeof(U) == 0, "type is not an encoded value: see encoded.hpp");
    }
  }

  template <class T>
  void count_value(const T& v) {
    if constexpr (bind::shape<T>::is_shared) {
      if (v && ++lookup(v.get()).count == 1) {
        visits_.push_back({v.get(), [](encoder& e, const void* p) {
                             e.count_value(*static_cast<const typename T::element_type*>(p));
                           }});
      }
    } else if constexpr (bind::shape<T>::is_optional) {
      if (v) count_value(*v);
    } else if constexpr (encoded_struct<T>) {
      std::apply([&](const auto&... f) { (count_value(v.*(f.member)), ...); }, bind::fields_of<T>);
    } else if constexpr (bind::shape<T>::is_vector) {
      if constexpr (!bind::simple_type<typename T::value_type>) {
        for (const auto& item : v) count_value(item);
      }
    } else if constexpr (detail::is_multi_array<T>::value) {
      count_value(v.items);
    } else if constexpr (detail::is_map<T>::value) {
      for (const auto& [key, value] : v) count_value(value);
    } else if constexpr (detail::is_apache_map<T>::value) {
      for (const auto& [key, value] : v.items) count_value(value);
    }
  }

  template <class T>
  void write_value(std::string_view ns, std::string_view name, const T& v, std::uint32_t depth) {
    if constexpr (bind::shape<T>::is_shared) {
      using U = typename T::element_type;
      if (!v) {
        start(ns, name);
        nil();
        end();
        return;
      }
      ref_info& ref = lookup(v.get());
      // count == 0: count() was not called; only a multi-ref is safe (the value may be cyclic).
      const bool multi = ref.count != 1 || depth >= options_.max_inline_depth ||
                         (options_.multiref_all && !bind::simple_type<U>);
      if (!multi) return write_value(ns, name, *v, depth);
      start(ns, name);
      href(ref, v.get(),
           [](encoder& e, const void* p) { e.write_content(*static_cast<const U*>(p), 0); });
      end();
    } else if constexpr (bind::shape<T>::is_optional) {
      if (v) return write_value(ns, name, *v, depth);
      start(ns, name);
      nil();
      end();
    } else if constexpr (std::is_same_v<T, bind::any_type>) {
      write_any(ns, name, v);
    } else {
      start(ns, name);
      write_content(v, depth);
      end();
    }
  }

  /// xsi:type (and arrayType) plus the content of an element whose start tag is open.
  template <class T>
  void write_content(const T& v, std::uint32_t depth) {
    if constexpr (bind::simple_type<T>) {
      type_attribute(xsd_ns, bind::xsd_traits<T>::type_name);
      bind::xsd_traits<T>::write(v, w_);
    } else if constexpr (encoded_struct<T>) {
      if constexpr (bind::abstract_type<T>)
        fail_abstract(lather::meta<T>::ns, lather::meta<T>::name);
      type_attribute(lather::meta<T>::ns, lather::meta<T>::name);
      std::apply(
          [&](const auto&... f) { (write_value({}, f.name, v.*(f.member), depth + 1), ...); },
          bind::fields_of<T>);
    } else if constexpr (bind::shape<T>::is_vector) {
      type_text_.clear();
      append_type<typename T::value_type>();
      array_type_attribute(v.size());
      for (const auto& item : v) write_value({}, "item", item, depth + 1);
    } else if constexpr (detail::is_multi_array<T>::value) {
      type_text_.clear();
      append_type<typename T::value_type>();
      std::string dims;
      for (std::size_t i = 0; i < v.dims.size(); ++i) {
        if (i) dims += ',';
        dims += std::to_string(v.dims[i]);
      }
      array_type_attribute(v.items.size(), dims);
      for (const auto& item : v.items) write_value({}, "item", item, depth + 1);
    } else if constexpr (detail::is_map<T>::value || detail::is_apache_map<T>::value) {
      type_attribute(apache_soap_ns, "Map");
      const auto& items = [&]() -> const auto& {
        if constexpr (detail::is_map<T>::value)
          return v;
        else
          return v.items;
      }
      ();
      for (const auto& [key, value] : items) {
        start({}, "item");
        write_value({}, "key", key, depth + 1);
        write_value({}, "value", value, depth + 1);
        end();
      }
    } else {
      static_assert(sizeof(T) == 0, "type is not an encoded value: see encoded.hpp");
    }
  }

  xml::writer& w_;
  encode_options options_;
  detail::pointer_table refs_;
  std::vector<std::pair<const void*, erased_fn>> visits_;
  std::vector<pending_write> to_write_;
  std::uint32_t next_id_ = 0;
  std::string type_text_;
  std::string scratch_;
};

struct decode_options {
  /// Most ids + hrefs to distinct ids per message (each makes one object).
  std::uint32_t max_references = 1u << 22;
  /// Most items in one array (a declared arrayType larger than this is rejected).
  std::uint64_t max_array_items = 1u << 26;
  /// Deepest nesting of encoded values (each level is a few stack frames; handlers may run
  /// on coroutine stacks). Writers inline at most 32 levels (encode_options).
  std::uint32_t max_depth = 128;
  /// A date, time or dateTime in a form devices send and XSD refuses is read as
  /// xsd::parse_lenient reads it (bind::read_options::lenient_dates; a client's default).
  bool lenient_dates = false;
  /// Check the facets of the accessors whose meta<T> field has them (lather::field::facets(),
  /// bind::read_options::validate_facets): a value outside them is a fault_error
  /// facet_violation naming the accessor. A value read through an href (a multi-ref) is not
  /// checked.
  bool validate_facets = false;
};

/// Reads encoded values from a message whose Body is being read. One decoder per message.
///
/// Ownership: the objects behind shared_ptrs, and every multi-ref target, are made by the
/// decoder as it reads. When finish() (or read_trailing()) returns, the values read are
/// complete and the caller owns them; a cyclic graph (a child's parent link) is then the
/// caller's to break, as its type's destructor or perf::release_graph does. When the decode
/// fails (or the decoder is destroyed before finish() returned), the decoder's destructor sets
/// every multi-ref target it made back to a default value: every cycle runs through such a
/// target, so a hostile message that builds a cycle and then fails leaks nothing, and the
/// values read so far are left partial (defaults where a target was).
class decoder {
 public:
  /// `outer`: namespace bindings in scope at the Body (envelope_reader::body_namespaces()),
  /// needed to decode independent elements kept as text.
  explicit decoder(xml::reader& r, std::span<const namespace_binding> outer = {},
                   decode_options options = {});
  ~decoder();
  decoder(const decoder&) = delete;
  decoder& operator=(const decoder&) = delete;

  /// Read the accessor whose start tag is current into `out` (reader left on its end tag).
  /// Handles href (forward or backward), id, xsi:nil.
  template <class T>
  void read(T& out) {
    const depth_guard guard{*this};
    const ref_attrs refs = find_ref_attributes();
    // A multi-ref's value is checked against this accessor's facets once it is read (finish),
    // an item of a multi-ref array against those of the accessors that refer to the array.
    if ((facets_ != nullptr || keep_text_) && (refs.href || refs.id)) [[unlikely]]
      check_when_finished(refs.entry);
    if (refs.href) {
      bind_reference(out, refs.entry);
    } else if (refs.id) {
      bind_definition(out, refs.entry);
    } else {
      read_content(out);
    }
  }
  /// Read the accessor whose start tag is current as field I of `out` (an encoded struct or
  /// message): read(), its field's facets checked where decode_options::validate_facets.
  template <class T, std::size_t I>
  void read_field(T& out) {
    constexpr const auto& f = std::get<I>(bind::fields_of<T>);
    const bind::facets* const saved = facets_;
    const std::string_view saved_name = facets_accessor_;
    // Another field's facets do not reach into this one's value: a struct's own fields set
    // theirs.
    facets_ = nullptr;
    if constexpr (f.has_facets) {
      if (options_.validate_facets) {
        facets_ = f.constraints;
        facets_accessor_ = detail::field_names<T>[I];
      }
    }
    read(out.*(f.member));
    facets_ = saved;
    facets_accessor_ = saved_name;
  }
  /// A Body child after the main element (reader on its start tag, left on its end tag): an
  /// independent element with an id is decoded (or kept until referenced); others are skipped.
  void read_independent();
  /// Resolve: decode kept independents that were referenced, check every href found its
  /// target, copy by-value references. Throws fault_error{bad_reference} otherwise.
  void finish();
  /// read_independent() for every remaining Body child, then finish(). The reader must be on
  /// the main element's end tag.
  void read_trailing(envelope_reader& env);

  /// Hash-map operations so far (lookups + inserts): tests assert linearity with it.
  std::uint64_t hash_operations() const noexcept { return hash_ops_; }

 private:
  using copy_fn = void (*)(void*, const void*);
  /// What the decoder does with a multi-ref target, by its type; the address of a type's ops
  /// identifies the type.
  struct target_ops {
    void (*decode)(decoder&, void*);
    void (*clear)(void*);  ///< back to a default value (a failed decode; see the class comment)
  };
  static constexpr std::uint32_t no_entry = 0xffffffffu;
  enum class state : std::uint8_t { unseen, deferred, filling, filled };
  struct entry {
    std::shared_ptr<void> object;  // the target, created by the first href or the definition
    const target_ops* ops = nullptr;
    std::uint32_t kept = 0;  // state deferred: index into kept_ (the element as XML text)
    state st = state::unseen;
    bool queued = false;
  };
  struct fixup {
    void* dst;  // slot to copy into (an offset while its array is still growing)
    copy_fn copy;
    std::uint32_t src;    // entry copied from
    std::uint32_t owner;  // entry whose object holds dst (no_entry: the caller's value)
  };
  struct ref_attrs {
    bool href = false;
    bool id = false;
    std::uint32_t entry = no_entry;
  };
  struct depth_guard {
    explicit depth_guard(decoder& d) : d_(d) {
      if (++d_.depth_ > d_.options_.max_depth) d_.fail_depth();
    }
    ~depth_guard() { --d_.depth_; }
    depth_guard(const depth_guard&) = delete;
    depth_guard& operator=(const depth_guard&) = delete;
    decoder& d_;
  };
  struct array_shape {
    std::uint64_t total = 0;     ///< product of the sizes given
    bool sized = false;          ///< every size given: the items must be exactly `total`
    bool first_unknown = false;  ///< SOAP 1.2 arraySize "* n ...": dims[0] from the items
    std::vector<std::size_t> dims;
  };

  // ---- non-template core (encoded.cpp) ----
  ref_attrs find_ref_attributes();
  struct reference_attributes;
  /// Throws for an id beside a reference, or both reference forms.
  void check_reference_attributes(const reference_attributes& a) const;
  void skip_reference_content(std::string_view ref);
  std::uint32_t entry_for(std::string_view id);
  void on_placeholder(std::uint32_t e);
  void begin_definition(std::uint32_t e);
  void fill(std::uint32_t e);
  [[noreturn]] void fail(errc code, std::string reason) const;
  [[noreturn]] void fail_type_mismatch(std::uint32_t e) const;
  [[noreturn]] void fail_depth() const;
  /// An accessor of an abstract declared type (meta<T>::abstract): the encoded binding reads a
  /// value as its declared type, and no element may have an abstract one (XSD cvc-type 2).
  [[noreturn]] void fail_abstract(std::string_view ns, std::string_view local) const;
  [[noreturn]] void fail_value(bind::errc code, std::string_view text,
                               std::string_view type_name) const;
  /// `text`, the value read of the accessor named `accessor`, against facets `f` (fault_error
  /// on a violation).
  void check_facets(std::string_view text, const bind::facets& f, std::string_view accessor) const;
  /// The value of multi-ref `e` (a simple value, or an array of them) is checked against
  /// facets_ in finish(), as an accessor's value read inline is; or, while a multi-ref array
  /// is read (keep_text_), against those its own referring accessors have.
  void check_when_finished(std::uint32_t e);
  /// The value being read is the text of a multi-ref (or an item of one) that a facet check
  /// may need (keep_text_): kept for finish().
  void keep_text(std::string_view text);
  bool is_nil() const;
  void skip();
  bool next_child();
  std::string_view read_text();
  bool xsi_type_is(std::string_view ns, std::string_view local) const;
  /// SOAP-ENC:arrayType (1.1) or enc:arraySize (1.2) of the current element.
  array_shape read_array_shape();
  void read_dims(std::string_view dims, std::string_view attribute, bool soap12,
                 array_shape& shape) const;
  void check_item(std::uint64_t count, const array_shape& shape);
  void check_array_end(std::uint64_t count, array_shape& shape);
  std::size_t mark() const noexcept { return fixups_.size(); }
  /// Fixups registered since `from` whose slot lies inside [base, base+size) become relative to
  /// item `index` of an array still being read (recorded on relocations_).
  void make_relative(std::size_t from, const void* base, std::size_t size, std::size_t index);
  /// Rebase relocations_ from `first` onto the final item storage, then drop them.
  void rebase(std::size_t first, void* data, std::size_t item_size);
  void move_slots(std::size_t from, const void* old_base, std::size_t size, void* new_base);
  void read_base64_string(std::string_view text, std::string& out) const;
  /// xsd:anyType: the accessor as received (nil: nothing held).
  void read_any(bind::any_type& out);

  /// A multi-ref of type U holds simple values whose text a facet check may need.
  template <class U>
  static constexpr bool checked_text = [] {
    using V = bind::value_type_of<U>;  // an optional's, an array's item
    return !bind::shape<U>::is_shared && (std::is_same_v<V, std::string> || bind::simple_type<V>);
  }();

  template <class U>
  static const target_ops& ops_of() {
    static constexpr target_ops ops{[](decoder& d, void* p) {
                                      if constexpr (checked_text<U>) {
                                        const bool saved = d.keep_text_;
                                        d.keep_text_ = d.options_.validate_facets;
                                        d.read_content(*static_cast<U*>(p));
                                        d.keep_text_ = saved;
                                      } else {
                                        d.read_content(*static_cast<U*>(p));
                                      }
                                    },
                                    [](void* p) { *static_cast<U*>(p) = U{}; }};
    return ops;
  }

  template <class U>
  const std::shared_ptr<void>& placeholder(std::uint32_t e) {
    entry& en = entries_[e];
    if (!en.object) {
      en.object = std::make_shared<U>();
      en.ops = &ops_of<U>();
      on_placeholder(e);
    } else if (en.ops != &ops_of<U>()) {
      fail_type_mismatch(e);
    }
    return en.object;
  }

  template <class T>
  void add_fixup(std::uint32_t e, T& slot) {
    fixups_.push_back(
        {&slot,
         [](void* dst, const void* src) { *static_cast<T*>(dst) = *static_cast<const T*>(src); }, e,
         owner_});
  }

  template <class T>
  void bind_reference(T& out, std::uint32_t e) {
    if constexpr (bind::shape<T>::is_shared) {
      using U = typename T::element_type;
      out = std::static_pointer_cast<U>(placeholder<U>(e));
    } else {
      placeholder<T>(e);
      add_fixup(e, out);
    }
  }

  template <class T>
  void bind_definition(T& out, std::uint32_t e) {
    begin_definition(e);  // duplicate check
    if constexpr (bind::shape<T>::is_shared) {
      using U = typename T::element_type;
      out = std::static_pointer_cast<U>(placeholder<U>(e));
      fill(e);
    } else {
      placeholder<T>(e);
      fill(e);
      add_fixup(e, out);
    }
  }

  template <class T>
  void read_content(T& out) {
    if constexpr (bind::shape<T>::is_shared) {
      if (is_nil()) {
        out.reset();
        return skip();
      }
      out = std::make_shared<typename T::element_type>();
      // A fresh heap object is shared, never copied by value: by-value copies into it need not
      // wait for anything that holds it.
      const std::uint32_t saved = owner_;
      owner_ = no_entry;
      read_content(*out);
      owner_ = saved;
    } else if constexpr (bind::shape<T>::is_optional) {
      if (is_nil()) {
        out.reset();
        return skip();
      }
      read_content(out.emplace());
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (is_nil()) {
        out.clear();
        return skip();
      }
      // SOAP::Lite autotyping sends non-ASCII strings as xsd:base64Binary.
      const bool base64 =
          xsi_type_is(xsd_ns, "base64Binary") || xsi_type_is(soap11_encoding_ns, "base64");
      std::string_view text = read_text();
      if (base64) return read_base64_string(text, out);
      if (auto ec = bind::xsd_traits<T>::parse(text, out, *r_); ec != bind::errc::ok) {
        fail_value(ec, text, bind::xsd_traits<T>::type_name);
      }
      if (facets_ != nullptr) check_facets(text, *facets_, facets_accessor_);
      if (keep_text_) [[unlikely]]
        keep_text(text);
    } else if constexpr (bind::simple_type<T>) {
      if (is_nil()) {
        out = T{};
        return skip();
      }
      std::string_view text = read_text();
      if (auto ec = bind::xsd_traits<T>::parse(text, out, *r_); ec != bind::errc::ok) {
        if constexpr (requires { xsd::parse_lenient(text, out); })
          if (options_.lenient_dates) ec = xsd::parse_lenient(text, out);
        if (ec != bind::errc::ok) fail_value(ec, text, bind::xsd_traits<T>::type_name);
      }
      if (facets_ != nullptr) check_facets(text, *facets_, facets_accessor_);
      if (keep_text_) [[unlikely]]
        keep_text(text);
    } else if constexpr (encoded_struct<T>) {
      if (is_nil()) {
        out = T{};
        return skip();
      }
      if constexpr (bind::abstract_type<T>)
        fail_abstract(lather::meta<T>::ns, lather::meta<T>::name);
      read_struct(out, std::make_index_sequence<bind::field_count<T>>{});
    } else if constexpr (std::is_same_v<T, bind::any_type>) {
      read_any(out);
    } else if constexpr (bind::shape<T>::is_vector) {
      out.clear();
      if (is_nil()) return skip();
      array_shape shape = read_array_shape();
      read_items(out, shape);
    } else if constexpr (detail::is_multi_array<T>::value) {
      out.items.clear();
      out.dims.clear();
      if (is_nil()) return skip();
      array_shape shape = read_array_shape();
      read_items(out.items, shape);
      out.dims = std::move(shape.dims);
      if (out.dims.empty()) out.dims.push_back(out.items.size());
    } else if constexpr (detail::is_map<T>::value) {
      out.clear();
      if (is_nil()) return skip();
      while (next_child()) {
        typename T::key_type key{};
        typename T::mapped_type value{};
        const std::size_t from = mark();
        read_map_item(key, value);
        auto [it, inserted] = out.insert_or_assign(std::move(key), std::move(value));
        move_slots(from, &value, sizeof value, &it->second);
      }
    } else if constexpr (detail::is_apache_map<T>::value) {
      out.items.clear();
      if (is_nil()) return skip();
      const std::size_t first = relocations_.size();
      while (next_child()) {
        auto& item = out.items.emplace_back();
        const std::size_t from = mark();
        read_map_item(item.first, item.second);
        make_relative(from, &item, sizeof item, out.items.size() - 1);
      }
      rebase(first, out.items.data(), sizeof(typename decltype(out.items)::value_type));
    } else {
      static_assert(sizeof(T) == 0, "type is not an encoded value: see encoded.hpp");
    }
  }

  template <class T, std::size_t... I>
  void read_struct(T& out, std::index_sequence<I...>) {
    static constexpr const auto& names = detail::field_names<T>;
    constexpr std::size_t n = sizeof...(I);
    std::size_t cursor = 0;
    while (next_child()) {
      const std::string_view name = r_->local_name();
      std::size_t found = n;
      // Schema order is the fast path; any order is accepted.
      if (cursor < n && names[cursor] == name) {
        found = cursor;
      } else {
        for (std::size_t i = 0; i < n; ++i) {
          if (names[i] == name) {
            found = i;
            break;
          }
        }
      }
      if (found == n) {
        skip();  // unknown accessor: section 5 receivers ignore it
        continue;
      }
      ((found == I ? (read_field<T, I>(out), 0) : 0), ...);
      cursor = found + 1;
    }
  }

  template <class U>
  void read_items(std::vector<U>& out, array_shape& shape) {
    const std::size_t first = relocations_.size();
    std::uint64_t count = 0;
    while (next_child()) {
      check_item(count, shape);
      ++count;
      U& item = out.emplace_back();
      const std::size_t from = mark();
      read(item);
      make_relative(from, &item, sizeof(U), out.size() - 1);
    }
    check_array_end(count, shape);
    rebase(first, out.data(), sizeof(U));
  }

  template <class K, class V>
  void read_map_item(K& key, V& value) {
    while (next_child()) {
      const std::string_view name = r_->local_name();
      if (name == "key") {
        read(key);
      } else if (name == "value") {
        read(value);
      } else {
        skip();
      }
    }
  }

  xml::reader* r_;
  std::span<const namespace_binding> outer_;
  decode_options options_;
  detail::id_table ids_;
  std::vector<entry> entries_;
  std::vector<fixup> fixups_;
  struct relocation {
    std::size_t fixup;
    std::size_t index;
  };
  std::vector<relocation> relocations_;
  std::vector<std::uint32_t> deferred_queue_;
  std::vector<std::string> kept_;  // independent elements seen before any reference
  std::uint32_t owner_ = no_entry;
  /// The facets of the accessor being read inline (read_field), and its name; nullptr where
  /// none, and while a multi-ref is filled (fill).
  const bind::facets* facets_ = nullptr;
  std::string_view facets_accessor_;
  /// validate_facets: the multi-refs to check in finish(), each against the facets of an
  /// accessor that refers to it, and the texts of the simple values they hold (by entry).
  struct facet_check {
    std::uint32_t entry;
    const bind::facets* facets;
    std::string_view accessor;
  };
  std::vector<facet_check> facet_checks_;
  std::vector<std::pair<std::uint32_t, std::string>> texts_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> items_;  ///< array entry, item entry
  bool keep_text_ = false;  ///< a simple value read now is a multi-ref's (or its item's)
  std::uint32_t depth_ = 0;
  std::uint64_t hash_ops_ = 0;
  std::string text_;
  bool finished_ = false;  // finish() returned: the caller owns what was read
};

// ---- whole messages: the parts of an RPC/encoded request or response are T's fields (meta<T>
// with encoding = bind::encoding::soap), as lather's services and clients read and write them.

/// Read an RPC/encoded message (SOAP 1.1 section 5; reader on its wrapper element): the parts
/// by accessor name, then the multi-refs after the wrapper (the rest of the Body). Absent
/// accessors mean nil/default, so `msg` starts from scratch.
template <class T>
void read_encoded_message(xml::reader& r, envelope_reader& env, T& msg,
                          decode_options options = {}) {
  msg = T{};
  decoder dec{r, env.body_namespaces(), options};
  rpc_reader parts{r};
  while (parts.next()) {
    bool known = false;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((!known && parts.name() == std::get<I>(bind::fields_of<T>).name
            ? (dec.template read_field<T, I>(msg), known = true)
            : false),
       ...);
    }
    (std::make_index_sequence<bind::field_count<T>>{});
    if (!known) r.skip_element();
  }
  dec.read_trailing(env);
}

/// Write an RPC/encoded message into an open Body: the wrapper {ns}element with `msg`'s fields
/// as xsi:typed parts, then shared and cyclic values as multi-refs after it.
template <class T>
void write_encoded_message(xml::writer& w, version v, std::string_view ns, std::string_view element,
                           const T& msg) {
  encoder enc{w};
  std::apply([&](const auto&... f) { (enc.count(msg.*(f.member)), ...); }, bind::fields_of<T>);
  write_rpc_start(w, v, style::rpc_encoded, ns, element);
  std::apply([&](const auto&... f) { (enc.write("", f.name, msg.*(f.member)), ...); },
             bind::fields_of<T>);
  w.end_element();
  enc.write_independents();
}

}  // namespace lather::soap
