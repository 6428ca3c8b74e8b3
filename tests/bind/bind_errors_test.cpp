// Bad input: every failure gives its own code, the element path and a precise message, and no
// input crashes the binder.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "bind_test_util.hpp"
#include "lather/perf/types.hpp"

namespace lather::bind::test {
namespace {

using perf::types_ns;

/// Replace the n-th (1-based) occurrence of `from`.
std::string replace_nth(std::string s, std::string_view from, std::string_view to, int n) {
  std::size_t pos = 0;
  for (int i = 0; i < n; ++i) {
    pos = s.find(from, i == 0 ? 0 : pos + 1);
    if (pos == std::string::npos) ADD_FAILURE() << "no occurrence " << n << " of " << from;
    if (pos == std::string::npos) return s;
  }
  return s.replace(pos, from.size(), to);
}

std::string request(int items) {
  return to_xml(types_ns, "echoComplexTypeDoc", perf::make_cxf_request(items, 1));
}

error_info read_request(const std::string& doc, const read_options& opts = {}) {
  perf::echoComplexTypeDoc v;
  return from_xml(doc, v, opts);
}

TEST(BindErrors, OutOfRangeNamesThePath) {
  std::string doc = replace_nth(request(4), "<ns1:varUByte>255<", "<ns1:varUByte>256<", 3);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::out_of_range);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[3]/varUByte");
  EXPECT_EQ(e.message,
            "/echoComplexTypeDoc/in/item[3]/varUByte: \"256\" is out of range for "
            "xsd:unsignedByte");
}

TEST(BindErrors, WrongLexicalForm) {
  std::string doc = replace_nth(request(2), ">32767<", ">abc<", 1);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::invalid_lexical);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]/varStruct/varShort");
  EXPECT_NE(e.message.find("\"abc\" is not a valid xsd:short"), std::string::npos) << e.message;
}

TEST(BindErrors, InvalidBase64AndHex) {
  std::string doc =
      replace_nth(request(2), "<ns1:varBase64Binary>gIGC", "<ns1:varBase64Binary>g!GC", 2);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::invalid_base64);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[2]/varBase64Binary");

  doc = replace_nth(request(1), "<ns1:varHexBinary>80", "<ns1:varHexBinary>8", 1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::invalid_hex);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]/varHexBinary");
}

TEST(BindErrors, UnknownEnumValue) {
  std::string doc = replace_nth(request(2), ">RED<", ">PURPLE<", 2);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::unknown_enum);
  EXPECT_EQ(e.message,
            "/echoComplexTypeDoc/in/item[2]/varEnum: \"PURPLE\" is not a value of the "
            "enumeration ColourEnum");
}

// ---- writing: a value the binding cannot write names its field, from the written element down

error_info write_error(const perf::echoComplexTypeDoc& v) {
  try {
    (void)to_xml(types_ns, "echoComplexTypeDoc", v);
  } catch (const error& e) {
    return e.info();
  }
  ADD_FAILURE() << "the value was written";
  return {};
}

TEST(BindErrors, UnwritableEnumValueNamesItsField) {
  perf::echoComplexTypeDoc v = perf::make_cxf_request(4, 1);
  v.in.item[2].varEnum = static_cast<perf::ColourEnum>(7);
  error_info e = write_error(v);
  EXPECT_EQ(e.code, errc::unknown_enum);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[3]/varEnum");
  EXPECT_EQ(e.message,
            "/echoComplexTypeDoc/in/item[3]/varEnum: value 7 is not in meta<ColourEnum>::values");
}

TEST(BindErrors, UnwritableTextAndAttributeNameTheirFields) {
  perf::echoComplexTypeDoc v = perf::make_cxf_request(2, 1);
  v.in.item[1].varStruct.varString = "bell \x07";
  error_info e = write_error(v);
  EXPECT_EQ(e.code, errc::xml_error);  // the writer's error, with the writer's message
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[2]/varStruct/varString");
  EXPECT_TRUE(e.message.starts_with(e.path + ": ")) << e.message;

  v = perf::make_cxf_request(2, 1);
  v.in.item[0].varStruct.varAttrString = std::string("nul \0", 5);
  e = write_error(v);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]/varStruct/@varAttrString");

  // write_content: the path starts at the field (the caller wrote the element itself).
  xml::output out;
  xml::writer w{out};
  w.start_element(types_ns, "echoComplexTypeDoc");
  try {
    write_content(w, v);
    ADD_FAILURE() << "the value was written";
  } catch (const error& x) {
    EXPECT_EQ(x.info().path, "/in/item[1]/varStruct/@varAttrString");
    EXPECT_EQ(enclose(x.info(), "echoComplexTypeDoc").message, e.message);
  }
}

