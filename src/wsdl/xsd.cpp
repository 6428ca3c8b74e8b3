// XSD components: built on demand from the declaration index and memoised per declaring node
// and schema instance (a chameleon include's, per namespace it is included into), so each
// declaration is read once however often it is referenced, and a recursive type finds its own
// (still incomplete) object instead of recursing.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>

#include "loader.hpp"

namespace lather::wsdl {
namespace {

constexpr std::string_view wsdl_ns = "http://schemas.xmlsoap.org/wsdl/";
// Pre-Recommendation XSD namespaces that old rpc/encoded contracts still use for built-ins.
constexpr std::string_view xsd1999_ns = "http://www.w3.org/1999/XMLSchema";
constexpr std::string_view xsd2000_ns = "http://www.w3.org/2000/10/XMLSchema";

bool is_builtin_ns(std::string_view ns) {
  return ns == xsd_ns || ns == xsd1999_ns || ns == xsd2000_ns;
}

constexpr std::string_view builtin_simple_names[] = {
    "anySimpleType",
    "string",
    "normalizedString",
    "token",
    "language",
    "Name",
    "NCName",
    "ID",
    "IDREF",
    "IDREFS",
    "ENTITY",
    "ENTITIES",
    "NMTOKEN",
    "NMTOKENS",
    "boolean",
    "base64Binary",
    "hexBinary",
    "float",
    "double",
    "decimal",
    "integer",
    "nonPositiveInteger",
    "negativeInteger",
    "long",
    "int",
    "short",
    "byte",
    "nonNegativeInteger",
    "unsignedLong",
    "unsignedInt",
    "unsignedShort",
    "unsignedByte",
    "positiveInteger",
    "duration",
    "dateTime",
    "time",
    "date",
    "gYearMonth",
    "gYear",
    "gMonthDay",
    "gDay",
    "gMonth",
    "anyURI",
    "QName",
    "NOTATION",
    "timeInstant",
    "binary",
    "uriReference",  // XSD 1999 names seen in old contracts
};

std::uint32_t parse_occurs(const detail::node& n, std::string_view attr, std::uint32_t dflt) {
  auto v = n.attr(attr);
  if (!v) return dflt;
  std::string_view s = detail::trim(*v);
  if (s == "unbounded") return unbounded;
  std::uint64_t x = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc{} || p != s.data() + s.size())
    throw error(n.where(), std::string(attr) + "=\"" + std::string(*v) + "\" is not a number");
  return x >= unbounded ? unbounded - 1 : static_cast<std::uint32_t>(x);
}

std::optional<std::string> opt(std::optional<std::string_view> v) {
  if (!v) return std::nullopt;
  return std::string(*v);
}

const detail::node* first_xsd_child(const detail::node& n) {
  for (const detail::node& c : n.children())
    if (c.ns == xsd_ns && c.local != "annotation") return &c;
  return nullptr;
}

}  // namespace

void loader::make_builtins() {
  for (std::string_view local : builtin_simple_names) {
    simple_type& t = store_.simple_types.emplace_back();
    t.name = {std::string(xsd_ns), std::string(local)};
    t.builtin = true;
    builtin_simple_.emplace(t.name.local, &t);
    store_.type_index.emplace(t.name, &t);
  }
  any_simple_type_ = builtin_simple_.at("anySimpleType");
  complex_type& any = store_.complex_types.emplace_back();
  any.name = {std::string(xsd_ns), "anyType"};
  any.kind = type_kind::complex;
  any.builtin = true;
  any.mixed = true;
  any.content_kind = complex_type::content::mixed;
  particle p;
  p.what = particle::kind::any;
  p.min = 0;
  p.max = unbounded;
  p.any.process_contents = wildcard::process::lax;
  any.content_model = p;
  wildcard attrs;
  attrs.process_contents = wildcard::process::lax;
  any.any_attribute = attrs;
  any_type_ = &any;
  store_.type_index.emplace(any.name, &any);
}

const simple_type* loader::builtin_simple(std::string_view local) const {
  auto it = builtin_simple_.find(std::string(local));
  return it == builtin_simple_.end() ? nullptr : it->second;
}

