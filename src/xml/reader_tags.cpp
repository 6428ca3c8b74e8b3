// The XML reader's start tags: attributes and their values, namespace declarations, and the
// namespace bindings in scope (a stack, plus prefix -> newest binding by open addressing).
#include "reader_impl.hpp"

namespace lather::xml {

using namespace detail;  // the reader's private helpers: reader_chars.hpp, scan.hpp

inline std::int32_t reader::impl::find_slot(std::string_view prefix) const noexcept {
  return find_slot(prefix, hash_bytes(prefix));
}

inline std::int32_t reader::impl::find_slot(std::string_view prefix,
                                            std::uint32_t hash) const noexcept {
  if (slots.empty()) return -1;
  std::size_t mask = slots.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    const slot& s = slots[i];
    if (s.head < 0) return -1;
    const std::string_view bound = binding_prefix(bindings[s.key]);
    if (bound.size() == prefix.size() &&
        same_name_bytes(bound.data(), prefix.data(), prefix.size()))
      return static_cast<std::int32_t>(i);
  }
}

inline void reader::impl::place(const slot& s) {
  std::size_t mask = slots.size() - 1;
  std::size_t i = bindings[s.key].hash & mask;
  while (slots[i].head >= 0) i = (i + 1) & mask;
  slots[i] = s;
}

// Binds prefix (whose hash is `hash` and whose slot find_slot returned as `s`) to uri.
inline void reader::impl::push_binding(std::string_view prefix, std::string_view uri,
                                       std::uint32_t hash, std::int32_t s) {
  binding b;
  b.hash = hash;
  b.prefix_off = static_cast<std::uint32_t>(ns_chars.size());
  b.prefix_len = static_cast<std::uint32_t>(prefix.size());
  ns_chars.append(prefix.data(), prefix.size());
  b.uri_off = static_cast<std::uint32_t>(ns_chars.size());
  b.uri_len = static_cast<std::uint32_t>(uri.size());
  ns_chars.append(uri.data(), uri.size());
  auto index = static_cast<std::int32_t>(bindings.size());
  if (s >= 0) {
    b.prev = slots[static_cast<std::size_t>(s)].head;
    bindings.push_back(b);
    slots[static_cast<std::size_t>(s)].head = index;
    return;
  }
  b.prev = -1;
  bindings.push_back(b);
  if ((slots_used + 1) * 2 > slots.size()) {
    std::vector<slot> old;
    old.swap(slots);
    slots.assign(std::max<std::size_t>(16, old.size() * 2), slot{});
    for (const slot& o : old) {
      if (o.head >= 0) place(o);
    }
  }
  place(slot{index, static_cast<std::uint32_t>(index)});
  ++slots_used;
}

inline void reader::impl::pop_binding() {
  const binding& b = bindings.back();
  auto i = static_cast<std::size_t>(find_slot(binding_prefix(b), b.hash));
  slots[i].head = b.prev;
  if (b.prev < 0) {
    // Backward-shift deletion keeps probe chains intact without tombstones.
    std::size_t mask = slots.size() - 1;
    for (std::size_t j = (i + 1) & mask; slots[j].head >= 0; j = (j + 1) & mask) {
      std::size_t home = bindings[slots[j].key].hash & mask;
      bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (stays) continue;
      slots[i] = slots[j];
      i = j;
    }
    slots[i] = slot{};
    --slots_used;
  }
  ns_chars.truncate(b.prefix_off);
  bindings.pop_back();
}

// Resolves a prefix: uri (offset, length) or false if undeclared.
inline bool reader::impl::resolve(std::string_view prefix, std::uint32_t& off,
                                  std::uint32_t& len) const noexcept {
  if (prefix.size() == 3 && prefix == "xml") {
    off = builtin_xml_uri;
    len = 0;
    return true;
  }
  std::int32_t s = find_slot(prefix);
  if (s < 0) {
    off = len = 0;
    return prefix.empty();
  }
  const binding& b = bindings[static_cast<std::size_t>(slots[static_cast<std::size_t>(s)].head)];
  off = b.uri_off;
  len = b.uri_len;
  return true;
}

std::optional<std::string_view> reader::impl::lookup_namespace(
    std::string_view prefix) const noexcept {
  std::uint32_t off = 0, len = 0;
  if (prefix == "xmlns") return xmlns_ns_uri;
  if (!resolve(prefix, off, len)) return std::nullopt;
  return uri_view(off, len);
}

