// xsd:dateTime, xsd:date, xsd:time, xsd:duration and compare_instant.
// Parsing is a single left-to-right pass over the text; only the fractional-second digits are
// stored as text (short: no heap allocation with the small-string buffer).
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "xsd_detail.hpp"

namespace lather::xsd {
namespace {

using bind::errc;
using bind::detail::is_digit;

bool is_leap(std::int64_t y) noexcept {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned days_in_month(std::int64_t year, unsigned month) noexcept {
  static constexpr unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : days[month - 1];
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) noexcept {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

class cursor {
 public:
  explicit cursor(std::string_view text) : text_(text) {}
  bool done() const noexcept { return pos_ == text_.size(); }
  bool eat(char c) noexcept {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  char peek() const noexcept { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  /// Exactly n digits.
  bool fixed(unsigned n, unsigned& out) noexcept {
    if (text_.size() - pos_ < n) return false;
    out = 0;
    for (unsigned i = 0; i < n; ++i) {
      const char c = text_[pos_ + i];
      if (!is_digit(c)) return false;
      out = out * 10 + static_cast<unsigned>(c - '0');
    }
    pos_ += n;
    return true;
  }
  /// One or more digits; `overflow` set if the value exceeds uint64.
  bool digits(std::uint64_t& out, std::size_t& count, bool& overflow) noexcept {
    const std::size_t begin = pos_;
    out = 0;
    while (pos_ < text_.size() && is_digit(text_[pos_])) {
      const unsigned d = static_cast<unsigned>(text_[pos_] - '0');
      if (out > (std::numeric_limits<std::uint64_t>::max() - d) / 10) overflow = true;
      out = out * 10 + d;
      ++pos_;
    }
    count = pos_ - begin;
    return count > 0;
  }
  /// One to n digits.
  bool upto(unsigned n, unsigned& out) noexcept {
    const std::size_t begin = pos_;
    out = 0;
    while (pos_ < text_.size() && pos_ - begin < n && is_digit(text_[pos_]))
      out = out * 10 + static_cast<unsigned>(text_[pos_++] - '0');
    return pos_ > begin;
  }
  /// One or more digits as a view.
  std::string_view digit_run() noexcept {
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    return text_.substr(begin, pos_ - begin);
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

std::string_view strip_trailing_zeros(std::string_view s) noexcept {
  while (!s.empty() && s.back() == '0') s.remove_suffix(1);
  return s;
}

errc parse_date_part(cursor& c, date_time_fields& f) noexcept {
  const bool negative = c.eat('-');
  std::uint64_t year = 0;
  std::size_t count = 0;
  bool overflow = false;
  const char first = c.peek();
  if (!c.digits(year, count, overflow) || count < 4 || (count > 4 && first == '0'))
    return errc::invalid_lexical;
  unsigned month = 0, day = 0;
  if (!c.eat('-') || !c.fixed(2, month) || !c.eat('-') || !c.fixed(2, day))
    return errc::invalid_lexical;
  if (overflow || year > (negative ? 2147483648u : 2147483647u)) return errc::out_of_range;
  const std::int64_t y =
      negative ? -static_cast<std::int64_t>(year) : static_cast<std::int64_t>(year);
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(y, month))
    return errc::out_of_range;
  f.year = static_cast<std::int32_t>(y);
  f.month = static_cast<std::uint8_t>(month);
  f.day = static_cast<std::uint8_t>(day);
  return errc::ok;
}

// An optional ".digits" (at least one), trailing zeros dropped; false if malformed.
bool fraction_digits(cursor& c, std::string_view& out) noexcept {
  out = {};
  if (c.eat('.') && (out = c.digit_run()).empty()) return false;
  out = strip_trailing_zeros(out);
  return true;
}

// hh:mm:ss(.s+)?; hour 24 allowed only as 24:00:00 (reported through `end_of_day`).
errc parse_time_part(cursor& c, date_time_fields& f, bool& end_of_day) noexcept {
  unsigned h = 0, m = 0, s = 0;
  if (!c.fixed(2, h) || !c.eat(':') || !c.fixed(2, m) || !c.eat(':') || !c.fixed(2, s))
    return errc::invalid_lexical;
  std::string_view fraction;
  if (!fraction_digits(c, fraction)) return errc::invalid_lexical;
  end_of_day = h == 24;
  if (m > 59 || s > 59 || h > 24 || (end_of_day && (m != 0 || s != 0 || !fraction.empty())))
    return errc::out_of_range;
  f.hour = end_of_day ? 0 : static_cast<std::uint8_t>(h);
  f.minute = static_cast<std::uint8_t>(m);
  f.second = static_cast<std::uint8_t>(s);
  try {
    f.fraction.assign(fraction);
  } catch (...) {
    return errc::limit_exceeded;
  }
  return errc::ok;
}

// The zone sign hh:mm, within the 14 hours XSD allows.
errc set_zone(char sign, unsigned h, unsigned m, date_time_fields& f) noexcept {
  if (m > 59 || h > 14 || (h == 14 && m != 0)) return errc::out_of_range;
  const int minutes = static_cast<int>(h * 60 + m);
  f.tz_minutes = static_cast<std::int16_t>(sign == '-' ? -minutes : minutes);
  return errc::ok;
}

errc parse_timezone(cursor& c, date_time_fields& f) noexcept {
  f.tz_minutes.reset();
  if (c.done()) return errc::ok;
  if (c.eat('Z')) {
    f.tz_minutes = 0;
    return c.done() ? errc::ok : errc::invalid_lexical;
  }
  const char sign = c.peek();
  if (sign != '+' && sign != '-') return errc::invalid_lexical;
  c.eat(sign);
  unsigned h = 0, m = 0;
  if (!c.fixed(2, h) || !c.eat(':') || !c.fixed(2, m) || !c.done()) return errc::invalid_lexical;
  return set_zone(sign, h, m, f);
}

// 24:00:00 on day D is 00:00:00 on day D+1.
errc next_day(date_time_fields& f) noexcept {
  if (f.day < days_in_month(f.year, f.month)) {
    ++f.day;
    return errc::ok;
  }
  f.day = 1;
  if (f.month < 12) {
    ++f.month;
    return errc::ok;
  }
  f.month = 1;
  if (f.year == std::numeric_limits<std::int32_t>::max()) return errc::out_of_range;
  ++f.year;
  return errc::ok;
}

enum class kind { date_time, date, time };

// The shape nearly every peer sends, "YYYY-MM-DDThh:mm:ss" with "Z" or no timezone, read at
// fixed positions. False (nothing written) for anything else, including every error and
// 24:00:00: the general parser decides those.
bool parse_plain_date_time(std::string_view t, date_time_fields& out) noexcept {
  if (t.size() != 19 && (t.size() != 20 || t[19] != 'Z')) return false;
  bool ok = true;
  auto two = [&](std::size_t i) {
    ok = ok && is_digit(t[i]) && is_digit(t[i + 1]);
    return static_cast<unsigned>((t[i] - '0') * 10 + (t[i + 1] - '0'));
  };
  const unsigned century = two(0), year = two(2), month = two(5), day = two(8), hour = two(11),
                 minute = two(14), second = two(17);
  if (!ok || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':')
    return false;
  const std::int32_t y = static_cast<std::int32_t>(century * 100 + year);
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(y, month) || hour > 23 ||
      minute > 59 || second > 59)
    return false;
  out.year = y;
  out.month = static_cast<std::uint8_t>(month);
  out.day = static_cast<std::uint8_t>(day);
  out.hour = static_cast<std::uint8_t>(hour);
  out.minute = static_cast<std::uint8_t>(minute);
  out.second = static_cast<std::uint8_t>(second);
  out.fraction.clear();
  if (t.size() == 20)
    out.tz_minutes = 0;
  else
    out.tz_minutes.reset();
  return true;
}

template <kind K>
errc parse_fields(std::string_view text, date_time_fields& out) noexcept {
  const std::string_view trimmed = detail::trim_xml_space(text);
  if constexpr (K == kind::date_time) {
    if (parse_plain_date_time(trimmed, out)) return errc::ok;
  }
  cursor c{trimmed};
  date_time_fields f;
  bool end_of_day = false;
  if constexpr (K != kind::time) {
    if (errc e = parse_date_part(c, f); e != errc::ok) return e;
  }
  if constexpr (K == kind::date_time) {
    if (!c.eat('T')) return errc::invalid_lexical;
  }
  if constexpr (K != kind::date) {
    if (errc e = parse_time_part(c, f, end_of_day); e != errc::ok) return e;
  }
  if (errc e = parse_timezone(c, f); e != errc::ok) return e;
  if (K == kind::date_time && end_of_day) {
    if (errc e = next_day(f); e != errc::ok) return e;
  }
  out.year = f.year;
  out.month = f.month;
  out.day = f.day;
  out.hour = f.hour;
  out.minute = f.minute;
  out.second = f.second;
  out.fraction.swap(f.fraction);
  out.tz_minutes = f.tz_minutes;
  return errc::ok;
}

// The forms devices send that XSD refuses (read_options::lenient_dates): a space, 't' or '-'
// between date and time; one-digit hours, minutes and seconds, and minutes or seconds past 59
// carried into the next unit (a day's 24 hours too); a zone of "+hhmm", "+hh" or "z". What is
// read is then an ordinary value: written back in the XSD form.
template <kind K>
errc parse_lenient_fields(std::string_view text, date_time_fields& out) noexcept {
  const errc strict = parse_fields<K>(text, out);
  if (strict == errc::ok || strict == errc::limit_exceeded) return strict;
  cursor c{detail::trim_xml_space(text)};
  date_time_fields f;
  if constexpr (K != kind::time) {
    if (errc e = parse_date_part(c, f); e != errc::ok) return e;
  }
  if constexpr (K == kind::date_time) {
    if (!c.eat('T') && !c.eat('t') && !c.eat(' ') && !c.eat('-')) return errc::invalid_lexical;
  }
  if constexpr (K != kind::date) {
    unsigned h = 0, m = 0, s = 0;
    if (!c.upto(2, h) || !c.eat(':') || !c.upto(2, m) || !c.eat(':') || !c.upto(2, s))
      return errc::invalid_lexical;
    std::string_view fraction;
    if (!fraction_digits(c, fraction)) return errc::invalid_lexical;
    try {
      f.fraction.assign(fraction);
    } catch (...) {
      return errc::limit_exceeded;
    }
    const unsigned seconds = h * 3600 + m * 60 + s;
    f.hour = static_cast<std::uint8_t>(seconds / 3600 % 24);
    f.minute = static_cast<std::uint8_t>(seconds / 60 % 60);
    f.second = static_cast<std::uint8_t>(seconds % 60);
    if constexpr (K == kind::date_time) {
      for (unsigned d = seconds / 86400; d != 0; --d)
        if (errc e = next_day(f); e != errc::ok) return e;
    }
  }
  f.tz_minutes.reset();
  if (c.eat('Z') || c.eat('z')) {
    f.tz_minutes = 0;
  } else if (!c.done()) {
    const char sign = c.peek();
    if (sign != '+' && sign != '-') return errc::invalid_lexical;
    c.eat(sign);
    unsigned h = 0, m = 0;
    if (!c.fixed(2, h)) return errc::invalid_lexical;
    const bool colon = c.eat(':');
    if ((colon || !c.done()) && !c.fixed(2, m)) return errc::invalid_lexical;
    if (errc e = set_zone(sign, h, m, f); e != errc::ok) return e;
  }
  if (!c.done()) return errc::invalid_lexical;
  out = std::move(f);
  return errc::ok;
}

}  // namespace

errc parse_lenient(std::string_view text, date_time& out) noexcept {
  return parse_lenient_fields<kind::date_time>(text, out);
}
errc parse_lenient(std::string_view text, date& out) noexcept {
  return parse_lenient_fields<kind::date>(text, out);
}
errc parse_lenient(std::string_view text, time& out) noexcept {
  return parse_lenient_fields<kind::time>(text, out);
}

namespace {

char* put2(char* p, unsigned v) noexcept {
  p[0] = static_cast<char>('0' + v / 10);
  p[1] = static_cast<char>('0' + v % 10);
  return p + 2;
}

// Longest output without the fraction: -2147483648-12-31T23:59:59+14:00 (34 chars).
template <kind K>
std::size_t format_fixed(const date_time_fields& f, char* buf) noexcept {
  char* p = buf;
  if constexpr (K != kind::time) {
    std::int64_t y = f.year;
    if (y >= 0 && y <= 9999) {  // four digits, the usual case
      p = put2(put2(p, static_cast<unsigned>(y / 100)), static_cast<unsigned>(y % 100));
    } else {
      if (y < 0) {
        *p++ = '-';
        y = -y;
      }
      char digits[16];
      const std::size_t n =
          static_cast<std::size_t>(std::to_chars(digits, digits + 16, y).ptr - digits);
      for (std::size_t i = n; i < 4; ++i) *p++ = '0';
      std::memcpy(p, digits, n);
      p += n;
    }
    *p++ = '-';
    p = put2(p, f.month);
    *p++ = '-';
    p = put2(p, f.day);
  }
  if constexpr (K == kind::date_time) *p++ = 'T';
  if constexpr (K != kind::date) {
    p = put2(p, f.hour);
    *p++ = ':';
    p = put2(p, f.minute);
    *p++ = ':';
    p = put2(p, f.second);
  }
  return static_cast<std::size_t>(p - buf);
}

std::size_t format_zone(const date_time_fields& f, char* p) noexcept {
  if (!f.tz_minutes) return 0;
  int tz = *f.tz_minutes;
  if (tz == 0) {
    *p = 'Z';
    return 1;
  }
  p[0] = tz < 0 ? '-' : '+';
  if (tz < 0) tz = -tz;
  put2(p + 1, static_cast<unsigned>(tz / 60));
  p[3] = ':';
  put2(p + 4, static_cast<unsigned>(tz % 60));
  return 6;
}

template <kind K>
void format_fields(const date_time_fields& f, std::string& out) {
  char buf[48];
  out.append(buf, format_fixed<K>(f, buf));
  if (K != kind::date && !f.fraction.empty()) {
    out.push_back('.');
    out.append(f.fraction);
  }
  out.append(buf, format_zone(f, buf));
}

// The text at buf, which has room for fields_room(f) bytes.
template <kind K>
std::size_t fields_to(const date_time_fields& f, char* buf) noexcept {
  std::size_t n = format_fixed<K>(f, buf);
  if (K != kind::date && !f.fraction.empty()) {
    buf[n++] = '.';
    f.fraction.copy(buf + n, f.fraction.size());
    n += f.fraction.size();
  }
  return n + format_zone(f, buf + n);
}

// Room for fields_to: the fixed fields and the zone take at most 33 bytes (an int32 year).
std::size_t fields_room(const date_time_fields& f) noexcept {
  return 56 + f.fraction.size();
}

template <kind K>
void write_fields(const date_time_fields& f, xml::writer& w) {
  // Stack buffer for the common case (fraction up to 40 digits), so writing never allocates.
  char buf[96];
  if (fields_room(f) <= sizeof buf) return detail::write_text(w, {buf, fields_to<K>(f, buf)});
  std::string text;
  format_fields<K>(f, text);
  detail::write_text(w, text);
}

// The element {ns}local: formatted straight into the output unless the fraction (set by the
// caller, not parsed) holds something other than digits, which text_element escapes.
template <kind K>
void write_fields_leaf(const date_time_fields& f, xml::writer& w, xml::leaf_namespace& ns,
                       xml::ncname local) {
  if (std::all_of(f.fraction.begin(), f.fraction.end(), bind::detail::is_digit))
    return bind::detail::write_formatted_leaf(w, ns, local, fields_room(f),
                                              [&f](char* dst) { return fields_to<K>(f, dst); });
  std::string text;
  format_fields<K>(f, text);
  w.text_element(ns, local, text);
}

errc parse_duration(std::string_view text, duration& out) noexcept {
  cursor c{detail::trim_xml_space(text)};
  duration d;
  d.negative = c.eat('-');
  if (!c.eat('P')) return errc::invalid_lexical;
  std::uint64_t* const fields[] = {&d.years, &d.months, &d.days, &d.hours, &d.minutes, &d.seconds};
  bool any = false, in_time = false, time_any = false, overflow = false;
  unsigned next_field = 0;  // designators must come in order Y M D T H M S, each at most once
  std::string_view fraction;
  while (!c.done()) {
    if (c.eat('T')) {
      if (in_time) return errc::invalid_lexical;
      in_time = true;
      next_field = 3;
      continue;
    }
    std::uint64_t value = 0;
    std::size_t count = 0;
    if (!c.digits(value, count, overflow)) return errc::invalid_lexical;
    bool has_fraction = false;
    if (c.eat('.')) {
      fraction = c.digit_run();
      if (fraction.empty()) return errc::invalid_lexical;
      has_fraction = true;
    }
    const char unit = c.peek();
    unsigned field = 0;
    if (!in_time && unit == 'Y')
      field = 0;
    else if (!in_time && unit == 'M')
      field = 1;
    else if (!in_time && unit == 'D')
      field = 2;
    else if (in_time && unit == 'H')
      field = 3;
    else if (in_time && unit == 'M')
      field = 4;
    else if (in_time && unit == 'S')
      field = 5;
    else
      return errc::invalid_lexical;
    if (field < next_field || (has_fraction && field != 5)) return errc::invalid_lexical;
    c.eat(unit);
    next_field = field + 1;
    *fields[field] = value;
    any = true;
    time_any = time_any || in_time;
  }
  if (!any || (in_time && !time_any)) return errc::invalid_lexical;
  if (overflow) return errc::out_of_range;
  try {
    d.fraction.assign(strip_trailing_zeros(fraction));
  } catch (...) {
    return errc::limit_exceeded;
  }
  if (d.years == 0 && d.months == 0 && d.days == 0 && d.hours == 0 && d.minutes == 0 &&
      d.seconds == 0 && d.fraction.empty())
    d.negative = false;  // -PT0S is PT0S
  out = std::move(d);
  return errc::ok;
}

void format_duration(const duration& d, std::string& out) {
  char buf[160];  // 6 fields x (20 digits + designator) + "-PT"
  char* p = buf;
  auto put = [&p](std::uint64_t v, char unit) {
    p = std::to_chars(p, p + 21, v).ptr;
    *p++ = unit;
  };
  if (d.negative) *p++ = '-';
  *p++ = 'P';
  if (d.years) put(d.years, 'Y');
  if (d.months) put(d.months, 'M');
  if (d.days) put(d.days, 'D');
  const bool has_seconds = d.seconds || !d.fraction.empty();
  const bool all_zero = p == buf + 1 + d.negative && !d.hours && !d.minutes && !has_seconds;
  if (d.hours || d.minutes || has_seconds || all_zero) *p++ = 'T';
  if (d.hours) put(d.hours, 'H');
  if (d.minutes) put(d.minutes, 'M');
  if (!has_seconds && !all_zero) {
    out.append(buf, static_cast<std::size_t>(p - buf));
    return;
  }
  p = std::to_chars(p, p + 21, d.seconds).ptr;
  out.append(buf, static_cast<std::size_t>(p - buf));
  if (!d.fraction.empty()) {
    out.push_back('.');
    out.append(d.fraction);
  }
  out.push_back('S');
}

struct instant {
  std::int64_t seconds;       // since 1970-01-01T00:00:00 (local time when no timezone)
  std::string_view fraction;  // trailing zeros removed
};

instant to_instant(const date_time_fields& f) noexcept {
  const std::int64_t days = days_from_civil(f.year, f.month, f.day);
  std::int64_t s = days * 86400 + f.hour * 3600 + f.minute * 60 + f.second;
  if (f.tz_minutes) s -= *f.tz_minutes * 60;
  return {s, strip_trailing_zeros(f.fraction)};
}

std::strong_ordering compare(const instant& a, const instant& b) noexcept {
  if (a.seconds != b.seconds) return a.seconds <=> b.seconds;
  const int c = a.fraction.compare(b.fraction);  // digit strings: lexicographic == numeric
  return c <=> 0;
}

}  // namespace

std::partial_ordering compare_instant(const date_time_fields& a, const date_time_fields& b) {
  const instant ia = to_instant(a), ib = to_instant(b);
  if (a.tz_minutes.has_value() == b.tz_minutes.has_value()) return compare(ia, ib);
  // One side has no timezone: it may be anywhere in -14:00..+14:00.
  constexpr std::int64_t span = 14 * 3600;
  const bool a_zoned = a.tz_minutes.has_value();
  const instant& zoned = a_zoned ? ia : ib;
  const instant& local = a_zoned ? ib : ia;
  std::partial_ordering zoned_vs_local = std::partial_ordering::unordered;
  if (compare(zoned, {local.seconds - span, local.fraction}) < 0)
    zoned_vs_local = std::partial_ordering::less;
  else if (compare(zoned, {local.seconds + span, local.fraction}) > 0)
    zoned_vs_local = std::partial_ordering::greater;
  if (a_zoned || zoned_vs_local == std::partial_ordering::unordered) return zoned_vs_local;
  return zoned_vs_local == std::partial_ordering::less ? std::partial_ordering::greater
                                                       : std::partial_ordering::less;
}

}  // namespace lather::xsd

namespace lather::bind::detail {

template <class T, xsd::kind K>
struct date_time_codec {
  static errc parse(std::string_view text, T& out) noexcept {
    return xsd::parse_fields<K>(text, out);
  }
  static void format(const T& value, std::string& out) { xsd::format_fields<K>(value, out); }
  static void write(const T& value, xml::writer& w) { xsd::write_fields<K>(value, w); }
  static void write_leaf(const T& value, xml::writer& w, xml::leaf_namespace& ns,
                         xml::ncname local) {
    xsd::write_fields_leaf<K>(value, w, ns, local);
  }
};

template <>
struct simple_codec<xsd::date_time> : date_time_codec<xsd::date_time, xsd::kind::date_time> {};
template <>
struct simple_codec<xsd::date> : date_time_codec<xsd::date, xsd::kind::date> {};
template <>
struct simple_codec<xsd::time> : date_time_codec<xsd::time, xsd::kind::time> {};

template <>
struct simple_codec<xsd::duration> {
  static errc parse(std::string_view text, xsd::duration& out) noexcept {
    return xsd::parse_duration(text, out);
  }
  static void format(const xsd::duration& value, std::string& out) {
    xsd::format_duration(value, out);
  }
  static void write_leaf(const xsd::duration& value, xml::writer& w, xml::leaf_namespace& ns,
                         xml::ncname local) {
    std::string text;
    xsd::format_duration(value, text);
    w.text_element(ns, local, text);
  }
  static void write(const xsd::duration& value, xml::writer& w) {
    std::string text;
    xsd::format_duration(value, text);
    xsd::detail::write_text(w, text);
  }
};

template struct simple_traits_base<xsd::date_time>;
template struct simple_traits_base<xsd::date>;
template struct simple_traits_base<xsd::time>;
template struct simple_traits_base<xsd::duration>;

}  // namespace lather::bind::detail
