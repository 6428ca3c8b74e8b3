// lather-wsdl2cpp, pass 3: the plan of each generated struct (its fields, their C++ types and
// modifiers, the types they depend on) and, with --mock, the statements of its sample value.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

#include "document.hpp"
#include "generate_names.hpp"
#include "generator.hpp"
#include "lather/bind/facets.hpp"
#include "lather/bind/xsd.hpp"
#include "lather/wsdl/sample.hpp"

namespace lather::wsdl::detail {

std::string generator::qualified(const std::string& name) const {
  return "::" + o_.cpp_namespace + "::" + name;
}

/// The C++ type of a value of `t`; notes generated types it names in `s`.
std::string generator::value_type(const type* t, struct_plan& s, bool by_value,
                                  const source_location& at) {
  if (t->kind == type_kind::complex) {
    const auto* c = static_cast<const complex_type*>(t);
    const bool encoded = encoded_struct(s);
    if (!c->builtin && is_mixed(c) && encoded)
      throw error(at, "mixed content in an rpc/encoded message is not generated yet");
    // xsd:anyType: the element as received (encoded: with its xsi:type).
    if (c->builtin || is_mixed(c)) return "lather::bind::any_type";
    if (c->array) {
      std::string item = value_type(c->array->item, s, false, at);
      if (c->array->dimensions.find(',') == std::string::npos) return "std::vector<" + item + ">";
      if (!encoded)
        throw error(at, "multi-dimensional SOAP-ENC array " + c->name.str() +
                            " in a literal message is not generated yet");
      return "lather::soap::multi_array<" + item + ">";  // items in row-major order
    }
    if (c->abstract)
      throw error(at, "abstract type " + c->name.str() +
                          " as an attribute, choice alternative or rpc part is not generated yet");
    const struct_plan& target = structs_[struct_index_.at(c)];
    s.deps.push_back(c);
    if (by_value) s.value_deps.push_back(c);
    return qualified(target.name);
  }
  return simple_cpp(static_cast<const simple_type*>(t), s);
}

bool generator::encoded_struct(const struct_plan& s) const {
  return s.msg ? s.encoded : encoded_seen_.count(s.t) != 0;
}

std::string generator::simple_cpp(const simple_type* t, struct_plan& s) {
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
      // Open: a value a newer peer adds is kept (read_options::keep_unknown_enums).
      return "lather::open_enum<" + qualified(enums_[it->second].name) + ">";
    }
    if (x->variety == simple_type::variety::list) return simple_cpp(x, s);
  }
  return "std::string";
}

