#include "dsig.hpp"

#include <memory>
#include <optional>
#include <stdexcept>

#include "lather/wsse/c14n.hpp"
#include "lather/wsse/fault.hpp"
#include "lather/xml/error.hpp"

namespace lather::wsse::detail {

std::string_view id_of(const xml::reader& r) noexcept {
  if (const xml::attribute* a = r.find_attribute(wsu_ns, "Id")) return a->value;
  if (const xml::attribute* a = r.find_attribute({}, "Id")) return a->value;
  return {};
}

namespace {

struct md_ctx_free {
  void operator()(EVP_MD_CTX* p) const noexcept { EVP_MD_CTX_free(p); }
};

// One target being canonicalized.
struct active {
  c14n_target* target;
  std::unique_ptr<EVP_MD_CTX, md_ctx_free> md;
  std::optional<exclusive_c14n> c14n;
};

}  // namespace

void canonicalize_targets(std::string_view message, std::span<c14n_target> targets) {
  xml::reader r;
  r.reset(message);
  std::vector<std::unique_ptr<active>> running;
  std::uint64_t ordinal = 0;
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    if (t == xml::token::error) throw xml::error(r.error());
    if (t == xml::token::start_element) {
      ++ordinal;
      const std::string_view id = id_of(r);
      for (c14n_target& target : targets) {
        const bool hit =
            target.ordinal ? target.ordinal == ordinal : !id.empty() && target.id == id;
        if (!hit || target.found) continue;
        target.found = true;
        auto a = std::make_unique<active>();
        a->target = &target;
        if (target.md) {
          a->md.reset(EVP_MD_CTX_new());
          if (!a->md || EVP_DigestInit_ex(a->md.get(), target.md, nullptr) != 1)
            throw std::runtime_error("OpenSSL digest failed");
          a->c14n.emplace(
              [ctx = a->md.get()](std::string_view bytes) {
                EVP_DigestUpdate(ctx, bytes.data(), bytes.size());
              },
              target.prefixes);
        } else {
          target.canonical.clear();
          a->c14n.emplace([out = &target.canonical](std::string_view bytes) { *out += bytes; },
                          target.prefixes);
        }
        running.push_back(std::move(a));
      }
    }
    for (auto& a : running) a->c14n->feed(t, r);
    for (std::size_t i = 0; i < running.size();) {
      if (!running[i]->c14n->complete()) {
        ++i;
        continue;
      }
      if (running[i]->md) {
        unsigned char out[EVP_MAX_MD_SIZE];
        unsigned size = 0;
        EVP_DigestFinal_ex(running[i]->md.get(), out, &size);
        running[i]->target->digest.assign(out, out + size);
      }
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
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

std::vector<std::string> split_prefixes(std::string_view list) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < list.size()) {
    const std::size_t begin = list.find_first_not_of(" \t\r\n", at);
    if (begin == std::string_view::npos) break;
    const std::size_t end = std::min(list.find_first_of(" \t\r\n", begin), list.size());
    out.emplace_back(list.substr(begin, end - begin));
    at = end;
  }
  return out;
}

}  // namespace lather::wsse::detail
