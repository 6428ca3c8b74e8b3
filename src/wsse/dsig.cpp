#include "dsig.hpp"

#include <stdexcept>

#include "lather/wsse/fault.hpp"
#include "lather/xml/error.hpp"

namespace lather::wsse::detail {

std::string_view id_of(const xml::reader& r) noexcept {
  if (const xml::attribute* a = r.find_attribute(wsu_ns, "Id")) return a->value;
  if (const xml::attribute* a = r.find_attribute({}, "Id")) return a->value;
  return {};
}

c14n_target& canonicalizer::add() {
  c14n_target& t = targets_.add();
  t.id.clear();
  t.ordinal = 0;
  t.md.reset();
  t.prefixes.clear();
  t.found = false;
  t.digest_size = 0;
  t.canonical.clear();
  return t;
}

void canonicalizer::run(std::string_view message) {
  xml::reader& r = reader_;
  r.reset(message);
  running_.clear();
  std::size_t engines_used = 0;
  std::uint64_t ordinal = 0;
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    if (t == xml::token::error) throw xml::error(r.error());
    if (t == xml::token::start_element) {
      ++ordinal;
      const std::string_view id = id_of(r);
      for (c14n_target& target : targets_) {
        const bool hit =
            target.ordinal ? target.ordinal == ordinal : !id.empty() && target.id == id;
        if (!hit || target.found) continue;
        target.found = true;
        if (engines_used == engines_.size()) engines_.push_back(std::make_unique<engine>());
        engine& e = *engines_[engines_used++];
        e.target = &target;
        if (target.md) e.md.init(*target.md);
        e.c14n.reset(target.prefixes);
        running_.push_back(&e);
      }
    }
    for (engine* e : running_) e->c14n.feed(t, r);
    for (std::size_t i = 0; i < running_.size();) {
      engine& e = *running_[i];
      if (!e.c14n.complete()) {
        ++i;
        continue;
      }
      if (e.target->md) e.target->digest_size = e.md.final(e.target->digest);
      running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
}

std::size_t start_tag_end(std::string_view doc, std::size_t lt) {
  char quote = 0;
  for (std::size_t i = lt; i < doc.size(); ++i) {
    const char c = doc[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i;
    }
  }
  throw std::invalid_argument("unterminated start tag");
}

void split_prefixes(std::string_view list, std::vector<std::string>& out) {
  std::size_t n = 0;
  std::size_t at = 0;
  while (at < list.size()) {
    const std::size_t begin = list.find_first_not_of(" \t\r\n", at);
    if (begin == std::string_view::npos) break;
    const std::size_t end = std::min(list.find_first_of(" \t\r\n", begin), list.size());
    if (n == out.size()) out.emplace_back();
    out[n++].assign(list.substr(begin, end - begin));
    at = end;
  }
  out.resize(n);
}

}  // namespace lather::wsse::detail
