// Received and sent multipart/related messages (XOP: W3C XOP 1.0 and SOAP MTOM 1.0; SwA: the
// W3C note of 2000 and WS-I AP), and the reader/writer table the binding looks messages up in.
#include "message.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <system_error>

#include "lather/soap/fault.hpp"

namespace lather::mtom::detail {

namespace {

constexpr std::string_view root_id = "root.message@lather";

// ---- the reader/writer table ----

struct table {
  std::mutex mutex;
  std::unordered_map<const void*, void*> entries;

  void set(const void* key, void* value) {
    std::lock_guard lock(mutex);
    if (value)
      entries[key] = value;
    else
      entries.erase(key);
  }
  void* get(const void* key) {
    std::lock_guard lock(mutex);
    auto it = entries.find(key);
    return it == entries.end() ? nullptr : it->second;
  }
};
table& readers() {
  static table t;
  return t;
}
table& writers() {
  static table t;
  return t;
}

bool plain_transfer_encoding(std::string_view e) {
  return e.empty() || e == "binary" || e == "8bit" || e == "7bit";
}

bool base64_transfer_encoding(std::string_view e) {
  return e.size() == 6 && (e[0] | 0x20) == 'b' && (e[1] | 0x20) == 'a' && (e[2] | 0x20) == 's' &&
         (e[3] | 0x20) == 'e' && e[4] == '6' && e[5] == '4';
}

/// The value of a base64 character, 64 for whitespace (ignored, RFC 2045 6.8), 65 for '=',
/// 66 for any other byte.
constexpr std::array<std::uint8_t, 256> base64_values = [] {
  std::array<std::uint8_t, 256> t{};
  for (auto& v : t) v = 66;
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (std::uint8_t i = 0; i < 64; ++i) t[static_cast<unsigned char>(alphabet[i])] = i;
  for (unsigned char c : {' ', '\t', '\r', '\n'}) t[c] = 64;
  t['='] = 65;
  return t;
}();

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

media_type parse_outer(std::string_view content_type) {
  std::optional<media_type> m = parse_media_type(content_type);
  if (!m || m->type != "multipart/related")
    throw error("expected a multipart/related Content-Type");
  if (!m->parameter("boundary") || m->parameter("boundary")->empty())
    throw error("multipart/related without a boundary parameter");
  return std::move(*m);
}

std::string_view boundary_of(const media_type& m) {
  return *m.parameter("boundary");
}

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace

void throw_sender_fault(const error& e) {
  soap::fault fault;
  fault.code = soap::fault_code::sender;
  fault.reason = e.what();
  throw soap::fault_error(std::move(fault));
}

void bind_reader(const void* reader, message_in* m) {
  readers().set(reader, m);
}
void bind_writer(const void* writer, message_out* m) {
  writers().set(writer, m);
}
message_in* message_of_reader(const void* reader) {
  return static_cast<message_in*>(readers().get(reader));
}
message_out* message_of_writer(const void* writer) {
  return static_cast<message_out*>(writers().get(writer));
}

std::string random_token() {
  static std::mutex mutex;
  static std::mt19937_64 engine{std::random_device{}()};
  std::uint64_t a, b;
  {
    std::lock_guard lock(mutex);
    a = engine();
    b = engine();
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out(32, '0');
  for (int i = 0; i < 16; ++i) {
    out[i] = hex[(a >> (i * 4)) & 15];
    out[16 + i] = hex[(b >> (i * 4)) & 15];
  }
  return out;
}

std::string cid_url(std::string_view content_id) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : content_id) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        std::strchr("-._~!$'()*+,;=:@/", c) != nullptr) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

std::string decode_cid(std::string_view url_body) {
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < url_body.size(); ++i) {
    if (url_body[i] == '%' && i + 2 < url_body.size() && digit(url_body[i + 1]) >= 0 &&
        digit(url_body[i + 2]) >= 0) {
      out.push_back(static_cast<char>(digit(url_body[i + 1]) * 16 + digit(url_body[i + 2])));
      i += 2;
    } else {
      out.push_back(url_body[i]);
    }
  }
  return out;
}

// ---- receiving ----

