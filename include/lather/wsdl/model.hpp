// lather/wsdl/model.hpp — the resolved, immutable model of a WSDL 1.1 contract and its schemas.
//
// lather::wsdl::load() (lather/wsdl/load.hpp) reads WSDL and XSD documents into this model.
// Every QName reference of the documents is resolved to a pointer into the same model (a
// part's element, an element's type, a binding's portType, ...), so consumers (the code
// generator, the dynamic client) walk pointers and never look names up again. All objects are
// owned by the `model` and never change after load(); pointers stay valid as long as it lives.
//
// Positions: every component carries the file, line and column of the element that declared
// it, so later stages (the generator's "unsupported construct" errors) can point at the source.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lather::wsdl {

/// An expanded name {ns}local ("" = no namespace).
struct qname {
  std::string ns, local;
  friend bool operator==(const qname&, const qname&) = default;
  friend auto operator<=>(const qname&, const qname&) = default;
  /// "{ns}local", or "local" without a namespace.
  std::string str() const;
};

/// file:line:column of a declaration. `file` is the path as loaded (owned by the model).
struct source_location {
  std::string_view file;
  std::uint32_t line = 0, column = 0;
  /// "file:line:column"
  std::string str() const;
};

inline constexpr std::uint32_t unbounded = 0xffffffffu;

inline constexpr std::string_view xsd_ns = "http://www.w3.org/2001/XMLSchema";
inline constexpr std::string_view soap_encoding11_ns = "http://schemas.xmlsoap.org/soap/encoding/";
inline constexpr std::string_view soap_encoding12_ns = "http://www.w3.org/2003/05/soap-encoding";

// ------------------------------------------------------------------------------------ XSD

struct element_decl;
struct model_group;

enum class type_kind : std::uint8_t { simple, complex };

/// Common part of simple and complex types. `name.local` is empty for an anonymous type; then
/// `name.ns` is its schema's target namespace and `context` names the element (or attribute)
/// that declares it, or the named simple type it is part of.
struct type {
  qname name;
  type_kind kind = type_kind::simple;
  bool builtin = false;  ///< an XSD built-in ({xsd_ns}int, {xsd_ns}anyType, ...)
  source_location where;
  qname context;  ///< anonymous types: see above

  bool anonymous() const noexcept { return name.local.empty(); }
  bool is(std::string_view ns, std::string_view local) const noexcept {
    return name.local == local && name.ns == ns;
  }
};

/// Constraining facets of a simple type restriction, as written (values are lexical).
struct facets {
  std::vector<std::string> enumeration;  ///< in document order
  std::vector<std::string> patterns;
  std::optional<std::uint64_t> length, min_length, max_length, total_digits, fraction_digits;
  std::optional<std::string> min_inclusive, max_inclusive, min_exclusive, max_exclusive;
  std::optional<std::string> white_space;
};

struct simple_type : type {
  enum class variety : std::uint8_t { atomic, list, union_ } variety = variety::atomic;
  /// Restriction base (nullptr for built-ins and for list/union types declared directly).
  const simple_type* base = nullptr;
  const simple_type* item = nullptr;        ///< list: the item type
  std::vector<const simple_type*> members;  ///< union: the member types
  struct facets facets;                     ///< own facets of the restriction

  /// The nearest built-in type up the restriction chain (this one if built-in); nullptr for a
  /// list or union.
  const simple_type* builtin_base() const noexcept;
};

/// xs:any / xs:anyAttribute.
struct wildcard {
  enum class process : std::uint8_t { strict, lax, skip };
  std::string namespaces = "##any";  ///< the namespace attribute as written
  /// The target namespace of the schema document it is written in (a chameleon include's: its
  /// includer's), which its ##targetNamespace and ##other name: in an attributeGroup or group of
  /// another schema, not the namespace of the type that uses it. "" for none.
  std::string tns;
  process process_contents = process::strict;
  source_location where;
};

/// One particle of a content model: an element, a nested model group or a wildcard.
struct particle {
  enum class kind : std::uint8_t { element, group, any } what = kind::element;
  std::uint32_t min = 1, max = 1;         ///< max == unbounded for maxOccurs="unbounded"
  const element_decl* element = nullptr;  ///< kind::element (a local declaration or a ref)
  bool ref = false;                       ///< kind::element: written as ref="..."
  const model_group* group = nullptr;     ///< kind::group
  qname group_name;                       ///< kind::group reached through group ref="..."
  wildcard any;                           ///< kind::any
  source_location where;
};

enum class compositor : std::uint8_t { sequence, choice, all };

struct model_group {
  compositor kind = compositor::sequence;
  std::vector<particle> particles;
  source_location where;
};

struct element_decl {
  qname name;                         ///< ns is "" for an unqualified local element
  const struct type* type = nullptr;  ///< never null (anyType when the declaration has none)
  bool global = false;
  bool nillable = false;
  bool abstract = false;
  std::optional<std::string> default_value, fixed_value;
  const element_decl* substitution_group = nullptr;  ///< head, for global elements
  std::vector<const element_decl*> substitutes;      ///< global elements naming this as head
  source_location where;
};