TEST(BindErrors, MissingRequiredElement) {
  std::string doc = replace_nth(
      request(2), "<ns1:varFloat>3.4028235e+38</ns1:varFloat><ns1:varQName", "<ns1:varQName", 2);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::missing_element);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[2]/varFloat");
  // Missing at the end of the content.
  doc = replace_nth(request(1), "<ns1:varEnum>RED</ns1:varEnum>", "", 1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::missing_element);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]/varEnum");
  // The id of the wrapper.
  doc = replace_nth(request(1), "<ns1:id>1</ns1:id>", "", 1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::missing_element);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/id");
}

TEST(BindErrors, RepeatedBeyondMaxOccurs) {
  std::string doc = replace_nth(request(1), "<ns1:varUByte>",
                                "<ns1:varString>x</ns1:varString><ns1:varUByte>", 1);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::too_many);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]/varString");
  EXPECT_NE(e.message.find("maxOccurs=1"), std::string::npos) << e.message;
}

TEST(BindErrors, OccurrenceCapIsALimit) {
  read_options opts;
  opts.max_occurs = 5;
  error_info e = read_request(request(6), opts);
  EXPECT_EQ(e.code, errc::limit_exceeded);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[6]");
  EXPECT_FALSE(read_request(request(5), opts));
}

TEST(BindErrors, OutOfSchemaOrder) {
  std::string doc = replace_nth(
      request(1), "<ns1:varString>#12345ABc</ns1:varString><ns1:varUByte>255</ns1:varUByte>",
      "<ns1:varUByte>255</ns1:varUByte><ns1:varString>#12345ABc</ns1:varString>", 1);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::missing_element) << e.message;  // varString expected first
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]/varString");

  doc = replace_nth(request(1),
                    "<ns1:varUnsignedLong>13691056728</"
                    "ns1:varUnsignedLong><ns1:varFloat>3.4028235e+38</ns1:varFloat>",
                    "<ns1:varFloat>3.4028235e+38</ns1:varFloat><ns1:varUnsignedLong>13691056728</"
                    "ns1:varUnsignedLong>",
                    1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::missing_element) << e.message;

  // An element that belongs earlier in the sequence after a later one was read.
  doc = replace_nth(request(1), "<ns1:varEnum>", "<ns1:varUByte>1</ns1:varUByte><ns1:varEnum>", 1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::unexpected_element);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]");
  EXPECT_NE(e.message.find("out of schema order"), std::string::npos) << e.message;
}

TEST(BindErrors, UnknownElement) {
  std::string doc = replace_nth(request(1), "<ns1:varEnum>", "<ns1:bogus/><ns1:varEnum>", 1);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::unexpected_element);
  EXPECT_NE(e.message.find("unexpected element 'bogus'"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("expected 'varEnum'"), std::string::npos) << e.message;
  // Right name, wrong namespace.
  doc = replace_nth(request(1), "<ns1:id>1</ns1:id>", "<id>1</id>", 1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::unexpected_element) << e.message;
}

TEST(BindErrors, XsiTypes) {
  const std::string xsi = " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"";
  // Unknown type.
  std::string doc = replace_nth(request(1), "<ns1:varStruct ",
                                "<ns1:varStruct" + xsi + " xsi:type=\"ns1:Nope\" ", 1);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::unknown_xsi_type) << e.message;
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]/varStruct");
  // A built-in type where a complex type is declared: unrelated.
  doc = replace_nth(request(1), "<ns1:varStruct ",
                    "<ns1:varStruct" + xsi +
                        " xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xsi:type=\"xs:string\" ",
                    1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::bad_xsi_type) << e.message;
  // A complex type where a simple type is declared.
  doc = replace_nth(request(1), "<ns1:varUByte>",
                    "<ns1:varUByte" + xsi + " xsi:type=\"ns1:SimpleStruct\">", 1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::bad_xsi_type) << e.message;
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]/varUByte");
  // Undeclared prefix in xsi:type.
  doc = replace_nth(request(1), "<ns1:varStruct ",
                    "<ns1:varStruct" + xsi + " xsi:type=\"zz:SimpleStruct\" ", 1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::undeclared_prefix) << e.message;
  // The declared type itself is fine.
  doc = replace_nth(request(1), "<ns1:varStruct ",
                    "<ns1:varStruct" + xsi + " xsi:type=\"ns1:SimpleStruct\" ", 1);
  EXPECT_FALSE(read_request(doc));
}

