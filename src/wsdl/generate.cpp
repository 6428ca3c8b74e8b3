// lather-wsdl2cpp's engine: structs + lather::meta<T> for the types the document/literal
// operations reach. Three passes over the model: reach (which types), names (deterministic,
// keyword-safe, clash-free), plan + emit (fields, dependency order, one header per namespace).
#include "lather/wsdl/generate.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "lather/wsdl/load.hpp"

namespace lather::wsdl {
namespace {

bool is_keyword(std::string_view s) {
  static const std::unordered_set<std::string_view> words = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
      "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
      "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
      "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "final", "override",
      "import", "module",
      // macros of the C and POSIX headers a generated header may meet
      "NULL", "EOF", "errno", "assert", "stdin", "stdout", "stderr", "unix", "linux", "DOMAIN",
      "TRUE", "FALSE", "min", "max",
      // names the generated code itself uses in a struct's scope
      "lather", "std", "meta", "base"};
  return words.count(s) != 0;
}

/// A C++ identifier for an XML name: other characters become '_', a leading digit gets '_',
/// runs of '_' collapse (no reserved "__"), keywords and macros get a trailing '_'.
std::string identifier(std::string_view raw) {
  std::string out;
  for (char c : raw) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    char x = ok ? c : '_';
    if (x == '_' && !out.empty() && out.back() == '_') continue;
    out.push_back(x);
  }
  if (out.empty() || out == "_") out = "x";
  if (out[0] >= '0' && out[0] <= '9') out.insert(out.begin(), '_');
  if (out.size() > 1 && out[0] == '_' && out[1] >= 'A' && out[1] <= 'Z') out.insert(0, "x");
  if (is_keyword(out)) out.push_back('_');
  return out;
}

/// `base`, or base_2, base_3, ... : the first not in `used`, which it joins.
std::string unique_name(std::string base, std::set<std::string>& used) {
  if (used.insert(base).second) return base;
  for (int i = 2;; ++i) {
    std::string n = base + "_" + std::to_string(i);
    if (used.insert(n).second) return n;
  }
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out + "\"";
}