struct attribute_decl {
  qname name;                         ///< ns is "" for an unqualified local attribute
  const simple_type* type = nullptr;  ///< never null (anySimpleType when none)
  bool global = false;
  std::optional<std::string> default_value, fixed_value;
  source_location where;
};

/// SOAP-ENC array dimensions from wsdl:arrayType="ns:T[]" / "T[,]" / "T[][]".
struct array_type {
  const struct type* item = nullptr;  ///< the item type (may itself be an array type)
  std::string dimensions;             ///< the brackets as written: "[]", "[,]", "[][]"
};

struct attribute_use {
  enum class use : std::uint8_t { optional, required, prohibited };
  const attribute_decl* decl = nullptr;
  enum use use = use::optional;
  bool ref = false;                                       ///< written as ref="..."
  std::optional<std::string> default_value, fixed_value;  ///< the use's own (else the decl's)
  std::optional<array_type> array;                        ///< wsdl:arrayType on this use
  source_location where;
};

struct complex_type : type {
  enum class derivation : std::uint8_t { none, extension, restriction };
  enum class content : std::uint8_t { empty, simple, element_only, mixed };
  derivation derived = derivation::none;
  const struct type* base = nullptr;  ///< anyType when not derived; a simple type or complex type
  content content_kind = content::empty;
  bool abstract = false;
  bool mixed = false;
  /// simpleContent: the type of the text (the base's, restricted by `text_facets`).
  const simple_type* text_type = nullptr;
  struct facets text_facets;
  /// The content model this declaration writes itself; for an extension, only the added part
  /// (the base's content comes first). Empty optional: no element content of its own.
  std::optional<particle> content_model;
  std::vector<attribute_use> attributes;  ///< own, attributeGroup refs expanded in place
  std::optional<wildcard> any_attribute;
  /// SOAP-ENC array (restriction of soapenc:Array): the item type from wsdl:arrayType.
  std::optional<array_type> array;
};

/// One xs:schema document (or inline schema) after include/redefine/chameleon resolution.
struct schema {
  std::string target_namespace;
  bool element_form_qualified = false;
  bool attribute_form_qualified = false;
  source_location where;
  std::vector<const element_decl*> elements;  ///< global, in document order
  std::vector<const type*> types;             ///< global named types, in document order
};

// ----------------------------------------------------------------------------------- WSDL

struct part {
  std::string name;
  const element_decl* element = nullptr;  ///< element="..." (document style)
  const struct type* type = nullptr;      ///< type="..." (rpc style)
  source_location where;
};

struct message {
  qname name;
  std::vector<part> parts;
  source_location where;
  const part* find_part(std::string_view name) const noexcept;
};

struct fault {
  std::string name;
  const message* msg = nullptr;
  std::string action;  ///< wsam:Action / wsaw:Action as written ("" when absent)
};

struct operation {
  enum class kind : std::uint8_t { one_way, request_response, solicit_response, notification };
  std::string name;
  kind pattern = kind::request_response;
  const message* input = nullptr;   ///< nullptr for notification
  const message* output = nullptr;  ///< nullptr for one_way
  std::string input_name, output_name;
  /// WS-Addressing Actions as written (wsam:Action / wsaw:Action on input and output; "" when
  /// absent). binding_operation has the Action in force, defaults included.
  std::string input_action, output_action;
  std::vector<fault> faults;
  std::vector<std::string> parameter_order;
  std::string documentation;
  source_location where;
};

struct port_type {
  qname name;
  std::vector<operation> operations;
  source_location where;
};

enum class soap_version : std::uint8_t { none, soap11, soap12 };
/// WS-Addressing a binding or port declares: wsaw:UsingAddressing (wsdl:required="true":
/// required) or a wsam:Addressing policy assertion (wsp:Optional="true": optional).
enum class addressing_use : std::uint8_t { none, optional, required };
enum class binding_style : std::uint8_t { document, rpc };

/// A WS-SecurityPolicy assertion that lather::wsse does not implement (sp:SymmetricBinding,
/// encryption, issued or Kerberos tokens, signature confirmation, ...): its name (namespace
/// and local name, e.g. "SymmetricBinding") and where it is written.
struct policy_assertion {
  qname name;
  source_location where;
  friend bool operator==(const policy_assertion& a, const policy_assertion& b) {
    return a.name == b.name && a.where.file == b.where.file && a.where.line == b.where.line &&
           a.where.column == b.where.column;
  }
};

