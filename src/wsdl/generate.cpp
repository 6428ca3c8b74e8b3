// lather-wsdl2cpp's engine: structs + lather::meta<T> for the types the document/literal
// operations reach. Three passes over the model: reach (which types), names (deterministic,
// keyword-safe, clash-free), plan + emit (fields, dependency order, one header per namespace).
#include "lather/wsdl/generate.hpp"

#include <algorithm>

#include "generate_names.hpp"
#include "generator.hpp"

namespace lather::wsdl::detail {

generate_result generator::run() {
  check_namespace();
  collect_roots();
  reach_holder_hierarchies();
  std::set<std::string> classes;
  for (const port_type* pt : m_.port_types()) {
    if (!ports_.count(pt)) continue;
    port_files_.emplace(pt, unique_name(identifier(pt->name.local), file_stems_) + ".hpp");
    // Port types of one local name in two namespaces: Name, Name_2, ...
    std::string cls = unique_name(identifier(pt->name.local), classes);
    type_names_.merge(port_type_classes(cls));
    port_classes_.emplace(pt, std::move(cls));
  }
  // The enumerations an encoded message reaches become std::string (SOAP encoding has none).
  for (const type* t : encoded_seen_)
    if (t->kind == type_kind::simple &&
        !static_cast<const simple_type*>(t)->facets.enumeration.empty())
      encoded_enums_.insert(static_cast<const simple_type*>(t));
  reaching_ = false;
  assign_names();
  assign_message_names();
  for (const enum_plan& e : enums_)
    if (encoded_enums_.count(e.t))
      names_.push_back("  note: " + e.name +
                       " is std::string in rpc/encoded messages (SOAP encoding has no "
                       "enumerations)");
  for (struct_plan& s : structs_) {
    try {
      plan_struct(s);
    } catch (const error&) {
      // s.refused says why; the operations that reach s are skipped.
    }
  }
  list_derived();
  spread_refusals();
  order_structs();
  order_by_all_members();
  emit();
  return std::move(result_);
}

void generator::collect_roots() {
  std::set<std::string> done;
  const std::set<std::string> wanted(o_.operations.begin(), o_.operations.end());
  std::set<std::string> found;
  for (const binding* b : m_.bindings()) {
    for (const binding_operation& bo : b->operations) {
      std::string key = b->port_type->name.local + "." + bo.name;
      std::string why;
      if (b->version == soap_version::none) continue;
      if (!wanted.empty()) {
        bool by_name = wanted.count(bo.name) != 0, by_key = wanted.count(key) != 0;
        if (!by_name && !by_key) continue;
        if (by_name) found.insert(bo.name);
        if (by_key) found.insert(key);
      }
      const bool rpc = bo.style == binding_style::rpc;
      const bool encoded = (bo.input.body && bo.input.body->use == body_use::encoded) ||
                           (bo.output.body && bo.output.body->use == body_use::encoded);
      if (!rpc && encoded) why = "document style with encoded use";
      for (int out = 0; out < 2 && !rpc; ++out) {
        const message* msg = out ? bo.op->output : bo.op->input;
        const binding_message& bm = out ? bo.output : bo.input;
        if (!msg) continue;
        for (const part& p : msg->parts) {
          if (p.element || !why.empty()) continue;
          if (in_body(p, bm))
            why = "a document-style part with type= (part " + p.name + ")";
          else if (bm.mime && !std::any_of(bm.headers.begin(), bm.headers.end(),
                                           [&](const soap_header& h) { return h.part == &p; }))
            names_.push_back("  note: " + key + ": " + (out ? "output" : "input") + " part " +
                             p.name + " is a MIME attachment, not in the generated method");
        }
      }
      if (!why.empty()) {
        if (done.insert(key).second)
          result_.skipped.push_back(key + ": " + why + " is not generated yet");
        continue;
      }
      if (!done.insert(key).second) continue;
      ports_[b->port_type].push_back(&bo);
      port_version_.emplace(b->port_type, b->version);
      std::vector<const message*> msgs{bo.op->input, bo.op->output};
      for (const fault& f : bo.op->faults) msgs.push_back(f.msg);
      for (const binding_message* bm : {&bo.input, &bo.output})
        for (const soap_header& h : bm->headers) {
          msgs.push_back(h.msg);
          for (const soap_header_fault& hf : h.faults) msgs.push_back(hf.msg);
        }
      for (const message* msg : msgs)
        if (msg)
          for (const part& p : msg->parts) {
            if (p.element) reach_element(*p.element);
            if (p.type && rpc) reach(p.type);
          }
      for (int out = 0; out < 2 && !rpc; ++out) {
        const message* msg = out ? bo.op->output : bo.op->input;
        if (!msg) continue;
        for (const part& p : msg->parts)
          if (in_body(p, out ? bo.output : bo.input) && p.element->type->kind == type_kind::simple)
            reach(simple_body(*p.element, false));
      }
      // A literal header element of a simple type: a struct of one member, as a body's.
      for (const binding_message* bm : {&bo.input, &bo.output})
        for (const soap_header& h : bm->headers)
          if (h.part && h.part->element && h.use == body_use::literal &&
              h.part->element->type->kind == type_kind::simple)
            reach(simple_body(*h.part->element, true));
      // Which types the messages of each use reach: a type only encoded messages reach gets
      // no literal binding (its SOAP-ENC arrays may be nillable, which literal XML cannot say).
      for (const message* msg : msgs) {
        const bool body = msg == bo.op->input || msg == bo.op->output;
        if (msg)
          for (const part& p : msg->parts)
            mark_reached(p.type ? p.type : p.element->type,
                         encoded && body ? encoded_seen_ : literal_seen_);
      }
      if (rpc) {
        // The RPC wrappers: a struct per message, named after the operation.
        auto& pair = rpc_plans_[&bo];
        for (int out = 0; out < 2; ++out) {
          const message* msg = out ? bo.op->output : bo.op->input;
          if (!msg) continue;
          const binding_message& bm = out ? bo.output : bo.input;
          struct_plan sp;
          sp.msg = msg;
          sp.bound = &bm;
          sp.op_name = bo.name;
          sp.response = out == 1;
          sp.encoded = bm.body && bm.body->use == body_use::encoded;
          sp.ns = bm.body ? bm.body->ns : "";
          sp.xml_name = out ? bo.name + "Response" : bo.name;
          (out ? pair.second : pair.first) = structs_.size();
          structs_.push_back(std::move(sp));
        }
      }
    }
  }
  std::string missing;
  for (const std::string& w : wanted)
    if (!found.count(w)) missing += (missing.empty() ? "\"" : ", \"") + w + "\"";
  if (!missing.empty())
    throw error({}, "--operations: no SOAP binding of the contract has the operation " + missing +
                        " (give operation names or PortType.Operation)");
}

const complex_type* generator::simple_body(const element_decl& e, bool header) {
  simple_body_type& s = simple_bodies_[&e];
  std::unique_ptr<complex_type>& t = s.type;
  if (!t) {
    t = std::make_unique<complex_type>();
    t->kind = type_kind::complex;
    t->name.ns = e.name.ns;
    t->context = e.name;
    t->where = e.where;
    t->content_kind = complex_type::content::simple;
    t->text_type = static_cast<const simple_type*>(e.type);
  }
  if (!std::exchange(s.noted[header], true))
    names_.push_back("  note: " + std::string(header ? "header" : "body") + " element " +
                     e.name.str() + " is of a simple type: its " + (header ? "header" : "message") +
                     " struct holds the text in `value`");
  return t.get();
}

const complex_type* generator::body_type(const element_decl& e) const {
  if (e.type->kind == type_kind::complex) return static_cast<const complex_type*>(e.type);
  auto it = simple_bodies_.find(&e);
  return it == simple_bodies_.end() ? nullptr : it->second.type.get();
}

const std::vector<const complex_type*>& generator::derived_of(const complex_type* c) {
  if (!derived_index_built_) {
    derived_index_built_ = true;
    for (const schema* sc : m_.schemas())
      for (const type* t : sc->types)
        if (t->kind == type_kind::complex) {
          const auto* d = static_cast<const complex_type*>(t);
          if (d->derived == complex_type::derivation::extension && d->base &&
              d->base->kind == type_kind::complex)
            derived_index_[static_cast<const complex_type*>(d->base)].push_back(d);
        }
  }
  return derived_index_[c];
}

/// An xsi:type hierarchy: every type extending `c`, transitively.
void generator::reach_hierarchy(const complex_type* c) {
  for (const complex_type* d : derived_of(c)) {
    reach(d);
    reach_hierarchy(d);
  }
}

/// The first non-abstract type of an abstract type's hierarchy (depth first), or nullptr.
const complex_type* generator::concrete_of(const complex_type* c) {
  if (!c->abstract) return c;
  for (const complex_type* d : derived_of(c))
    if (const complex_type* k = concrete_of(d)) return k;
  return nullptr;
}

bool generator::has_named_derived(const complex_type* c) {
  for (const complex_type* d : derived_of(c))
    if (!d->anonymous()) return true;
  return false;
}

const complex_type* generator::holder_base(const element_decl& e, const struct_plan& s) {
  if (e.type->kind != type_kind::complex || e.type->builtin || encoded_struct(s)) return nullptr;
  const auto* c = static_cast<const complex_type*>(e.type);
  return !c->abstract && has_named_derived(c) ? c : nullptr;
}

void generator::reach_holder_hierarchies() {
  std::set<const complex_type*> done;
  // Reaching a derived type appends its struct (and those of its members): walked in turn.
  for (std::size_t i = 0; i < structs_.size(); ++i) {
    if (structs_[i].msg || !structs_[i].t->content_model) continue;
    std::vector<const complex_type*> todo;
    holder_bases(*structs_[i].t->content_model, structs_[i], todo);
    while (!todo.empty()) {
      const complex_type* b = todo.back();
      todo.pop_back();
      if (!done.insert(b).second) continue;
      // An anonymous derived type is no xsi:type: only its element's reach makes it.
      for (const complex_type* d : derived_of(b))
        if (!d->anonymous()) {
          reach(d);
          // Read and written as literal XML: so are the types its members hold.
          mark_reached(d, literal_seen_);
          todo.push_back(d);
        }
    }
  }
}

/// Element `e` (or, heading a substitution group, each element that may appear for it: a
/// choice's alternatives, plan_alternatives) as a holder's base.
void generator::holder_bases_of(const element_decl& e, const struct_plan& s,
                                std::vector<const complex_type*>& out) {
  std::vector<const element_decl*> all;
  substitutable(e, all);
  for (const element_decl* x : all)
    if (const complex_type* b = holder_base(*x, s)) out.push_back(b);
}

void generator::holder_bases(const particle& p, const struct_plan& s,
                             std::vector<const complex_type*>& out) {
  if (p.what == particle::kind::element) return holder_bases_of(*p.element, s, out);
  if (p.what != particle::kind::group) return;
  const model_group& g = *p.group;
  // A choice of several alternatives (plan_alternatives): its elements of the type's
  // namespace, and the members of their substitution groups, are holders as members are; its
  // inline group alternatives are structs of their own, walked as such.
  if (g.kind == compositor::choice &&
      (g.particles.size() != 1 || heads_substitution(g.particles[0]))) {
    for (const particle& a : alternatives_of(p))
      if (a.what == particle::kind::element && !group_alternative(a, s.t->name.ns))
        holder_bases_of(*a.element, s, out);
    return;
  }
  for (const particle& q : g.particles) holder_bases(q, s, out);
}

void generator::list_derived() {
  std::vector<const complex_type*> todo(poly_roots_.begin(), poly_roots_.end());
  std::set<const complex_type*> listed;
  while (!todo.empty()) {
    const complex_type* c = todo.back();
    todo.pop_back();
    if (!listed.insert(c).second) continue;
    const auto it = struct_index_.find(c);
    if (it == struct_index_.end()) continue;
    struct_plan& s = structs_[it->second];
    if (c->abstract) {  // a std::shared_ptr: typeid tells its object's type
      const struct_plan* top = &s;
      while (top->base) top = &structs_[struct_index_.at(top->base)];
      virtual_roots_.insert(top->t);
    }
    for (const complex_type* d : derived_of(c))
      if (struct_index_.count(d)) {
        s.derived.push_back(d);
        todo.push_back(d);
      }
  }
}

bool generator::dynamic(const struct_plan& s) const {
  for (const struct_plan* h = &s; h; h = h->base ? &structs_[struct_index_.at(h->base)] : nullptr)
    if (virtual_roots_.count(h->t)) return true;
  return false;
}

bool generator::is_mixed(const complex_type* c) {
  return c->content_kind == complex_type::content::mixed;
}

/// Adds `t` and every type its content reaches to `seen`.
void generator::mark_reached(const type* t, std::unordered_set<const type*>& seen) {
  if (!t || t->builtin || !seen.insert(t).second) return;
  if (t->kind == type_kind::simple) {
    const auto* s = static_cast<const simple_type*>(t);
    mark_reached(s->base, seen);
    return mark_reached(s->item, seen);
  }
  const auto* c = static_cast<const complex_type*>(t);
  if (c->array) return mark_reached(c->array->item, seen);
  mark_reached(c->base, seen);
  mark_reached(c->text_type, seen);
  if (c->content_model) mark_reached_particle(*c->content_model, seen);
  for (const attribute_use& a : c->attributes) mark_reached(a.decl->type, seen);
}

void generator::mark_reached_particle(const particle& p, std::unordered_set<const type*>& seen) {
  if (p.what == particle::kind::element) mark_reached(p.element->type, seen);
  if (p.what == particle::kind::group)
    for (const particle& q : p.group->particles) mark_reached_particle(q, seen);
}

/// Whether a struct is read and written as literal XML (a document or rpc/literal message
/// reaches it): only those get the literal binding and a schema description.
bool generator::literal(const struct_plan& s) const {
  if (s.msg) return !s.encoded;
  return !encoded_seen_.count(s.t) || literal_seen_.count(s.t);
}

bool generator::table_only(const struct_plan& s) const {
  return s.msg ? !s.encoded : !encoded_seen_.count(s.t);
}

/// A struct that uses a refused one (as a member, base or item type) is refused too.
void generator::spread_refusals() {
  for (bool changed = true; changed;) {
    changed = false;
    for (struct_plan& s : structs_) {
      if (!s.refused.empty()) continue;
      for (const field_plan& f : s.fields)
        if (f.concrete && !structs_[struct_index_.at(f.concrete)].refused.empty()) {
          s.refused = structs_[struct_index_.at(f.concrete)].refused;
          changed = true;
        }
      if (!s.refused.empty()) continue;
      for (const type* d : s.deps) {
        if (d->kind != type_kind::complex) continue;
        const struct_plan& u = structs_[struct_index_.at(static_cast<const complex_type*>(d))];
        if (u.refused.empty()) continue;
        s.refused = u.refused;
        changed = true;
        break;
      }
    }
  }
  for (const struct_plan& s : structs_)
    if (!s.refused.empty() && !s.msg)
      names_.push_back("not generated: " + s.name + ": " + s.refused);
}

void generator::reach(const type* t) {
  if (!t || t->builtin || !seen_.insert(t).second) return;
  if (t->kind == type_kind::simple) {
    const auto* s = static_cast<const simple_type*>(t);
    if (s->variety == simple_type::variety::list) return reach(s->item);
    if (s->variety == simple_type::variety::union_) return;
    if (!s->facets.enumeration.empty()) {
      enum_index_.emplace(s, enums_.size());
      enums_.push_back({s, {}, {}, {}, {}, {}});
    }
    return reach(s->base);
  }
  const auto* c = static_cast<const complex_type*>(t);
  if (c->array) return reach(c->array->item);  // a SOAP-ENC array: std::vector
  if (c->abstract) {
    reach_hierarchy(c);
    poly_roots_.insert(c);
  }
  if (is_mixed(c)) {  // a retained XML fragment: lather::bind::any_type
    names_.push_back("mixed complexType " +
                     (c->anonymous() ? "of " + c->context.str() : c->name.str()) +
                     " -> lather::bind::any_type (the element's XML as received)");
    return;
  }
  struct_index_.emplace(c, structs_.size());
  structs_.push_back({});
  structs_.back().t = c;
  reach(c->base);
  if (c->text_type) reach(c->text_type);
  if (c->content_model) reach_particle(*c->content_model, c);
  for (const attribute_use& a : c->attributes) reach(a.decl->type);
}

// As plan_particle walks it: the inline groups get their structs here.
void generator::reach_particle(const particle& p, const complex_type* owner) {
  if (p.what == particle::kind::element) return reach_element(*p.element);
  if (p.what != particle::kind::group) return;
  const model_group& g = *p.group;
  if (g.kind == compositor::choice && g.particles.size() == 1 &&
      !heads_substitution(g.particles[0]))
    return reach_particle(only_particle(p), owner);
  if (g.kind == compositor::choice) {
    for (const particle& a : alternatives_of(p)) {
      if (group_alternative(a, owner->name.ns))
        group_struct(owner, a);
      else
        reach_particle(a, owner);
    }
    return;
  }
  if (p.max > 1 && g.particles.size() == 1) return reach_particle(only_particle(p), owner);
  if (group_sequence(p)) {
    group_struct(owner, p);
    return;
  }
  for (const particle& q : g.particles) reach_particle(q, owner);
}

const complex_type* generator::group_struct(const complex_type* owner, const particle& content) {
  const auto key = std::make_pair(owner, content.where.str());
  if (const auto it = group_of_.find(key); it != group_of_.end()) return it->second;
  if (!reaching_)  // planning names only the groups reach_particle made
    throw error(content.where, "model group not reached (an internal error)");
  complex_type& g = group_types_.emplace_back();
  g.kind = type_kind::complex;
  g.name = {owner->name.ns, ""};
  g.where = content.where;
  g.context = {owner->name.ns, (owner->anonymous() ? owner->context.local : owner->name.local) +
                                   "_" + first_name(content)};
  g.content_kind = complex_type::content::element_only;
  particle once = content;
  once.min = once.max = 1;
  g.content_model = once;
  group_of_.emplace(key, &g);
  struct_index_.emplace(&g, structs_.size());
  structs_.push_back({});
  structs_.back().t = &g;
  structs_.back().group = true;
  reach_particle(*g.content_model, &g);
  return &g;
}

std::string generator::file_for(const std::string& ns) {
  auto it = files_.find(ns);
  if (it != files_.end()) return it->second;
  std::string_view s = ns;
  while (!s.empty() && (s.back() == '/' || s.back() == ':' || s.back() == '#')) s.remove_suffix(1);
  std::size_t cut = s.find_last_of("/:#");
  std::string stem = identifier(cut == std::string_view::npos ? s : s.substr(cut + 1));
  if (ns.empty()) stem = "no_namespace";
  std::string file = unique_name(stem, file_stems_) + ".hpp";
  files_.emplace(ns, file);
  names_.push_back("namespace " + quote(ns) + " -> " + file);
  return file;
}

namespace {

void particle_names(const particle& p, std::set<std::string>& out) {
  if (p.what == particle::kind::element) out.insert(identifier(p.element->name.local));
  if (p.what == particle::kind::any) out.insert("any");
  if (p.what == particle::kind::group)
    for (const particle& q : p.group->particles) particle_names(q, out);
}

/// The names the members `t` inherits from its C++ bases are made from (element and attribute
/// names; a member may carry a suffix, so this is a superset of what clashes). `t`'s struct
/// must not take one: in its scope the struct's own name hides the inherited member
/// (`offsetof(Topic, Topic)` names the constructor).
std::set<std::string> inherited_names(const complex_type& t) {
  std::set<std::string> out;
  for (const complex_type* d = &t; d->derived == complex_type::derivation::extension &&
                                   d->base->kind == type_kind::complex && !d->base->builtin;) {
    d = static_cast<const complex_type*>(d->base);
    if (d->content_model) particle_names(*d->content_model, out);
    if (d->content_kind == complex_type::content::simple) out.insert("value");
    for (const attribute_use& a : d->attributes) out.insert(identifier(a.decl->name.local));
    if (d->any_attribute) out.insert("anyAttribute");
  }
  return out;
}

}  // namespace

void generator::assign_names() {
  // Named types claim their names first, in model order; anonymous types (named after their
  // element) come after, so a named type never gets a suffix because of an element.
  for (int anonymous = 0; anonymous < 2; ++anonymous) {
    for (enum_plan& e : enums_) {
      if (e.t->anonymous() != (anonymous == 1)) continue;
      e.xml_name = e.t->anonymous() ? e.t->context.local : e.t->name.local;
      e.ns = e.t->name.ns;
      e.name = unique_name(identifier(e.xml_name), type_names_);
      e.file = file_for(e.ns);
      names_.push_back((e.t->anonymous() ? "anonymous simpleType of " + e.t->context.str()
                                         : "simpleType " + e.t->name.str()) +
                       " -> " + o_.cpp_namespace + "::" + e.name + " (" + e.file + ")");
      std::set<std::string> used;
      for (const std::string& v : e.t->facets.enumeration) {
        std::string n = unique_name(identifier(v.empty() ? "empty" : v), used);
        if (n != v) names_.push_back("  enumerator " + e.name + "::" + n + " <- " + quote(v));
        e.values.emplace_back(n, v);
      }
    }
    for (struct_plan& s : structs_) {
      if (s.msg || s.t->anonymous() != (anonymous == 1)) continue;
      s.anonymous = s.t->anonymous();
      s.xml_name = s.anonymous ? s.t->context.local : s.t->name.local;
      s.ns = s.t->name.ns;
      s.name = unique_name(identifier(s.xml_name), type_names_, inherited_names(*s.t));
      s.file = file_for(s.ns);
      names_.push_back((s.group       ? "model group at " + s.t->where.str() + " (inline)"
                        : s.anonymous ? "anonymous complexType of " + s.t->context.str()
                                      : "complexType " + s.t->name.str()) +
                       " -> " + o_.cpp_namespace + "::" + s.name + " (" + s.file + ")");
    }
  }
}

/// The rpc message structs, after every type: "op", "opResponse" (suffixed on a clash).
void generator::assign_message_names() {
  for (struct_plan& s : structs_) {
    if (!s.msg) continue;
    s.name = unique_name(identifier(s.xml_name), type_names_);
    s.file = file_for(s.ns);
    names_.push_back("rpc " + std::string(s.response ? "output" : "input") + " of " + s.op_name +
                     " (message " + s.msg->name.str() + ") -> " + o_.cpp_namespace + "::" + s.name +
                     " (" + s.file + ")");
  }
}

// ---------------------------------------------------------------- order

/// Structs in an order where every by-value member's type comes first. A cycle of by-value
/// members is broken by boxing an optional member on it (box()), then the order starts over.
void generator::order_structs() {
  for (;;) {
    order_.clear();
    path_.clear();
    std::vector<int> state(structs_.size(), 0);  // 0 new, 1 in progress, 2 done
    bool complete = true;
    for (std::size_t i = 0; i < structs_.size() && complete; ++i) complete = visit(i, state);
    if (complete) return;
  }
}

/// order_ refined so that a struct named by any member (a vector's item type too) comes
/// first where the members' references allow it: the strongly connected components of all
/// references in dependency order (Tarjan), each component in the by-value order_.
void generator::order_by_all_members() {
  std::vector<std::size_t> position(structs_.size());
  for (std::size_t k = 0; k < order_.size(); ++k) position[order_[k]] = k;
  tarjan t(structs_.size());
  std::vector<std::size_t> order;
  for (std::size_t i : order_)
    if (t.index[i] < 0) strong_connect(i, t, position, order);
  order_ = std::move(order);
}

void generator::strong_connect(std::size_t i, tarjan& t, const std::vector<std::size_t>& position,
                               std::vector<std::size_t>& order) {
  t.index[i] = t.low[i] = t.next++;
  t.stack.push_back(i);
  t.on_stack[i] = true;
  for (const type* d : structs_[i].deps) {
    if (d->kind != type_kind::complex) continue;
    std::size_t j = struct_index_.at(static_cast<const complex_type*>(d));
    if (t.index[j] < 0) {
      strong_connect(j, t, position, order);
      t.low[i] = std::min(t.low[i], t.low[j]);
    } else if (t.on_stack[j]) {
      t.low[i] = std::min(t.low[i], t.index[j]);
    }
  }
  if (t.low[i] != t.index[i]) return;
  std::vector<std::size_t> component;
  std::size_t j;
  do {
    j = t.stack.back();
    t.stack.pop_back();
    t.on_stack[j] = false;
    component.push_back(j);
  } while (j != i);
  std::sort(component.begin(), component.end(),
            [&](std::size_t a, std::size_t b) { return position[a] < position[b]; });
  order.insert(order.end(), component.begin(), component.end());
}

/// False when it boxed a member to break a cycle (the caller starts over).
bool generator::visit(std::size_t i, std::vector<int>& state) {
  if (state[i] == 2) return true;
  state[i] = 1;
  struct_plan& s = structs_[i];
  for (const type* d : std::vector<const type*>(s.value_deps)) {
    std::size_t j = struct_index_.at(static_cast<const complex_type*>(d));
    if (state[j] == 1) {
      // The cycle is j -> ... -> i -> j: box the first optional member on it.
      if (box(s, d)) continue;
      auto from =
          std::find_if(path_.begin(), path_.end(), [&](const auto& e) { return e.first == j; });
      for (auto e = from; e != path_.end(); ++e)
        if (box(structs_[e->first], e->second)) return false;
      throw error(structs_[j].t->where,
                  "type " + structs_[j].name +
                      " contains itself through required elements: not generated yet");
    }
    path_.emplace_back(i, d);
    if (!visit(j, state)) return false;
    path_.pop_back();
  }
  state[i] = 2;
  order_.push_back(i);
  return true;
}

/// Recursion through an optional member: hold it in a std::shared_ptr (the binding's 0..1
/// pointer member), so the struct need not contain itself.
bool generator::box(struct_plan& s, const type* d) {
  for (field_plan& f : s.fields) {
    if (f.boxable != d || f.cpp_type == f.boxed_type) continue;
    f.cpp_type = f.boxed_type;
    s.boxed = true;
    s.value_deps.erase(std::find(s.value_deps.begin(), s.value_deps.end(), d));
    names_.push_back("  note: " + s.name + "::" + f.member +
                     " is a std::shared_ptr: the type recurses through it");
    return true;
  }
  return false;
}

}  // namespace lather::wsdl::detail

namespace lather::wsdl {

generate_result generate_cpp(const model& m, const generate_options& options) {
  return detail::generator(m, options).run();
}

}  // namespace lather::wsdl
