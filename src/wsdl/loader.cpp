// Loading: documents, wsdl:import, xs:include/import/redefine, and the global declaration
// index; the model's accessors and load().
#include "loader.hpp"

#include <algorithm>
#include <filesystem>

namespace lather::wsdl {
using detail::trim;
namespace {

constexpr std::string_view wsdl_ns = "http://schemas.xmlsoap.org/wsdl/";

bool is_xsd(const detail::node& n, std::string_view local) {
  return n.is(xsd_ns, local);
}

using detail::node;

/// Documentation only: xs:annotation and wsdl:documentation say nothing the generated code
/// depends on.
bool is_documentation(const node& n) {
  return n.is(xsd_ns, "annotation") || n.is(wsdl_ns, "documentation");
}

const node* next_content(const node* n) {
  while (n && is_documentation(*n)) n = n->next_sibling;
  return n;
}

/// The unqualified attributes whose values are QNames (XSD and WSDL 1.1) or lists of them.
bool is_qname_attribute(const detail::node_attribute& a) {
  if (!a.ns.empty()) return false;
  for (std::string_view q : {"type", "base", "ref", "itemType", "memberTypes", "substitutionGroup",
                             "refer", "element", "message", "binding"})
    if (a.local == q) return true;
  return false;
}

/// `token` ("p:local", "p:T[2]" of wsdl:arrayType) with its prefix replaced by the namespace
/// bound to it at `n` ({ns}local); the token as written if the prefix is unbound.
std::string resolved_token(const node& n, std::string_view token) {
  std::size_t colon = token.find(':');
  std::string_view prefix = colon == std::string_view::npos ? "" : token.substr(0, colon);
  std::string_view rest = colon == std::string_view::npos ? token : token.substr(colon + 1);
  auto ns = n.lookup(prefix);
  if (!ns) return std::string(token);
  return "{" + std::string(*ns) + "}" + std::string(rest);
}

bool same_value(const node& a, const node& b, const detail::node_attribute& x,
                const detail::node_attribute& y) {
  bool qnames = is_qname_attribute(x) || (x.ns == wsdl_ns && x.local == "arrayType");
  if (!qnames) return x.value == y.value;
  std::vector<std::string> xs = detail::split_tokens(x.value), ys = detail::split_tokens(y.value);
  if (xs.size() != ys.size()) return false;
  for (std::size_t i = 0; i < xs.size(); ++i)
    if (resolved_token(a, xs[i]) != resolved_token(b, ys[i])) return false;
  return true;
}

/// The first place where two declarations differ (a's node, b's node), or nullopt when they
/// are the same declaration: the same elements in the same order with the same attributes
/// (in any order), QName values compared by namespace and local name (so prefixes may differ),
/// documentation ignored. An unprefixed QName of a chameleon include is compared as written:
/// both declarations have the same target namespace, so it means the same in both.
std::optional<std::pair<const node*, const node*>> first_difference(const node& a, const node& b) {
  if (a.ns != b.ns || a.local != b.local || a.attributes.size() != b.attributes.size())
    return std::pair{&a, &b};
  for (const detail::node_attribute& x : a.attributes) {
    auto y = std::find_if(b.attributes.begin(), b.attributes.end(),
                          [&](const auto& y) { return y.ns == x.ns && y.local == x.local; });
    if (y == b.attributes.end() || !same_value(a, b, x, *y)) return std::pair{&a, &b};
  }
  const node* x = next_content(a.first_child);
  const node* y = next_content(b.first_child);
  for (; x && y; x = next_content(x->next_sibling), y = next_content(y->next_sibling))
    if (auto d = first_difference(*x, *y)) return d;
  if (x || y) return std::pair{x ? x : &a, y ? y : &b};
  return std::nullopt;
}

/// Whether `n` holds a local xs:element or xs:attribute whose form comes from its schema's
/// elementFormDefault / attributeFormDefault.
bool uses_form_default(const node& n, std::string_view local) {
  for (const node& c : n.children()) {
    if (is_xsd(c, local) && !c.attr("ref") && !c.attr("form")) return true;
    if (uses_form_default(c, local)) return true;
  }
  return false;
}

/// Why a second declaration `b` of a QName is not the first, `a`, again; "" if it is.
std::string redeclaration_conflict(const node& a, bool a_elements, bool a_attributes, const node& b,
                                   bool b_elements, bool b_attributes) {
  if (auto d = first_difference(a, b))
    return "they first differ at " + d->second->where().str() + " and " + d->first->where().str();
  if (a_elements != b_elements && uses_form_default(a, "element"))
    return "their schemas' elementFormDefault differ";
  if (a_attributes != b_attributes && uses_form_default(a, "attribute"))
    return "their schemas' attributeFormDefault differ";
  return "";
}

/// The error for a differing second declaration `b` of `q` (first: `a`).
[[noreturn]] void throw_redeclared(const qname& q, const node& a, const node& b,
                                   const std::string& why) {
  throw error(b.where(), std::string(b.local) + " " + q.str() +
                             " is declared again with different content (first at " +
                             a.where().str() + "; " + why +
                             "): one QName, two declarations; identical copies are accepted");
}

}  // namespace

// ------------------------------------------------------------------------------------ model

model::model() : store_(std::make_unique<storage>()) {}
model::~model() = default;

std::span<const std::string> model::files() const noexcept {
  return store_->files;
}
std::span<const std::string> model::warnings() const noexcept {
  return store_->warnings;
}
std::span<const schema* const> model::schemas() const noexcept {
  return store_->schema_list;
}
std::span<const message* const> model::messages() const noexcept {
  return store_->message_list;
}
std::span<const port_type* const> model::port_types() const noexcept {
  return store_->port_type_list;
}
std::span<const binding* const> model::bindings() const noexcept {
  return store_->binding_list;
}
std::span<const service* const> model::services() const noexcept {
  return store_->service_list;
}

namespace {
template <class Map>
auto find_in(const Map& m, const qname& q) noexcept -> typename Map::mapped_type {
  auto it = m.find(q);
  return it == m.end() ? nullptr : it->second;
}
}  // namespace

const element_decl* model::find_element(const qname& q) const noexcept {
  return find_in(store_->element_index, q);
}
const type* model::find_type(const qname& q) const noexcept {
  return find_in(store_->type_index, q);
}
const message* model::find_message(const qname& q) const noexcept {
  return find_in(store_->message_index, q);
}
const port_type* model::find_port_type(const qname& q) const noexcept {
  return find_in(store_->port_type_index, q);
}
const binding* model::find_binding(const qname& q) const noexcept {
  return find_in(store_->binding_index, q);
}

const part* message::find_part(std::string_view n) const noexcept {
  for (const part& p : parts)
    if (p.name == n) return &p;
  return nullptr;
}

const simple_type* simple_type::builtin_base() const noexcept {
  const simple_type* t = this;
  while (t && !t->builtin) {
    if (t->variety != variety::atomic) return nullptr;
    t = t->base;
  }
  return t;
}

std::unique_ptr<const model> load(const std::vector<std::string>& files,
                                  const load_options& options) {
  return loader(options).run(files);
}

// ----------------------------------------------------------------------------------- loader

loader::loader(const load_options& options)
    : options_(options), locator_(options.catalogs), model_(new model), store_(*model_->store_) {
  make_builtins();
}

std::unique_ptr<const model> loader::run(const std::vector<std::string>& files) {
  for (const std::string& f : files) load_entry(f);
  build_schemas();
  build_wsdl();
  return std::move(model_);
}

const detail::document* loader::read_document(const detail::location& loc,
                                              const source_location& referenced_at) {
  if (auto it = documents_by_path_.find(loc.path); it != documents_by_path_.end())
    return it->second;
  std::string text;
  if (loc.standard) {
    text = loc.standard->text;
  } else {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(loc.path, ec)) {
      if (referenced_at.file.empty()) throw error({loc.path, 0, 0}, "no such file: " + loc.path);
      throw error(referenced_at, "missing file: " + loc.path);
    }
    text = detail::read_file(loc.path, referenced_at);
  }
  detail::document& doc = store_.documents.emplace_back(loc.path, std::move(text));
  store_.files.push_back(loc.path);
  documents_by_path_.emplace(loc.path, &doc);
  return &doc;
}