void loader::build_schemas() {
  std::vector<element_decl*> globals;
  // declarations_ may grow while building (a standard schema loaded on first reference), so
  // index rather than iterate.
  for (std::size_t i = 0; i < declarations_.size(); ++i) {
    const declaration& d = declarations_[i];
    const node& n = *d.n;
    qname name{d.ctx->tns, std::string(n.attr("name").value_or(""))};
    decl_kind k = n.local == "element"          ? decl_kind::element
                  : n.local == "group"          ? decl_kind::group
                  : n.local == "attributeGroup" ? decl_kind::attribute_group
                  : n.local == "attribute"      ? decl_kind::attribute
                                                : decl_kind::type;
    if (find_declaration(k, name) != &d) continue;  // replaced by a redefinition
    switch (k) {
      case decl_kind::element: {
        const element_decl* e = build_element(n, *d.ctx, true);
        d.ctx->out->elements.push_back(e);
        store_.element_index.emplace(name, e);
        globals.push_back(const_cast<element_decl*>(e));
        break;
      }
      case decl_kind::type: {
        const type* t = build_type(n, *d.ctx, name, {});
        d.ctx->out->types.push_back(t);
        store_.type_index.emplace(name, t);
        break;
      }
      case decl_kind::group:
        group_by_name(name, n);
        break;
      case decl_kind::attribute_group: {
        std::vector<attribute_use> uses;
        add_attribute_group(name, n, uses);
        break;
      }
      case decl_kind::attribute:
        build_attribute(n, *d.ctx, true);
        break;
      case decl_kind::count:
        break;
    }
  }
  for (element_decl* e : globals)
    if (e->substitution_group)
      const_cast<element_decl*>(e->substitution_group)->substitutes.push_back(e);
}

const loader::declaration* loader::seen_from(const declaration* d, const node& referrer) const {
  // Inside an xs:redefine, a component's reference to its own name means the declaration it
  // replaces.
  if (d->redefined)
    for (const node* p = &referrer; p; p = p->parent)
      if (p == d->n) return d->redefined;
  return d;
}

const element_decl* loader::global_element(const qname& name, const node& referrer) {
  const declaration* d = find_declaration(decl_kind::element, name);
  if (!d) throw error(referrer.where(), "unresolved element reference " + name.str());
  return build_element(*d->n, *d->ctx, true);
}

const type* loader::type_by_name(const qname& name, const node& referrer) {
  if (is_builtin_ns(name.ns)) {
    if (name.local == "anyType" || name.local == "ur-type") return any_type_;
    if (const simple_type* t = builtin_simple(name.local)) return t;
    throw error(referrer.where(), "unknown XML Schema built-in type " + name.str());
  }
  const declaration* d = find_declaration(decl_kind::type, name);
  if (!d) throw error(referrer.where(), "unresolved type reference " + name.str());
  d = seen_from(d, referrer);
  return build_type(*d->n, *d->ctx, name, {});
}

const simple_type* loader::simple_type_by_name(const qname& name, const node& referrer) {
  const type* t = type_by_name(name, referrer);
  if (t->kind != type_kind::simple)
    throw error(referrer.where(),
                name.str() + " is a complex type where a simple type is required");
  return static_cast<const simple_type*>(t);
}

namespace {
/// The name an element or attribute declaration gives: global ones and qualified local ones
/// (form, else the schema's default) are in the target namespace.
qname declared_name(const detail::node& n, const detail::schema_context& ctx, bool global,
                    bool qualified_by_default) {
  auto name = n.attr("name");
  if (!name) throw error(n.where(), "xs:" + std::string(n.local) + " without name or ref");
  bool qualified = global;
  if (!global) {
    auto form = n.attr("form");
    qualified = form ? *form == "qualified" : qualified_by_default;
  }
  return {qualified ? ctx.tns : std::string(), std::string(*name)};
}
}  // namespace

