// XML writer: escaping with an SSE2 scan for the first byte that needs attention, and namespace
// prefix management with per-URI / per-prefix binding chains so that every lookup costs O(1)
// however many declarations are in scope (see seeds/NOTES.md (a), the Axis NSStack bug).
#include "lather/xml/writer.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "scan.hpp"
#include "writer_attributes.hpp"
#include "writer_escape.hpp"
#include "writer_tables.hpp"

namespace lather::xml {

// ---------------------------------------------------------------------------------------------
// writer::state

struct writer::state {
  // One namespace binding in scope. prev_* chain to the binding it shadows (same URI / same
  // prefix), so popping restores the tables exactly.
  struct binding {
    std::string_view prefix;
    std::string_view uri;
    int prev_same_uri;
    int prev_same_prefix;
    std::uint64_t prefix_key;  // tag_cache::key_of(prefix)
  };
  struct frame {
    std::string_view prefix;       // the name's prefix ("" for none; the binding's copy)
    std::string_view local;        // static (a checked ncname) or copied into `names`
    std::uint64_t prefix_key;      // tag_cache::key_of(prefix)
    std::string_view ns;           // the element's namespace URI (stable copy) or ""
    int name_binding;              // binding that supplied the element's prefix, or -1
    std::size_t bindings_at_name;  // bindings in scope once the name was resolved
    std::uint32_t first_binding;
    string_arena::mark names_mark;
  };
  struct pending_declaration {
    std::string_view prefix;
    std::string_view uri;
  };
  enum class phase : std::uint8_t { prolog, in_root, epilog };

  std::vector<binding> bindings;
  std::vector<frame> frames;
  std::vector<pending_declaration> pending;
  string_table uri_top;     // URI -> innermost binding of it
  string_table prefix_top;  // prefix -> innermost binding of it
  string_table assigned;    // URI -> its generated prefix number, for the whole document
  string_arena names;       // scoped: local names, declared prefixes/URIs, pending declarations
  string_arena doc_names;   // whole document: keys of `assigned`
  tag_cache tags;           // leaf tags of static names, kept across documents
  detail::attribute_list tag_attributes;  // those of the open start tag
  // Bumped by every push and pop of a binding: prefix_in_scope's last answer holds while it
  // is unchanged (a QName per item asks the same question again and again).
  std::uint64_t binding_changes = 0;
  struct scope_answer {
    std::uint64_t binding_changes = ~std::uint64_t{0};
    int binding = -1;  // found for bindings[binding].uri (a positive answer)
  };
  mutable scope_answer last_in_scope;
  // The declaration the last QName leaf with an out-of-scope namespace made on itself,
  // ` xmlns:nsN="uri">nsN:`: it holds while no binding is pushed or popped (the URI is still
  // unbound and nsN still free), so a QName per item pays no table work after the first.
  struct leaf_declaration {
    std::uint64_t binding_changes = ~std::uint64_t{0};
    std::string uri;
    std::string bytes;
  };
  leaf_declaration qname_declaration;
  string_arena::mark pending_mark{};
  int next_prefix_number = 1;
  phase at = phase::prolog;
  bool tag_open = false;
  bool tag_has_ns_attribute = false;
  bool wrote_anything = false;
  // Set by attribute() for a name checked per call, whose view attribute_checked must not
  // keep; reset there.
  bool unstable_name = false;

  void reset() {
    frames.clear();
    pending.clear();
    tag_attributes.clear();
    assigned.clear();
    doc_names.clear();
    next_prefix_number = 1;
    at = phase::prolog;
    tag_open = false;
    tag_has_ns_attribute = false;
    wrote_anything = false;
    drop_scoped_bindings();
  }

  // Back to the xml binding alone, with no element open: clearing the tables beats undoing
  // the bindings one by one when a whole document's go at once.
  void drop_scoped_bindings() {
    bindings.clear();
    ++binding_changes;
    uri_top.clear();
    prefix_top.clear();
    names.clear();
    push_binding("xml", xml_ns_uri);  // bound by definition, never declared
  }

  // The table work stays out of line: inlined, it made every start/end tag pay its set-up.
  [[gnu::noinline]] int push_binding(std::string_view prefix, std::string_view uri) {
    const int index = static_cast<int>(bindings.size());
    ++binding_changes;
    const int prev_same_uri = uri_top.exchange(uri, index);
    bindings.push_back({prefix, uri, prev_same_uri, prefix_top.exchange(prefix, index),
                        tag_cache::key_of(prefix)});
    return index;
  }

