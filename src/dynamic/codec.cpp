#include "codec.hpp"

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

constexpr std::string_view xsi = soap::xsi_ns;
constexpr std::string_view soapenc = soap::soap11_encoding_ns;
constexpr std::size_t max_sample_depth = 12;

// ------------------------------------------------------------------------------ writing

bool is_array_type(const type& t) {
  return t.kind == type_kind::complex && static_cast<const complex_type&>(t).array.has_value();
}

// Dimensions of a SOAP-ENC array type: wsdl:arrayType="T[,]" is 2 (rows of items, nested
// arrays in a value), "T[]" and "T[][]" (an array of arrays) 1.
std::size_t rank_of(const array_type& a) {
  const std::string_view d = a.dimensions;
  return static_cast<std::size_t>(std::count(d.begin(), d.begin() + d.find(']'), ',')) + 1;
}

class value_writer {
 public:
  value_writer(const type_model& tm, xml::writer& w, bool encoded)
      : tm_(tm), w_(w), encoded_(encoded) {}

  void element(const element_decl& e, const value& v, const std::string& path) {
    accessor(e.name.ns, e.name.local, *e.type, v, path, e.nillable || encoded_);
  }

  // An element {ns}local of type `t` holding `v`.
  void accessor(std::string_view ns, std::string_view local, const type& t, const value& v,
                const std::string& path, bool nillable) {
    w_.start_element(ns, local);
    if (v.is_null() && (nillable || !t.builtin || t.kind == type_kind::complex)) {
      if (nillable) {
        w_.attribute(xsi, "nil", "true");
        w_.end_element();
        return;
      }
    }
    content(t, v, path);
    w_.end_element();
  }

 private:
  void type_attribute(const type& t) {
    if (t.anonymous()) return;
    const std::string_view ns = t.builtin ? wsdl::xsd_ns : std::string_view(t.name.ns);
    std::string_view prefix = w_.prefix_for(ns);
    std::string v = prefix.empty() ? t.name.local : std::string(prefix) + ":" + t.name.local;
    w_.attribute(xsi, "type", v);
  }

  [[noreturn]] void mismatch(const std::string& path, const std::string& what) const {
    throw value_error(path + ": " + what);
  }

