// Times and digests of the tokens: xsd:dateTime in UTC with milliseconds, clock offsets, the
// UsernameToken PasswordDigest.
#include <cstdio>

#include "crypto.hpp"
#include "lather/bind/xsd.hpp"
#include "lather/wsse/client.hpp"

namespace lather::wsse {

using namespace std::chrono;

std::chrono::milliseconds clock_offset(time_point peer_utc, time_point sent, time_point received) {
  const time_point midpoint = sent + (received - sent) / 2;
  return duration_cast<milliseconds>(peer_utc - midpoint);
}

time_point utc_time(int year, unsigned month, unsigned day, unsigned hour, unsigned minute,
                    unsigned second) {
  const sys_days d{std::chrono::year{year} / std::chrono::month{month} / std::chrono::day{day}};
  return time_point{d} + hours{hour} + minutes{minute} + seconds{second};
}

std::optional<time_point> parse_time(std::string_view text) {
  xsd::date_time v;
  if (bind::xsd_traits<xsd::date_time>::parse(text, v) != bind::errc::ok) return std::nullopt;
  time_point t = utc_time(v.year, v.month, v.day, v.hour, v.minute, v.second);
  // Fractional seconds to the microsecond; finer digits cannot matter for freshness.
  std::int64_t micros = 0;
  for (std::size_t i = 0; i < 6; ++i)
    micros = micros * 10 + (i < v.fraction.size() ? v.fraction[i] - '0' : 0);
  t += microseconds{micros};
  if (v.tz_minutes) t -= minutes{*v.tz_minutes};
  return t;
}

std::string_view format_time(time_point t, std::span<char, 24> out) noexcept {
  const auto ms = floor<milliseconds>(t);
  const auto day = floor<days>(ms);
  const year_month_day ymd{day};
  const hh_mm_ss hms{ms - day};
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", int(ymd.year()),
                unsigned(ymd.month()), unsigned(ymd.day()), int(hms.hours().count()),
                int(hms.minutes().count()), int(hms.seconds().count()),
                int(hms.subseconds().count()));
  std::copy_n(buf, out.size(), out.begin());
  return {out.data(), out.size()};
}

std::string password_digest(std::span<const std::uint8_t> nonce, std::string_view created,
                            std::string_view password) {
  std::array<char, 28> text;
  return std::string(detail::password_digest_text(nonce, created, password, text));
}

}  // namespace lather::wsse