  [[gnu::noinline]] void pop_bindings(std::size_t first) {
    ++binding_changes;
    while (bindings.size() > first) {
      const binding& b = bindings.back();
      if (b.prev_same_uri < 0)
        uri_top.erase(b.uri);
      else
        uri_top.set(b.uri, b.prev_same_uri);
      if (b.prev_same_prefix < 0)
        prefix_top.erase(b.prefix);
      else
        prefix_top.set(b.prefix, b.prev_same_prefix);
      bindings.pop_back();
    }
  }

  // Innermost binding whose prefix maps to `uri` right now, or -1. A binding may be shadowed
  // by a later binding of its prefix to another URI; those are skipped.
  [[gnu::noinline]] int find_prefix(std::string_view uri, bool allow_default) const {
    for (int i = uri_top.get(uri); i >= 0; i = bindings[i].prev_same_uri) {
      const binding& b = bindings[i];
      if (b.prefix.empty() && !allow_default) continue;
      if (prefix_top.get(b.prefix) == i) return i;
    }
    return -1;
  }

  // A generated prefix "nsN" for `uri`, written into buf: the number this URI already got in
  // this document if that prefix is free here, else the next unused number.
  [[gnu::noinline]] std::string_view pick_prefix(std::string_view uri, char (&buf)[16]) {
    const int assigned_number = assigned.get(uri);
    const bool known = assigned_number >= 0;
    int number = assigned_number;
    buf[0] = 'n';
    buf[1] = 's';
    for (;;) {
      if (number < 0) number = next_prefix_number++;
      const auto r = std::to_chars(buf + 2, buf + sizeof buf, number);
      const std::string_view candidate{buf, static_cast<std::size_t>(r.ptr - buf)};
      if (prefix_top.get(candidate) < 0) {
        if (!known)
          assigned.set(doc_names.store(uri), number);
        else if (number != assigned_number)
          assigned.set(uri, number);  // value update only: the key is stored already
        return candidate;
      }
      number = -1;  // bound here by the user: take the next number
    }
  }
  // The same, stored in the scoped arena for a binding.
  std::string_view generate_prefix(std::string_view uri) {
    char buf[16];
    return names.store(pick_prefix(uri, buf));
  }

  // The prefix a leaf in `uri` takes without a frame of its own: the innermost binding of uri in
  // scope, or none for no namespace outside a default one (what start_element would use, with
  // no declaration on the leaf). False when start_element would declare something.
  [[gnu::noinline]] bool leaf_prefix(std::string_view uri, std::string_view& prefix,
                                     std::uint64_t& prefix_key) const {
    if (uri.empty()) {
      if (!default_namespace().empty()) return false;  // the leaf needs xmlns=""
      prefix = {};
      prefix_key = 0;
      return true;
    }
    const int b = uri == xmlns_ns_uri ? -1 : find_prefix(uri, true);
    if (b < 0) return false;
    prefix = bindings[b].prefix;
    prefix_key = bindings[b].prefix_key;
    return true;
  }

  // Applies the pending declarations to the element being started and resolves its prefix
  // (declaring one when needed) into f. On a refused declaration: undoes this element's
  // bindings, drops the pending declarations and throws, leaving the writer as if the element
  // had not been started.
  [[gnu::noinline]] void resolve_element(const output& out, frame& f, std::string_view ns) {
    auto abandon_start = [&](const char* what) {
      pop_bindings(f.first_binding);
      names.release(f.names_mark);
      pending.clear();
      fail(out, errc::writer_bad_state, what);
    };
    if (!pending.empty()) {
      f.names_mark = pending_mark;
      for (const auto& d : pending) {
        const int current = prefix_top.get(d.prefix);
        if (current >= static_cast<int>(f.first_binding)) {
          if (bindings[current].uri == d.uri) continue;
          abandon_start("one prefix declared twice on an element");
        }
        push_binding(d.prefix, d.uri);
      }
    }
    if (ns.empty()) {
      if (!default_namespace().empty()) {
        const int current = prefix_top.get({});
        if (current >= static_cast<int>(f.first_binding))
          abandon_start("element in no namespace under its own xmlns");
        push_binding({}, {});
      }
    } else {
      f.name_binding = find_prefix(ns, true);
      if (f.name_binding < 0) {
        const std::string_view uri = names.store(ns);
        f.name_binding = push_binding(generate_prefix(uri), uri);
      }
      f.ns = bindings[f.name_binding].uri;
    }
  }

