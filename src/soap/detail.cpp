#include "detail.hpp"

#include "lather/xml/error.hpp"

namespace lather::soap::detail {

void fail(errc code, std::string reason) {
  const std::error_code ec = make_error_code(code);
  throw fault_error{make_fault(ec, std::move(reason)), ec};
}

namespace {
[[noreturn]] void fail_xml(const xml::reader& r, xml::token t) {
  if (t == xml::token::need_more) {
    const std::error_code ec = xml::make_error_code(xml::errc::unexpected_eof);
    throw fault_error{make_fault(ec, "message ends early (truncated input)"), ec};
  }
  const std::error_code ec = xml::make_error_code(r.error().code);
  throw fault_error{make_fault(ec, r.error().message()), ec};
}
}  // namespace

xml::token next(xml::reader& r) {
  const xml::token t = r.next();
  if (t == xml::token::error || t == xml::token::need_more) fail_xml(r, t);
  return t;
}

void skip(xml::reader& r) {
  const xml::token t = r.skip_element();
  if (t != xml::token::end_element) fail_xml(r, t);
}

std::string cat(std::initializer_list<std::string_view> parts) {
  std::size_t size = 0;
  for (std::string_view p : parts) size += p.size();
  std::string out;
  out.reserve(size);
  for (std::string_view p : parts) out += p;
  return out;
}

bool is_whitespace(std::string_view s) noexcept {
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
  }
  return true;
}

std::string clark(std::string_view ns, std::string_view local) {
  std::string out;
  out.reserve(ns.size() + local.size() + 2);
  if (!ns.empty()) {
    out += '{';
    out += ns;
    out += '}';
  }
  out += local;
  return out;
}

void read_text(xml::reader& r, std::string& out, std::string_view what) {
  out.clear();
  if (r.is_empty_element()) {
    next(r);
    return;
  }
  for (;;) {
    switch (next(r)) {
      case xml::token::text:
        out += r.text();
        break;
      case xml::token::end_element:
        return;
      case xml::token::start_element:
        fail(errc::unexpected_element,
             cat({"element ", clark(r.ns(), r.local_name()), " inside ", std::string{what}}));
      default:
        fail(errc::unexpected_content, cat({"unexpected token inside ", std::string{what}}));
    }
  }
}

}  // namespace lather::soap::detail
