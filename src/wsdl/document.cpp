#include "document.hpp"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "lather/wsdl/load.hpp"
#include "lather/xml/reader.hpp"

namespace lather::wsdl {

std::string qname::str() const {
  return ns.empty() ? local : "{" + ns + "}" + local;
}

std::string source_location::str() const {
  return std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(column);
}

error::error(source_location where, const std::string& message)
    : std::runtime_error(where.file.empty() ? message : where.str() + ": " + message),
      file_(where.file),
      message_(message),
      line_(where.line),
      column_(where.column) {}

namespace detail {

std::optional<std::string_view> node::attr(std::string_view name) const noexcept {
  for (const node_attribute& a : attributes)
    if (a.local == name && a.ns.empty()) return a.value;
  return std::nullopt;
}

std::optional<std::string_view> node::attr(std::string_view n,
                                           std::string_view name) const noexcept {
  for (const node_attribute& a : attributes)
    if (a.local == name && a.ns == n) return a.value;
  return std::nullopt;
}

std::optional<std::string_view> node::lookup(std::string_view prefix) const noexcept {
  if (prefix == "xml") return std::string_view("http://www.w3.org/XML/1998/namespace");
  for (const ns_scope* s = scope; s; s = s->parent)
    for (auto it = s->declarations.rbegin(); it != s->declarations.rend(); ++it)
      if (it->first == prefix) return it->second;
  return std::nullopt;
}

std::string read_file(const std::string& path, const source_location& referenced_at) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (referenced_at.file.empty()) throw error({path, 0, 0}, "cannot read " + path);
    throw error(referenced_at, "cannot read " + path);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return std::move(s).str();
}

std::string_view document::keep(std::string_view v) {
  // Views the reader hands out point into text_ unless it had to decode them.
  if (v.data() >= text_.data() && v.data() + v.size() <= text_.data() + text_.size()) return v;
  if (v.empty()) return {};
  return copies_.emplace_back(v);
}

std::string_view trim(std::string_view s) noexcept {
  std::size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string_view::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

std::vector<std::string> split_tokens(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    std::size_t start = s.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) break;
    s.remove_prefix(start);
    std::size_t end = s.find_first_of(" \t\r\n");
    out.emplace_back(s.substr(0, end));
    s.remove_prefix(end == std::string_view::npos ? s.size() : end);
  }
  return out;
}

namespace {
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/// Blank [from, to) with spaces, keeping line breaks (so positions stay right).
void blank(std::string& s, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to; ++i)
    if (s[i] != '\n' && s[i] != '\r') s[i] = ' ';
}

/// The SOAP reader rejects what published schemas carry in their prolog: a DOCTYPE (xml.xsd
/// has one, with an internal subset) and processing instructions (<?xml-stylesheet?>).
/// Neither means anything to a schema, so both are blanked before reading.
void blank_prolog(std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (s.compare(i, 4, "<!--") == 0) {
      std::size_t e = s.find("-->", i + 4);
      if (e == std::string::npos) return;
      i = e + 3;
    } else if (s.compare(i, 5, "<?xml") == 0 && i + 5 < s.size() && is_space(s[i + 5])) {
      std::size_t e = s.find("?>", i);
      if (e == std::string::npos) return;
      if (i != 0) blank(s, i, e + 2);  // a declaration must come first; else it is junk
      i = e + 2;
    } else if (s.compare(i, 2, "<?") == 0) {
      std::size_t e = s.find("?>", i);
      if (e == std::string::npos) return;
      blank(s, i, e + 2);
      i = e + 2;
    } else if (s.compare(i, 9, "<!DOCTYPE") == 0) {
      std::size_t j = i + 9;
      char quote = 0;
      int brackets = 0;
      for (; j < s.size(); ++j) {
        char c = s[j];
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '[') {
          ++brackets;
        } else if (c == ']') {
          --brackets;
        } else if (c == '>' && brackets == 0) {
          break;
        }
      }
      if (j == s.size()) return;
      blank(s, i, j + 1);
      i = j + 1;
    } else {
      return;
    }
  }
}

/// Contracts declared ISO-8859-1 (MantisBT's) are transcoded to UTF-8 with the declaration
/// rewritten; other encodings are left to the reader (which accepts UTF-8 and US-ASCII).
void latin1_to_utf8(std::string& s) {
  if (s.compare(0, 5, "<?xml") != 0) return;
  std::size_t end = s.find("?>");
  if (end == std::string::npos) return;
  std::string_view decl(s.data(), end);
  std::size_t enc = decl.find("encoding");
  if (enc == std::string_view::npos) return;
  std::size_t q = decl.find_first_of("\"'", enc);
  if (q == std::string_view::npos) return;
  std::size_t q2 = decl.find(decl[q], q + 1);
  if (q2 == std::string_view::npos) return;
  std::string name(decl.substr(q + 1, q2 - q - 1));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name != "iso-8859-1" && name != "latin1" && name != "iso_8859-1" && name != "l1") return;
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  out.append(s, 0, q + 1);
  out.append("UTF-8");
  for (std::size_t i = q2; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back(static_cast<char>(0xc0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
    }
  }
  s = std::move(out);
}

}  // namespace

document::document(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  latin1_to_utf8(text_);
  blank_prolog(text_);
  xml::limits lim;
  lim.max_total_bytes = 0;
  lim.max_attributes = 4096;
  lim.max_namespaces = 1u << 16;
  xml::reader r(lim);
  r.reset(text_);
  struct open_element {
    node* n;
    node* last_child;
  };
  std::vector<open_element> stack;
  const ns_scope* scope = nullptr;
  for (;;) {
    xml::token t = r.next();
    if (t == xml::token::end_document) break;
    if (t == xml::token::error) {
      const xml::error_info& e = r.error();
      throw error({path_, e.where.line, e.where.column},
                  std::string("malformed XML: ") + xml::describe(e.code));
    }
    if (t == xml::token::start_element) {
      node& n = nodes_.emplace_back();
      n.ns = keep(r.ns());
      n.local = keep(r.local_name());
      xml::position p = r.where();
      n.file = path_;
      n.line = p.line;
      n.column = p.column;
      auto decls = r.namespace_declarations();
      if (!decls.empty()) {
        ns_scope& s = scopes_.emplace_back();
        s.parent = scope;
        for (const xml::namespace_declaration& d : decls)
          s.declarations.emplace_back(keep(d.prefix), keep(d.uri));
        scope = &s;
      }
      n.scope = scope;
      n.attributes.reserve(r.attributes().size());
      for (const xml::attribute& a : r.attributes())
        n.attributes.push_back({keep(a.ns), keep(a.local), keep(a.value)});
      if (!stack.empty()) {
        open_element& parent = stack.back();
        n.parent = parent.n;
        if (parent.last_child)
          parent.last_child->next_sibling = &n;
        else
          parent.n->first_child = &n;
        parent.last_child = &n;
      } else {
        root_ = &n;
      }
      stack.push_back({&n, nullptr});
    } else if (t == xml::token::end_element) {
      node* n = stack.back().n;
      stack.pop_back();
      scope = stack.empty() ? nullptr : stack.back().n->scope;
      (void)n;
    } else if (t == xml::token::text && !stack.empty()) {
      node* n = stack.back().n;
      // Only documentation needs text; a run split by child elements keeps its first part.
      if (n->text.empty() && n->first_child == nullptr) n->text = keep(trim(r.text()));
    }
  }
  if (!root_) throw error({path_, 1, 1}, "no root element");
}

}  // namespace detail
}  // namespace lather::wsdl
