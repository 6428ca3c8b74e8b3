// lather/service/message_type.hpp — how one message type is read, written and described, as a
// table of function pointers, so a call or an operation compiles to plain calls.
//
// client::call<Req, Resp> and service::operation(name, handler) instantiate the binding of
// their message types in the file that calls them. Code with many operations over the same
// types instantiates each message type's table once instead:
//
//   // in a header, after meta<acme::GetOrder>:
//   LATHER_MESSAGE_TYPE_EXTERN(acme::GetOrder);
//   // in one .cpp file that includes lather/service/service.hpp and that header:
//   LATHER_MESSAGE_TYPE_INSTANTIATE(acme::GetOrder);
//   // anywhere (this header and lather/service/client.hpp suffice):
//   c.call("getOrder", lather::message_type_of<acme::GetOrder>(), &request,
//          lather::message_type_of<acme::GetOrderResponse>(), &response);
//
// lather-wsdl2cpp's output declares and defines it instead (LATHER_MESSAGE_TYPE_DECLARE beside
// the type, LATHER_MESSAGE_TYPE_DEFINE in one file), so that the table's functions have
// internal linkage there. The bytes on the wire are the same as with the typed API. A literal
// message type reads and writes literal XML (reads(), writes()), an RPC/encoded one
// (meta<T>::encoding) has the encoded entries; the others are null.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace lather {

namespace xml {
class reader;
class writer;
}  // namespace xml
namespace bind {
struct read_options;
struct error_info;
struct type_description;
class table_ref;
namespace detail {
struct complex_vt;
}  // namespace detail
}  // namespace bind
namespace soap {
enum class version : std::uint8_t;
class envelope_reader;
}  // namespace soap
class wsdl_builder;
struct xsd_ref;
struct xsd_field;

/// How a service's WSDL describes a message type T (lather/service/wsdl.hpp).
struct message_schema {
  /// Whether the schema can say what T is (RPC/encoded-only values cannot: such operations
  /// are described by service_options::static_wsdl).
  bool expressible = false;
  /// bind::describe<T> where the schema can say what T is, else nullptr: a function T has
  /// anyway, so a message type adds none for its description.
  const bind::type_description& (*describe)() = nullptr;
  /// wsdl_builder::fields_of<T> and type_of<T> (src/service/wsdl.cpp), `describe` not nullptr.
  std::vector<xsd_field> fields(wsdl_builder& b) const;
  xsd_ref type(wsdl_builder& b) const;
};

/// One message type T (a struct bound with lather::meta<T>), type-erased: `void*` points to a T.
struct message_type {
  std::string_view ns, name;  ///< meta<T>::ns, meta<T>::name
  bool encoded = false;       ///< RPC/encoded (meta<T>::encoding is soap)

  // lifetime: T's layout and three functions per T; create(), destroy(), reset() and
  // create_moved() are built on them once, in the library. Size 0: no value (empty_body()):
  // create() gives one address for every message and nothing is constructed.
  std::size_t size = 0, align = 0;               ///< sizeof(T), alignof(T)
  void (*construct)(void* at) = nullptr;         ///< new (at) T{}
  void (*destruct)(void* p) noexcept = nullptr;  ///< p->~T()
  /// new (at) T(std::move(*from)); nullptr in a table without detail::moves (a type that
  /// lather-wsdl2cpp's code never moves: a response, a fault), whose create_moved() throws.
  void (*move_construct)(void* at, void* from) = nullptr;
  /// *p = T{} for a T whose T{} can throw (nullptr: destruct then construct).
  void (*assign_default)(void* p) = nullptr;

  void* create() const;                  ///< new T{}
  void destroy(void* p) const noexcept;  ///< delete (of what create() or create_moved() gave)
  void reset(void* p) const;             ///< *p = T{}
  void* create_moved(void* p) const;     ///< new T(std::move(*p)) (std::logic_error: see above)

