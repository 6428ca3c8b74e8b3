// xsd:base64Binary and xsd:hexBinary codecs: scalar reference kernels plus SSSE3 and AVX2
// kernels picked at run time (the CXF perf item carries 256-byte base64 and hex fields, and
// echoBase64 carries megabytes). SIMD kernels handle whole blocks of clean input; anything
// else (whitespace, padding, errors, tails) goes through the scalar code, which is the
// reference the differential tests compare every kernel against.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "xsd_detail.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LATHER_XSD_X86 1
#endif

namespace lather::xsd {
namespace {

using bind::errc;

constexpr char base64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char hex_digits[] = "0123456789ABCDEF";

constexpr std::uint8_t b64_space = 64, b64_pad = 65, b64_bad = 255;

constexpr std::array<std::uint8_t, 256> make_base64_table() {
  std::array<std::uint8_t, 256> t{};
  for (auto& v : t) v = b64_bad;
  for (int i = 0; i < 64; ++i)
    t[static_cast<unsigned char>(base64_alphabet[i])] = static_cast<std::uint8_t>(i);
  t[' '] = t['\t'] = t['\n'] = t['\r'] = b64_space;
  t['='] = b64_pad;
  return t;
}
constexpr auto base64_table = make_base64_table();

constexpr std::array<std::uint8_t, 256> make_hex_table() {
  std::array<std::uint8_t, 256> t{};
  for (auto& v : t) v = 0xFF;
  for (int i = 0; i < 10; ++i) t['0' + i] = static_cast<std::uint8_t>(i);
  for (int i = 0; i < 6; ++i) {
    t['A' + i] = static_cast<std::uint8_t>(10 + i);
    t['a' + i] = static_cast<std::uint8_t>(10 + i);
  }
  return t;
}
constexpr auto hex_table = make_hex_table();

// ---- scalar kernels ----

void base64_encode_scalar(const std::uint8_t* src, std::size_t len, char* dst) noexcept {
  std::size_t i = 0;
  for (; i + 3 <= len; i += 3, dst += 4) {
    const std::uint32_t v =
        (std::uint32_t{src[i]} << 16) | (std::uint32_t{src[i + 1]} << 8) | src[i + 2];
    dst[0] = base64_alphabet[v >> 18];
    dst[1] = base64_alphabet[(v >> 12) & 63];
    dst[2] = base64_alphabet[(v >> 6) & 63];
    dst[3] = base64_alphabet[v & 63];
  }
  if (len - i == 1) {
    const std::uint32_t v = std::uint32_t{src[i]} << 16;
    dst[0] = base64_alphabet[v >> 18];
    dst[1] = base64_alphabet[(v >> 12) & 63];
    dst[2] = dst[3] = '=';
  } else if (len - i == 2) {
    const std::uint32_t v = (std::uint32_t{src[i]} << 16) | (std::uint32_t{src[i + 1]} << 8);
    dst[0] = base64_alphabet[v >> 18];
    dst[1] = base64_alphabet[(v >> 12) & 63];
    dst[2] = base64_alphabet[(v >> 6) & 63];
    dst[3] = '=';
  }
}

void hex_encode_scalar(const std::uint8_t* src, std::size_t len, char* dst) noexcept {
  for (std::size_t i = 0; i < len; ++i) {
    dst[2 * i] = hex_digits[src[i] >> 4];
    dst[2 * i + 1] = hex_digits[src[i] & 15];
  }
}

// Returns the number of characters decoded (stops at the first bad pair).
std::size_t hex_decode_scalar(const char* src, std::size_t len, std::uint8_t* dst) noexcept {
  std::size_t i = 0;
  for (; i + 2 <= len; i += 2) {
    const std::uint8_t hi = hex_table[static_cast<unsigned char>(src[i])];
    const std::uint8_t lo = hex_table[static_cast<unsigned char>(src[i + 1])];
    if ((hi | lo) & 0xF0) break;
    *dst++ = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return i;
}

// ---- SIMD kernels: each processes whole blocks and returns how much input it consumed ----
// (base64 decode / hex decode stop at the first block holding any non-alphabet byte).

#ifdef LATHER_XSD_X86

// Base64 algorithms after W. Muła and D. Lemire, "Faster Base64 Encoding and Decoding using
// AVX2 Instructions" (ACM TWEB 2018).

__attribute__((target("ssse3"))) inline __m128i b64_enc_translate_128(__m128i in) {
  const __m128i t0 = _mm_and_si128(in, _mm_set1_epi32(0x0fc0fc00));
  const __m128i t1 = _mm_mulhi_epu16(t0, _mm_set1_epi32(0x04000040));
  const __m128i t2 = _mm_and_si128(in, _mm_set1_epi32(0x003f03f0));
  const __m128i t3 = _mm_mullo_epi16(t2, _mm_set1_epi32(0x01000010));
  const __m128i indices = _mm_or_si128(t1, t3);
  __m128i result = _mm_subs_epu8(indices, _mm_set1_epi8(51));
  const __m128i less = _mm_cmpgt_epi8(_mm_set1_epi8(26), indices);
  result = _mm_or_si128(result, _mm_and_si128(less, _mm_set1_epi8(13)));
  const __m128i shift_lut =
      _mm_setr_epi8('a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
                    '0' - 52, '0' - 52, '0' - 52, '+' - 62, '/' - 63, 'A', 0, 0);
  return _mm_add_epi8(_mm_shuffle_epi8(shift_lut, result), indices);
}

__attribute__((target("ssse3"))) std::size_t base64_encode_ssse3(const std::uint8_t* src,
                                                                 std::size_t len, char* dst) {
  const __m128i shuffle = _mm_set_epi8(10, 11, 9, 10, 7, 8, 6, 7, 4, 5, 3, 4, 1, 2, 0, 1);
  std::size_t i = 0;
  for (; len - i >= 16; i += 12, dst += 16) {
    __m128i in = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    in = _mm_shuffle_epi8(in, shuffle);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), b64_enc_translate_128(in));
  }
  return i;
}

__attribute__((target("avx2"))) std::size_t base64_encode_avx2(const std::uint8_t* src,
                                                               std::size_t len, char* dst) {
  const __m256i shuffle = _mm256_set_epi8(10, 11, 9, 10, 7, 8, 6, 7, 4, 5, 3, 4, 1, 2, 0, 1, 10, 11,
                                          9, 10, 7, 8, 6, 7, 4, 5, 3, 4, 1, 2, 0, 1);
  const __m256i shift_lut =
      _mm256_setr_epi8('a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
                       '0' - 52, '0' - 52, '0' - 52, '0' - 52, '+' - 62, '/' - 63, 'A', 0, 0,
                       'a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
                       '0' - 52, '0' - 52, '0' - 52, '0' - 52, '+' - 62, '/' - 63, 'A', 0, 0);
  std::size_t i = 0;
  for (; len - i >= 28; i += 24, dst += 32) {
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 12));
    __m256i in = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    in = _mm256_shuffle_epi8(in, shuffle);
    const __m256i t0 = _mm256_and_si256(in, _mm256_set1_epi32(0x0fc0fc00));
    const __m256i t1 = _mm256_mulhi_epu16(t0, _mm256_set1_epi32(0x04000040));
    const __m256i t2 = _mm256_and_si256(in, _mm256_set1_epi32(0x003f03f0));
    const __m256i t3 = _mm256_mullo_epi16(t2, _mm256_set1_epi32(0x01000010));
    const __m256i indices = _mm256_or_si256(t1, t3);
    __m256i result = _mm256_subs_epu8(indices, _mm256_set1_epi8(51));
    const __m256i less = _mm256_cmpgt_epi8(_mm256_set1_epi8(26), indices);
    result = _mm256_or_si256(result, _mm256_and_si256(less, _mm256_set1_epi8(13)));
    result = _mm256_add_epi8(_mm256_shuffle_epi8(shift_lut, result), indices);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), result);
  }
  return i;
}

