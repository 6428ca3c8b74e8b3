// QName prefix resolution through the XML reader, in its own object file so that code using
// only the reader-free parse functions does not pull in the reader.
#include "lather/xml/reader.hpp"
#include "xsd_detail.hpp"

namespace lather::xsd::detail {

std::optional<std::string_view> lookup_prefix(const xml::reader& ctx, std::string_view prefix) {
  return ctx.lookup_namespace(prefix);
}

}  // namespace lather::xsd::detail
