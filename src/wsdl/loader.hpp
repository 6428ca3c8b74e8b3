// The loader behind lather::wsdl::load(): reads documents into trees (document.hpp), registers
// every global declaration by QName, then builds the model's components on demand, memoised,
// so forward references, references across documents and recursive types all resolve in one
// pass over each declaration (hash lookups; linear in the size of the contract).
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "document.hpp"
#include "lather/wsdl/load.hpp"
#include "lather/wsdl/model.hpp"
#include "locator.hpp"

namespace lather::wsdl {

struct qname_hash {
  std::size_t operator()(const qname& q) const noexcept {
    return std::hash<std::string>{}(q.ns) * 31 + std::hash<std::string>{}(q.local);
  }
};

struct model::storage {
  std::vector<std::string> files;
  std::vector<std::string> warnings;
  std::deque<schema> schemas;
  std::vector<const schema*> schema_list;
  std::deque<simple_type> simple_types;
  std::deque<complex_type> complex_types;
  std::deque<element_decl> elements;
  std::deque<attribute_decl> attributes;
  std::deque<model_group> groups;
  std::deque<message> messages;
  std::deque<port_type> port_types;
  std::deque<binding> bindings;
  std::deque<service> services;
  std::vector<const message*> message_list;
  std::vector<const port_type*> port_type_list;
  std::vector<const binding*> binding_list;
  std::vector<const service*> service_list;
  std::unordered_map<qname, const element_decl*, qname_hash> element_index;
  std::unordered_map<qname, const type*, qname_hash> type_index;
  std::unordered_map<qname, const message*, qname_hash> message_index;
  std::unordered_map<qname, const port_type*, qname_hash> port_type_index;
  std::unordered_map<qname, const binding*, qname_hash> binding_index;
  std::deque<detail::document> documents;  ///< keeps source positions' file names alive
};

namespace detail {

/// One xs:schema instance: a schema element read with an effective target namespace (a
/// chameleon include gets its includer's).
struct schema_context {
  const document* doc = nullptr;
  const node* root = nullptr;
  std::string tns;
  bool chameleon = false;  ///< the document has no targetNamespace of its own
  bool element_qualified = false, attribute_qualified = false;
  schema* out = nullptr;
};

/// A global declaration before it is built.
struct declaration {
  const node* n = nullptr;
  const schema_context* ctx = nullptr;
  const declaration* redefined = nullptr;  ///< xs:redefine: the declaration it replaces
};

/// A component's node as loaded into one schema instance: a chameleon include's components
/// are built once per namespace it is included into (the memo tables' key).
struct built_key {
  const node* n = nullptr;
  const schema_context* ctx = nullptr;
  bool operator==(const built_key&) const = default;
};
struct built_key_hash {
  std::size_t operator()(const built_key& k) const noexcept {
    return std::hash<const void*>{}(k.n) * 31 + std::hash<const void*>{}(k.ctx);
  }
};

struct wsdl_context {
  const document* doc = nullptr;
  std::string tns;
};

struct wsdl_declaration {
  const node* n = nullptr;
  const wsdl_context* ctx = nullptr;
};

enum class decl_kind { element, type, group, attribute_group, attribute, count };

}  // namespace detail

class loader {
 public:
  loader(const load_options& options);
  std::unique_ptr<const model> run(const std::vector<std::string>& files);

 private:
  using declaration = detail::declaration;
  using node = detail::node;
  using schema_context = detail::schema_context;
  using decl_kind = detail::decl_kind;

  // ---- loading (loader.cpp)
  const detail::document* read_document(const detail::location& where,
                                        const source_location& referenced_at);
  void load_entry(const std::string& path);
  void load_wsdl(const detail::document& doc);
  void load_schema(const detail::document& doc, const node& schema_node, std::string_view tns,
                   bool chameleon);
  /// include_tns: the including schema's namespace (xs:include/redefine); nullopt: xs:import.
  void load_schema_location(const detail::location& where,
                            std::optional<std::string_view> include_tns,
                            const source_location& referenced_at);
  void import_namespace(std::string_view ns, const source_location& referenced_at);
  void register_declaration(decl_kind k, const node& n, const schema_context& ctx, bool redefining);

  // ---- QName values
  qname resolve_qname(const node& n, std::string_view value, const schema_context* ctx) const;
  qname attr_qname(const node& n, std::string_view attr, const schema_context* ctx) const;

