#include "lather/soap/version.hpp"

#include "lather/detail/ascii.hpp"

namespace lather::soap {
namespace {

// Media types and parameter names are ASCII tokens.
using lather::detail::ascii_iequals;

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

void assign_content_type(std::string& out, version v, std::string_view action) {
  out.assign(content_type_utf8(v));
  if (v == version::soap12 && !action.empty()) {
    out += "; action=\"";
    out += action;
    out += '"';
  }
}

std::string content_type(version v, std::string_view action) {
  std::string out;
  assign_content_type(out, v, action);
  return out;
}

void assign_soap_action_header(std::string& out, std::string_view action) {
  out.assign(1, '"');
  out += action;
  out += '"';
}

std::string soap_action_header(std::string_view action) {
  std::string out;
  assign_soap_action_header(out, action);
  return out;
}

std::string_view unquote_soap_action(std::string_view header) noexcept {
  header = trim(header);
  if (header.size() >= 2 && header.front() == '"' && header.back() == '"') {
    header = header.substr(1, header.size() - 2);
  }
  return header;
}

std::optional<content_type_info> parse_content_type(std::string_view header) {
  const std::size_t semi = header.find(';');
  const std::string_view media = trim(header.substr(0, semi));
  content_type_info info;
  if (ascii_iequals(media, "text/xml")) {
    info.ver = version::soap11;
  } else if (ascii_iequals(media, "application/soap+xml")) {
    info.ver = version::soap12;
  } else {
    return std::nullopt;
  }
  std::string_view rest =
      semi == std::string_view::npos ? std::string_view{} : header.substr(semi + 1);
  while (!rest.empty()) {
    const std::size_t next = rest.find(';');
    std::string_view param = trim(rest.substr(0, next));
    rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
    const std::size_t eq = param.find('=');
    if (eq == std::string_view::npos) continue;
    if (ascii_iequals(trim(param.substr(0, eq)), "action")) {
      info.action = std::string{unquote_soap_action(param.substr(eq + 1))};
    }
  }
  return info;
}

}  // namespace lather::soap
