// Test helper: run the lather reader over a document in a chosen feeding mode and render the
// event sequence as one comparable string. Shared by the unit, differential and fuzz tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "lather/xml/reader.hpp"

namespace lather::xml::test {

/// How the bytes reach the reader.
enum class feed_mode {
  whole,  ///< reset(document)
  push,   ///< reset(), feed() in pieces, finish() at the end
  pull,   ///< reset(), set_source() handing out pieces
};

/// Outcome of one parse: the rendered events, and the error (code ok when accepted).
struct trace_result {
  std::string events;
  errc code = errc::ok;
  std::uint64_t offset = 0;
  bool accepted() const { return code == errc::ok; }
};

inline void append_escaped(std::string& out, std::string_view s) {
  for (char c : s) {
    if (c == '\\' || c == '|' || c == '\n') {
      out += '\\';
      out += c == '\n' ? 'n' : c;
    } else {
      out += c;
    }
  }
}

/// Renders events: start "<{ns}local {ns}a=v ...", end ">", text "T..." (adjacent text
/// merged), one per line. Attributes in document order.
class trace_builder {
 public:
  void start(std::string_view ns, std::string_view local) {
    flush_text();
    out_ += "<{";
    append_escaped(out_, ns);
    out_ += '}';
    append_escaped(out_, local);
  }
  void attribute(std::string_view ns, std::string_view local, std::string_view value) {
    out_ += " {";
    append_escaped(out_, ns);
    out_ += '}';
    append_escaped(out_, local);
    out_ += '=';
    append_escaped(out_, value);
  }
  void end_start() { out_ += '\n'; }
  void end() {
    flush_text();
    out_ += ">\n";
  }
  void text(std::string_view t) { text_ += t; }
  std::string take() {
    flush_text();
    return std::move(out_);
  }

 private:
  void flush_text() {
    if (text_.empty()) return;
    out_ += 'T';
    append_escaped(out_, text_);
    out_ += '\n';
    text_.clear();
  }
  std::string out_, text_;
};

/// Element names to try with reader::next_simple_element before every next(): the local names
/// of the document's tags (ASCII NCNames only, as the method requires), first seen first.
inline std::vector<std::string> leaf_candidates(std::string_view doc, std::size_t max = 8) {
  auto start = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  auto part = [&](char c) { return start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; };
  std::vector<std::string> names;
  for (std::size_t i = 0; i + 1 < doc.size() && names.size() < max; ++i) {
    if (doc[i] != '<') continue;
    std::size_t b = i + 1, e = b;
    while (e < doc.size() && (part(doc[e]) || doc[e] == ':')) ++e;
    std::string_view name = doc.substr(b, e - b);
    if (std::size_t colon = name.rfind(':'); colon != std::string_view::npos) {
      name.remove_prefix(colon + 1);
    }
    if (name.empty() || !start(name[0])) continue;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
  }
  return names;
}

/// Piece sizes: fixed (`piece` > 0) or random in [1, 2*|piece|] from `seed` (`piece` < 0).
/// With `leaves`, every step first tries next_simple_element() with each of those names and
/// renders a success as the start tag, text and end tag next() would have given (in the open
/// element's namespace): the trace must not change.
inline trace_result run_reader(reader& r, std::string_view doc, feed_mode mode, int piece = 1,
                               std::uint32_t seed = 1,
                               const std::vector<std::string>& leaves = {}) {
  std::mt19937 rng(seed);
  auto next_size = [&]() -> std::size_t {
    if (piece > 0) return static_cast<std::size_t>(piece);
    std::uniform_int_distribution<int> d(1, -2 * piece);
    return static_cast<std::size_t>(d(rng));
  };
  std::size_t fed = 0;
  if (mode == feed_mode::whole) {
    r.reset(doc);
  } else {
    r.reset();
    if (mode == feed_mode::pull) {
      r.set_source([&](char* dest, std::size_t cap) {
        std::size_t n = std::min({next_size(), cap, doc.size() - fed});
        std::copy_n(doc.data() + fed, n, dest);
        fed += n;
        return n;
      });
    } else {
      r.set_source({});
    }
  }
  trace_builder tb;
  trace_result res;
  std::vector<std::string> open_ns;  // namespaces of the open elements (with `leaves`)
  auto read_leaf = [&] {
    for (const std::string& name : leaves) {
      if (!r.next_simple_element(name)) continue;
      // What was asked for, in the open element's namespace; the accessors must agree.
      tb.start(open_ns.back(), name);
      if (r.ns() != open_ns.back() || r.local_name() != name || r.depth() != open_ns.size() + 1 ||
          !r.attributes().empty()) {
        tb.attribute("", "accessors-disagree", "");
      }
      tb.end_start();
      tb.text(r.text());
      tb.end();
      return true;
    }
    return false;
  };
  for (std::size_t guard = 0; guard < 100 * (doc.size() + 10); ++guard) {
    if (!leaves.empty() && !open_ns.empty() && read_leaf()) continue;
    token t = r.next();
    switch (t) {
      case token::start_element:
        tb.start(r.ns(), r.local_name());
        for (const auto& a : r.attributes()) tb.attribute(a.ns, a.local, a.value);
        tb.end_start();
        if (!leaves.empty()) open_ns.emplace_back(r.ns());
        break;
      case token::end_element:
        tb.end();
        if (!leaves.empty()) open_ns.pop_back();
        break;
      case token::text:
        tb.text(r.text());
        break;
      case token::need_more:
        if (fed == doc.size()) {
          r.finish();
        } else {
          std::size_t n = std::min(next_size(), doc.size() - fed);
          r.feed(doc.substr(fed, n));
          fed += n;
        }
        break;
      case token::end_document:
        res.events = tb.take();
        return res;
      case token::error:
        res.events = tb.take();
        res.code = r.error().code;
        res.offset = r.error().where.offset;
        return res;
    }
  }
  res.events = "LOOP";
  res.code = errc::source_failed;
  return res;
}

inline trace_result run_reader(std::string_view doc, feed_mode mode, int piece = 1,
                               std::uint32_t seed = 1,
                               const std::vector<std::string>& leaves = {}) {
  reader r;
  return run_reader(r, doc, mode, piece, seed, leaves);
}

}  // namespace lather::xml::test
