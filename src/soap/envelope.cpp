#include "lather/soap/envelope.hpp"

#include <algorithm>

#include "detail.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::soap {

envelope_reader::envelope_reader(xml::reader& r, envelope_options options)
    : r_(r), options_(std::move(options)) {}

void envelope_reader::fail(errc code, std::string reason) const {
  detail::fail(code, std::move(reason));
}

void envelope_reader::begin() {
  xml::token t = detail::next(r_);
  if (t != xml::token::start_element) fail(errc::not_an_envelope, "message has no root element");
  if (r_.local_name() != "Envelope") {
    fail(errc::not_an_envelope,
         detail::cat({"root element is ", detail::clark(r_.ns(), r_.local_name()),
                      ", not a SOAP Envelope"}));
  }
  const auto v = version_from_namespace(r_.ns());
  if (!v || (options_.expect && *options_.expect != *v)) {
    const std::error_code ec = make_error_code(errc::version_mismatch);
    fault f = make_fault(ec, detail::cat({"Envelope namespace \"", std::string{r_.ns()},
                                          "\" is not the expected SOAP envelope namespace"}));
    f.received_envelope_ns = std::string{r_.ns()};
    throw fault_error{std::move(f), ec};
  }
  version_ = *v;
  const std::string_view env = envelope_ns(version_);
  scope_.clear();
  scope_.push(r_);
  encoding_style_.clear();
  if (const xml::attribute* es = r_.find_attribute(env, "encodingStyle")) {
    encoding_style_.assign(es->value);
  }
  relayable_.clear();
  unread_.clear();
  at_body_element_ = false;
  body_closed_ = false;
  bool seen_header = false;
  for (;;) {
    t = detail::next(r_);
    if (t == xml::token::text) {
      if (!detail::is_whitespace(r_.text())) fail(errc::unexpected_content, "text in Envelope");
      continue;
    }
    if (t == xml::token::end_element) fail(errc::missing_body, "Envelope has no Body");
    if (r_.is(env, "Header")) {
      if (seen_header) fail(errc::duplicate_header, "Envelope has two Header elements");
      seen_header = true;
      read_headers();
      continue;
    }
    if (r_.is(env, "Body")) break;
    fail(errc::unexpected_content, detail::cat({"element ", detail::clark(r_.ns(), r_.local_name()),
                                                " where Header or Body was expected"}));
  }
  scope_.push(r_);
  if (const xml::attribute* es = r_.find_attribute(env, "encodingStyle")) {
    encoding_style_.assign(es->value);
  }
  advance_in_body();
}

bool envelope_reader::read_must_understand(std::string_view value) const {
  if (value == "1") return true;
  if (value == "0") return false;
  if (version_ == version::soap12) {
    if (value == "true") return true;
    if (value == "false") return false;
  }
  fail(errc::bad_must_understand,
       detail::cat({"mustUnderstand=\"", std::string{value}, "\" is not valid"}));
}

void envelope_reader::read_headers() {
  const std::string_view env = envelope_ns(version_);
  const bool v11 = version_ == version::soap11;
  scope_.push(r_);
  std::vector<qname> not_understood;
  for (;;) {
    const xml::token t = detail::next(r_);
    if (t == xml::token::end_element) break;
    if (t == xml::token::text) {
      if (!detail::is_whitespace(r_.text())) fail(errc::unexpected_content, "text in Header");
      continue;
    }
    // SOAP 1.1 section 4.2.1 and 1.2 part 1 section 5.2.1: every header entry is
    // namespace-qualified, whoever it is targeted at.
    if (r_.ns().empty())
      fail(errc::unqualified_header,
           detail::cat({"header entry ", r_.local_name(), " is not namespace-qualified"}));
    header_info info;
    info.ns = r_.ns();
    info.local = r_.local_name();
    if (const xml::attribute* mu = r_.find_attribute(env, "mustUnderstand")) {
      info.must_understand = read_must_understand(mu->value);
    }
    if (const xml::attribute* role = r_.find_attribute(env, v11 ? "actor" : "role")) {
      info.role = role->value;
    }
    if (!v11) {
      if (const xml::attribute* relay = r_.find_attribute(env, "relay")) {
        info.relay = relay->value == "true" || relay->value == "1";
      }
    }
    bool targeted;
    if (info.role.empty() || info.role == soap12_role_ultimate_receiver) {
      targeted = options_.ultimate_receiver && (info.role.empty() || !v11);
    } else if (info.role == (v11 ? soap11_actor_next : soap12_role_next)) {
      targeted = true;
    } else if (!v11 && info.role == soap12_role_none) {
      targeted = false;
    } else {
      targeted = std::find(options_.roles.begin(), options_.roles.end(), info.role) !=
                 options_.roles.end();
    }
    if (!targeted) {
      if (options_.collect_relayable) {
        relayable_.push_back(capture_element(r_, scope_.bindings()));
      } else {
        detail::skip(r_);
      }
      continue;
    }
    const header_use use =
        options_.on_header ? options_.on_header(info, r_) : header_use::not_understood;
    if (use == header_use::consumed) continue;
    if (use == header_use::understood) {
      detail::skip(r_);
      continue;
    }
    if (info.must_understand) {
      not_understood.push_back({std::string{r_.ns()}, std::string{r_.local_name()}, {}});
      detail::skip(r_);
    } else if (info.relay && options_.collect_relayable) {
      relayable_.push_back(capture_element(r_, scope_.bindings()));
    } else if (options_.keep_unread) {
      unread_ += capture_element(r_, scope_.bindings());
    } else {
      detail::skip(r_);
    }
  }
  scope_.pop();
  if (!not_understood.empty()) {
    std::string reason = "header";
    if (not_understood.size() > 1) reason += 's';
    for (std::size_t i = 0; i < not_understood.size(); ++i) {
      reason += i ? ", " : " ";
      reason += detail::clark(not_understood[i].ns, not_understood[i].local);
    }
    reason += " not understood";
    const std::error_code ec = make_error_code(errc::must_understand);
    fault f = make_fault(ec, std::move(reason));
    f.not_understood = std::move(not_understood);
    throw fault_error{std::move(f), ec};
  }
}

