// lather::mtom::attachment and its binding: base64 text or an xop:Include (SwA: an href) on
// read, a part or streamed base64 on write.
#include "lather/mtom/attachment.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

#include "message.hpp"

namespace lather::mtom {

namespace {

using detail::content;

std::shared_ptr<content> memory_content(std::vector<std::uint8_t> bytes, std::string type) {
  auto c = std::make_shared<content>();
  c->size = bytes.size();
  c->bytes = std::move(bytes);
  c->content_type = std::move(type);
  return c;
}

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

std::uint64_t file_size(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw_errno("cannot open " + path);
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  std::fclose(f);
  if (size < 0) throw_errno("cannot read " + path);
  return static_cast<std::uint64_t>(size);
}

}  // namespace

namespace detail {

content::~content() {
  release();
}

void content::release() noexcept {
  if (temporary && !path.empty()) std::remove(path.c_str());
  temporary = false;
  std::vector<std::uint8_t>().swap(bytes);
  if (k == kind::memory || k == kind::file) k = kind::released;
}

}  // namespace detail

attachment::attachment() : content_(memory_content({}, "application/octet-stream")) {}
attachment::attachment(std::shared_ptr<detail::content> c) : content_(std::move(c)) {}

attachment attachment::from_bytes(std::vector<std::uint8_t> bytes, std::string content_type) {
  return attachment(memory_content(std::move(bytes), std::move(content_type)));
}

attachment attachment::from_bytes(std::string_view bytes, std::string content_type) {
  return from_bytes(std::vector<std::uint8_t>(bytes.begin(), bytes.end()), std::move(content_type));
}

attachment attachment::from_file(std::string path, std::string content_type) {
  auto c = std::make_shared<content>();
  c->k = content::kind::file;
  c->size = file_size(path);
  c->path = std::move(path);
  c->content_type = std::move(content_type);
  return attachment(std::move(c));
}

attachment attachment::from_stream(byte_source source, std::optional<std::uint64_t> size,
                                   std::string content_type) {
  auto c = std::make_shared<content>();
  c->k = content::kind::stream;
  c->stream = std::move(source);
  c->size = size;
  c->content_type = std::move(content_type);
  return attachment(std::move(c));
}

std::optional<std::uint64_t> attachment::size() const {
  return content_->size;
}
const std::string& attachment::content_type() const {
  return content_->content_type;
}
const std::string& attachment::content_id() const {
  return content_->content_id;
}
void attachment::set_content_id(std::string id) {
  content_->content_id = std::move(id);
}
void attachment::set_content_type(std::string type) {
  content_->content_type = std::move(type);
}

byte_source detail::open_stored(const std::shared_ptr<content>& c) {
  if (c->k == content::kind::memory) {
    std::size_t at = 0;
    return [keep = c, at](char* dest, std::size_t n) mutable {
      const std::size_t k = std::min(n, keep->bytes.size() - at);
      if (k) std::memcpy(dest, keep->bytes.data() + at, k);
      at += k;
      return k;
    };
  }
  std::shared_ptr<std::FILE> f(std::fopen(c->path.c_str(), "rb"), [](std::FILE* p) {
    if (p) std::fclose(p);
  });
  if (!f) throw_errno("cannot open " + c->path);
  return [keep = c, f](char* dest, std::size_t n) {
    const std::size_t k = std::fread(dest, 1, n, f.get());
    if (k == 0 && std::ferror(f.get())) throw_errno("cannot read " + keep->path);
    return k;
  };
}

byte_source attachment::open() const {
  content& c = *content_;
  switch (c.k) {
    case content::kind::memory:
    case content::kind::file:
      return detail::open_stored(content_);
    case content::kind::stream:
      if (c.stream_taken) throw std::logic_error("an attachment stream can be read only once");
      c.stream_taken = true;
      return std::move(c.stream);
    case content::kind::pending:
      if (c.owner) return c.owner->open_part(content_);
      throw std::logic_error("the attachment's MIME part has not been read");
    case content::kind::streamed:
      throw std::logic_error("a part read as it arrives can be opened only once");
    case content::kind::released:
      break;
  }
  throw std::logic_error("the attachment's call has ended (save_to or bytes() keep one)");
}

std::vector<std::uint8_t> attachment::bytes() const {
  if (content_->k == content::kind::memory) return content_->bytes;
  std::vector<std::uint8_t> out;
  if (content_->size) out.reserve(static_cast<std::size_t>(*content_->size));
  byte_source in = open();
  char buf[65536];
  while (std::size_t n = in(buf, sizeof buf)) out.insert(out.end(), buf, buf + n);
  return out;
}

void attachment::save_to(const std::string& path) const {
  content& c = *content_;
  if (c.k == content::kind::file && c.temporary && std::rename(c.path.c_str(), path.c_str()) == 0) {
    c.path = path;
    c.temporary = false;
    return;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw_errno("cannot create " + path);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(f, &std::fclose);
  byte_source in = open();
  char buf[65536];
  while (std::size_t n = in(buf, sizeof buf))
    if (std::fwrite(buf, 1, n, f) != n) throw_errno("cannot write " + path);
}

const std::vector<std::uint8_t>* attachment::memory() const {
  return content_->k == content::kind::memory ? &content_->bytes : nullptr;
}

std::string_view attachment::file_path() const {
  return content_->k == content::kind::file ? std::string_view(content_->path) : std::string_view{};
}

bool operator==(const attachment& a, const attachment& b) {
  if (a.content_ == b.content_) return true;
  if (a.memory() && b.memory()) return *a.memory() == *b.memory();
  if (a.size() && b.size() && *a.size() != *b.size()) return false;
  return a.bytes() == b.bytes();
}

// ---- binding ----

namespace {

bind::errc fail(std::string& detail, bind::errc e, std::string message) {
  detail = std::move(message);
  return e;
}

bind::errc reference_part(xml::reader& r, std::string_view href, attachment& out,
                          std::string& detail) {
  if (!href.starts_with("cid:"))
    return fail(detail, bind::errc::bad_reference,
                "an attachment reference must be a cid: URL (only cid: references are "
                "honoured), not \"" +
                    std::string(href.substr(0, 80)) + "\"");
  detail::message_in* m = detail::message_of_reader(&r);
  if (!m)
    return fail(detail, bind::errc::bad_reference,
                "an attachment reference (" + std::string(href.substr(0, 80)) +
                    ") in a message that is not MIME multipart/related");
  try {
    out = attachment(m->reference(href.substr(4)));
  } catch (const error& e) {
    return fail(detail, bind::errc::limit_exceeded, e.what());
  }
  return bind::errc::ok;
}

bool is_xml_space(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  return true;
}

}  // namespace

bind::errc read_attachment_element(xml::reader& r, attachment& out, std::string& detail) {
  // SwA: the element refers to a part by an href attribute and has no content.
  if (const xml::attribute* href = r.find_attribute("", "href")) {
    if (bind::errc e = reference_part(r, href->value, out, detail); e != bind::errc::ok) return e;
    const xml::token t = r.skip_element();
    if (t != xml::token::end_element)
      return fail(detail, bind::errc::xml_error, r.error().message());
    return bind::errc::ok;
  }
  std::string text;
  bool included = false;
  for (;;) {
    const xml::token t = r.next();
    switch (t) {
      case xml::token::text:
        text.append(r.text());
        break;
      case xml::token::start_element: {
        if (r.ns() != xop_namespace || r.local_name() != "Include" || included)
          return fail(detail, bind::errc::unexpected_element,
                      "unexpected element {" + std::string(r.ns()) + "}" +
                          std::string(r.local_name()) + " in a base64Binary value");
        const xml::attribute* href = r.find_attribute("", "href");
        if (!href) return fail(detail, bind::errc::bad_reference, "xop:Include without an href");
        if (bind::errc e = reference_part(r, href->value, out, detail); e != bind::errc::ok)
          return e;
        if (r.skip_element() != xml::token::end_element)
          return fail(detail, bind::errc::xml_error, r.error().message());
        included = true;
        break;
      }
      case xml::token::end_element:
        if (included) {
          if (!is_xml_space(text))
            return fail(detail, bind::errc::invalid_base64,
                        "text beside xop:Include in a base64Binary value");
          return bind::errc::ok;
        } else {
          std::vector<std::uint8_t> bytes;
          if (bind::errc e = xsd::base64_decode(text, bytes); e != bind::errc::ok)
            return fail(detail, e, bind::describe_value_error(e, text, "base64Binary"));
          out = attachment::from_bytes(std::move(bytes));
          return bind::errc::ok;
        }
      default:
        return fail(detail, bind::errc::xml_error, r.error().message());
    }
  }
}

void write_attachment_content(const attachment& a, xml::writer& w) {
  if (detail::message_out* m = detail::message_of_writer(&w)) {
    if (std::optional<std::string> cid = m->take(a)) {
      w.start_element(xop_namespace, "Include");
      w.declare_namespace("xop", xop_namespace);
      w.attribute("", "href", "cid:" + detail::cid_url(*cid));
      w.end_element();
      return;
    }
  }
  // Inline: base64 of the source in pieces (a multiple of 3 bytes each, so no padding until
  // the end), handed on through the output's sink as they are made.
  if (const std::vector<std::uint8_t>* bytes = a.memory(); bytes && bytes->size() <= 49152) {
    std::string text;
    xsd::base64_encode(*bytes, text);
    w.raw(text);
    return;
  }
  byte_source in = a.open();
  std::vector<std::uint8_t> piece(49152);
  std::string text;
  std::size_t held = 0;
  for (;;) {
    const std::size_t n = in(reinterpret_cast<char*>(piece.data()) + held, piece.size() - held);
    held += n;
    if (held == piece.size() || (n == 0 && held > 0)) {
      const std::size_t whole = n == 0 ? held : held - held % 3;
      text.clear();
      xsd::base64_encode(std::span(piece.data(), whole), text);
      w.raw(text);
      w.out().maybe_flush();
      std::memmove(piece.data(), piece.data() + whole, held - whole);
      held -= whole;
    }
    if (n == 0) break;
  }
}

}  // namespace lather::mtom