// Decode: 16 (32) chars -> 12 (24) bytes; writes 16 (32) bytes, so dst needs 4 (8) spare.
__attribute__((target("ssse3"))) std::size_t base64_decode_ssse3(const char* src, std::size_t len,
                                                                 std::uint8_t* dst) {
  const __m128i lut_lo = _mm_setr_epi8(0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
                                       0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A);
  const __m128i lut_hi = _mm_setr_epi8(0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10,
                                       0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
  const __m128i lut_roll = _mm_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m128i mask_2f = _mm_set1_epi8(0x2f);
  const __m128i pack_shuffle =
      _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  std::size_t i = 0;
  for (; len - i >= 16; i += 16, dst += 12) {
    __m128i in = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i hi_nibbles = _mm_and_si128(_mm_srli_epi32(in, 4), mask_2f);
    const __m128i lo_nibbles = _mm_and_si128(in, mask_2f);
    const __m128i lo = _mm_shuffle_epi8(lut_lo, lo_nibbles);
    const __m128i eq_2f = _mm_cmpeq_epi8(in, mask_2f);
    const __m128i hi = _mm_shuffle_epi8(lut_hi, hi_nibbles);
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(lo, hi), _mm_setzero_si128())) != 0xFFFF)
      break;
    const __m128i roll = _mm_shuffle_epi8(lut_roll, _mm_add_epi8(eq_2f, hi_nibbles));
    in = _mm_add_epi8(in, roll);
    const __m128i merged = _mm_maddubs_epi16(in, _mm_set1_epi32(0x01400140));
    const __m128i packed = _mm_madd_epi16(merged, _mm_set1_epi32(0x00011000));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_shuffle_epi8(packed, pack_shuffle));
  }
  return i;
}

