#include "writer_attributes.hpp"

#include <algorithm>
#include <string>

#include "lather/xml/error.hpp"

namespace lather::xml::detail {

namespace {
// The local name of a name written into `out` at stream offset `at`, or nullopt-like empty
// view once `out` no longer holds it.
std::string_view written_name(const byte_buffer& out, std::uint64_t at, std::size_t size) {
  if (at < out.flushed() || at - out.flushed() + size > out.size()) return {};
  return out.view().substr(at - out.flushed(), size);
}
}  // namespace

void attribute_list::assign(const attribute_list& other, const byte_buffer& recorded) {
  size_ = 0;
  for (std::size_t i = 0; i < other.size_; ++i) {
    const item& a = other.items_[i];
    add(a.ns, a.local.data() != nullptr ? a.local : written_name(recorded, a.at, a.local.size()));
  }
}

void attribute_list::check_new(const byte_buffer& out, std::string_view ns,
                               std::string_view local) const {
  for (std::size_t i = 0; i < size_; ++i) {
    const item& a = items_[i];
    const std::string_view name =
        a.local.data() != nullptr ? a.local : written_name(out, a.at, a.local.size());
    if (name != local || a.ns != ns) continue;
    std::string what = "xml writer: duplicate attribute ";
    if (!ns.empty()) what.append("{").append(ns).append("}");
    what.append(local).append(" on one start tag");
    position where;
    where.offset = out.flushed() + out.size();
    throw error(errc::duplicate_attribute, where, what);
  }
}

void attribute_list::grow() {
  const std::size_t capacity = std::max<std::size_t>(8, 2 * capacity_);
  auto items = std::make_unique<item[]>(capacity);
  std::copy(items_.get(), items_.get() + size_, items.get());
  items_ = std::move(items);
  capacity_ = capacity;
}

}  // namespace lather::xml::detail