TEST(BindErrors, QNameWithUndeclaredPrefix) {
  std::string doc = replace_nth(request(2), ">ns2:return<", ">zz:return<", 2);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::undeclared_prefix);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[2]/varQName");
}

TEST(BindErrors, NilWhereNotNillable) {
  std::string doc = replace_nth(
      request(1), "<ns1:varString>#12345ABc</ns1:varString>",
      "<ns1:varString xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:nil=\"true\"/>",
      1);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::nil_not_allowed);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]/varString");
  doc = replace_nth(request(1), "<ns1:varString>#12345ABc</ns1:varString>",
                    "<ns1:varString xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                    "xsi:nil=\"maybe\"/>",
                    1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::invalid_lexical);
}

TEST(BindErrors, StructureProblems) {
  // Text in element-only content.
  std::string doc = replace_nth(request(1), "<ns1:varEnum>", "stray<ns1:varEnum>", 1);
  error_info e = read_request(doc);
  EXPECT_EQ(e.code, errc::unexpected_element);
  EXPECT_NE(e.message.find("unexpected text \"stray\""), std::string::npos) << e.message;
  // An element inside a simple value.
  doc = replace_nth(request(1), ">RED<", "><b/>RED<", 1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::unexpected_element);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]/varEnum");
  // Malformed XML surfaces as xml_error with the reader's message.
  doc = replace_nth(request(1), "</ns1:varEnum>", "</ns1:varEnumX>", 1);
  e = read_request(doc);
  EXPECT_EQ(e.code, errc::xml_error);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[1]/varEnum");
}

TEST(BindErrors, IncompleteInputWithoutSourceIsAnError) {
  const std::string doc = request(2);
  xml::reader r;
  r.reset();
  r.feed(doc.substr(0, doc.size() / 2));
  ASSERT_EQ(r.next(), xml::token::start_element);
  perf::echoComplexTypeDoc v;
  error_info e = read(r, v);
  EXPECT_EQ(e.code, errc::xml_error);
  EXPECT_NE(e.message.find("needs more bytes"), std::string::npos) << e.message;
}

TEST(BindErrors, StreamedThroughASourceInTinyPieces) {
  const std::string doc = request(3);
  xml::reader r;
  std::size_t pos = 0;
  r.set_source([&](char* dest, std::size_t capacity) {
    std::size_t n = std::min<std::size_t>({capacity, 7, doc.size() - pos});
    doc.copy(dest, n, pos);
    pos += n;
    return n;
  });
  r.reset();
  ASSERT_EQ(r.next(), xml::token::start_element);
  perf::echoComplexTypeDoc v;
  error_info e = read(r, v);
  ASSERT_FALSE(e) << e.message;
  EXPECT_EQ(v, perf::make_cxf_request(3, 1));
}