__attribute__((target("avx2"))) std::size_t base64_decode_avx2(const char* src, std::size_t len,
                                                               std::uint8_t* dst) {
  const __m256i lut_lo =
      _mm256_setr_epi8(0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B,
                       0x1B, 0x1B, 0x1A, 0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
                       0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A);
  const __m256i lut_hi =
      _mm256_setr_epi8(0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10,
                       0x10, 0x10, 0x10, 0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10,
                       0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
  const __m256i lut_roll =
      _mm256_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 19, 4, -65,
                       -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i mask_2f = _mm256_set1_epi8(0x2f);
  const __m256i pack_shuffle =
      _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2, 1, 0, 6, 5, 4, 10,
                       9, 8, 14, 13, 12, -1, -1, -1, -1);
  const __m256i pack_permute = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
  std::size_t i = 0;
  for (; len - i >= 32; i += 32, dst += 24) {
    __m256i in = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    const __m256i hi_nibbles = _mm256_and_si256(_mm256_srli_epi32(in, 4), mask_2f);
    const __m256i lo_nibbles = _mm256_and_si256(in, mask_2f);
    const __m256i lo = _mm256_shuffle_epi8(lut_lo, lo_nibbles);
    const __m256i eq_2f = _mm256_cmpeq_epi8(in, mask_2f);
    const __m256i hi = _mm256_shuffle_epi8(lut_hi, hi_nibbles);
    if (!_mm256_testz_si256(lo, hi)) break;
    const __m256i roll = _mm256_shuffle_epi8(lut_roll, _mm256_add_epi8(eq_2f, hi_nibbles));
    in = _mm256_add_epi8(in, roll);
    const __m256i merged = _mm256_maddubs_epi16(in, _mm256_set1_epi32(0x01400140));
    __m256i packed = _mm256_madd_epi16(merged, _mm256_set1_epi32(0x00011000));
    packed = _mm256_shuffle_epi8(packed, pack_shuffle);
    packed = _mm256_permutevar8x32_epi32(packed, pack_permute);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), packed);
  }
  return i;
}

__attribute__((target("ssse3"))) inline __m128i hex_chars_128(__m128i nibbles) {
  const __m128i lut =
      _mm_setr_epi8('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F');
  return _mm_shuffle_epi8(lut, nibbles);
}

