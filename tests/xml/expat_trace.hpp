// Test helper: the expat oracle (namespace mode), rendering events exactly like
// event_trace.hpp so the two strings can be compared.
#pragma once

#include <expat.h>

#include <string>
#include <string_view>

#include "event_trace.hpp"

namespace lather::xml::test {

struct expat_result {
  std::string events;
  bool accepted = false;
  int code = 0;  ///< XML_Error when rejected
};

namespace detail {
struct expat_state {
  trace_builder tb;
};
inline void split_name(std::string_view n, std::string_view& ns, std::string_view& local) {
  auto sep = n.find('\x01');
  if (sep == std::string_view::npos) {
    ns = {};
    local = n;
  } else {
    ns = n.substr(0, sep);
    local = n.substr(sep + 1);
  }
}
inline void XMLCALL on_start(void* ud, const XML_Char* name, const XML_Char** atts) {
  auto* s = static_cast<expat_state*>(ud);
  std::string_view ns, local;
  split_name(name, ns, local);
  s->tb.start(ns, local);
  for (int i = 0; atts[i]; i += 2) {
    split_name(atts[i], ns, local);
    s->tb.attribute(ns, local, atts[i + 1]);
  }
  s->tb.end_start();
}
inline void XMLCALL on_end(void* ud, const XML_Char*) {
  static_cast<expat_state*>(ud)->tb.end();
}
inline void XMLCALL on_text(void* ud, const XML_Char* s, int len) {
  static_cast<expat_state*>(ud)->tb.text(std::string_view(s, static_cast<std::size_t>(len)));
}
}  // namespace detail

/// Parses `doc` with expat in namespace mode (separator U+0001), whole.
inline expat_result run_expat(std::string_view doc) {
  detail::expat_state state;
  XML_Parser p = XML_ParserCreateNS(nullptr, '\x01');
  XML_SetUserData(p, &state);
  XML_SetElementHandler(p, detail::on_start, detail::on_end);
  XML_SetCharacterDataHandler(p, detail::on_text);
  expat_result r;
  r.accepted = XML_Parse(p, doc.data(), static_cast<int>(doc.size()), 1) == XML_STATUS_OK;
  r.code = r.accepted ? 0 : static_cast<int>(XML_GetErrorCode(p));
  r.events = state.tb.take();
  XML_ParserFree(p);
  return r;
}

}  // namespace lather::xml::test