void envelope_reader::advance_in_body() {
  for (;;) {
    const xml::token t = detail::next(r_);
    if (t == xml::token::start_element) {
      at_body_element_ = true;
      return;
    }
    if (t == xml::token::end_element) {
      at_body_element_ = false;
      body_closed_ = true;
      return;
    }
    if (!detail::is_whitespace(r_.text())) fail(errc::unexpected_content, "text in Body");
  }
}

bool envelope_reader::at_fault() const noexcept {
  return at_body_element_ && r_.is(envelope_ns(version_), "Fault");
}

bool envelope_reader::next_body_element() {
  if (!at_body_element_) return false;
  advance_in_body();
  return at_body_element_;
}

bool envelope_reader::skip_body_element() {
  if (!at_body_element_) return false;
  detail::skip(r_);
  return next_body_element();
}

std::string envelope_reader::capture_body_element() {
  return capture_element(r_, scope_.bindings());
}

void envelope_reader::finish() {
  if (at_body_element_ && next_body_element()) {
    while (skip_body_element()) {
    }
  }
  const std::string_view env = envelope_ns(version_);
  for (;;) {
    const xml::token t = detail::next(r_);
    if (t == xml::token::end_element) break;  // Envelope
    if (t == xml::token::text) {
      if (!detail::is_whitespace(r_.text())) fail(errc::unexpected_content, "text after Body");
      continue;
    }
    if (r_.is(env, "Header")) fail(errc::header_after_body, "Header after Body");
    if (r_.is(env, "Body")) fail(errc::duplicate_body, "Envelope has two Body elements");
    fail(errc::content_after_body,
         detail::cat({"element ", detail::clark(r_.ns(), r_.local_name()), " after Body"}));
  }
  if (detail::next(r_) != xml::token::end_document) {
    fail(errc::unexpected_content, "content after the Envelope");
  }
}

void write_header_attributes(xml::writer& w, version v, bool must_understand, std::string_view role,
                             bool relay) {
  const std::string_view env = envelope_ns(v);
  const bool v11 = v == version::soap11;
  if (must_understand) w.attribute(env, "mustUnderstand", v11 ? "1" : "true");
  if (!role.empty()) w.attribute(env, v11 ? "actor" : "role", role);
  if (relay && !v11) w.attribute(env, "relay", "true");
}

namespace {

void write_envelope_start(xml::writer& w, version v, const envelope_write_options& options) {
  if (options.xml_declaration) w.xml_declaration();
  const std::string_view env = envelope_ns(v);
  w.declare_namespace(envelope_prefix(v), env);
  w.declare_namespace("xsi", xsi_ns);
  w.declare_namespace("xsd", xsd_ns);
  if (options.encoded) w.declare_namespace("soapenc", soap11_encoding_ns);
  for (const namespace_binding& b : options.namespaces) w.declare_namespace(b.prefix, b.uri);
  w.start_element(env, xml::ncname{"Envelope"});
  // SOAP 1.2 forbids encodingStyle on Envelope; there it goes on the RPC wrapper only.
  if (options.encoded && v == version::soap11) {
    w.attribute(env, "encodingStyle", soap11_encoding_ns);
  }
}

}  // namespace

envelope_starts::envelope_starts(std::vector<namespace_binding> namespaces, bool xml_declaration)
    : namespaces_(std::move(namespaces)), xml_declaration_(xml_declaration) {
  for (const version v : {version::soap11, version::soap12})
    for (const bool encoded : {false, true}) {
      envelope_write_options options;
      options.encoded = encoded;
      options.namespaces = namespaces_;
      options.xml_declaration = xml_declaration_;
      try {
        recorded_[v == version::soap12][encoded] = std::make_unique<xml::document_start>(
            [&](xml::writer& w) { write_envelope_start(w, v, options); });
      } catch (const xml::error&) {
        // Refused: begin() declares per message and meets the same refusal there.
      }
    }
}

envelope_starts::~envelope_starts() = default;

void envelope_writer::begin(const envelope_write_options& options) {
  // Without extra namespaces every message starts with the same bytes and bindings: recorded
  // once, they save the writer's declarations and their bookkeeping (~2k instructions).
  static const envelope_starts plain[2] = {envelope_starts{{}, false}, envelope_starts{{}, true}};
  if (options.namespaces.empty())
    begin(plain[options.xml_declaration], options.encoded);
  else
    write_envelope_start(w_, version_, options);
  in_header_ = false;
}

void envelope_writer::begin(const envelope_starts& starts, bool encoded) {
  if (const auto& recorded = starts.recorded_[version_ == version::soap12][encoded]) {
    w_.start_document(*recorded);
  } else {
    envelope_write_options options;
    options.encoded = encoded;
    options.namespaces = starts.namespaces_;
    options.xml_declaration = starts.xml_declaration_;
    write_envelope_start(w_, version_, options);
  }
  in_header_ = false;
}

void envelope_writer::begin_header() {
  w_.start_element(envelope_ns(version_), xml::ncname{"Header"});
  in_header_ = true;
}

void envelope_writer::begin_body() {
  if (in_header_) w_.end_element();
  in_header_ = false;
  w_.start_element(envelope_ns(version_), xml::ncname{"Body"});
}

void envelope_writer::end() {
  w_.end_document();
}

}  // namespace lather::soap