__attribute__((target("ssse3"))) std::size_t hex_encode_ssse3(const std::uint8_t* src,
                                                              std::size_t len, char* dst) {
  const __m128i mask = _mm_set1_epi8(0x0F);
  std::size_t i = 0;
  for (; len - i >= 16; i += 16, dst += 32) {
    const __m128i in = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i hi = _mm_and_si128(_mm_srli_epi16(in, 4), mask);
    const __m128i lo = _mm_and_si128(in, mask);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), hex_chars_128(_mm_unpacklo_epi8(hi, lo)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 16),
                     hex_chars_128(_mm_unpackhi_epi8(hi, lo)));
  }
  return i;
}

__attribute__((target("avx2"))) std::size_t hex_encode_avx2(const std::uint8_t* src,
                                                            std::size_t len, char* dst) {
  const __m256i mask = _mm256_set1_epi8(0x0F);
  const __m256i lut = _mm256_setr_epi8('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B',
                                       'C', 'D', 'E', 'F', '0', '1', '2', '3', '4', '5', '6', '7',
                                       '8', '9', 'A', 'B', 'C', 'D', 'E', 'F');
  std::size_t i = 0;
  for (; len - i >= 32; i += 32, dst += 64) {
    const __m256i in = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(in, 4), mask);
    const __m256i lo = _mm256_and_si256(in, mask);
    // unpack works per 128-bit lane: r0 = bytes 0-7 | 16-23, r1 = bytes 8-15 | 24-31.
    const __m256i r0 = _mm256_shuffle_epi8(lut, _mm256_unpacklo_epi8(hi, lo));
    const __m256i r1 = _mm256_shuffle_epi8(lut, _mm256_unpackhi_epi8(hi, lo));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), _mm256_permute2x128_si256(r0, r1, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 32),
                        _mm256_permute2x128_si256(r0, r1, 0x31));
  }
  return i;
}

__attribute__((target("ssse3"))) std::size_t hex_decode_ssse3(const char* src, std::size_t len,
                                                              std::uint8_t* dst) {
  std::size_t i = 0;
  for (; len - i >= 16; i += 16, dst += 8) {
    const __m128i in = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i digit = _mm_sub_epi8(in, _mm_set1_epi8('0'));
    const __m128i is_digit =
        _mm_cmpeq_epi8(_mm_max_epu8(digit, _mm_set1_epi8(9)), _mm_set1_epi8(9));
    const __m128i alpha = _mm_sub_epi8(_mm_or_si128(in, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
    const __m128i is_alpha =
        _mm_cmpeq_epi8(_mm_max_epu8(alpha, _mm_set1_epi8(5)), _mm_set1_epi8(5));
    if (_mm_movemask_epi8(_mm_or_si128(is_digit, is_alpha)) != 0xFFFF) break;
    const __m128i value =
        _mm_or_si128(_mm_and_si128(is_digit, digit),
                     _mm_andnot_si128(is_digit, _mm_add_epi8(alpha, _mm_set1_epi8(10))));
    const __m128i pairs = _mm_maddubs_epi16(value, _mm_set1_epi16(0x0110));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(dst), _mm_packus_epi16(pairs, pairs));
  }
  return i;
}

__attribute__((target("avx2"))) std::size_t hex_decode_avx2(const char* src, std::size_t len,
                                                            std::uint8_t* dst) {
  std::size_t i = 0;
  for (; len - i >= 32; i += 32, dst += 16) {
    const __m256i in = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    const __m256i digit = _mm256_sub_epi8(in, _mm256_set1_epi8('0'));
    const __m256i is_digit =
        _mm256_cmpeq_epi8(_mm256_max_epu8(digit, _mm256_set1_epi8(9)), _mm256_set1_epi8(9));
    const __m256i alpha =
        _mm256_sub_epi8(_mm256_or_si256(in, _mm256_set1_epi8(0x20)), _mm256_set1_epi8('a'));
    const __m256i is_alpha =
        _mm256_cmpeq_epi8(_mm256_max_epu8(alpha, _mm256_set1_epi8(5)), _mm256_set1_epi8(5));
    if (_mm256_movemask_epi8(_mm256_or_si256(is_digit, is_alpha)) != -1) break;
    const __m256i value =
        _mm256_blendv_epi8(_mm256_add_epi8(alpha, _mm256_set1_epi8(10)), digit, is_digit);
    const __m256i pairs = _mm256_maddubs_epi16(value, _mm256_set1_epi16(0x0110));
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(pairs, pairs), 0x08);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm256_castsi256_si128(packed));
  }
  return i;
}