message_in::message_in(std::string_view content_type, byte_source body, const options& o,
                       std::string& envelope_type)
    : opts_(o),
      outer_(parse_outer(content_type)),
      parts_(boundary_of(outer_), std::move(body), o.limits) {
  if (!parts_.next_part()) throw error("the multipart message has no parts");
  const part_headers& root = parts_.part();
  if (std::optional<std::string_view> start = outer_.parameter("start")) {
    std::string_view id = *start;
    if (id.size() >= 2 && id.front() == '<' && id.back() == '>') id = id.substr(1, id.size() - 2);
    if (id != root.content_id)
      throw error("the root part (start=\"" + std::string(*start).substr(0, 80) +
                  "\") must be the first part");
  }
  if (!plain_transfer_encoding(root.transfer_encoding))
    throw error("Content-Transfer-Encoding \"" + root.transfer_encoding +
                "\" is not supported (binary, 8bit or 7bit)");
  std::optional<media_type> root_type = parse_media_type(
      root.content_type.empty() ? std::string(outer_.parameter("type").value_or("text/xml"))
                                : root.content_type);
  if (!root_type) throw error("the root part has no valid Content-Type");
  if (root_type->type != "application/xop+xml") {
    envelope_type = root.content_type.empty() ? root_type->type : root.content_type;  // SwA
    return;
  }
  // XOP: the envelope's type is the root's type parameter (or the message's start-info), the
  // SOAP 1.2 action wherever the sender put it.
  std::optional<std::string_view> inner = root_type->parameter("type");
  if (!inner) inner = outer_.parameter("start-info");
  if (!inner) throw error("an application/xop+xml root part without a type parameter");
  std::optional<media_type> inner_type = parse_media_type(*inner);
  if (!inner_type) throw error("the root part's type parameter is not a media type");
  const std::optional<media_type> start_info =
      parse_media_type(outer_.parameter("start-info").value_or(""));
  std::optional<std::string_view> action = inner_type->parameter("action");
  if (!action) action = root_type->parameter("action");
  if (!action) action = outer_.parameter("action");
  if (!action && start_info) action = start_info->parameter("action");
  envelope_type = inner_type->type;
  if (action && inner_type->type == "application/soap+xml")
    envelope_type += "; action=" + quoted(*action);
}

message_in::~message_in() {
  release();
}

std::size_t message_in::read_envelope(char* dest, std::size_t capacity) {
  return parts_.read(dest, capacity);
}

std::shared_ptr<content> message_in::reference(std::string_view cid) {
  std::string id = decode_cid(cid);
  if (auto it = by_id_.find(id); it != by_id_.end()) {
    it->second->referenced = true;
    return it->second;
  }
  if (by_id_.size() >= opts_.limits.max_parts)
    throw error("the message refers to more than " + std::to_string(opts_.limits.max_parts) +
                " parts");
  auto c = std::make_shared<content>();
  c->k = content::kind::pending;
  c->content_id = id;
  c->referenced = true;
  if (opts_.stream_parts) c->owner = this;
  by_id_.emplace(std::move(id), c);
  return c;
}

std::shared_ptr<content> message_in::next_referenced() {
  while (parts_.next_part()) {
    const part_headers& h = parts_.part();
    auto it = by_id_.find(h.content_id);
    if (it == by_id_.end()) continue;  // not referenced: skipped by the next next_part()
    if (it->second->k != content::kind::pending)
      throw error("two MIME parts have Content-ID <" + h.content_id.substr(0, 80) + ">");
    begin_part();
    return it->second;
  }
  return nullptr;
}

void message_in::begin_part() {
  const part_headers& h = parts_.part();
  const bool base64 = base64_transfer_encoding(h.transfer_encoding);
  if (!base64 && !plain_transfer_encoding(h.transfer_encoding))
    throw error("Content-Transfer-Encoding \"" + h.transfer_encoding.substr(0, 40) +
                "\" is not supported (binary, 8bit, 7bit or base64)");
  base64_ = {};
  base64_.on = base64;
}

byte_source message_in::kept_part(std::string_view id) {
  for (;;) {
    if (auto it = by_id_.find(std::string(id)); it != by_id_.end()) {
      const content::kind k = it->second->k;
      if (k == content::kind::memory || k == content::kind::file) return open_stored(it->second);
    }
    if (!parts_.next_part()) return {};
    // Every part read from here is kept: the envelope may refer to any of them.
    const part_headers& h = parts_.part();
    auto it = by_id_.find(h.content_id);
    if (it != by_id_.end() && it->second->k != content::kind::pending)
      throw error("two MIME parts have Content-ID <" + h.content_id.substr(0, 80) + ">");
    if (it == by_id_.end()) {
      if (by_id_.size() >= opts_.limits.max_parts)
        throw error("the multipart message has more than " +
                    std::to_string(opts_.limits.max_parts) + " parts");
      auto fresh = std::make_shared<content>();
      fresh->content_id = h.content_id;
      it = by_id_.emplace(h.content_id, std::move(fresh)).first;
    }
    const std::shared_ptr<content> c = it->second;
    c->owner = nullptr;
    begin_part();
    store(c);
  }
}