void loader::load_entry(const std::string& path) {
  const detail::document* doc = read_document({path}, {});
  const node& root = doc->root();
  if (root.is(wsdl_ns, "definitions"))
    load_wsdl(*doc);
  else if (is_xsd(root, "schema"))
    load_schema(*doc, root, root.attr("targetNamespace").value_or(""), false);
  else
    throw error(root.where(), "not a WSDL 1.1 definitions or XML Schema document: {" +
                                  std::string(root.ns) + "}" + std::string(root.local));
}

void loader::load_wsdl(const detail::document& doc) {
  const node& root = doc.root();
  if (wsdl_of_root_.count(&root)) return;
  detail::wsdl_context& ctx = wsdl_docs_.emplace_back(
      detail::wsdl_context{&doc, std::string(root.attr("targetNamespace").value_or(""))});
  wsdl_of_root_.emplace(&root, &ctx);
  for (const node& c : root.children()) {
    if (c.ns != wsdl_ns) continue;
    if (c.local == "import") {
      auto ns = c.attr("namespace");
      auto loc_attr = c.attr("location");
      if (!loc_attr || trim(*loc_attr).empty()) {
        if (ns) import_namespace(*ns, c.where());
        continue;
      }
      auto loc = locator_.resolve(trim(*loc_attr), doc.path());
      if (!loc)
        throw error(c.where(), "no local copy of " + std::string(*loc_attr) +
                                   " (not in a catalog, not a standard schema; use --catalog)");
      const detail::document* target = read_document(*loc, c.where());
      const node& troot = target->root();
      if (troot.is(wsdl_ns, "definitions"))
        load_wsdl(*target);
      else if (is_xsd(troot, "schema"))
        load_schema(*target, troot, troot.attr("targetNamespace").value_or(""), false);
      else
        throw error(c.where(), "imported document " + loc->path +
                                   " is neither WSDL definitions nor an XML Schema");
    } else if (c.local == "types") {
      for (const node& s : c.children())
        if (is_xsd(s, "schema")) load_schema(doc, s, s.attr("targetNamespace").value_or(""), false);
    } else if (c.local == "message" || c.local == "portType" || c.local == "binding") {
      auto name = c.attr("name");
      if (!name) throw error(c.where(), "wsdl:" + std::string(c.local) + " without a name");
      int k = c.local == "message" ? 0 : c.local == "portType" ? 1 : 2;
      qname q{ctx.tns, std::string(*name)};
      auto [it, added] = wsdl_index_[k].try_emplace(q, detail::wsdl_declaration{&c, &ctx});
      if (!added) {
        // The same declaration copied into two documents is one declaration; another one
        // under the same QName would silently lose.
        std::string why = redeclaration_conflict(*it->second.n, false, false, c, false, false);
        if (!why.empty()) throw_redeclared(q, *it->second.n, c, why);
        continue;
      }
      wsdl_nodes_.push_back({&c, &ctx});
    } else if (c.local == "service") {
      wsdl_nodes_.push_back({&c, &ctx});
    }
  }
}