  // The URI the default namespace maps to right now ("" when none).
  std::string_view default_namespace() const {
    const int i = prefix_top.get({});
    return i < 0 ? std::string_view{} : bindings[i].uri;
  }
};

// ---------------------------------------------------------------------------------------------
// writer

writer::writer(output& out) : out_(out), st_(new state) {
  try {
    st_->reset();  // allocates: out of memory here must not leak the state
  } catch (...) {
    delete st_;
    throw;
  }
}

writer::~writer() {
  delete st_;
}

void writer::reset() {
  st_->reset();
}

std::size_t writer::depth() const noexcept {
  return st_->frames.size();
}

void writer::xml_declaration() {
  if (st_->wrote_anything)
    fail(out_, errc::writer_bad_state, "the XML declaration must come first");
  st_->wrote_anything = true;
  out_.append(R"(<?xml version="1.0" encoding="UTF-8"?>)");
}

document_start::document_start(const std::function<void(writer&)>& build)
    : out_(std::make_unique<output>()), recorder_(std::make_unique<writer>(*out_)) {
  build(*recorder_);
  const writer::state& st = *recorder_->st_;
  if (st.frames.empty() || st.at != writer::state::phase::in_root || !st.pending.empty() ||
      st.next_prefix_number != 1)
    fail(*out_, errc::writer_bad_state,
         "a document start must leave its root open, declare every prefix it uses and leave "
         "no declaration pending");
}

document_start::~document_start() = default;

std::string_view document_start::bytes() const noexcept {
  return out_->view();
}

void writer::start_document(const document_start& start) {
  state& st = *st_;
  if (st.at != state::phase::prolog || !st.pending.empty() ||
      (st.wrote_anything && start.bytes().starts_with("<?xml")))
    fail(out_, errc::writer_bad_state,
         "a recorded document start needs a writer before its root, with nothing pending");
  const state& recorded = *start.recorder_->st_;
  out_.append(start.out_->view());
  // Both writers hold only the xml binding before the root, so the recorded frames' binding
  // indices hold here as they are; their strings stay in `start`.
  for (std::size_t i = st.bindings.size(); i < recorded.bindings.size(); ++i)
    st.push_binding(recorded.bindings[i].prefix, recorded.bindings[i].uri);
  const string_arena::mark names_mark = st.names.get_mark();
  for (state::frame f : recorded.frames) {
    f.names_mark = names_mark;  // nothing of this writer's arena to release at their ends
    st.frames.push_back(f);
  }
  st.at = state::phase::in_root;
  st.tag_open = recorded.tag_open;
  st.tag_has_ns_attribute = recorded.tag_has_ns_attribute;
  if (recorded.tag_attributes.empty())
    st.tag_attributes.clear();
  else
    st.tag_attributes.assign(recorded.tag_attributes, *start.out_);
  st.wrote_anything = true;
}

namespace {

void write_declaration(output& out, std::string_view prefix, std::string_view uri) {
  if (prefix.empty()) {
    out.append(" xmlns=\"");
  } else {
    out.append(" xmlns:");
    out.append(prefix);
    out.append("=\"");
  }
  write_escaped<mode::attribute>(out, uri);
  out.push_back('"');
}

void check_declaration(const output& out, std::string_view prefix, std::string_view uri) {
  if (!prefix.empty()) check_ncname(out, prefix, "namespace prefix");
  if ((prefix == "xml") != (uri == xml_ns_uri) || prefix == "xmlns" || uri == xmlns_ns_uri)
    fail(out, errc::writer_bad_state, "the xml/xmlns prefixes and URIs are reserved");
  if (!prefix.empty() && uri.empty())
    fail(out, errc::writer_bad_state, "a prefix cannot be bound to the empty namespace");
}

}  // namespace

void writer::declare_namespace(std::string_view prefix, std::string_view uri) {
  state& st = *st_;
  check_declaration(out_, prefix, uri);
  if (prefix == "xml") return;
  if (st.at == state::phase::epilog)
    fail(out_, errc::writer_bad_state, "namespace declaration after the root element");
  if (!st.tag_open) {
    if (st.pending.empty()) st.pending_mark = st.names.get_mark();
    st.pending.push_back({st.names.store(prefix), st.names.store(uri)});
    return;
  }
  state::frame& f = st.frames.back();
  const int current = st.prefix_top.get(prefix);
  if (current >= 0 && st.bindings[current].uri == uri) {
    if (static_cast<std::uint32_t>(current) >= f.first_binding) return;  // already on this tag
  } else if (current >= 0) {
    // Rebinding a prefix must not change what this tag's name or attributes already mean.
    const bool names_element = f.name_binding >= 0 && st.bindings[f.name_binding].prefix == prefix;
    const bool unprefixed_element = f.name_binding < 0 && prefix.empty();
    if (static_cast<std::uint32_t>(current) >= f.first_binding || names_element ||
        unprefixed_element || st.tag_has_ns_attribute)
      fail(out_, errc::writer_bad_state, "conflicting namespace declaration on an open tag");
  } else if (prefix.empty() && f.name_binding < 0 && !uri.empty()) {
    fail(out_, errc::writer_bad_state, "default namespace would change the element's namespace");
  }
  const std::string_view stored_prefix = st.names.store(prefix);
  const std::string_view stored_uri = st.names.store(uri);
  st.push_binding(stored_prefix, stored_uri);
  write_declaration(out_, stored_prefix, stored_uri);
}

namespace {
// Writes "<prefix:local" or "</prefix:local>" (the colon only with a prefix) in one go.
[[gnu::always_inline]] inline void write_name(output& out, std::string_view lead,
                                              std::string_view prefix, std::string_view local,
                                              std::string_view trail) {
  const std::size_t n =
      lead.size() + prefix.size() + (prefix.empty() ? 0 : 1) + local.size() + trail.size();
  char* p = out.prepare(n);
  detail::copy_bytes(p, lead.data(), lead.size());
  p += lead.size();
  detail::copy_bytes(p, prefix.data(), prefix.size());
  p += prefix.size();
  *p = ':';
  p += prefix.empty() ? 0 : 1;
  detail::copy_bytes(p, local.data(), local.size());
  detail::copy_bytes(p + local.size(), trail.data(), trail.size());
  out.commit(n);
}

// Appends a cached end tag, "</p:local>".
[[gnu::always_inline]] inline void write_end_tag(output& out, const tag_cache::entry& e) {
  out.commit(tag_cache::put(out.prepare(tag_cache::max_tag), e, true));
}

// Ends a start tag still open ("<p:name attr='v'") with its '>' before the element's content.
[[gnu::always_inline]] inline void close_start_tag(output& out, bool& tag_open) {
  if (tag_open) {
    out.push_back('>');
    tag_open = false;
  }
}

// A cached start tag put at `start` (prepared, not committed) whose text would begin at `text`,
// turned into an empty element: "<p:name/>".
[[gnu::always_inline]] inline void commit_empty_leaf(output& out, char* start, char* text) {
  text[-1] = '/';
  text[0] = '>';
  out.commit(static_cast<std::size_t>(text + 1 - start));
}

// Closes the innermost element: "/>" while its start tag is still open, else its end tag.
[[gnu::always_inline]] inline void write_end(output& out, bool& tag_open, std::string_view prefix,
                                             std::string_view local) {
  if (tag_open) {
    out.append("/>");
    tag_open = false;
  } else {
    write_name(out, "</", prefix, local, ">");
  }
}
}  // namespace

// Inlined into both start_element()s: the call would cost more than the name check saves.
// `stable_local`: the name is static (a checked ncname), so the frame can keep the view.
[[gnu::always_inline]] inline void writer::start_checked(std::string_view ns,
                                                         std::string_view local,
                                                         bool stable_local) {
  state& st = *st_;
  if (st.at == state::phase::epilog) fail(out_, errc::writer_bad_state, "a second root element");
  if (ns == xmlns_ns_uri) fail(out_, errc::writer_bad_state, "the xmlns namespace is reserved");
  close_start_tag(out_, st.tag_open);
  out_.maybe_flush();

  state::frame f;
  f.first_binding = static_cast<std::uint32_t>(st.bindings.size());
  f.names_mark = st.names.get_mark();
  // Fast path: same namespace as the parent and no declaration since the parent's name was
  // resolved, so the lookup would give the parent's binding again.
  const state::frame* parent = st.frames.empty() ? nullptr : &st.frames.back();
  if (st.pending.empty() && parent != nullptr && parent->bindings_at_name == st.bindings.size() &&
      parent->ns.size() == ns.size() &&
      detail::same_bytes(parent->ns.data(), ns.data(), ns.size())) {
    f.ns = parent->ns;
    f.prefix = parent->prefix;
    f.prefix_key = parent->prefix_key;
    f.name_binding = parent->name_binding;
    f.bindings_at_name = parent->bindings_at_name;
  } else {
    f.ns = {};
    f.name_binding = -1;
    st.resolve_element(out_, f, ns);
    f.bindings_at_name = st.bindings.size();
    f.prefix = f.name_binding < 0 ? std::string_view{} : st.bindings[f.name_binding].prefix;
    f.prefix_key = f.name_binding < 0 ? 0 : st.bindings[f.name_binding].prefix_key;
    st.pending.clear();
  }
  write_name(out_, "<", f.prefix, local, {});
  for (std::size_t i = f.first_binding; i < st.bindings.size(); ++i)
    write_declaration(out_, st.bindings[i].prefix, st.bindings[i].uri);
  f.local = stable_local ? local : st.names.store(local);
  st.frames.push_back(f);
  st.at = state::phase::in_root;
  st.tag_open = true;
  st.tag_has_ns_attribute = false;
  st.tag_attributes.clear();
  st.wrote_anything = true;
}

void writer::start_element(std::string_view ns, std::string_view local) {
  check_ncname(out_, local, "element name");
  start_checked(ns, local, false);
}

void writer::start_element(std::string_view ns, ncname local) {
  if (!local.checked()) check_ncname(out_, local.text(), "element name");
  start_checked(ns, local.text(), true);
}

void writer::attribute(std::string_view ns, std::string_view local, std::string_view value) {
  check_ncname(out_, local, "attribute name");
  st_->unstable_name = true;  // attribute_checked does not keep its view
  attribute_checked(ns, local, value);
}

void writer::attribute(std::string_view ns, ncname local, std::string_view value) {
  if (!local.checked()) check_ncname(out_, local.text(), "attribute name");
  attribute_checked(ns, local.text(), value);
}

void writer::attribute_checked(std::string_view ns, std::string_view local,
                               std::string_view value) {
  state& st = *st_;
  const bool stable_local = !std::exchange(st.unstable_name, false);
  if (!st.tag_open) fail(out_, errc::writer_bad_state, "attribute outside a start tag");
  if (ns == xmlns_ns_uri || (ns.empty() && local == "xmlns"))
    fail(out_, errc::writer_bad_state, "namespace declarations go through declare_namespace");
  if (!st.tag_attributes.empty()) [[unlikely]]  // out of line: from a tag's second one on
    st.tag_attributes.check_new(out_, ns, local);
  if (ns.empty()) {
    out_.push_back(' ');
  } else {
    int b = st.find_prefix(ns, false);
    if (b < 0) {
      const std::string_view uri = st.names.store(ns);
      b = st.push_binding(st.generate_prefix(uri), uri);
      // The declaration goes before the attribute on the same tag: order is irrelevant.
      write_declaration(out_, st.bindings[b].prefix, st.bindings[b].uri);
    }
    ns = st.bindings[b].uri;  // a view that lasts while the tag is open
    out_.push_back(' ');
    out_.append(st.bindings[b].prefix);
    out_.push_back(':');
    st.tag_has_ns_attribute = true;
  }
  // A name checked per call may not outlive the call: its copy is the one written.
  if (stable_local) [[likely]]
    st.tag_attributes.add(ns, local);
  else
    st.tag_attributes.add_written(ns, local.size(), out_.flushed() + out_.size());
  out_.append(local);
  out_.append("=\"");
  write_escaped<mode::attribute>(out_, value);
  out_.push_back('"');
}

std::string_view writer::prefix_for(std::string_view ns) {
  state& st = *st_;
  if (ns.empty()) {
    if (st.default_namespace().empty()) return {};
    // Undeclaring the default is only possible on an open tag whose name has a prefix.
    if (st.tag_open && st.frames.back().name_binding >= 0 &&
        !st.bindings[st.frames.back().name_binding].prefix.empty() &&
        st.prefix_top.get({}) < static_cast<int>(st.frames.back().first_binding)) {
      st.push_binding({}, {});
      write_declaration(out_, {}, {});
      return {};
    }
    fail(out_, errc::writer_bad_state, "no-namespace QName under a default namespace");
  }
  if (ns == xmlns_ns_uri) fail(out_, errc::writer_bad_state, "the xmlns namespace is reserved");
  int b = st.find_prefix(ns, true);
  if (b < 0) {
    if (!st.tag_open)
      fail(out_, errc::writer_bad_state, "prefix_for needs an open start tag to declare");
    const std::string_view uri = st.names.store(ns);
    b = st.push_binding(st.generate_prefix(uri), uri);
    write_declaration(out_, st.bindings[b].prefix, st.bindings[b].uri);
  }
  return st.bindings[b].prefix;
}

std::optional<std::string_view> writer::prefix_in_scope(std::string_view ns) const {
  const state& st = *st_;
  if (ns.empty() || !st.pending.empty()) return std::nullopt;
  state::scope_answer& last = st.last_in_scope;
  if (last.binding_changes == st.binding_changes) {  // nothing pushed or popped since
    const std::string_view uri = st.bindings[last.binding].uri;
    if (uri.size() == ns.size() && detail::same_bytes(uri.data(), ns.data(), ns.size()))
      return st.bindings[last.binding].prefix;
  }
  const int b = st.find_prefix(ns, false);
  if (b < 0) return std::nullopt;
  last = {st.binding_changes, b};
  return st.bindings[b].prefix;
}

bool is_text(std::string_view s) noexcept {
  const char* p = s.data();
  const char* const end = p + s.size();
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x80) {
      const std::size_t n = utf8_char_length(p, end);
      if (n == 0) return false;
      p += n;
      continue;
    }
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
    ++p;
  }
  return true;
}