// Out of line: next() and next_simple_element() pop only after a complex element ends, and
// inlined (with pop_binding and find_slot) it made next_simple_element, the per-leaf path,
// ~19 instructions longer per leaf (callgrind, 100-item parse: -0.3 % in all this way).
[[gnu::noinline]] void reader::impl::pop_element() {
  const open_element& e = elements.back();
  while (bindings.size() > e.bindings_mark) pop_binding();
  if (!whole) names.truncate(e.name_off);
  elements.pop_back();
}

// Attribute value after the opening quote at p. On ok, q is past the closing quote.
inline st reader::impl::parse_attr_value(const char* p, const char* end, raw_attribute& a,
                                         const char*& q) {
  char quote = *p;
  const char* start = p + 1;
  const char* seg = start;
  const char* s = start;
  bool decoded = false;
  std::size_t out_start = values.size();
  auto limit_check = [&](const char* at) -> st {
    std::size_t produced = decoded ? values.size() - out_start : 0;
    if (produced + static_cast<std::uint64_t>(at - seg) > lim.max_attribute_length) {
      // produced <= max_attribute_length holds (checked after each decoded character)
      return fail(errc::limit_attribute_length, seg + (lim.max_attribute_length - produced));
    }
    return st::ok;
  };
  auto over_limit = [&] { return values.size() - out_start > lim.max_attribute_length; };
  auto begin_decoding = [&](const char* upto) {
    if (!decoded) {
      decoded = true;
      values.insert(values.end(), start, upto);
    } else {
      values.insert(values.end(), seg, upto);
    }
  };
  for (;;) {
    s = detail::find_attr_special(s, end, quote);
    if (limit_check(s) != st::ok) return st::fail;
    if (s == end) return st::more;
    char c = *s;
    if (c == quote) {
      if (decoded) {
        values.insert(values.end(), seg, s);
        a.value = nullptr;
        a.value_off = out_start;
        a.value_len = values.size() - out_start;
      } else {
        a.value = start;
        a.value_len = static_cast<std::size_t>(s - start);
      }
      q = s + 1;
      return st::ok;
    }
    switch (c) {
      case '<':
        return fail(errc::lt_in_attribute, s);
      case '&': {
        char buf[4];
        std::size_t n = 0;
        const char* after = nullptr;
        st r = decode_ref(s, end, after, buf, n);
        if (r != st::ok) return r;
        begin_decoding(s);
        values.insert(values.end(), buf, buf + n);
        if (over_limit()) return fail(errc::limit_attribute_length, s);
        s = seg = after;
        continue;
      }
      case '\t':
      case '\n':
        begin_decoding(s);
        values.push_back(' ');
        if (over_limit()) return fail(errc::limit_attribute_length, s);
        s = seg = s + 1;
        continue;
      case '\r':
        if (s + 1 == end) return st::more;
        begin_decoding(s);
        values.push_back(' ');
        if (over_limit()) return fail(errc::limit_attribute_length, s);
        s = seg = s + (s[1] == '\n' ? 2 : 1);
        continue;
      case '"':
      case '\'':
        ++s;  // the other quote character
        continue;
      default: {
        const char* after = nullptr;
        st r = check_unusual(s, end, after);
        if (r != st::ok) return r;
        s = after;
      }
    }
  }
}

