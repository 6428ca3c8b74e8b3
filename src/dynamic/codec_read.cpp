// value_reader: the XML of an element as a value of its declared type, problems collected;
// references: the multi-ref values of an encoded message.
#include "codec_value.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <unordered_map>

#include "lather/soap/capture.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/style.hpp"
#include "lather/wsdl/sample.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"
#include "simple.hpp"

namespace lather::dynamic::detail {

using namespace lather::wsdl;

namespace {

constexpr std::string_view soapenc12 = soap::soap12_encoding_ns;

// The id of the current element: SOAP 1.1's unqualified id or SOAP 1.2's enc:id.
const xml::attribute* id_attribute(const xml::reader& r) {
  if (const xml::attribute* id = r.find_attribute("", "id")) return id;
  return r.find_attribute(soapenc12, "id");
}

}  // namespace

references::references(std::string_view envelope) : envelope_(envelope) {
  xml::reader r;
  r.reset(envelope);
  soap::namespace_scope scope;
  struct open {
    std::uint32_t depth;
    target* t;
  };
  std::vector<open> open_ids;
  target* ended = nullptr;  // its end is where the next token starts
  for (xml::token t = r.next(); t != xml::token::end_document && t != xml::token::error;
       t = r.next()) {
    if (ended) ended->end = static_cast<std::size_t>(r.where().offset), ended = nullptr;
    if (t == xml::token::start_element) {
      const xml::attribute* id = id_attribute(r);
      if (id) {
        auto [it, fresh] = ids_.try_emplace(std::string(id->value));
        if (!fresh) {
          duplicates_.emplace_back(id->value);
        } else {
          const auto in_scope = scope.bindings();
          it->second.scope.assign(in_scope.begin(), in_scope.end());
          it->second.begin = static_cast<std::size_t>(r.where().offset);
          open_ids.push_back({r.depth(), &it->second});
        }
      }
      scope.push(r);
    } else if (t == xml::token::end_element) {
      scope.pop();
      if (!open_ids.empty() && open_ids.back().depth == r.depth()) {
        ended = open_ids.back().t;
        open_ids.pop_back();
      }
    }
  }
  if (ended) ended->end = envelope.size();
}

const references::target* references::find(std::string_view id) const {
  auto it = ids_.find(std::string(id));
  return it == ids_.end() || it->second.end == 0 ? nullptr : &it->second;
}

/// The element as a document of its own: a wrapper declaring what was in scope, around it.
std::string references::document(const target& t) const {
  xml::output out;
  xml::writer w{out};
  std::vector<std::string_view> declared;
  for (auto b = t.scope.rbegin(); b != t.scope.rend(); ++b) {  // innermost wins
    if (b->prefix == "xml" || b->prefix == "xmlns" ||
        std::find(declared.begin(), declared.end(), b->prefix) != declared.end())
      continue;
    declared.push_back(b->prefix);
    w.declare_namespace(b->prefix, b->uri);
  }
  w.start_element("", "_");
  w.raw(envelope_.substr(t.begin, t.end - t.begin));
  w.end_element();
  w.end_document();
  return std::string(out.view());
}

// The reader is on the element's start tag; leaves it on its end tag.
value value_reader::element(const type& declared, const std::string& path, bool nillable) {
  const std::size_t mark = scope_.size();
  for (const xml::namespace_declaration& d : r_.namespace_declarations())
    scope_.push_back({std::string(d.prefix), std::string(d.uri)});
  value v = element_in_scope(declared, path, nillable);
  scope_.resize(mark);
  return v;
}

void value_reader::problem(const std::string& path, const std::string& what) {
  problems_.push_back(path + ": " + what);
}

value value_reader::element_in_scope(const type& declared, const std::string& path, bool nillable) {
  if (const xml::attribute* nil = r_.find_attribute(xsi, "nil");
      nil && (nil->value == "true" || nil->value == "1")) {
    if (!nillable) problem(path, "xsi:nil on an element that is not nillable");
    skip();
    return nullptr;
  }
  const type* t = &declared;
  std::string derived_name;
  const type* by_xsi_type = nullptr;  // the type an xsi:type names
  std::string unknown_type;           // an xsi:type the contract does not define
  if (const xml::attribute* xt = r_.find_attribute(xsi, "type")) {
    const type* named = resolve_type(xt->value);
    by_xsi_type = named;
    if (!named) unknown_type = std::string(xt->value);
    // A base of the declared type (soapenc:Array for an ArrayOfT) says less than the schema.
    if (named && !named->anonymous() &&
        tm_.derived(*named, "{" + declared.name.ns + "}" + declared.name.local))
      named = nullptr;
    if (named && declared.kind == type_kind::simple) {
      // A simple accessor is read as the schema declares it; its xsi:type must agree.
      if (std::string why = simple_type_mismatch(static_cast<const simple_type&>(declared), *named);
          !why.empty())
        problem(path, why);
      named = nullptr;
    }
    if (named) {
      if (named != &declared && !declared.builtin && !tm_.derived(declared, named->name.local))
        problem(path,
                "xsi:type " + named->name.local + " is not derived from " + type_label(declared));
      if (named != &declared && named->kind == type_kind::complex && !named->builtin)
        derived_name = named->name.local;
      t = named;
    }
  }
  // XSD: no element's type may be abstract (cvc-elt 4.3, cvc-type 2), checked where the
  // content is read (a reference's target has its own xsi:type). Read as it is all the same:
  // the value is returned with its problems.
  const auto abstract = [](const type* x) {
    return x && x->kind == type_kind::complex && static_cast<const complex_type*>(x)->abstract;
  };
  const auto concrete = [&] {
    // A subtype the server added (the typed bindings keep it as bind::unknown_subtype where
    // read_options::keep_unknown_subtypes): read as the declared type, its own content listed.
    if (!unknown_type.empty() && declared.kind == type_kind::complex && !declared.builtin)
      problem(path, "xsi:type " + unknown_type +
                        " names a type the contract does not define: read as " +
                        type_label(declared));
    else if (abstract(by_xsi_type))
      problem(path, "xsi:type " + type_label(*by_xsi_type) +
                        " names an abstract type: an element's type must be a concrete one");
    else if (abstract(t))
      problem(path, "the declared type " + type_label(declared) +
                        " is abstract: an xsi:type naming a concrete type is required");
  };
  // References exist only in encoded messages (refs_): a literal message's href attribute is
  // data of its schema.
  if (!refs_) {
    concrete();
    return content_of(*t, derived_name, path);
  }
  if (const xml::attribute* href = r_.find_attribute("", "href")) {
    if (!href->value.starts_with('#')) {
      problem(path, "href=\"" + std::string(href->value) + "\" is not a same-message reference");
      skip();
      return nullptr;
    }
    return referenced(declared, href->value.substr(1), path, false);
  }
  if (const xml::attribute* ref = r_.find_attribute(soapenc12, "ref"))
    return referenced(declared, ref->value, path, true);
  // An element with an id is being read: a reference to it from inside is a cycle.
  const xml::attribute* id = id_attribute(r_);
  const bool has_id = id != nullptr;
  if (has_id) resolving_.emplace_back(id->value);
  concrete();
  value v = content_of(*t, derived_name, path);
  if (has_id) resolving_.pop_back();
  return v;
}

value value_reader::content_of(const type& t, const std::string& derived_name,
                               const std::string& path) {
  if (t.kind == type_kind::simple) {
    const auto& st = static_cast<const simple_type&>(t);
    const std::string text = text_content(path);
    if (std::string why = invalid_reason(st, text); !why.empty()) problem(path, why);
    return typed(st, text);
  }
  const auto& ct = static_cast<const complex_type&>(t);
  value v = ct.builtin ? any_element(path) : complex(ct, path);
  if (!derived_name.empty() && v.is_object())
    v.members().insert(v.members().begin(), {std::string(type_key), value(derived_name)});
  return v;
}

// Why xsi:type `named` does not fit the simple type `declared` ("" when it does): the same
// built-in, or both integers (the value is checked against the declared range) or both
// floating point. SOAP-ENC's own types (soapenc:string, ...) are taken as their XSD ones.
std::string value_reader::simple_type_mismatch(const simple_type& declared, const type& named) {
  if (&named == &declared) return {};
  if (named.kind == type_kind::complex) {
    if (named.name.ns == soapenc || named.name.ns == soapenc12) return {};
    return "xsi:type " + type_label(named) + " is not a simple type (the schema says " +
           type_label(declared) + ")";
  }
  const simple_type* a = declared.builtin_base();
  const simple_type* b = static_cast<const simple_type&>(named).builtin_base();
  if (a == b || (category(a) == category(b) && category(a) != scalar::text)) return {};
  return "xsi:type " + type_label(named) + ", but the schema says " + type_label(declared);
}

// An accessor with href="#id" (SOAP 1.1) or enc:ref="id" (SOAP 1.2): the value of the
// element with that id, read as `declared`.
value value_reader::referenced(const type& declared, std::string_view id_view,
                               const std::string& path, bool soap12) {
  const std::string id(id_view);
  const std::string shown = soap12 ? "enc:ref=\"" + id + "\"" : "href=\"#" + id + "\"";
  if (r_.find_attribute(soapenc12, "id") || r_.find_attribute("", "id"))
    problem(path, shown + " beside an id (reference chains are not allowed)");
  if (soap12 && !r_.is_empty_element()) {
    bool content = false;
    for (xml::token t = next(); t != xml::token::end_element; t = next())
      if (t == xml::token::start_element) {
        content = true;
        r_.skip_element();
      } else if (t == xml::token::text && !trim(r_.text()).empty()) {
        content = true;
      }
    if (content) problem(path, shown + " on an element with content of its own");
  } else {
    skip();
  }
  const references::target* target = refs_ ? refs_->find(id) : nullptr;
  if (!target) {
    problem(path, shown + " names no element with that id");
    return nullptr;
  }
  if (std::find(resolving_.begin(), resolving_.end(), id) != resolving_.end()) {
    problem(path, shown + " refers to an element it is part of (a cycle)");
    return nullptr;
  }
  resolving_.push_back(id);
  xml::reader sub;
  const std::string doc = refs_->document(*target);
  sub.reset(doc);
  value v;
  if (sub.next() == xml::token::start_element) {
    xml::token t = sub.next();
    while (t == xml::token::text) t = sub.next();
    if (t == xml::token::start_element) {
      value_reader nested{tm_, sub, problems_, target->scope, refs_};
      nested.resolving_ = resolving_;
      v = nested.element(declared, path, true);
    }
  }
  resolving_.pop_back();
  return v;
}

void value_reader::skip() {
  if (!r_.is_empty_element())
    r_.skip_element();
  else
    r_.next();
}

xml::token value_reader::next() {
  const xml::token t = r_.next();
  if (t == xml::token::error) throw std::runtime_error(r_.error().message());
  return t;
}

const type* value_reader::resolve_type(std::string_view qname) {
  const auto colon = qname.find(':');
  const std::string_view prefix = colon == qname.npos ? "" : qname.substr(0, colon);
  const std::string_view local = colon == qname.npos ? qname : qname.substr(colon + 1);
  auto ns = r_.lookup_namespace(prefix);
  if (!ns) return nullptr;
  std::string uri(*ns);
  if (uri == "http://www.w3.org/1999/XMLSchema" || uri == "http://www.w3.org/2000/10/XMLSchema")
    uri = wsdl::xsd_ns;
  return tm_.model().find_type({uri, std::string(local)});
}

// Text up to the end tag; child elements are problems (and skipped).
std::string value_reader::text_content(const std::string& path) {
  std::string text;
  if (r_.is_empty_element()) {
    next();
    return text;
  }
  for (;;) {
    switch (next()) {
      case xml::token::text:
        text += r_.text();
        break;
      case xml::token::start_element:
        problem(path + "/" + std::string(r_.local_name()), "unexpected element in a simple value");
        r_.skip_element();
        break;
      case xml::token::end_element:
        return text;
      default:
        throw std::runtime_error("unexpected end of the document");
    }
  }
}

value value_reader::any_element(const std::string& path) {
  std::string text;
  value v = dynamic::object{};
  if (!r_.is_empty_element()) {
    for (xml::token t = next(); t != xml::token::end_element; t = next()) {
      if (t == xml::token::text)
        text += r_.text();
      else if (t == xml::token::start_element)
        v[any_key].push_back(soap::capture_element(r_, scope_));
      else
        throw std::runtime_error("unexpected end of the document at " + path);
    }
  } else {
    next();
  }
  if (v.members().empty()) return text;
  if (!trim(text).empty()) v[text_key] = text;
  return v;
}

value value_reader::complex(const complex_type& ct, const std::string& path) {
  const flat_type& f = tm_.flat(ct);
  value v = dynamic::object{};
  for (const xml::attribute& a : r_.attributes()) {
    if (a.ns == xsi || a.ns == soap::soap11_envelope_ns || a.ns == soap::soap12_envelope_ns ||
        a.ns == soapenc || a.ns == soapenc12 || a.ns == soap::xml_ns)
      continue;
    const field* x = f.find(a.local);
    if (!x || x->what != field::kind::attribute) {
      const bool multiref = a.ns.empty() && (a.local == "id" || a.local == "href");
      if (!ct.any_attribute && !multiref && !(ct.array && a.local == "arrayType"))
        problem(path + "/@" + std::string(a.local), "unexpected attribute");
      continue;
    }
    const simple_type& at = *x->attribute->decl->type;
    if (std::string why = invalid_reason(at, a.value); !why.empty())
      problem(path + "/@" + x->key, why);
    v[x->key] = typed(at, a.value);
  }
  std::string text;
  if (ct.array && ct.array->item) return array_items(ct, path);
  if (r_.is_empty_element()) {
    next();
  } else {
    for (xml::token t = next(); t != xml::token::end_element; t = next()) {
      if (t == xml::token::text) {
        text += r_.text();
        continue;
      }
      if (t != xml::token::start_element)
        throw std::runtime_error("unexpected end of the document at " + path);
      const std::string local(r_.local_name());
      const field* x = f.find(local);
      if (!x || x->what != field::kind::element) {
        if (const field* any = f.find(any_key)) {
          v[any->key].push_back(soap::capture_element(r_, scope_));
        } else {
          problem(path + "/" + local,
                  "unexpected element (" + type_label(ct) + " has no member " + local + ")");
          r_.skip_element();
        }
        continue;
      }
      const std::string sub = path + "/" + local;
      if (r_.ns() != x->element->name.ns)
        problem(sub, "namespace \"" + std::string(r_.ns()) + "\", expected \"" +
                         x->element->name.ns + "\"");
      value item = element(*x->element->type, sub, x->element->nillable);
      value& slot = v[x->key];
      if (x->repeated) {
        slot.push_back(std::move(item));
      } else {
        if (!slot.is_null()) problem(sub, "repeated, but maxOccurs is 1");
        slot = std::move(item);
      }
    }
  }
  if (const field* tf = f.find(text_key)) {
    if (tf->text && !text.empty()) {
      if (std::string why = invalid_reason(*tf->text, text); !why.empty()) problem(path, why);
      v[text_key] = typed(*tf->text, text);
    } else if (!text.empty()) {
      v[text_key] = text;
    }
  } else if (!trim(text).empty() && !ct.mixed) {
    problem(path, "text in element-only content");
  }
  for (const field& x : f.fields)
    if (x.required && !v.find(x.key) &&
        !(x.what == field::kind::attribute &&
          (x.attribute->default_value || x.attribute->decl->default_value ||
           x.attribute->fixed_value || x.attribute->decl->fixed_value)))
      problem(path + "/" + (x.what == field::kind::attribute ? "@" : "") + x.key, "missing");
  return v;
}

// The items of a SOAP-ENC array; when its arrayType ("T[2,3]") or SOAP 1.2 enc:arraySize
// ("2 3", "* 3") gives two or more sizes, nested arrays of them, row by row.
value value_reader::array_items(const complex_type& ct, const std::string& path) {
  std::vector<std::size_t> dims;  // 0 in front: "*", the first size left to the items
  std::string declared;
  bool bad = false;
  if (const xml::attribute* at = r_.find_attribute(soapenc, "arrayType")) {
    declared = "arrayType=\"" + std::string(at->value) + "\"";
    const std::string_view v = at->value;
    const auto open = v.rfind('[');
    const auto close = v.rfind(']');
    bad = open == v.npos || close == v.npos || close < open;
    std::string_view sizes = bad ? std::string_view{} : v.substr(open + 1, close - open - 1);
    while (!bad && !sizes.empty()) {
      const auto comma = sizes.find(',');
      bad = !parse_size(trim(sizes.substr(0, comma)), dims);
      sizes = comma == sizes.npos ? std::string_view{} : sizes.substr(comma + 1);
    }
  } else if (const xml::attribute* size = r_.find_attribute(soapenc12, "arraySize")) {
    declared = "enc:arraySize=\"" + std::string(size->value) + "\"";
    std::string_view sizes = size->value;
    for (auto token = first_token(sizes); !bad && !token.empty(); token = first_token(sizes))
      bad = !(token == "*" && dims.empty() ? (dims.push_back(0), true) : parse_size(token, dims));
  }
  if (bad) problem(path, declared + " is not a list of sizes");
  value items = dynamic::array{};
  const std::size_t rank = std::max<std::size_t>(dims.size(), 1);
  const auto item_path = [&](std::size_t i) {
    if (rank != 2 || dims[1] == 0) return path + "[" + std::to_string(i) + "]";
    return path + "[" + std::to_string(i / dims[1]) + "][" + std::to_string(i % dims[1]) + "]";
  };
  if (r_.is_empty_element()) {
    next();
  } else {
    for (xml::token t = next(); t != xml::token::end_element; t = next())
      if (t == xml::token::start_element)
        items.push_back(element(*ct.array->item, item_path(items.items().size()), true));
  }
  if (bad || dims.empty()) return items;
  std::size_t inner = 1;  // items per first-dimension entry
  for (std::size_t i = 1; i < dims.size(); ++i) inner *= dims[i];
  const std::size_t count = items.items().size();
  if (dims[0] == 0 && inner != 0 && count % inner == 0) dims[0] = count / inner;
  if (dims[0] * inner != count) {
    problem(path, declared + " says " + std::to_string(dims[0] * inner) + " items, " +
                      std::to_string(count) + " present");
    return items;
  }
  // Nest from the last dimension out: rows of dims.back(), then rows of those, ...
  for (std::size_t d = dims.size(); d-- > 1;) {
    value rows = dynamic::array{};
    const std::size_t width = dims[d];
    for (std::size_t i = 0; i < items.items().size(); i += width) {
      value row = dynamic::array{};
      for (std::size_t j = 0; j < width; ++j) row.push_back(std::move(items.items()[i + j]));
      rows.push_back(std::move(row));
    }
    items = std::move(rows);
  }
  return items;
}

bool value_reader::parse_size(std::string_view text, std::vector<std::size_t>& dims) {
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return false;
  dims.push_back(n);
  return true;
}

// The first whitespace-separated token of `text`, removed from it ("" at the end).
std::string_view value_reader::first_token(std::string_view& text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == text.npos) return text = {}, std::string_view{};
  const auto end = text.find_first_of(" \t\r\n", begin);
  const std::string_view token = text.substr(begin, end - begin);
  text = end == text.npos ? std::string_view{} : text.substr(end);
  return token;
}

}  // namespace lather::dynamic::detail
