// The AVX2 loop of find_text_special (scan.hpp): compiled for AVX2 alone and entered only on a
// CPU that has it (x86-64's baseline is SSE2).
#include "scan.hpp"

#if LATHER_XML_SSE2
#include <immintrin.h>

namespace lather::xml::detail {

namespace {
bool cpu_has_avx2() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
}  // namespace

const bool text_scan_avx2_available = cpu_has_avx2();
bool text_scan_avx2 = text_scan_avx2_available;

__attribute__((target("avx2"))) const char* find_text_special_avx2(const char* p,
                                                                   const char* end) noexcept {
  const __m256i lt = _mm256_set1_epi8('<'), amp = _mm256_set1_epi8('&'),
                bracket = _mm256_set1_epi8(']'), space = _mm256_set1_epi8(0x20),
                tab = _mm256_set1_epi8('\t'), lf = _mm256_set1_epi8('\n');
  while (end - p >= 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    // As in the SSE2 loop: a superset first (signed: every byte below 0x20 or above 0x7F).
    const __m256i markup =
        _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, lt), _mm256_cmpeq_epi8(v, amp)),
                        _mm256_cmpeq_epi8(v, bracket));
    auto m = static_cast<unsigned>(
        _mm256_movemask_epi8(_mm256_or_si256(markup, _mm256_cmpgt_epi8(space, v))));
    if (m) {
      m &= ~static_cast<unsigned>(_mm256_movemask_epi8(
          _mm256_or_si256(_mm256_cmpeq_epi8(v, tab), _mm256_cmpeq_epi8(v, lf))));
      if (m) return p + __builtin_ctz(m);
    }
    p += 32;
  }
  return find_text_special_sse2(p, end);
}

}  // namespace lather::xml::detail
#endif
