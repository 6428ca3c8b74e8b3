#include "lather/soap/encoded.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "detail.hpp"
#include "lather/bind/bind.hpp"

namespace lather::soap {

// ---------------------------------------------------------------- encoder

encoder::encoder(xml::writer& w, encode_options options) : w_(w), options_(options) {}
encoder::~encoder() = default;

void encoder::reset() {
  refs_.clear();
  visits_.clear();
  to_write_.clear();
  next_id_ = 0;
}

encoder::ref_info& encoder::lookup(const void* object) {
  return refs_[object];
}

void encoder::drain_visits() {
  // Objects are visited from a worklist, so a long chain of shared_ptrs does not recurse.
  while (!visits_.empty()) {
    const auto [object, visit] = visits_.back();
    visits_.pop_back();
    visit(*this, object);
  }
}

void encoder::start(std::string_view ns, std::string_view name) {
  w_.start_element(ns, name);
}
void encoder::end() {
  w_.end_element();
}

void encoder::append_qname(std::string_view ns, std::string_view local) {
  const std::string_view prefix = w_.prefix_for(ns);
  if (!prefix.empty()) {
    type_text_ += prefix;
    type_text_ += ':';
  }
  type_text_ += local;
}

void encoder::fail_abstract(std::string_view ns, std::string_view local) {
  bind::detail::throw_abstract_type(ns, local);
}

void encoder::type_attribute(std::string_view ns, std::string_view local) {
  scratch_.clear();
  const std::string_view prefix = w_.prefix_for(ns);
  if (!prefix.empty()) {
    scratch_ += prefix;
    scratch_ += ':';
  }
  scratch_ += local;
  w_.attribute(xsi_ns, "type", scratch_);
}

void encoder::nil() {
  w_.attribute(xsi_ns, "nil", "true");
}

namespace {
void append_id(std::string& out, std::uint32_t id) {
  char buf[16];
  out += "id";
  out.append(buf, std::to_chars(buf, buf + sizeof buf, id).ptr);
}
}  // namespace

void encoder::href(ref_info& ref, const void* object, erased_fn write) {
  if (ref.id == 0) {
    ref.id = ++next_id_;
    to_write_.push_back({object, write, ref.id});
  }
  scratch_.clear();
  scratch_ += '#';
  append_id(scratch_, ref.id);
  w_.attribute({}, "href", scratch_);
}

void encoder::array_type_attribute(std::size_t items, std::string_view dims) {
  type_attribute(soap11_encoding_ns, "Array");
  type_text_ += '[';
  if (dims.empty()) {
    char buf[24];
    type_text_.append(buf, std::to_chars(buf, buf + sizeof buf, items).ptr);
  } else {
    type_text_ += dims;
  }
  type_text_ += ']';
  w_.attribute(soap11_encoding_ns, "arrayType", type_text_);
}

void encoder::write_any(std::string_view ns, std::string_view name, const bind::any_type& v) {
  if (v.xml.empty()) {
    start(ns, name);
    return end();
  }
  bind::write(w_, ns, name, v);
}

void encoder::write_independents() {
  for (std::size_t i = 0; i < to_write_.size(); ++i) {  // writing may append more targets
    const pending_write p = to_write_[i];
    start({}, "multiRef");
    scratch_.clear();
    append_id(scratch_, p.id);
    w_.attribute({}, "id", scratch_);
    w_.attribute(soap11_encoding_ns, "root", "0");
    p.write(*this, p.object);
    end();
  }
}

// ---------------------------------------------------------------- decoder

decoder::decoder(xml::reader& r, std::span<const namespace_binding> outer, decode_options options)
    : r_(&r), outer_(outer), options_(options) {}

decoder::~decoder() {
  if (finished_) return;
  // A failed decode: a cycle among the targets (a child's parent link) would keep them all
  // alive once entries_ lets go. Every cycle runs through a target (only an href shares an
  // object), so a default value in each breaks them all.
  for (entry& en : entries_) {
    if (!en.object) continue;
    try {
      en.ops->clear(en.object.get());
    } catch (...) {
      // A type whose default value allocates, and memory ran out: that target alone may leak.
    }
  }
}

void decoder::fail(errc code, std::string reason) const {
  detail::fail(code, std::move(reason));
}

void decoder::fail_abstract(std::string_view ns, std::string_view local) const {
  const std::error_code ec = bind::make_error_code(bind::errc::bad_xsi_type);
  const std::string type = detail::cat({"{", ns, "}", local});
  std::string why =
      xsi_type_is(ns, local)
          ? detail::cat({"xsi:type ", type,
                         " names an abstract type: an element's type must be a concrete one"})
          : detail::cat({"the declared type ", type,
                         " is abstract: the encoded binding reads a value as its declared type, "
                         "and no element may have an abstract one"});
  throw fault_error{make_fault(ec, why), ec};
}

void decoder::fail_value(bind::errc code, std::string_view text, std::string_view type_name) const {
  const std::error_code ec = bind::make_error_code(code);
  throw fault_error{make_fault(ec, bind::describe_value_error(code, text, type_name)), ec};
}

void decoder::check_facets(std::string_view text, const bind::facets& f,
                           std::string_view accessor) const {
  std::string why = bind::facet_violation(text, f);
  if (why.empty()) return;
  const std::error_code ec = bind::make_error_code(bind::errc::facet_violation);
  throw fault_error{make_fault(ec, "accessor " + std::string(accessor) + ": " + why), ec};
}

void decoder::check_when_finished(std::uint32_t e) {
  if (facets_ != nullptr)
    facet_checks_.push_back({e, facets_, facets_accessor_});
  else
    items_.emplace_back(owner_, e);
}

void decoder::keep_text(std::string_view text) {
  texts_.emplace_back(owner_, std::string(text));
}

std::uint32_t decoder::entry_for(std::string_view id) {
  ++hash_ops_;
  if (entries_.size() >= options_.max_references) {
    bool inserted = false;
    // Full: only existing ids may still be looked up (insert into a scratch value, then check).
    const auto index =
        ids_.find_or_insert(id, static_cast<std::uint32_t>(entries_.size()), inserted);
    if (!inserted) return index;
    fail(errc::limit_exceeded, detail::cat({"more than ", std::to_string(options_.max_references),
                                            " distinct ids/hrefs in one message"}));
  }
  bool inserted = false;
  const auto index = ids_.find_or_insert(id, static_cast<std::uint32_t>(entries_.size()), inserted);
  if (inserted) entries_.emplace_back();
  return index;
}

void decoder::fail_depth() const {
  fail(errc::limit_exceeded,
       detail::cat({"encoded values nested deeper than ", std::to_string(options_.max_depth)}));
}

void decoder::fail_type_mismatch(std::uint32_t e) const {
  fail(errc::bad_reference,
       detail::cat({"id \"", ids_.key(e), "\" is referenced as two different types"}));
}

/// The reference attributes of the current element: SOAP 1.1 section 5 (unqualified id, and
/// href="#id") and SOAP 1.2 Part 2 section 3.1.5.1 (enc:id, and enc:ref="id", an IDREF).
struct decoder::reference_attributes {
  std::string_view id, href, ref;
  bool has_id = false, has_href = false, has_ref = false;
  explicit reference_attributes(const xml::reader& r) {
    for (const xml::attribute& a : r.attributes()) {
      if (a.ns.empty()) {
        if (a.local == "href") {
          href = a.value;
          has_href = true;
        } else if (a.local == "id") {
          id = a.value;
          has_id = true;
        }
      } else if (a.ns == soap12_encoding_ns) {
        if (a.local == "ref") {
          ref = a.value;
          has_ref = true;
        } else if (a.local == "id") {
          id = a.value;
          has_id = true;
        }
      }
    }
  }
  bool refers() const noexcept { return has_href || has_ref; }
};

void decoder::check_reference_attributes(const reference_attributes& a) const {
  if (a.refers() && a.has_id) {
    fail(errc::bad_reference,
         detail::cat({"element with id \"", std::string{a.id},
                      "\" also refers to another (reference chains are not allowed)"}));
  }
  if (a.has_href && a.has_ref) fail(errc::bad_reference, "element with both href and enc:ref");
}

void decoder::skip_reference_content(std::string_view ref) {
  // SOAP 1.2 Part 2 section 3.1.5.1: an element with enc:ref has no content of its own.
  if (r_->is_empty_element()) return skip();
  for (;;) {
    const xml::token t = detail::next(*r_);
    if (t == xml::token::end_element) return;
    if (t == xml::token::start_element || !detail::is_whitespace(r_->text())) {
      fail(errc::bad_reference,
           detail::cat({"element with enc:ref=\"", ref, "\" has content of its own"}));
    }
  }
}

decoder::ref_attrs decoder::find_ref_attributes() {
  const reference_attributes a{*r_};
  check_reference_attributes(a);
  ref_attrs out;
  if (a.has_ref) {
    if (a.ref.empty()) fail(errc::bad_reference, "empty enc:ref");
    out.href = true;
    out.entry = entry_for(a.ref);
    skip_reference_content(a.ref);
  } else if (a.has_href) {
    if (a.href.size() < 2 || a.href[0] != '#') {
      fail(errc::bad_reference, detail::cat({"href \"", std::string{a.href},
                                             "\" is not a same-message reference (#id)"}));
    }
    out.href = true;
    out.entry = entry_for(a.href.substr(1));
    skip();  // an accessor with href has no content of its own
  } else if (a.has_id) {
    if (a.id.empty()) fail(errc::bad_reference, "empty id");
    out.id = true;
    out.entry = entry_for(a.id);
  }
  return out;
}

void decoder::on_placeholder(std::uint32_t e) {
  entry& en = entries_[e];
  if (en.st == state::deferred && !en.queued) {
    en.queued = true;
    deferred_queue_.push_back(e);
  }
}

void decoder::begin_definition(std::uint32_t e) {
  if (entries_[e].st != state::unseen) {
    fail(errc::bad_reference, detail::cat({"duplicate id \"", ids_.key(e), "\""}));
  }
}

void decoder::fill(std::uint32_t e) {
  entries_[e].st = state::filling;
  const std::uint32_t saved = owner_;
  const bind::facets* const saved_facets = facets_;
  owner_ = e;
  facets_ = nullptr;  // a multi-ref's value is not checked against the referring accessor's
  entries_[e].ops->decode(*this, entries_[e].object.get());
  owner_ = saved;
  facets_ = saved_facets;
  entries_[e].st = state::filled;
}

void decoder::read_independent() {
  const reference_attributes a{*r_};
  check_reference_attributes(a);
  // A stray trailing element (SOAP::Lite), or a reference: unreferenced, ignored.
  if (!a.has_id) return skip();
  const std::string_view id = a.id;
  const std::uint32_t e = entry_for(id);
  begin_definition(e);
  if (entries_[e].object) {
    fill(e);
  } else {
    // Not referenced yet: its type is unknown until an href names it.
    entries_[e].kept = static_cast<std::uint32_t>(kept_.size());
    kept_.push_back(capture_element(*r_, outer_));
    entries_[e].st = state::deferred;
  }
}

void decoder::finish() {
  // Independents that were kept as text and referenced later: decode each exactly once.
  for (std::size_t i = 0; i < deferred_queue_.size(); ++i) {
    const std::uint32_t e = deferred_queue_[i];
    const std::string xml = std::move(kept_[entries_[e].kept]);
    xml::reader sub{r_->get_limits()};
    sub.reset(xml);
    detail::next(sub);  // its start tag
    xml::reader* const main = r_;
    r_ = &sub;
    try {
      fill(e);
    } catch (...) {
      r_ = main;
      throw;
    }
    r_ = main;
  }
  deferred_queue_.clear();
  for (std::uint32_t e = 0; e < entries_.size(); ++e) {
    const entry& en = entries_[e];
    if (en.object && en.st != state::filled) {
      fail(errc::bad_reference,
           detail::cat({"reference to \"", ids_.key(e), "\": no element has that id"}));
    }
  }
  // The multi-refs' values against the facets of the accessors that refer to them (an item of
  // an array checked as an inline array's items are).
  if (!facet_checks_.empty()) {
    auto by_entry = [](const auto& a, const auto& b) { return a.first < b.first; };
    std::stable_sort(texts_.begin(), texts_.end(), by_entry);
    std::sort(items_.begin(), items_.end());
    auto check = [&](std::uint32_t e, const facet_check& c) {
      const auto [from, to] = std::equal_range(
          texts_.begin(), texts_.end(), std::pair<std::uint32_t, std::string>{e, {}}, by_entry);
      for (auto it = from; it != to; ++it) check_facets(it->second, *c.facets, c.accessor);
    };
    for (const facet_check& c : facet_checks_) {
      check(c.entry, c);
      const auto [from, to] = std::equal_range(
          items_.begin(), items_.end(), std::pair<std::uint32_t, std::uint32_t>{c.entry, 0},
          [](const auto& a, const auto& b) { return a.first < b.first; });
      for (auto it = from; it != to; ++it) check(it->second, c);
    }
  }
  // By-value copies, each after every copy into its source (Kahn's order over entries).
  const std::size_t n = entries_.size();
  std::vector<std::uint32_t> pending(n, 0);
  std::vector<std::size_t> first(n + 1, 0);
  for (const fixup& f : fixups_) {
    if (f.owner != no_entry) ++pending[f.owner];
    ++first[f.src + 1];
  }
  for (std::size_t i = 0; i < n; ++i) first[i + 1] += first[i];
  std::vector<std::size_t> by_src(fixups_.size());
  {
    std::vector<std::size_t> cursor(first.begin(), first.end() - 1);
    for (std::size_t i = 0; i < fixups_.size(); ++i) by_src[cursor[fixups_[i].src]++] = i;
  }
  std::vector<std::uint32_t> ready;
  for (std::uint32_t e = 0; e < n; ++e) {
    if (pending[e] == 0) ready.push_back(e);
  }
  std::size_t done = 0;
  for (std::size_t i = 0; i < ready.size(); ++i) {
    const std::uint32_t e = ready[i];
    for (std::size_t k = first[e]; k < first[e + 1]; ++k) {
      const fixup& f = fixups_[by_src[k]];
      f.copy(f.dst, entries_[e].object.get());
      ++done;
      if (f.owner != no_entry && --pending[f.owner] == 0) ready.push_back(f.owner);
    }
  }
  if (done != fixups_.size()) {
    fail(errc::bad_reference,
         "reference cycle through by-value accessors (hold cyclic data in std::shared_ptr)");
  }
  fixups_.clear();
  finished_ = true;
}

void decoder::read_trailing(envelope_reader& env) {
  while (env.next_body_element()) read_independent();
  finish();
}

bool decoder::is_nil() const {
  const xml::attribute* nil = r_->find_attribute(xsi_ns, "nil");
  return nil && (nil->value == "true" || nil->value == "1");
}

void decoder::skip() {
  detail::skip(*r_);
}

bool decoder::next_child() {
  for (;;) {
    switch (detail::next(*r_)) {
      case xml::token::start_element:
        return true;
      case xml::token::end_element:
        return false;
      default:
        if (!detail::is_whitespace(r_->text())) {
          fail(errc::unexpected_element, "text inside a compound value");
        }
    }
  }
}

std::string_view decoder::read_text() {
  detail::read_text(*r_, text_, "a simple value");
  return text_;
}

bool decoder::xsi_type_is(std::string_view ns, std::string_view local) const {
  const xml::attribute* type = r_->find_attribute(xsi_ns, "type");
  if (!type) return false;
  const std::string_view v = type->value;
  const std::size_t colon = v.find(':');
  const std::string_view prefix = colon == std::string_view::npos ? "" : v.substr(0, colon);
  if (v.substr(colon == std::string_view::npos ? 0 : colon + 1) != local) return false;
  const auto resolved = r_->lookup_namespace(prefix);
  return resolved && *resolved == ns;
}

decoder::array_shape decoder::read_array_shape() {
  if (r_->find_attribute(soap11_encoding_ns, "offset")) {
    fail(errc::bad_array, "partially transmitted arrays (SOAP-ENC:offset) are not supported");
  }
  array_shape shape;
  if (const xml::attribute* size = r_->find_attribute(soap12_encoding_ns, "arraySize")) {
    // SOAP 1.2 Part 2 section 3.1.6: "2 3", or "* 3" when the first size is not given.
    read_dims(size->value, size->value, true, shape);
    return shape;
  }
  const xml::attribute* at = r_->find_attribute(soap11_encoding_ns, "arrayType");
  if (!at) return shape;
  std::string_view v = at->value;
  while (!v.empty() && detail::is_whitespace(v.substr(v.size() - 1))) v.remove_suffix(1);
  const std::size_t open = v.rfind('[');
  if (open == std::string_view::npos || open == 0 || v.back() != ']') {
    fail(errc::bad_array, detail::cat({"bad arrayType \"", std::string{at->value}, "\""}));
  }
  std::string_view dims = v.substr(open + 1, v.size() - open - 2);
  if (dims.empty()) return shape;  // "T[]": size not declared
  read_dims(dims, at->value, false, shape);
  return shape;
}

void decoder::read_dims(std::string_view dims, std::string_view attribute, bool soap12,
                        array_shape& shape) const {
  std::uint64_t total = 1;
  const std::string_view what = soap12 ? "enc:arraySize" : "arrayType";
  const auto bad = [&] {
    fail(errc::bad_array,
         detail::cat({"bad ", what, soap12 ? " \"" : " dimensions \"", attribute, "\""}));
  };
  const std::string_view separators = soap12 ? " \t\r\n" : ",";
  for (;;) {
    while (!dims.empty() && detail::is_whitespace(dims.substr(0, 1))) dims.remove_prefix(1);
    const std::size_t end = dims.find_first_of(separators);
    std::string_view d = dims.substr(0, end);
    while (!d.empty() && detail::is_whitespace(d.substr(d.size() - 1))) d.remove_suffix(1);
    std::uint64_t size = 0;
    if (soap12 && d == "*" && shape.dims.empty()) {
      shape.first_unknown = true;
    } else {
      const auto [stop, ec] = std::from_chars(d.data(), d.data() + d.size(), size);
      if (d.empty() || ec != std::errc{} || stop != d.data() + d.size()) bad();
      if (size != 0 && total > (std::uint64_t{1} << 62) / size) {
        fail(errc::bad_array, detail::cat({what, " \"", attribute, "\" is too large"}));
      }
      total *= size;
    }
    shape.dims.push_back(static_cast<std::size_t>(size));
    if (end == std::string_view::npos) break;
    dims.remove_prefix(end + 1);
    if (soap12) {
      while (!dims.empty() && detail::is_whitespace(dims.substr(0, 1))) dims.remove_prefix(1);
      if (dims.empty()) break;
    }
  }
  if (total > options_.max_array_items) {
    fail(errc::bad_array,
         detail::cat({what, " declares ", std::to_string(total), " items, more than the limit of ",
                      std::to_string(options_.max_array_items)}));
  }
  shape.total = total;
  shape.sized = !shape.first_unknown;
}

void decoder::check_item(std::uint64_t count, const array_shape& shape) {
  if (shape.sized && count >= shape.total) {
    fail(errc::bad_array, detail::cat({"array has more items than its arrayType declares (",
                                       std::to_string(shape.total), ")"}));
  }
  if (count >= options_.max_array_items) {
    fail(errc::bad_array,
         detail::cat({"array has more than ", std::to_string(options_.max_array_items), " items"}));
  }
  if (const xml::attribute* pos = r_->find_attribute(soap11_encoding_ns, "position")) {
    // gSOAP writes a redundant position="[i]" on the items of dense arrays: accept a position
    // that names exactly the next item; a gap (a sparse array) is rejected.
    const std::string expected = detail::cat({"[", std::to_string(count), "]"});
    if (shape.dims.size() > 1 || pos->value != expected)
      fail(errc::bad_array, "sparse arrays (SOAP-ENC:position) are not supported");
  }
}

void decoder::check_array_end(std::uint64_t count, array_shape& shape) {
  if (shape.first_unknown) {
    // "* 3": the first size is what the items make of the others.
    if (shape.total != 0 ? count % shape.total != 0 : count != 0) {
      fail(errc::bad_array, detail::cat({std::to_string(count), " items do not fill rows of ",
                                         std::to_string(shape.total)}));
    }
    shape.dims[0] = static_cast<std::size_t>(shape.total != 0 ? count / shape.total : 0);
    return;
  }
  if (shape.sized && count != shape.total) {
    fail(errc::bad_array, detail::cat({"arrayType declares ", std::to_string(shape.total),
                                       " items, ", std::to_string(count), " present"}));
  }
}

namespace {
bool inside(const void* p, const void* base, std::size_t size) noexcept {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  return a >= b && a < b + size;
}
}  // namespace

void decoder::make_relative(std::size_t from, const void* base, std::size_t size,
                            std::size_t index) {
  for (std::size_t i = from; i < fixups_.size(); ++i) {
    if (!inside(fixups_[i].dst, base, size)) continue;
    fixups_[i].dst = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(fixups_[i].dst) -
                                             reinterpret_cast<std::uintptr_t>(base));
    relocations_.push_back({i, index});
  }
}