#endif  // LATHER_XSD_X86

simd_level detect_simd_level() noexcept {
#ifdef LATHER_XSD_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return simd_level::avx2;
  if (__builtin_cpu_supports("ssse3")) return simd_level::ssse3;
#endif
  return simd_level::scalar;
}

simd_level resolve(simd_level level) noexcept {
  static const simd_level best = detect_simd_level();
  // Never run a kernel the CPU lacks, even when a test asks for it.
  if (level == simd_level::automatic || static_cast<int>(level) > static_cast<int>(best))
    return best;
  return level;
}

using decode_kernel = std::size_t (*)(const char*, std::size_t, std::uint8_t*);
using encode_kernel = std::size_t (*)(const std::uint8_t*, std::size_t, char*);

std::size_t no_kernel_decode(const char*, std::size_t, std::uint8_t*) {
  return 0;
}
std::size_t no_kernel_encode(const std::uint8_t*, std::size_t, char*) {
  return 0;
}

#ifdef LATHER_XSD_X86
decode_kernel base64_decoder(simd_level l) {
  return l == simd_level::avx2    ? base64_decode_avx2
         : l == simd_level::ssse3 ? base64_decode_ssse3
                                  : no_kernel_decode;
}
encode_kernel base64_encoder(simd_level l) {
  return l == simd_level::avx2    ? base64_encode_avx2
         : l == simd_level::ssse3 ? base64_encode_ssse3
                                  : no_kernel_encode;
}
decode_kernel hex_decoder(simd_level l) {
  return l == simd_level::avx2    ? hex_decode_avx2
         : l == simd_level::ssse3 ? hex_decode_ssse3
                                  : no_kernel_decode;
}
encode_kernel hex_encoder(simd_level l) {
  return l == simd_level::avx2    ? hex_encode_avx2
         : l == simd_level::ssse3 ? hex_encode_ssse3
                                  : no_kernel_encode;
}
#else
decode_kernel base64_decoder(simd_level) {
  return no_kernel_decode;
}
encode_kernel base64_encoder(simd_level) {
  return no_kernel_encode;
}
decode_kernel hex_decoder(simd_level) {
  return no_kernel_decode;
}
encode_kernel hex_encoder(simd_level) {
  return no_kernel_encode;
}
#endif

constexpr std::size_t simd_slack = 32;  // SIMD stores may run this far past the last byte

// The last partial block of base64 (under 32 characters): its whole quanta before any '=' are
// decoded by the kernel on a copy padded with 'A', instead of a character at a time. Returns the
// characters consumed (0 if that block holds whitespace or junk: the scalar code decides then).
std::size_t decode_tail_block(decode_kernel kernel, std::string_view tail, std::uint8_t*& dst) {
  std::size_t clean = tail.size();
  while (clean != 0 && tail[clean - 1] == '=') --clean;
  clean = clean / 4 * 4;
  if (clean == 0) return 0;
  static constexpr char padding[32] = {'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A',
                                       'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A',
                                       'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A'};
  char block[32];
  std::memcpy(block, padding, sizeof block);  // a fixed size: two stores, not a memset call
  std::memcpy(block, tail.data(), clean);
  std::uint8_t bytes[32 + simd_slack];
  if (kernel(block, sizeof block, bytes) != sizeof block) return 0;
  std::memcpy(dst, bytes, clean / 4 * 3);
  dst += clean / 4 * 3;
  return clean;
}

}  // namespace

simd_level best_simd_level() noexcept {
  return resolve(simd_level::automatic);
}

