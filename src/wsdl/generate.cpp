// lather-wsdl2cpp's engine: structs + lather::meta<T> for the types the document/literal
// operations reach. Three passes over the model: reach (which types), names (deterministic,
// keyword-safe, clash-free), plan + emit (fields, dependency order, one header per namespace).
#include "lather/wsdl/generate.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "generate_emit.hpp"
#include "generate_names.hpp"
#include "generate_security.hpp"
#include "lather/wsdl/load.hpp"
#include "lather/wsdl/sample.hpp"

namespace lather::wsdl {
namespace {

using detail::builtin_cpp;
using detail::identifier;
using detail::quote;
using detail::unique_name;

/// The faults of a binding operation that have a WS-Addressing Action in force, by their
/// detail element (a fault message's one element part): {ns, local name, Action}.
std::vector<std::array<std::string, 3>> fault_actions_of(const binding_operation& bo) {
  std::vector<std::array<std::string, 3>> out;
  for (const binding_fault& bf : bo.faults) {
    if (bf.action.empty()) continue;
    for (const fault& f : bo.op->faults)
      if (f.name == bf.name && f.msg && f.msg->parts.size() == 1 && f.msg->parts[0].element)
        out.push_back(
            {f.msg->parts[0].element->name.ns, f.msg->parts[0].element->name.local, bf.action});
  }
  return out;
}

struct field_plan {
  enum class kind { element, attribute, text, any, choice } what = kind::element;
  std::string xml_name;
  std::string member;
  std::string cpp_type;
  std::string modifiers;  ///< ".unqualified()", ".min(2)", ...
  std::vector<std::string> alternatives;
  qname source;  ///< for names.txt
  /// An optional (0..1) struct member that may be boxed (std::shared_ptr) to break recursion.
  const complex_type* boxable = nullptr;
  std::string boxed_type;
  /// --mock: the statements that give this member of `v` its sample value ("" = none).
  std::string sample;
  const complex_type* concrete = nullptr;  ///< polymorphic member: the sample's type
  /// The types the member's C++ type names: struct_plan::deps[deps_from, deps_to).
  std::size_t deps_from = 0, deps_to = 0;
};

struct struct_plan {
  const complex_type* t = nullptr;
  std::string name, file, xml_name, ns;
  bool anonymous = false;
  const complex_type* base = nullptr;  ///< C++ base (xs:extension of a generated type)
  std::vector<field_plan> fields;
  std::vector<const type*> value_deps;  ///< must be complete before this struct
  std::vector<const type*> deps;        ///< every generated type the members name
  bool planned = false;
  bool boxed = false;  ///< has a shared_ptr member: no value operator==
  /// Generated types extending this one that an xsi:type may name (an abstract type's
  /// hierarchy): meta<T>::derived, and a virtual destructor for the dynamic type.
  std::vector<const complex_type*> derived;
  /// Why this struct cannot be generated (its own construct or one of a type it uses): it is
  /// left out, and so is every operation that reaches it. "" = generated.
  std::string refused;
  /// An rpc operation's message (t is null): the parts are its fields, the RPC wrapper
  /// {ns}xml_name its element.
  const message* msg = nullptr;
  const binding_message* bound = nullptr;
  std::string op_name;
  bool response = false;
  bool encoded = false;
};

struct enum_plan {
  const simple_type* t = nullptr;
  std::string name, file, xml_name, ns;
  std::vector<std::pair<std::string, std::string>> values;  ///< enumerator, lexical value
};

class generator {
 public:
  generator(const model& m, const generate_options& o) : m_(m), o_(o) {}

  generate_result run() {
    check_namespace();
    collect_roots();
    // The enumerations an encoded message reaches become std::string (SOAP encoding has none).
    for (const type* t : encoded_seen_)
      if (t->kind == type_kind::simple &&
          !static_cast<const simple_type*>(t)->facets.enumeration.empty())
        encoded_enums_.insert(static_cast<const simple_type*>(t));
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
    spread_refusals();
    order_structs();
    order_by_all_members();
    emit();
    return std::move(result_);
  }