const element_decl* loader::build_element(const node& n, const schema_context& ctx, bool global) {
  if (auto it = built_elements_.find({&n, &ctx}); it != built_elements_.end()) return it->second;
  element_decl& e = store_.elements.emplace_back();
  built_elements_.emplace(detail::built_key{&n, &ctx}, &e);
  e.name = declared_name(n, ctx, global, ctx.element_qualified);
  e.global = global;
  e.nillable = n.attr("nillable") == "true" || n.attr("nillable") == "1";
  e.abstract = n.attr("abstract") == "true" || n.attr("abstract") == "1";
  e.default_value = opt(n.attr("default"));
  e.fixed_value = opt(n.attr("fixed"));
  e.where = n.where();
  if (auto sg = n.attr("substitutionGroup"))
    e.substitution_group = global_element(resolve_qname(n, *sg, &ctx), n);
  if (auto t = n.attr("type")) {
    e.type = type_by_name(resolve_qname(n, *t, &ctx), n);
  } else {
    for (const node& c : n.children())
      if (is_builtin_ns(c.ns) && (c.local == "complexType" || c.local == "simpleType")) {
        e.type = build_type(c, ctx, {}, e.name);
        break;
      }
    if (!e.type) e.type = e.substitution_group ? e.substitution_group->type : any_type_;
  }
  return &e;
}

const type* loader::build_type(const node& n, const schema_context& ctx, const qname& name,
                               const qname& context) {
  if (n.local == "simpleType") return build_simple_type(n, ctx, name, context);
  return build_complex_type(n, ctx, name, context);
}

void loader::read_facets(const node& restriction, facets& f) {
  for (const node& c : restriction.children()) {
    if (c.ns != xsd_ns) continue;
    auto v = c.attr("value");
    if (!v) continue;
    auto number = [&]() -> std::uint64_t {
      std::uint64_t x = 0;
      auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), x);
      if (ec != std::errc{} || p != v->data() + v->size())
        throw error(c.where(), "facet xs:" + std::string(c.local) + " value \"" + std::string(*v) +
                                   "\" is not a non-negative integer");
      return x;
    };
    std::string_view l = c.local;
    if (l == "enumeration")
      f.enumeration.emplace_back(*v);
    else if (l == "pattern")
      f.patterns.emplace_back(*v);
    else if (l == "length")
      f.length = number();
    else if (l == "minLength")
      f.min_length = number();
    else if (l == "maxLength")
      f.max_length = number();
    else if (l == "totalDigits")
      f.total_digits = number();
    else if (l == "fractionDigits")
      f.fraction_digits = number();
    else if (l == "minInclusive")
      f.min_inclusive = *v;
    else if (l == "maxInclusive")
      f.max_inclusive = *v;
    else if (l == "minExclusive")
      f.min_exclusive = *v;
    else if (l == "maxExclusive")
      f.max_exclusive = *v;
    else if (l == "whiteSpace")
      f.white_space = *v;
  }
}

const simple_type* loader::build_simple_type(const node& n, const schema_context& ctx,
                                             const qname& name, const qname& context) {
  if (auto it = built_types_.find({&n, &ctx}); it != built_types_.end())
    return static_cast<const simple_type*>(it->second);
  simple_type& t = store_.simple_types.emplace_back();
  built_types_.emplace(detail::built_key{&n, &ctx}, &t);
  t.name = name;
  if (name.local.empty()) t.name.ns = ctx.tns;
  t.context = context;
  t.where = n.where();
  const node* body = first_xsd_child(n);
  if (!body) throw error(n.where(), "xs:simpleType without restriction, list or union");
  // An anonymous type inside a named one is named after it (a list's enumerated items).
  const qname& inner_context = name.local.empty() ? context : name;
  auto inline_simple = [&](const node& parent) -> const simple_type* {
    for (const node& c : parent.children())
      if (c.is(xsd_ns, "simpleType")) return build_simple_type(c, ctx, {}, inner_context);
    return nullptr;
  };
  if (body->local == "restriction") {
    if (auto b = body->attr("base"))
      t.base = simple_type_by_name(resolve_qname(*body, *b, &ctx), *body);
    else
      t.base = inline_simple(*body);
    if (!t.base) throw error(body->where(), "xs:restriction without base");
    if (t.base->variety == simple_type::variety::list) {
      t.variety = simple_type::variety::list;
      t.item = t.base->item;
    } else if (t.base->variety == simple_type::variety::union_) {
      t.variety = simple_type::variety::union_;
      t.members = t.base->members;
    }
    read_facets(*body, t.facets);
  } else if (body->local == "list") {
    t.variety = simple_type::variety::list;
    if (auto it = body->attr("itemType"))
      t.item = simple_type_by_name(resolve_qname(*body, *it, &ctx), *body);
    else
      t.item = inline_simple(*body);
    if (!t.item) throw error(body->where(), "xs:list without itemType");
  } else if (body->local == "union") {
    t.variety = simple_type::variety::union_;
    if (auto mt = body->attr("memberTypes"))
      for (const std::string& one : detail::split_tokens(*mt))
        t.members.push_back(simple_type_by_name(resolve_qname(*body, one, &ctx), *body));
    for (const node& c : body->children())
      if (c.is(xsd_ns, "simpleType"))
        t.members.push_back(build_simple_type(c, ctx, {}, inner_context));
  } else {
    throw error(body->where(), "unexpected xs:" + std::string(body->local) + " in xs:simpleType");
  }
  return &t;
}

