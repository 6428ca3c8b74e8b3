// The streaming multipart reader: one buffer, the delimiter found with memchr on its CR and a
// compare, so a part's bytes pass through in linear time whatever they hold.
#include "lather/mtom/multipart.hpp"

#include <algorithm>
#include <cstring>

#include "lather/detail/ascii.hpp"

namespace lather::mtom {

namespace {

constexpr std::size_t buffer_bytes = 64 * 1024;

bool is_space(char c) noexcept {
  return c == ' ' || c == '\t';
}
std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (is_space(s.front()) || s.front() == '\r' || s.front() == '\n'))
    s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}
std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}
// RFC 2045 tspecials end a token.
bool is_token_char(char c) noexcept {
  return static_cast<unsigned char>(c) > 32 && static_cast<unsigned char>(c) < 127 &&
         std::strchr("()<>@,;:\\\"/[]?=", c) == nullptr;
}

}  // namespace

std::optional<std::string_view> media_type::parameter(std::string_view name) const {
  for (const auto& [n, v] : parameters)
    if (n == name) return std::string_view(v);
  return std::nullopt;
}

std::optional<media_type> parse_media_type(std::string_view text) {
  media_type m;
  std::size_t i = 0;
  const auto skip_space = [&] {
    while (i < text.size() && is_space(text[i])) ++i;
  };
  skip_space();
  const std::size_t type_start = i;
  while (i < text.size() && (is_token_char(text[i]) || text[i] == '/')) ++i;
  std::string_view type = text.substr(type_start, i - type_start);
  if (type.find('/') == std::string_view::npos || type.front() == '/' || type.back() == '/')
    return std::nullopt;
  m.type = lower(type);
  for (;;) {
    skip_space();
    if (i == text.size()) break;
    if (text[i] != ';') return std::nullopt;
    ++i;
    skip_space();
    if (i == text.size()) break;  // a trailing ';' is tolerated
    const std::size_t name_start = i;
    while (i < text.size() && is_token_char(text[i])) ++i;
    std::string name = lower(text.substr(name_start, i - name_start));
    skip_space();
    if (name.empty() || i == text.size() || text[i] != '=') return std::nullopt;
    ++i;
    skip_space();
    std::string value;
    if (i < text.size() && text[i] == '"') {
      ++i;
      bool closed = false;
      while (i < text.size()) {
        char c = text[i++];
        if (c == '"') {
          closed = true;
          break;
        }
        if (c == '\\' && i < text.size()) c = text[i++];
        value.push_back(c);
      }
      if (!closed) return std::nullopt;
    } else {
      const std::size_t value_start = i;
      while (i < text.size() && is_token_char(text[i])) ++i;
      value.assign(text.substr(value_start, i - value_start));
    }
    m.parameters.emplace_back(std::move(name), std::move(value));
  }
  return m;
}

multipart_reader::multipart_reader(std::string_view boundary, byte_source body,
                                   multipart_limits limits)
    : body_(std::move(body)), limits_(limits) {
  // RFC 2046 §5.1.1: 1 to 70 characters.
  if (boundary.empty() || boundary.size() > 70)
    throw error("the multipart boundary must have 1 to 70 characters");
  delimiter_ = "\r\n--";
  delimiter_.append(boundary);
  buf_.resize(std::max(buffer_bytes, limits_.max_header_bytes + delimiter_.size() + 8));
  // The first delimiter may open the body without a CRLF before it: supply one.
  buf_[0] = '\r';
  buf_[1] = '\n';
  end_ = 2;
}

bool multipart_reader::fill() {
  if (body_done_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    clear_ = clear_ > begin_ ? clear_ - begin_ : 0;
    begin_ = 0;
  }
  if (end_ == buf_.size()) return true;  // full: the caller consumes first
  const std::size_t n = body_(buf_.data() + end_, buf_.size() - end_);
  if (n == 0) {
    body_done_ = true;
    return false;
  }
  end_ += n;
  return true;
}

void multipart_reader::truncated() const {
  throw error("the multipart body ends before its closing boundary");
}

// Where the next delimiter starts in the unread bytes: its index, or npos with `clear_` set
// to how far the bytes are certainly part data (a delimiter may begin after it).
std::size_t multipart_reader::find_delimiter() {
  const std::size_t m = delimiter_.size();
  std::size_t p = std::max(begin_, clear_);
  while (p < end_) {
    const void* cr = std::memchr(buf_.data() + p, '\r', end_ - p);
    if (!cr) break;
    p = static_cast<std::size_t>(static_cast<const char*>(cr) - buf_.data());
    const std::size_t have = std::min(m, end_ - p);
    if (std::memcmp(buf_.data() + p, delimiter_.data(), have) == 0) {
      if (have == m) {
        clear_ = p;
        return p;
      }
      clear_ = p;  // a delimiter's first bytes at the end: undecided
      return std::string::npos;
    }
    ++p;
  }
  clear_ = end_;
  return std::string::npos;
}