namespace {
/// What lather::bind::facets compares for values of the XSD built-in `local`, from its C++
/// type.
const char* facet_value_of(std::string_view local) {
  const std::string_view cpp = builtin_cpp(local);
  if (local == "IDREFS" || local == "NMTOKENS" || local == "ENTITIES") return "other";  // lists
  if (cpp == "float" || cpp == "double") return "floating";
  if (cpp == "lather::xsd::hex_binary") return "hex_binary";
  if (cpp == "lather::xsd::base64_binary") return "base64_binary";
  // std::int32_t, std::uint8_t, ..., lather::xsd::integer, positive_integer, ...
  if (cpp == "lather::xsd::decimal" || cpp.find("int") != std::string_view::npos) return "decimal";
  if (cpp == "std::string" || cpp == "lather::xsd::normalized_string" ||
      cpp == "lather::xsd::token" || cpp == "lather::xsd::any_uri")
    return "string";  // also the built-ins without a C++ type of their own (NCName, gYear, ...)
  return "other";     // boolean, dates, times, durations, QName
}

/// `text` read as a `T` (xsd_traits<T>::parse, as the binding reads a default), or nullopt.
template <class T>
std::optional<T> parse_default(std::string_view text) {
  T v{};
  if (lather::bind::xsd_traits<T>::parse(text, v) != lather::bind::errc::ok) return std::nullopt;
  return v;
}

template <class T>
std::string integer_clause(std::string_view text) {
  const std::optional<T> v = parse_default<T>(text);
  if (!v) return "";
  if constexpr (std::is_signed_v<T>) {
    if (sizeof(T) == 8 && *v == std::numeric_limits<T>::min())  // no literal has it
      return std::to_string(*v + 1) + " - 1";
    return std::to_string(*v);
  } else {  // above the largest long long, a decimal literal needs its U
    return std::to_string(*v) +
           (*v > std::uint64_t(std::numeric_limits<std::int64_t>::max()) ? "U" : "");
  }
}

template <class T>
std::string floating_clause(std::string_view text, std::string_view cpp) {
  const std::optional<T> v = parse_default<T>(text);
  if (!v) return "";
  const std::string limits = "std::numeric_limits<" + std::string(cpp) + ">::";
  if (std::isnan(*v)) return limits + "quiet_NaN()";
  if (std::isinf(*v)) return (*v < 0 ? "-" : "") + limits + "infinity()";
  char buf[64];
  std::string out(buf, std::to_chars(buf, buf + sizeof buf, *v).ptr);  // shortest round trip
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return std::is_same_v<T, float> ? out + "f" : out;
}

/// The types of one std::string (value or text): the value read.
template <class T>
std::string text_clause(std::string_view text) {
  const std::optional<T> v = parse_default<T>(text);
  if (!v) return "";
  if constexpr (requires { v->value; })
    return "{" + quote(v->value) + "}";
  else
    return "{" + quote(v->text) + "}";
}

/// xsd:integer and its subtypes: constructed from a machine integer, not from their text.
template <class T>
std::string big_integer_clause(std::string_view text, std::string_view cpp) {
  const std::optional<T> v = parse_default<T>(text);
  if (!v) return "";
  std::int64_t n = 0;
  const char* end = v->text.data() + v->text.size();
  if (const auto [ptr, ec] = std::from_chars(v->text.data(), end, n);
      ec == std::errc{} && ptr == end)
    return std::string(cpp) + "(" + integer_clause<std::int64_t>(v->text) + ")";
  return "[] { " + std::string(cpp) + " v; v.text = " + quote(v->text) + "; return v; }()";
}

std::string bytes_clause(const std::vector<std::uint8_t>& bytes) {
  std::string out = "{{";
  for (std::size_t i = 0; i < bytes.size(); ++i) out += (i ? ", " : "") + std::to_string(bytes[i]);
  return out + "}}";
}

std::string date_time_clause(const lather::xsd::date_time_fields& d) {
  return "{{" + std::to_string(d.year) + ", " + std::to_string(d.month) + ", " +
         std::to_string(d.day) + ", " + std::to_string(d.hour) + ", " + std::to_string(d.minute) +
         ", " + std::to_string(d.second) + ", " + (d.fraction.empty() ? "{}" : quote(d.fraction)) +
         ", " + (d.tz_minutes ? std::to_string(*d.tz_minutes) : "{}") + "}}";
}

/// `clause(value)` of `text` read as a `T`, or "" when the type refuses the text.
template <class T, class F>
std::string clause_of(std::string_view text, F clause) {
  const std::optional<T> v = parse_default<T>(text);
  return v ? clause(*v) : "";
}

/// The initializer clause of a member of the built-in type `local` from its default `text`
/// ("" where none: QName, whose value needs the namespaces in scope, or a text the type does
/// not accept).
std::string builtin_clause(std::string_view local, std::string_view text) {
  const std::string_view cpp = builtin_cpp(local);
  if (cpp == "std::string") return quote(*parse_default<std::string>(text));
  if (cpp == "bool") {
    const std::optional<bool> v = parse_default<bool>(text);
    return !v ? "" : *v ? "true" : "false";
  }
  if (cpp == "std::int8_t") return integer_clause<std::int8_t>(text);
  if (cpp == "std::int16_t") return integer_clause<std::int16_t>(text);
  if (cpp == "std::int32_t") return integer_clause<std::int32_t>(text);
  if (cpp == "std::int64_t") return integer_clause<std::int64_t>(text);
  if (cpp == "std::uint8_t") return integer_clause<std::uint8_t>(text);
  if (cpp == "std::uint16_t") return integer_clause<std::uint16_t>(text);
  if (cpp == "std::uint32_t") return integer_clause<std::uint32_t>(text);
  if (cpp == "std::uint64_t") return integer_clause<std::uint64_t>(text);
  if (cpp == "float") return floating_clause<float>(text, cpp);
  if (cpp == "double") return floating_clause<double>(text, cpp);
  if (cpp == "lather::xsd::normalized_string")
    return text_clause<lather::xsd::normalized_string>(text);
  if (cpp == "lather::xsd::token") return text_clause<lather::xsd::token>(text);
  if (cpp == "lather::xsd::any_uri") return text_clause<lather::xsd::any_uri>(text);
  if (cpp == "lather::xsd::decimal") return text_clause<lather::xsd::decimal>(text);
  if (cpp == "lather::xsd::integer") return big_integer_clause<lather::xsd::integer>(text, cpp);
  if (cpp == "lather::xsd::non_negative_integer")
    return big_integer_clause<lather::xsd::non_negative_integer>(text, cpp);
  if (cpp == "lather::xsd::positive_integer")
    return big_integer_clause<lather::xsd::positive_integer>(text, cpp);
  if (cpp == "lather::xsd::non_positive_integer")
    return big_integer_clause<lather::xsd::non_positive_integer>(text, cpp);
  if (cpp == "lather::xsd::negative_integer")
    return big_integer_clause<lather::xsd::negative_integer>(text, cpp);
  if (cpp == "lather::xsd::date_time")
    return clause_of<lather::xsd::date_time>(text, date_time_clause);
  if (cpp == "lather::xsd::date") return clause_of<lather::xsd::date>(text, date_time_clause);
  if (cpp == "lather::xsd::time") return clause_of<lather::xsd::time>(text, date_time_clause);
  if (cpp == "lather::xsd::duration") {
    const auto v = parse_default<lather::xsd::duration>(text);
    if (!v) return "";
    return "{" + std::string(v->negative ? "true" : "false") + ", " + std::to_string(v->years) +
           ", " + std::to_string(v->months) + ", " + std::to_string(v->days) + ", " +
           std::to_string(v->hours) + ", " + std::to_string(v->minutes) + ", " +
           std::to_string(v->seconds) + ", " + (v->fraction.empty() ? "{}" : quote(v->fraction)) +
           "}";
  }
  auto bytes_of = [](const auto& v) { return bytes_clause(v.bytes); };
  if (cpp == "lather::xsd::hex_binary") return clause_of<lather::xsd::hex_binary>(text, bytes_of);
  if (cpp == "lather::xsd::base64_binary")
    return clause_of<lather::xsd::base64_binary>(text, bytes_of);
  return "";  // QName
}
}  // namespace

std::string generator::initializer_of(const type* t, std::string_view text) {
  if (!t || t->kind != type_kind::simple) return "";
  const auto* st = static_cast<const simple_type*>(t);
  // As simple_cpp maps the type.
  const simple_type* list_item = st->variety == simple_type::variety::list ? st->item : nullptr;
  if (st->variety == simple_type::variety::union_) return quote(text);
  for (const simple_type* x = st; x && !list_item; x = x->base) {
    if (x->builtin) return builtin_clause(x->name.local, text);
    if (auto it = enum_index_.find(x); it != enum_index_.end()) {
      if (encoded_enums_.count(x)) return quote(text);
      const std::string_view value = trim(text);
      for (const auto& [enumerator, lexical] : enums_[it->second].values)
        if (lexical == value) return qualified(enums_[it->second].name) + "::" + enumerator;
      return "";
    }
    if (x->variety == simple_type::variety::list) list_item = x->item;
  }
  if (!list_item) return quote(text);
  // A list: its items' clauses, every item having one.
  std::string items;
  for (const std::string& item : split_tokens(text)) {
    const std::string clause = initializer_of(list_item, item);
    if (clause.empty()) return "";
    items += (items.empty() ? "" : ", ") + clause;
  }
  return items.empty() ? "" : "{{" + items + "}}";
}