namespace {
/// A part's Content-Type, application/octet-stream when it has none.
std::string type_of(const part_headers& h) {
  return h.content_type.empty() ? "application/octet-stream" : h.content_type;
}

[[noreturn]] void missing_part(std::string_view id) {
  throw error("no MIME part has Content-ID <" + std::string(id.substr(0, 80)) +
              "> (an xop:Include refers to it)");
}
}  // namespace

std::size_t message_in::read_part(char* dest, std::size_t n) {
  base64_state& b = base64_;
  if (!b.on) return parts_.read(dest, n);
  std::size_t produced = 0;
  while (produced < n && b.carry_at < b.carry_n) dest[produced++] = b.carry[b.carry_at++];
  const auto put = [&](char byte) {
    if (produced < n)
      dest[produced++] = byte;
    else
      b.carry[b.carry_n++] = byte;
  };
  char raw[16384];
  while (produced < n) {
    b.carry_at = b.carry_n = 0;
    // At most as many characters as fill the rest of `dest` (whole quanta, at least one).
    const std::size_t want = std::min(sizeof raw, std::max<std::size_t>(4, (n - produced) / 3 * 4));
    const std::size_t got = parts_.read(raw, want);
    if (got == 0) {
      if (b.sextets != 0 && !b.ended) throw error("a base64 MIME part ends inside a quantum");
      break;
    }
    for (std::size_t i = 0; i < got; ++i) {
      const std::uint8_t v = base64_values[static_cast<unsigned char>(raw[i])];
      if (v == 64) continue;
      if (b.ended) {
        if (v == 65) continue;
        throw error("a base64 MIME part has data after its padding");
      }
      if (v == 66) throw error("a base64 MIME part has a byte that is not base64");
      if (v == 65) {  // padding: the last quantum has 2 (one byte) or 3 (two bytes) sextets
        if (b.sextets < 2) throw error("a base64 MIME part has misplaced padding");
        if (b.sextets == 2) put(static_cast<char>(b.bits >> 4));
        if (b.sextets == 3)
          put(static_cast<char>(b.bits >> 10)), put(static_cast<char>(b.bits >> 2));
        b.ended = true;
        continue;
      }
      b.bits = (b.bits << 6) | v;
      if (++b.sextets == 4) {
        put(static_cast<char>(b.bits >> 16));
        put(static_cast<char>(b.bits >> 8));
        put(static_cast<char>(b.bits));
        b.bits = 0;
        b.sextets = 0;
      }
    }
  }
  return produced;
}

void message_in::deliver_parts(const decltype(options::on_response_part)& take) {
  // Parts kept before the envelope was bound (kept_part: a signature's verifier read them)
  // come first, from where they were kept.
  for (const auto& c : stored_)
    if (c->referenced) take(c->content_id, c->content_type, open_stored(c));
  const byte_source part = [this](char* dest, std::size_t n) { return read_part(dest, n); };
  while (std::shared_ptr<content> c = next_referenced()) {
    c->k = content::kind::streamed;  // read once, here
    c->owner = nullptr;
    c->content_type = type_of(parts_.part());
    take(c->content_id, c->content_type, part);
  }
  for (const auto& [id, c] : by_id_)
    if (c->k == content::kind::pending) missing_part(id);
}

void message_in::read_parts() {
  while (std::shared_ptr<content> c = next_referenced()) store(c);
  for (const auto& [id, c] : by_id_)
    if (c->k == content::kind::pending) missing_part(id);
}

byte_source message_in::open_part(const std::shared_ptr<content>& wanted) {
  return as_sender_fault([&]() -> byte_source {
    for (;;) {
      std::shared_ptr<content> c = next_referenced();
      if (!c) missing_part(wanted->content_id);
      if (c != wanted) {
        store(c);
        continue;
      }
      c->k = content::kind::streamed;
      c->owner = nullptr;
      c->content_type = type_of(parts_.part());
      return [this, keep = c](char* dest, std::size_t n) {
        if (keep->k != content::kind::streamed) return std::size_t{0};  // the call ended
        return as_sender_fault([&] { return read_part(dest, n); });
      };
    }
  });
}

