// base64Binary and hexBinary: RFC 4648 vectors, XSD strictness, and every SIMD kernel checked
// against the scalar reference on the same inputs.
#include <random>
#include <vector>

#include "xsd_test_util.hpp"

namespace lather::bind {
namespace {

using test::format;
using test::parse_error;
using test::parse_ok;

std::vector<std::uint8_t> bytes_of(std::string_view s) {
  return {s.begin(), s.end()};
}

/// Every kernel this CPU can run (the reference first).
std::vector<xsd::simd_level> levels() {
  std::vector<xsd::simd_level> out{xsd::simd_level::scalar};
  if (xsd::best_simd_level() == xsd::simd_level::ssse3 ||
      xsd::best_simd_level() == xsd::simd_level::avx2)
    out.push_back(xsd::simd_level::ssse3);
  if (xsd::best_simd_level() == xsd::simd_level::avx2) out.push_back(xsd::simd_level::avx2);
  return out;
}

std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

TEST(XsdBase64, Rfc4648Vectors) {
  const std::pair<std::string_view, std::string_view> vectors[] = {{"", ""},
                                                                   {"f", "Zg=="},
                                                                   {"fo", "Zm8="},
                                                                   {"foo", "Zm9v"},
                                                                   {"foob", "Zm9vYg=="},
                                                                   {"fooba", "Zm9vYmE="},
                                                                   {"foobar", "Zm9vYmFy"}};
  for (auto [plain, encoded] : vectors) {
    EXPECT_EQ(format(xsd::base64_binary{bytes_of(plain)}), encoded);
    EXPECT_EQ(parse_ok<xsd::base64_binary>(encoded).bytes, bytes_of(plain));
  }
  EXPECT_EQ(format(xsd::base64_binary{{0xFB, 0xFF}}), "+/8=");
}

TEST(XsdBase64, WhitespaceIsSkipped) {
  for (std::string_view text : {"Zm9v\nYmFy", " Zm 9v Ym Fy ", "Zm9v\r\nYmFy\r\n", "\tZm9vYmFy",
                                "Zm9vYg =\n=", "Z m 9 v Y g = = "})
    EXPECT_EQ(parse_error<xsd::base64_binary>(text), errc::ok) << text;
  EXPECT_EQ(parse_ok<xsd::base64_binary>(" Zm 9v Ym Fy ").bytes, bytes_of("foobar"));
}

TEST(XsdBase64, StrictPaddingAndAlphabet) {
  for (std::string_view bad : {"Zg=", "Zg===", "Z===", "Z", "Zm9", "Zm9=v", "=Zm9",
                               "Zm9v=", "Zh==", "Zm9=", "Zm8==", "Zm-v", "Zm_v", "Zm9v!",
                               "Zm9v\x80", "Zm9\0", "Zg==Zg==", "===="})
    EXPECT_EQ(parse_error<xsd::base64_binary>(bad), errc::invalid_base64) << bad;
  EXPECT_EQ(parse_error<xsd::base64_binary>(std::string_view("Zm9v\0AAA", 8)),
            errc::invalid_base64);
  EXPECT_EQ(parse_error<xsd::base64_binary>("   "), errc::ok);
}

TEST(XsdBase64, EveryKernelMatchesScalarOnRandomData) {
  std::mt19937_64 rng(7);
  for (std::size_t n = 0; n < 400; ++n) {
    const auto data = random_bytes(rng, n);
    std::string reference;
    xsd::base64_encode(data, reference, xsd::simd_level::scalar);
    for (auto level : levels()) {
      std::string text = "prefix";  // encode appends
      xsd::base64_encode(data, text, level);
      ASSERT_EQ(text, "prefix" + reference) << n << " level " << int(level);
      std::vector<std::uint8_t> back{1, 2, 3};
      ASSERT_EQ(xsd::base64_decode(reference, back, level), errc::ok);
      ASSERT_EQ(back, data);
      // Whitespace sprinkled in (as MIME line breaks would) changes nothing.
      std::string spaced;
      for (std::size_t i = 0; i < reference.size(); ++i) {
        spaced.push_back(reference[i]);
        if (rng() % 23 == 0) spaced.append(rng() % 2 ? "\r\n" : " ");
      }
      ASSERT_EQ(xsd::base64_decode(spaced, back, level), errc::ok);
      ASSERT_EQ(back, data);
    }
  }
}

TEST(XsdBase64, EveryKernelRejectsEveryBadByteAtEveryPosition) {
  std::mt19937_64 rng(11);
  const auto data = random_bytes(rng, 96);  // 128 chars: several SIMD blocks
  std::string valid;
  xsd::base64_encode(data, valid);
  for (std::size_t pos = 0; pos < valid.size(); pos += 5) {
    for (int c = 0; c < 256; ++c) {
      std::string text = valid;
      text[pos] = static_cast<char>(c);
      std::vector<std::uint8_t> expected;
      const errc expected_error = xsd::base64_decode(text, expected, xsd::simd_level::scalar);
      for (auto level : levels()) {
        std::vector<std::uint8_t> got;
        ASSERT_EQ(xsd::base64_decode(text, got, level), expected_error) << pos << " " << c;
        if (expected_error == errc::ok) {
          ASSERT_EQ(got, expected);
        }
      }
    }
  }
}

TEST(XsdBase64, LargePayloadRoundTrip) {
  std::mt19937_64 rng(3);
  const xsd::base64_binary value{random_bytes(rng, 1 << 20)};
  const std::string text = format(value);
  EXPECT_EQ(text.size(), (value.bytes.size() + 2) / 3 * 4);
  EXPECT_EQ(parse_ok<xsd::base64_binary>(text), value);
}

TEST(XsdHex, CasesAndErrors) {
  EXPECT_EQ(parse_ok<xsd::hex_binary>("0FA1").bytes, (std::vector<std::uint8_t>{0x0F, 0xA1}));
  EXPECT_EQ(parse_ok<xsd::hex_binary>(" 0fa1\n").bytes, (std::vector<std::uint8_t>{0x0F, 0xA1}));
  EXPECT_TRUE(parse_ok<xsd::hex_binary>("").bytes.empty());
  EXPECT_EQ(format(xsd::hex_binary{{0x0F, 0xA1, 0x00, 0xFF}}), "0FA100FF");
  for (std::string_view bad : {"ABC", "0G", "0 A", "0x0A", "GG", "-1", "0A0"})
    EXPECT_EQ(parse_error<xsd::hex_binary>(bad), errc::invalid_hex) << bad;
}

TEST(XsdHex, EveryKernelMatchesScalar) {
  std::mt19937_64 rng(5);
  for (std::size_t n = 0; n < 200; ++n) {
    const auto data = random_bytes(rng, n);
    std::string reference;
    xsd::hex_encode(data, reference, xsd::simd_level::scalar);
    for (auto level : levels()) {
      std::string text;
      xsd::hex_encode(data, text, level);
      ASSERT_EQ(text, reference);
      std::vector<std::uint8_t> back;
      ASSERT_EQ(xsd::hex_decode(reference, back, level), errc::ok);
      ASSERT_EQ(back, data);
    }
  }
  const auto data = random_bytes(rng, 64);
  std::string valid;
  xsd::hex_encode(data, valid);
  for (std::size_t pos = 0; pos < valid.size(); pos += 3) {
    for (int c = 0; c < 256; ++c) {
      std::string text = valid;
      text[pos] = static_cast<char>(c);
      std::vector<std::uint8_t> expected;
      const errc expected_error = xsd::hex_decode(text, expected, xsd::simd_level::scalar);
      const bool is_hex =
          (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
      ASSERT_EQ(expected_error == errc::ok, is_hex) << c;
      for (auto level : levels()) {
        std::vector<std::uint8_t> got;
        ASSERT_EQ(xsd::hex_decode(text, got, level), expected_error) << pos << " " << c;
        if (expected_error == errc::ok) {
          ASSERT_EQ(got, expected);
        }
      }
    }
  }
}

TEST(XsdBinary, PropertyRandomRoundTrip) {
  std::mt19937_64 rng(99);
  for (int i = 0; i < 2000; ++i) {
    const auto data = random_bytes(rng, rng() % 600);
    EXPECT_EQ(parse_ok<xsd::base64_binary>(format(xsd::base64_binary{data})).bytes, data);
    EXPECT_EQ(parse_ok<xsd::hex_binary>(format(xsd::hex_binary{data})).bytes, data);
  }
}

}  // namespace
}  // namespace lather::bind
