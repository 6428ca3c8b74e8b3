// lather/soap/capture.hpp — raw XML access: copy an element subtree faithfully.
//
// Used for the raw message API (a handler that wants the body as XML text), fault details,
// relayed headers and SOAP-ENC independent elements that must be decoded later. The copy keeps
// the original prefixes and re-declares every namespace in scope at the copied element, so
// QName values in text and attributes (xsi:type="ns1:T") stay resolvable.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lather::xml {
class reader;
class writer;
}  // namespace lather::xml

namespace lather::soap {

struct namespace_binding {
  std::string prefix;  ///< "" = default namespace
  std::string uri;
};

/// Namespace declarations in scope along a path of elements the caller walks through (the
/// xml::reader resolves names but cannot list what is in scope). push() the declarations of
/// every start tag entered, pop() on its end tag. Popped entries keep their strings' capacity,
/// so a scope reused for the next message allocates nothing.
class namespace_scope {
 public:
  void push(const xml::reader& r);  ///< record the declarations of the current start tag
  void pop();
  void clear() noexcept;
  /// Bindings in scope, innermost last (a prefix may repeat: the last one wins).
  std::span<const namespace_binding> bindings() const noexcept { return {bindings_.data(), size_}; }

 private:
  std::vector<namespace_binding> bindings_;  // [0, size_) in scope; the rest are spares
  std::size_t size_ = 0;
  std::vector<std::size_t> marks_;
};

/// Copy the element whose start tag is current (through its end tag, where the reader is
/// left) into `w`. `in_scope`: bindings in scope at the element's parent; each prefix is
/// declared on the copy (once, innermost wins) unless the element redeclares it.
void copy_element(xml::reader& r, xml::writer& w, std::span<const namespace_binding> in_scope);

/// copy_element into a fresh string (a self-contained XML fragment).
std::string capture_element(xml::reader& r, std::span<const namespace_binding> in_scope);

}  // namespace lather::soap