std::size_t multipart_reader::read(char* dest, std::size_t capacity) {
  if (state_ != state::in_part || capacity == 0) return 0;
  for (;;) {
    std::size_t available;
    if (clear_ > begin_) {
      available = clear_ - begin_;
    } else {
      const std::size_t at = find_delimiter();
      if (at == begin_) {
        begin_ += delimiter_.size();
        clear_ = begin_;
        state_ = state::part_end;
        return 0;
      }
      available = at != std::string::npos ? at - begin_ : clear_ - begin_;
    }
    if (available == 0) {
      if (!fill()) truncated();
      continue;
    }
    const std::size_t n = std::min(available, capacity);
    std::memcpy(dest, buf_.data() + begin_, n);
    begin_ += n;
    part_bytes_ += n;
    if (limits_.max_part_bytes != 0 && part_bytes_ > limits_.max_part_bytes)
      throw error("a MIME part is larger than the limit of " +
                  std::to_string(limits_.max_part_bytes) + " bytes");
    return n;
  }
}

bool multipart_reader::next_part() {
  if (state_ == state::closed) return false;
  if (state_ == state::preamble) {
    for (;;) {
      const std::size_t at = find_delimiter();
      if (at != std::string::npos) {
        begin_ = at + delimiter_.size();
        clear_ = begin_;
        break;
      }
      begin_ = clear_;  // the preamble is dropped
      if (!fill()) throw error("the multipart body has no boundary line (--boundary)");
    }
    state_ = state::part_end;
  }
  if (state_ == state::in_part) {
    char scratch[4096];
    while (read(scratch, sizeof scratch) != 0) {
    }
  }
  // After a delimiter: "--" closes, else optional padding and CRLF.
  while (end_ - begin_ < 2)
    if (!fill()) truncated();
  if (buf_[begin_] == '-' && buf_[begin_ + 1] == '-') {
    state_ = state::closed;
    begin_ = end_ = clear_ = 0;
    // The epilogue is ignored (RFC 2046); drain it so the connection stays usable.
    while (fill()) begin_ = end_ = clear_ = 0;
    return false;
  }
  for (;;) {
    while (begin_ < end_ && is_space(buf_[begin_])) ++begin_;
    if (end_ - begin_ >= 2) break;
    if (!fill()) truncated();
  }
  if (buf_[begin_] != '\r' || buf_[begin_ + 1] != '\n')
    throw error("a multipart boundary line has text after the boundary");
  begin_ += 2;
  clear_ = begin_;
  if (++parts_ > limits_.max_parts)
    throw error("the multipart message has more than " + std::to_string(limits_.max_parts) +
                " parts");
  read_headers();
  state_ = state::in_part;
  part_bytes_ = 0;
  return true;
}

void multipart_reader::read_headers() {
  part_ = {};
  // The header block ends at an empty line (right away when the part has no headers).
  std::size_t end_of_headers;
  for (;;) {
    std::string_view unread{buf_.data() + begin_, end_ - begin_};
    if (unread.starts_with("\r\n")) {
      end_of_headers = begin_;
      break;
    }
    const std::size_t at = unread.find("\r\n\r\n");
    if (at != std::string_view::npos) {
      end_of_headers = begin_ + at + 2;
      break;
    }
    if (unread.size() > limits_.max_header_bytes)
      throw error("a MIME part's headers exceed " + std::to_string(limits_.max_header_bytes) +
                  " bytes");
    if (!fill()) truncated();
  }
  if (end_of_headers - begin_ > limits_.max_header_bytes)
    throw error("a MIME part's headers exceed " + std::to_string(limits_.max_header_bytes) +
                " bytes");
  std::string_view block{buf_.data() + begin_, end_of_headers - begin_};
  begin_ = end_of_headers + 2;
  clear_ = begin_;
  // Unfold (a line starting with a space continues the previous one), then split name: value.
  std::string line;
  const auto take = [this](const std::string& l) {
    const std::size_t colon = l.find(':');
    if (colon == std::string::npos) throw error("a MIME part header has no ':'");
    const std::string_view name = trim(std::string_view(l).substr(0, colon));
    const std::string_view value = trim(std::string_view(l).substr(colon + 1));
    if (lather::detail::ascii_iequals(name, "Content-Type")) {
      part_.content_type.assign(value);
    } else if (lather::detail::ascii_iequals(name, "Content-ID")) {
      std::string_view id = value;
      if (id.size() >= 2 && id.front() == '<' && id.back() == '>') id = id.substr(1, id.size() - 2);
      part_.content_id.assign(id);
    } else if (lather::detail::ascii_iequals(name, "Content-Location")) {
      part_.content_location.assign(value);
    } else if (lather::detail::ascii_iequals(name, "Content-Transfer-Encoding")) {
      part_.transfer_encoding = lower(value);
    }
  };
  while (!block.empty()) {
    const std::size_t eol = block.find("\r\n");
    const std::string_view l = block.substr(0, eol);
    block.remove_prefix(eol == std::string_view::npos ? block.size() : eol + 2);
    if (!l.empty() && is_space(l.front())) {
      line.append(l);
      continue;
    }
    if (!line.empty()) take(line);
    line.assign(l);
  }
  if (!line.empty()) take(line);
}

}  // namespace lather::mtom