 private:
  // ---------------------------------------------------------------- pass 1: reach
  void collect_roots() {
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
          for (const soap_header& h : bm->headers) msgs.push_back(h.msg);
        for (const message* msg : msgs)
          if (msg)
            for (const part& p : msg->parts) {
              if (p.element) reach_element(*p.element);
              if (p.type && rpc) reach(p.type);
            }
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

  void reach_element(const element_decl& e) { reach(e.type); }

  /// The complex types of the model that extend `c` directly.
  const std::vector<const complex_type*>& derived_of(const complex_type* c) {
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
  void reach_hierarchy(const complex_type* c) {
    for (const complex_type* d : derived_of(c)) {
      reach(d);
      reach_hierarchy(d);
    }
  }

  /// The first non-abstract type of an abstract type's hierarchy (depth first), or nullptr.
  const complex_type* concrete_of(const complex_type* c) {
    if (!c->abstract) return c;
    for (const complex_type* d : derived_of(c))
      if (const complex_type* k = concrete_of(d)) return k;
    return nullptr;
  }

  static bool is_mixed(const complex_type* c) {
    return c->content_kind == complex_type::content::mixed;
  }

  /// Adds `t` and every type its content reaches to `seen`.
  static void mark_reached(const type* t, std::unordered_set<const type*>& seen) {
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

  static void mark_reached_particle(const particle& p, std::unordered_set<const type*>& seen) {
    if (p.what == particle::kind::element) mark_reached(p.element->type, seen);
    if (p.what == particle::kind::group)
      for (const particle& q : p.group->particles) mark_reached_particle(q, seen);
  }

  /// Whether a struct is read and written as literal XML (a document or rpc/literal message
  /// reaches it): only those get the literal binding and a schema description.
  bool literal(const struct_plan& s) const {
    if (s.msg) return !s.encoded;
    return !encoded_seen_.count(s.t) || literal_seen_.count(s.t);
  }

  /// A struct that uses a refused one (as a member, base or item type) is refused too.
  void spread_refusals() {
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

  void reach(const type* t) {
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
    if (c->abstract) reach_hierarchy(c);
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
    if (c->content_model) reach_particle(*c->content_model);
    for (const attribute_use& a : c->attributes) reach(a.decl->type);
  }

  void reach_particle(const particle& p) {
    if (p.what == particle::kind::element) return reach_element(*p.element);
    if (p.what == particle::kind::group)
      for (const particle& q : p.group->particles) reach_particle(q);
  }

  // ---------------------------------------------------------------- pass 2: names
  std::string file_for(const std::string& ns) {
    auto it = files_.find(ns);
    if (it != files_.end()) return it->second;
    std::string_view s = ns;
    while (!s.empty() && (s.back() == '/' || s.back() == ':' || s.back() == '#'))
      s.remove_suffix(1);
    std::size_t cut = s.find_last_of("/:#");
    std::string stem = identifier(cut == std::string_view::npos ? s : s.substr(cut + 1));
    if (ns.empty()) stem = "no_namespace";
    std::string file = unique_name(stem, file_stems_) + ".hpp";
    files_.emplace(ns, file);
    names_.push_back("namespace " + quote(ns) + " -> " + file);
    return file;
  }

  void assign_names() {
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
        s.name = unique_name(identifier(s.xml_name), type_names_);
        s.file = file_for(s.ns);
        names_.push_back((s.anonymous ? "anonymous complexType of " + s.t->context.str()
                                      : "complexType " + s.t->name.str()) +
                         " -> " + o_.cpp_namespace + "::" + s.name + " (" + s.file + ")");
      }
    }
  }

  /// The rpc message structs, after every type: "op", "opResponse" (suffixed on a clash).
  void assign_message_names() {
    for (struct_plan& s : structs_) {
      if (!s.msg) continue;
      s.name = unique_name(identifier(s.xml_name), type_names_);
      s.file = file_for(s.ns);
      names_.push_back("rpc " + std::string(s.response ? "output" : "input") + " of " + s.op_name +
                       " (message " + s.msg->name.str() + ") -> " + o_.cpp_namespace +
                       "::" + s.name + " (" + s.file + ")");
    }
  }

  // ---------------------------------------------------------------- pass 3: plan
  std::string qualified(const std::string& name) const {
    return "::" + o_.cpp_namespace + "::" + name;
  }

  /// The C++ type of a value of `t`; notes generated types it names in `s`.
  std::string value_type(const type* t, struct_plan& s, bool by_value, const source_location& at) {
    if (t->kind == type_kind::complex) {
      const auto* c = static_cast<const complex_type*>(t);
      bool encoded = s.msg ? s.encoded : encoded_seen_.count(s.t) != 0;
      if ((c->builtin || is_mixed(c)) && encoded)  // the encoded binding has no any_type
        throw error(at, (c->builtin ? "xsd:anyType" : "mixed content") +
                            std::string(" in an rpc/encoded message is not generated yet"));
      if (c->builtin || is_mixed(c)) return "lather::bind::any_type";
      if (c->array) {
        if (c->array->dimensions.find(',') != std::string::npos)
          throw error(
              at, "multi-dimensional SOAP-ENC array " + c->name.str() + " is not generated yet");
        return "std::vector<" + value_type(c->array->item, s, false, at) + ">";
      }
      if (c->abstract)
        throw error(at,
                    "abstract type " + c->name.str() +
                        " as an attribute, choice alternative or rpc part is not generated yet");
      const struct_plan& target = structs_[struct_index_.at(c)];
      s.deps.push_back(c);
      if (by_value) s.value_deps.push_back(c);
      return qualified(target.name);
    }
    return simple_cpp(static_cast<const simple_type*>(t), s);
  }

  std::string simple_cpp(const simple_type* t, struct_plan& s) {
    if (t->variety == simple_type::variety::list) {
      std::string item = simple_cpp(t->item, s);
      return "lather::xsd::list<" + item + ">";
    }
    if (t->variety == simple_type::variety::union_) return "std::string";
    for (const simple_type* x = t; x; x = x->base) {
      if (x->builtin) return builtin_cpp(x->name.local);
      if (auto it = enum_index_.find(x); it != enum_index_.end()) {
        // SOAP encoding has no enumerated values: the lexical form (names.txt notes it).
        if (encoded_enums_.count(x)) return "std::string";
        s.deps.push_back(x);
        return qualified(enums_[it->second].name);
      }
      if (x->variety == simple_type::variety::list) return simple_cpp(x, s);
    }
    return "std::string";
  }

  std::string ns_modifier(const std::string& item_ns, const std::string& owner_ns, bool attribute) {
    if (item_ns.empty()) return attribute ? "" : ".unqualified()";
    if (item_ns == owner_ns) return attribute ? ".qualified()" : "";
    return ".in_namespace(" + quote(item_ns) + ")";
  }

  std::string member_name(std::string_view xml, struct_plan& s, std::set<std::string>& used) {
    std::string n = identifier(xml);
    if (n == s.name) n += "_";
    return unique_name(n, used);
  }

  // ---------------------------------------------------------------- samples (--mock)
  /// A statement giving `expr` (a value of XSD type `t`) its sample value, "" when its
  /// default-constructed value is one (anyType, a generated enum: its first enumerator).
  std::string sample_of(const type* t, const std::string& expr, const std::string& fixed = {}) {
    if (t->kind == type_kind::complex) {
      const auto* c = static_cast<const complex_type*>(t);
      if (c->array) {
        std::string item = "y" + std::to_string(++sample_var_);
        std::string value = sample_of(c->array->item, item);
        return expr + ".resize(1); for (auto& " + item + " : " + expr + ") { " +
               (value.empty() ? "(void)" + item + "; " : value) + "} ";
      }
      if (t->builtin || is_mixed(c)) {
        // The element with its required attributes (any_type writes it under the member's
        // name; empty XML would write nothing).
        std::string xml = "<x";
        if (!t->builtin)
          for (const attribute_use& a : effective_attributes(*c))
            if (a.use == attribute_use::use::required)
              xml += " " + a.decl->name.local + "=\"" +
                     (a.fixed_value ? *a.fixed_value : sample_value(*a.decl->type)) + "\"";
        return expr + ".xml = " + quote(xml + "/>") + "; ";
      }
      return "sample(" + expr + ", depth + 1); ";
    }
    const auto* st = static_cast<const simple_type*>(t);
    if (fixed.empty())
      for (const simple_type* x = st; x; x = x->base)
        if (enum_index_.count(x) && !encoded_enums_.count(x)) return "";
    return "text(" + expr + ", " + quote(fixed.empty() ? sample_value(*st) : fixed) + "); ";
  }

  /// The XML of a sample element for wildcard `w` of a type in namespace `tns`: for a strict
  /// wildcard a declared element, else (or when none fits) one in a namespace it allows.
  std::string sample_any(const wildcard& w, const std::string& tns) const {
    if (std::string xml = declared_any(w, tns); !xml.empty()) return xml;
    std::string_view all = w.namespaces, first = all.substr(0, all.find(' '));
    if (first == "##local") return "<sample/>";
    std::string ns = first == "##targetNamespace"               ? tns
                     : first.empty() || first.starts_with("##") ? "urn:lather:sample"
                                                                : std::string(first);
    return "<s:sample xmlns:s=" + quote(ns) + "/>";
  }

  /// For a strict wildcard: a declared global element with simple or empty content it allows,
  /// as sample XML; "" when none fits (or the wildcard is not strict).
  std::string declared_any(const wildcard& w, const std::string& tns) const {
    auto allowed = [&](const std::string& ns) {
      for (std::string_view list = w.namespaces; !list.empty();) {
        std::string_view t = list.substr(0, list.find(' '));
        list.remove_prefix(std::min(list.size(), t.size() + 1));
        if (t == "##any" || (t == "##other" && ns != tns && !ns.empty()) ||
            (t == "##targetNamespace" && ns == tns) || (t == "##local" && ns.empty()) || t == ns)
          return true;
      }
      return false;
    };
    for (const schema* sc : m_.schemas()) {
      if (w.process_contents != wildcard::process::strict) break;
      for (const element_decl* e : sc->elements) {
        if (e->abstract || !allowed(e->name.ns)) continue;
        std::string text;
        if (e->type->kind == type_kind::simple) {
          text = sample_value(*static_cast<const simple_type*>(e->type));
          if (text.find_first_of("<&:") != std::string::npos) continue;
        } else if (!e->type->builtin) {
          const auto* c = static_cast<const complex_type*>(e->type);
          bool required = std::any_of(c->attributes.begin(), c->attributes.end(), [](auto& a) {
            return a.use == attribute_use::use::required;
          });
          if (c->content_model || c->content_kind != complex_type::content::empty || required)
            continue;
        }
        std::string name = e->name.ns.empty() ? e->name.local : "p:" + e->name.local;
        std::string decl = e->name.ns.empty() ? "" : " xmlns:p=\"" + e->name.ns + "\"";
        return "<" + name + decl + ">" + text + "</" + name + ">";
      }
    }
    return "";
  }

  /// `value` (a statement on `x`) for every item of vector member `member`: max(min, 1) items;
  /// optional repetitions (min 0) only near the root, so recursive types stay finite.
  static std::string sample_items(const std::string& member, std::uint32_t min,
                                  const std::string& value) {
    std::string n = std::to_string(std::max<std::uint32_t>(min, 1));
    std::string stmt = "v." + member + ".resize(" + n + "); for (auto&& x : v." + member + ") { " +
                       (value.empty() ? "(void)x; " : value) + "} ";
    return min == 0 ? "if (depth < 3) { " + stmt + "} " : stmt;
  }

  void plan_element(const particle& p, const element_decl& e, bool optional_ctx, struct_plan& s,
                    std::set<std::string>& used) {
    if (!e.substitutes.empty()) {  // the head or a member of its group, tagged by element
      particle once = p;
      once.min = once.max = 1;
      return plan_alternatives(p, {&once}, optional_ctx, s, used, e.name.local);
    }
    if (e.abstract)
      throw error(p.where, "abstract element " + e.name.str() + " is not generated yet");
    std::uint32_t min = optional_ctx ? 0 : p.min, max = p.max;
    field_plan f;
    f.xml_name = e.name.local;
    f.source = e.name;
    f.member = member_name(e.name.local, s, used);
    f.deps_from = s.deps.size();
    if (e.type->kind == type_kind::complex && static_cast<const complex_type*>(e.type)->abstract)
      return plan_polymorphic(e, min, max, s, std::move(f));
    std::string v = value_type(e.type, s, max <= 1, e.where);
    const std::optional<std::string>& dflt = e.default_value ? e.default_value : e.fixed_value;
    f.modifiers = ns_modifier(e.name.ns, s.ns, false);
    const std::string fixed = e.fixed_value.value_or("");
    if (max > 1) {
      f.cpp_type = "std::vector<" + (e.nillable ? "lather::nillable<" + v + ">" : v) + ">";
      if (min != 0) f.modifiers += ".min(" + std::to_string(min) + ")";
      if (max != unbounded) f.modifiers += ".max(" + std::to_string(max) + ")";
      f.sample = sample_items(f.member, min,
                              e.nillable ? "x.emplace(); " + sample_of(e.type, "*x", fixed)
                                         : sample_of(e.type, "x", fixed));
    } else if (min == 0) {
      if (e.nillable) {
        // The binding has one state for both absent and nil here (an empty optional is
        // written as xsi:nil, valid for a nillable element); names.txt says so.
        f.cpp_type = "std::optional<" + v + ">";
        f.modifiers += ".nillable()";
        names_.push_back("  note: " + s.name + "::" + f.member +
                         " is minOccurs=0 and nillable: absent and nil are one state (written as "
                         "xsi:nil)");
      } else if (dflt) {
        f.cpp_type = v;
        f.modifiers += ".min(0).default_value(" + quote(*dflt) + ")";
        f.sample = sample_of(e.type, "v." + f.member, *dflt);
      } else {
        f.cpp_type = "std::optional<" + v + ">";
        if (e.type->kind == type_kind::complex && !e.type->builtin) {
          f.boxable = static_cast<const complex_type*>(e.type);
          f.boxed_type = "std::shared_ptr<" + v + ">";
        }
      }
    } else {
      f.cpp_type = e.nillable ? "lather::nillable<" + v + ">" : v;
      if (dflt) f.modifiers += ".default_value(" + quote(*dflt) + ")";
      f.sample = e.nillable
                     ? "v." + f.member + ".emplace(); " + sample_of(e.type, "*v." + f.member, fixed)
                     : sample_of(e.type, "v." + f.member, fixed);
    }
    f.deps_to = s.deps.size();
    s.fields.push_back(std::move(f));
  }

  /// An element of an abstract type: std::shared_ptr<Base> (a vector of them when repeated),
  /// read and written with xsi:type naming the type of the object; `.min(1)` when required.
  void plan_polymorphic(const element_decl& e, std::uint32_t min, std::uint32_t max, struct_plan& s,
                        field_plan f) {
    const auto* b = static_cast<const complex_type*>(e.type);
    const complex_type* concrete = concrete_of(b);
    if (!concrete)
      throw error(e.where, "abstract type " + b->name.str() + " has no concrete derived type");
    s.deps.push_back(b);
    s.boxed = true;
    std::string base = qualified(structs_[struct_index_.at(b)].name);
    std::string d = qualified(structs_[struct_index_.at(concrete)].name);
    f.cpp_type = "std::shared_ptr<" + base + ">";
    f.concrete = concrete;
    f.modifiers = ns_modifier(e.name.ns, s.ns, false);
    auto make = [&](const std::string& x) {
      return x + " = std::make_shared<" + d + ">(); sample(static_cast<" + d + "&>(*" + x +
             "), depth + 1); ";
    };
    if (max > 1) {
      f.cpp_type = "std::vector<" + f.cpp_type + ">";
      if (min != 0) f.modifiers += ".min(" + std::to_string(min) + ")";
      if (max != unbounded) f.modifiers += ".max(" + std::to_string(max) + ")";
      f.sample = sample_items(f.member, min, make("x"));
    } else if (min != 0) {
      f.modifiers += ".min(1)";
      f.sample = make("v." + f.member);
    }
    s.fields.push_back(std::move(f));
  }

  /// The one particle of group particle `p`, its occurrences multiplied by the group's: a
  /// choice or sequence of one particle accepts exactly what that particle so repeated does.
  static particle only_particle(const particle& p) {
    particle single = p.group->particles[0];
    single.min = p.min * single.min;
    single.max = p.max == unbounded || single.max == unbounded ? unbounded : p.max * single.max;
    return single;
  }

  void plan_choice(const particle& p, bool optional_ctx, struct_plan& s,
                   std::set<std::string>& used) {
    const std::vector<particle>& particles = p.group->particles;
    if (particles.size() == 1 && !heads_substitution(particles[0]))  // a choice of one
      return plan_particle(only_particle(p), optional_ctx, s, used);
    std::vector<const particle*> alternatives;
    for (const particle& a : particles) alternatives.push_back(&a);
    plan_alternatives(p, alternatives, optional_ctx, s, used, "");
  }

  static bool heads_substitution(const particle& p) {
    return p.what == particle::kind::element && !p.element->substitutes.empty();
  }

  /// `e` if it may appear, then every member of its substitution group, in schema order.
  static void substitutable(const element_decl& e, std::vector<const element_decl*>& out) {
    if (!e.abstract) out.push_back(&e);
    for (const element_decl* sub : e.substitutes) substitutable(*sub, out);
  }

  /// A std::variant tagged by element over `alternatives` (occurring as `p` does): an xs:choice,
  /// or an element that heads a substitutionGroup (a choice of the head and its members).
  /// `name` names the member (else the alternatives' names joined).
  void plan_alternatives(const particle& p, const std::vector<const particle*>& alternatives,
                         bool optional_ctx, struct_plan& s, std::set<std::string>& used,
                         const std::string& name) {
    // An optional alternative makes the choice optional; a repeated one makes it a repeated
    // choice (a vector of alternatives: every valid instance reads, and a run of one
    // alternative writes valid XML; names.txt notes it).
    std::uint32_t min = p.min, max = p.max;
    std::vector<const element_decl*> alts;
    for (const particle* a : alternatives) {
      if (a->what != particle::kind::element)
        throw error(a->where,
                    "xs:choice alternative other than a non-nillable element (a sequence, "
                    "choice or wildcard) is not generated yet");
      if (a->min == 0) min = 0;
      if (a->max > 1 && max != unbounded) {
        max = unbounded;
        names_.push_back("  note: " + s.name + ": the xs:choice at " + p.where.str() +
                         " has a repeated alternative: a vector of alternatives");
      }
      std::size_t from = alts.size();
      substitutable(*a->element, alts);
      for (std::size_t i = from; i < alts.size(); ++i) {
        if (alts[i]->nillable)
          throw error(a->where,
                      "xs:choice alternative other than a non-nillable element (a sequence, "
                      "choice or wildcard) is not generated yet");
        if (alts[i]->name.ns != s.ns)
          throw error(a->where, "xs:choice alternative " + alts[i]->name.str() +
                                    " outside the type's namespace is not generated yet");
      }
    }
    if (alts.empty()) throw error(p.where, "substitution group without a non-abstract element");
    field_plan f;
    f.what = field_plan::kind::choice;
    f.deps_from = s.deps.size();
    std::string member;
    std::vector<std::string> types;
    // Alternatives are told apart by position (the binding's choice() is index based), so two
    // of the same C++ type stay distinct.
    for (const element_decl* e : alts) {
      types.push_back(value_type(e->type, s, max <= 1, e->where));
      f.alternatives.push_back(e->name.local);
      member += (member.empty() ? "" : "Or") + e->name.local;
    }
    f.deps_to = s.deps.size();
    std::string variant = "std::variant<";
    for (std::size_t i = 0; i < types.size(); ++i) variant += (i ? ", " : "") + types[i];
    variant += ">";
    bool optional = optional_ctx || min == 0;
    if (!name.empty()) member = name;
    f.member = member_name(member.size() > 60 ? alts[0]->name.local + "Choice" : member, s, used);
    if (max > 1) {
      f.cpp_type = "std::vector<" + variant + ">";
      if (min > 1 && !optional_ctx) f.modifiers += ".min(" + std::to_string(min) + ")";
      if (max != unbounded) f.modifiers += ".max(" + std::to_string(max) + ")";
      // The first alternative: a default-constructed variant holds it.
      f.sample =
          sample_items(f.member, optional ? 0 : min, sample_of(alts[0]->type, "std::get<0>(x)"));
    } else {
      f.cpp_type = optional ? "std::optional<" + variant + ">" : variant;
      if (!optional) f.sample = sample_of(alts[0]->type, "std::get<0>(v." + f.member + ")");
    }
    s.fields.push_back(std::move(f));
  }

  void plan_particle(const particle& p, bool optional_ctx, struct_plan& s,
                     std::set<std::string>& used) {
    switch (p.what) {
      case particle::kind::element:
        return plan_element(p, *p.element, optional_ctx, s, used);
      case particle::kind::any: {
        field_plan f;
        f.what = field_plan::kind::any;
        f.member = member_name("any", s, used);
        bool optional = optional_ctx || p.min == 0;
        f.cpp_type = p.max > 1  ? "std::vector<lather::bind::any_element>"
                     : optional ? "std::optional<lather::bind::any_element>"
                                : "lather::bind::any_element";
        std::string any = "x.xml = " + quote(sample_any(p.any, s.ns)) + "; ";
        // A strict wildcard that no declared element fits stays empty when it may.
        bool unfit = p.any.process_contents == wildcard::process::strict &&
                     declared_any(p.any, s.ns).empty();
        if (p.max > 1 && !(unfit && optional))
          f.sample = sample_items(f.member, optional ? 0 : p.min, any);
        else if (!optional)
          f.sample = "{ auto& x = v." + f.member + "; " + any + "} ";
        s.fields.push_back(std::move(f));
        return;
      }
      case particle::kind::group:
        break;
    }
    const model_group& g = *p.group;
    if (g.kind == compositor::all)  // written in schema order; read so only (else an error)
      names_.push_back("  note: " + s.name + ": xs:all at " + g.where.str() +
                       " is read in schema order only (another order is an error)");
    if (g.kind == compositor::choice) return plan_choice(p, optional_ctx, s, used);
    if (p.max > 1 && g.particles.size() == 1)  // a repeated sequence of one: that particle
      return plan_particle(only_particle(p), optional_ctx, s, used);
    if (p.max > 1)
      throw error(g.where, "a repeated xs:sequence (maxOccurs > 1) is not generated yet");
    for (const particle& q : g.particles) plan_particle(q, optional_ctx || p.min == 0, s, used);
  }

  /// Attribute uses in effect: a restriction inherits the base's unless it changes or
  /// prohibits them.
  std::vector<attribute_use> effective_attributes(const complex_type& t) {
    std::vector<attribute_use> out;
    if (t.derived == complex_type::derivation::restriction && t.base->kind == type_kind::complex &&
        !t.base->builtin)
      out = effective_attributes(*static_cast<const complex_type*>(t.base));
    for (const attribute_use& a : t.attributes) {
      auto same = std::find_if(out.begin(), out.end(), [&](const attribute_use& b) {
        return b.decl->name == a.decl->name;
      });
      if (same != out.end()) out.erase(same);
      if (a.use != attribute_use::use::prohibited) out.push_back(a);
    }
    return out;
  }

  /// An rpc message: one unqualified accessor per body part, in message order.
  void plan_message(struct_plan& s) {
    std::set<std::string> used;
    for (const part& p : s.msg->parts) {
      if (!in_body(p, *s.bound)) continue;
      const type* t = p.type ? p.type : p.element->type;
      field_plan f;
      f.xml_name = p.name;
      f.source = {"", p.name};
      f.member = member_name(p.name, s, used);
      f.cpp_type = value_type(t, s, true, p.where);
      f.modifiers = ".unqualified()";
      f.sample = sample_of(t, "v." + f.member);
      s.fields.push_back(std::move(f));
    }
  }

  void plan_struct(struct_plan& s) {
    if (s.planned) {
      if (!s.refused.empty()) throw error({}, s.refused);
      return;
    }
    s.planned = true;
    try {
      if (s.msg) return plan_message(s);
      plan_type(s);
    } catch (const error& e) {
      s.refused = e.what();
      throw;
    }
  }

  void plan_type(struct_plan& s) {
    if (auto it = derived_index_.find(s.t); it != derived_index_.end())
      for (const complex_type* d : it->second)
        if (struct_index_.count(d)) s.derived.push_back(d);
    const complex_type& t = *s.t;
    if (t.content_kind == complex_type::content::mixed)
      throw error(t.where, "mixed content (" +
                               (t.anonymous() ? "type of " + t.context.str() : t.name.str()) +
                               ") is not generated yet");
    std::set<std::string> used;
    bool extends = t.derived == complex_type::derivation::extension &&
                   t.base->kind == type_kind::complex && !t.base->builtin;
    if (extends && is_mixed(static_cast<const complex_type*>(t.base)))
      throw error(t.where, "extension of a mixed type is not generated yet");
    if (extends) {
      s.base = static_cast<const complex_type*>(t.base);
      plan_struct(structs_[struct_index_.at(s.base)]);  // its member names first
      s.deps.push_back(s.base);
      s.value_deps.push_back(s.base);
      // Members of the base stay visible: keep their names out of this struct's.
      for (const field_plan& f : structs_[struct_index_.at(s.base)].fields) used.insert(f.member);
    }
    if (t.content_kind == complex_type::content::simple && !extends) {
      field_plan f;
      f.what = field_plan::kind::text;
      f.member = member_name("value", s, used);
      f.cpp_type = simple_cpp(t.text_type, s);
      bool is_enum = false;
      for (const simple_type* x = t.text_type; x; x = x->base)
        is_enum = is_enum || enum_index_.count(x);
      if (!is_enum || !t.text_facets.enumeration.empty())
        f.sample =
            "text(v." + f.member + ", " + quote(sample_value(*t.text_type, t.text_facets)) + "); ";
      s.fields.push_back(std::move(f));
    }
    if (t.content_model) plan_particle(*t.content_model, false, s, used);
    std::vector<attribute_use> attrs = extends ? t.attributes : effective_attributes(t);
    for (const attribute_use& a : attrs) {
      if (a.use == attribute_use::use::prohibited) continue;
      field_plan f;
      f.what = field_plan::kind::attribute;
      f.xml_name = a.decl->name.local;
      f.source = a.decl->name;
      f.member = member_name(a.decl->name.local, s, used);
      std::string v = simple_cpp(a.decl->type, s);
      f.modifiers = ns_modifier(a.decl->name.ns, s.ns, true);
      const std::optional<std::string>& dflt = a.default_value         ? a.default_value
                                               : a.fixed_value         ? a.fixed_value
                                               : a.decl->default_value ? a.decl->default_value
                                                                       : a.decl->fixed_value;
      const std::optional<std::string>& fixed = a.fixed_value ? a.fixed_value : a.decl->fixed_value;
      if (a.use == attribute_use::use::required) {
        f.cpp_type = v;
        f.modifiers += ".required()";
        f.sample = sample_of(a.decl->type, "v." + f.member, fixed.value_or(""));
      } else if (dflt) {
        f.cpp_type = v;
        f.modifiers += ".default_value(" + quote(*dflt) + ")";
        f.sample = sample_of(a.decl->type, "v." + f.member, *dflt);
      } else {
        f.cpp_type = "std::optional<" + v + ">";
      }
      s.fields.push_back(std::move(f));
    }
    for (const field_plan& f : s.fields)
      if (!f.xml_name.empty() && f.member != f.xml_name)
        names_.push_back("  member " + s.name + "::" + f.member + " <- " +
                         (f.what == field_plan::kind::attribute ? "attribute " : "element ") +
                         f.source.str());
  }

  /// Structs in an order where every by-value member's type comes first. A cycle of by-value
  /// members is broken by boxing an optional member on it (box()), then the order starts over.
  void order_structs() {
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
  void order_by_all_members() {
    std::vector<std::size_t> position(structs_.size());
    for (std::size_t k = 0; k < order_.size(); ++k) position[order_[k]] = k;
    tarjan t(structs_.size());
    std::vector<std::size_t> order;
    for (std::size_t i : order_)
      if (t.index[i] < 0) strong_connect(i, t, position, order);
    order_ = std::move(order);
  }

  struct tarjan {
    explicit tarjan(std::size_t n) : index(n, -1), low(n, 0), on_stack(n, false) {}
    std::vector<int> index, low;
    std::vector<bool> on_stack;
    std::vector<std::size_t> stack;
    int next = 0;
  };

  void strong_connect(std::size_t i, tarjan& t, const std::vector<std::size_t>& position,
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
  bool visit(std::size_t i, std::vector<int>& state) {
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
  bool box(struct_plan& s, const type* d) {
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

  // ---------------------------------------------------------------- emit
  void check_namespace() {
    std::string_view ns = o_.cpp_namespace;
    std::size_t start = 0;
    while (true) {
      std::size_t end = ns.find("::", start);
      std::string_view part =
          ns.substr(start, end == std::string_view::npos ? ns.npos : end - start);
      if (part.empty() || identifier(part) != part)
        throw error({}, "--namespace \"" + o_.cpp_namespace + "\" is not a C++ namespace name");
      if (end == std::string_view::npos) break;
      start = end + 2;
    }
  }

  /// The opening of meta<C++ name>: alias, XSD name and namespace.
  std::string meta_head(const std::string& name, const char* alias, const std::string& xml_name,
                        const std::string& ns, bool anonymous) const {
    std::string mt = "template <>\nstruct lather::meta<" + qualified(name) + "> {\n";
    mt += "  using " + std::string(alias) + " = " + qualified(name) + ";\n";
    mt += "  static constexpr std::string_view name = " + quote(xml_name) + ";\n";
    mt += "  static constexpr std::string_view ns = " + quote(ns) + ";\n";
    if (anonymous) mt += "  static constexpr bool anonymous = true;\n";
    return mt;
  }

  /// Whether member `f` of `s` names a struct of the same header that is defined after `s` (a
  /// vector member: the structs are ordered by value members only). Such a member gets no `{}`:
  /// clang instantiates the vector's destructor there, which needs the item type complete.
  bool later_in_file(const struct_plan& s, const field_plan& f,
                     const std::set<const complex_type*>& defined) const {
    for (std::size_t k = f.deps_from; k < f.deps_to; ++k) {
      if (s.deps[k]->kind != type_kind::complex) continue;
      const auto* c = static_cast<const complex_type*>(s.deps[k]);
      if (c != s.t && structs_[struct_index_.at(c)].file == s.file && !defined.count(c))
        return true;
    }
    return false;
  }

  std::string file_of(const type* t) const {
    if (t->kind == type_kind::complex)
      return structs_[struct_index_.at(static_cast<const complex_type*>(t))].file;
    return enums_[enum_index_.at(static_cast<const simple_type*>(t))].file;
  }

  void emit() {
    std::map<std::string, std::set<std::string>> includes;  // file -> files it includes
    for (const struct_plan& s : structs_)
      if (s.refused.empty())
        for (const type* d : s.deps)
          if (std::string f = file_of(d); f != s.file) includes[s.file].insert(f);
    // Headers may not include each other in a circle.
    for (const auto& [file, incs] : includes)
      for (const std::string& inc : incs)
        if (reaches(inc, file, includes))
          throw error({}, "the schemas of " + file + " and " + inc +
                              " use each other's types: one header per namespace cannot be "
                              "generated for them yet");
    std::map<std::string, std::string> bodies, metas, forwards;
    for (const enum_plan& e : enums_) {
      std::string& b = bodies[e.file];
      b += "enum class " + e.name + " {";
      for (std::size_t i = 0; i < e.values.size(); ++i) b += (i ? ", " : " ") + e.values[i].first;
      b += " };\n\n";
      std::string& mt = metas[e.file];
      mt += meta_head(e.name, "E", e.xml_name, e.ns, e.t->anonymous());
      mt += "  static constexpr auto values = enum_values<E>({";
      for (std::size_t i = 0; i < e.values.size(); ++i)
        mt += std::string(i ? ", " : "") + "{E::" + e.values[i].first + ", " +
              quote(e.values[i].second) + "}";
      mt += "});\n};\n\n";
    }
    for (struct_plan& s : structs_) {
      // Types of the hierarchy that are not generated are not in meta<T>::derived.
      std::erase_if(s.derived, [&](const complex_type* d) {
        return !structs_[struct_index_.at(d)].refused.empty();
      });
      if (s.refused.empty()) forwards[s.file] += "struct " + s.name + ";\n";
    }
    // meta<T>::derived names the derived types, which may live in a header that includes
    // this one: declare them here.
    for (const struct_plan& s : structs_)
      for (const complex_type* d : s.refused.empty() ? s.derived : decltype(s.derived){})
        if (const struct_plan& dp = structs_[struct_index_.at(d)]; dp.file != s.file)
          forwards[s.file] += "struct " + dp.name + ";\n";
    std::set<const complex_type*> defined;
    for (std::size_t i : order_) {
      const struct_plan& s = structs_[i];
      if (!s.refused.empty()) continue;
      std::string& b = bodies[s.file];
      b += "struct " + s.name;
      if (s.base) b += " : " + qualified(structs_[struct_index_.at(s.base)].name);
      std::string special;
      if (!s.derived.empty())  // xsi:type: the dynamic type of a Base& must be known
        special = "  " + s.name + "() = default;\n  " + s.name + "(const " + s.name +
                  "&) = default;\n  " + s.name + "(" + s.name + "&&) = default;\n  " + s.name +
                  "& operator=(const " + s.name + "&) = default;\n  " + s.name + "& operator=(" +
                  s.name + "&&) = default;\n  virtual ~" + s.name + "() = default;\n";
      b += " {\n" + special;
      for (const field_plan& f : s.fields)
        b += "  " + f.cpp_type + " " + f.member + (later_in_file(s, f, defined) ? ";\n" : "{};\n");
      defined.insert(s.t);
      if (!s.boxed)  // a defaulted == would compare the boxes' addresses
        b += "  friend bool operator==(const " + s.name + "&, const " + s.name + "&) = default;\n";
      b += "};\n\n";
      std::string& mt = metas[s.file];
      mt += meta_head(s.name, "T", s.xml_name, s.ns, s.anonymous);
      if (s.encoded) mt += "  static constexpr auto encoding = lather::bind::encoding::soap;\n";
      if (literal(s)) mt += "  static constexpr bool schema_only = true;\n";
      if (s.base)
        mt += "  using base = " + qualified(structs_[struct_index_.at(s.base)].name) + ";\n";
      if (!s.derived.empty()) {
        mt += "  using derived = lather::types<";
        for (std::size_t k = 0; k < s.derived.size(); ++k)
          mt += (k ? ", " : "") + qualified(structs_[struct_index_.at(s.derived[k])].name);
        mt += ">;\n";
      }
      // lather::fields: a plain aggregate, far cheaper to compile than a std::tuple of them.
      mt += "  static constexpr auto fields = lather::fields(";
      bool first = true;
      for (const field_plan& f : s.fields) {
        mt += first ? "\n      " : ",\n      ";
        first = false;
        switch (f.what) {
          case field_plan::kind::element:
            mt += "element(" + quote(f.xml_name) + ", &T::" + f.member + ")";
            break;
          case field_plan::kind::attribute:
            mt += "attribute(" + quote(f.xml_name) + ", &T::" + f.member + ")";
            break;
          case field_plan::kind::text:
            mt += "text(&T::" + f.member + ")";
            break;
          case field_plan::kind::any:
            mt += "any(&T::" + f.member + ")";
            break;
          case field_plan::kind::choice: {
            mt += "choice(&T::" + f.member + ", {";
            for (std::size_t a = 0; a < f.alternatives.size(); ++a)
              mt += (a ? ", " : "") + quote(f.alternatives[a]);
            mt += "})";
            break;
          }
        }
        mt += f.modifiers;
      }
      mt += ");\n};\n";
      if (literal(s)) mt += "LATHER_BIND_EXTERN(" + qualified(s.name) + ");\n";
      mt += "\n";
    }
    std::set<std::string> all_files;
    for (const auto& [ns, file] : files_) all_files.insert(file);
    for (const std::string& file : all_files) {
      std::string text = "// Generated by lather-wsdl2cpp: do not edit.\n#pragma once\n\n";
      text +=
          "#include <cstdint>\n#include <memory>\n#include <optional>\n#include <string>\n"
          "#include <string_view>\n"
          "#include <tuple>\n#include <variant>\n#include <vector>\n\n"
          "#include \"lather/bind/extern.hpp\"\n#include \"lather/bind/meta.hpp\"\n"
          "#include \"lather/bind/xsd.hpp\"\n";
      for (const std::string& inc : includes[file]) text += "#include \"" + inc + "\"\n";
      text += "\nnamespace " + o_.cpp_namespace + " {\n\n" + forwards[file];
      if (!forwards[file].empty()) text += "\n";
      text += bodies[file] + "}  // namespace " + o_.cpp_namespace + "\n\n" + metas[file];
      while (text.size() > 1 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n')
        text.pop_back();
      result_.files.push_back({file, std::move(text)});
    }
    describe_header_ = unique_name("describe", file_stems_) + ".hpp";
    emit_port_types();
    emit_bind_sources(all_files);
    if (std::string security = detail::security_header(o_.cpp_namespace, m_); !security.empty())
      result_.files.push_back({unique_name("security", file_stems_) + ".hpp", std::move(security)});
    if (o_.mock) emit_mock(all_files);
    std::string names = "# XSD name -> C++ name, written by lather-wsdl2cpp\n";
    for (const std::string& n : names_) names += n + "\n";
    for (const std::string& sk : result_.skipped) names += "skipped " + sk + "\n";
    result_.files.push_back({"names.txt", std::move(names)});
    std::string cmake = detail::cmake_lists(identifier(o_.cpp_namespace), library_sources_,
                                            o_.mock ? mock_sources_ : std::vector<std::string>{});
    result_.files.push_back({"CMakeLists.txt", std::move(cmake)});
  }

  /// How many translation units share `items` (--sources, else one per `per_source`).
  std::size_t source_count(std::size_t items, std::size_t per_source) const {
    if (o_.sources) return o_.sources;
    return std::max<std::size_t>(1, (items + per_source - 1) / per_source);
  }

  /// bind_<k>.cpp: the binding of each generated struct (LATHER_BIND_INSTANTIATE), its
  /// description for a service's WSDL (wsdl_builder::type_of) and, for a message of an
  /// operation, its table for the proxies and services (LATHER_MESSAGE_TYPE_INSTANTIATE), all
  /// declared extern in the describe header and compiled once for the whole program; the
  /// structs in dependency order, split evenly. With --mock, mock_<k>.cpp: the sample() of the
  /// same structs.
  void emit_bind_sources(const std::set<std::string>& type_headers) {
    auto type_of = [&](const std::string& name) {
      return "template lather::xsd_ref lather::wsdl_builder::type_of<" + qualified(name) + ">();\n";
    };
    std::string describe =
        "// Generated by lather-wsdl2cpp: do not edit.\n// How a service describes the generated "
        "types in its WSDL and the tables of the operations' messages, instantiated once in "
        "bind_<k>.cpp.\n#pragma once\n\n"
        "#include \"lather/service/message_type.hpp\"\n#include \"lather/service/wsdl.hpp\"\n";
    for (const std::string& h : type_headers) describe += "#include \"" + h + "\"\n";
    describe += "\n";
    std::string enums;
    for (const enum_plan& e : enums_) {
      describe += "extern " + type_of(e.name);
      enums += type_of(e.name);
    }
    for (std::size_t i : order_)
      if (structs_[i].refused.empty()) {
        emitted_.push_back(i);
        if (!structs_[i].msg && literal(structs_[i]))
          describe += "extern " + type_of(structs_[i].name);
        if (message_structs_.count(i))
          describe += "LATHER_MESSAGE_TYPE_EXTERN(" + qualified(structs_[i].name) + ");\n";
      }
    result_.files.push_back({describe_header_, std::move(describe)});
    const std::size_t n = source_count(emitted_.size(), types_per_source);
    const std::size_t samples = source_count(emitted_.size(), samples_per_source);
    for (std::size_t k = 0; k < samples; ++k)
      mock_.struct_sources.emplace_back(k * emitted_.size() / samples,
                                        (k + 1) * emitted_.size() / samples);
    for (std::size_t k = 0; k < n; ++k) {
      std::string body = k == 0 ? enums : "";
      for (std::size_t i = k * emitted_.size() / n; i < (k + 1) * emitted_.size() / n; ++i) {
        const struct_plan& s = structs_[emitted_[i]];
        if (literal(s)) {
          body += "LATHER_BIND_INSTANTIATE(" + qualified(s.name) + ");\n";
          if (!s.msg) body += type_of(s.name);
        }
        if (message_structs_.count(emitted_[i]))
          body += "LATHER_MESSAGE_TYPE_INSTANTIATE(" + qualified(s.name) + ");\n";
      }
      std::string text =
          "// Generated by lather-wsdl2cpp: do not edit.\n// The binding of the structs below, "
          "compiled here once (lather/bind/extern.hpp, lather/service/message_type.hpp).\n"
          "#include \"lather/service/service.hpp\"\n#include \"" +
          describe_header_ + "\"\n";
      std::string file = "bind_" + std::to_string(k + 1) + ".cpp";
      result_.files.push_back({file, text + (body.empty() ? "" : "\n" + body)});
      library_sources_.insert(library_sources_.begin() + static_cast<std::ptrdiff_t>(k), file);
    }
  }

  /// The body: parts= when given, else every part not bound to a header. Headers are not in
  /// the typed API yet (call_options::headers sends them).
  static bool in_body(const part& p, const binding_message& bm) {
    if (bm.body && bm.body->parts)
      return std::find(bm.body->parts->begin(), bm.body->parts->end(), p.name) !=
             bm.body->parts->end();
    return std::none_of(bm.headers.begin(), bm.headers.end(),
                        [&](const soap_header& h) { return h.part == &p; });
  }

  /// The one body part of a binding message, when the proxies can carry it: a single element
  /// part of a generated struct type, no SOAP headers. Else "" and `why`.
  const element_decl* body_element(const message* msg, const binding_message& bm,
                                   std::string& why) const {
    if (!msg) {
      why = "one-way or notification operations";
      return nullptr;
    }
    std::vector<const part*> body;
    for (const part& p : msg->parts)
      if (in_body(p, bm)) body.push_back(&p);
    if (body.size() != 1) {
      why = std::to_string(body.size()) + " body parts";
      return nullptr;
    }
    const element_decl* e = body[0]->element;
    if (!e->substitutes.empty()) {
      why = "a body element that heads a substitutionGroup (" + e->name.str() + ")";
      return nullptr;
    }
    if (e->type->kind != type_kind::complex || e->type->builtin ||
        static_cast<const complex_type*>(e->type)->array ||
        is_mixed(static_cast<const complex_type*>(e->type))) {
      why = "a body element of simple type or anyType (" + e->name.str() + ")";
      return nullptr;
    }
    return e;
  }

  /// Per portType: a client proxy (one typed method per operation) and an abstract service
  /// class whose mount_on() registers every operation on a lather::service.
  void emit_port_types() {
    for (const port_type* pt : m_.port_types()) {
      auto it = ports_.find(pt);
      if (it == ports_.end()) continue;
      std::string cls = identifier(pt->name.local);
      std::string file = unique_name(cls, file_stems_) + ".hpp";
      std::set<std::string> includes, methods;
      std::vector<detail::operation_plan> operations;
      for (const binding_operation* bo : it->second) {
        std::string why;
        const struct_plan* req = nullptr;
        const struct_plan* res = nullptr;
        std::string element_ns, request_element, response_element, style;
        if (auto rp = rpc_plans_.find(bo); rp != rpc_plans_.end()) {
          if (!bo->op->output) {
            why = "one-way or notification operations";
          } else {
            req = &structs_[rp->second.first];
            res = &structs_[rp->second.second];
            element_ns = req->ns;
            request_element = req->xml_name;
            response_element = res->xml_name;
            style = req->encoded ? "rpc_encoded" : "rpc_literal";
          }
        } else {
          const element_decl* in = body_element(bo->op->input, bo->input, why);
          const element_decl* out = in ? body_element(bo->op->output, bo->output, why) : nullptr;
          if (in && out) {
            req = &structs_[struct_index_.at(static_cast<const complex_type*>(in->type))];
            res = &structs_[struct_index_.at(static_cast<const complex_type*>(out->type))];
            element_ns = in->name.ns;
            request_element = in->name.local;
            response_element = out->name.local;
          }
        }
        if (req && res && (!req->refused.empty() || !res->refused.empty())) {
          why = !req->refused.empty() ? req->refused : res->refused;
          req = res = nullptr;
        } else if (!req || !res) {
          why += " not supported yet";
        }
        if (!req || !res) {
          result_.skipped.push_back(pt->name.local + "." + bo->name + ": " + why);
          continue;
        }
        includes.insert(req->file);
        includes.insert(res->file);
        message_structs_.insert(static_cast<std::size_t>(req - structs_.data()));
        message_structs_.insert(static_cast<std::size_t>(res - structs_.data()));
        std::string method = unique_name(identifier(bo->name), methods);
        operations.push_back({bo->name, method, bo->soap_action, qualified(req->name),
                              qualified(res->name), element_ns, request_element, response_element,
                              style, bo->input_action, bo->output_action, fault_actions_of(*bo)});
      }
      if (operations.empty()) continue;
      names_.push_back("portType " + pt->name.str() + " -> " + o_.cpp_namespace + "::" + cls +
                       "Client, " + cls + "Service (" + file + ")");
      mock_index_.emplace(pt, mock_.port_types.size());
      mock_.port_types.push_back({pt->name.local,
                                  pt->name.str(),
                                  cls,
                                  file,
                                  port_version_.at(pt) == soap_version::soap12,
                                  std::move(operations),
                                  std::move(includes),
                                  {}});
    }
    // operations_<k>.cpp: the operations of every port type in WSDL order, split evenly.
    std::vector<detail::operation_ref> all;
    for (std::size_t p = 0; p < mock_.port_types.size(); ++p)
      for (std::size_t i = 0; i < mock_.port_types[p].operations.size(); ++i) all.push_back({p, i});
    const std::size_t n = source_count(all.size(), operations_per_source);
    std::vector<std::vector<detail::operation_ref>> parts(n);
    for (std::size_t k = 0; k < n; ++k) {
      parts[k].assign(all.begin() + k * all.size() / n, all.begin() + (k + 1) * all.size() / n);
      std::set<std::size_t> used;
      for (const detail::operation_ref& r : parts[k])
        if (used.insert(r.port_type).second) mock_.port_types[r.port_type].sources.push_back(k);
    }
    for (const detail::port_type_plan& pt : mock_.port_types)
      result_.files.push_back({pt.header, detail::port_type_header(o_.cpp_namespace, pt)});
    for (std::size_t k = 0; k < n; ++k) {
      std::string file = "operations_" + std::to_string(k + 1) + ".cpp";
      result_.files.push_back({file, detail::operations_source(o_.cpp_namespace, describe_header_,
                                                               mock_.port_types, k, parts[k])});
      library_sources_.push_back(file);
    }
  }

  /// --mock: the samples header and mock_server.cpp (generate_mock.cpp), served at every
  /// SOAP port's path.
  void emit_mock(const std::set<std::string>& type_headers) {
    mock_.cpp_namespace = o_.cpp_namespace;
    mock_.describe_header = describe_header_;
    mock_.type_headers.assign(type_headers.begin(), type_headers.end());
    for (std::size_t i : order_) {
      const struct_plan& s = structs_[i];
      if (!s.refused.empty()) continue;
      detail::mock_struct ms{s.name, s.base ? structs_[struct_index_.at(s.base)].name : "", ""};
      for (const field_plan& f : s.fields) {
        if (f.sample.empty()) continue;
        if (!ms.statements.empty()) ms.statements += "\n  ";
        ms.statements += f.sample.substr(0, f.sample.size() - 1);  // its trailing space
      }
      mock_.structs.push_back(std::move(ms));
    }
    std::map<std::string, std::set<std::size_t>> paths;
    std::set<const binding*> served;
    for (const service* svc : m_.services()) {
      if (mock_.service_name.empty()) {
        mock_.service_name = svc->name.local;
        mock_.target_namespace = svc->name.ns;
      }
      for (const port& p : svc->ports) {
        if (!p.binding || p.binding->version == soap_version::none) continue;
        served.insert(p.binding);
        if (auto it = mock_index_.find(p.binding->port_type); it != mock_index_.end())
          paths[detail::address_path(p.address)].insert(it->second);
      }
    }
    for (const binding* b : m_.bindings())  // a SOAP binding no port uses: at "/"
      if (b->version != soap_version::none && !served.count(b))
        if (auto it = mock_index_.find(b->port_type); it != mock_index_.end())
          paths["/"].insert(it->second);
    if (mock_.service_name.empty()) mock_.service_name = "Mock";
    for (const auto& [path, pts] : paths) mock_.paths.push_back({path, {pts.begin(), pts.end()}});
    std::string samples = unique_name("mock_samples", file_stems_) + ".hpp";
    for (generated_file& f : detail::generate_mock(mock_, samples, mock_sources_))
      result_.files.push_back(std::move(f));
  }

  static bool reaches(const std::string& from, const std::string& to,
                      const std::map<std::string, std::set<std::string>>& g) {
    std::vector<std::string> todo{from};
    std::set<std::string> seen;
    while (!todo.empty()) {
      std::string f = todo.back();
      todo.pop_back();
      if (f == to) return true;
      if (!seen.insert(f).second) continue;
      if (auto it = g.find(f); it != g.end())
        todo.insert(todo.end(), it->second.begin(), it->second.end());
    }
    return false;
  }

  const model& m_;
  generate_options o_;
  generate_result result_;
  std::unordered_set<const type*> seen_;
  std::vector<struct_plan> structs_;
  std::vector<enum_plan> enums_;
  std::unordered_map<const complex_type*, std::size_t> struct_index_;
  std::unordered_map<const simple_type*, std::size_t> enum_index_;
  std::vector<std::size_t> order_;
  std::vector<std::pair<std::size_t, const type*>> path_;  ///< by-value edges being visited
  /// The generated (document/literal) operations of each portType, first binding's.
  std::map<const port_type*, std::vector<const binding_operation*>> ports_;
  std::map<const port_type*, soap_version> port_version_;  ///< of the binding ports_ took
  detail::mock_input mock_;                                ///< --mock
  int sample_var_ = 0;  ///< names of the loop variables of sample statements
  std::unordered_set<const type*> encoded_seen_, literal_seen_;  ///< by the messages of each use
  std::map<const complex_type*, std::vector<const complex_type*>> derived_index_;
  bool derived_index_built_ = false;
  std::unordered_set<const simple_type*> encoded_enums_;  ///< mapped to std::string
  /// rpc operations: their input and output message structs (indexes into structs_).
  std::map<const binding_operation*, std::pair<std::size_t, std::size_t>> rpc_plans_;
  std::map<const port_type*, std::size_t> mock_index_;  ///< into mock_.port_types
  /// Structs, operations and sample() functions per translation unit when --sources does not
  /// say: each file parses the lather and type headers first (about 3 s at -O0 for ONVIF), so
  /// files are a few times that and under 1 GB at -O0.
  static constexpr std::size_t types_per_source = 120, operations_per_source = 24,
                               samples_per_source = 400;
  std::vector<std::size_t> emitted_;       ///< generated structs (indexes), in dependency order
  std::set<std::size_t> message_structs_;  ///< the request and response structs of operations
  std::vector<std::string> library_sources_, mock_sources_;
  std::string describe_header_;
  std::set<std::string> type_names_, file_stems_;
  std::map<std::string, std::string> files_;  ///< XSD namespace -> header
  std::vector<std::string> names_;
};

}  // namespace

generate_result generate_cpp(const model& m, const generate_options& options) {
  return generator(m, options).run();
}

}  // namespace lather::wsdl
