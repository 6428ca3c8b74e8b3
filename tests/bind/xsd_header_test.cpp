// xsd.hpp compiles on its own (included first), and hostile text never breaks a parser.
#include "lather/bind/xsd.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace lather::bind {
namespace {

bool is_value_error(errc e) {
  return e == errc::ok || e == errc::invalid_lexical || e == errc::out_of_range ||
         e == errc::invalid_base64 || e == errc::invalid_hex;
}

template <class T>
void parse_garbage(std::mt19937_64& rng, std::string_view alphabet) {
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    text.clear();
    const std::size_t n = rng() % 40;
    for (std::size_t k = 0; k < n; ++k)
      text.push_back(rng() % 8 == 0 ? static_cast<char>(rng()) : alphabet[rng() % alphabet.size()]);
    T value{};
    const errc e = xsd_traits<T>::parse(text, value);
    ASSERT_TRUE(is_value_error(e)) << text;
    if (e == errc::ok) {  // whatever parses formats to text that parses to the same value
      std::string again;
      xsd_traits<T>::format(value, again);
      T back{};
      ASSERT_EQ(xsd_traits<T>::parse(again, back), errc::ok) << text << " -> " << again;
      std::string third;
      xsd_traits<T>::format(back, third);
      ASSERT_EQ(third, again);
    }
  }
}

TEST(XsdHostile, RandomTextGivesCleanErrorsAndStableRoundTrips) {
  std::mt19937_64 rng(2026);
  const std::string_view numeric = "0123456789+-.eEINFaT \n";
  const std::string_view temporal = "0123456789-:.TZ+PYMDHS ";
  parse_garbage<bool>(rng, "truefals01 ");
  parse_garbage<std::int8_t>(rng, numeric);
  parse_garbage<std::uint64_t>(rng, numeric);
  parse_garbage<float>(rng, numeric);
  parse_garbage<double>(rng, numeric);
  parse_garbage<xsd::decimal>(rng, numeric);
  parse_garbage<xsd::positive_integer>(rng, numeric);
  parse_garbage<xsd::date_time>(rng, temporal);
  parse_garbage<xsd::date>(rng, temporal);
  parse_garbage<xsd::time>(rng, temporal);
  parse_garbage<xsd::duration>(rng, temporal);
  parse_garbage<xsd::base64_binary>(rng, "ABCDEFabcdef0189+/= \n");
  parse_garbage<xsd::hex_binary>(rng, "0123456789abcdefABCDEFG ");
  parse_garbage<xsd::list<std::int32_t>>(rng, numeric);
}

}  // namespace
}  // namespace lather::bind
