// Hostile XML input: every attack yields its specific error code at the right offset, in
// bounded memory and time. Huge inputs are generated on the fly by a pull source, so the test
// itself stays small, and the number of bytes the reader pulled shows that it stopped early.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>

#include "lather/xml/reader.hpp"

namespace lather::xml {
namespace {

struct outcome {
  errc code = errc::ok;
  std::uint64_t offset = 0;
  std::uint64_t pulled = 0;  // bytes handed to the reader (streaming runs)
};

outcome drain(reader& r) {
  for (;;) {
    token t = r.next();
    if (t == token::end_document) return {};
    if (t == token::error) return {r.error().code, r.error().where.offset, 0};
    if (t == token::need_more) return {errc::source_failed, 0, 0};  // not expected here
  }
}

outcome parse_whole(std::string_view doc, const limits& lim = {}) {
  reader r(lim);
  r.reset(doc);
  return drain(r);
}

// Pulls `head`, then `body` repeated up to `body_bytes` bytes, then `tail`, `chunk` at a time.
outcome parse_generated(std::string_view head, std::string_view body, std::uint64_t body_bytes,
                        std::string_view tail, std::size_t chunk, const limits& lim = {}) {
  reader r(lim);
  r.reset();
  std::uint64_t total = head.size() + body_bytes + tail.size();
  std::uint64_t at = 0;
  r.set_source([&](char* dest, std::size_t cap) {
    std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>({cap, chunk, total - at}));
    for (std::size_t i = 0; i < n; ++i, ++at) {
      if (at < head.size()) {
        dest[i] = head[at];
      } else if (at < head.size() + body_bytes) {
        dest[i] = body[(at - head.size()) % body.size()];
      } else {
        dest[i] = tail[at - head.size() - body_bytes];
      }
    }
    return n;
  });
  outcome o = drain(r);
  o.pulled = at;
  return o;
}

void expect_error(std::string_view doc, errc code, std::uint64_t offset) {
  outcome o = parse_whole(doc);
  EXPECT_EQ(o.code, code) << describe(o.code) << " for " << doc;
  EXPECT_EQ(o.offset, offset) << doc;
  // Same answer when the bytes trickle in one at a time.
  reader r;
  r.reset();
  std::size_t fed = 0;
  for (;;) {
    token t = r.next();
    if (t == token::need_more) {
      if (fed == doc.size()) {
        r.finish();
      } else {
        r.feed(doc.substr(fed++, 1));
      }
      continue;
    }
    if (t == token::error || t == token::end_document) break;
  }
  EXPECT_EQ(r.error().code, code) << "streamed: " << doc;
  EXPECT_EQ(r.error().where.offset, offset) << "streamed: " << doc;
}

const std::string cxf_message =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>"
    "<ns2:echoComplexTypeDoc xmlns:ns2=\"http://cxf.apache.org/cxf/performance/types\">"
    "<ns2:in><ns2:item><ns2:varString>#12345ABc</ns2:varString>"
    "<ns2:varQName xmlns:ns3=\"http://cxf.apache.org\">ns3:return</ns2:varQName>"
    "<ns2:varStruct varAttrString=\"1234567890!@#$%^&amp;*()abc\"><ns2:varShort>32767"
    "</ns2:varShort><![CDATA[x]]><!-- c --></ns2:varStruct></ns2:item></ns2:in>"
    "<ns2:id>42</ns2:id></ns2:echoComplexTypeDoc></soap:Body></soap:Envelope>\n";

TEST(HostileXml, EveryTruncationIsUnexpectedEofAtTheEnd) {
  ASSERT_EQ(parse_whole(cxf_message).code, errc::ok);
  std::size_t complete = cxf_message.rfind('>') + 1;
  for (std::size_t n = 0; n < complete; ++n) {
    outcome o = parse_whole(std::string_view(cxf_message).substr(0, n));
    bool in_prolog = n < cxf_message.find("<soap:Envelope") + 1;
    errc want =
        in_prolog && o.code == errc::no_root_element ? errc::no_root_element : errc::unexpected_eof;
    EXPECT_EQ(o.code, want) << "prefix " << n << ": " << describe(o.code);
    EXPECT_EQ(o.offset, n) << "prefix " << n;
  }
}

TEST(HostileXml, StructuralErrors) {
  expect_error("<a><b></a></b>", errc::tag_mismatch, 6);
  expect_error("<p:a xmlns:p='u' xmlns:q='u'></q:a>", errc::tag_mismatch, 29);
  expect_error("<a><p:b/></a>", errc::undeclared_prefix, 4);
  expect_error("<a xmlns:p='u'><b p:x='1' p:x='2'/></a>", errc::duplicate_attribute, 26);
  expect_error("<a xmlns:p='u' xmlns:q='u'><b p:x='1' q:x='2'/></a>", errc::duplicate_attribute,
               38);
  expect_error("<a xmlns='u' xmlns='v'/>", errc::duplicate_attribute, 13);
}

TEST(HostileXml, InvalidUtf8) {
  const char* cases[] = {
      "\xC0\x80",          // overlong NUL
      "\xC1\xBF",          // overlong 2-byte
      "\xE0\x80\x80",      // overlong 3-byte
      "\xE0\x9F\xBF",      // overlong 3-byte (max)
      "\xF0\x80\x80\x80",  // overlong 4-byte
      "\xED\xA0\x80",      // surrogate D800
      "\xED\xBF\xBF",      // surrogate DFFF
      "\xF4\x90\x80\x80",  // > U+10FFFF
      "\xF5\x80\x80\x80",  // invalid lead
      "\xFF",              // invalid byte
      "\x80",              // stray continuation
      "\xE2\x82<",         // truncated before markup
      "\xC3(",             // bad continuation
  };
  for (const char* bad : cases) {
    std::string b = bad;
    expect_error("<a>" + b + "</a>", errc::invalid_utf8, 3);
    expect_error("<a x='" + b + "'/>", errc::invalid_utf8, 6);
    expect_error("<a><!--" + b + "--></a>", errc::invalid_utf8, 7);
    expect_error("<a><![CDATA[" + b + "]]></a>", errc::invalid_utf8, 12);
    expect_error("<a" + b + "/>", errc::invalid_utf8, 2);
  }
  // Truncated at the very end of input: the document is unfinished.
  expect_error("<a>\xE2\x82", errc::unexpected_eof, 5);
}

TEST(HostileXml, IllegalCharacters) {
  for (int c = 0; c < 0x20; ++c) {
    if (c == '\t' || c == '\n' || c == '\r') continue;
    std::string ch(1, static_cast<char>(c));
    expect_error("<a>x" + ch + "</a>", errc::invalid_char, 4);
    expect_error("<a x='" + ch + "'/>", errc::invalid_char, 6);
    expect_error("<a><!--" + ch + "--></a>", errc::invalid_char, 7);
    expect_error("<a><![CDATA[" + ch + "]]></a>", errc::invalid_char, 12);
  }
  expect_error("<a>\xEF\xBF\xBE</a>", errc::invalid_char, 3);  // U+FFFE
  expect_error("<a>\xEF\xBF\xBF</a>", errc::invalid_char, 3);  // U+FFFF
  expect_error("<a>&#1;</a>", errc::bad_char_ref, 3);
  expect_error("<a>&#xFFFE;</a>", errc::bad_char_ref, 3);
  expect_error("<a>&#99999999999999999999;</a>", errc::bad_char_ref, 3);
  // Zero padding is legal, but the digits are bounded like a name.
  EXPECT_EQ(parse_whole("<a>&#" + std::string(1000, '0') + "65;</a>").code, errc::ok);
  expect_error("<a>&#" + std::string(5000, '0') + "65;</a>", errc::limit_name_length, 5 + 1024);
}

TEST(HostileXml, DtdAttacksAreRejectedAtTheDoctype) {
  std::string laughs =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
      " <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
      " <!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">\n"
      "]>\n<lolz>&lol2;</lolz>";
  expect_error(laughs, errc::doctype_forbidden, 22);
  expect_error("<!DOCTYPE a [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><a>&x;</a>",
               errc::doctype_forbidden, 0);
  expect_error("<!DOCTYPE a SYSTEM \"http://evil/a.dtd\"><a/>", errc::doctype_forbidden, 0);
  // Without a DTD an entity reference is simply undefined: nothing is ever fetched.
  expect_error("<a>&x;</a>", errc::undefined_entity, 3);
  expect_error("<a><?php evil()?></a>", errc::pi_forbidden, 3);
}

TEST(HostileXml, MillionDeepNestingStopsAtTheDepthLimit) {
  outcome o = parse_generated("", "<a>", 3'000'000, "", 4096);
  EXPECT_EQ(o.code, errc::limit_depth);
  EXPECT_EQ(o.offset, 3u * 100);
  EXPECT_LE(o.pulled, 64u * 1024);
  std::string deep;
  for (int i = 0; i < 1'000'000; ++i) deep += "<a>";
  outcome w = parse_whole(deep);
  EXPECT_EQ(w.code, errc::limit_depth);
  EXPECT_EQ(w.offset, 3u * 100);
}

TEST(HostileXml, MillionAttributesStopAtTheAttributeLimit) {
  // "<a" then " a=''" x 10^6: each attribute has a distinct name, so only the limit stops it.
  std::string doc = "<a";
  for (int i = 0; i < 1'000'000; ++i) doc += " a" + std::to_string(i) + "=''";
  doc += "/>";
  std::size_t limit_at = 2;
  for (int i = 0; i < 500; ++i) limit_at += 5 + std::to_string(i).size();
  outcome o = parse_whole(doc);
  EXPECT_EQ(o.code, errc::limit_attributes);
  EXPECT_EQ(o.offset, limit_at + 1);  // the name of attribute #501 (after its space)
  // With the limit lifted, a million attributes parse in linear time (hashed duplicate check).
  limits lim;
  lim.max_attributes = 2'000'000;
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(parse_whole(doc, lim).code, errc::ok);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
  // ... and the duplicate among them is still found.
  std::string dup = doc.substr(0, doc.size() - 2) + " a5=''/>";
  outcome d = parse_whole(dup, lim);
  EXPECT_EQ(d.code, errc::duplicate_attribute);
  EXPECT_EQ(d.offset, doc.size() - 1);
}

TEST(HostileXml, HundredMegabyteNameStopsAtTheNameLimit) {
  constexpr std::uint64_t hundred_mb = 100ull << 20;
  for (std::size_t chunk : {std::size_t{1}, std::size_t{4096}, std::size_t{1} << 20}) {
    outcome o = parse_generated("<", "a", hundred_mb, ">", chunk);
    EXPECT_EQ(o.code, errc::limit_name_length) << chunk;
    EXPECT_EQ(o.offset, 1u + 1024) << chunk;
    EXPECT_LE(o.pulled, 4u * 1024 + 2 * chunk) << chunk;  // stopped early, bounded buffer
  }
  // The same in an attribute name, an end tag and an entity name.
  outcome a = parse_generated("<r ", "b", hundred_mb, "='1'/>", 4096);
  EXPECT_EQ(a.code, errc::limit_name_length);
  EXPECT_EQ(a.offset, 3u + 1024);
  outcome e = parse_generated("<r></", "r", hundred_mb, ">", 4096);
  EXPECT_EQ(e.code, errc::limit_name_length);
  EXPECT_EQ(e.offset, 5u + 1024);
  outcome x = parse_generated("<r>&", "r", hundred_mb, ";</r>", 4096);
  EXPECT_EQ(x.code, errc::limit_name_length);
  EXPECT_EQ(x.offset, 4u + 1024);
}

TEST(HostileXml, HugeTextStopsAtTheTextLimitAndValuesAtTheAttributeLimit) {
  limits lim;
  lim.max_text_length = 1u << 20;
  outcome t = parse_generated("<a>", "x", 100ull << 20, "</a>", 4096, lim);
  EXPECT_EQ(t.code, errc::limit_text_length);
  EXPECT_EQ(t.offset, 3u + (1u << 20));
  EXPECT_LE(t.pulled, 3u << 20);
  // An attribute value has its own, smaller limit (64 KiB by default, as CXF's).
  for (std::string_view unit : {"x", "x&amp;", "x\n"}) {
    outcome v = parse_generated("<a v='", unit, 100ull << 20, "'/>", 4096);
    EXPECT_EQ(v.code, errc::limit_attribute_length) << unit;
    EXPECT_LE(v.offset, 6u + (64u << 10) * unit.size()) << unit;
    EXPECT_LE(v.pulled, 256u << 10) << unit;
  }
  outcome plain = parse_generated("<a v='", "x", 100ull << 20, "'/>", 4096);
  EXPECT_EQ(plain.offset, 6u + (64u << 10));
  // Each limit is its own: a long text is fine under a small attribute limit, and the reverse.
  limits small_values;
  small_values.max_attribute_length = 4;
  EXPECT_EQ(parse_whole("<a v='1234'>" + std::string(100'000, 't') + "</a>", small_values).code,
            errc::ok);
  EXPECT_EQ(parse_whole("<a v='12345'/>", small_values).code, errc::limit_attribute_length);
  limits small_text;
  small_text.max_text_length = 4;
  EXPECT_EQ(parse_whole("<a v='" + std::string(60'000, 'v') + "'>1234</a>", small_text).code,
            errc::ok);
  EXPECT_EQ(parse_whole("<a>12345</a>", small_text).code, errc::limit_text_length);
}

TEST(HostileXml, TotalBytesLimit) {
  limits lim;
  lim.max_total_bytes = 1000;
  outcome o = parse_generated("<a>", "<b/>", 1'000'000, "</a>", 4096, lim);
  EXPECT_EQ(o.code, errc::limit_total_bytes);
  EXPECT_EQ(o.offset, 1000u);
  EXPECT_LE(o.pulled, 1000u + 4096);  // the chunk that crossed the limit, no more
}

// Feeding 1 byte or 4 KiB at a time stays linear: a quadratic rescan of a 10 MB token would
// take hours, so a generous wall-clock bound is a reliable detector.
TEST(HostileXml, TrickledHugeTokensStayLinear) {
  constexpr std::uint64_t ten_mb = 10ull << 20;
  for (std::size_t chunk : {std::size_t{1}, std::size_t{4096}}) {
    auto t0 = std::chrono::steady_clock::now();
    outcome o = parse_generated("<a>", "xyz&amp;", ten_mb, "</a>", chunk);
    EXPECT_EQ(o.code, errc::ok) << describe(o.code);
    limits long_values;
    long_values.max_attribute_length = ten_mb;
    outcome v = parse_generated("<a v='", "xyz", ten_mb, "'/>", chunk, long_values);
    EXPECT_EQ(v.code, errc::ok) << describe(v.code);
    outcome c = parse_generated("<a><!--", "xyz", ten_mb, "--></a>", chunk);
    EXPECT_EQ(c.code, errc::ok) << describe(c.code);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(60)) << chunk;
  }
}

// Streaming memory is bounded by the largest token plus a chunk, not by the document.
TEST(HostileXml, StreamingBufferStaysSmallOnHugeDocuments) {
  for (std::size_t chunk : {std::size_t{1}, std::size_t{4096}}) {
    reader r;
    r.reset();
    std::uint64_t at = 0;
    const std::string head = "<r>", item = "<item a='1'>some text &amp; more</item>\n",
                      tail = "</r>";
    std::uint64_t body = ((50ull << 20) / item.size()) * item.size();
    r.set_source([&](char* dest, std::size_t cap) {
      std::size_t n = static_cast<std::size_t>(
          std::min<std::uint64_t>({cap, chunk, head.size() + body + tail.size() - at}));
      for (std::size_t i = 0; i < n; ++i, ++at) {
        if (at < head.size()) {
          dest[i] = head[at];
        } else if (at < head.size() + body) {
          dest[i] = item[(at - head.size()) % item.size()];
        } else {
          dest[i] = tail[at - head.size() - body];
        }
      }
      return n;
    });
    std::size_t max_capacity = 0, items = 0;
    for (token t = r.next(); t != token::end_document; t = r.next()) {
      ASSERT_NE(t, token::error) << r.error().message();
      if (t == token::start_element && r.depth() == 2) ++items;
      max_capacity = std::max(max_capacity, r.buffer_capacity());
      if (chunk == 1 && at > (4u << 20)) break;  // 1-byte pulls: 4 MB is plenty to show it
    }
    EXPECT_GT(items, 1000u);
    EXPECT_LE(max_capacity, 64u * 1024) << chunk;
  }
}

// The Axis NSStack bug: siblings each declaring a fresh prefix must not accumulate bindings.
TEST(HostileXml, FreshPrefixPerSiblingDoesNotLeakBindings) {
  std::string doc = "<r xmlns:xsd='urn:xsd'>";
  for (int i = 0; i < 100'000; ++i) {
    std::string p = "ns" + std::to_string(i);
    doc += "<" + p + ":m xmlns:" + p + "='urn:" + std::to_string(i) + "' t='xsd:int'/>";
  }
  doc += "</r>";
  limits lim;
  lim.max_namespaces = 4;  // would trip if declarations leaked into the parent's scope
  reader r(lim);
  r.reset(doc);
  std::size_t elements = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (token t = r.next(); t != token::end_document; t = r.next()) {
    ASSERT_NE(t, token::error) << r.error().message();
    if (t == token::start_element && r.depth() == 2) {
      ++elements;
      ASSERT_EQ(r.lookup_namespace("xsd").value_or(""), "urn:xsd");
      ASSERT_FALSE(r.lookup_namespace("ns" + std::to_string(elements - 2)).has_value());
    }
  }
  EXPECT_EQ(elements, 100'000u);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
}

}  // namespace
}  // namespace lather::xml