namespace {
// Escaped character data; long texts go out in slices so a streaming output can hand them on
// as they are written.
void write_text_slices(output& out, std::string_view s) {
  constexpr std::size_t slice = 64 * 1024;
  while (s.size() > slice) {
    std::size_t cut = slice;
    while ((static_cast<std::uint8_t>(s[cut]) & 0xC0) == 0x80 && cut > slice - 4) --cut;
    write_escaped<mode::text>(out, s.substr(0, cut));
    s.remove_prefix(cut);
    out.maybe_flush();
  }
  write_escaped<mode::text>(out, s);
}
}  // namespace

void writer::text(std::string_view s) {
  state& st = *st_;
  if (s.empty()) return;
  if (st.frames.empty()) fail(out_, errc::writer_bad_state, "text outside the root element");
  close_start_tag(out_, st.tag_open);
  write_text_slices(out_, s);
}

namespace {
// Longest text a leaf writes with one capacity check (copy, then scan in place); longer texts
// go through write_text_slices.
constexpr std::size_t leaf_in_one_go = 1024;
}  // namespace

namespace {
// Copies a leaf's text to `text` (which has s.size() + 16 bytes of room), scans it there and
// commits it with the end tag; escapes from the first byte that needs it on.
[[gnu::always_inline]] inline void finish_leaf(output& out, char* start, char* text,
                                               std::string_view s, const tag_cache::entry& tag) {
  detail::copy_bytes(text, s.data(), s.size());
  const std::size_t clean = clean_length<mode::text>(text, s.size());
  if (clean == s.size()) {
    out.commit(static_cast<std::size_t>(text + clean - start) +
               tag_cache::put(text + clean, tag, true));
  } else {
    out.commit(static_cast<std::size_t>(text + clean - start));
    write_escaped<mode::text>(out, s.substr(clean));
    write_end_tag(out, tag);
  }
}
}  // namespace