const complex_type* loader::build_complex_type(const node& n, const schema_context& ctx,
                                               const qname& name, const qname& context) {
  if (auto it = built_types_.find({&n, &ctx}); it != built_types_.end())
    return static_cast<const complex_type*>(it->second);
  complex_type& t = store_.complex_types.emplace_back();
  built_types_.emplace(detail::built_key{&n, &ctx}, &t);
  t.name = name;
  if (name.local.empty()) t.name.ns = ctx.tns;
  t.context = context;
  t.kind = type_kind::complex;
  t.where = n.where();
  t.base = any_type_;
  t.abstract = n.attr("abstract") == "true" || n.attr("abstract") == "1";
  t.mixed = n.attr("mixed") == "true" || n.attr("mixed") == "1";
  const node* body = first_xsd_child(n);
  const node* content_parent = &n;  // where particles and attributes are
  bool element_content_from_base = false;
  const node* d = body ? first_xsd_child(*body) : nullptr;
  bool derivation = d && (d->local == "extension" || d->local == "restriction");
  if (body && body->local == "complexContent" && !derivation) {
    // Invalid but published (the W3C SOAP 1.2 test WSDL): a particle straight inside
    // complexContent. Read as the content of a type derived from anyType, as its author meant
    // (zeep raises on it, gSOAP drops the particle: docs/wsdl-corpus.md).
    content_parent = body;
  } else if (body && (body->local == "simpleContent" || body->local == "complexContent")) {
    if (!derivation)
      throw error(body->where(),
                  "xs:" + std::string(body->local) + " without extension or restriction");
    t.derived = d->local == "extension" ? complex_type::derivation::extension
                                        : complex_type::derivation::restriction;
    auto b = d->attr("base");
    if (!b) throw error(d->where(), "xs:" + std::string(d->local) + " without base");
    t.base = type_by_name(resolve_qname(*d, *b, &ctx), *d);
    content_parent = d;
    if (body->local == "simpleContent") {
      t.content_kind = complex_type::content::simple;
      if (t.base->kind == type_kind::simple) {
        t.text_type = static_cast<const simple_type*>(t.base);
      } else {
        t.text_type = static_cast<const complex_type*>(t.base)->text_type;
        if (!t.text_type) t.text_type = any_simple_type_;
      }
      if (t.derived == complex_type::derivation::restriction) {
        for (const node& c : d->children())
          if (c.is(xsd_ns, "simpleType")) t.text_type = build_simple_type(c, ctx, {}, context);
        read_facets(*d, t.text_facets);
      }
    } else {
      if (auto m = body->attr("mixed")) t.mixed = *m == "true" || *m == "1";
      if (t.base->kind != type_kind::complex)
        throw error(d->where(),
                    "complexContent derived from the simple type " + t.base->name.str());
      const auto* base = static_cast<const complex_type*>(t.base);
      element_content_from_base = t.derived == complex_type::derivation::extension &&
                                  base->content_kind != complex_type::content::empty &&
                                  base != any_type_;
    }
  }
  if (t.content_kind != complex_type::content::simple) {
    for (const node& c : content_parent->children()) {
      if (c.ns != xsd_ns) continue;
      if (c.local == "sequence" || c.local == "choice" || c.local == "all" || c.local == "group") {
        t.content_model = build_particle(c, ctx);
        break;
      }
    }
    bool elements = element_content_from_base || t.content_model.has_value();
    t.content_kind = t.mixed    ? complex_type::content::mixed
                     : elements ? complex_type::content::element_only
                                : complex_type::content::empty;
  }
  add_attributes(*content_parent, ctx, t.attributes, t.any_attribute);
  for (const attribute_use& u : t.attributes)
    if (u.array) t.array = u.array;
  return &t;
}

