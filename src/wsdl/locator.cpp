#include "locator.hpp"

#include <filesystem>

#include "document.hpp"

namespace lather::wsdl::detail {
namespace {

constexpr std::string_view catalog_ns = "urn:oasis:names:tc:entity:xmlns:xml:catalog";

/// "http:", "https:", "urn:", ... (a one-letter scheme is a Windows drive).
bool is_absolute_url(std::string_view s) noexcept {
  std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon < 2) return false;
  for (std::size_t i = 0; i < colon; ++i) {
    char c = s[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
    if (!ok) return false;
  }
  return true;
}

std::string_view without_scheme(std::string_view url) noexcept {
  if (url.starts_with("http://")) return url.substr(7);
  if (url.starts_with("https://")) return url.substr(8);
  return url;
}

bool exists(const std::string& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);
}

}  // namespace

std::string join_path(std::string_view base, std::string_view relative) {
  std::filesystem::path p(relative);
  if (p.is_absolute()) return p.lexically_normal().string();
  return (std::filesystem::path(base).parent_path() / p).lexically_normal().string();
}

locator::locator(const std::vector<std::string>& catalogs) {
  for (const std::string& c : catalogs) read_catalog(c, {}, 0);
}

void locator::read_catalog(const std::string& path, const source_location& referenced_at,
                           int depth) {
  if (depth > 16) throw error(referenced_at, "nextCatalog chain deeper than 16: " + path);
  document doc(path, read_file(path, referenced_at));
  // Walk with xml:base tracking: entries resolve against the innermost base.
  struct frame {
    const node* n;
    std::string base;
  };
  std::vector<frame> todo{{&doc.root(), path}};
  while (!todo.empty()) {
    frame f = std::move(todo.back());
    todo.pop_back();
    const node& n = *f.n;
    std::string base = f.base;
    if (auto b = n.attr("http://www.w3.org/XML/1998/namespace", "base"))
      base = join_path(base, std::string(*b) + (b->ends_with('/') ? "x" : ""));
    if (n.ns != catalog_ns) continue;
    auto target = [&](std::string_view attr) -> std::string {
      auto v = n.attr(attr);
      if (!v) throw error(n.where(), "catalog entry without " + std::string(attr));
      if (is_absolute_url(*v) && !v->starts_with("file:")) return std::string(*v);
      std::string_view local = v->starts_with("file://") ? v->substr(7) : *v;
      return join_path(base, local);
    };
    auto key = [&](std::string_view attr) -> std::string {
      auto v = n.attr(attr);
      if (!v) throw error(n.where(), "catalog entry without " + std::string(attr));
      return std::string(*v);
    };
    if (n.local == "catalog" || n.local == "group") {
      std::vector<frame> kids;
      for (const node& c : n.children()) kids.push_back({&c, base});
      for (auto it = kids.rbegin(); it != kids.rend(); ++it) todo.push_back(std::move(*it));
    } else if (n.local == "system") {
      entries_.push_back({entry::kind::exact, key("systemId"), target("uri")});
    } else if (n.local == "uri") {
      entries_.push_back({entry::kind::exact, key("name"), target("uri")});
    } else if (n.local == "rewriteSystem") {
      entries_.push_back(
          {entry::kind::rewrite, key("systemIdStartString"), target("rewritePrefix")});
    } else if (n.local == "rewriteURI") {
      entries_.push_back({entry::kind::rewrite, key("uriStartString"), target("rewritePrefix")});
    } else if (n.local == "systemSuffix") {
      entries_.push_back({entry::kind::suffix, key("systemIdSuffix"), target("uri")});
    } else if (n.local == "uriSuffix") {
      entries_.push_back({entry::kind::suffix, key("uriSuffix"), target("uri")});
    } else if (n.local == "nextCatalog") {
      read_catalog(target("catalog"), n.where(), depth + 1);
    }
  }
}