// Whether the leaf {ns}local can go out without a frame of its own, with ns's prefix resolved
// into `ns`: kept from the last leaf while no binding was pushed or popped since, else the
// parent's own (same namespace, nothing declared since its name) or the one in scope.
[[gnu::always_inline]] inline bool writer::resolve_leaf(leaf_namespace& ns, ncname local) {
  state& st = *st_;
  if (!local.checked() || st.frames.empty() || !st.pending.empty()) return false;
  if (ns.resolved_by_ == st_ && ns.binding_changes_ == st.binding_changes) return true;
  const state::frame& parent = st.frames.back();
  if (parent.bindings_at_name == st.bindings.size() && parent.ns.size() == ns.ns_.size() &&
      detail::same_bytes(parent.ns.data(), ns.ns_.data(), ns.ns_.size())) {
    ns.prefix_ = parent.prefix;
    ns.prefix_key_ = parent.prefix_key;
  } else if (!st.leaf_prefix(ns.ns_, ns.prefix_, ns.prefix_key_)) {
    return false;
  }
  ns.resolved_by_ = st_;
  ns.binding_changes_ = st.binding_changes;
  return true;
}

void writer::text_element(leaf_namespace& ns, ncname local, std::string_view s) {
  state& st = *st_;
  // One call instead of three when the element takes a prefix in scope as it is: no frame, no
  // arena, one prefix copy.
  if (!resolve_leaf(ns, local)) {
    start_element(ns.ns(), local);
    text(s);
    end_element();
    return;
  }
  close_start_tag(out_, st.tag_open);
  // No maybe_flush() before the leaf: the one after it keeps the output within the threshold
  // plus one leaf.
  const tag_cache::entry* tag =
      s.size() <= leaf_in_one_go ? st.tags.find(ns.prefix_key_, ns.prefix_, local.text()) : nullptr;
  if (tag == nullptr) {
    if (s.empty()) {
      write_name(out_, "<", ns.prefix_, local.text(), "/>");
    } else {
      write_name(out_, "<", ns.prefix_, local.text(), ">");
      write_text_slices(out_, s);
      write_name(out_, "</", ns.prefix_, local.text(), ">");
    }
    out_.maybe_flush();
    return;
  }
  // One capacity check for the whole leaf: both tags with their fixed-width copies, and the
  // text, copied first and scanned where it landed (16 bytes at a time, so 16 bytes of room).
  char* const start = out_.prepare(2 * tag_cache::max_tag + s.size() + 16);
  char* const text = start + tag_cache::put(start, *tag, false);
  if (s.empty()) {
    commit_empty_leaf(out_, start, text);
  } else {
    finish_leaf(out_, start, text, s, *tag);
  }
  out_.maybe_flush();
}