  void content(const type& declared, const value& v, const std::string& path) {
    const type* t = &declared;
    bool typed_explicitly = false;
    if (const value* name = v.find(type_key); name && name->is_string()) {
      t = tm_.derived(declared, name->as_string());
      if (!t)
        mismatch(path, "_type \"" + name->as_string() + "\" is not " + type_label(declared) +
                           " nor derived from it");
      typed_explicitly = t != &declared;
    } else if (!v.is_null() && declared.kind == type_kind::complex && !declared.builtin) {
      if (const type* c = tm_.concrete(declared); c && c != &declared) {
        t = c;
        typed_explicitly = true;
      }
    }
    if (t->kind == type_kind::simple) {
      const auto& st = static_cast<const simple_type&>(*t);
      if (encoded_) type_attribute(st);
      w_.text(lexical(st, v, path));
      return;
    }
    const auto& ct = static_cast<const complex_type&>(*t);
    if (ct.builtin) return any_content(v, path);
    if (encoded_ || typed_explicitly) type_attribute(ct);
    if (ct.array) return array_content(ct, v, path);
    const flat_type& f = tm_.flat(ct);
    const value* text = nullptr;
    value wrapped;
    if (!v.is_object()) {
      const field* tf = f.find(text_key);
      if (!tf || v.is_array())
        mismatch(path,
                 "expected an object (" + type_label(ct) + "), got " + std::string(v.type_name()));
      text = &v;
    } else {
      for (const auto& [key, item] : v.members())
        if (key != type_key && !f.find(key)) mismatch(path + "/" + key, unknown_member(f, ct));
    }
    for (const field& x : f.fields)
      if (x.what == field::kind::attribute) {
        const value* item = text ? nullptr : v.find(x.key);
        if (!item || item->is_null()) {
          if (x.required && !x.attribute->fixed_value && !x.attribute->decl->fixed_value)
            mismatch(path + "/@" + x.key, "missing (" + type_label(*x.attribute->decl->type) + ")");
          continue;
        }
        w_.attribute(x.attribute->decl->name.ns, x.key,
                     lexical(*x.attribute->decl->type, *item, path + "/@" + x.key));
      }
    for (const field& x : f.fields) {
      const value* item = text ? (x.what == field::kind::text ? text : nullptr) : v.find(x.key);
      switch (x.what) {
        case field::kind::attribute:
          break;
        case field::kind::text:
          if (item && x.text)
            w_.text(lexical(*x.text, *item, path));
          else if (item)
            w_.text(item->lexical());
          break;
        case field::kind::any:
          if (!item) break;
          if (item->is_array())
            for (const value& raw : item->items()) w_.raw(raw.lexical());
          else
            w_.raw(item->lexical());
          break;
        case field::kind::element: {
          const std::string sub = path + "/" + x.key;
          if (!item) {
            if (x.required)
              mismatch(sub,
                       "missing (" + type_label(*x.element->type) + (x.repeated ? "[]" : "") + ")");
            break;
          }
          if (item->is_array() && !is_array_type(*x.element->type)) {
            if (!x.repeated)
              mismatch(sub, "expected one " + type_label(*x.element->type) + ", got an array");
            for (std::size_t i = 0; i < item->items().size(); ++i)
              element(*x.element, item->items()[i], sub + "[" + std::to_string(i) + "]");
          } else if (!item->is_null() || x.element->nillable || !x.repeated) {
            element(*x.element, *item, sub);
          }
          break;
        }
      }
    }
  }

  std::string unknown_member(const flat_type& f, const complex_type& ct) const {
    std::string names;
    for (const field& x : f.fields)
      if (x.what == field::kind::element || x.what == field::kind::attribute)
        names += (names.empty() ? "" : ", ") + x.key;
    return "not a member of " + type_label(ct) + (names.empty() ? "" : " (members: " + names + ")");
  }

  // SOAP-ENC array: the items as <item>, arrayType="T[n]"; a rank-2 array (wsdl:arrayType
  // "T[,]") is an array of equally long rows, written row after row as "T[rows,columns]".
  void array_content(const complex_type& ct, const value& v, const std::string& path) {
    if (!v.is_array() && !v.is_null())
      mismatch(path,
               "expected an array (" + type_label(ct) + "), got " + std::string(v.type_name()));
    const type& item = *ct.array->item;
    const std::size_t rank = rank_of(*ct.array);
    std::vector<std::size_t> dims{v.is_array() ? v.items().size() : 0};
    if (rank == 2 && v.is_array()) {
      for (std::size_t r = 0; r < v.items().size(); ++r) {
        const value& row = v.items()[r];
        const std::string at = path + "[" + std::to_string(r) + "]";
        if (!row.is_array())
          mismatch(at, "expected a row (an array) of " + type_label(ct) + ", got " +
                           std::string(row.type_name()));
        if (r == 0) dims.push_back(row.items().size());
        if (row.items().size() != dims[1])
          mismatch(at, "has " + std::to_string(row.items().size()) + " items, row 0 has " +
                           std::to_string(dims[1]));
      }
      if (dims[0] == 0) dims.push_back(0);
    } else if (rank > 2) {
      mismatch(path, "arrays of " + std::to_string(rank) + " dimensions are not supported");
    }
    const std::string_view ns = item.builtin ? wsdl::xsd_ns : std::string_view(item.name.ns);
    std::string_view prefix = w_.prefix_for(ns);
    std::string type = (prefix.empty() ? "" : std::string(prefix) + ":") + item.name.local + "[";
    for (std::size_t i = 0; i < dims.size(); ++i) type += (i ? "," : "") + std::to_string(dims[i]);
    w_.attribute(soapenc, "arrayType", type + "]");
    if (dims.size() == 1) {
      for (std::size_t i = 0; i < dims[0]; ++i)
        accessor("", "item", item, v.items()[i], path + "[" + std::to_string(i) + "]", true);
      return;
    }
    for (std::size_t r = 0; r < dims[0]; ++r)
      for (std::size_t c = 0; c < dims[1]; ++c)
        accessor("", "item", item, v.items()[r].items()[c],
                 path + "[" + std::to_string(r) + "][" + std::to_string(c) + "]", true);
  }