void loader::load_schema(const detail::document& doc, const node& root, std::string_view tns,
                         bool chameleon) {
  std::string key = doc.path() + '#' + std::to_string(root.line) + ':' +
                    std::to_string(root.column) + '#' + std::string(tns);
  if (!loaded_schemas_.insert(key).second) return;
  schema& s = store_.schemas.emplace_back();
  s.target_namespace = tns;
  s.element_form_qualified = root.attr("elementFormDefault") == "qualified";
  s.attribute_form_qualified = root.attr("attributeFormDefault") == "qualified";
  s.where = root.where();
  store_.schema_list.push_back(&s);
  schema_context& ctx = schema_contexts_.emplace_back();
  ctx.doc = &doc;
  ctx.root = &root;
  ctx.tns = tns;
  ctx.chameleon = chameleon;
  ctx.element_qualified = s.element_form_qualified;
  ctx.attribute_qualified = s.attribute_form_qualified;
  ctx.out = &s;
  loaded_namespaces_.insert(std::string(tns));

  for (const node& c : root.children()) {
    if (c.ns != xsd_ns) continue;
    if (c.local == "include" || c.local == "redefine" || c.local == "import") {
      auto sl = c.attr("schemaLocation");
      bool is_import = c.local == "import";
      if (!sl || trim(*sl).empty()) {
        if (!is_import)
          throw error(c.where(), "xs:" + std::string(c.local) + " without schemaLocation");
        import_namespace(c.attr("namespace").value_or(""), c.where());
        continue;
      }
      auto loc = locator_.resolve(trim(*sl), doc.path());
      if (!loc && is_import) {
        // An unmapped URL for a namespace we can find otherwise (already loaded, catalog by
        // namespace, standard schema) is no reason to fail.
        std::string_view ns = c.attr("namespace").value_or("");
        if (loaded_namespaces_.count(std::string(ns)) || locator_.by_namespace(ns)) {
          import_namespace(ns, c.where());
          continue;
        }
      }
      if (!loc)
        throw error(c.where(), "no local copy of " + std::string(*sl) +
                                   " (not in a catalog, not a standard schema; use --catalog)");
      if (is_import)
        load_schema_location(*loc, std::nullopt, c.where());
      else
        load_schema_location(*loc, std::string_view(ctx.tns), c.where());
      if (c.local == "redefine")
        for (const node& r : c.children()) {
          if (r.ns != xsd_ns) continue;
          if (r.local == "simpleType" || r.local == "complexType")
            register_declaration(decl_kind::type, r, ctx, true);
          else if (r.local == "group")
            register_declaration(decl_kind::group, r, ctx, true);
          else if (r.local == "attributeGroup")
            register_declaration(decl_kind::attribute_group, r, ctx, true);
        }
    } else if (c.local == "element") {
      register_declaration(decl_kind::element, c, ctx, false);
    } else if (c.local == "complexType" || c.local == "simpleType") {
      register_declaration(decl_kind::type, c, ctx, false);
    } else if (c.local == "group") {
      register_declaration(decl_kind::group, c, ctx, false);
    } else if (c.local == "attributeGroup") {
      register_declaration(decl_kind::attribute_group, c, ctx, false);
    } else if (c.local == "attribute") {
      register_declaration(decl_kind::attribute, c, ctx, false);
    }
  }
}

