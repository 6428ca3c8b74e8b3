// Internal helpers shared by the SOAP layer's translation units.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "lather/soap/error.hpp"
#include "lather/soap/fault.hpp"
#include "lather/xml/reader.hpp"

namespace lather::soap::detail {

/// Throw fault_error for a soap::errc (fault code from fault_code_for).
[[noreturn]] void fail(errc code, std::string reason);

/// reader.next(), throwing a Client/Sender fault_error on an XML error. need_more (push mode
/// without finish) is reported as a truncated message: the SOAP layer reads whole messages or
/// from a pull source.
xml::token next(xml::reader& r);
/// reader.skip_element() with the same error handling.
void skip(xml::reader& r);

/// Concatenate message parts (one allocation; also sidesteps a g++ 12 -Wrestrict false positive
/// on chains of operator+).
std::string cat(std::initializer_list<std::string_view> parts);

bool is_whitespace(std::string_view s) noexcept;
/// "{ns}local" for messages.
std::string clark(std::string_view ns, std::string_view local);

/// Collect the text content of the element whose start tag is current into `out` (reader left on
/// its end tag). A child element is an error (what = the value's description).
void read_text(xml::reader& r, std::string& out, std::string_view what);

}  // namespace lather::soap::detail