  // literal: through T's table when it is table-bound (`table`, lather/bind/table_ref.hpp:
  // plain calls into the library, no function per T), else through the *_fn entries.
  /// bind::detail::vt_of<T>: T's view, a function T has anyway (bind::table_ref over it).
  const bind::detail::complex_vt& (*table)() noexcept = nullptr;
  void (*write_content_fn)(xml::writer&, const void*) = nullptr;
  bind::error_info (*read_content_fn)(xml::reader&, void*, const bind::read_options&) = nullptr;
  bind::error_info (*read_fn)(xml::reader&, void*, const bind::read_options&) = nullptr;

  /// Whether this table reads T as literal XML (read_content, read), writes it (write_content).
  bool reads() const noexcept { return table != nullptr || read_fn != nullptr; }
  bool writes() const noexcept { return table != nullptr || write_content_fn != nullptr; }
  /// T's attributes and children into an open element (bind::write_content).
  void write_content(xml::writer& w, const void* value) const;
  /// Reader on the element's start tag: its attributes and children (bind::read_content).
  bind::error_info read_content(xml::reader& r, void* value, const bind::read_options& o) const;
  /// Reader on the element's start tag: the element as T's own (bind::read; document/bare).
  bind::error_info read(xml::reader& r, void* value, const bind::read_options& o) const;

  // RPC/encoded
  /// soap::write_encoded_message: the wrapper {ns}element, the parts, the multi-refs.
  void (*write_encoded)(xml::writer&, soap::version, std::string_view ns, std::string_view element,
                        const void*) = nullptr;
  /// soap::read_encoded_message: reader on the wrapper, reads the rest of the Body (with
  /// soap::decode_options_for the read_options: lenient dates, facets).
  void (*read_encoded)(xml::reader&, soap::envelope_reader&, void*,
                       const bind::read_options&) = nullptr;

  message_schema schema;
};

/// Destroys what a message_type created (message_type::destroy).
struct message_deleter {
  const message_type* type;
  void operator()(void* p) const noexcept { type->destroy(p); }
};
/// A value a message_type created, owned.
using message_value = std::unique_ptr<void, message_deleter>;
/// A new T{} of `t`, owned.
inline message_value make_message_value(const message_type& t) {
  return message_value(t.create(), message_deleter{&t});
}

/// T's table (defined in lather/service/detail/message_type_of.hpp, which service.hpp includes).
template <class T>
const message_type& message_type_of() noexcept;

namespace detail {
/// Which entries of a message_type to fill: the typed API fills only what its call needs (a
/// client writes its request type and reads its response type; a request type may be
/// write-only), so it instantiates no more than the call itself would.
enum message_parts : unsigned {
  reads = 1,      ///< read, read_content / read_encoded
  writes = 2,     ///< write_content / write_encoded
  lifetime = 4,   ///< create, destroy, reset
  described = 8,  ///< schema
  moves = 16,     ///< create_moved, with lifetime (a request an asynchronous call moves)
  all_parts = reads | writes | lifetime | described | moves,
};
/// T's table with the entries `Parts` says (message_type_of<T>() has them all).
template <class T, unsigned Parts>
const message_type& message_type_part() noexcept;
}  // namespace detail

}  // namespace lather

/// message_type_of<T>() is defined in another translation unit (the one with
/// LATHER_MESSAGE_TYPE_DEFINE(T)): an explicit specialization, so every file that names
/// message_type_of<T> must see this declaration first (as LATHER_BIND_TABLE's).
#define LATHER_MESSAGE_TYPE_DECLARE(...) \
  template <>                            \
  const ::lather::message_type& lather::message_type_of<__VA_ARGS__>() noexcept

