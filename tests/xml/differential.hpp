// Test helper: differential check of the lather reader against expat on one input, in every
// feeding mode. Shared by the CTest differential test and the libFuzzer target.
#pragma once

#include <string>
#include <string_view>

#include "event_trace.hpp"
#include "expat_trace.hpp"

namespace lather::xml::test {

/// True when lather's rejection is one it makes by design where expat may accept: DTDs,
/// processing instructions, encodings other than UTF-8/US-ASCII, and its limits.
inline bool rejected_by_design(errc code) {
  return code == errc::doctype_forbidden || code == errc::pi_forbidden ||
         code == errc::unsupported_encoding || code == errc::limit_depth ||
         code == errc::limit_name_length || code == errc::limit_attributes ||
         code == errc::limit_namespaces || code == errc::limit_text_length ||
         code == errc::limit_total_bytes || code == errc::limit_attribute_length;
}

/// expat accepts any version number in the XML declaration ("2.0", "1."); lather holds to the
/// XML 1.0 grammar (VersionNum ::= '1.' [0-9]+). The declaration opens the document, after a
/// UTF-8 byte order mark if there is one (XML 1.0 fifth edition, 4.3.3 and appendix F.1).
inline bool version_not_1x(std::string_view doc) {
  if (doc.substr(0, 3) == "\xEF\xBB\xBF") doc.remove_prefix(3);
  if (doc.substr(0, 5) != "<?xml") return false;
  auto v = doc.find("version");
  if (v == std::string_view::npos) return false;
  auto q = doc.find_first_of("'\"", v);
  if (q == std::string_view::npos) return false;
  auto close = doc.find(doc[q], q + 1);
  if (close == std::string_view::npos) return false;
  std::string_view value = doc.substr(q + 1, close - q - 1);
  if (value.size() < 3 || value.substr(0, 2) != "1.") return true;
  return value.find_first_not_of("0123456789", 2) != std::string_view::npos;
}

/// True when a non-ASCII character appears in a name position (element or attribute name,
/// entity reference). lather follows the XML 1.0 fifth-edition name characters, expat the
/// older fourth-edition tables, so acceptance may differ there (and only there).
inline bool has_non_ascii_name(std::string_view doc) {
  enum { text, tag, quote, ref } state = text;
  char q = 0;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    char c = doc[i];
    auto high = static_cast<unsigned char>(c) >= 0x80;
    switch (state) {
      case text:
        if (c == '&') {
          state = ref;
        } else if (c == '<') {
          if (doc.substr(i, 4) == "<!--") {
            auto e = doc.find("-->", i + 4);
            if (e == std::string_view::npos) return false;
            i = e + 2;
          } else if (doc.substr(i, 9) == "<![CDATA[") {
            auto e = doc.find("]]>", i + 9);
            if (e == std::string_view::npos) return false;
            i = e + 2;
          } else {
            state = tag;
          }
        }
        break;
      case ref:
        if (high) return true;
        if (c == ';' || c == '<' || c == ' ') state = c == '<' ? tag : text;
        break;
      case tag:
        if (high) return true;
        if (c == '"' || c == '\'') {
          q = c;
          state = quote;
        } else if (c == '>') {
          state = text;
        }
        break;
      case quote:
        if (c == q) {
          state = tag;
        } else if (c == '&') {
          // a reference inside a value: names again
          for (std::size_t j = i + 1; j < doc.size() && doc[j] != ';' && doc[j] != q; ++j) {
            if (static_cast<unsigned char>(doc[j]) >= 0x80) return true;
          }
        }
        break;
    }
  }
  return false;
}

/// Whole-document lather vs expat. Returns "" when they agree, else a description.
inline std::string compare_with_expat(std::string_view doc) {
  trace_result lat = run_reader(doc, feed_mode::whole);
  expat_result exp = run_expat(doc);
  if (!lat.accepted() && rejected_by_design(lat.code)) return {};
  if (lat.code == errc::bad_xml_declaration && version_not_1x(doc)) return {};
  if (lat.accepted() != exp.accepted && has_non_ascii_name(doc)) return {};
  if (lat.accepted() != exp.accepted) {
    return std::string("acceptance differs: lather ") +
           (lat.accepted() ? "accepts"
                           : std::string("rejects (") + describe(lat.code) + " at " +
                                 std::to_string(lat.offset) + ")") +
           ", expat " +
           (exp.accepted ? "accepts"
                         : std::string("rejects (") +
                               XML_ErrorString(static_cast<XML_Error>(exp.code)) + ")");
  }
  if (lat.accepted() && lat.events != exp.events) {
    return "events differ:\n--- lather\n" + lat.events + "--- expat\n" + exp.events;
  }
  return {};
}

/// Streaming run vs whole-document run: same events, code and offset.
inline std::string compare_modes(std::string_view doc, const trace_result& whole, feed_mode mode,
                                 int piece, std::uint32_t seed) {
  trace_result t = run_reader(doc, mode, piece, seed);
  if (t.events == whole.events && t.code == whole.code && t.offset == whole.offset) return {};
  return std::string(mode == feed_mode::push ? "push" : "pull") + " piece " +
         std::to_string(piece) + " seed " + std::to_string(seed) + ": " + describe(t.code) + "@" +
         std::to_string(t.offset) + " vs whole " + describe(whole.code) + "@" +
         std::to_string(whole.offset) +
         (t.events == whole.events ? ""
                                   : "\n--- stream\n" + t.events + "--- whole\n" + whole.events);
}

/// Two pieces split at `at`: the parse-grind step.
inline std::string compare_split(std::string_view doc, const trace_result& whole, std::size_t at) {
  reader r;
  r.reset();
  trace_builder tb;
  std::size_t stage = 0;  // 0: first piece fed next, 1: second, 2: finished
  trace_result t;
  for (;;) {
    token k = r.next();
    if (k == token::need_more) {
      if (stage == 0) {
        r.feed(doc.substr(0, at));
      } else if (stage == 1) {
        r.feed(doc.substr(at));
      } else {
        r.finish();
      }
      if (++stage > 3) return "need_more after finish()";
      continue;
    }
    if (k == token::start_element) {
      tb.start(r.ns(), r.local_name());
      for (const auto& a : r.attributes()) tb.attribute(a.ns, a.local, a.value);
      tb.end_start();
    } else if (k == token::end_element) {
      tb.end();
    } else if (k == token::text) {
      tb.text(r.text());
    } else {
      if (k == token::error) {
        t.code = r.error().code;
        t.offset = r.error().where.offset;
      }
      break;
    }
  }
  t.events = tb.take();
  if (t.events == whole.events && t.code == whole.code && t.offset == whole.offset) return {};
  return "split at " + std::to_string(at) + ": " + describe(t.code) + "@" +
         std::to_string(t.offset) + " vs whole " + describe(whole.code) + "@" +
         std::to_string(whole.offset);
}

}  // namespace lather::xml::test