std::optional<particle> loader::build_particle(const node& n, const schema_context& ctx) {
  particle p;
  p.where = n.where();
  p.min = parse_occurs(n, "minOccurs", 1);
  p.max = parse_occurs(n, "maxOccurs", 1);
  if (n.local == "element") {
    p.what = particle::kind::element;
    if (auto r = n.attr("ref")) {
      p.ref = true;
      p.element = global_element(resolve_qname(n, *r, &ctx), n);
    } else {
      p.element = build_element(n, ctx, false);
    }
  } else if (n.local == "sequence" || n.local == "choice" || n.local == "all") {
    p.what = particle::kind::group;
    p.group = build_model_group(n, ctx);
  } else if (n.local == "group") {
    p.what = particle::kind::group;
    p.group_name = attr_qname(n, "ref", &ctx);
    p.group = group_by_name(p.group_name, n);
  } else if (n.local == "any") {
    p.what = particle::kind::any;
    p.any = build_wildcard(n, ctx);
  } else {
    return std::nullopt;
  }
  return p;
}

const model_group* loader::build_model_group(const node& n, const schema_context& ctx) {
  if (auto it = built_groups_.find({&n, &ctx}); it != built_groups_.end()) return it->second;
  model_group& g = store_.groups.emplace_back();
  built_groups_.emplace(detail::built_key{&n, &ctx}, &g);
  g.kind = n.local == "sequence" ? compositor::sequence
           : n.local == "choice" ? compositor::choice
                                 : compositor::all;
  g.where = n.where();
  for (const node& c : n.children()) {
    if (c.ns != xsd_ns) continue;
    if (auto p = build_particle(c, ctx)) g.particles.push_back(std::move(*p));
  }
  return &g;
}

const model_group* loader::group_by_name(const qname& name, const node& referrer) {
  const declaration* d = find_declaration(decl_kind::group, name);
  if (!d) throw error(referrer.where(), "unresolved group reference " + name.str());
  if (&referrer != d->n) d = seen_from(d, referrer);
  const node* body = first_xsd_child(*d->n);
  if (!body || (body->local != "sequence" && body->local != "choice" && body->local != "all"))
    throw error(d->n->where(), "xs:group without sequence, choice or all");
  return build_model_group(*body, *d->ctx);
}

wildcard loader::build_wildcard(const node& n, const schema_context& ctx) {
  wildcard w;
  w.where = n.where();
  w.tns = ctx.tns;
  if (auto ns = n.attr("namespace")) w.namespaces = *ns;
  if (auto pc = n.attr("processContents"))
    w.process_contents = *pc == "lax"    ? wildcard::process::lax
                         : *pc == "skip" ? wildcard::process::skip
                                         : wildcard::process::strict;
  return w;
}

namespace {

/// A wildcard's {namespace constraint} (XSD 1.0 Part 1, 3.10.1): any; not and a namespace
/// ("" for absent: ##other of a schema without a target namespace); or a set of namespaces
/// ("" for absent), in the order written.
struct namespace_constraint {
  enum class kind : std::uint8_t { any, negation, set } what = kind::any;
  std::string negated;
  std::vector<std::string> members;

