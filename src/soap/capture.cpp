#include "lather/soap/capture.hpp"

#include "detail.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::soap {

void namespace_scope::push(const xml::reader& r) {
  marks_.push_back(size_);
  for (const xml::namespace_declaration& d : r.namespace_declarations()) {
    if (size_ == bindings_.size()) bindings_.emplace_back();
    namespace_binding& b = bindings_[size_++];
    b.prefix.assign(d.prefix);
    b.uri.assign(d.uri);
  }
}

void namespace_scope::pop() {
  if (marks_.empty()) return;
  size_ = marks_.back();
  marks_.pop_back();
}

void namespace_scope::clear() noexcept {
  size_ = 0;
  marks_.clear();
}

namespace {

void write_start(const xml::reader& r, xml::writer& w) {
  for (const xml::namespace_declaration& d : r.namespace_declarations()) {
    w.declare_namespace(d.prefix, d.uri);
  }
  w.start_element(r.ns(), r.local_name());
  for (const xml::attribute& a : r.attributes()) w.attribute(a.ns, a.local, a.value);
}

bool redeclared(const xml::reader& r, std::string_view prefix) {
  for (const xml::namespace_declaration& d : r.namespace_declarations()) {
    if (d.prefix == prefix) return true;
  }
  return false;
}

}  // namespace

void copy_element(xml::reader& r, xml::writer& w, std::span<const namespace_binding> in_scope) {
  // Re-declare what is in scope (innermost binding of each prefix) so QName values in content
  // keep resolving; the linear "seen" check is fine: in-scope lists are short.
  for (std::size_t i = in_scope.size(); i-- > 0;) {
    const namespace_binding& b = in_scope[i];
    bool shadowed = redeclared(r, b.prefix);
    for (std::size_t j = i + 1; !shadowed && j < in_scope.size(); ++j) {
      shadowed = in_scope[j].prefix == b.prefix;
    }
    if (!shadowed && !b.uri.empty()) w.declare_namespace(b.prefix, b.uri);
  }
  write_start(r, w);
  std::size_t level = 1;
  while (level > 0) {
    switch (detail::next(r)) {
      case xml::token::start_element:
        write_start(r, w);
        ++level;
        break;
      case xml::token::end_element:
        w.end_element();
        --level;
        break;
      case xml::token::text:
        w.text(r.text());
        break;
      default:
        detail::fail(errc::unexpected_content, "unexpected end of input in an element");
    }
  }
}

std::string capture_element(xml::reader& r, std::span<const namespace_binding> in_scope) {
  xml::output out;
  xml::writer w{out};
  copy_element(r, w, in_scope);
  w.end_document();
  return out.take();
}

}  // namespace lather::soap