  // ---- XSD components (xsd.cpp)
  void build_schemas();
  const declaration* find_declaration(decl_kind k, const qname& name);
  const declaration* seen_from(const declaration* d, const node& referrer) const;
  const element_decl* global_element(const qname& name, const node& referrer);
  const type* type_by_name(const qname& name, const node& referrer);
  const simple_type* simple_type_by_name(const qname& name, const node& referrer);
  const element_decl* build_element(const node& n, const schema_context& ctx, bool global);
  const type* build_type(const node& n, const schema_context& ctx, const qname& name,
                         const qname& context);
  const simple_type* build_simple_type(const node& n, const schema_context& ctx, const qname& name,
                                       const qname& context);
  const complex_type* build_complex_type(const node& n, const schema_context& ctx,
                                         const qname& name, const qname& context);
  void read_facets(const node& restriction, facets& out);
  std::optional<particle> build_particle(const node& n, const schema_context& ctx);
  const model_group* build_model_group(const node& n, const schema_context& ctx);
  const model_group* group_by_name(const qname& name, const node& referrer);
  void add_attributes(const node& parent, const schema_context& ctx,
                      std::vector<attribute_use>& uses, std::optional<wildcard>& any);
  /// The {attribute wildcard} of a complex type or attribute group (`parent`) from its own
  /// <anyAttribute> and those of the attribute groups it references.
  std::optional<wildcard> complete_wildcard(const std::optional<wildcard>& local,
                                            const std::vector<const wildcard*>& groups,
                                            const node& parent);
  /// Adds the group's attribute uses; returns its attribute wildcard (nullptr: none).
  const wildcard* add_attribute_group(const qname& name, const node& referrer,
                                      std::vector<attribute_use>& uses);
  attribute_use build_attribute_use(const node& n, const schema_context& ctx);
  const attribute_decl* build_attribute(const node& n, const schema_context& ctx, bool global);
  const attribute_decl* global_attribute(const qname& name, const node& referrer);
  std::optional<array_type> parse_array_type(const node& n, std::string_view value,
                                             const schema_context* ctx);
  wildcard build_wildcard(const node& n, const schema_context& ctx);
  const simple_type* builtin_simple(std::string_view local) const;
  void make_builtins();

  // ---- WSDL components (wsdl.cpp)
  void build_wsdl();
  const message* message_by_name(const qname& name, const node& referrer);
  const port_type* port_type_by_name(const qname& name, const node& referrer);
  const binding* binding_by_name(const qname& name, const node& referrer);
  const message* build_message(const node& n, const detail::wsdl_context& ctx);
  const port_type* build_port_type(const node& n, const detail::wsdl_context& ctx);
  const binding* build_binding(const node& n, const detail::wsdl_context& ctx);
  /// The wsp:Policy a wsp:PolicyReference URI names: "#id" in the referring document, else in
  /// any document of the contract; "file#id" in that file (read if need be). nullptr if none.
  const node* referenced_policy(const node& ref, std::string_view uri);
  /// A warning per unsupported WS-SecurityPolicy assertion of `p` (once per assertion).
  void warn_unsupported(const binding& b, const security_policy& p);
  const service* build_service(const node& n, const detail::wsdl_context& ctx);
  void read_binding_message(const node& n, const detail::wsdl_context& ctx, const message* msg,
                            binding_message& out);

  load_options options_;
  detail::locator locator_;
  std::unique_ptr<model> model_;
  model::storage& store_;

  std::unordered_map<std::string, const detail::document*> documents_by_path_;
  std::unordered_set<std::string> loaded_schemas_;  ///< path + '#' + effective tns
  std::unordered_set<std::string> loaded_namespaces_;
  std::deque<schema_context> schema_contexts_;
  std::deque<declaration> declarations_;
  std::unordered_map<qname, const declaration*, qname_hash>
      index_[static_cast<int>(decl_kind::count)];
  std::deque<detail::wsdl_context> wsdl_docs_;
  std::unordered_map<const node*, const schema_context*> schema_of_root_;
  std::unordered_map<const node*, const detail::wsdl_context*> wsdl_of_root_;

  // memo tables
  std::unordered_map<detail::built_key, const type*, detail::built_key_hash> built_types_;
  std::unordered_map<detail::built_key, const element_decl*, detail::built_key_hash>
      built_elements_;
  std::unordered_map<detail::built_key, const attribute_decl*, detail::built_key_hash>
      built_attributes_;
  std::unordered_map<detail::built_key, const model_group*, detail::built_key_hash> built_groups_;
  struct attribute_group_value {
    std::vector<attribute_use> uses;
    std::optional<wildcard> any;
    bool building = false, built = false;
  };
  std::unordered_map<detail::built_key, attribute_group_value, detail::built_key_hash>
      built_attribute_groups_;
  std::unordered_map<const node*, const message*> built_messages_;
  std::unordered_map<const node*, const port_type*> built_port_types_;
  std::unordered_map<const node*, const binding*> built_bindings_;
  std::unordered_set<std::string> warned_assertions_;  ///< where.str() of each one warned of
  /// message, portType, binding declarations by QName
  std::unordered_map<qname, detail::wsdl_declaration, qname_hash> wsdl_index_[3];
  std::vector<detail::wsdl_declaration> wsdl_nodes_;  ///< every message/portType/binding/service
  std::unordered_map<std::string, const simple_type*> builtin_simple_;
  const complex_type* any_type_ = nullptr;
  const simple_type* any_simple_type_ = nullptr;
};

}  // namespace lather::wsdl