  bool has(const std::string& ns) const {
    return std::find(members.begin(), members.end(), ns) != members.end();
  }
  bool operator==(const namespace_constraint& o) const {
    if (what != o.what) return false;
    if (what == kind::negation) return negated == o.negated;
    if (what == kind::set) {
      if (members.size() != o.members.size()) return false;
      for (const std::string& m : members)
        if (!o.has(m)) return false;
    }
    return true;
  }
};

namespace_constraint constraint_of(const wildcard& w) {
  namespace_constraint c;
  const std::vector<std::string> tokens = detail::split_tokens(w.namespaces);
  if (tokens.empty() || std::find(tokens.begin(), tokens.end(), "##any") != tokens.end()) return c;
  if (std::find(tokens.begin(), tokens.end(), "##other") != tokens.end()) {
    c.what = namespace_constraint::kind::negation;
    c.negated = w.tns;
    return c;
  }
  c.what = namespace_constraint::kind::set;
  for (const std::string& t : tokens) {
    const std::string ns = t == "##targetNamespace" ? w.tns : t == "##local" ? "" : t;
    if (!c.has(ns)) c.members.push_back(ns);
  }
  return c;
}

/// Attribute wildcard intersection (XSD 1.0 Part 1, 3.10.6): nullopt where it is not
/// expressible (the negations of two namespaces).
std::optional<namespace_constraint> intersect(const namespace_constraint& a,
                                              const namespace_constraint& b) {
  using kind = namespace_constraint::kind;
  if (a == b || b.what == kind::any) return a;
  if (a.what == kind::any) return b;
  if (a.what == kind::negation && b.what == kind::negation) {  // two different ones
    if (a.negated.empty()) return b;
    if (b.negated.empty()) return a;
    return std::nullopt;
  }
  namespace_constraint out;
  out.what = kind::set;
  const namespace_constraint& set = a.what == kind::set ? a : b;
  const namespace_constraint& other = a.what == kind::set ? b : a;
  for (const std::string& m : set.members)
    if (other.what == kind::set ? other.has(m) : !m.empty() && m != other.negated)
      out.members.push_back(m);
  return out;
}

}  // namespace

std::optional<wildcard> loader::complete_wildcard(const std::optional<wildcard>& local,
                                                  const std::vector<const wildcard*>& groups,
                                                  const node& parent) {
  // XSD 1.0 Part 1, 3.4.2 (complex types) and 3.6.2 (attribute groups): the local
  // <anyAttribute>'s process contents, else the first group wildcard's; the intersection of
  // every namespace constraint.
  if (groups.empty()) return local;
  if (!local && groups.size() == 1) return *groups.front();
  wildcard out = local ? *local : *groups.front();
  const namespace_constraint first = constraint_of(out);
  namespace_constraint c = first;
  for (const wildcard* g : groups) {
    std::optional<namespace_constraint> both = intersect(c, constraint_of(*g));
    if (!both)
      throw error(parent.where(),
                  "the attribute wildcards " + out.where.str() + " (##other of \"" + c.negated +
                      "\") and " + g->where.str() + " (##other of \"" + g->tns +
                      "\") have no intersection XSD 1.0 can express (Part 1, 3.10.6)");
    c = std::move(*both);
  }
  if (c == first) return out;  // as written
  switch (c.what) {
    case namespace_constraint::kind::any:
      out.namespaces = "##any";
      break;
    case namespace_constraint::kind::negation:
      out.namespaces = "##other";
      out.tns = c.negated;
      break;
    case namespace_constraint::kind::set:
      if (c.members.empty()) return std::nullopt;  // no attribute matches
      out.namespaces.clear();
      for (const std::string& m : c.members)
        out.namespaces += (out.namespaces.empty() ? "" : " ") + (m.empty() ? "##local" : m);
      break;
  }
  return out;
}