void decoder::rebase(std::size_t first, void* data, std::size_t item_size) {
  for (std::size_t i = first; i < relocations_.size(); ++i) {
    fixup& f = fixups_[relocations_[i].fixup];
    f.dst = static_cast<char*>(data) + relocations_[i].index * item_size +
            reinterpret_cast<std::uintptr_t>(f.dst);
  }
  relocations_.resize(first);
}

void decoder::move_slots(std::size_t from, const void* old_base, std::size_t size, void* new_base) {
  for (std::size_t i = from; i < fixups_.size(); ++i) {
    if (!inside(fixups_[i].dst, old_base, size)) continue;
    fixups_[i].dst =
        static_cast<char*>(new_base) + (reinterpret_cast<std::uintptr_t>(fixups_[i].dst) -
                                        reinterpret_cast<std::uintptr_t>(old_base));
  }
}

void decoder::read_any(bind::any_type& out) {
  if (is_nil()) {
    out.xml.clear();
    return skip();
  }
  if (bind::error_info e = bind::read(*r_, out)) {
    const std::error_code ec = bind::make_error_code(e.code);
    throw fault_error{make_fault(ec, std::move(e.message)), ec};
  }
}

void decoder::read_base64_string(std::string_view text, std::string& out) const {
  xsd::base64_binary bytes;
  if (auto ec = bind::xsd_traits<xsd::base64_binary>::parse(text, bytes); ec != bind::errc::ok) {
    fail_value(ec, text, "base64Binary");
  }
  out.assign(bytes.bytes.begin(), bytes.bytes.end());
  // A string holds text: bytes that are not (a character XML cannot carry, broken UTF-8) would
  // be refused only when the value is written again, far from the request that sent them.
  if (!xml::is_text(out)) {
    const std::error_code ec = bind::make_error_code(bind::errc::invalid_lexical);
    throw fault_error{make_fault(ec,
                                 "xsd:base64Binary for a string decodes to bytes that are "
                                 "not UTF-8 XML text"),
                      ec};
  }
}

}  // namespace lather::soap