void writer::qname_element(leaf_namespace& ns, ncname local, std::string_view value_ns,
                           std::string_view value_local) {
  state& st = *st_;
  const tag_cache::entry* tag = nullptr;
  if (!value_ns.empty() && value_local.size() <= leaf_in_one_go && resolve_leaf(ns, local)) {
    close_start_tag(out_, st.tag_open);
    tag = st.tags.find(ns.prefix_key_, ns.prefix_, local.text());
  }
  // The prefix in scope for value_ns (what prefix_in_scope() answers), else the declaration
  // the leaf makes on itself (what prefix_for() would declare on its open start tag).
  std::string_view prefix;
  std::string_view declaration;
  bool found = false;
  if (tag != nullptr) {
    const state::scope_answer& last = st.last_in_scope;
    state::leaf_declaration& made = st.qname_declaration;
    if (last.binding_changes == st.binding_changes &&
        st.bindings[last.binding].uri.size() == value_ns.size() &&
        detail::same_bytes(st.bindings[last.binding].uri.data(), value_ns.data(),
                           value_ns.size())) {
      prefix = st.bindings[last.binding].prefix;
      found = true;
    } else if (made.binding_changes == st.binding_changes && made.uri.size() == value_ns.size() &&
               detail::same_bytes(made.uri.data(), value_ns.data(), value_ns.size())) {
      declaration = made.bytes;
      found = true;
    } else if (const int b = st.find_prefix(value_ns, false); b >= 0) {
      st.last_in_scope = {st.binding_changes, b};
      prefix = st.bindings[b].prefix;
      found = true;
    } else if (st.find_prefix(value_ns, true) < 0 && value_ns != xmlns_ns_uri &&
               find_attention<mode::attribute>(value_ns.data(),
                                               value_ns.data() + value_ns.size()) ==
                   value_ns.data() + value_ns.size()) {
      // Unbound, and the URI goes into the declaration as it is: record ` xmlns:nsN="uri">nsN:`.
      char buf[16];
      const std::string_view generated = st.pick_prefix(value_ns, buf);
      made.uri.assign(value_ns);
      made.bytes.assign(" xmlns:").append(generated).append("=\"").append(value_ns);
      made.bytes.append("\">").append(generated).push_back(':');
      made.binding_changes = st.binding_changes;
      declaration = made.bytes;
      found = true;
    }
  }
  if (!found) {  // the general path: the default namespace, an URI to escape, errors
    start_element(ns.ns(), local);
    const std::string_view p = prefix_for(value_ns);
    if (!p.empty()) {
      text(p);
      text(":");
    }
    text(value_local);
    end_element();
    return;
  }
  char* const start = out_.prepare(2 * tag_cache::max_tag + declaration.size() + prefix.size() + 1 +
                                   value_local.size() + 16);
  char* text = start + tag_cache::put(start, *tag, false);
  if (!declaration.empty()) {  // over the start tag's '>': the declaration ends with it
    std::memcpy(text - 1, declaration.data(), declaration.size());
    text += declaration.size() - 1;
  } else if (!prefix.empty()) {
    detail::copy_bytes(text, prefix.data(), prefix.size());
    text[prefix.size()] = ':';
    text += prefix.size() + 1;
  }
  finish_leaf(out_, start, text, value_local, *tag);
  out_.maybe_flush();
}

