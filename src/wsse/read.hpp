// Internal to lather_wsse: reading the small elements of a Security header with the pull
// reader; anything unexpected is a WS-Security fault.
#pragma once

#include <string>
#include <string_view>

#include "lather/wsse/fault.hpp"
#include "lather/xml/reader.hpp"

namespace lather::wsse::detail {

/// The text content of the element the reader is on (start tag) into `out`, the reader left
/// on its end tag; a child element or more than `max` bytes is an invalid token.
inline void read_text(xml::reader& r, std::string& out, std::size_t max) {
  out.clear();
  if (r.is_empty_element()) {
    r.next();
    return;
  }
  for (;;) {
    switch (r.next()) {
      case xml::token::text:
        out += r.text();
        if (out.size() > max) throw_fault(fault_code::invalid_security_token);
        break;
      case xml::token::end_element:
        return;
      case xml::token::start_element:
        throw_fault(fault_code::invalid_security_token);
      default:
        throw_fault(fault_code::invalid_security);
    }
  }
}

/// Children of the element the reader is on, one call of `child` per child start tag (which
/// must read the child through its end tag); text other than whitespace is refused.
template <class F>
void for_each_child(xml::reader& r, F&& child) {
  if (r.is_empty_element()) {
    r.next();
    return;
  }
  for (;;) {
    switch (r.next()) {
      case xml::token::start_element:
        child();
        break;
      case xml::token::end_element:
        return;
      case xml::token::text:
        if (r.text().find_first_not_of(" \t\r\n") != std::string_view::npos)
          throw_fault(fault_code::invalid_security);
        break;
      default:
        throw_fault(fault_code::invalid_security);
    }
  }
}

}  // namespace lather::wsse::detail