  // anyType: text, raw XML (a string starting with '<'), or an object of text children.
  void any_content(const value& v, const std::string& path) {
    if (v.is_object()) {
      for (const auto& [key, item] : v.members()) {
        if (key == text_key) {
          w_.text(item.lexical());
        } else if (key == any_key) {
          if (item.is_array())
            for (const value& raw : item.items()) w_.raw(raw.lexical());
          else
            w_.raw(item.lexical());
        } else if (key != type_key) {
          w_.start_element("", key);
          any_content(item, path + "/" + key);
          w_.end_element();
        }
      }
      return;
    }
    if (v.is_array()) {
      for (const value& item : v.items()) any_content(item, path);
      return;
    }
    const std::string text = v.lexical();
    if (!text.empty() && text.front() == '<')
      w_.raw(text);
    else
      w_.text(text);
  }

  std::string lexical(const simple_type& t, const value& v, const std::string& path) const {
    if (v.is_array() || v.is_object())
      mismatch(path, "expected " + type_label(t) + ", got " + std::string(v.type_name()));
    if (v.is_null()) mismatch(path, "expected " + type_label(t) + ", got null");
    std::string text = v.lexical();
    if (v.type() == value::kind::number && category(t.builtin_base()) == scalar::integer)
      mismatch(path, text + " is not a valid " + type_label(*t.builtin_base()));
    if (std::string why = invalid_reason(t, text); !why.empty()) mismatch(path, why);
    return text;
  }

  const type_model& tm_;
  xml::writer& w_;
  bool encoded_;
};

// ------------------------------------------------------------------------------ reading

constexpr std::string_view soapenc12 = soap::soap12_encoding_ns;

// The id of the current element: SOAP 1.1's unqualified id or SOAP 1.2's enc:id.
const xml::attribute* id_attribute(const xml::reader& r) {
  if (const xml::attribute* id = r.find_attribute("", "id")) return id;
  return r.find_attribute(soapenc12, "id");
}