void writer::formatted_element(leaf_namespace& ns, ncname local, std::size_t max_text,
                               format_fn format, const void* context) {
  state& st = *st_;
  if (!resolve_leaf(ns, local)) {  // the text goes after the '>' closing the start tag, if any
    start_element(ns.ns(), local);
    char* const p = out_.prepare(max_text + 1);
    const std::size_t n = format(context, p + 1);
    if (n != 0) {
      p[0] = '>';
      out_.commit(n + 1);
      st.tag_open = false;
    }
    end_element();
    return;
  }
  close_start_tag(out_, st.tag_open);
  const tag_cache::entry* tag = st.tags.find(ns.prefix_key_, ns.prefix_, local.text());
  if (tag == nullptr) {
    write_name(out_, "<", ns.prefix_, local.text(), {});
    char* const p = out_.prepare(max_text + 1);
    const std::size_t n = format(context, p + 1);
    if (n == 0) {
      out_.append("/>");
    } else {
      p[0] = '>';
      out_.commit(n + 1);
      write_name(out_, "</", ns.prefix_, local.text(), ">");
    }
    out_.maybe_flush();
    return;
  }
  char* const start = out_.prepare(2 * tag_cache::max_tag + max_text);
  char* const text = start + tag_cache::put(start, *tag, false);
  const std::size_t n = format(context, text);
  if (n == 0) {
    commit_empty_leaf(out_, start, text);
  } else {
    out_.commit(static_cast<std::size_t>(text + n - start) + tag_cache::put(text + n, *tag, true));
  }
  out_.maybe_flush();
}