void loader::add_attributes(const node& parent, const schema_context& ctx,
                            std::vector<attribute_use>& uses, std::optional<wildcard>& any) {
  std::optional<wildcard> local;
  std::vector<const wildcard*> from_groups;  // the referenced groups' wildcards, in order
  for (const node& c : parent.children()) {
    if (c.ns != xsd_ns) continue;
    if (c.local == "attribute") {
      uses.push_back(build_attribute_use(c, ctx));
    } else if (c.local == "attributeGroup") {
      if (const wildcard* w = add_attribute_group(attr_qname(c, "ref", &ctx), c, uses))
        from_groups.push_back(w);
    } else if (c.local == "anyAttribute") {
      local = build_wildcard(c, ctx);
    }
  }
  any = complete_wildcard(local, from_groups, parent);
}

const wildcard* loader::add_attribute_group(const qname& name, const node& referrer,
                                            std::vector<attribute_use>& uses) {
  const declaration* d = find_declaration(decl_kind::attribute_group, name);
  if (!d) throw error(referrer.where(), "unresolved attributeGroup reference " + name.str());
  if (&referrer != d->n) d = seen_from(d, referrer);
  // Per schema instance: a chameleon group included into two namespaces is two groups.
  attribute_group_value& v = built_attribute_groups_[{d->n, d->ctx}];
  if (v.building) throw error(referrer.where(), "circular attributeGroup reference " + name.str());
  if (!v.built) {
    v.building = true;
    std::vector<attribute_use> own;
    std::optional<wildcard> own_any;
    add_attributes(*d->n, *d->ctx, own, own_any);
    v.uses = std::move(own);  // unordered_map references survive the nested insertions
    v.any = own_any;
    v.building = false;
    v.built = true;
  }
  uses.insert(uses.end(), v.uses.begin(), v.uses.end());
  return v.any ? &*v.any : nullptr;
}

attribute_use loader::build_attribute_use(const node& n, const schema_context& ctx) {
  attribute_use u;
  u.where = n.where();
  if (auto r = n.attr("ref")) {
    u.ref = true;
    u.decl = global_attribute(resolve_qname(n, *r, &ctx), n);
  } else {
    u.decl = build_attribute(n, ctx, false);
  }
  if (auto use = n.attr("use"))
    u.use = *use == "required"     ? attribute_use::use::required
            : *use == "prohibited" ? attribute_use::use::prohibited
                                   : attribute_use::use::optional;
  u.default_value = opt(n.attr("default"));
  u.fixed_value = opt(n.attr("fixed"));
  if (auto at = n.attr(wsdl_ns, "arrayType")) u.array = parse_array_type(n, *at, &ctx);
  return u;
}

const attribute_decl* loader::build_attribute(const node& n, const schema_context& ctx,
                                              bool global) {
  if (auto it = built_attributes_.find({&n, &ctx}); it != built_attributes_.end())
    return it->second;
  attribute_decl& a = store_.attributes.emplace_back();
  built_attributes_.emplace(detail::built_key{&n, &ctx}, &a);
  a.name = declared_name(n, ctx, global, ctx.attribute_qualified);
  a.global = global;
  a.default_value = opt(n.attr("default"));
  a.fixed_value = opt(n.attr("fixed"));
  a.where = n.where();
  if (auto t = n.attr("type")) {
    a.type = simple_type_by_name(resolve_qname(n, *t, &ctx), n);
  } else {
    for (const node& c : n.children())
      if (c.is(xsd_ns, "simpleType")) a.type = build_simple_type(c, ctx, {}, a.name);
    if (!a.type) a.type = any_simple_type_;
  }
  return &a;
}

const attribute_decl* loader::global_attribute(const qname& name, const node& referrer) {
  const declaration* d = find_declaration(decl_kind::attribute, name);
  if (!d) throw error(referrer.where(), "unresolved attribute reference " + name.str());
  return build_attribute(*d->n, *d->ctx, true);
}

std::optional<array_type> loader::parse_array_type(const node& n, std::string_view value,
                                                   const schema_context* ctx) {
  std::size_t bracket = value.find('[');
  if (bracket == std::string_view::npos)
    throw error(n.where(), "wsdl:arrayType \"" + std::string(value) + "\" has no dimensions");
  array_type a;
  a.item = type_by_name(resolve_qname(n, value.substr(0, bracket), ctx), n);
  a.dimensions = value.substr(bracket);
  return a;
}

}  // namespace lather::wsdl