// Every element of an encoded message that carries an id (SOAP 1.1 multi-refs after the
// wrapper or in place, SOAP 1.2 enc:id anywhere), found in one pass: where it is in the
// envelope and the namespaces in scope at its parent. Looked up by hash; a reference reads
// that slice of the envelope, so nested ids cost nothing more.
class references {
 public:
  explicit references(std::string_view envelope) : envelope_(envelope) {
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

  struct target {
    std::size_t begin = 0, end = 0;  // the element in the envelope, start tag to end tag
    std::vector<soap::namespace_binding> scope;
  };
  const target* find(std::string_view id) const {
    auto it = ids_.find(std::string(id));
    return it == ids_.end() || it->second.end == 0 ? nullptr : &it->second;
  }
  /// The element as a document of its own: a wrapper declaring what was in scope, around it.
  std::string document(const target& t) const {
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
  std::span<const std::string> duplicates() const noexcept { return duplicates_; }

 private:
  std::string_view envelope_;
  std::unordered_map<std::string, target> ids_;
  std::vector<std::string> duplicates_;
};

class value_reader {
 public:
  /// `in_scope`: the namespace bindings in scope at the parent of the elements read (wildcard
  /// content is captured with them); `refs`: the message's multi-ref values (encoded).
  value_reader(const type_model& tm, xml::reader& r, std::vector<std::string>& problems,
               std::span<const soap::namespace_binding> in_scope = {},
               const references* refs = nullptr)
      : tm_(tm),
        r_(r),
        problems_(problems),
        scope_(in_scope.begin(), in_scope.end()),
        refs_(refs) {}

  // The reader is on the element's start tag; leaves it on its end tag.
  value element(const type& declared, const std::string& path, bool nillable) {
    const std::size_t mark = scope_.size();
    for (const xml::namespace_declaration& d : r_.namespace_declarations())
      scope_.push_back({std::string(d.prefix), std::string(d.uri)});
    value v = element_in_scope(declared, path, nillable);
    scope_.resize(mark);
    return v;
  }

  void problem(const std::string& path, const std::string& what) {
    problems_.push_back(path + ": " + what);
  }

 private:
  value element_in_scope(const type& declared, const std::string& path, bool nillable) {
    if (const xml::attribute* nil = r_.find_attribute(xsi, "nil");
        nil && (nil->value == "true" || nil->value == "1")) {
      if (!nillable) problem(path, "xsi:nil on an element that is not nillable");
      skip();
      return nullptr;
    }
    const type* t = &declared;
    std::string derived_name;
    if (const xml::attribute* xt = r_.find_attribute(xsi, "type")) {
      const type* named = resolve_type(xt->value);
      // A base of the declared type (soapenc:Array for an ArrayOfT) says less than the schema.
      if (named && !named->anonymous() &&
          tm_.derived(*named, "{" + declared.name.ns + "}" + declared.name.local))
        named = nullptr;
      if (named && declared.kind == type_kind::simple) {
        // A simple accessor is read as the schema declares it; its xsi:type must agree.
        if (std::string why =
                simple_type_mismatch(static_cast<const simple_type&>(declared), *named);
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
    // References exist only in encoded messages (refs_): a literal message's href attribute is
    // data of its schema.
    if (!refs_) return content_of(*t, derived_name, path);
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
    value v = content_of(*t, derived_name, path);
    if (has_id) resolving_.pop_back();
    return v;
  }

  value content_of(const type& t, const std::string& derived_name, const std::string& path) {
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
  static std::string simple_type_mismatch(const simple_type& declared, const type& named) {
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
  value referenced(const type& declared, std::string_view id_view, const std::string& path,
                   bool soap12) {
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

  void skip() {
    if (!r_.is_empty_element())
      r_.skip_element();
    else
      r_.next();
  }

  xml::token next() {
    const xml::token t = r_.next();
    if (t == xml::token::error) throw std::runtime_error(r_.error().message());
    return t;
  }

  const type* resolve_type(std::string_view qname) {
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
  std::string text_content(const std::string& path) {
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
          problem(path + "/" + std::string(r_.local_name()),
                  "unexpected element in a simple value");
          r_.skip_element();
          break;
        case xml::token::end_element:
          return text;
        default:
          throw std::runtime_error("unexpected end of the document");
      }
    }
  }

  value any_element(const std::string& path) {
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

  value complex(const complex_type& ct, const std::string& path) {
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
  value array_items(const complex_type& ct, const std::string& path) {
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

  static bool parse_size(std::string_view text, std::vector<std::size_t>& dims) {
    std::size_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return false;
    dims.push_back(n);
    return true;
  }

  // The first whitespace-separated token of `text`, removed from it ("" at the end).
  static std::string_view first_token(std::string_view& text) {
    const auto begin = text.find_first_not_of(" \t\r\n");
    if (begin == text.npos) return text = {}, std::string_view{};
    const auto end = text.find_first_of(" \t\r\n", begin);
    const std::string_view token = text.substr(begin, end - begin);
    text = end == text.npos ? std::string_view{} : text.substr(end);
    return token;
  }

  const type_model& tm_;
  xml::reader& r_;
  std::vector<std::string>& problems_;
  std::vector<soap::namespace_binding> scope_;  // declarations in scope, innermost last
  const references* refs_;
  std::vector<std::string> resolving_;  // the ids being read, in place or referenced (cycles)
};

// ------------------------------------------------------------------------------ samples

value sample_of(const type_model& tm, const type& declared, std::size_t depth);

value typed_fixed(const element_decl& e) {
  if (e.type->kind == type_kind::simple)
    return typed(static_cast<const simple_type&>(*e.type), *e.fixed_value);
  return *e.fixed_value;
}

value sample_any(const type_model& tm, const wildcard& w, std::size_t depth) {
  std::string_view ns = w.namespaces;
  if (ns == "##any" || ns == "##other")
    ns = "urn:lather:sample";
  else if (ns == "##local")
    ns = "";
  else if (ns.find(' ') != ns.npos)
    ns = ns.substr(0, ns.find(' '));
  if (ns == "##targetNamespace") return nullptr;
  if (w.process_contents == wildcard::process::strict) {
    const element_decl* e = tm.element_in(ns);
    if (!e || depth > max_sample_depth) return nullptr;
    xml::output out;
    xml::writer w2{out};
    value_writer vw{tm, w2, false};
    vw.element(*e, sample_of(tm, *e->type, depth + 1), "");
    w2.end_document();
    return std::string(out.view());
  }
  return "<sample xmlns=\"" + std::string(ns) + "\">string</sample>";
}

value sample_of(const type_model& tm, const type& declared, std::size_t depth) {
  const type* t = tm.concrete(declared);
  if (!t) t = &declared;
  if (t->kind == type_kind::simple) {
    const auto& st = static_cast<const simple_type&>(*t);
    return typed(st, sample_value(st));
  }
  const auto& ct = static_cast<const complex_type&>(*t);
  if (ct.builtin) return "string";
  if (ct.array) {
    value items = dynamic::array{};
    if (ct.array->item && depth < max_sample_depth)
      items.push_back(sample_of(tm, *ct.array->item, depth + 1));
    if (rank_of(*ct.array) == 2) {  // one row of one item
      value rows = dynamic::array{};
      rows.push_back(std::move(items));
      return rows;
    }
    return items;
  }
  value v = dynamic::object{};
  if (t != &declared) v[type_key] = t->name.local;
  if (depth > max_sample_depth) return v;
  for (const field& x : tm.flat(ct).fields) {
    if (!x.sample) continue;
    value item;
    switch (x.what) {
      case field::kind::attribute:
        item = x.attribute->fixed_value ? value(*x.attribute->fixed_value)
               : x.attribute->decl->fixed_value
                   ? value(*x.attribute->decl->fixed_value)
                   : sample_of(tm, *x.attribute->decl->type, depth + 1);
        break;
      case field::kind::text:
        item = x.text ? typed(*x.text, sample_value(*x.text, *x.text_facets)) : value("string");
        break;
      case field::kind::any:
        item = sample_any(tm, *x.any, depth);
        if (item.is_null()) continue;
        break;
      case field::kind::element:
        item = x.element->fixed_value ? typed_fixed(*x.element)
                                      : sample_of(tm, *x.element->type, depth + 1);
        break;
    }
    if (x.repeated && x.what == field::kind::element) {
      value one = dynamic::array{};
      one.push_back(std::move(item));
      item = std::move(one);
    }
    v[x.key] = std::move(item);
  }
  return v;
}

}  // namespace

// ------------------------------------------------------------------------------ messages

message_shape shape_of(const operation_info& op, bool output) {
  message_shape m;
  const binding_operation& bo = *op.op;
  m.msg = output ? bo.op->output : bo.op->input;
  const binding_message& bm = output ? bo.output : bo.input;
  m.rpc = op.rpc;
  m.encoded = bm.body && bm.body->use == body_use::encoded;
  m.rpc_ns = bm.body ? bm.body->ns : std::string();
  m.rpc_name = output ? soap::response_name(op.name) : op.name;
  for (const soap_header& h : bm.headers)
    if (h.part) m.headers.push_back(&h);
  if (!m.msg) return m;
  if (bm.body && bm.body->parts) {
    for (const std::string& name : *bm.body->parts)
      if (const part* p = m.msg->find_part(name)) m.body.push_back(p);
    return m;
  }
  for (const part& p : m.msg->parts) {
    const bool in_header =
        std::any_of(m.headers.begin(), m.headers.end(),
                    [&](const soap_header* h) { return h->msg == m.msg && h->part == &p; });
    if (!in_header) m.body.push_back(&p);
  }
  return m;
}

namespace {

const type& part_type(const part& p) {
  return p.element ? *p.element->type : *p.type;
}

std::string member_label(std::string_view key, bool optional, const type& t, bool repeated) {
  return std::string(key) + (optional ? "?" : "") + ": " + type_label(t) + (repeated ? "[]" : "");
}

std::string fields_signature(const type_model& tm, const type& t) {
  if (t.kind != type_kind::complex || t.builtin) return {};
  std::string out;
  for (const field& x : tm.flat(static_cast<const complex_type&>(t)).fields) {
    std::string one;
    if (x.what == field::kind::element)
      one = member_label(x.key, !x.required, *x.element->type, x.repeated);
    else if (x.what == field::kind::attribute)
      one = member_label(x.key, !x.required, *x.attribute->decl->type, false);
    else if (x.what == field::kind::any)
      one = std::string(any_key) + "?: xml[]";
    else
      one = std::string(text_key) + ": " + (x.text ? type_label(*x.text) : "xsd:string");
    out += (out.empty() ? "" : ", ") + one;
  }
  return out;
}

}  // namespace

std::string signature(const type_model& tm, const message_shape& m) {
  std::string out;
  if (m.single() && m.body.front()->element)
    out = fields_signature(tm, *m.body.front()->element->type);
  if (out.empty() && !(m.single() && m.body.front()->element &&
                       m.body.front()->element->type->kind == type_kind::complex)) {
    for (const part* p : m.body)
      out += (out.empty() ? "" : ", ") + member_label(p->name, false, part_type(*p), false);
  }
  std::string headers;
  for (const soap_header* h : m.headers)
    headers += (headers.empty() ? "" : ", ") +
               member_label(h->part->name, !h->required, part_type(*h->part), false);
  if (!headers.empty())
    out += (out.empty() ? "" : ", ") + std::string("_soapheaders={") + headers + "}";
  return out;
}

namespace {

// value_error for the first member of `object` not named in `names`.
void reject_unknown_members(const value& object, const std::vector<std::string_view>& names,
                            const std::string& path, const std::string& why) {
  if (!object.is_object()) return;
  for (const member& m : object.members())
    if (std::find(names.begin(), names.end(), m.first) == names.end())
      throw value_error(path + "/" + m.first + ": " + why);
}

}  // namespace

std::string write_message(const type_model& tm, const operation_info& op, bool output,
                          const value& body, const value& headers, soap::version v,
                          const std::function<void(xml::writer&)>& more_headers) {
  const message_shape m = shape_of(op, output);
  // One output and writer per thread, reused: a call allocates no buffers once warm.
  thread_local xml::output out;
  thread_local xml::writer w{out};
  out.clear();
  w.reset();
  soap::envelope_writer env{w, v};
  soap::envelope_write_options eo;
  eo.encoded = m.encoded;
  env.begin(eo);
  value_writer vw{tm, w, m.encoded};
  if (!headers.is_null()) {
    if (!headers.is_object()) throw value_error("headers: expected an object of header parts");
    std::vector<std::string_view> names;
    for (const soap_header* h : m.headers) names.push_back(h->part->name);
    reject_unknown_members(headers, names, "headers", "not a header part of " + op.name);
  }
  bool header_open = false;
  for (const soap_header* h : m.headers) {
    const value* item = headers.find(h->part->name);
    if (!item) {
      if (h->required) throw value_error("headers/" + h->part->name + ": missing (required)");
      continue;
    }
    if (!header_open) env.begin_header(), header_open = true;
    const bool encoded = h->use == body_use::encoded;
    value_writer hw{tm, w, encoded};
    if (h->part->element)
      hw.element(*h->part->element, *item, "headers/" + h->part->name);
    else
      hw.accessor(h->ns, h->part->name, *h->part->type, *item, "headers/" + h->part->name, true);
  }
  if (more_headers) {
    if (!header_open) env.begin_header();
    more_headers(w);
  }
  env.begin_body();
  auto write_part = [&](const part& p, const value& item, const std::string& path) {
    if (p.element)
      vw.element(*p.element, item, path);
    else
      vw.accessor("", p.name, *p.type, item, path, m.encoded);
  };
  if (m.rpc) {
    soap::write_rpc_start(w, v, m.encoded ? soap::style::rpc_encoded : soap::style::rpc_literal,
                          m.rpc_ns, m.rpc_name);
    const std::string path = "/" + m.rpc_name;
    if (!body.is_null() && !body.is_object())
      throw value_error(path + ": expected an object of the parts, got " +
                        std::string(body.type_name()));
    std::vector<std::string_view> names;
    for (const part* p : m.body) names.push_back(p->name);
    reject_unknown_members(body, names, path, "not a part of " + m.rpc_name);
    for (const part* p : m.body) {
      const value* item = body.find(p->name);
      if (!item)
        throw value_error(path + "/" + p->name + ": missing (" + type_label(part_type(*p)) + ")");
      write_part(*p, *item, path + "/" + p->name);
    }
    w.end_element();
  } else if (m.single()) {
    const part& p = *m.body.front();
    write_part(p, body, "/" + (p.element ? p.element->name.local : p.name));
  } else {
    for (const part* p : m.body) {
      const value* item = body.find(p->name);
      if (!item) throw value_error("/" + p->name + ": missing (" + type_label(part_type(*p)) + ")");
      write_part(*p, *item, "/" + p->name);
    }
  }
  env.end();
  return std::string(out.view());
}

namespace {

value read_detail(const type_model& tm, const operation_info& op, const soap::fault& f,
                  std::vector<std::string>& problems) {
  value detail;
  f.read_detail([&](xml::reader& r) {
    for (const wsdl::fault& decl : op.op->op->faults)
      if (decl.msg)
        for (const part& p : decl.msg->parts)
          if (p.element && r.is(p.element->name.ns, p.element->name.local)) {
            value_reader vr{tm, r, problems};
            detail[p.element->name.local] = vr.element(
                *p.element->type, "/Fault/detail/" + p.element->name.local, p.element->nillable);
            return;
          }
    detail[any_key].push_back(soap::capture_element(r, {}));
  });
  return detail;
}

}  // namespace

call_result read_message(const type_model& tm, const operation_info& op, bool output,
                         std::string_view envelope) {
  const message_shape m = shape_of(op, output);
  call_result result;
  result.envelope = std::string(envelope);
  thread_local xml::reader r;  // reused: its buffers stay allocated
  r.reset(result.envelope);
  soap::envelope_options eo;
  eo.on_header = [&](const soap::header_info& h, xml::reader& hr) {
    for (const soap_header* sh : m.headers) {
      const part& p = *sh->part;
      if (p.element ? h.is(p.element->name.ns, p.element->name.local) : h.local == p.name) {
        value_reader vr{tm, hr, result.problems};
        result.headers[p.name] =
            vr.element(part_type(p), "/Envelope/Header/" + std::string(h.local),
                       p.element && p.element->nillable);
        return soap::header_use::consumed;
      }
    }
    return soap::header_use::understood;
  };
  soap::envelope_reader env{r, std::move(eo)};
  env.begin();
  if (env.at_body_element() && env.at_fault()) {
    soap::fault f = soap::read_fault(r, env.ver(), env.body_namespaces());
    value detail = read_detail(tm, op, f, result.problems);
    throw fault_error(std::move(f), std::move(detail));
  }
  std::optional<references> refs;
  if (m.encoded) {
    refs.emplace(result.envelope);
    for (const std::string& id : refs->duplicates())
      result.problems.push_back("/Envelope: id \"" + id + "\" is on more than one element");
  }
  value_reader vr{tm, r, result.problems, env.body_namespaces(), refs ? &*refs : nullptr};
  const std::string body_path = "/Envelope/Body";
  if (!env.at_body_element()) {
    if (!m.body.empty() || m.rpc)
      vr.problem(body_path, "empty, expected " + (m.rpc ? m.rpc_name : m.body.front()->name));
    env.finish();
    return result;
  }
  if (m.rpc) {
    const std::string path = body_path + "/" + std::string(r.local_name());
    if ((!m.rpc_ns.empty() && r.ns() != m.rpc_ns) ||
        (r.local_name() != m.rpc_name && !(m.encoded && output)))
      vr.problem(path, "expected the wrapper {" + m.rpc_ns + "}" + m.rpc_name);
    result.body = dynamic::object{};
    soap::rpc_reader parts{r};
    while (parts.next()) {
      const std::string name(parts.name());
      auto it = std::find_if(m.body.begin(), m.body.end(),
                             [&](const part* p) { return p->name == name; });
      if (it == m.body.end()) {
        vr.problem(path + "/" + name, "not a part of " + m.rpc_name);
        r.skip_element();
        continue;
      }
      result.body[name] = vr.element(part_type(**it), path + "/" + name, true);
    }
    for (const part* p : m.body)
      if (!result.body.find(p->name)) vr.problem(path + "/" + p->name, "missing");
    while (env.next_body_element()) r.skip_element();  // multi-ref values after the wrapper
  } else {
    bool more = true;
    std::size_t seen = 0;
    while (more) {
      const std::string name(r.local_name());
      auto it = std::find_if(m.body.begin(), m.body.end(), [&](const part* p) {
        return p->element ? r.is(p->element->name.ns, p->element->name.local) : name == p->name;
      });
      if (it == m.body.end()) {
        vr.problem(body_path + "/" + name, "not a body part of " + op.name);
        more = env.skip_body_element();
        continue;
      }
      ++seen;
      value item = vr.element(part_type(**it), body_path + "/" + name,
                              (*it)->element && (*it)->element->nillable);
      if (m.single())
        result.body = std::move(item);
      else
        result.body[(*it)->name] = std::move(item);
      more = env.next_body_element();
    }
    if (seen < m.body.size())
      for (const part* p : m.body)
        if (!m.single() && !result.body.find(p->name))
          vr.problem(body_path + "/" + p->name, "missing");
  }
  env.finish();
  return result;
}

wsdl::qname body_element(std::string_view envelope) {
  xml::reader r;
  r.reset(envelope);
  soap::envelope_options eo;
  eo.on_header = [](const soap::header_info&, xml::reader&) {
    return soap::header_use::understood;
  };
  soap::envelope_reader env{r, std::move(eo)};
  env.begin();
  if (!env.at_body_element()) return {};
  return {std::string(r.ns()), std::string(r.local_name())};
}

value sample_body(const type_model& tm, const message_shape& m) {
  if (m.single()) return sample_of(tm, part_type(*m.body.front()), 0);
  value v = dynamic::object{};
  for (const part* p : m.body) v[p->name] = sample_of(tm, part_type(*p), 0);
  return v;
}

value sample_headers(const type_model& tm, const message_shape& m) {
  value v;
  for (const soap_header* h : m.headers)
    if (h->required) v[h->part->name] = sample_of(tm, part_type(*h->part), 0);
  return v;
}

}  // namespace lather::dynamic::detail