void writer::cdata(std::string_view s) {
  state& st = *st_;
  if (st.frames.empty()) fail(out_, errc::writer_bad_state, "CDATA outside the root element");
  close_start_tag(out_, st.tag_open);
  out_.append("<![CDATA[");
  const char* p = s.data();
  const char* const end = p + s.size();
  while (p != end) {
    const char* stop = find_attention<mode::cdata>(p, end);
    if (stop != p) out_.append({p, static_cast<std::size_t>(stop - p)});
    if (stop == end) break;
    p = stop;
    if (*p == ']') {
      if (end - p >= 3 && p[1] == ']' && p[2] == '>') {
        out_.append("]]]]><![CDATA[>");  // split "]]>" across two sections
        p += 3;
      } else {
        out_.push_back(']');
        ++p;
      }
      continue;
    }
    if (*p == '\r') {  // CDATA cannot carry a CR through end-of-line handling
      out_.append("]]>&#13;<![CDATA[");
      ++p;
      continue;
    }
    const std::size_t n = byte_at(p) < 0x80 ? 0 : utf8_char_length(p, end);
    if (n == 0) fail_char(out_, p, "CDATA");
    out_.append({p, n});
    p += n;
  }
  out_.append("]]>");
}

void writer::end_element() {
  state& st = *st_;
  if (st.frames.empty()) fail(out_, errc::writer_bad_state, "end_element without an open element");
  if (!st.pending.empty())  // their names live above this element's arena mark
    fail(out_, errc::writer_bad_state, "namespace declared for a start tag that never came");
  const state::frame& f = st.frames.back();
  write_end(out_, st.tag_open, f.prefix, f.local);
  if (st.bindings.size() > f.first_binding) st.pop_bindings(f.first_binding);
  st.names.release(f.names_mark);
  st.frames.pop_back();
  if (st.frames.empty()) st.at = state::phase::epilog;
  out_.maybe_flush();
}

void writer::raw(std::string_view s) {
  state& st = *st_;
  close_start_tag(out_, st.tag_open);
  st.wrote_anything = true;
  out_.append(s);
}

void writer::end_document() {
  state& st = *st_;
  if (st.at == state::phase::prolog) fail(out_, errc::writer_bad_state, "no root element");
  if (!st.pending.empty())
    fail(out_, errc::writer_bad_state, "namespace declared for a start tag that never came");
  if (!st.frames.empty()) {
    for (; !st.frames.empty(); st.frames.pop_back())
      write_end(out_, st.tag_open, st.frames.back().prefix, st.frames.back().local);
    st.drop_scoped_bindings();
    st.at = state::phase::epilog;
  }
  out_.flush();
}

}  // namespace lather::xml