const char* builtin_cpp(std::string_view local) {
  static const std::unordered_map<std::string_view, const char*> map = {
      {"string", "std::string"},
      {"boolean", "bool"},
      {"byte", "std::int8_t"},
      {"short", "std::int16_t"},
      {"int", "std::int32_t"},
      {"long", "std::int64_t"},
      {"unsignedByte", "std::uint8_t"},
      {"unsignedShort", "std::uint16_t"},
      {"unsignedInt", "std::uint32_t"},
      {"unsignedLong", "std::uint64_t"},
      {"float", "float"},
      {"double", "double"},
      {"decimal", "lather::xsd::decimal"},
      {"integer", "lather::xsd::integer"},
      {"nonNegativeInteger", "lather::xsd::non_negative_integer"},
      {"positiveInteger", "lather::xsd::positive_integer"},
      {"nonPositiveInteger", "lather::xsd::non_positive_integer"},
      {"negativeInteger", "lather::xsd::negative_integer"},
      {"dateTime", "lather::xsd::date_time"},
      {"date", "lather::xsd::date"},
      {"time", "lather::xsd::time"},
      {"duration", "lather::xsd::duration"},
      {"QName", "lather::xsd::qname"},
      {"hexBinary", "lather::xsd::hex_binary"},
      {"base64Binary", "lather::xsd::base64_binary"},
      {"normalizedString", "lather::xsd::normalized_string"},
      {"token", "lather::xsd::token"},
      {"anyURI", "lather::xsd::any_uri"},
  };
  auto it = map.find(local);
  // The other built-ins (language, NCName, ID, gYear, ...) keep their lexical form.
  return it == map.end() ? "std::string" : it->second;
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
    assign_names();
    for (struct_plan& s : structs_) plan_struct(s);
    order_structs();
    emit();
    return std::move(result_);
  }

 private:
  // ---------------------------------------------------------------- pass 1: reach
  void collect_roots() {
    std::set<std::string> done;
    for (const binding* b : m_.bindings()) {
      for (const binding_operation& bo : b->operations) {
        std::string key = b->port_type->name.local + "." + bo.name;
        std::string why;
        if (b->version == soap_version::none) continue;
        if (bo.style != binding_style::document)
          why = "rpc style";
        else if ((bo.input.body && bo.input.body->use == body_use::encoded) ||
                 (bo.output.body && bo.output.body->use == body_use::encoded))
          why = "encoded use";
        for (const message* msg : {bo.op->input, bo.op->output})
          if (msg && why.empty())
            for (const part& p : msg->parts)
              if (!p.element) why = "a document-style part with type= (part " + p.name + ")";
        if (!why.empty()) {
          if (done.insert(key).second)
            result_.skipped.push_back(key + ": " + why + " is not generated yet");
          continue;
        }
        if (!done.insert(key).second) continue;
        ports_[b->port_type].push_back(&bo);
        std::vector<const message*> msgs{bo.op->input, bo.op->output};
        for (const fault& f : bo.op->faults) msgs.push_back(f.msg);
        for (const binding_message* bm : {&bo.input, &bo.output})
          for (const soap_header& h : bm->headers) msgs.push_back(h.msg);
        for (const message* msg : msgs)
          if (msg)
            for (const part& p : msg->parts)
              if (p.element) reach_element(*p.element);
      }
    }
  }

  void reach_element(const element_decl& e) {
    if (!e.substitutes.empty())
      throw error(e.where,
                  "element " + e.name.str() + " heads a substitutionGroup: not generated yet");
    reach(e.type);
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
        if (s.t->anonymous() != (anonymous == 1)) continue;
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

  // ---------------------------------------------------------------- pass 3: plan
  std::string qualified(const std::string& name) const {
    return "::" + o_.cpp_namespace + "::" + name;
  }

  /// The C++ type of a value of `t`; notes generated types it names in `s`.
  std::string value_type(const type* t, struct_plan& s, bool by_value, const source_location& at) {
    if (t->kind == type_kind::complex) {
      const auto* c = static_cast<const complex_type*>(t);
      if (c->builtin) return "lather::bind::any_type";
      if (c->abstract)
        throw error(
            at, "abstract type " + c->name.str() + " (xsi:type polymorphism) is not generated yet");
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

  void plan_element(const particle& p, const element_decl& e, bool optional_ctx, struct_plan& s,
                    std::set<std::string>& used) {
    if (e.abstract)
      throw error(p.where, "abstract element " + e.name.str() + " is not generated yet");
    std::uint32_t min = optional_ctx ? 0 : p.min, max = p.max;
    field_plan f;
    f.xml_name = e.name.local;
    f.source = e.name;
    f.member = member_name(e.name.local, s, used);
    std::string v = value_type(e.type, s, max <= 1, e.where);
    const std::optional<std::string>& dflt = e.default_value ? e.default_value : e.fixed_value;
    f.modifiers = ns_modifier(e.name.ns, s.ns, false);
    if (max > 1) {
      f.cpp_type = "std::vector<" + (e.nillable ? "lather::nillable<" + v + ">" : v) + ">";
      if (min != 0) f.modifiers += ".min(" + std::to_string(min) + ")";
      if (max != unbounded) f.modifiers += ".max(" + std::to_string(max) + ")";
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
    }
    s.fields.push_back(std::move(f));
  }

  void plan_choice(const particle& p, bool optional_ctx, struct_plan& s,
                   std::set<std::string>& used) {
    std::vector<const element_decl*> alts;
    for (const particle& a : p.group->particles) {
      if (a.what != particle::kind::element || a.min != 1 || a.max != 1 || a.element->nillable)
        throw error(a.where,
                    "xs:choice alternative other than a single, required, non-nillable "
                    "element is not generated yet");
      if (!a.element->substitutes.empty())
        throw error(a.where, "substitutionGroup head " + a.element->name.str() +
                                 " in xs:choice is not generated yet");
      if (a.element->name.ns != s.ns)
        throw error(a.where, "xs:choice alternative " + a.element->name.str() +
                                 " outside the type's namespace is not generated yet");
      alts.push_back(a.element);
    }
    if (alts.size() == 1) {
      particle single = p.group->particles[0];
      single.min = p.min;
      single.max = p.max;
      return plan_element(single, *alts[0], optional_ctx, s, used);
    }
    field_plan f;
    f.what = field_plan::kind::choice;
    std::string member;
    std::vector<std::string> types;
    for (const element_decl* e : alts) {
      std::string v = value_type(e->type, s, p.max <= 1, e->where);
      for (const std::string& seen : types)
        if (seen == v)
          throw error(p.where, "xs:choice with two alternatives of the C++ type " + v + " (" +
                                   e->name.str() +
                                   "): not generated yet (the binding tells "
                                   "alternatives apart by type)");
      types.push_back(v);
      f.alternatives.push_back(e->name.local);
      member += (member.empty() ? "" : "Or") + e->name.local;
    }
    std::string variant = "std::variant<";
    for (std::size_t i = 0; i < types.size(); ++i) variant += (i ? ", " : "") + types[i];
    variant += ">";
    bool optional = optional_ctx || p.min == 0;
    if (p.max > 1) {
      f.cpp_type = "std::vector<" + variant + ">";
      if (p.min > 1 && !optional_ctx) f.modifiers += ".min(" + std::to_string(p.min) + ")";
      if (p.max != unbounded) f.modifiers += ".max(" + std::to_string(p.max) + ")";
    } else {
      f.cpp_type = optional ? "std::optional<" + variant + ">" : variant;
    }
    f.member = member_name(member.size() > 60 ? alts[0]->name.local + "Choice" : member, s, used);
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
        s.fields.push_back(std::move(f));
        return;
      }
      case particle::kind::group:
        break;
    }
    const model_group& g = *p.group;
    if (g.kind == compositor::all)
      throw error(g.where, "xs:all is not generated yet (the binding reads schema order only)");
    if (g.kind == compositor::choice) return plan_choice(p, optional_ctx, s, used);
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

  void plan_struct(struct_plan& s) {
    if (s.planned) return;
    s.planned = true;
    const complex_type& t = *s.t;
    if (t.content_kind == complex_type::content::mixed)
      throw error(t.where, "mixed content (" +
                               (t.anonymous() ? "type of " + t.context.str() : t.name.str()) +
                               ") is not generated yet");
    std::set<std::string> used;
    bool extends = t.derived == complex_type::derivation::extension &&
                   t.base->kind == type_kind::complex && !t.base->builtin;
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
      if (a.use == attribute_use::use::required) {
        f.cpp_type = v;
        f.modifiers += ".required()";
      } else if (dflt) {
        f.cpp_type = v;
        f.modifiers += ".default_value(" + quote(*dflt) + ")";
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

  std::string file_of(const type* t) const {
    if (t->kind == type_kind::complex)
      return structs_[struct_index_.at(static_cast<const complex_type*>(t))].file;
    return enums_[enum_index_.at(static_cast<const simple_type*>(t))].file;
  }

  void emit() {
    std::map<std::string, std::set<std::string>> includes;  // file -> files it includes
    for (const struct_plan& s : structs_)
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
    for (const struct_plan& s : structs_) forwards[s.file] += "struct " + s.name + ";\n";
    for (std::size_t i : order_) {
      const struct_plan& s = structs_[i];
      std::string& b = bodies[s.file];
      b += "struct " + s.name;
      if (s.base) b += " : " + qualified(structs_[struct_index_.at(s.base)].name);
      b += " {\n";
      for (const field_plan& f : s.fields) b += "  " + f.cpp_type + " " + f.member + "{};\n";
      if (!s.boxed)  // a defaulted == would compare the boxes' addresses
        b += "  friend bool operator==(const " + s.name + "&, const " + s.name + "&) = default;\n";
      b += "};\n\n";
      std::string& mt = metas[s.file];
      mt += meta_head(s.name, "T", s.xml_name, s.ns, s.anonymous);
      if (s.base)
        mt += "  using base = " + qualified(structs_[struct_index_.at(s.base)].name) + ";\n";
      mt += "  static constexpr auto fields = std::tuple{";
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
      mt += "};\n};\n\n";
    }
    std::set<std::string> all_files;
    for (const auto& [ns, file] : files_) all_files.insert(file);
    for (const std::string& file : all_files) {
      std::string text = "// Generated by lather-wsdl2cpp: do not edit.\n#pragma once\n\n";
      text +=
          "#include <cstdint>\n#include <memory>\n#include <optional>\n#include <string>\n"
          "#include <string_view>\n"
          "#include <tuple>\n#include <variant>\n#include <vector>\n\n"
          "#include \"lather/bind/meta.hpp\"\n#include \"lather/bind/xsd.hpp\"\n";
      for (const std::string& inc : includes[file]) text += "#include \"" + inc + "\"\n";
      text += "\nnamespace " + o_.cpp_namespace + " {\n\n" + forwards[file];
      if (!forwards[file].empty()) text += "\n";
      text += bodies[file] + "}  // namespace " + o_.cpp_namespace + "\n\n" + metas[file];
      while (text.size() > 1 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n')
        text.pop_back();
      result_.files.push_back({file, std::move(text)});
    }
    emit_port_types();
    std::string names = "# XSD name -> C++ name, written by lather-wsdl2cpp\n";
    for (const std::string& n : names_) names += n + "\n";
    for (const std::string& sk : result_.skipped) names += "skipped " + sk + "\n";
    result_.files.push_back({"names.txt", std::move(names)});
    std::string target = identifier(o_.cpp_namespace);
    std::string cmake =
        "# Generated by lather-wsdl2cpp: the generated types as a header-only library.\n"
        "cmake_minimum_required(VERSION 3.25)\n"
        "project(" +
        target +
        "_contract LANGUAGES CXX)\n"
        "find_package(lather REQUIRED)\n"
        "add_library(" +
        target +
        " INTERFACE)\n"
        "target_include_directories(" +
        target +
        " INTERFACE ${CMAKE_CURRENT_SOURCE_DIR})\n"
        "target_link_libraries(" +
        target +
        " INTERFACE lather::lather)\n"
        "target_compile_features(" +
        target + " INTERFACE cxx_std_20)\n";
    result_.files.push_back({"CMakeLists.txt", std::move(cmake)});
  }

  /// The one body part of a binding message, when the proxies can carry it: a single element
  /// part of a generated struct type, no SOAP headers. Else "" and `why`.
  const element_decl* body_element(const message* msg, const binding_message& bm,
                                   std::string& why) const {
    if (!msg) {
      why = "one-way or notification operations";
      return nullptr;
    }
    if (!bm.headers.empty()) {
      why = "SOAP headers";
      return nullptr;
    }
    std::vector<const part*> body;
    for (const part& p : msg->parts)
      if (!bm.body || !bm.body->parts ||
          std::find(bm.body->parts->begin(), bm.body->parts->end(), p.name) !=
              bm.body->parts->end())
        body.push_back(&p);
    if (body.size() != 1) {
      why = std::to_string(body.size()) + " body parts";
      return nullptr;
    }
    const element_decl* e = body[0]->element;
    if (e->type->kind != type_kind::complex || e->type->builtin) {
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
      std::string client, server, mount;
      for (const binding_operation* bo : it->second) {
        std::string why;
        const element_decl* in = body_element(bo->op->input, bo->input, why);
        const element_decl* out = in ? body_element(bo->op->output, bo->output, why) : nullptr;
        if (!in || !out) {
          names_.push_back("proxy " + pt->name.local + "." + bo->name + ": not generated (" + why +
                           " not supported yet)");
          continue;
        }
        const struct_plan& req =
            structs_[struct_index_.at(static_cast<const complex_type*>(in->type))];
        const struct_plan& res =
            structs_[struct_index_.at(static_cast<const complex_type*>(out->type))];
        includes.insert(req.file);
        includes.insert(res.file);
        std::string method = unique_name(identifier(bo->name), methods);
        std::string Req = qualified(req.name), Res = qualified(res.name);
        std::string settings = "    o.soap_action = " + quote(bo->soap_action) + ";\n" +
                               "    o.request_element = " + quote(in->name.local) + ";\n" +
                               "    o.response_element = " + quote(out->name.local) + ";\n" +
                               "    o.element_ns = " + quote(in->name.ns) + ";\n";
        client += "  /// " + bo->name + ": " + in->name.str() + " -> " + out->name.str() + "\n";
        client += "  " + Res + " " + method + "(const " + Req +
                  "& request, lather::call_options o = {}) {\n" + "    " + Res +
                  " response;\n    " + method + "(request, response, std::move(o));\n" +
                  "    return response;\n  }\n";
        client += "  void " + method + "(const " + Req + "& request, " + Res +
                  "& response, lather::call_options o = {}) {\n" + settings + "    client_->call(" +
                  quote(bo->name) + ", request, response, o);\n  }\n";
        server += "  virtual void " + method + "(const " + Req + "& request, " + Res +
                  "& response) = 0;\n";
        mount += "  {\n    lather::operation_options o;\n" + settings +
                 "    s.operation(\n        " + quote(bo->name) + ",\n        [this](" + Req +
                 "& request, " + Res + "& response) { " + method +
                 "(request, response); },\n        std::move(o));\n  }\n";
      }
      if (client.empty()) continue;
      std::string text =
          "// Generated by lather-wsdl2cpp: do not edit.\n#pragma once\n\n#include <utility>\n\n";
      text += "#include \"lather/service/client.hpp\"\n#include \"lather/service/service.hpp\"\n";
      for (const std::string& inc : includes) text += "#include \"" + inc + "\"\n";
      text += "\nnamespace " + o_.cpp_namespace + " {\n\n";
      text += "/// Client of portType " + pt->name.str() + ": one method per operation.\n";
      text += "class " + cls + "Client {\n public:\n  explicit " + cls +
              "Client(lather::client& c) : client_(&c) {}\n\n" + client +
              "\n private:\n  lather::client* client_;\n};\n\n";
      text += "/// Server side of portType " + pt->name.str() +
              ": implement the operations, then mount_on() a lather::service.\n";
      text += "class " + cls + "Service {\n public:\n  virtual ~" + cls + "Service() = default;\n" +
              server + "\n  /// Register every operation on `s`; this object must outlive it.\n" +
              "  void mount_on(lather::service& s) {\n" + mount + "  }\n};\n\n";
      text += "}  // namespace " + o_.cpp_namespace + "\n";
      names_.push_back("portType " + pt->name.str() + " -> " + o_.cpp_namespace + "::" + cls +
                       "Client, " + cls + "Service (" + file + ")");
      result_.files.push_back({file, std::move(text)});
    }
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
  std::set<std::string> type_names_, file_stems_;
  std::map<std::string, std::string> files_;  ///< XSD namespace -> header
  std::vector<std::string> names_;
};

}  // namespace

generate_result generate_cpp(const model& m, const generate_options& options) {
  return generator(m, options).run();
}

}  // namespace lather::wsdl
