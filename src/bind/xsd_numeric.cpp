// xsd:boolean, the eight fixed-width integer types, xsd:float and xsd:double.
// Parse and format never allocate: text is scanned in place and formatted into stack buffers.
#include <bit>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "xsd_detail.hpp"

namespace lather::bind::detail {
namespace {

using xsd::detail::trim_xml_space;

template <class T>
errc parse_integer(std::string_view text, T& out) noexcept {
  text = trim_xml_space(text);
  const char* p = text.data();
  const char* end = p + text.size();
  bool negative = false;
  if (p != end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  if (p == end) return errc::invalid_lexical;
  using U = std::make_unsigned_t<T>;
  // Largest magnitude allowed for this sign (unsigned types allow only zero when negative).
  const std::uint64_t limit =
      negative ? (std::is_signed_v<T> ? std::uint64_t{std::numeric_limits<U>::max() / 2} + 1 : 0)
               : std::uint64_t{std::numeric_limits<T>::max()};
  std::uint64_t acc = 0;
  // Up to 19 digits cannot overflow 64 bits: accumulate without the per-digit range test and
  // compare once at the end (leading zeros beyond that take the general loop below).
  if (end - p <= 19) {
    for (const char* q = p; q != end; ++q) {
      const unsigned d = static_cast<unsigned char>(*q - '0');
      if (d > 9) return errc::invalid_lexical;
      acc = acc * 10 + d;
    }
    if (acc > limit) return errc::out_of_range;
    p = end;
  }
  bool overflow = false;
  // Keep scanning past an overflow so "999x" is reported as lexical, not range, error.
  for (; p != end; ++p) {
    const unsigned d = static_cast<unsigned char>(*p - '0');
    if (d > 9) return errc::invalid_lexical;
    if (!overflow) {
      if (d > limit || acc > (limit - d) / 10)
        overflow = true;
      else
        acc = acc * 10 + d;
    }
  }
  if (overflow) return errc::out_of_range;
  if constexpr (std::is_signed_v<T>) {
    out = negative ? static_cast<T>(0 - static_cast<U>(acc)) : static_cast<T>(acc);
  } else {
    out = static_cast<T>(acc);
  }
  return errc::ok;
}

// Checks the XSD float lexical form (no hex, no "inf"/"nan" spellings, no empty mantissa) and
// reports, for a value std::from_chars finds out of range, whether it is tiny (underflow).
struct float_scan {
  bool valid = false;
  bool negative = false;
  const char* number = nullptr;  // first char for from_chars (after a '+')
  long magnitude = 0;            // decimal exponent of the first significant digit, + 1
};

float_scan scan_float(std::string_view text) noexcept {
  float_scan s;
  const char* p = text.data();
  const char* end = p + text.size();
  if (p != end && (*p == '+' || *p == '-')) s.negative = *p++ == '-';
  s.number = (text.data() != end && *text.data() == '+') ? text.data() + 1 : text.data();
  // leading: significant integer digits, or minus the fraction's leading zeros
  auto skip = [&](char c) {
    const char* from = p;
    while (p != end && *p == c) ++p;
    return p - from;
  };
  auto skip_digits = [&] {
    const char* from = p;
    while (p != end && is_digit(*p)) ++p;
    return p - from;
  };
  const long int_zeros = skip('0');
  const long leading_digits = skip_digits();
  long leading = leading_digits;
  long frac_digits = 0;
  if (p != end && *p == '.') {
    ++p;
    const long frac_zeros = leading == 0 ? skip('0') : 0;
    if (leading == 0) leading = -frac_zeros;
    frac_digits = frac_zeros + skip_digits();
  }
  if (int_zeros + leading_digits + frac_digits == 0) return s;
  long exponent = 0;
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool exp_negative = false;
    if (p != end && (*p == '+' || *p == '-')) exp_negative = *p++ == '-';
    if (p == end || !is_digit(*p)) return s;
    for (; p != end && is_digit(*p); ++p)
      if (exponent < 100000) exponent = exponent * 10 + (*p - '0');
    if (exp_negative) exponent = -exponent;
  }
  s.valid = p == end;
  s.magnitude = leading + exponent;
  return s;
}

// A decimal number w * 10^q as written: the XSD float lexical form minus INF/NaN.
struct decimal_number {
  std::uint64_t w = 0;  // the significant digits (at most 19, so exact)
  std::int64_t q = 0;
  bool negative = false;
};

// Eight ASCII digits at p as a number, or false if any of them is not a digit (SWAR, as in
// D. Lemire's fast_float: two multiplies instead of eight multiply-adds).
bool eight_digits(const char* p, std::uint64_t& value) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  if ((((v + 0x4646464646464646) | (v - 0x3030303030303030)) & 0x8080808080808080) != 0)
    return false;
  v -= 0x3030303030303030;
  v = v * 10 + (v >> 8);  // pairs
  value = ((v & 0x000000FF000000FF) * (100 + (1000000ULL << 32)) +
           ((v >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32))) >>
          32;
  return true;
}

// Reads the common shape, sign? digits ('.' digits)? ([eE] sign? digits)?, with at most 19
// significant digits and at most 6 exponent digits. False for anything else (errors
// included): the general path decides those. Digits accumulate modulo 2^64 (counted, and
// rejected past 19); the fraction, usually the long part, is read eight digits at a time.
bool scan_decimal(std::string_view text, decimal_number& d) noexcept {
  const char* p = text.data();
  const char* const end = p + text.size();
  if (p == end) return false;
  if (*p == '+' || *p == '-') d.negative = *p++ == '-';
  const char* const int_begin = p;
  while (p != end && *p == '0') ++p;
  const char* sig_begin = p;
  std::uint64_t w = 0;
  for (unsigned digit; p != end && (digit = static_cast<unsigned char>(*p - '0')) < 10; ++p)
    w = w * 10 + digit;
  std::size_t significant = static_cast<std::size_t>(p - sig_begin);
  std::size_t fraction = 0;
  if (p != end && *p == '.') {
    const char* const frac_begin = ++p;
    if (significant == 0)  // 0.000ddd: the zeros after the point are not significant either
      while (p != end && *p == '0') ++p;
    sig_begin = p;
    for (std::uint64_t eight; end - p >= 8 && eight_digits(p, eight); p += 8)
      w = w * 100000000 + eight;
    for (unsigned digit; p != end && (digit = static_cast<unsigned char>(*p - '0')) < 10; ++p)
      w = w * 10 + digit;
    significant += static_cast<std::size_t>(p - sig_begin);
    fraction = static_cast<std::size_t>(p - frac_begin);
    if (p == int_begin + 1) return false;  // "." alone
  } else if (p == int_begin) {
    return false;  // no digits
  }
  if (significant > 19) return false;
  std::int64_t q = -static_cast<std::int64_t>(fraction);
  if (p != end) {
    if ((*p | 0x20) != 'e' || ++p == end) return false;
    bool exp_negative = false;
    if (*p == '+' || *p == '-') exp_negative = *p++ == '-';
    const char* const exp_begin = p;
    std::uint32_t e = 0;
    for (unsigned digit; p != end && (digit = static_cast<unsigned char>(*p - '0')) < 10; ++p)
      e = e * 10 + digit;
    if (p != end || p == exp_begin || p - exp_begin > 6) return false;
    q += exp_negative ? -std::int64_t{e} : std::int64_t{e};
  }
  d.w = w;
  d.q = q;
  return true;
}

template <class F>
struct binary_format;
template <>
struct binary_format<float> {
  using bits = std::uint32_t;
  static constexpr int mantissa_bits = 23, minimum_exponent = -127, infinite_power = 0xFF;
  static constexpr int smallest_power_of_ten = -65, largest_power_of_ten = 38;
  static constexpr int min_round_to_even = -17, max_round_to_even = 10;
  static constexpr std::uint64_t max_exact_mantissa = std::uint64_t{1} << 24;
  static constexpr int max_exact_power = 10;
  static constexpr float powers_of_ten[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                            1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
};
template <>
struct binary_format<double> {
  using bits = std::uint64_t;
  static constexpr int mantissa_bits = 52, minimum_exponent = -1023, infinite_power = 0x7FF;
  static constexpr int smallest_power_of_ten = -342, largest_power_of_ten = 308;
  static constexpr int min_round_to_even = -4, max_round_to_even = 23;
  static constexpr std::uint64_t max_exact_mantissa = std::uint64_t{1} << 53;
  static constexpr int max_exact_power = 22;
  static constexpr double powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
};

// The correctly rounded F nearest w * 10^q, or false where this path cannot be sure of it
// (subnormal or out-of-range results, ambiguous products): the general path then decides.
// Clinger's exact case first (w and 10^|q| both exact in F: one IEEE operation rounds once),
// else Eisel-Lemire (D. Lemire, "Number Parsing at a Gigabyte per Second", 2021, sections
// 5-6) on the 128-bit table of 5^q, as fast_float and so libstdc++'s from_chars compute it.
template <class F>
bool decimal_to_binary(const decimal_number& d, F& out) noexcept {
  using fmt = binary_format<F>;
  std::uint64_t w = d.w;
  const std::int64_t q = d.q;
  if (w == 0) {
    out = d.negative ? -F{0} : F{0};
    return true;
  }
#if FLT_EVAL_METHOD == 0
  if (w <= fmt::max_exact_mantissa && q >= -fmt::max_exact_power && q <= fmt::max_exact_power) {
    F value = static_cast<F>(w);
    value = q < 0 ? value / fmt::powers_of_ten[-q] : value * fmt::powers_of_ten[q];
    out = d.negative ? -value : value;
    return true;
  }
#endif
  if (q < fmt::smallest_power_of_ten || q > fmt::largest_power_of_ten) return false;
  const int lz = std::countl_zero(w);
  w <<= lz;
  // The product's top bits: one 64x128 multiply suffices unless the bits below the mantissa
  // (+3: hidden bit, rounding bit, possible leading zero) are all ones.
  const std::uint64_t* const pow5 = pow5_128[q - pow5_128_min];
  unsigned __int128 product = static_cast<unsigned __int128>(w) * pow5[0];
  constexpr std::uint64_t precision_mask = ~std::uint64_t{0} >> (fmt::mantissa_bits + 3);
  std::uint64_t high = static_cast<std::uint64_t>(product >> 64);
  std::uint64_t low = static_cast<std::uint64_t>(product);
  if ((high & precision_mask) == precision_mask) {
    const unsigned __int128 second = static_cast<unsigned __int128>(w) * pow5[1];
    const std::uint64_t second_high = static_cast<std::uint64_t>(second >> 64);
    low += second_high;
    if (second_high > low) ++high;
  }
  if (low == ~std::uint64_t{0}) return false;  // the truncated table may be off by one here
  const int upper_bit = static_cast<int>(high >> 63);
  const int shift = upper_bit + 64 - fmt::mantissa_bits - 3;
  std::uint64_t mantissa = high >> shift;
  // floor(q * log2(10)) + 63, exact over the table's range.
  const int power_of_two = static_cast<int>(((152170 + 65536) * q) >> 16) + 63;
  int power2 = power_of_two + upper_bit - lz - fmt::minimum_exponent;
  if (power2 <= 0) return false;  // subnormal
  // Exactly halfway between two floats (only possible where 5^q is exact): round to even.
  if (low <= 1 && q >= fmt::min_round_to_even && q <= fmt::max_round_to_even &&
      (mantissa & 3) == 1 && (mantissa << shift) == high)
    mantissa &= ~std::uint64_t{1};
  mantissa += mantissa & 1;
  mantissa >>= 1;
  if (mantissa >= (std::uint64_t{2} << fmt::mantissa_bits)) {
    mantissa = std::uint64_t{1} << fmt::mantissa_bits;
    ++power2;
  }
  if (power2 >= fmt::infinite_power) return false;  // too large: out of range
  mantissa &= ~(std::uint64_t{1} << fmt::mantissa_bits);
  using bits = typename fmt::bits;
  const bits word = static_cast<bits>(mantissa) |
                    static_cast<bits>(static_cast<bits>(power2) << fmt::mantissa_bits) |
                    static_cast<bits>(bits{d.negative} << (sizeof(bits) * 8 - 1));
  out = std::bit_cast<F>(word);
  return true;
}

template <class F>
errc parse_floating(std::string_view text, F& out) noexcept {
  text = trim_xml_space(text);
  if (decimal_number d; scan_decimal(text, d) && decimal_to_binary(d, out)) return errc::ok;
  if (text == "INF" || text == "+INF") {
    out = std::numeric_limits<F>::infinity();
    return errc::ok;
  }
  if (text == "-INF") {
    out = -std::numeric_limits<F>::infinity();
    return errc::ok;
  }
  if (text == "NaN") {
    out = std::numeric_limits<F>::quiet_NaN();
    return errc::ok;
  }
  // Fast path: from_chars' decimal grammar is XSD's once a leading '+' is dropped (it takes
  // none) and the digits start with a digit or '.' (which rules out its inf/nan spellings).
  if (!text.empty()) {
    const bool plus = text.front() == '+';
    const std::string_view number = text.substr(plus ? 1 : 0);
    const std::size_t digits = !plus && number.front() == '-' ? 1 : 0;
    if (number.size() > digits && (is_digit(number[digits]) || number[digits] == '.')) {
      F value{};
      const char* const last = number.data() + number.size();
      const auto [ptr, ec] =
          std::from_chars(number.data(), last, value, std::chars_format::general);
      if (ec == std::errc{} && ptr == last) {
        out = value;
        return errc::ok;
      }
    }
  }
  const float_scan s = scan_float(text);
  if (!s.valid) return errc::invalid_lexical;
  F value{};
  const auto [ptr, ec] =
      std::from_chars(s.number, text.data() + text.size(), value, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) {
    if (s.magnitude > 0) return errc::out_of_range;  // too large for the type
    out = s.negative ? -F{0} : F{0};                 // below the smallest subnormal: rounds to 0
    return errc::ok;
  }
  if (ec != std::errc{} || ptr != text.data() + text.size()) return errc::invalid_lexical;
  out = value;
  return errc::ok;
}

std::size_t copy_literal(std::string_view s, char* buf) noexcept {
  std::memcpy(buf, s.data(), s.size());
  return s.size();
}

constexpr char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

constexpr std::uint64_t powers_of_ten[] = {1,
                                           10,
                                           100,
                                           1000,
                                           10000,
                                           100000,
                                           1000000,
                                           10000000,
                                           100000000,
                                           1000000000,
                                           10000000000,
                                           100000000000,
                                           1000000000000,
                                           10000000000000,
                                           100000000000000,
                                           1000000000000000,
                                           10000000000000000,
                                           100000000000000000,
                                           1000000000000000000,
                                           10000000000000000000u};

// Decimal digits of v: floor(log10) from the bit length (1233 / 4096 ~ log10(2)), corrected by
// one comparison; v | 1 gives 0 one digit and no other value a different length.
std::size_t decimal_length(std::uint64_t v) noexcept {
  v |= 1;
  const int estimate = ((64 - std::countl_zero(v)) * 1233) >> 12;
  return static_cast<std::size_t>(estimate) + (v >= powers_of_ten[estimate]);
}

// The eight digits of v < 10^8 at p, in one word: the 4-, 2- and 1-digit splits are done in
// all lanes at once by multiply-shift division (exact below 10^4, 10^2 resp.).
void write_eight_digits(std::uint32_t v, char* p) noexcept {
  std::uint64_t x = (v / 10000) | (std::uint64_t{v % 10000} << 32);
  const std::uint64_t hundreds = ((x * 10486) >> 20) & 0x0000007F0000007F;
  x = hundreds | ((x - hundreds * 100) << 16);
  const std::uint64_t tens = ((x * 103) >> 10) & 0x000F000F000F000F;
  x = (tens | ((x - tens * 10) << 8)) | 0x3030303030303030;
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  std::memcpy(p, &x, 8);
}

// The digits of v < 10^8 ending at end, two at a time from the last.
void write_digits_backwards(std::uint32_t v, char* end) noexcept {
  while (v >= 100) {
    const std::uint32_t pair = v % 100;
    v /= 100;
    end -= 2;
    std::memcpy(end, digit_pairs + pair * 2, 2);
  }
  if (v >= 10)
    std::memcpy(end - 2, digit_pairs + v * 2, 2);
  else
    end[-1] = static_cast<char>('0' + v);
}

// The digits of v ending at end: the last eight (and eight before them) a word at a time, the
// leading ones two at a time (std::to_chars measures the length four digits at a time and
// writes two digits per 64-bit division).
void write_unsigned_backwards(std::uint64_t v, char* end) noexcept {
  while (v >= 100000000) {
    end -= 8;
    write_eight_digits(static_cast<std::uint32_t>(v % 100000000), end);
    v /= 100000000;
  }
  if (v >= 10000000)  // exactly eight left (a float's usual digit count)
    write_eight_digits(static_cast<std::uint32_t>(v), end - 8);
  else
    write_digits_backwards(static_cast<std::uint32_t>(v), end);
}

std::size_t format_unsigned(std::uint64_t v, char* buf) noexcept {
  const std::size_t n = decimal_length(v);
  write_unsigned_backwards(v, buf + n);
  return n;
}

// ---- shortest float text: U. Adams, "Ryu: fast float-to-string conversion" (PLDI 2018), the
// 32-bit variant with its 64-bit tables (values as in the paper's generator) ----

// floor(2^(pow5_bits(q) - 1 + 59) / 5^q) + 1, q in [0, 30].
constexpr std::uint64_t float_pow5_inv[31] = {
    0x0800000000000001u, 0x0666666666666667u, 0x051eb851eb851eb9u, 0x04189374bc6a7efau,
    0x068db8bac710cb2au, 0x053e2d6238da3c22u, 0x0431bde82d7b634eu, 0x06b5fca6af2bd216u,
    0x055e63b88c230e78u, 0x044b82fa09b5a52du, 0x06df37f675ef6eaeu, 0x057f5ff85e592558u,
    0x0465e6604b7a8447u, 0x0709709a125da071u, 0x05a126e1a84ae6c1u, 0x0480ebe7b9d58567u,
    0x0734aca5f6226f0bu, 0x05c3bd5191b525a3u, 0x049c97747490eae9u, 0x0760f253edb4ab0eu,
    0x05e72843249088d8u, 0x04b8ed0283a6d3e0u, 0x078e480405d7b966u, 0x060b6cd004ac9452u,
    0x04d5f0a66a23a9dbu, 0x07bcb43d769f762bu, 0x063090312bb2c4efu, 0x04f3a68dbc8f03f3u,
    0x07ec3daf94180651u, 0x065697bfa9acd1dau, 0x051212ffbaf0a7e2u};
// 5^i scaled to 61 bits (truncated), i in [0, 47].
constexpr std::uint64_t float_pow5[48] = {
    0x1000000000000000u, 0x1400000000000000u, 0x1900000000000000u, 0x1f40000000000000u,
    0x1388000000000000u, 0x186a000000000000u, 0x1e84800000000000u, 0x1312d00000000000u,
    0x17d7840000000000u, 0x1dcd650000000000u, 0x12a05f2000000000u, 0x174876e800000000u,
    0x1d1a94a200000000u, 0x12309ce540000000u, 0x16bcc41e90000000u, 0x1c6bf52634000000u,
    0x11c37937e0800000u, 0x16345785d8a00000u, 0x1bc16d674ec80000u, 0x1158e460913d0000u,
    0x15af1d78b58c4000u, 0x1b1ae4d6e2ef5000u, 0x10f0cf064dd59200u, 0x152d02c7e14af680u,
    0x1a784379d99db420u, 0x108b2a2c28029094u, 0x14adf4b7320334b9u, 0x19d971e4fe8401e7u,
    0x1027e72f1f128130u, 0x1431e0fae6d7217cu, 0x193e5939a08ce9dbu, 0x1f8def8808b02452u,
    0x13b8b5b5056e16b3u, 0x18a6e32246c99c60u, 0x1ed09bead87c0378u, 0x13426172c74d822bu,
    0x1812f9cf7920e2b6u, 0x1e17b84357691b64u, 0x12ced32a16a1b11eu, 0x178287f49c4a1d66u,
    0x1d6329f1c35ca4bfu, 0x125dfa371a19e6f7u, 0x16f578c4e0a060b5u, 0x1cb2d6f618c878e3u,
    0x11efc659cf7d4b8du, 0x166bb7f0435c9e71u, 0x1c06a5ec5433c60du, 0x118427b3b4a05bc8u};
constexpr int float_pow5_inv_bits = 59, float_pow5_bits = 61;

// ceil(log2(5^e)) for e >= 1 (1 for e = 0); floor(log10(2^e)); floor(log10(5^e)).
constexpr int pow5_bits(int e) noexcept {
  return static_cast<int>((static_cast<std::uint32_t>(e) * 1217359) >> 19) + 1;
}
constexpr std::uint32_t log10_pow2(int e) noexcept {
  return (static_cast<std::uint32_t>(e) * 78913) >> 18;
}
constexpr std::uint32_t log10_pow5(int e) noexcept {
  return (static_cast<std::uint32_t>(e) * 732923) >> 20;
}
bool multiple_of_pow5(std::uint64_t value, std::uint32_t p) noexcept {
  std::uint32_t count = 0;
  for (; value % 5 == 0; value /= 5) ++count;
  return count >= p;
}
std::uint32_t mul_shift(std::uint32_t m, std::uint64_t factor, int shift) noexcept {
  const std::uint64_t low = std::uint64_t{m} * static_cast<std::uint32_t>(factor);
  const std::uint64_t high = std::uint64_t{m} * (factor >> 32);
  return static_cast<std::uint32_t>(((low >> 32) + high) >> (shift - 32));
}

struct decimal_float {
  std::uint64_t digits;  // the shortest significand that reads back to the value
  int exponent;          // value = digits * 10^exponent
};

// The shortest decimal in the float's rounding interval (nearest to it on ties of length),
// for a finite nonzero float given by its exponent and mantissa fields.
decimal_float shortest_decimal(std::uint32_t ieee_mantissa, std::uint32_t ieee_exponent) noexcept {
  constexpr int mantissa_bits = 23, bias = 127;
  int e2;
  std::uint32_t m2;
  if (ieee_exponent == 0) {
    e2 = 1 - bias - mantissa_bits - 2;
    m2 = ieee_mantissa;
  } else {
    e2 = static_cast<int>(ieee_exponent) - bias - mantissa_bits - 2;
    m2 = (1u << mantissa_bits) | ieee_mantissa;
  }
  const bool accept_bounds = (m2 & 1) == 0;  // round-half-even reading includes the bounds
  const std::uint32_t mv = 4 * m2;
  const std::uint32_t mp = 4 * m2 + 2;
  const std::uint32_t mm_shift = ieee_mantissa != 0 || ieee_exponent <= 1;
  const std::uint32_t mm = 4 * m2 - 1 - mm_shift;
  std::uint32_t vr, vp, vm;
  int e10;
  bool vm_trailing_zeros = false, vr_trailing_zeros = false;
  std::uint32_t last_removed = 0;
  if (e2 >= 0) {
    const std::uint32_t q = log10_pow2(e2);
    e10 = static_cast<int>(q);
    const int k = float_pow5_inv_bits + pow5_bits(static_cast<int>(q)) - 1;
    const int i = -e2 + static_cast<int>(q) + k;
    vr = mul_shift(mv, float_pow5_inv[q], i);
    vp = mul_shift(mp, float_pow5_inv[q], i);
    vm = mul_shift(mm, float_pow5_inv[q], i);
    if (q != 0 && (vp - 1) / 10 <= vm / 10) {
      const int l = float_pow5_inv_bits + pow5_bits(static_cast<int>(q - 1)) - 1;
      last_removed = mul_shift(mv, float_pow5_inv[q - 1], -e2 + static_cast<int>(q) - 1 + l) % 10;
    }
    if (q <= 9) {  // only one of mp, mv and mm can be a multiple of 5
      if (mv % 5 == 0)
        vr_trailing_zeros = multiple_of_pow5(mv, q);
      else if (accept_bounds)
        vm_trailing_zeros = multiple_of_pow5(mm, q);
      else
        vp -= multiple_of_pow5(mp, q);
    }
  } else {
    const std::uint32_t q = log10_pow5(-e2);
    e10 = static_cast<int>(q) + e2;
    const int i = -e2 - static_cast<int>(q);
    const int k = pow5_bits(i) - float_pow5_bits;
    int j = static_cast<int>(q) - k;
    vr = mul_shift(mv, float_pow5[i], j);
    vp = mul_shift(mp, float_pow5[i], j);
    vm = mul_shift(mm, float_pow5[i], j);
    if (q != 0 && (vp - 1) / 10 <= vm / 10) {
      j = static_cast<int>(q) - 1 - (pow5_bits(i + 1) - float_pow5_bits);
      last_removed = mul_shift(mv, float_pow5[i + 1], j) % 10;
    }
    if (q <= 1) {  // mv = 4 * m2 has at least two trailing zero bits
      vr_trailing_zeros = true;
      if (accept_bounds)
        vm_trailing_zeros = mm_shift == 1;
      else
        --vp;
    } else if (q < 31) {
      vr_trailing_zeros = (mv & ((1u << (q - 1)) - 1)) == 0;
    }
  }
  int removed = 0;
  std::uint32_t output;
  if (vm_trailing_zeros || vr_trailing_zeros) {  // rare: exact decimal neighbours
    while (vp / 10 > vm / 10) {
      vm_trailing_zeros &= vm % 10 == 0;
      vr_trailing_zeros &= last_removed == 0;
      last_removed = vr % 10;
      vr /= 10;
      vp /= 10;
      vm /= 10;
      ++removed;
    }
    if (vm_trailing_zeros) {
      while (vm % 10 == 0) {
        vr_trailing_zeros &= last_removed == 0;
        last_removed = vr % 10;
        vr /= 10;
        vp /= 10;
        vm /= 10;
        ++removed;
      }
    }
    if (vr_trailing_zeros && last_removed == 5 && vr % 2 == 0) last_removed = 4;  // to even
    output = vr + ((vr == vm && (!accept_bounds || !vm_trailing_zeros)) || last_removed >= 5);
  } else {
    while (vp / 10 > vm / 10) {
      last_removed = vr % 10;
      vr /= 10;
      vp /= 10;
      vm /= 10;
      ++removed;
    }
    output = vr + (vr == vm || last_removed >= 5);
  }
  return {output, e10 + removed};
}

std::uint64_t mul_shift(std::uint64_t m, const std::uint64_t* factor, int shift) noexcept {
  const unsigned __int128 low = static_cast<unsigned __int128>(m) * factor[0];
  const unsigned __int128 high = static_cast<unsigned __int128>(m) * factor[1];
  return static_cast<std::uint64_t>(((low >> 64) + high) >> (shift - 64));
}

// The same for a double (Ryu's 64-bit variant: one extra digit kept by q, so no separate
// last-digit product; two digits removed at a time in the common case).
decimal_float shortest_decimal(std::uint64_t ieee_mantissa, std::uint32_t ieee_exponent) noexcept {
  constexpr int mantissa_bits = 52, bias = 1023, pow5_inv_bits = 125, pow5_bits_count = 125;
  int e2;
  std::uint64_t m2;
  if (ieee_exponent == 0) {
    e2 = 1 - bias - mantissa_bits - 2;
    m2 = ieee_mantissa;
  } else {
    e2 = static_cast<int>(ieee_exponent) - bias - mantissa_bits - 2;
    m2 = (std::uint64_t{1} << mantissa_bits) | ieee_mantissa;
  }
  const bool accept_bounds = (m2 & 1) == 0;
  const std::uint64_t mv = 4 * m2;
  const std::uint32_t mm_shift = ieee_mantissa != 0 || ieee_exponent <= 1;
  std::uint64_t vr, vp, vm;
  int e10;
  bool vm_trailing_zeros = false, vr_trailing_zeros = false;
  if (e2 >= 0) {
    const std::uint32_t q = log10_pow2(e2) - (e2 > 3);
    e10 = static_cast<int>(q);
    const int k = pow5_inv_bits + pow5_bits(static_cast<int>(q)) - 1;
    const int i = -e2 + static_cast<int>(q) + k;
    vr = mul_shift(4 * m2, ryu_double_pow5_inv[q], i);
    vp = mul_shift(4 * m2 + 2, ryu_double_pow5_inv[q], i);
    vm = mul_shift(4 * m2 - 1 - mm_shift, ryu_double_pow5_inv[q], i);
    if (q <= 21) {  // only one of mp, mv and mm can be a multiple of 5
      if (mv % 5 == 0)
        vr_trailing_zeros = multiple_of_pow5(mv, q);
      else if (accept_bounds)
        vm_trailing_zeros = multiple_of_pow5(mv - 1 - mm_shift, q);
      else
        vp -= multiple_of_pow5(mv + 2, q);
    }
  } else {
    const std::uint32_t q = log10_pow5(-e2) - (-e2 > 1);
    e10 = static_cast<int>(q) + e2;
    const int i = -e2 - static_cast<int>(q);
    const int k = pow5_bits(i) - pow5_bits_count;
    const int j = static_cast<int>(q) - k;
    vr = mul_shift(4 * m2, ryu_double_pow5[i], j);
    vp = mul_shift(4 * m2 + 2, ryu_double_pow5[i], j);
    vm = mul_shift(4 * m2 - 1 - mm_shift, ryu_double_pow5[i], j);
    if (q <= 1) {  // mv = 4 * m2 has at least two trailing zero bits
      vr_trailing_zeros = true;
      if (accept_bounds)
        vm_trailing_zeros = mm_shift == 1;
      else
        --vp;
    } else if (q < 63) {  // the full product has q trailing zeros iff mv has q zero bits
      vr_trailing_zeros = (mv & ((std::uint64_t{1} << q) - 1)) == 0;
    }
  }
  int removed = 0;
  std::uint64_t output;
  if (vm_trailing_zeros || vr_trailing_zeros) {  // rare: exact decimal neighbours
    std::uint32_t last_removed = 0;
    while (vp / 10 > vm / 10) {
      vm_trailing_zeros &= vm % 10 == 0;
      vr_trailing_zeros &= last_removed == 0;
      last_removed = static_cast<std::uint32_t>(vr % 10);
      vr /= 10;
      vp /= 10;
      vm /= 10;
      ++removed;
    }
    if (vm_trailing_zeros) {
      while (vm % 10 == 0) {
        vr_trailing_zeros &= last_removed == 0;
        last_removed = static_cast<std::uint32_t>(vr % 10);
        vr /= 10;
        vp /= 10;
        vm /= 10;
        ++removed;
      }
    }
    if (vr_trailing_zeros && last_removed == 5 && vr % 2 == 0) last_removed = 4;  // to even
    output = vr + ((vr == vm && (!accept_bounds || !vm_trailing_zeros)) || last_removed >= 5);
  } else {
    bool round_up = false;
    if (vp / 100 > vm / 100) {
      round_up = vr % 100 >= 50;
      vr /= 100;
      vp /= 100;
      vm /= 100;
      removed += 2;
    }
    while (vp / 10 > vm / 10) {
      round_up = vr % 10 >= 5;
      vr /= 10;
      vp /= 10;
      vm /= 10;
      ++removed;
    }
    output = vr + (vr == vm || round_up);
  }
  return {output, e10 + removed};
}

// digits * 10^exponent as std::to_chars(value) writes it: fixed or scientific notation,
// whichever is shorter (fixed on a tie), scientific with at least two exponent digits. The
// digits are written in place and the point moved in after them.
std::size_t format_decimal(bool negative, decimal_float d, char* buf) noexcept {
  const int n = static_cast<int>(decimal_length(d.digits));
  const int e = d.exponent;
  const int sci_exponent = e + n - 1;
  const int sci_abs = sci_exponent < 0 ? -sci_exponent : sci_exponent;
  const int sci_size = n + (n > 1) + 2 + (sci_abs >= 100 ? 3 : 2);
  const int fixed_size = e >= 0 ? n + e : n + e > 0 ? n + 1 : 2 - e;
  char* p = buf;
  if (negative) *p++ = '-';
  if (fixed_size <= sci_size) {
    if (e >= 0) {
      write_unsigned_backwards(d.digits, p + n);
      for (int i = 0; i < e; ++i) p[n + i] = '0';
    } else if (n + e > 0) {
      const int point = n + e;
      write_unsigned_backwards(d.digits, p + n);
      for (int i = n; i > point; --i) p[i] = p[i - 1];
      p[point] = '.';
    } else {
      p[0] = '0';
      p[1] = '.';
      for (int i = 0; i < -e - n; ++i) p[2 + i] = '0';
      write_unsigned_backwards(d.digits, p + 2 - e);
    }
    return static_cast<std::size_t>(p - buf + fixed_size);
  }
  write_unsigned_backwards(d.digits, p + 1 + n);
  p[0] = p[1];
  p[1] = '.';
  p += n > 1 ? n + 1 : 1;
  *p++ = 'e';
  *p++ = sci_exponent < 0 ? '-' : '+';
  if (sci_abs >= 100) *p++ = static_cast<char>('0' + sci_abs / 100);
  std::memcpy(p, digit_pairs + sci_abs % 100 * 2, 2);
  return static_cast<std::size_t>(p + 2 - buf);
}

template <class F>
std::size_t format_floating(F value, char* buf, std::size_t size) noexcept {
  if (std::isnan(value)) return copy_literal("NaN", buf);
  if (std::isinf(value)) return copy_literal(value < 0 ? "-INF" : "INF", buf);
  using bits_type = typename binary_format<F>::bits;
  constexpr int mantissa_bits = binary_format<F>::mantissa_bits;
  constexpr int sign_shift = sizeof(bits_type) * 8 - 1;
  const bits_type bits = std::bit_cast<bits_type>(value);
  const bool negative = bits >> sign_shift;
  if (static_cast<bits_type>(bits << 1) == 0) return copy_literal(negative ? "-0" : "0", buf);
  const decimal_float d = shortest_decimal(
      static_cast<bits_type>(bits & ((bits_type{1} << mantissa_bits) - 1)),
      static_cast<std::uint32_t>(static_cast<bits_type>(bits << 1) >> (mantissa_bits + 1)));
  // A whole number in fixed notation is printed exactly ("as if by printf"), which the
  // shortest digits followed by zeros are only if that number is itself exact in F (every
  // integer below 2^(mantissa_bits + 1) is): std::to_chars formats the rest (rare).
  if (d.exponent >= 0 && d.exponent <= 5 &&
      (d.digits >= powers_of_ten[19 - 5] ||
       d.digits * powers_of_ten[d.exponent] >= std::uint64_t{1} << (mantissa_bits + 1)))
    return static_cast<std::size_t>(std::to_chars(buf, buf + size, value).ptr - buf);
  return format_decimal(negative, d, buf);
}

template <class T>
std::size_t format_number(T value, char* buf, std::size_t size) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return format_floating(value, buf, size);
  } else if constexpr (std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    if (value >= 0) return format_unsigned(static_cast<U>(value), buf);
    *buf = '-';
    return 1 + format_unsigned(static_cast<U>(0 - static_cast<U>(value)), buf + 1);
  } else {
    return format_unsigned(value, buf);
  }
}

}  // namespace