facet_plan generator::facets_of(const type* t, const facets* own, const std::string& field,
                                bool member) {
  facet_plan p;
  if (!t || t->kind != type_kind::simple) return p;
  // The nearest restriction's value of each facet (`own` first), every step's patterns.
  std::optional<std::uint64_t> length, min_length, max_length, total, fraction;
  std::optional<std::string> min_in, max_in, min_ex, max_ex, space;
  const std::vector<std::string>* enumeration = nullptr;
  auto merge = [&](const facets& f, const std::string& step) {
    auto take = [](auto& into, const auto& from) {
      if (!into && from) into = from;
    };
    take(length, f.length);
    take(min_length, f.min_length);
    take(max_length, f.max_length);
    take(total, f.total_digits);
    take(fraction, f.fraction_digits);
    take(min_in, f.min_inclusive);
    take(max_in, f.max_inclusive);
    take(min_ex, f.min_exclusive);
    take(max_ex, f.max_exclusive);
    take(space, f.white_space);
    if (!enumeration && !f.enumeration.empty()) enumeration = &f.enumeration;
    if (f.patterns.empty()) return;
    // A step's patterns are alternatives: all of them run, or the step is not checked.
    std::string joined;
    for (const std::string& x : f.patterns) {
      if (std::string why = lather::bind::pattern_unsupported(x); !why.empty()) {
        if (noted_patterns_.insert(field + "\n" + x).second)
          names_.push_back("  note: " + field + ": pattern \"" + x + "\" of " + step +
                           " is not checked at run time (" + why + ")");
        return;
      }
      joined += (joined.empty() ? "" : "|") + (f.patterns.size() > 1 ? "(" + x + ")" : x);
    }
    p.patterns.push_back(std::move(joined));
  };
  const auto* x = static_cast<const simple_type*>(t);
  if (own) merge(*own, x->anonymous() ? "the simple content" : x->name.str());
  // A list: its steps' facets (lengths count items), then its items' own (an item type mapped
  // to an enumeration, whose list the binding reads as enumerators, gets none).
  const simple_type* item = nullptr;
  const std::vector<const simple_type*>* members = nullptr;
  for (; x && !x->builtin; x = x->base) {
    if (x->variety == simple_type::variety::list) {
      merge(x->facets, x->anonymous() ? "an anonymous type" : x->name.str());
      if (x->base) continue;
      item = x->item;
      break;
    }
    // A union (a std::string): its steps' patterns and enumerations, then its member types'
    // facets, one of which must accept the value.
    if (x->variety == simple_type::variety::union_ && !enum_index_.count(x)) {
      merge(x->facets, x->anonymous() ? "an anonymous type" : x->name.str());
      if (x->base) continue;
      members = &x->members;
      break;
    }
    // (A union's member of an enumeration: its values are facets there, as text.)
    // (An enumeration an rpc/encoded message reaches is a std::string: its values as text.)
    if (x->variety != simple_type::variety::atomic ||
        (enum_index_.count(x) && !member && !encoded_enums_.count(x)))
      return {};
    merge(x->facets, x->anonymous() ? "an anonymous type" : x->name.str());
  }
  if (item) {
    for (const simple_type* i = item; i; i = i->base)
      if (enum_index_.count(i)) return {};
    facet_plan items = facets_of(item, nullptr, field + " (an item)");
    if (!items.empty()) p.items = std::make_shared<const facet_plan>(std::move(items));
  } else if (members) {
    // A member that accepts any text (a string without facets, a date: no lexical check here)
    // makes the members' check pointless: left out.
    std::vector<std::shared_ptr<const facet_plan>> plans;
    for (const simple_type* m : *members) {
      facet_plan one = facets_of(m, nullptr, field + " (a union member)", true);
      if (one.empty()) {
        plans.clear();
        break;
      }
      plans.push_back(std::make_shared<const facet_plan>(std::move(one)));
    }
    p.members = std::move(plans);
  } else if (!x) {
    return {};
  }
  const std::string local = item || members ? "" : x->name.local;
  const char* value = item ? "list" : members ? "string" : facet_value_of(local);
  // A union's member: an integer type's lexical form has no fraction digits (its fixed
  // fractionDigits 0), and a number's or binary's own form is checked even without facets.
  // (A boolean, date, time, duration or QName member: its built-in's lexical form, which the
  // facets check by its name.)
  static const std::set<std::string_view> read_built_ins = {"boolean", "dateTime", "date",
                                                            "time",    "duration", "QName"};
  const bool lexical =
      member && !item && !members &&
      ((std::string_view(value) != "string" && std::string_view(value) != "other") ||
       read_built_ins.count(local) != 0);
  if (lexical && !fraction && std::string_view(value) == "decimal" &&
      std::string_view(builtin_cpp(local)) != "lather::xsd::decimal") {
    fraction = 0;
    // ... and its built-in's range, where no facet narrows it.
    static const std::map<std::string_view, std::pair<const char*, const char*>> ranges = {
        {"byte", {"-128", "127"}},
        {"short", {"-32768", "32767"}},
        {"int", {"-2147483648", "2147483647"}},
        {"long", {"-9223372036854775808", "9223372036854775807"}},
        {"unsignedByte", {"0", "255"}},
        {"unsignedShort", {"0", "65535"}},
        {"unsignedInt", {"0", "4294967295"}},
        {"unsignedLong", {"0", "18446744073709551615"}},
        {"nonNegativeInteger", {"0", ""}},
        {"positiveInteger", {"1", ""}},
        {"nonPositiveInteger", {"", "0"}},
        {"negativeInteger", {"", "-1"}},
    };
    if (auto r = ranges.find(local); r != ranges.end()) {
      if (!min_in && !min_ex && *r->second.first) min_in = r->second.first;
      if (!max_in && !max_ex && *r->second.second) max_in = r->second.second;
    }
  }
  std::string f;
  auto add = [&](const char* name, const std::string& v) {
    f += (f.empty() ? "." : ", .") + std::string(name) + " = " + v;
  };
  auto number = [&](const char* name, const std::optional<std::uint64_t>& n) {
    if (n) add(name, std::to_string(std::min<std::uint64_t>(*n, lather::bind::no_facet - 1)));
  };
  auto text = [&](const char* name, const std::optional<std::string>& v) {
    if (v) add(name, quote(*v));
  };
  number("length", length);
  number("min_length", min_length);
  number("max_length", max_length);
  number("total_digits", total);
  number("fraction_digits", fraction);
  text("min_inclusive", min_in);
  text("max_inclusive", max_in);
  text("min_exclusive", min_ex);
  text("max_exclusive", max_ex);
  if (enumeration) p.enumeration = *enumeration;
  if (f.empty() && p.enumeration.empty() && p.patterns.empty() && !p.items && p.members.empty() &&
      !lexical)
    return {};
  // whiteSpace: the nearest facet's, else the built-in's (string preserves, normalizedString
  // replaces, the rest collapse); it applies to strings only (the others always collapse). A
  // union's own patterns and enumerations see the collapsed text.
  const std::string rule = space && (*space == "replace" || *space == "collapse") ? *space
                           : space                                                ? "preserve"
                           : local == "string"                                    ? "preserve"
                           : local == "normalizedString"                          ? "replace"
                                                                                  : "collapse";
  std::string head;
  if (std::string_view(value) != "string")
    head = ".value = lather::bind::facet_value::" + std::string(value);
  else if (rule != "preserve")
    head = ".space = lather::bind::white_space::" + rule;
  p.fields = head.empty() ? f : f.empty() ? head : head + ", " + f;
  // A union's member: its built-in, whose lexical form the check takes and ?wsdl names.
  if (member && !item && !members) p.built_in = local;
  return p;
}