void loader::load_schema_location(const detail::location& loc,
                                  std::optional<std::string_view> include_tns,
                                  const source_location& referenced_at) {
  const detail::document* doc = read_document(loc, referenced_at);
  const node& root = doc->root();
  if (!is_xsd(root, "schema"))
    throw error(referenced_at, loc.path + " is not an XML Schema document (root {" +
                                   std::string(root.ns) + "}" + std::string(root.local) + ")");
  std::string_view own = root.attr("targetNamespace").value_or("");
  if (!include_tns) return load_schema(*doc, root, own, false);
  if (own.empty()) return load_schema(*doc, root, *include_tns, !include_tns->empty());
  if (own != *include_tns)
    throw error(referenced_at, "included schema " + loc.path + " has targetNamespace \"" +
                                   std::string(own) + "\", the including schema \"" +
                                   std::string(*include_tns) + "\"");
  load_schema(*doc, root, own, false);
}

void loader::import_namespace(std::string_view ns, const source_location& referenced_at) {
  if (ns == xsd_ns || loaded_namespaces_.count(std::string(ns))) return;
  if (auto loc = locator_.by_namespace(ns)) load_schema_location(*loc, std::nullopt, referenced_at);
  // Otherwise the namespace may come from another inline schema; a reference into it that
  // nothing declares fails where it is made.
}

void loader::register_declaration(decl_kind k, const node& n, const schema_context& ctx,
                                  bool redefining) {
  auto name = n.attr("name");
  if (!name) throw error(n.where(), "global xs:" + std::string(n.local) + " without a name");
  declaration& d = declarations_.emplace_back(declaration{&n, &ctx, nullptr});
  qname q{ctx.tns, std::string(trim(*name))};
  const declaration*& slot = index_[static_cast<int>(k)][q];
  if (!slot) {
    slot = &d;
  } else if (redefining) {
    d.redefined = slot;
    slot = &d;
  } else {
    // A second declaration of the same QName from another schema document (one document
    // read twice counts once: load_schema). The same declaration copied into several
    // documents (a schema inlined in two WSDLs, one file under two paths) keeps the first;
    // a different one is an error, never a silent choice (docs/wsdl2cpp.md).
    const schema_context& first = *slot->ctx;
    std::string why =
        redeclaration_conflict(*slot->n, first.element_qualified, first.attribute_qualified, n,
                               ctx.element_qualified, ctx.attribute_qualified);
    if (!why.empty()) throw_redeclared(q, *slot->n, n, why);
  }
}

const loader::declaration* loader::find_declaration(decl_kind k, const qname& name) {
  auto& index = index_[static_cast<int>(k)];
  if (auto it = index.find(name); it != index.end()) return it->second;
  // A namespace nobody imported (SOAP-ENC in many rpc/encoded contracts): its standard schema.
  if (!loaded_namespaces_.count(name.ns)) {
    if (auto loc = locator_.by_namespace(name.ns)) {
      load_schema_location(*loc, std::nullopt, {});
      if (auto it = index.find(name); it != index.end()) return it->second;
    }
  }
  return nullptr;
}

qname loader::resolve_qname(const node& n, std::string_view value,
                            const schema_context* ctx) const {
  value = trim(value);
  std::size_t colon = value.find(':');
  std::string_view prefix =
      colon == std::string_view::npos ? std::string_view{} : value.substr(0, colon);
  std::string_view local = colon == std::string_view::npos ? value : value.substr(colon + 1);
  if (local.empty()) throw error(n.where(), "empty QName \"" + std::string(value) + "\"");
  auto ns = n.lookup(prefix);
  if (!ns && !prefix.empty())
    throw error(n.where(), "undeclared prefix \"" + std::string(prefix) + "\" in QName \"" +
                               std::string(value) + "\"");
  qname q{std::string(ns.value_or("")), std::string(local)};
  if (q.ns.empty() && ctx && ctx->chameleon) q.ns = ctx->tns;
  return q;
}

qname loader::attr_qname(const node& n, std::string_view attr, const schema_context* ctx) const {
  auto v = n.attr(attr);
  if (!v) throw error(n.where(), std::string(n.local) + " without " + std::string(attr));
  return resolve_qname(n, *v, ctx);
}

}  // namespace lather::wsdl