void message_in::store(const std::shared_ptr<content>& c) {
  c->content_type = type_of(parts_.part());
  c->bytes.clear();
  std::uint64_t total = 0;
  int fd = -1;
  char buf[65536];
  try {
    while (std::size_t n = read_part(buf, sizeof buf)) {
      total += n;
      if (fd < 0 && c->bytes.size() + n > opts_.memory_threshold) {
        // Past the threshold: to a temporary file, deleted with the content.
        std::string dir = opts_.temp_dir;
        if (dir.empty()) {
          const char* env = std::getenv("TMPDIR");
          dir = env && *env ? env : "/tmp";
        }
        c->path = dir + "/lather-mtom-XXXXXX";
        fd = ::mkstemp(c->path.data());
        if (fd < 0) throw_errno("cannot create a temporary file in " + dir);
        c->temporary = true;
        c->k = content::kind::file;
        const auto write_all = [&](const char* p, std::size_t k) {
          while (k > 0) {
            const ssize_t w = ::write(fd, p, k);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) throw_errno("cannot write " + c->path);
            p += w;
            k -= static_cast<std::size_t>(w);
          }
        };
        write_all(reinterpret_cast<const char*>(c->bytes.data()), c->bytes.size());
        std::vector<std::uint8_t>().swap(c->bytes);
        write_all(buf, n);
        while (std::size_t m = read_part(buf, sizeof buf)) {
          total += m;
          write_all(buf, m);
        }
        break;
      }
      c->bytes.insert(c->bytes.end(), buf, buf + n);
    }
  } catch (...) {
    if (fd >= 0) ::close(fd);
    c->k = content::kind::released;
    c->release();
    throw;
  }
  if (fd >= 0) {
    if (::close(fd) != 0) throw_errno("cannot write " + c->path);
  } else {
    c->k = content::kind::memory;
  }
  c->size = total;
  stored_.push_back(c);
}

void message_in::release() noexcept {
  for (const auto& c : stored_) c->release();
  for (const auto& [id, c] : by_id_) {
    if (c->k == content::kind::pending || c->k == content::kind::streamed)
      c->k = content::kind::released;
    c->owner = nullptr;
  }
  stored_.clear();
  by_id_.clear();
}

// ---- sending ----

message_out::message_out(const options& o) : opts_(o), boundary_("MIME_" + random_token()) {}

std::string_view message_out::content_type(soap::version v, std::string_view action) {
  const bool soap12 = v == soap::version::soap12;
  std::string inner = soap12 ? "application/soap+xml" : "text/xml";
  if (soap12 && !action.empty()) inner += "; action=" + quoted(action);
  root_type_ = "application/xop+xml; charset=UTF-8; type=" + quoted(inner);
  type_ = "multipart/related; type=\"application/xop+xml\"; boundary=\"" + boundary_ +
          "\"; start=\"<" + std::string(root_id) + ">\"; start-info=" + quoted(inner);
  return type_;
}

void message_out::begin(byte_buffer& out) {
  parts_.clear();
  out.append("--");
  out.append(boundary_);
  out.append("\r\nContent-Type: ");
  out.append(root_type_);
  out.append("\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <");
  out.append(root_id);
  out.append(">\r\n\r\n");
}

std::optional<std::string> message_out::take(const attachment& a) {
  if (!opts_.send) return std::nullopt;
  switch (a.mode()) {
    case send_as::inline_text:
      return std::nullopt;
    case send_as::automatic:
      if (a.size() && *a.size() < opts_.attachment_threshold) return std::nullopt;
      break;
    case send_as::part:
      break;
  }
  const std::shared_ptr<content>& c = a.content_ref();
  for (const auto& p : parts_)
    if (p == c) return c->content_id;  // the same bytes twice: one part
  if (c->content_id.empty())
    c->content_id = std::to_string(++next_id_) + "." + random_token() + "@lather";
  parts_.push_back(c);
  return c->content_id;
}

void message_out::end(byte_buffer& out) {
  for (const auto& c : parts_) {
    out.append("\r\n--");
    out.append(boundary_);
    out.append("\r\nContent-Type: ");
    out.append(c->content_type);
    out.append("\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <");
    out.append(c->content_id);
    out.append(">\r\n\r\n");
    byte_source in = attachment(c).open();
    constexpr std::size_t piece = 65536;
    for (;;) {
      char* at = out.prepare(piece);
      const std::size_t n = in(at, piece);
      if (n == 0) break;
      out.commit(n);
      out.maybe_flush();
    }
  }
  out.append("\r\n--");
  out.append(boundary_);
  out.append("--\r\n");
}

}  // namespace lather::mtom::detail
