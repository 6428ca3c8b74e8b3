// tests/support/xml_query.hpp — assertions on XML by element path and value, not by substring.
//
// A response is parsed with lather's own reader (lather::xml::reader) and an element is found
// by the path of local names from the root, e.g.
//
//   EXPECT_EQ(test::find_text(body, "/Envelope/Body/addResponse/result"), "5");
//   EXPECT_EQ(test::qname_local(test::find_text(body, "/Envelope/Body/Fault/faultcode")),
//   "Server");
//
// "*" in a path matches any one element. A document the reader rejects matches nothing, so a
// malformed response fails the assertion instead of passing a substring search.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lather/xml/reader.hpp"

namespace lather::test {

/// An element found by path: its namespace, its own text (character data directly inside it,
/// decoded) and its attributes (local name, value). For a QName-valued text ("soap:Client"),
/// `text_ns` is the namespace its prefix is bound to at the element ("" when none).
struct xml_element {
  std::string ns;
  std::string text;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string text_ns;

  /// The attribute with this local name, nullopt when it has none.
  std::optional<std::string> attribute(std::string_view local) const {
    for (const auto& [name, value] : attributes)
      if (name == local) return value;
    return std::nullopt;
  }
};

namespace detail {

inline std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> steps;
  while (!path.empty()) {
    if (path.front() == '/') {
      path.remove_prefix(1);
      continue;
    }
    const std::size_t end = path.find('/');
    steps.push_back(path.substr(0, end));
    path = end == std::string_view::npos ? std::string_view{} : path.substr(end);
  }
  return steps;
}

}  // namespace detail

/// Every element whose path of local names from the root is `path`, in document order; empty
/// when the document is not well-formed or nothing matches.
inline std::vector<xml_element> find_elements(std::string_view xml, std::string_view path) {
  const std::vector<std::string_view> steps = detail::split_path(path);
  std::vector<xml_element> found;
  // matched[d] is true when the open element at depth d + 1 and all its ancestors match the
  // path's first d + 1 steps; open_match is the index in `found` of the element being read.
  std::vector<bool> matched;
  std::vector<std::ptrdiff_t> open_match;
  xml::reader r;
  r.reset(xml);
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    switch (t) {
      case xml::token::start_element: {
        const std::size_t d = matched.size();
        const bool parent = d == 0 || matched.back();
        const bool here =
            parent && d < steps.size() && (steps[d] == "*" || steps[d] == r.local_name());
        matched.push_back(here);
        open_match.push_back(-1);
        if (here && d + 1 == steps.size()) {
          xml_element e{std::string(r.ns()), {}, {}, {}};
          for (const xml::attribute& a : r.attributes())
            e.attributes.emplace_back(std::string(a.local), std::string(a.value));
          open_match.back() = static_cast<std::ptrdiff_t>(found.size());
          found.push_back(std::move(e));
        }
        break;
      }
      case xml::token::text:
        if (!open_match.empty() && open_match.back() >= 0) {
          xml_element& e = found[static_cast<std::size_t>(open_match.back())];
          e.text += r.text();
          const std::size_t colon = e.text.find(':');
          const std::string_view prefix = colon == std::string::npos
                                              ? std::string_view{}
                                              : std::string_view(e.text).substr(0, colon);
          e.text_ns = std::string(r.lookup_namespace(prefix).value_or(""));
        }
        break;
      case xml::token::end_element:
        matched.pop_back();
        open_match.pop_back();
        break;
      default:  // error (or need_more, impossible for a whole document): no match
        return {};
    }
  }
  return found;
}

/// The first element at `path`, nullopt when there is none (or the document is malformed).
inline std::optional<xml_element> find_element(std::string_view xml, std::string_view path) {
  std::vector<xml_element> all = find_elements(xml, path);
  if (all.empty()) return std::nullopt;
  return std::move(all.front());
}

/// The text of the first element at `path`, nullopt when there is none.
inline std::optional<std::string> find_text(std::string_view xml, std::string_view path) {
  std::optional<xml_element> e = find_element(xml, path);
  if (!e) return std::nullopt;
  return std::move(e->text);
}

/// True when an element at `path` has every one of `attributes` (local name, value).
inline bool has_element(
    std::string_view xml, std::string_view path,
    std::initializer_list<std::pair<std::string_view, std::string_view>> attributes = {}) {
  for (const xml_element& e : find_elements(xml, path)) {
    bool all = true;
    for (const auto& [name, value] : attributes) all = all && e.attribute(name) == value;
    if (all) return true;
  }
  return false;
}

/// How many elements are at `path` (0 for a malformed document).
inline std::size_t count_elements(std::string_view xml, std::string_view path) {
  return find_elements(xml, path).size();
}

/// The paths of local names ("/Envelope") of the elements that declare namespace `uri`, each
/// with the prefix it declares ("" = default), in document order; empty for a malformed
/// document.
inline std::vector<std::pair<std::string, std::string>> declarations_of(std::string_view xml,
                                                                        std::string_view uri) {
  std::vector<std::pair<std::string, std::string>> found;
  std::vector<std::size_t> path_length;  // the path's length before each open element
  std::string path;
  xml::reader r;
  r.reset(xml);
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    if (t == xml::token::start_element) {
      path_length.push_back(path.size());
      path += '/';
      path += r.local_name();
      for (const xml::namespace_declaration& d : r.namespace_declarations())
        if (d.uri == uri) found.emplace_back(path, std::string(d.prefix));
    } else if (t == xml::token::end_element) {
      path.resize(path_length.back());
      path_length.pop_back();
    } else if (t != xml::token::text) {
      return {};
    }
  }
  return found;
}

/// True when lather's reader accepts the whole document.
inline bool well_formed(std::string_view xml) {
  xml::reader r;
  r.reset(xml);
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next())
    if (t == xml::token::error || t == xml::token::need_more) return false;
  return true;
}

/// The local part of a QName value ("soap:Server" -> "Server"); nullopt stays nullopt.
inline std::optional<std::string> qname_local(const std::optional<std::string>& qname) {
  if (!qname) return std::nullopt;
  const std::size_t colon = qname->find(':');
  return colon == std::string::npos ? *qname : qname->substr(colon + 1);
}

/// A SOAP fault's code without its prefix ("Server", "Sender"): SOAP 1.1's faultcode or
/// SOAP 1.2's Code/Value; nullopt when the document holds no fault.
inline std::optional<std::string> fault_code(std::string_view xml) {
  if (auto code = find_text(xml, "/Envelope/Body/Fault/faultcode")) return qname_local(code);
  return qname_local(find_text(xml, "/Envelope/Body/Fault/Code/Value"));
}

/// A SOAP fault's reason: SOAP 1.1's faultstring or SOAP 1.2's Reason/Text; "" when none.
inline std::string fault_string(std::string_view xml) {
  if (auto text = find_text(xml, "/Envelope/Body/Fault/faultstring")) return *text;
  return find_text(xml, "/Envelope/Body/Fault/Reason/Text").value_or("");
}

}  // namespace lather::test