namespace detail {
std::size_t base64_encode_to(std::span<const std::uint8_t> bytes, char* dst, simd_level level) {
  const std::size_t done = base64_encoder(resolve(level))(bytes.data(), bytes.size(), dst);
  base64_encode_scalar(bytes.data() + done, bytes.size() - done, dst + done / 3 * 4);
  return (bytes.size() + 2) / 3 * 4;
}
std::size_t hex_encode_to(std::span<const std::uint8_t> bytes, char* dst, simd_level level) {
  const std::size_t done = hex_encoder(resolve(level))(bytes.data(), bytes.size(), dst);
  hex_encode_scalar(bytes.data() + done, bytes.size() - done, dst + done * 2);
  return bytes.size() * 2;
}
}  // namespace detail

void base64_encode(std::span<const std::uint8_t> bytes, std::string& out, simd_level level) {
  const std::size_t old = out.size();
  out.resize(old + (bytes.size() + 2) / 3 * 4);
  detail::base64_encode_to(bytes, out.data() + old, level);
}

errc base64_decode(std::string_view text, std::vector<std::uint8_t>& out,
                   simd_level level) noexcept {
  try {
    out.resize(text.size() / 4 * 3 + 3 + simd_slack);
  } catch (...) {
    return errc::limit_exceeded;
  }
  const decode_kernel kernel = base64_decoder(resolve(level));
  std::uint8_t* dst = out.data();
  const std::size_t end = text.size();
  std::size_t p = 0;
  // After a SIMD block stops, the scalar code takes over until it has stepped over the
  // whitespace that stopped it (anything else ends the input or is an error), so MIME line
  // breaks cost one failed block each and the decode stays linear.
  std::size_t simd_resume = 0;
  std::uint32_t acc = 0;
  unsigned pending = 0;  // sextets in acc
  while (p != end) {
    if (pending == 0 && p >= simd_resume) {
      const std::size_t done = kernel(text.data() + p, end - p, dst);
      p += done;
      dst += done / 4 * 3;
      simd_resume = end;
      if (end - p < 32) p += decode_tail_block(kernel, text.substr(p), dst);
      if (p == end) break;
    }
    const std::uint8_t v = base64_table[static_cast<unsigned char>(text[p])];
    if (v < 64) {
      acc = acc << 6 | v;
      if (++pending == 4) {
        dst[0] = static_cast<std::uint8_t>(acc >> 16);
        dst[1] = static_cast<std::uint8_t>(acc >> 8);
        dst[2] = static_cast<std::uint8_t>(acc);
        dst += 3;
        acc = 0;
        pending = 0;
      }
    } else if (v == b64_space) {
      simd_resume = p + 1;
    } else if (v == b64_pad) {
      break;
    } else {
      return errc::invalid_base64;
    }
    ++p;
  }
  if (p != end) {  // at '=': the final quantum is xx== or xxx=, unused bits zero
    unsigned pads = 0;
    for (; p != end; ++p) {
      const std::uint8_t v = base64_table[static_cast<unsigned char>(text[p])];
      if (v == b64_pad)
        ++pads;
      else if (v != b64_space)
        return errc::invalid_base64;
    }
    if (pending == 2 && pads == 2 && (acc & 0xF) == 0) {
      *dst++ = static_cast<std::uint8_t>(acc >> 4);
    } else if (pending == 3 && pads == 1 && (acc & 0x3) == 0) {
      dst[0] = static_cast<std::uint8_t>(acc >> 10);
      dst[1] = static_cast<std::uint8_t>(acc >> 2);
      dst += 2;
    } else {
      return errc::invalid_base64;
    }
  } else if (pending != 0) {
    return errc::invalid_base64;
  }
  out.resize(static_cast<std::size_t>(dst - out.data()));
  return errc::ok;
}

void hex_encode(std::span<const std::uint8_t> bytes, std::string& out, simd_level level) {
  const std::size_t old = out.size();
  out.resize(old + bytes.size() * 2);
  detail::hex_encode_to(bytes, out.data() + old, level);
}