st reader::impl::parse_start_tag(reader& r, const char* p, const char* end, const char*& q) {
  if (elements.size() >= lim.max_depth) return fail(errc::limit_depth, p);
  const char* name = p + 1;
  const char* s = nullptr;
  std::uint32_t prefix_len = 0;
  st res = scan_qname(name, end, s, prefix_len);
  if (res != st::ok) return res;
  const char* name_end = s;
  if (*s == '>' && !elements.empty()) {
    // Fast path, most elements of a SOAP body: "<p:name>" with its parent's prefix, so no
    // attributes or declarations to apply and the parent's namespace.
    const open_element& parent = elements.back();
    if (parent.prefix_len == prefix_len &&
        same_name_bytes(names_base() + parent.name_off, name, prefix_len)) {
      q = s + 1;
      push_element(r, {name, static_cast<std::size_t>(s - name)}, prefix_len, parent.uri_off,
                   parent.uri_len, static_cast<std::uint32_t>(bindings.size()), false);
      r.attributes_ = {};
      r.declarations_ = {};
      return st::ok;
    }
  }
  raw.clear();
  values.clear();
  bool empty = false;
  for (;;) {
    const char* ws = s;
    while (s != end && is_space(*s)) ++s;
    if (s == end) return st::more;
    if (*s == '>') {
      ++s;
      break;
    }
    if (*s == '/') {
      if (s + 1 == end) return st::more;
      if (s[1] != '>') return fail(errc::bad_syntax, s);
      s += 2;
      empty = true;
      break;
    }
    if (s == ws) return fail(errc::bad_syntax, s);
    if (raw.size() >= lim.max_attributes) return fail(errc::limit_attributes, s);
    raw_attribute a{};
    a.qname = s;
    const char* name_end = nullptr;
    res = scan_qname(s, end, name_end, a.prefix_len);
    if (res != st::ok) return res;
    a.qname_len = static_cast<std::uint32_t>(name_end - s);
    s = name_end;
    while (s != end && is_space(*s)) ++s;
    if (s == end) return st::more;
    if (*s != '=') return fail(errc::bad_syntax, s);
    ++s;
    while (s != end && is_space(*s)) ++s;
    if (s == end) return st::more;
    if (*s != '"' && *s != '\'') return fail(errc::bad_syntax, s);
    res = parse_attr_value(s, end, a, s);
    if (res != st::ok) return res;
    raw.push_back(a);
  }
  q = s;
  return finish_start_tag(r, name, name_end, prefix_len, empty);
}

// The whole tag has been read: apply its namespace declarations, resolve names, check
// attribute uniqueness, push the element and publish the token.
inline st reader::impl::finish_start_tag(reader& r, const char* name, const char* name_end,
                                         std::uint32_t prefix_len, bool empty) {
  auto mark = static_cast<std::uint32_t>(bindings.size());
  decls.clear();
  // 1. namespace declarations (before resolving anything on this tag)
  for (raw_attribute& a : raw) {
    std::string_view qn(a.qname, a.qname_len);
    bool is_default = qn == "xmlns";
    bool is_prefixed = a.prefix_len == 5 && same_name_bytes(a.qname, "xmlns", 5);
    if (!is_default && !is_prefixed) continue;
    std::string_view value = a.value ? std::string_view(a.value, a.value_len)
                                     : std::string_view(values.data() + a.value_off, a.value_len);
    std::string_view prefix =
        is_default ? std::string_view{} : qname_local(a.qname, a.qname_len, a.prefix_len);
    if (prefix.size() == 3 && prefix == "xml") {  // never bound: look through this tag's list
      for (const namespace_declaration& d : decls) {
        if (d.prefix == prefix) return fail(errc::duplicate_attribute, a.qname);
      }
      if (value != xml_ns_uri) return fail(errc::reserved_prefix, a.qname);
    } else {
      // A binding made on this tag (index >= mark) is a duplicate declaration.
      std::uint32_t hash = hash_bytes(prefix);
      std::int32_t slot_index = find_slot(prefix, hash);
      if (slot_index >= 0 &&
          slots[static_cast<std::size_t>(slot_index)].head >= static_cast<std::int32_t>(mark)) {
        return fail(errc::duplicate_attribute, a.qname);
      }
      if (prefix == "xmlns") return fail(errc::reserved_prefix, a.qname);
      if (value == xml_ns_uri || value == xmlns_ns_uri) {
        return fail(errc::reserved_prefix, a.qname);
      }
      if (!is_default && value.empty()) return fail(errc::empty_namespace_prefix, a.qname);
      if (bindings.size() >= lim.max_namespaces) return fail(errc::limit_namespaces, a.qname);
      push_binding(prefix, value, hash, slot_index);
    }
    // Views are fixed up below, once ns_chars stops growing; remember prefix identity now.
    decls.push_back({prefix, value});
    a.qname_len |= 0x80000000u;  // mark: declaration, not an attribute
  }
  // Fix declaration views into stable storage: the prefix is a view into the tag (valid
  // until the next call like other views); the uri into ns_chars or the constant.
  {
    std::size_t b = mark;
    for (namespace_declaration& d : decls) {
      if (d.prefix == "xml") {
        d.uri = xml_ns_uri;
      } else {
        d.uri = uri_view(bindings[b].uri_off, bindings[b].uri_len);
        ++b;
      }
    }
  }
  // 2. the element name
  std::string_view qname(name, static_cast<std::size_t>(name_end - name));
  std::string_view prefix = qname_prefix(name, prefix_len);
  if (prefix == "xmlns") return fail(errc::reserved_prefix, name);
  std::uint32_t uri_off = 0, uri_len = 0;
  const open_element* parent = elements.empty() ? nullptr : &elements.back();
  if (parent && bindings.size() == mark && parent->prefix_len == prefix_len &&
      same_name_bytes(names_base() + parent->name_off, name, prefix_len)) {
    // Same prefix as the parent and no declarations here: same namespace (the common case).
    uri_off = parent->uri_off;
    uri_len = parent->uri_len;
  } else if (!resolve(prefix, uri_off, uri_len)) {
    return fail(errc::undeclared_prefix, name);
  }
  // 3. attributes
  attrs.clear();
  for (const raw_attribute& a : raw) {
    if (a.qname_len & 0x80000000u) continue;
    std::string_view qn(a.qname, a.qname_len);
    attribute at;
    at.prefix = qname_prefix(a.qname, a.prefix_len);
    at.local = qname_local(a.qname, a.qname_len, a.prefix_len);
    at.value = a.value ? std::string_view(a.value, a.value_len)
                       : std::string_view(values.data() + a.value_off, a.value_len);
    if (a.prefix_len) {
      std::uint32_t off = 0, len = 0;
      if (!resolve(at.prefix, off, len)) return fail(errc::undeclared_prefix, a.qname);
      at.ns = uri_view(off, len);
    }
    attrs.push_back(at);
  }
  if (st d = check_duplicates(); d != st::ok) return d;
  push_element(r, qname, prefix_len, uri_off, uri_len, mark, empty);
  r.attributes_ = {attrs.data(), attrs.size()};
  r.declarations_ = {decls.data(), decls.size()};
  return st::ok;
}