std::string generator::ns_modifier(const std::string& item_ns, const std::string& owner_ns,
                                   bool attribute) {
  if (item_ns.empty()) return attribute ? "" : ".unqualified()";
  if (item_ns == owner_ns) return attribute ? ".qualified()" : "";
  return ".in_namespace(" + quote(item_ns) + ")";
}

std::string generator::member_name(std::string_view xml, struct_plan& s,
                                   std::set<std::string>& used) {
  std::string n = identifier(xml);
  if (n == s.name) n += "_";
  return unique_name(n, used);
}

/// A statement giving `expr` (a value of XSD type `t`) its sample value, "" when its
/// default-constructed value is one (anyType, a generated enum: its first enumerator).
std::string generator::sample_of(const type* t, const std::string& expr, const std::string& fixed) {
  if (t->kind == type_kind::complex) {
    const auto* c = static_cast<const complex_type*>(t);
    if (c->array) {
      std::string item = "y" + std::to_string(++sample_var_);
      std::string value = sample_of(c->array->item, item);
      std::string items = expr;
      std::string dims;  // a multi_array: one item, every dimension 1
      if (std::size_t rank =
              std::count(c->array->dimensions.begin(), c->array->dimensions.end(), ',') + 1;
          rank > 1) {
        for (std::size_t k = 0; k < rank; ++k) dims += k ? ", 1" : "1";
        dims = expr + ".dims = {" + dims + "}; ";
        items += ".items";
      }
      return dims + items + ".resize(1); for (auto& " + item + " : " + items + ") { " +
             (value.empty() ? "(void)" + item + "; " : value) + "} ";
    }
    if (t->builtin && sample_encoded_)  // a typed value, as SOAP encoding sends one
      return expr + ".xml = " +
             quote(
                 "<x xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" "
                 "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                 "xsi:type=\"xsd:string\">sample</x>") +
             "; ";
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

std::string generator::sample_first(const element_decl& e, const std::string& variant,
                                    bool holder) {
  const std::string alt = (holder ? "*std::get<0>(" : "std::get<0>(") + variant + ")";
  return e.nillable ? "std::get<0>(" + variant + ").emplace(); " + sample_of(e.type, "*" + alt)
                    : sample_of(e.type, alt);
}

/// The XML of a sample element for wildcard `w`: for a strict wildcard a declared element,
/// else (or when none fits) one in a namespace it allows (##targetNamespace: w.tns).
std::string generator::sample_any(const wildcard& w) const {
  const std::string& tns = w.tns;
  if (std::string xml = declared_any(w); !xml.empty()) return xml;
  std::string_view all = w.namespaces, first = all.substr(0, all.find(' '));
  if (first == "##local") return "<sample/>";
  std::string ns = first == "##targetNamespace"               ? tns
                   : first.empty() || first.starts_with("##") ? "urn:lather:sample"
                                                              : std::string(first);
  return "<s:sample xmlns:s=" + quote(ns) + "/>";
}

/// For a strict wildcard: a declared global element with simple or empty content it allows,
/// as sample XML; "" when none fits (or the wildcard is not strict).
std::string generator::declared_any(const wildcard& w) const {
  const std::string& tns = w.tns;
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
        bool required = std::any_of(c->attributes.begin(), c->attributes.end(),
                                    [](auto& a) { return a.use == attribute_use::use::required; });
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
std::string generator::sample_items(const std::string& member, std::uint32_t min,
                                    const std::string& value) {
  std::string n = std::to_string(std::max<std::uint32_t>(min, 1));
  std::string stmt = "v." + member + ".resize(" + n + "); for (auto&& x : v." + member + ") { " +
                     (value.empty() ? "(void)x; " : value) + "} ";
  return min == 0 ? "if (depth < 3) { " + stmt + "} " : stmt;
}

void generator::plan_element(const particle& p, const element_decl& e, bool optional_ctx,
                             struct_plan& s, std::set<std::string>& used) {
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
  // A non-abstract type with derived types: lather::polymorphic<B>, a value whose type an
  // xsi:type names. It holds its object apart, so it breaks a recursion as a box would.
  // (SOAP encoding reads every value as its declared type: by value there.)
  f.holder = holder_base(e, s);
  std::string v = value_type(e.type, s, max <= 1 && !f.holder, e.where);
  // --mock: the sample of the holder's object (a B).
  const std::string deref = f.holder ? "*" : "";
  if (f.holder) {
    poly_roots_.insert(f.holder);
    f.holders.push_back(f.holder);
    v = "lather::polymorphic<" + v + ">";
  }
  const std::optional<std::string>& dflt = e.default_value ? e.default_value : e.fixed_value;
  f.modifiers = ns_modifier(e.name.ns, s.ns, false);
  f.facets = facets_of(e.type, nullptr, s.name + "::" + f.member);
  const std::string fixed = e.fixed_value.value_or("");
  if (max > 1) {
    f.cpp_type = "std::vector<" + (e.nillable ? "lather::nillable<" + v + ">" : v) + ">";
    if (min != 0) f.modifiers += ".min(" + std::to_string(min) + ")";
    if (max != unbounded) f.modifiers += ".max(" + std::to_string(max) + ")";
    f.sample =
        sample_items(f.member, min,
                     e.nillable ? "x.emplace(); " + sample_of(e.type, "*" + deref + "x", fixed)
                                : sample_of(e.type, deref + "x", fixed));
  } else if (min == 0) {
    if (e.nillable && !encoded_struct(s)) {
      // Absent (nullopt), nil (an empty nillable) and a value stay apart.
      f.cpp_type = "std::optional<lather::nillable<" + v + ">>";
    } else if (e.nillable) {
      // SOAP encoding's accessor: omitted and xsi:nil are both null (an empty optional,
      // written as xsi:nil).
      f.cpp_type = "std::optional<" + v + ">";
      f.modifiers += ".nillable()";
    } else if (dflt) {
      f.cpp_type = v;
      f.modifiers += ".min(0).default_value(" + quote(*dflt) + ")";
      f.facets.default_value = dflt;
      f.initializer = initializer_of(e.type, *dflt);
      f.sample = sample_of(e.type, "v." + f.member, *dflt);
    } else {
      f.cpp_type = "std::optional<" + v + ">";
      if (e.type->kind == type_kind::complex && !e.type->builtin && !f.holder) {
        f.boxable = static_cast<const complex_type*>(e.type);
        f.boxed_type = "std::shared_ptr<" + v + ">";
      }
    }
  } else {
    f.cpp_type = e.nillable ? "lather::nillable<" + v + ">" : v;
    if (dflt) {
      f.modifiers += ".default_value(" + quote(*dflt) + ")";
      f.facets.default_value = dflt;
      if (!e.nillable) f.initializer = initializer_of(e.type, *dflt);
    }
    f.sample = e.nillable ? "v." + f.member + ".emplace(); " +
                                sample_of(e.type, "*" + deref + "v." + f.member, fixed)
                          : sample_of(e.type, deref + "v." + f.member, fixed);
  }
  f.deps_to = s.deps.size();
  s.fields.push_back(std::move(f));
}

/// An element of an abstract type: std::shared_ptr<Base> (a vector of them when repeated),
/// read and written with xsi:type naming the type of the object; `.min(1)` when required.
void generator::plan_polymorphic(const element_decl& e, std::uint32_t min, std::uint32_t max,
                                 struct_plan& s, field_plan f) {
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
particle generator::only_particle(const particle& p) {
  particle single = p.group->particles[0];
  single.min = p.min * single.min;
  single.max = p.max == unbounded || single.max == unbounded ? unbounded : p.max * single.max;
  return single;
}

void generator::plan_choice(const particle& p, bool optional_ctx, struct_plan& s,
                            std::set<std::string>& used) {
  const std::vector<particle>& particles = p.group->particles;
  if (particles.size() == 1 && !heads_substitution(particles[0]))  // a choice of one
    return plan_particle(only_particle(p), optional_ctx, s, used);
  const std::vector<particle> flat = alternatives_of(p);
  std::vector<const particle*> alternatives;
  for (const particle& a : flat) alternatives.push_back(&a);
  plan_alternatives(p, alternatives, optional_ctx, s, used, "");
}

std::vector<particle> generator::alternatives_of(const particle& p) {
  std::vector<particle> out;
  for (particle a : p.group->particles) {
    // A sequence or choice of one particle is that particle, so repeated.
    while (a.what == particle::kind::group && a.group->particles.size() == 1 &&
           !heads_substitution(a.group->particles[0]))
      a = only_particle(a);
    const bool plain_choice =
        a.what == particle::kind::group && a.group->kind == compositor::choice && a.max <= 1 &&
        std::all_of(a.group->particles.begin(), a.group->particles.end(),
                    [](const particle& q) { return q.what == particle::kind::element; });
    if (!plain_choice) {
      out.push_back(a);
      continue;
    }
    for (particle q : a.group->particles) {  // a choice of elements inside: its elements
      q.min = std::min(q.min, a.min);
      out.push_back(q);
    }
  }
  return out;
}

bool generator::group_alternative(const particle& a, const std::string& ns) {
  if (a.what == particle::kind::element) return a.element->name.ns != ns;
  return true;  // a sequence, a choice other than of elements, a wildcard
}

bool generator::group_sequence(const particle& p) {
  if (p.what != particle::kind::group || p.group->kind == compositor::choice ||
      p.group->particles.size() < 2)
    return false;
  if (p.max > 1) return true;
  // Optional: all of it or none of it, unless it may be empty anyway (then flattened).
  particle once = p;
  once.min = 1;
  std::set<std::string> starts;
  return p.min == 0 && !start_set(once, starts);
}

std::string generator::first_name(const particle& p) {
  if (p.what == particle::kind::element) return p.element->name.local;
  if (p.what == particle::kind::any || p.group->particles.empty()) return "any";
  return first_name(p.group->particles[0]);
}

bool generator::start_set(const particle& p, std::set<std::string>& out) {
  bool empty = p.min == 0;
  if (p.what == particle::kind::element) {
    std::vector<const element_decl*> all;
    substitutable(*p.element, all);
    for (const element_decl* e : all) out.insert(e->name.str());
  } else if (p.what == particle::kind::any) {
    out.insert("*");
  } else if (p.group->kind == compositor::choice) {
    for (const particle& q : p.group->particles) empty = start_set(q, out) || empty;
  } else {
    bool all_empty = true;
    for (const particle& q : p.group->particles)
      if (!start_set(q, out)) {
        all_empty = false;
        break;
      }
    empty = empty || all_empty;
  }
  return empty;
}

void generator::plan_group_member(const particle& p, bool optional_ctx, struct_plan& s,
                                  std::set<std::string>& used) {
  if (encoded_struct(s) || !s.t)
    throw error(p.where,
                "a repeated or optional xs:sequence of several particles under "
                "rpc/encoded use is not generated yet");
  const complex_type* g = group_struct(s.t, p);
  const std::uint32_t min = optional_ctx ? 0 : p.min;
  field_plan f;
  f.xml_name = first_name(p);  // the element that usually begins it: matched first
  f.member = member_name(f.xml_name, s, used);
  f.deps_from = s.deps.size();
  const bool repeated = p.max > 1;
  const std::string v = value_type(g, s, !repeated, p.where);
  f.cpp_type = repeated ? "std::vector<" + v + ">" : "std::optional<" + v + ">";
  f.deps_to = s.deps.size();
  const particle* first = &p;
  while (first->what == particle::kind::group && !first->group->particles.empty())
    first = &first->group->particles[0];
  if (first->what == particle::kind::element) {
    f.source = first->element->name;
    f.modifiers = ns_modifier(first->element->name.ns, s.ns, false);
  }
  if (repeated) {
    if (min != 0) f.modifiers += ".min(" + std::to_string(min) + ")";
    if (p.max != unbounded) f.modifiers += ".max(" + std::to_string(p.max) + ")";
    f.sample = sample_items(f.member, min, "sample(x, depth + 1); ");
  }
  names_.push_back("  note: " + s.name + "::" + f.member + ": the " +
                   (repeated ? "repeated" : "optional") + " xs:sequence at " + p.where.str() +
                   (repeated ? ", a vector of inline groups (document order kept)"
                             : ", an optional inline group (all of it or none)"));
  s.fields.push_back(std::move(f));
}

bool generator::heads_substitution(const particle& p) {
  return p.what == particle::kind::element && !p.element->substitutes.empty();
}

/// `e` if it may appear, then every member of its substitution group, in schema order.
void generator::substitutable(const element_decl& e, std::vector<const element_decl*>& out) {
  if (!e.abstract) out.push_back(&e);
  for (const element_decl* sub : e.substitutes) substitutable(*sub, out);
}

/// A std::variant tagged by element over `alternatives` (occurring as `p` does): an xs:choice,
/// or an element that heads a substitutionGroup (a choice of the head and its members).
/// `name` names the member (else the alternatives' names joined).
void generator::plan_alternatives(const particle& p,
                                  const std::vector<const particle*>& alternatives,
                                  bool optional_ctx, struct_plan& s, std::set<std::string>& used,
                                  const std::string& name) {
  // An optional alternative makes the choice optional; a repeated one makes it a repeated
  // choice (a vector of alternatives: every valid instance reads, and a run of one
  // alternative writes valid XML; names.txt notes it).
  std::uint32_t min = p.min, max = p.max;
  // SOAP encoding (SOAP 1.1 section 5) has no choice: docs/wsdl2cpp.md says why none is made.
  if (encoded_struct(s))
    throw error(p.where, std::string(name.empty() ? "xs:choice"
                                                  : "an element that heads a substitutionGroup") +
                             " under rpc/encoded use is not generated (SOAP encoding has no "
                             "choice: its structs are accessors told apart by name)");
  // Each alternative: an element (of the type's namespace), or an inline group (a sequence, a
  // choice that is not one of elements, a wildcard, an element of another namespace).
  struct alternative {
    const element_decl* e = nullptr;
    const complex_type* group = nullptr;
    std::string first;  // the group's first element: its name in choice()
    std::set<std::string> starts;
    source_location where;
  };
  std::vector<alternative> alts;
  // (A substitution group's head, `name` given: its members are elements of the type's
  // namespace, as the choice's names are.)
  const bool choice = name.empty();
  const bool grouped =
      choice && std::any_of(alternatives.begin(), alternatives.end(),
                            [&](const particle* a) { return group_alternative(*a, s.ns); });
  for (const particle* a : alternatives) {
    if (a->min == 0) min = 0;
    if (a->max > 1 && max != unbounded) {
      max = unbounded;
      names_.push_back("  note: " + s.name + ": the xs:choice at " + p.where.str() +
                       " has a repeated alternative: a vector of alternatives");
    }
    if (choice && group_alternative(*a, s.ns)) {
      alternative x;
      x.group = group_struct(s.t, *a);
      x.first = first_name(*a);
      x.where = a->where;
      particle once = *a;
      once.min = once.max = 1;
      if (start_set(once, x.starts))
        throw error(a->where, "xs:choice alternative that may be empty is not generated yet");
      alts.push_back(std::move(x));
      continue;
    }
    std::vector<const element_decl*> members;
    substitutable(*a->element, members);
    for (const element_decl* e : members) {
      if (e->name.ns != s.ns)
        throw error(a->where, "substitution group member " + e->name.str() +
                                  " outside the type's namespace is not generated yet");
      alternative x;
      x.e = e;
      x.first = e->name.local;
      x.starts.insert(e->name.str());
      x.where = a->where;
      alts.push_back(std::move(x));
    }
  }
  if (alts.empty()) throw error(p.where, "substitution group without a non-abstract element");
  // Read by the element that begins each: two that may begin with the same one are refused
  // (a wildcard alternative takes only what no other alternative begins with).
  for (std::size_t i = 0; grouped && i < alts.size(); ++i)
    for (std::size_t j = i + 1; j < alts.size(); ++j)
      for (const std::string& n : alts[i].starts)
        if (n != "*" && alts[j].starts.count(n))
          throw error(p.where, "xs:choice alternatives at " + alts[i].where.str() + " and " +
                                   alts[j].where.str() + " may both begin with element " + n +
                                   ": not generated (ambiguous)");
  field_plan f;
  f.what = field_plan::kind::choice;
  f.deps_from = s.deps.size();
  std::string member;
  std::vector<std::string> types;
  // Alternatives are told apart by position (the binding's choice() is index based), so two
  // of the same C++ type stay distinct. A nillable alternative reads and writes xsi:nil.
  for (const alternative& x : alts) {
    if (x.group) {
      types.push_back(value_type(x.group, s, max <= 1, x.where));
    } else {
      // An element whose type has derived types: a polymorphic<B> alternative (xsi:type).
      const complex_type* holder = holder_base(*x.e, s);
      std::string v = value_type(x.e->type, s, max <= 1 && !holder, x.e->where);
      if (holder) {
        poly_roots_.insert(holder);
        f.holders.push_back(holder);
        v = "lather::polymorphic<" + v + ">";
      }
      types.push_back(x.e->nillable ? "lather::nillable<" + v + ">" : v);
    }
    f.alternatives.push_back(x.first);
    member += (member.empty() ? "" : "Or") + x.first;
  }
  f.deps_to = s.deps.size();
  std::string variant = "std::variant<";
  for (std::size_t i = 0; i < types.size(); ++i) variant += (i ? ", " : "") + types[i];
  variant += ">";
  bool optional = optional_ctx || min == 0;
  if (!name.empty()) member = name;
  f.member = member_name(member.size() > 60 ? alts[0].first + "Choice" : member, s, used);
  // An element alternative of a restricted simple type: its facets, as a member's.
  std::vector<facet_plan> alternative_facets;
  bool faceted = false;
  for (const alternative& x : alts) {
    facet_plan& fp = alternative_facets.emplace_back();
    if (x.e) fp = facets_of(x.e->type, nullptr, s.name + "::" + f.member + " (" + x.first + ")");
    faceted = faceted || !fp.empty();
  }
  if (faceted) f.alternative_facets = std::move(alternative_facets);
  auto sample_alternative = [&](const alternative& x, const std::string& v) {
    return x.group ? "sample(std::get<0>(" + v + "), depth + 1); "
                   : sample_first(*x.e, v, holder_base(*x.e, s) != nullptr);
  };
  if (max > 1) {
    f.cpp_type = "std::vector<" + variant + ">";
    if (min > 1 && !optional_ctx) f.modifiers += ".min(" + std::to_string(min) + ")";
    if (max != unbounded) f.modifiers += ".max(" + std::to_string(max) + ")";
    // The first alternative: a default-constructed variant holds it.
    f.sample = sample_items(f.member, optional ? 0 : min, sample_alternative(alts[0], "x"));
  } else {
    f.cpp_type = optional ? "std::optional<" + variant + ">" : variant;
    if (!optional) f.sample = sample_alternative(alts[0], "v." + f.member);
  }
  s.fields.push_back(std::move(f));
}

void generator::plan_particle(const particle& p, bool optional_ctx, struct_plan& s,
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
      // Its namespace constraint, checked on read (##targetNamespace: its schema's namespace).
      f.modifiers = namespaces_modifier(p.any, s.ns);
      std::string any = "x.xml = " + quote(sample_any(p.any)) + "; ";
      // A strict wildcard that no declared element fits stays empty when it may.
      bool unfit =
          p.any.process_contents == wildcard::process::strict && declared_any(p.any).empty();
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
  // (An optional one under rpc/encoded use: flattened, its elements optional.)
  if (group_sequence(p) && (p.max > 1 || (s.t && !encoded_struct(s))))
    return plan_group_member(p, optional_ctx, s, used);
  for (const particle& q : g.particles) plan_particle(q, optional_ctx || p.min == 0, s, used);
}

/// A wildcard's .namespaces(...) modifier ("" for ##any): its tokens as written, one space apart.
/// Its ##targetNamespace and ##other name the target namespace of the schema it is written in,
/// which the binding takes from the field's namespace: when an attributeGroup or group of
/// another schema brings it into a type of namespace `owner_ns`, .in_namespace(its own) first.
std::string generator::namespaces_modifier(const wildcard& w, const std::string& owner_ns) {
  std::string constraint;
  bool relative = false;
  for (const std::string& token : split_tokens(w.namespaces)) {
    constraint += (constraint.empty() ? "" : " ") + token;
    relative = relative || token == "##targetNamespace" || token == "##other";
  }
  if (constraint.empty() || constraint == "##any") return "";
  return (relative && w.tns != owner_ns ? ".in_namespace(" + quote(w.tns) + ")" : "") +
         ".namespaces(" + quote(constraint) + ")";
}

/// xs:anyAttribute of `t` (its attributeGroups' included): a lather::bind::any_attributes
/// member, written last of the attributes. A C++ hierarchy has one: an extension whose base
/// has one already leaves the attributes to it (XSD's wildcard is then the union of the two;
/// the base's constraint is kept, noted in names.txt). A restriction has its own wildcard only,
/// as XSD has it.
void generator::plan_any_attribute(const wildcard& w, struct_plan& s, std::set<std::string>& used) {
  const std::string written = namespaces_modifier(w, s.ns);
  for (const complex_type* b = s.base; b; b = structs_[struct_index_.at(b)].base)
    for (const field_plan& f : structs_[struct_index_.at(b)].fields)
      if (f.what == field_plan::kind::any_attribute) {
        if (f.modifiers != written)
          names_.push_back("  note: " + s.name + ": the attributes of its xs:anyAttribute at " +
                           w.where.str() + " go to its base's " +
                           structs_[struct_index_.at(b)].name + "::" + f.member +
                           ", with the base's namespace constraint");
        return;
      }
  field_plan f;
  f.what = field_plan::kind::any_attribute;
  f.member = member_name("anyAttribute", s, used);
  f.cpp_type = "lather::bind::any_attributes";
  f.modifiers = written;
  names_.push_back("  member " + s.name + "::" + f.member + " <- anyAttribute namespace=\"" +
                   w.namespaces + "\"" +
                   (w.tns != s.ns && written.starts_with(".in_namespace(")
                        ? " of schema " + (w.tns.empty() ? "(no namespace)" : w.tns)
                        : ""));
  s.fields.push_back(std::move(f));
}

/// Attribute uses in effect: a restriction inherits the base's unless it changes or
/// prohibits them.
std::vector<attribute_use> generator::effective_attributes(const complex_type& t) {
  std::vector<attribute_use> out;
  if (t.derived == complex_type::derivation::restriction && t.base->kind == type_kind::complex &&
      !t.base->builtin)
    out = effective_attributes(*static_cast<const complex_type*>(t.base));
  for (const attribute_use& a : t.attributes) {
    auto same = std::find_if(out.begin(), out.end(),
                             [&](const attribute_use& b) { return b.decl->name == a.decl->name; });
    if (same != out.end()) out.erase(same);
    if (a.use != attribute_use::use::prohibited) out.push_back(a);
  }
  return out;
}

/// An rpc message: one unqualified accessor per body part, in message order.
void generator::plan_message(struct_plan& s) {
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
    // An rpc/encoded part's facets (an rpc/literal message's parts take none yet).
    if (s.encoded) f.facets = facets_of(t, nullptr, s.name + "::" + f.member);
    f.sample = sample_of(t, "v." + f.member);
    s.fields.push_back(std::move(f));
  }
}

void generator::plan_struct(struct_plan& s) {
  if (s.planned) {
    if (!s.refused.empty()) throw error({}, s.refused);
    return;
  }
  s.planned = true;
  // Planning a base first must not change this struct's encoding.
  struct restore {
    bool& flag;
    bool saved;
    ~restore() { flag = saved; }
  } keep{sample_encoded_, sample_encoded_};
  sample_encoded_ = encoded_struct(s);
  try {
    if (s.msg) return plan_message(s);
    plan_type(s);
  } catch (const error& e) {
    s.refused = e.what();
    throw;
  }
}

void generator::plan_type(struct_plan& s) {
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
    // Members of the bases stay visible (and bind tables find them by name, offsetof): keep
    // their names out of this struct's.
    for (const complex_type* b = s.base; b; b = structs_[struct_index_.at(b)].base)
      for (const field_plan& f : structs_[struct_index_.at(b)].fields) used.insert(f.member);
  }
  if (t.content_kind == complex_type::content::simple && !extends) {
    field_plan f;
    f.what = field_plan::kind::text;
    f.member = member_name("value", s, used);
    f.cpp_type = simple_cpp(t.text_type, s);
    f.facets = facets_of(t.text_type, &t.text_facets, s.name + "::" + f.member);
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
    f.facets = facets_of(a.decl->type, nullptr, s.name + "::" + f.member);
    const std::optional<std::string>& dflt = a.default_value         ? a.default_value
                                             : a.fixed_value         ? a.fixed_value
                                             : a.decl->default_value ? a.decl->default_value
                                                                     : a.decl->fixed_value;
    const std::optional<std::string>& fixed = a.fixed_value ? a.fixed_value : a.decl->fixed_value;
    if (a.use == attribute_use::use::required) {
      f.cpp_type = v;
      f.modifiers += ".required()";
      f.sample = sample_of(a.decl->type, "v." + f.member, fixed.value_or(""));
      if (fixed) f.initializer = initializer_of(a.decl->type, *fixed);
    } else if (dflt) {
      f.cpp_type = v;
      f.modifiers += ".default_value(" + quote(*dflt) + ")";
      f.facets.default_value = dflt;
      f.sample = sample_of(a.decl->type, "v." + f.member, *dflt);
      f.initializer = initializer_of(a.decl->type, *dflt);
    } else {
      f.cpp_type = "std::optional<" + v + ">";
    }
    s.fields.push_back(std::move(f));
  }
  if (t.any_attribute && !encoded_struct(s)) plan_any_attribute(*t.any_attribute, s, used);
  for (const field_plan& f : s.fields)
    if (!f.xml_name.empty() && f.member != f.xml_name)
      names_.push_back("  member " + s.name + "::" + f.member + " <- " +
                       (f.what == field_plan::kind::attribute ? "attribute " : "element ") +
                       f.source.str());
  if (o_.keep_unknown && t.content_kind == complex_type::content::element_only &&
      !encoded_struct(s) && !s.group && !keeps_unknown(s.base)) {
    field_plan f;
    f.what = field_plan::kind::unknown;
    f.member = member_name("unknown_elements", s, used);
    f.cpp_type = "lather::bind::unknown_elements";
    names_.push_back("  member " + s.name + "::" + f.member +
                     " <- the child elements the type does not declare (--keep-unknown)");
    s.fields.push_back(std::move(f));
  }
}

bool generator::keeps_unknown(const complex_type* c) const {
  for (; c != nullptr; c = structs_[struct_index_.at(c)].base)
    for (const field_plan& f : structs_[struct_index_.at(c)].fields)
      if (f.what == field_plan::kind::unknown) return true;
  return false;
}

}  // namespace lather::wsdl::detail