errc hex_decode(std::string_view text, std::vector<std::uint8_t>& out, simd_level level) noexcept {
  text = detail::trim_xml_space(text);
  if (text.size() % 2 != 0) return errc::invalid_hex;
  try {
    out.resize(text.size() / 2 + simd_slack);
  } catch (...) {
    return errc::limit_exceeded;
  }
  const std::size_t simd_done = hex_decoder(resolve(level))(text.data(), text.size(), out.data());
  const std::size_t done =
      simd_done + hex_decode_scalar(text.data() + simd_done, text.size() - simd_done,
                                    out.data() + simd_done / 2);
  if (done != text.size()) return errc::invalid_hex;
  out.resize(text.size() / 2);
  return errc::ok;
}

}  // namespace lather::xsd

namespace lather::bind::detail {

// The element {ns}local around write(): a long binary value streams through it in slices.
template <class T>
void write_element(xml::writer& w, const xml::leaf_namespace& ns, xml::ncname local,
                   const T& value) {
  w.start_element(ns.ns(), local);
  simple_codec<T>::write(value, w);
  w.end_element();
}

template <>
struct simple_codec<xsd::base64_binary> {
  static errc parse(std::string_view text, xsd::base64_binary& out) noexcept {
    return xsd::base64_decode(text, out.bytes);
  }
  // A value of up to one slice is a leaf encoded straight into the output; longer ones stream
  // through write(), in slices (and an empty one is written <p:name></p:name> as always).
  static void write_leaf(const xsd::base64_binary& value, xml::writer& w, xml::leaf_namespace& ns,
                         xml::ncname local) {
    if (value.bytes.empty() || value.bytes.size() > slice)
      return write_element(w, ns, local, value);
    write_formatted_leaf(w, ns, local, (value.bytes.size() + 2) / 3 * 4, [&value](char* dst) {
      return xsd::detail::base64_encode_to(value.bytes, dst);
    });
  }
  static void format(const xsd::base64_binary& value, std::string& out) {
    xsd::base64_encode(value.bytes, out);
  }
  // 3 KiB of bytes -> 4 KiB of text per slice; slices are multiples of 3 bytes, so the
  // concatenation is the base64 of the whole.
  static constexpr std::size_t slice = 3072;
  static void write(const xsd::base64_binary& value, xml::writer& w) {
    std::span<const std::uint8_t> rest{value.bytes};
    do {
      const auto part = rest.first(std::min(slice, rest.size()));
      xsd::detail::write_markup_free_in_place(w, (part.size() + 2) / 3 * 4, [&](char* dst) {
        return xsd::detail::base64_encode_to(part, dst);
      });
      rest = rest.subspan(part.size());
    } while (!rest.empty());
  }
};

template <>
struct simple_codec<xsd::hex_binary> {
  static errc parse(std::string_view text, xsd::hex_binary& out) noexcept {
    return xsd::hex_decode(text, out.bytes);
  }
  // As base64: one slice as a leaf, longer values in slices.
  static void write_leaf(const xsd::hex_binary& value, xml::writer& w, xml::leaf_namespace& ns,
                         xml::ncname local) {
    if (value.bytes.empty() || value.bytes.size() > slice)
      return write_element(w, ns, local, value);
    write_formatted_leaf(w, ns, local, value.bytes.size() * 2, [&value](char* dst) {
      return xsd::detail::hex_encode_to(value.bytes, dst);
    });
  }
  static void format(const xsd::hex_binary& value, std::string& out) {
    xsd::hex_encode(value.bytes, out);
  }
  static constexpr std::size_t slice = 2048;
  static void write(const xsd::hex_binary& value, xml::writer& w) {
    std::span<const std::uint8_t> rest{value.bytes};
    do {
      const auto part = rest.first(std::min(slice, rest.size()));
      xsd::detail::write_markup_free_in_place(
          w, part.size() * 2, [&](char* dst) { return xsd::detail::hex_encode_to(part, dst); });
      rest = rest.subspan(part.size());
    } while (!rest.empty());
  }
};

template struct simple_traits_base<xsd::base64_binary>;
template struct simple_traits_base<xsd::hex_binary>;

}  // namespace lather::bind::detail