// Pushes the element whose start tag was read and publishes the token (except attributes
// and declarations).
inline void reader::impl::push_element(reader& r, std::string_view qname, std::uint32_t prefix_len,
                                       std::uint32_t uri_off, std::uint32_t uri_len,
                                       std::uint32_t mark, bool empty) {
  open_element e;
  const char* name = qname.data();
  if (whole) {
    e.name_off = static_cast<std::size_t>(name - data);
  } else {
    e.name_off = names.size();
    names.append(qname.data(), qname.size());
  }
  e.name_len = static_cast<std::uint32_t>(qname.size());
  e.prefix_len = prefix_len;
  e.uri_off = uri_off;
  e.uri_len = uri_len;
  e.bindings_mark = mark;
  elements.push_back(e);
  r.prefix_ = qname_prefix(qname.data(), prefix_len);
  r.local_ = qname_local(qname.data(), qname.size(), prefix_len);
  r.ns_ = uri_view(uri_off, uri_len);
  r.depth_ = static_cast<std::uint32_t>(elements.size());
  r.empty_element_ = empty;
  r.text_ = {};
  pending_end = empty;
}

// Finds the position (in raw) of the attribute attrs[i] for error reporting.
inline const char* reader::impl::attr_qname(std::size_t i) const noexcept {
  std::size_t k = 0;
  for (const raw_attribute& a : raw) {
    if (a.qname_len & 0x80000000u) continue;
    if (k++ == i) return a.qname;
  }
  return nullptr;
}

inline st reader::impl::check_duplicates() {
  std::size_t n = attrs.size();
  if (n < 2) return st::ok;
  if (n <= 8) {
    for (std::size_t i = 1; i < n; ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (attrs[i].local == attrs[j].local && attrs[i].ns == attrs[j].ns) {
          return fail(errc::duplicate_attribute, attr_qname(i));
        }
      }
    }
    return st::ok;
  }
  std::size_t cap = 16;
  while (cap < n * 2) cap *= 2;
  dup_table.assign(cap, 0);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t h = hash_bytes(attrs[i].local) * 31u + hash_bytes(attrs[i].ns);
    for (std::size_t k = h & (cap - 1);; k = (k + 1) & (cap - 1)) {
      std::uint32_t v = dup_table[k];
      if (v == 0) {
        dup_table[k] = static_cast<std::uint32_t>(i + 1);
        break;
      }
      const attribute& o = attrs[v - 1];
      if (o.local == attrs[i].local && o.ns == attrs[i].ns) {
        return fail(errc::duplicate_attribute, attr_qname(i));
      }
    }
  }
  return st::ok;
}

}  // namespace lather::xml