std::optional<std::string> locator::map_url(std::string_view url) const {
  for (const entry& e : entries_)
    if (e.what == entry::kind::exact && e.key == url) return e.target;
  // Longest matching rewrite prefix, then suffix entries (OASIS catalog order of precedence).
  const entry* best = nullptr;
  for (const entry& e : entries_)
    if (e.what == entry::kind::rewrite && url.starts_with(e.key) &&
        (!best || e.key.size() > best->key.size()))
      best = &e;
  if (best) {
    std::string prefix = best->target;
    if (!prefix.empty() && prefix.back() != '/') prefix += '/';
    std::string_view rest = url.substr(best->key.size());
    while (rest.starts_with('/')) rest.remove_prefix(1);
    return std::filesystem::path(prefix + std::string(rest)).lexically_normal().string();
  }
  for (const entry& e : entries_)
    if (e.what == entry::kind::suffix && url.ends_with(e.key)) return e.target;
  // A URL in the directory of a mapped URL is looked for beside that URL's local file
  // (localised copies of a schema family keep their relative layout).
  for (const entry& e : entries_) {
    if (e.what != entry::kind::exact) continue;
    std::size_t slash = e.key.rfind('/');
    if (slash == std::string::npos || e.key.find("://") == std::string::npos) continue;
    std::string_view dir = std::string_view(e.key).substr(0, slash + 1);
    if (!url.starts_with(dir) || dir.find("://") + 3 > dir.size()) continue;
    std::string candidate = join_path(e.target, url.substr(dir.size()));
    if (exists(candidate)) return candidate;
  }
  return std::nullopt;
}

std::optional<location> locator::resolve(std::string_view ref, std::string_view base_path) const {
  if (auto p = map_url(ref)) return location{*p};
  if (ref.starts_with("file://")) return location{std::string(ref.substr(7))};
  if (is_absolute_url(ref) || base_path.starts_with("lather:")) {
    if (const standard_schema* s = find_standard(ref))
      return location{"lather:standard/" + std::string(s->file), s};
    return std::nullopt;
  }
  return location{join_path(base_path, ref)};
}

std::optional<location> locator::by_namespace(std::string_view ns) const {
  for (const entry& e : entries_)
    if (e.what == entry::kind::exact && e.key == ns) return location{e.target};
  if (const standard_schema* s = find_standard(ns))
    return location{"lather:standard/" + std::string(s->file), s};
  return std::nullopt;
}

const standard_schema* find_standard(std::string_view ns_or_url) noexcept {
  struct alias {
    std::string_view url;  ///< without scheme
    std::string_view file;
  };
  // Published locations of the standard schemas besides their namespace names.
  static constexpr alias aliases[] = {
      {"www.w3.org/2001/xml.xsd", "xml.xsd"},
      {"www.w3.org/2005/08/addressing/ws-addr.xsd", "ws-addr.xsd"},
      {"schemas.xmlsoap.org/soap/encoding", "soap-encoding-1.1.xsd"},
      {"www.w3.org/2003/05/soap-envelope.xsd", "soap-envelope-1.2.xsd"},
      {"www.w3.org/2005/05/xmlmime.xsd", "xmime.xsd"},
      {"www.w3.org/2004/08/xop/include.xsd", "xop-include.xsd"},
      {"www.w3.org/2007/02/ws-policy.xsd", "ws-policy-1.5.xsd"},
      {"schemas.xmlsoap.org/ws/2004/09/policy/ws-policy.xsd", "ws-policy-1.2.xsd"},
  };
  // WS-Security's (wsse, wsu) namespace names are their schemas' URLs.
  std::string_view key = without_scheme(ns_or_url);
  while (key.ends_with('/')) key.remove_suffix(1);
  for (const standard_schema& s : standard_schemas()) {
    std::string_view ns = without_scheme(s.ns);
    while (ns.ends_with('/')) ns.remove_suffix(1);
    if (ns == key) return &s;
  }
  for (const alias& a : aliases)
    if (a.url == key)
      for (const standard_schema& s : standard_schemas())
        if (s.file == a.file) return &s;
  return nullptr;
}

}  // namespace lather::wsdl::detail