template <class T>
requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) struct codec<T> {
  static errc parse(std::string_view text, T& out) noexcept {
    if constexpr (std::is_floating_point_v<T>) {
      return parse_floating(text, out);
    } else {
      return parse_integer(text, out);
    }
  }
  static void format(T value, std::string& out) {
    char buf[32];
    out.append(buf, format_number(value, buf, sizeof buf));
  }
  static void write(T value, xml::writer& w) {
    char buf[32];
    xsd::detail::write_markup_free(w, {buf, format_number(value, buf, sizeof buf)});
  }
  static std::optional<std::string_view> leaf_text(T value, leaf_buffer& buf) {
    return std::string_view{buf.data, format_number(value, buf.data, sizeof buf.data)};
  }
};

template <>
struct codec<bool> {
  static errc parse(std::string_view text, bool& out) noexcept {
    text = trim_xml_space(text);
    if (text == "true" || text == "1") {
      out = true;
    } else if (text == "false" || text == "0") {
      out = false;
    } else {
      return errc::invalid_lexical;
    }
    return errc::ok;
  }
  static void format(bool value, std::string& out) { out.append(value ? "true" : "false"); }
  static void write(bool value, xml::writer& w) {
    xsd::detail::write_markup_free(w, value ? "true" : "false");
  }
  static std::optional<std::string_view> leaf_text(bool value, leaf_buffer&) {
    return value ? "true" : "false";
  }
};

template struct simple_traits_base<bool>;
template struct simple_traits_base<std::int8_t>;
template struct simple_traits_base<std::int16_t>;
template struct simple_traits_base<std::int32_t>;
template struct simple_traits_base<std::int64_t>;
template struct simple_traits_base<std::uint8_t>;
template struct simple_traits_base<std::uint16_t>;
template struct simple_traits_base<std::uint32_t>;
template struct simple_traits_base<std::uint64_t>;
template struct simple_traits_base<float>;
template struct simple_traits_base<double>;

}  // namespace lather::bind::detail