/// Define T's table here (after lather/service/service.hpp), in one translation unit: the table
/// and the functions it points to (T's construction, destruction, description) have internal
/// linkage, so the object carries no COMDAT group, section names or global symbol for each of
/// them, as LATHER_MESSAGE_TYPE_INSTANTIATE's instance does.
#define LATHER_MESSAGE_TYPE_DEFINE(...)                                               \
  namespace {                                                                         \
  struct lather_unit;                                                                 \
  }                                                                                   \
  template <>                                                                         \
  const ::lather::message_type& lather::message_type_of<__VA_ARGS__>() noexcept {     \
    static constexpr ::lather::message_type t =                                       \
        ::lather::detail::make_message_type<__VA_ARGS__, ::lather::detail::all_parts, \
                                            lather_unit>();                           \
    return t;                                                                         \
  }                                                                                   \
  static_assert(true)

/// The message types of a file that defines many (lather-wsdl2cpp's code files), in one array
/// rather than a constant per type, and their lifetime functions static members of a template
/// of the file, lather_life<T> (shorter names in the object than lambdas' in
/// make_message_type):
///
///   namespace {
///   LATHER_MESSAGE_TYPE_FILE();
///   constexpr lather::message_type lather_messages[] = {
///       LATHER_MESSAGE_TYPE_ENTRY(acme::GetOrder),
///       LATHER_MESSAGE_TYPE_ENTRY(acme::GetOrderResponse),
///   };
///   }  // namespace
///   LATHER_MESSAGE_TYPE_DEFINE_AT(lather_messages[0], acme::GetOrder);
///   LATHER_MESSAGE_TYPE_DEFINE_AT(lather_messages[1], acme::GetOrderResponse);
///
/// A type the file's code never moves (a response, a fault: only requests and request headers
/// are moved, into an asynchronous call) may take LATHER_MESSAGE_TYPE_ENTRY_UNMOVED instead:
/// no move constructor compiled for it, and its create_moved() throws std::logic_error.
#define LATHER_MESSAGE_TYPE_FILE()                                       \
  struct lather_unit;                                                    \
  template <class T>                                                     \
  struct lather_life {                                                   \
    static void construct(void* at) { ::new (at) T{}; }                  \
    static void destruct(void* p) noexcept { static_cast<T*>(p)->~T(); } \
    static void move_construct(void* at, void* from) {                   \
      ::new (at) T(static_cast<T&&>(*static_cast<T*>(from)));            \
    }                                                                    \
    static void assign_default(void* p) { *static_cast<T*>(p) = T{}; }   \
  };                                                                     \
  static_assert(true)

/// T's table, an element of the file's array (LATHER_MESSAGE_TYPE_FILE).
#define LATHER_MESSAGE_TYPE_ENTRY(...)                                                       \
  ::lather::detail::make_message_type<__VA_ARGS__, ::lather::detail::all_parts, lather_unit, \
                                      lather_life<__VA_ARGS__>>()
/// The same without move_construct.
#define LATHER_MESSAGE_TYPE_ENTRY_UNMOVED(...)                                                \
  ::lather::detail::make_message_type<__VA_ARGS__,                                            \
                                      ::lather::detail::all_parts & ~::lather::detail::moves, \
                                      lather_unit, lather_life<__VA_ARGS__>>()

/// message_type_of<T>() returning ENTRY, T's element of the file's array.
#define LATHER_MESSAGE_TYPE_DEFINE_AT(ENTRY, ...)                                 \
  template <>                                                                     \
  const ::lather::message_type& lather::message_type_of<__VA_ARGS__>() noexcept { \
    return ENTRY;                                                                 \
  }                                                                               \
  static_assert(true)

/// message_type_of<T>() is instantiated in another translation unit (the one with
/// LATHER_MESSAGE_TYPE_INSTANTIATE(T)).
#define LATHER_MESSAGE_TYPE_EXTERN(...) \
  extern template const ::lather::message_type& lather::message_type_of<__VA_ARGS__>() noexcept

/// Instantiate T's table here (after lather/service/service.hpp).
#define LATHER_MESSAGE_TYPE_INSTANTIATE(...) \
  template const ::lather::message_type& lather::message_type_of<__VA_ARGS__>() noexcept
