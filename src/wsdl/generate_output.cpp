// lather-wsdl2cpp, emit: one header per XSD namespace, the port type headers, code_<k>.cpp (the
// structs' binding and the operations), the mock server and the CMakeLists.txt of the output.
#include <algorithm>
#include <functional>

#include "generate_names.hpp"
#include "generate_security.hpp"
#include "generator.hpp"

namespace lather::wsdl::detail {
namespace {

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

/// The name of the file's constant of facets `p` (one per distinct set: `names`, by their
/// text), its definition and those of the constants it names added to `definitions` first.
/// `member`: static members of a meta<T> in a header (an rpc/encoded struct's), not constants
/// of a code file.
std::string facet_constant(const facet_plan& p, std::map<std::string, std::string>& names,
                           std::string& definitions, bool member = false) {
  const std::string constant = member ? "  static constexpr " : "constexpr ",
                    initialized = member ? "  static constinit inline " : "constinit ";
  // A list's items' facets: a constant of their own, defined first.
  const std::string items = p.items ? facet_constant(*p.items, names, definitions, member) : "";
  auto array = [](const std::vector<std::string>& items) {
    std::string a;
    for (const std::string& x : items) a += (a.empty() ? "" : ", ") + quote(x);
    return a;
  };
  // A union's member types' facets: constants of their own, then an array of them.
  std::string members;
  for (const auto& m : p.members)
    members += (members.empty() ? "&" : ", &") + facet_constant(*m, names, definitions, member);
  std::string key = p.fields + "\n" + array(p.enumeration) + "\n" + array(p.patterns) + "\n" +
                    (p.default_value ? quote(*p.default_value) : "") + "\n" + items +
                    (members.empty() ? "" : "\n" + members) +
                    (p.built_in.empty() ? "" : "\n" + p.built_in);
  auto [it, added] = names.emplace(std::move(key), "facets_" + std::to_string(names.size() + 1));
  if (!added) return it->second;
  const std::string& name = it->second;
  std::string init = p.fields;
  auto field = [&](const std::string& x) { init += (init.empty() ? "" : ", ") + x; };
  if (!p.enumeration.empty()) {
    definitions +=
        constant + "std::string_view " + name + "_values[] = {" + array(p.enumeration) + "};\n";
    field(".enumeration = " + name + "_values");
  }
  if (!p.patterns.empty()) {
    definitions += initialized + "lather::bind::pattern " + name + "_patterns[] = {" +
                   array(p.patterns) + "};\n";
    field(".patterns = " + name + "_patterns");
  }
  if (p.default_value) field(".default_value = " + quote(*p.default_value));
  if (!items.empty()) field(".items = &" + items);
  if (!members.empty()) {
    definitions +=
        constant + "const lather::bind::facets* " + name + "_members[] = {" + members + "};\n";
    field(".members = " + name + "_members");
  }
  if (!p.built_in.empty()) field(".built_in = " + quote(p.built_in));
  definitions += constant + "lather::bind::facets " + name + "{" + init + "};\n";
  return name;
}

}  // namespace

void generator::check_namespace() {
  std::string_view ns = o_.cpp_namespace;
  std::size_t start = 0;
  while (true) {
    std::size_t end = ns.find("::", start);
    std::string_view part = ns.substr(start, end == std::string_view::npos ? ns.npos : end - start);
    if (part.empty() || identifier(part) != part)
      throw error({}, "--namespace \"" + o_.cpp_namespace + "\" is not a C++ namespace name");
    if (end == std::string_view::npos) break;
    start = end + 2;
  }
}

/// The opening of meta<C++ name>: alias, XSD name and namespace.
std::string generator::meta_head(const std::string& name, const char* alias,
                                 const std::string& xml_name, const std::string& ns,
                                 bool anonymous) const {
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
bool generator::later_in_file(const struct_plan& s, const field_plan& f,
                              const std::set<const complex_type*>& defined) const {
  for (std::size_t k = f.deps_from; k < f.deps_to; ++k) {
    if (s.deps[k]->kind != type_kind::complex) continue;
    const auto* c = static_cast<const complex_type*>(s.deps[k]);
    if (c != s.t && structs_[struct_index_.at(c)].file == s.file && !defined.count(c)) return true;
  }
  return false;
}

std::string generator::file_of(const type* t) const {
  if (t->kind == type_kind::complex)
    return structs_[struct_index_.at(static_cast<const complex_type*>(t))].file;
  return enums_[enum_index_.at(static_cast<const simple_type*>(t))].file;
}

void generator::emit() {
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
  // Each enumeration's and struct's definition and meta<T>, then the headers made of them.
  std::vector<std::string> enum_bodies(enums_.size()), enum_metas(enums_.size());
  std::vector<std::string> struct_bodies(structs_.size()), struct_metas(structs_.size());
  std::vector<std::string> struct_late(structs_.size());  // after the header's structs
  std::map<std::string, std::string> forwards;
  for (std::size_t ei = 0; ei < enums_.size(); ++ei) {
    const enum_plan& e = enums_[ei];
    std::string& b = enum_bodies[ei];
    b += "enum class " + e.name + " {";
    for (std::size_t i = 0; i < e.values.size(); ++i) b += (i ? ", " : " ") + e.values[i].first;
    b += " };\n\n";
    std::string& mt = enum_metas[ei];
    mt += meta_head(e.name, "E", e.xml_name, e.ns, e.t->anonymous());
    mt += "  static constexpr auto values = enum_values<E>({";
    for (std::size_t i = 0; i < e.values.size(); ++i)
      mt += std::string(i ? ", " : "") + "{E::" + e.values[i].first + ", " +
            quote(e.values[i].second) + "}";
    mt += "});\n};\nLATHER_BIND_ENUM(" + qualified(e.name) + ");\n\n";
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
  // Which structs get a defaulted operator==: none with a box (it would compare the boxes'
  // addresses), nor one whose base or members name a struct without one (its default would
  // be deleted, which clang warns about).
  std::vector<bool> comparable(structs_.size());
  for (std::size_t i = 0; i < structs_.size(); ++i) comparable[i] = !structs_[i].boxed;
  auto lacks = [&](const type* d) {
    if (!d || d->kind != type_kind::complex) return false;
    const auto it = struct_index_.find(static_cast<const complex_type*>(d));
    return it != struct_index_.end() && !comparable[it->second];
  };
  // A polymorphic<B> compares its objects as their type: every type of B's hierarchy.
  std::function<bool(const complex_type*)> hierarchy_lacks = [&](const complex_type* b) {
    if (lacks(b)) return true;
    const auto it = struct_index_.find(b);
    return it != struct_index_.end() &&
           std::any_of(structs_[it->second].derived.begin(), structs_[it->second].derived.end(),
                       hierarchy_lacks);
  };
  auto holder_lacks = [&](const field_plan& f) {
    return std::any_of(f.holders.begin(), f.holders.end(), hierarchy_lacks);
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < structs_.size(); ++i)
      if (comparable[i] &&
          (lacks(structs_[i].base) ||
           std::any_of(structs_[i].deps.begin(), structs_[i].deps.end(), lacks) ||
           std::any_of(structs_[i].fields.begin(), structs_[i].fields.end(), holder_lacks)))
        comparable[i] = false, changed = true;
  }
  std::set<const complex_type*> defined;
  // What each struct needs complete before it is usable by value: an alternative of its
  // repeated choice (a vector of variants) that is itself or a struct of its header defined
  // after it, the item type of a vector defined after it, or what a struct it names needs.
  // clang instantiates such a variant or vector in an in-class defaulted operator==, an
  // implicit virtual destructor and a member's `{}`, so a struct that needs any declares its
  // operator== and destructor, defined after the header's structs, and the members that
  // need any get no `{}`.
  std::map<const complex_type*, std::set<const complex_type*>> needs;
  auto add_needs = [&](const struct_plan& s, const type* d, bool choice,
                       std::set<const complex_type*>& out) {
    if (!d || d->kind != type_kind::complex) return;
    const auto* c = static_cast<const complex_type*>(d);
    auto open = [&](const complex_type* n) {
      return n == s.t || (structs_[struct_index_.at(n)].file == s.file && !defined.count(n));
    };
    if ((choice || c != s.t) && open(c)) out.insert(c);
    // What c needs, and what those needed that are complete by now need in turn: a member of
    // c's type destroys a struct defined since c, whose vectors may still hold open types.
    std::set<const complex_type*> seen;
    std::function<void(const complex_type*)> follow = [&](const complex_type* t) {
      if (!seen.insert(t).second) return;
      if (const auto it = needs.find(t); it != needs.end())
        for (const complex_type* n : it->second) {
          if (open(n))
            out.insert(n);
          else
            follow(n);
        }
    };
    follow(c);
  };
  for (std::size_t i : order_) {
    const struct_plan& s = structs_[i];
    if (!s.refused.empty()) continue;
    std::string& b = struct_bodies[i];
    b += "struct " + s.name;
    if (s.base) b += " : " + qualified(structs_[struct_index_.at(s.base)].name);
    std::set<const complex_type*>& need = needs[s.t];
    add_needs(s, s.base, false, need);
    std::vector<bool> bare(s.fields.size());  // no `{}`
    for (std::size_t k = 0; k < s.fields.size(); ++k) {
      const field_plan& f = s.fields[k];
      std::set<const complex_type*> field_needs;
      const bool pointer =
          f.concrete || f.holder || (!f.boxed_type.empty() && f.cpp_type == f.boxed_type);
      for (std::size_t d = f.deps_from; d < f.deps_to && !pointer; ++d)
        if (std::find(f.holders.begin(), f.holders.end(), s.deps[d]) == f.holders.end())
          add_needs(s, s.deps[d], f.what == field_plan::kind::choice, field_needs);
      bare[k] = !field_needs.empty() || later_in_file(s, f, defined);
      need.insert(field_needs.begin(), field_needs.end());
    }
    const bool late = !need.empty();
    const std::string equal = "bool operator==(const " + s.name + "&, const " + s.name + "&)";
    if (late && comparable[i]) b = "inline " + equal + ";\n\n" + b;
    // A virtual destructor: of its own or of its base's.
    const bool is_dynamic = dynamic(s);
    std::string special;
    // xsi:type through a std::shared_ptr: the dynamic type of a Base& must be known (a
    // polymorphic<B> knows its object's type itself). A destructor declared here, to be
    // defined later, takes the copies and moves away unless they are declared too.
    const bool root = virtual_roots_.count(s.t) != 0;
    if (root || (!s.derived.empty() && is_dynamic) || (late && is_dynamic))
      special = "  " + s.name + "() = default;\n  " + s.name + "(const " + s.name +
                "&) = default;\n  " + s.name + "(" + s.name + "&&) = default;\n  " + s.name +
                "& operator=(const " + s.name + "&) = default;\n  " + s.name + "& operator=(" +
                s.name + "&&) = default;\n  " +
                (!late                        ? "virtual ~" + s.name + "() = default;\n"
                 : !root && s.derived.empty() ? "~" + s.name + "() override;\n"
                                              : "virtual ~" + s.name + "();\n");
    if (late && is_dynamic)
      struct_late[i] += "inline " + s.name + "::~" + s.name + "() = default;\n";
    b += " {\n" + special;
    for (std::size_t k = 0; k < s.fields.size(); ++k)
      b += "  " + s.fields[k].cpp_type + " " + s.fields[k].member +
           (bare[k]                           ? ";\n"
            : s.fields[k].initializer.empty() ? "{};\n"
                                              : " = " + s.fields[k].initializer + ";\n");
    defined.insert(s.t);
    if (comparable[i] && !late) b += "  friend " + equal + " = default;\n";
    if (comparable[i] && late) {  // as the defaulted one: the base, then each member
      std::string terms;
      if (s.base) {
        const std::string base = qualified(structs_[struct_index_.at(s.base)].name);
        terms = "static_cast<const " + base + "&>(a) == static_cast<const " + base + "&>(b)";
      }
      for (const field_plan& f : s.fields)
        terms += (terms.empty() ? "" : " && ") + ("a." + f.member + " == b." + f.member);
      struct_late[i] += "inline bool operator==(const " + s.name + "& a, const " + s.name +
                        "& b) {\n  return " + terms + ";\n}\n";
    }
    if (!struct_late[i].empty()) struct_late[i] += "\n";
    b += "};\n\n";
    std::string& mt = struct_metas[i];
    mt += meta_head(s.name, "T", s.xml_name, s.ns, s.anonymous);
    if (s.encoded) mt += "  static constexpr auto encoding = lather::bind::encoding::soap;\n";
    if (literal(s)) mt += "  static constexpr bool schema_only = true;\n";
    if (s.t && s.t->abstract) mt += "  static constexpr bool abstract = true;\n";
    if (s.group) mt += "  static constexpr bool group = true;\n";
    if (s.base)
      mt += "  using base = " + qualified(structs_[struct_index_.at(s.base)].name) + ";\n";
    if (!s.derived.empty()) {
      mt += "  using derived = lather::types<";
      for (std::size_t k = 0; k < s.derived.size(); ++k)
        mt += (k ? ", " : "") + qualified(structs_[struct_index_.at(s.derived[k])].name);
      mt += ">;\n";
    }
    if (table_only(s)) {  // its fields are in its table, in a code_<k>.cpp
      mt += "};\nLATHER_BIND_TABLE(" + qualified(s.name) + ");\n\n";
      continue;
    }
    // Its fields' facets: static members, as the meta<T> is in a header.
    std::map<std::string, std::string> facets;
    std::vector<std::string> facets_names(s.fields.size());
    for (std::size_t k = 0; k < s.fields.size(); ++k)
      if (!s.fields[k].facets.empty())
        facets_names[k] = facet_constant(s.fields[k].facets, facets, mt, true);
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
        case field_plan::kind::unknown:
          mt += "unknown(&T::" + f.member + ")";
          break;
        case field_plan::kind::any_attribute:
          mt += "any_attribute(&T::" + f.member + ")";
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
      if (!f.facets.empty()) mt += ".facets(" + facets_names[&f - s.fields.data()] + ")";
    }
    mt += ");\n};\n";
    if (literal(s)) mt += "LATHER_BIND_TABLE(" + qualified(s.name) + ");\n";
    mt += "\n";
  }
  std::set<std::string> all_files;
  for (const auto& [ns, file] : files_) all_files.insert(file);
  describe_header_ = unique_name("describe", file_stems_) + ".hpp";
  emit_port_types();
  for (std::size_t i : order_)
    if (structs_[i].refused.empty()) emitted_.push_back(i);
  assign_units();
  // Header `name`, `file` or a part of it: `items` (struct indexes, then enum indexes after
  // them) of `file`, with the declarations of all its structs, including `incs`.
  auto header = [&](const std::string& name, const std::string& file, const std::string& comment,
                    const std::vector<std::size_t>& items, const std::set<std::string>& incs) {
    std::string body, meta, late;
    for (std::size_t id : items)
      if (id >= structs_.size()) {
        body += enum_bodies[id - structs_.size()];
        meta += enum_metas[id - structs_.size()];
      }
    bool messages = false;
    for (std::size_t id : items)
      if (id < structs_.size()) {
        body += struct_bodies[id];
        late += struct_late[id];
        meta += struct_metas[id];
        // An operation's message: its table is defined in a code_<k>.cpp
        // (LATHER_MESSAGE_TYPE_DEFINE), declared wherever the type is.
        if (message_structs_.count(id)) {
          meta.pop_back();
          meta += "LATHER_MESSAGE_TYPE_DECLARE(" + qualified(structs_[id].name) + ");\n\n";
          messages = true;
        }
      }
    // The hierarchies of the holder bases defined here are compiled in the file that binds
    // them: declared before any struct can hold one.
    std::string externs;
    for (std::size_t id : items)
      if (id < structs_.size() && holder_home_.count(structs_[id].t))
        externs += "LATHER_BIND_POLYMORPHIC_EXTERN(" + qualified(structs_[id].name) + ");\n";
    std::string text =
        "// Generated by lather-wsdl2cpp: do not edit.\n" + comment + "#pragma once\n\n";
    text +=
        "#include <cstdint>\n" +
        std::string(body.find("std::numeric_limits<") != std::string::npos ? "#include <limits>\n"
                                                                           : "") +
        "#include <memory>\n#include <optional>\n#include <string>\n"
        "#include <string_view>\n"
        "#include <tuple>\n#include <variant>\n#include <vector>\n\n"
        "#include \"lather/bind/extern.hpp\"\n#include \"lather/bind/meta.hpp\"\n";
    if (!externs.empty() || body.find("lather::polymorphic<") != std::string::npos)
      text += "#include \"lather/bind/polymorphic.hpp\"\n";
    text += "#include \"lather/bind/xsd.hpp\"\n";
    if (messages) text += "#include \"lather/service/message_type.hpp\"\n";
    if (body.find("lather::soap::multi_array<") != std::string::npos)
      text += "#include \"lather/soap/encoded.hpp\"\n";
    for (const std::string& inc : incs) text += "#include \"" + inc + "\"\n";
    text += "\nnamespace " + o_.cpp_namespace + " {\n\n" + forwards[file];
    if (!forwards[file].empty()) text += "\n";
    if (!externs.empty())
      text += "}  // namespace " + o_.cpp_namespace + "\n\n" + externs + "\nnamespace " +
              o_.cpp_namespace + " {\n\n";
    text += body + late + "}  // namespace " + o_.cpp_namespace + "\n\n" + meta;
    while (text.size() > 1 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n')
      text.pop_back();
    result_.files.push_back({name, std::move(text)});
  };
  if (units_ == 1) {
    for (const std::string& file : all_files) {
      std::vector<std::size_t> items;
      for (std::size_t e = 0; e < enums_.size(); ++e)
        if (enums_[e].file == file) items.push_back(structs_.size() + e);
      for (std::size_t i : emitted_)
        if (structs_[i].file == file) items.push_back(i);
      header(file, file, "", items, includes[file]);
    }
  } else {
    // Each part: its types, including the parts of the types they name; a header in parts
    // includes them all.
    const std::vector<std::array<std::string, 3>> parts = plan_parts();
    std::map<std::string, std::vector<std::size_t>> items;
    for (std::size_t e = 0; e < enums_.size(); ++e)
      items[part_of_[structs_.size() + e]].push_back(structs_.size() + e);
    for (std::size_t i : emitted_) items[part_of_[i]].push_back(i);
    std::map<std::string, std::vector<std::string>> parts_of;
    for (const auto& [file, part, units] : parts) {
      std::set<std::string> incs;
      for (std::size_t id : items[part]) {
        if (id >= structs_.size()) continue;
        const struct_plan& s = structs_[id];
        for (const type* d : s.deps)
          if (const std::string& p = part_of_type(d); !p.empty() && p != part) incs.insert(p);
        if (s.base)
          if (const std::string& p = part_of_type(s.base); p != part) incs.insert(p);
      }
      std::string users;
      for (std::size_t k = 0; k < units.size(); ++k)
        if (units[k] == '1')
          users +=
              (users.empty() ? "" : ", ") + std::string("code_") + std::to_string(k + 1) + ".cpp";
      header(part, file, part == file ? "" : "// Part of " + file + ", for " + users + ".\n",
             items[part], incs);
      if (part != file) parts_of[file].push_back(part);
    }
    for (const auto& [file, list] : parts_of) {
      std::string text =
          "// Generated by lather-wsdl2cpp: do not edit.\n// The types of one XML namespace, "
          "in parts: each code_<k>.cpp includes those it needs.\n#pragma once\n\n";
      for (const std::string& part : list) text += "#include \"" + part + "\"\n";
      result_.files.push_back({file, std::move(text)});
    }
  }
  emit_operations();
  emit_sources(all_files);
  if (std::string security = detail::security_header(o_, m_); !security.empty())
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
std::size_t generator::source_count(std::size_t items, std::size_t per_source) const {
  if (o_.sources) return o_.sources;
  return std::max<std::size_t>(1, (items + per_source - 1) / per_source);
}

/// code_<k>.cpp, the translation units of the library, each parsing the headers once for a
/// share of the operations (emit_port_types) and a share of the structs: the table of each
/// literal struct (its binding and its description for a service's WSDL:
/// LATHER_BIND_TABLE_DEFINE), the description and codec of the enumerations
/// (LATHER_BIND_ENUM_DEFINE, in code_1.cpp) and, for a message of an operation, its table for
/// the proxies and services (LATHER_MESSAGE_TYPE_DEFINE), all declared in the headers and
/// compiled once for the whole program; the structs in dependency order, split evenly. With
/// --mock, mock_<k>.cpp: the sample() of the structs.
void generator::emit_sources(const std::set<std::string>& type_headers) {
  std::string describe =
      "// Generated by lather-wsdl2cpp: do not edit.\n// How a service describes the generated "
      "types in its WSDL and the tables of the operations' messages, instantiated once in "
      "code_<k>.cpp.\n#pragma once\n\n"
      "#include \"lather/service/message_type.hpp\"\n#include \"lather/service/wsdl.hpp\"\n";
  if (units_ == 1) {
    for (const std::string& h : type_headers) describe += "#include \"" + h + "\"\n";
  } else {  // what the declarations name, without the types' parts
    describe += "\nnamespace " + o_.cpp_namespace + " {\n";
    for (std::size_t i : emitted_)
      if (message_structs_.count(i)) describe += "struct " + structs_[i].name + ";\n";
    describe += "}  // namespace " + o_.cpp_namespace + "\n";
  }
  describe += "\n";
  std::string enums;
  for (const enum_plan& e : enums_)
    enums += "LATHER_BIND_ENUM_DEFINE(" + qualified(e.name) + ");\n";
  for (std::size_t i : emitted_)
    if (message_structs_.count(i))
      describe += "LATHER_MESSAGE_TYPE_DECLARE(" + qualified(structs_[i].name) + ");\n";
  result_.files.push_back({describe_header_, std::move(describe)});
  const std::size_t n = units_;
  const std::size_t samples = source_count(emitted_.size(), samples_per_source);
  for (std::size_t k = 0; k < samples; ++k)
    mock_.struct_sources.emplace_back(k * emitted_.size() / samples,
                                      (k + 1) * emitted_.size() / samples);
  // The member types naming generated types in each file's tables; those of several files get
  // the shared codec (table::element<M>: one COMDAT copy in the program), the rest the file's
  // own (internal linkage: no COMDAT group per function in the object, LATHER_BIND_TABLE_FILE).
  // Member types of built-in types only are the library's codecs either way.
  std::map<std::string, std::size_t> files_naming;
  for (std::size_t k = 0; k < n; ++k) {
    std::set<std::string> named;
    for (std::size_t i : unit_structs_[k])
      if (const struct_plan& s = structs_[i]; literal(s))
        for (const struct_plan* level : table_levels(s, table_extension(s)))
          for (const field_plan& f : level->fields)
            if (f.deps_to > f.deps_from) named.insert(f.cpp_type);
    for (const std::string& m : named) ++files_naming[m];
  }
  std::set<std::string> shared;
  for (const auto& [m, files] : files_naming)
    if (files > 1) shared.insert(m);
  for (std::size_t k = 0; k < n; ++k) {
    std::string body = k == 0 ? enums : "", tables, facet_constants, views, state, messages;
    std::map<std::string, std::string> facets;
    std::size_t table = 0, message = 0;
    for (std::size_t i : unit_structs_[k]) {
      const struct_plan& s = structs_[i];
      if (literal(s)) {
        const bool extension = table_extension(s);
        tables += bind_table(s, ++table, extension, shared, facets, facet_constants);
        const std::string id = "fields_" + std::to_string(table);
        views += "  LATHER_BIND_TABLE_VIEW(" + id + ", " + qualified(s.name) + ");\n";
        state += std::string(extension ? "  LATHER_BIND_TABLE_STATE_EXTENSION("
                                       : "  LATHER_BIND_TABLE_STATE(") +
                 id + ");\n";
        body += std::string(extension ? "LATHER_BIND_TABLE_DEFINE_VIEW_EXTENSION"
                                      : "LATHER_BIND_TABLE_DEFINE_VIEW") +
                "(" + id + ", " + qualified(s.name) + ")\n";
      }
      if (message_structs_.count(i)) {
        // No move constructor compiled for a type the code never moves.
        messages +=
            std::string(moved_structs_.count(i) ? "    LATHER_MESSAGE_TYPE_ENTRY("
                                                : "    LATHER_MESSAGE_TYPE_ENTRY_UNMOVED(") +
            qualified(s.name) + "),\n";
        body += "LATHER_MESSAGE_TYPE_DEFINE_AT(lather_messages[" + std::to_string(message++) +
                "], " + qualified(s.name) + ");\n";
      }
    }
    for (std::size_t i : emitted_)
      if (const auto it = holder_home_.find(structs_[i].t);
          it != holder_home_.end() && it->second == k)
        body += "LATHER_BIND_POLYMORPHIC_INSTANTIATE(" + qualified(structs_[i].name) + ");\n";
    // The types' parts first; after the operations, the tables: their using-directive
    // reaches the rest of the file.
    std::vector<detail::source_part> parts;
    if (units_ > 1) {
      parts.emplace_back();
      for (const std::string& part : unit_parts_[k])
        parts.back().includes.push_back("\"" + part + "\"");
    }
    parts.push_back(operation_parts_.at(k));
    if (!body.empty()) {
      if (!messages.empty())
        // The tables of the file's messages, in one array (lather/service/message_type.hpp).
        body =
            "namespace {\nLATHER_MESSAGE_TYPE_FILE();\nconstexpr ::lather::message_type "
            "lather_messages[] = {\n" +
            messages + "};\n}  // namespace\n\n" + body;
      if (!tables.empty())
        // offsetof on the structs of a hierarchy (not standard-layout): single, non-virtual
        // inheritance, which g++ and clang lay out as offsetof assumes.
        body =
            "#pragma GCC diagnostic ignored \"-Winvalid-offsetof\"\nnamespace {\n"
            "LATHER_BIND_TABLE_FILE();\n" +
            std::string(tables.find("lather_shared::") == std::string::npos
                            ? ""
                            : "// Member types the tables of other code files name too: their "
                              "codecs shared, one copy in the program.\nnamespace lather_shared "
                              "= ::lather::bind::table;\n") +
            facet_constants + tables +
            // The views and descriptions of the file's types, in one object each: no symbol
            // per type for them (lather/bind/table.hpp).
            "struct lather_views {\n" + views + "};\nstruct lather_state {\n" + state +
            "};\n}  // namespace\nLATHER_BIND_TABLE_FILE_VIEWS();\n\n" + body;
      parts.push_back({{"<cstddef>", "\"lather/bind/table.hpp\"", "\"lather/service/service.hpp\"",
                        "\"" + describe_header_ + "\""},
                       std::move(body)});
    }
    std::string file = "code_" + std::to_string(k + 1) + ".cpp";
    result_.files.push_back(
        {file, detail::translation_unit(
                   "// A share of the operations (client methods, service registration) and of "
                   "the structs' binding (tables, messages), compiled once for the program.",
                   parts)});
    library_sources_.push_back(file);
  }
}

void generator::assign_units() {
  const std::size_t n = units_, E = emitted_.size();
  unit_structs_.assign(n, {});
  // How many types each holder's base has under it: the readers and writers a file binding
  // such a member compiles.
  std::map<const complex_type*, std::size_t> weight;
  std::function<std::size_t(const complex_type*)> under = [&](const complex_type* b) {
    if (const auto it = weight.find(b); it != weight.end()) return it->second;
    std::size_t w = 0;
    for (const complex_type* d : structs_[struct_index_.at(b)].derived) w += under(d) + 1;
    return weight[b] = w;
  };
  std::map<const complex_type*, std::size_t>& home = holder_home_;  // holder base -> its file
  home.clear();
  for (std::size_t k = 0, at = 0; k < n; ++k)
    for (; at < (k + 1) * E / n; ++at) {
      const std::size_t i = emitted_[at];
      const struct_plan& s = structs_[i];
      std::vector<const complex_type*> bases;
      if (literal(s))
        for (const struct_plan* level : table_levels(s, table_extension(s)))
          for (const field_plan& f : level->fields)
            bases.insert(bases.end(), f.holders.begin(), f.holders.end());
      // The file of the heaviest hierarchy its members hold, if one has a file already.
      std::stable_sort(
          bases.begin(), bases.end(),
          [&](const complex_type* a, const complex_type* b) { return under(a) > under(b); });
      std::size_t unit = k;
      for (const complex_type* b : bases)
        if (const auto it = home.find(b); it != home.end()) {
          unit = it->second;
          break;
        }
      for (const complex_type* b : bases) home.emplace(b, unit);
      unit_structs_[unit].push_back(i);  // (so each file's structs stay in emitted_ order)
    }
}

/// Whether struct `s` extends a base that has fields and every base up is bound through a
/// table: its table then holds its own fields only (lather::bind::table::extension), the
/// base's not repeated.
bool generator::table_extension(const struct_plan& s) const {
  bool inherits = false;
  for (const complex_type* b = s.base; b; b = structs_[struct_index_.at(b)].base) {
    const struct_plan& level = structs_[struct_index_.at(b)];
    if (!literal(level)) return false;
    inherits = inherits || !level.fields.empty();
  }
  return inherits;
}

/// The structs whose fields make up the table of `s` (generator.hpp).
std::vector<const struct_plan*> generator::table_levels(const struct_plan& s,
                                                        bool extension) const {
  std::vector<const struct_plan*> levels{&s};
  if (!extension)
    while (levels.back()->base) levels.push_back(&structs_[struct_index_.at(levels.back()->base)]);
  std::reverse(levels.begin(), levels.end());
  return levels;
}

/// The table of struct `s` (lather/bind/table.hpp), `fields_<k>`: each field with the
/// namespace of the struct that declares it and the modifiers of its meta field. For an
/// `extension` its own fields, after how many its bases have; else its bases' fields first.
/// A member type in `shared` names the codec the code files share (lather_shared::element<M>),
/// any other the file's own (element<M>).
std::string generator::bind_table(const struct_plan& s, std::size_t k, bool extension,
                                  const std::set<std::string>& shared,
                                  std::map<std::string, std::string>& facets,
                                  std::string& definitions) const {
  // A field's facets: a constant of the file, one per distinct set.
  auto facets_name = [&](const facet_plan& p, auto&) {
    return facet_constant(p, facets, definitions);
  };
  const std::string t = qualified(s.name), id = std::to_string(k);
  std::string names, list;
  std::size_t choices = 0, base_fields = 0;
  if (extension)
    for (const complex_type* b = s.base; b; b = structs_[struct_index_.at(b)].base)
      base_fields += structs_[struct_index_.at(b)].fields.size();
  for (const struct_plan* level : table_levels(s, extension)) {
    const std::string ns = quote(level->ns);
    const char* inherited = level == &s ? "" : ".inherited()";
    for (const field_plan& f : level->fields) {
      const std::string at = "offsetof(" + t + ", " + f.member + ")";
      const std::string of = "<" + f.cpp_type + ">(" + ns;
      list += shared.count(f.cpp_type) ? ",\n    lather_shared::" : ",\n    ";
      switch (f.what) {
        case field_plan::kind::element:
          list += "element" + of + ", " + quote(f.xml_name) + ", " + at + ")";
          break;
        case field_plan::kind::attribute:
          list += "attribute" + of + ", " + quote(f.xml_name) + ", " + at + ")";
          break;
        case field_plan::kind::text:
          list += "text" + of + ", " + at + ")";
          break;
        case field_plan::kind::any:
          list += "any" + of + ", " + at + ")";
          break;
        case field_plan::kind::unknown:  // the library's routines: no codec of the file's
          list += "lather::bind::table::unknown(" + ns + ", " + at + ")";
          break;
        case field_plan::kind::any_attribute:  // the library's routines: no codec of the file's
          list += "lather::bind::table::any_attribute(" + ns + ", " + at + ")";
          break;
        case field_plan::kind::choice: {
          const std::string alts = "names_" + id + "_" + std::to_string(++choices);
          names += "constexpr auto " + alts + " = alternatives<" + f.cpp_type + ">({";
          for (std::size_t a = 0; a < f.alternatives.size(); ++a)
            names += (a ? ", " : "") + quote(f.alternatives[a]);
          names += "}";
          if (!f.alternative_facets.empty()) {  // each alternative's facets, as a field's
            names += ", {";
            for (std::size_t a = 0; a < f.alternative_facets.size(); ++a) {
              const facet_plan& x = f.alternative_facets[a];
              names += (a ? ", " : "") +
                       (x.empty() ? std::string("nullptr") : "&" + facets_name(x, facets_name));
            }
            names += "}";
          }
          names += ");\n";
          list += "choice" + of + ", " + at + ", " + alts + ")";
          break;
        }
      }
      list += f.modifiers + inherited;
      if (!f.facets.empty()) list += ".facets(" + facets_name(f.facets, facets_name) + ")";
    }
  }
  if (extension)
    return names + "constexpr auto fields_" + id + " = extension(" + quote(s.ns) + ", " +
           std::to_string(base_fields) + list + ");\n";
  return names + "constexpr auto fields_" + id + " = fields(" + quote(s.ns) + list + ");\n";
}

/// The body: parts= when given, else every part not bound to a header (header_plans()).
bool generator::in_body(const part& p, const binding_message& bm) {
  if (bm.body && bm.body->parts)
    return std::find(bm.body->parts->begin(), bm.body->parts->end(), p.name) !=
           bm.body->parts->end();
  return std::none_of(bm.headers.begin(), bm.headers.end(),
                      [&](const soap_header& h) { return h.part == &p; });
}

/// Whether no part of `msg` is in the body: an empty Body.
bool generator::no_body(const message& msg, const binding_message& bm) {
  return std::none_of(msg.parts.begin(), msg.parts.end(),
                      [&](const part& p) { return in_body(p, bm); });
}

/// The one body part of a binding message, when the proxies can carry it: a single element
/// part of a generated struct type, no SOAP headers. Else "" and `why`.
const element_decl* generator::body_element(const message* msg, const binding_message& bm,
                                            std::string& why) const {
  if (!msg) {
    why = "notification operations";
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
  const complex_type* t = body_type(*e);
  if (!t || t->builtin || t->array || is_mixed(t)) {
    why = "a body element of anyType, mixed content or a SOAP-ENC array (" + e->name.str() + ")";
    return nullptr;
  }
  return e;
}

std::vector<detail::header_plan> generator::header_plans(const std::string& key,
                                                         const binding_message& bm, bool response,
                                                         std::set<std::string>& includes) {
  std::vector<detail::header_plan> out;
  std::set<std::string> members;
  for (const soap_header& h : bm.headers) {
    const std::string which = response ? "response" : "request";
    if (!h.part) continue;
    const element_decl* e = h.part->element;
    const complex_type* t = e && h.use == body_use::literal ? body_type(*e) : nullptr;
    auto si = t ? struct_index_.find(t) : struct_index_.end();
    if (si == struct_index_.end() || !structs_[si->second].refused.empty() ||
        !literal(structs_[si->second])) {
      names_.push_back("  note: " + key + ": " + which + " header part " + h.part->name +
                       " is not typed (encoded, type= or not generated): call_options::headers "
                       "sends it");
      continue;
    }
    const struct_plan& s = structs_[si->second];
    message_structs_.insert(si->second);
    if (!response) moved_structs_.insert(si->second);
    includes.insert(s.file);
    out.push_back({unique_name(identifier(h.part->name), members),
                   qualified(s.name),
                   e->name.ns,
                   e->name.local,
                   h.required,
                   h.part->name,
                   {}});
    for (const soap_header_fault& hf : h.faults) {
      const element_decl* fe = hf.part && hf.use == body_use::literal ? hf.part->element : nullptr;
      const complex_type* ft = fe ? body_type(*fe) : nullptr;
      auto fi = ft ? struct_index_.find(ft) : struct_index_.end();
      if (fi == struct_index_.end() || !structs_[fi->second].refused.empty() ||
          !literal(structs_[fi->second])) {
        names_.push_back("  note: " + key + ": the headerfault part " +
                         (hf.part ? hf.part->name : std::string()) + " of " + which +
                         " header part " + h.part->name +
                         " is not typed (encoded, type= or not generated): it stays a "
                         "soap::fault_error, its entry in fault::header_xml");
        continue;
      }
      auto [cls, added] = header_fault_classes_.try_emplace(fe->name.str());
      if (added) {
        cls->second = unique_name(joined(identifier(fe->name.local), "header_fault"), type_names_);
        names_.push_back("header fault " + fe->name.str() + " -> " + o_.cpp_namespace +
                         "::" + cls->second);
      }
      const struct_plan& fs = structs_[fi->second];
      message_structs_.insert(fi->second);
      includes.insert(fs.file);
      out.back().faults.push_back(
          {"", cls->second, qualified(fs.name), fe->name.ns, fe->name.local});
    }
  }
  return out;
}

std::vector<detail::fault_plan> generator::typed_faults(const std::string& key,
                                                        const binding_operation& bo,
                                                        std::set<std::string>& includes) {
  std::vector<detail::fault_plan> out;
  for (const fault& f : bo.op->faults) {
    // A fault that is not typed stays a soap::fault_error: names.txt says so and why.
    auto untyped = [&](const std::string& why) {
      names_.push_back("  note: " + key + ": fault " + f.name + " is not typed (" + why +
                       "): it stays a soap::fault_error");
    };
    auto bf = std::find_if(bo.faults.begin(), bo.faults.end(),
                           [&](const binding_fault& b) { return b.name == f.name; });
    if (bf != bo.faults.end() && bf->use == body_use::encoded) {
      untyped("encoded use");
      continue;
    }
    if (!f.msg || f.msg->parts.size() != 1 || !f.msg->parts[0].element) {
      untyped("its message is not one element part");
      continue;
    }
    const element_decl* e = f.msg->parts[0].element;
    auto si = e->type->kind == type_kind::complex
                  ? struct_index_.find(static_cast<const complex_type*>(e->type))
                  : struct_index_.end();
    if (si == struct_index_.end()) {
      untyped("the detail element " + e->name.str() + " is not of a generated struct type");
      continue;
    }
    const struct_plan& s = structs_[si->second];
    if (!s.refused.empty() || !literal(s)) {
      untyped("its detail type " + s.name + " is " +
              (s.refused.empty() ? "written SOAP-encoded only" : "not generated"));
      continue;
    }
    auto [cls, added] = fault_classes_.try_emplace(e->name.str());
    if (added) {
      cls->second = unique_name(joined(identifier(e->name.local), "fault"), type_names_);
      names_.push_back("fault " + e->name.str() + " -> " + o_.cpp_namespace + "::" + cls->second);
    }
    message_structs_.insert(si->second);
    includes.insert(s.file);
    out.push_back({f.name, cls->second, qualified(s.name), e->name.ns, e->name.local});
  }
  return out;
}

/// Per portType: a client proxy (one typed method per operation) and an abstract service
/// class whose mount_on() registers every operation on a lather::service.
void generator::emit_port_types() {
  for (const port_type* pt : m_.port_types()) {
    auto it = ports_.find(pt);
    if (it == ports_.end()) continue;
    const std::string& cls = port_classes_.at(pt);
    const std::string& file = port_files_.at(pt);
    const std::set<std::string> classes = port_type_classes(cls);
    std::set<std::string> includes, methods;
    std::vector<detail::operation_plan> operations;
    std::vector<std::string> renamed;  // names.txt: methods not named as their operation
    // A header list (its members, types and elements) -> the struct that holds it.
    std::map<std::string, std::string> headers_structs;
    for (const binding_operation* bo : it->second) {
      std::string why;
      const struct_plan* req = nullptr;
      const struct_plan* res = nullptr;
      std::string element_ns, request_element, response_element, response_ns, style;
      // One-way: an input and no output (a notification, output only, is not generated).
      const bool one_way = bo->op->input && !bo->op->output;
      bool empty_in = false, empty_out = false;
      if (auto rp = rpc_plans_.find(bo); rp != rpc_plans_.end()) {
        if (!bo->op->input) {
          why = "notification operations";
        } else {
          req = &structs_[rp->second.first];
          if (!one_way) res = &structs_[rp->second.second];
          element_ns = req->ns;
          request_element = req->xml_name;
          if (res) response_element = res->xml_name;
          style = req->encoded ? "rpc_encoded" : "rpc_literal";
        }
      } else {
        // A message without a body part is an empty Body (lather/service/empty_body.hpp).
        empty_in = bo->op->input && no_body(*bo->op->input, bo->input);
        empty_out = !one_way && bo->op->output && no_body(*bo->op->output, bo->output);
        const element_decl* in = empty_in ? nullptr : body_element(bo->op->input, bo->input, why);
        const element_decl* out = (in || empty_in) && !one_way && !empty_out
                                      ? body_element(bo->op->output, bo->output, why)
                                      : nullptr;
        if (in) {
          req = &structs_[struct_index_.at(body_type(*in))];
          element_ns = in->name.ns;
          request_element = in->name.local;
        }
        if (out) {
          res = &structs_[struct_index_.at(body_type(*out))];
          response_element = out->name.local;
          if (!in)
            element_ns = out->name.ns;
          else if (out->name.ns != in->name.ns)
            response_ns = out->name.ns;
        }
      }
      const bool has_req = req || empty_in, has_res = res || empty_out || one_way;
      if (has_req && has_res &&
          ((req && !req->refused.empty()) || (res && !res->refused.empty()))) {
        why = req && !req->refused.empty() ? req->refused : res->refused;
        req = res = nullptr;
      } else if (!has_req || !has_res) {
        why += " not supported yet";
      }
      if (!(req || empty_in) || !(res || empty_out || one_way)) {
        result_.skipped.push_back(pt->name.local + "." + bo->name + ": " + why);
        continue;
      }
      if (req) {
        includes.insert(req->file);
        message_structs_.insert(static_cast<std::size_t>(req - structs_.data()));
        moved_structs_.insert(static_cast<std::size_t>(req - structs_.data()));
      }
      if (res) {
        includes.insert(res->file);
        message_structs_.insert(static_cast<std::size_t>(res - structs_.data()));
      }
      std::string method = unique_name(identifier(bo->name), methods, classes);
      std::string async = unique_name(joined(method, "async"), methods);
      if (method != bo->name || async != bo->name + "_async")
        renamed.push_back("  method " + cls + "Client::" + method + ", " + async +
                          " <- operation " + bo->name);
      operations.push_back({bo->name,
                            method,
                            async,
                            bo->soap_action,
                            req ? qualified(req->name) : "",
                            res ? qualified(res->name) : "",
                            element_ns,
                            request_element,
                            response_element,
                            response_ns,
                            style,
                            bo->input_action,
                            bo->output_action,
                            fault_actions_of(*bo),
                            typed_faults(pt->name.local + "." + bo->name, *bo, includes),
                            one_way,
                            {},
                            {},
                            "",
                            "",
                            "",
                            ""});
      detail::operation_plan& op = operations.back();
      const std::string key = pt->name.local + "." + bo->name;
      op.request_headers = header_plans(key, bo->input, false, includes);
      if (!one_way) op.response_headers = header_plans(key, bo->output, true, includes);
      for (int res = 0; res < 2; ++res) {
        if ((res ? op.response_headers : op.request_headers).empty()) continue;
        std::string& type = res ? op.response_headers_type : op.request_headers_type;
        const std::string name =
            unique_name(joined(method, res ? "response_headers" : "request_headers"), type_names_);
        names_.push_back(key + " " + (res ? "response" : "request") + " headers -> " +
                         o_.cpp_namespace + "::" + name);
        type = qualified(name);
        std::string list = res ? "response" : "request";
        for (const detail::header_plan& h : res ? op.response_headers : op.request_headers)
          list += "\n" + h.member + " " + h.type + " {" + h.ns + "}" + h.element +
                  (h.required ? " required" : "");
        (res ? op.response_headers_struct : op.request_headers_struct) =
            headers_structs.emplace(list, type).first->second;
      }
    }
    if (operations.empty()) continue;
    names_.push_back("portType " + pt->name.str() + " -> " + o_.cpp_namespace + "::" + cls +
                     "Client, " + cls + "Service (" + file + ")");
    names_.insert(names_.end(), renamed.begin(), renamed.end());
    // After the methods: a contract's operation named like a member of the classes keeps its
    // name, the member takes another.
    auto member = [&](const std::string& base, const std::string& cls_member,
                      const std::string& what) {
      std::string name = unique_name(base, methods);
      if (name != base)
        names_.push_back("  note: " + cls_member + name + what + " (an operation's method is " +
                         base + ")");
      return name;
    };
    std::string context = member("context", cls + "Service::", "() gives the call's context");
    std::string mount_on = member("mount_on", cls + "Service::", "() mounts the operations");
    // mount_<k>, start_<k>: the first prefix that no method name continues with digits only
    // (another one is noted: `cls_member` `what`).
    auto prefix = [&](const std::string& base, const std::string& cls_member,
                      const std::string& what) {
      std::string p = base + "_";
      for (int i = 2;
           std::any_of(methods.begin(), methods.end(),
                       [&](const std::string& m) {
                         return m.size() > p.size() && m.starts_with(p) &&
                                m.find_first_not_of("0123456789", p.size()) == std::string::npos;
                       });
           ++i)
        p = base + "_" + std::to_string(i) + "_";
      if (p != base + "_")
        names_.push_back("  note: " + cls_member + p + "<k>() " + what +
                         " (an operation's method is " + base + "_<k>)");
      return p;
    };
    std::string mount_prefix =
        prefix("mount", cls + "Service::", "mount the operations of code_<k>.cpp");
    std::string client = member("client_", cls + "Client::", " points to the lather::client");
    std::string start_prefix =
        prefix("start", cls + "Client::", "start the asynchronous calls of code_<k>.cpp");
    mock_index_.emplace(pt, mock_.port_types.size());
    mock_.port_types.push_back({pt->name.local,
                                pt->name.str(),
                                cls,
                                file,
                                port_version_.at(pt) == soap_version::soap12,
                                std::move(operations),
                                std::move(includes),
                                {},
                                std::move(context),
                                std::move(mount_on),
                                std::move(mount_prefix),
                                std::move(client),
                                std::move(start_prefix),
                                "",
                                {}});
  }
  // code_<k>.cpp: the operations of every port type in WSDL order, split evenly over the
  // translation units, as the structs are (emit_sources). An operation with SOAP headers
  // counts twice: its header forms cost about as much again.
  std::vector<detail::operation_ref> all;
  std::size_t weight = 0;
  for (std::size_t p = 0; p < mock_.port_types.size(); ++p)
    for (std::size_t i = 0; i < mock_.port_types[p].operations.size(); ++i) {
      all.push_back({p, i});
      const detail::operation_plan& op = mock_.port_types[p].operations[i];
      weight += op.request_headers.empty() && op.response_headers.empty() ? 1 : 2;
    }
  std::size_t structs = 0;
  for (std::size_t i : order_) structs += structs_[i].refused.empty();
  const std::size_t n = units_ =
      o_.sources
          ? o_.sources
          : std::max<std::size_t>(1, (structs * operations_per_unit + weight * types_per_unit +
                                      types_per_unit * operations_per_unit - 1) /
                                         (types_per_unit * operations_per_unit));
  unit_ops_.assign(n, {});
  for (std::size_t k = 0; k < n; ++k) {
    unit_ops_[k].assign(all.begin() + k * all.size() / n, all.begin() + (k + 1) * all.size() / n);
    std::set<std::size_t> used;
    // In port type order (as `all`): a file's table of operations lists them in this order.
    for (std::size_t row = 0; row < unit_ops_[k].size(); ++row) {
      const detail::operation_ref& r = unit_ops_[k][row];
      detail::port_type_plan& pt = mock_.port_types[r.port_type];
      if (used.insert(r.port_type).second) pt.sources.push_back(k);
      pt.operations[r.operation].source = k;
      pt.operations[r.operation].source_row = row;
    }
  }
}

void generator::emit_operations() {
  std::set<std::string> fault_includes;
  for (const detail::port_type_plan& pt : mock_.port_types)
    for (const detail::operation_plan& op : pt.operations) {
      std::vector<std::string> types;
      for (const detail::fault_plan& f : op.faults) types.push_back(f.detail_type);
      for (const auto* list : {&op.request_headers, &op.response_headers})
        for (const detail::header_plan& h : *list)
          for (const detail::fault_plan& f : h.faults) types.push_back(f.detail_type);
      if (types.empty()) continue;
      if (units_ == 1)
        fault_includes.insert(pt.includes.begin(), pt.includes.end());
      else
        for (const std::string& t : types) fault_includes.insert(part_of_[struct_of(t)]);
    }
  std::string faults = detail::faults_header(o_.cpp_namespace, mock_.port_types, fault_includes);
  if (!faults.empty()) {
    faults_file_ = unique_name("faults", file_stems_) + ".hpp";
    result_.files.push_back({faults_file_, std::move(faults)});
  }
  for (const detail::port_type_plan& pt : mock_.port_types)
    for (generated_file& f : detail::port_type_header(o_.cpp_namespace, pt, faults_file_))
      result_.files.push_back(std::move(f));
  std::set<std::string> defined_faults;
  for (std::size_t k = 0; k < units_; ++k)
    operation_parts_.push_back(unit_ops_[k].empty()
                                   ? detail::source_part{}
                                   : detail::operations_source(o_.cpp_namespace, describe_header_,
                                                               faults_file_, mock_.port_types, k,
                                                               unit_ops_[k], defined_faults));
}

std::size_t generator::struct_of(const std::string& qualified_name) {
  if (struct_by_name_.empty())
    for (std::size_t i : emitted_) struct_by_name_.emplace(qualified(structs_[i].name), i);
  return struct_by_name_.at(qualified_name);
}

const std::string& generator::part_of_type(const type* t) const {
  static const std::string none;
  if (t->kind == type_kind::complex) {
    const auto it = struct_index_.find(static_cast<const complex_type*>(t));
    return it == struct_index_.end() ? none : part_of_[it->second];
  }
  const auto it = enum_index_.find(static_cast<const simple_type*>(t));
  return it == enum_index_.end() ? none : part_of_[structs_.size() + it->second];
}

std::vector<std::array<std::string, 3>> generator::plan_parts() {
  const std::size_t n = units_, S = structs_.size();
  // The types a struct needs complete where a unit uses it: what its members name, its base,
  // and its derived types (meta<T>::derived: the tables read and write them).
  auto id_of = [&](const type* t) -> std::size_t {
    if (t->kind == type_kind::complex) {
      const auto it = struct_index_.find(static_cast<const complex_type*>(t));
      return it == struct_index_.end() ? SIZE_MAX : it->second;
    }
    const auto it = enum_index_.find(static_cast<const simple_type*>(t));
    return it == enum_index_.end() ? SIZE_MAX : S + it->second;
  };
  std::vector<std::vector<std::size_t>> edges(S + enums_.size());
  for (std::size_t i : emitted_) {
    const struct_plan& s = structs_[i];
    for (const type* d : s.deps) edges[i].push_back(id_of(d));
    if (s.base) edges[i].push_back(id_of(s.base));
    for (const complex_type* d : s.derived) edges[i].push_back(id_of(d));
  }
  // Each unit's roots: its structs, its operations' messages, the types of its port types'
  // SOAP headers (their classes' header) and of the typed faults (faults.hpp) it throws;
  // the first unit describes every enumeration.
  std::vector<std::string> units(S + enums_.size(), std::string(n, '0'));
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<std::size_t> todo = unit_structs_[k];
    if (k == 0)
      for (std::size_t e = 0; e < enums_.size(); ++e) todo.push_back(S + e);
    std::set<std::size_t> port_types;
    bool throws = false;
    auto root = [&](const std::string& t) {
      if (!t.empty()) todo.push_back(struct_of(t));
    };
    for (const detail::operation_ref& r : unit_ops_[k]) {
      const detail::operation_plan& op = mock_.port_types[r.port_type].operations[r.operation];
      root(op.request_type);
      root(op.response_type);
      throws |= detail::throws_typed(op);
      port_types.insert(r.port_type);
    }
    for (const detail::port_type_plan& pt : mock_.port_types)
      for (const detail::operation_plan& op : pt.operations) {
        for (const auto* list : {&op.request_headers, &op.response_headers})
          for (const detail::header_plan& h : *list) {
            if (port_types.count(static_cast<std::size_t>(&pt - mock_.port_types.data())))
              root(h.type);
            if (throws)
              for (const detail::fault_plan& f : h.faults) root(f.detail_type);
          }
        if (throws)
          for (const detail::fault_plan& f : op.faults) root(f.detail_type);
      }
    while (!todo.empty()) {
      const std::size_t id = todo.back();
      todo.pop_back();
      if (id == SIZE_MAX || units[id][k] == '1') continue;
      units[id][k] = '1';
      if (id < S) todo.insert(todo.end(), edges[id].begin(), edges[id].end());
    }
  }
  // A part per header and set of units, numbered in the header's order; a header whose types
  // all have the same units stays whole.
  std::vector<std::size_t> ids;
  for (std::size_t e = 0; e < enums_.size(); ++e) ids.push_back(S + e);
  ids.insert(ids.end(), emitted_.begin(), emitted_.end());
  auto file_of_id = [&](std::size_t id) -> const std::string& {
    return id < S ? structs_[id].file : enums_[id - S].file;
  };
  std::map<std::string, std::set<std::string>> sets;
  for (std::size_t id : ids) sets[file_of_id(id)].insert(units[id]);
  std::map<std::pair<std::string, std::string>, std::string> names;
  std::vector<std::array<std::string, 3>> parts;
  part_of_.assign(S + enums_.size(), "");
  for (std::size_t id : ids) {
    const std::string& file = file_of_id(id);
    auto [it, added] = names.emplace(std::pair(file, units[id]), file);
    if (added) {
      if (sets[file].size() > 1) {
        std::size_t count = 0;
        for (const auto& p : parts) count += p[0] == file;
        it->second = file.substr(0, file.size() - 4) + ".part" + std::to_string(count + 1) + ".hpp";
      }
      parts.push_back({file, it->second, units[id]});
    }
    part_of_[id] = it->second;
  }
  unit_parts_.assign(n, {});
  for (const auto& [file, part, in] : parts)
    for (std::size_t k = 0; k < n; ++k)
      if (in[k] == '1') unit_parts_[k].push_back(part);
  // The classes' headers: over declarations of the messages and the parts of the SOAP
  // headers' types.
  for (detail::port_type_plan& pt : mock_.port_types) {
    pt.decl_header = pt.header.substr(0, pt.header.size() - 4) + ".decl.hpp";
    std::set<std::string> incs;
    for (const detail::operation_plan& op : pt.operations)
      for (const auto* list : {&op.request_headers, &op.response_headers})
        for (const detail::header_plan& h : *list) incs.insert(part_of_[struct_of(h.type)]);
    pt.decl_includes.assign(incs.begin(), incs.end());
  }
  return parts;
}

/// --mock: the samples header and mock_server.cpp (generate_mock.cpp), served at every
/// SOAP port's path.
void generator::emit_mock(const std::set<std::string>& type_headers) {
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

bool generator::reaches(const std::string& from, const std::string& to,
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

}  // namespace lather::wsdl::detail
