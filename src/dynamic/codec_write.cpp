// value_writer: a value as the XML of an element of its declared type (literal or SOAP-encoded).
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

#include "lather/dynamic/client.hpp"
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

bool is_array_type(const type& t) {
  return t.kind == type_kind::complex && static_cast<const complex_type&>(t).array.has_value();
}

}  // namespace

void value_writer::element(const element_decl& e, const value& v, const std::string& path) {
  accessor(e.name.ns, e.name.local, *e.type, v, path, e.nillable || encoded_);
}

// An element {ns}local of type `t` holding `v`.
void value_writer::accessor(std::string_view ns, std::string_view local, const type& t,
                            const value& v, const std::string& path, bool nillable) {
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

void value_writer::type_attribute(const type& t) {
  if (t.anonymous()) return;
  const std::string_view ns = t.builtin ? wsdl::xsd_ns : std::string_view(t.name.ns);
  std::string_view prefix = w_.prefix_for(ns);
  std::string v = prefix.empty() ? t.name.local : std::string(prefix) + ":" + t.name.local;
  w_.attribute(xsi, "type", v);
}

[[noreturn]] void value_writer::mismatch(const std::string& path, const std::string& what) const {
  throw value_error(path + ": " + what);
}

void value_writer::content(const type& declared, const value& v, const std::string& path) {
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

std::string value_writer::unknown_member(const flat_type& f, const complex_type& ct) const {
  std::string names;
  for (const field& x : f.fields)
    if (x.what == field::kind::element || x.what == field::kind::attribute)
      names += (names.empty() ? "" : ", ") + x.key;
  return "not a member of " + type_label(ct) + (names.empty() ? "" : " (members: " + names + ")");
}

// SOAP-ENC array: the items as <item>, arrayType="T[n]"; a rank-2 array (wsdl:arrayType
// "T[,]") is an array of equally long rows, written row after row as "T[rows,columns]".
void value_writer::array_content(const complex_type& ct, const value& v, const std::string& path) {
  if (!v.is_array() && !v.is_null())
    mismatch(path, "expected an array (" + type_label(ct) + "), got " + std::string(v.type_name()));
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
  for (std::size_t i = 0; i < dims.size(); ++i) {  // not `"," + to_string`: g++ 12 -Wrestrict
    if (i) type += ',';
    type += std::to_string(dims[i]);
  }
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
void value_writer::any_content(const value& v, const std::string& path) {
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

std::string value_writer::lexical(const simple_type& t, const value& v,
                                  const std::string& path) const {
  if (v.is_array() || v.is_object())
    mismatch(path, "expected " + type_label(t) + ", got " + std::string(v.type_name()));
  if (v.is_null()) mismatch(path, "expected " + type_label(t) + ", got null");
  std::string text = v.lexical();
  if (v.type() == value::kind::number && category(t.builtin_base()) == scalar::integer)
    mismatch(path, text + " is not a valid " + type_label(*t.builtin_base()));
  if (std::string why = invalid_reason(t, text); !why.empty()) mismatch(path, why);
  return text;
}

}  // namespace lather::dynamic::detail