// The binding reads a plain simple element in one reader call (xml::reader::
// next_simple_element) and takes the general way for anything else: every variant below must
// read exactly as the general way reads it.
TEST(BindErrors, SimpleElementsOffTheFastPathReadTheSame) {
  const std::string doc = request(3);
  const perf::echoComplexTypeDoc expected = perf::make_cxf_request(3, 1);
  auto reads_as_expected = [&](const std::string& variant) {
    perf::echoComplexTypeDoc v;
    error_info e = from_xml(variant, v);
    EXPECT_FALSE(e) << e.message << "\n" << variant;
    return v == expected;
  };
  // The items' prefix redeclared to the same namespace on the second item, or another prefix
  // bound to it on one element.
  const std::string ns = std::string(types_ns);
  EXPECT_TRUE(
      reads_as_expected(replace_nth(doc, "<ns1:item>", "<ns1:item xmlns:ns1=\"" + ns + "\">", 2)));
  EXPECT_TRUE(reads_as_expected(
      replace_nth(replace_nth(doc, "<ns1:varString>", "<q:varString xmlns:q=\"" + ns + "\">", 2),
                  "</ns1:varString>", "</q:varString>", 2)));
  // Attributes (undeclared, xsi:type), references, CDATA, a comment, whitespace in the tags.
  EXPECT_TRUE(reads_as_expected(replace_nth(doc, "<ns1:varUByte>", "<ns1:varUByte a=\"1\">", 2)));
  EXPECT_TRUE(
      reads_as_expected(replace_nth(doc, "<ns1:varUByte>",
                                    "<ns1:varUByte xsi:type=\"xsd:unsignedByte\" "
                                    "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                                    "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\">",
                                    1)));
  EXPECT_TRUE(reads_as_expected(replace_nth(doc, ">255<", ">&#50;5&#x35;<", 3)));
  EXPECT_TRUE(reads_as_expected(replace_nth(doc, ">255<", "><![CDATA[25]]>5<", 1)));
  EXPECT_TRUE(reads_as_expected(replace_nth(doc, ">255<", ">2<!-- - -->55<", 2)));
  EXPECT_TRUE(reads_as_expected(replace_nth(doc, "<ns1:varUByte>", "<ns1:varUByte >", 1)));
  EXPECT_TRUE(reads_as_expected(replace_nth(doc, "</ns1:varUByte>", "</ns1:varUByte\n>", 1)));
  // The prefix rebound to another namespace between two items: the second item's child is not
  // the field, wherever the rebinding is.
  error_info e = read_request(
      replace_nth(doc, "<ns1:varUByte>", "<ns1:varUByte xmlns:ns1=\"urn:another\">", 2));
  EXPECT_EQ(e.code, errc::unexpected_element);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[2]");
  e = read_request(replace_nth(doc, "<ns1:item>", "<ns1:item xmlns:ns1=\"urn:another\">", 2));
  EXPECT_EQ(e.code, errc::unexpected_element);
  // A value error found on the fast path names the element as before.
  e = read_request(replace_nth(doc, ">255<", ">-1<", 2));
  EXPECT_EQ(e.code, errc::out_of_range);
  EXPECT_EQ(e.path, "/echoComplexTypeDoc/in/item[2]/varUByte");
}

TEST(BindErrors, StreamedAtEveryPieceSize) {
  // Pieces of every size: a split falls at every byte of every simple element somewhere.
  const std::string doc = request(2);
  const perf::echoComplexTypeDoc expected = perf::make_cxf_request(2, 1);
  xml::reader r;
  perf::echoComplexTypeDoc v;
  for (std::size_t piece = 1; piece <= doc.size(); ++piece) {
    std::size_t pos = 0;
    r.set_source([&](char* dest, std::size_t capacity) {
      std::size_t n = std::min<std::size_t>({capacity, piece, doc.size() - pos});
      doc.copy(dest, n, pos);
      pos += n;
      return n;
    });
    r.reset();
    ASSERT_EQ(r.next(), xml::token::start_element);
    error_info e = read(r, v);
    ASSERT_FALSE(e) << "piece " << piece << ": " << e.message;
    ASSERT_EQ(v, expected) << "piece " << piece;
  }
}

TEST(BindErrors, UndeclaredAttributesAreIgnored) {
  std::string doc = replace_nth(request(1), " varAttrString=", " other=", 1);
  perf::echoComplexTypeDoc v;
  ASSERT_FALSE(from_xml(doc, v));
  EXPECT_EQ(v.in.item[0].varStruct.varAttrString, "");  // optional attribute: absent
}

// Truncations and byte flips of a valid document: every one ends in a clean error or a
// successful read, never a crash (run under ASan in the sanitizer build).
TEST(BindErrors, MangledDocumentsNeverCrash) {
  const std::string doc = request(2);
  perf::echoComplexTypeDoc v;
  int failures = 0;
  for (std::size_t cut = 0; cut < doc.size(); cut += 3) {
    xml::reader r;
    r.reset(std::string_view(doc).substr(0, cut));
    if (r.next() != xml::token::start_element) continue;
    if (read(r, v)) ++failures;
  }
  EXPECT_GT(failures, 0);
  std::mt19937 rng(12345);
  const char junk[] = {'<', '>', '&', '"', 'x', '0', '9', ':', '/', '\0', '\xff', ' '};
  for (int i = 0; i < 2000; ++i) {
    std::string m = doc;
    for (int k = 0; k < 3; ++k) m[rng() % m.size()] = junk[rng() % sizeof(junk)];
    xml::reader r;
    r.reset(m);
    if (r.next() != xml::token::start_element) continue;
    error_info e = read(r, v);
    if (e) {
      EXPECT_FALSE(e.message.empty());
    }
  }
}

}  // namespace
}  // namespace lather::bind::test