/// The WS-SecurityPolicy assertions (1.2/1.3 and the 2005/07 draft) attached to a binding or an
/// operation: in a wsp:Policy inside it, its input, or one a wsp:PolicyReference URI="#id"
/// names. The union over a policy's alternatives. lather::wsse maps it to its policies
/// (lather/wsse/policy.hpp) and refuses one with `unsupported` assertions.
struct security_policy {
  bool username_token = false;        ///< sp:UsernameToken (in any supporting tokens)
  bool hash_password = false;         ///< its sp:HashPassword: a PasswordDigest
  bool x509_signature = false;        ///< sp:AsymmetricBinding (X.509 tokens): a signature
  bool transport = false;             ///< sp:TransportBinding (HTTPS)
  bool include_timestamp = false;     ///< sp:IncludeTimestamp
  bool sign_body = false;             ///< sp:SignedParts/sp:Body
  std::vector<qname> signed_headers;  ///< sp:SignedParts/sp:Header Namespace, Name
  bool encryption = false;            ///< sp:EncryptedParts/EncryptedElements/EncryptSignature
  /// The outermost assertions lather::wsse cannot satisfy (not wsp:Optional; within
  /// wsp:ExactlyOne only when no alternative is free of them), in document order.
  std::vector<policy_assertion> unsupported;
  bool any() const noexcept {
    return username_token || x509_signature || transport || include_timestamp || sign_body ||
           !signed_headers.empty() || encryption || !unsupported.empty();
  }
};
enum class body_use : std::uint8_t { literal, encoded };

struct soap_body {
  body_use use = body_use::literal;
  std::string ns;              ///< namespace="..." (rpc wrapper, encoded types)
  std::string encoding_style;  ///< encodingStyle="..."
  /// parts="a b": only these parts go in the body; nullopt = every part not bound to a header.
  std::optional<std::vector<std::string>> parts;
};

struct soap_header_fault {
  const message* msg = nullptr;
  const struct part* part = nullptr;
  body_use use = body_use::literal;
  std::string ns, encoding_style;
};

struct soap_header {
  const message* msg = nullptr;
  const struct part* part = nullptr;
  body_use use = body_use::literal;
  std::string ns, encoding_style;
  bool required = false;  ///< wsdl:required="true"
  std::vector<soap_header_fault> faults;
  source_location where;
};

struct binding_message {
  std::optional<soap_body> body;  ///< nullopt when the binding declares no soap:body
  std::vector<soap_header> headers;
  bool mime = false;  ///< under mime:multipartRelated
};

struct binding_fault {
  std::string name;
  std::string action;  ///< the WS-Addressing Action in force (as binding_operation's)
  body_use use = body_use::literal;
  std::string ns, encoding_style;
};

struct binding_operation {
  std::string name;
  const operation* op = nullptr;
  std::string soap_action;
  std::optional<bool> soap_action_required;
  /// The WS-Addressing Actions in force: wsam:Action / wsaw:Action, else, where the binding or
  /// a port of it uses addressing, the default action pattern (WS-Addressing Metadata 4.4.4);
  /// "" otherwise.
  std::string input_action, output_action;
  binding_style style = binding_style::document;
  binding_message input, output;
  std::vector<binding_fault> faults;
  /// WS-SecurityPolicy in force for requests: the binding's, plus the operation's and its
  /// input's own assertions.
  security_policy security;
  source_location where;
};

struct binding {
  qname name;
  const struct port_type* port_type = nullptr;
  soap_version version = soap_version::none;      ///< none: HTTP GET/POST or another binding
  binding_style style = binding_style::document;  ///< the soap:binding default
  std::string transport;
  addressing_use addressing = addressing_use::none;  ///< declared on the binding
  security_policy security;  ///< WS-SecurityPolicy attached to the binding itself
  std::vector<binding_operation> operations;
  source_location where;
};

struct port {
  std::string name;
  const struct binding* binding = nullptr;
  std::string address;  ///< soap:address / soap12:address / http:address location
  addressing_use addressing = addressing_use::none;  ///< declared on the port, else the binding's
  source_location where;
};

struct service {
  qname name;
  std::vector<port> ports;
  source_location where;
};

/// The whole contract: every WSDL document reached from the entry points (wsdl:import
/// followed) and every schema they use.
class model {
 public:
  model();
  ~model();
  model(const model&) = delete;
  model& operator=(const model&) = delete;

  /// Loaded files in load order (entry points first).
  std::span<const std::string> files() const noexcept;
  std::span<const schema* const> schemas() const noexcept;
  std::span<const message* const> messages() const noexcept;
  std::span<const port_type* const> port_types() const noexcept;
  std::span<const binding* const> bindings() const noexcept;
  std::span<const service* const> services() const noexcept;
  /// Problems the loader worked around, each "file:line:column: what was done" (a soap:header
  /// naming a message that does not exist is dropped, as zeep drops it).
  std::span<const std::string> warnings() const noexcept;

  const element_decl* find_element(const qname& name) const noexcept;
  /// A named type, including XSD built-ins ({xsd_ns}string ...).
  const type* find_type(const qname& name) const noexcept;
  const message* find_message(const qname& name) const noexcept;
  const port_type* find_port_type(const qname& name) const noexcept;
  const binding* find_binding(const qname& name) const noexcept;

  struct storage;  ///< owns every component (defined in src/wsdl)

 private:
  friend class loader;
  std::unique_ptr<storage> store_;
};

}  // namespace lather::wsdl
