// Internal to lather_xml: the attributes of the writer's open start tag, by expanded name, so
// that a second attribute with the same name is refused (XML Namespaces 1.0, "Uniqueness of
// Attributes"). Out of writer.cpp but for the few instructions an attribute pays: that file
// sits at GCC's inline-unit-growth limit, and code added there stopped its table lookups
// being inlined (+250 instructions per perf call).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "lather/byte_buffer.hpp"

namespace lather::xml::detail {

/// The attributes of the open start tag: namespace URI ("" for none) and local name. The
/// storage is kept across tags and documents: no allocation in a steady state.
class attribute_list {
 public:
  void clear() noexcept { size_ = 0; }
  bool empty() const noexcept { return size_ == 0; }
  /// An attribute whose views stay valid while its start tag is open (a static name, the URI
  /// of a binding).
  void add(std::string_view ns, std::string_view local) {
    if (size_ == capacity_) [[unlikely]]
      grow();
    items_[size_++] = {ns, local, 0};
  }
  /// An attribute whose name (a name checked per call, which may not outlive the call) is
  /// written into the output at stream offset `at` (flushed() + size() before it): not copied.
  void add_written(std::string_view ns, std::size_t size, std::uint64_t at) {
    if (size_ == capacity_) [[unlikely]]
      grow();
    items_[size_++] = {ns, {nullptr, size}, at};
  }
  /// Those of a recorded start tag, whose output is `recorded` (the bytes of a
  /// document_start, kept while its documents are written).
  void assign(const attribute_list& other, const byte_buffer& recorded);
  /// Throws lather::xml::error (errc::duplicate_attribute) when {ns}local is one of them. A
  /// linear scan: a start tag has few attributes. A name written into `out` is compared there
  /// while the output holds it (a caller that flushes inside a start tag gives it away).
  void check_new(const byte_buffer& out, std::string_view ns, std::string_view local) const;

 private:
  struct item {
    std::string_view ns;
    std::string_view local;  // data() nullptr: written at stream offset `at`
    std::uint64_t at;
  };
  void grow();
  std::unique_ptr<item[]> items_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace lather::xml::detail
