// Unit tests of lather::xml::reader: events, namespaces, decoding, errors, feeding modes.
#include "lather/xml/reader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "event_trace.hpp"
#include "lather/xml/name.hpp"

namespace lather::xml {
namespace {

using test::feed_mode;
using test::run_reader;
using test::trace_result;

// Parses `doc` whole, and fed/pulled 1 byte and random pieces at a time; all must agree.
trace_result parse_all_ways(std::string_view doc) {
  trace_result whole = run_reader(doc, feed_mode::whole);
  for (feed_mode m : {feed_mode::push, feed_mode::pull}) {
    for (int piece : {1, 3, -7, 4096}) {
      trace_result t = run_reader(doc, m, piece, 42);
      EXPECT_EQ(t.events, whole.events) << "mode " << int(m) << " piece " << piece;
      EXPECT_EQ(t.code, whole.code) << "mode " << int(m) << " piece " << piece;
      EXPECT_EQ(t.offset, whole.offset) << "mode " << int(m) << " piece " << piece;
    }
  }
  return whole;
}

std::string events_of(std::string_view doc) {
  trace_result t = parse_all_ways(doc);
  EXPECT_TRUE(t.accepted()) << describe(t.code) << " at " << t.offset << " in " << doc;
  return t.events;
}

void expect_error(std::string_view doc, errc code, std::uint64_t offset) {
  trace_result t = parse_all_ways(doc);
  EXPECT_EQ(t.code, code) << "got " << describe(t.code) << " for " << doc;
  EXPECT_EQ(t.offset, offset) << doc;
}

// xml::same_name (the names compare other layers share with the reader): the same answer as
// string_view's == at every length, whichever byte differs.
TEST(Names, SameNameAgreesWithEqualityAtEveryLengthAndPosition) {
  const std::string base = "urn:a-long-namespace-uri-for-the-compare:ns1:item";
  for (std::size_t n = 0; n <= base.size(); ++n) {
    const std::string a = base.substr(0, n);
    EXPECT_TRUE(same_name(a, std::string(a))) << n;
    for (std::size_t i = 0; i < n; ++i) {
      std::string b = a;
      b[i] = static_cast<char>(b[i] ^ 0x20);
      EXPECT_FALSE(same_name(a, b)) << n << " " << i;
    }
    if (n != 0) {
      EXPECT_FALSE(same_name(a, a.substr(0, n - 1))) << n;
    }
  }
}

TEST(Reader, SimpleElementsAndText) {
  EXPECT_EQ(events_of("<a>hi</a>"), "<{}a\nThi\n>\n");
  EXPECT_EQ(events_of("<a/>"), "<{}a\n>\n");
  EXPECT_EQ(events_of("<a><b x='1' y=\"2\"/>t</a>"), "<{}a\n<{}b {}x=1 {}y=2\n>\nTt\n>\n");
}

TEST(Reader, AccessorsAndDepth) {
  reader r;
  r.reset("<p:a xmlns:p='urn:p' q='v'><b/>text</p:a>");
  ASSERT_EQ(r.next(), token::start_element);
  EXPECT_EQ(r.ns(), "urn:p");
  EXPECT_EQ(r.local_name(), "a");
  EXPECT_EQ(r.prefix(), "p");
  EXPECT_EQ(r.depth(), 1u);
  EXPECT_TRUE(r.is("urn:p", "a"));
  ASSERT_EQ(r.attributes().size(), 1u);
  ASSERT_EQ(r.namespace_declarations().size(), 1u);
  EXPECT_EQ(r.namespace_declarations()[0].prefix, "p");
  EXPECT_EQ(r.namespace_declarations()[0].uri, "urn:p");
  ASSERT_NE(r.find_attribute("", "q"), nullptr);
  EXPECT_EQ(r.find_attribute("", "q")->value, "v");
  EXPECT_EQ(r.lookup_namespace("p").value_or("none"), "urn:p");
  EXPECT_FALSE(r.lookup_namespace("zz").has_value());
  ASSERT_EQ(r.next(), token::start_element);
  EXPECT_TRUE(r.is_empty_element());
  EXPECT_EQ(r.depth(), 2u);
  ASSERT_EQ(r.next(), token::end_element);
  EXPECT_EQ(r.local_name(), "b");
  EXPECT_EQ(r.depth(), 2u);
  ASSERT_EQ(r.next(), token::text);
  EXPECT_EQ(r.text(), "text");
  EXPECT_EQ(r.depth(), 1u);
  ASSERT_EQ(r.next(), token::end_element);
  EXPECT_EQ(r.ns(), "urn:p");
  EXPECT_EQ(r.lookup_namespace("p").value_or("none"), "urn:p");
  ASSERT_EQ(r.next(), token::end_document);
  EXPECT_FALSE(r.lookup_namespace("p").has_value());
  EXPECT_EQ(r.next(), token::end_document);
}

TEST(Reader, ZeroCopyTextPointsIntoDocument) {
  std::string doc = "<a>plain text</a>";
  reader r;
  r.reset(doc);
  ASSERT_EQ(r.next(), token::start_element);
  ASSERT_EQ(r.next(), token::text);
  EXPECT_EQ(r.text().data(), doc.data() + 3);
  EXPECT_EQ(r.local_name(), "a");
}

TEST(Reader, Namespaces) {
  EXPECT_EQ(events_of("<a xmlns='urn:d'><b/><c xmlns=''/></a>"),
            "<{urn:d}a\n<{urn:d}b\n>\n<{}c\n>\n>\n");
  EXPECT_EQ(events_of("<p:a xmlns:p='u1'><p:b xmlns:p='u2' p:x='1'/><p:c/></p:a>"),
            "<{u1}a\n<{u2}b {u2}x=1\n>\n<{u1}c\n>\n>\n");
  EXPECT_EQ(events_of("<a xml:lang='en'/>"),
            "<{}a {http://www.w3.org/XML/1998/namespace}lang=en\n>\n");
  // Declarations are scoped exactly to their element.
  expect_error("<a><b xmlns:p='u'/><p:c/></a>", errc::undeclared_prefix, 20);
}

TEST(Reader, DecodingAndNormalisation) {
  EXPECT_EQ(events_of("<a>&lt;&gt;&amp;&apos;&quot;&#65;&#x42;&#x20AC;</a>"),
            "<{}a\nT<>&'\"AB\xE2\x82\xAC\n>\n");
  EXPECT_EQ(events_of("<a>x\r\ny\rz</a>"), "<{}a\nTx\\ny\\nz\n>\n");
  EXPECT_EQ(events_of("<a v='a\tb\nc\r\nd&#10;e&amp;'/>"), "<{}a {}v=a b c d\\ne&\n>\n");
  EXPECT_EQ(events_of("<a>1<![CDATA[<&]]>2<!-- c -->3</a>"), "<{}a\nT1<&23\n>\n");
  EXPECT_EQ(events_of("<a><!-- only --></a>"), "<{}a\n>\n");
}

TEST(Reader, PrologAndEpilog) {
  EXPECT_EQ(events_of("<?xml version='1.0' encoding='UTF-8'?>\n<!-- c --><a/>\n<!-- d -->\n"),
            "<{}a\n>\n");
  EXPECT_EQ(events_of("\xEF\xBB\xBF<a/>"), "<{}a\n>\n");
  EXPECT_EQ(events_of("<?xml version=\"1.0\" standalone='yes' ?><a/>"), "<{}a\n>\n");
  expect_error("<!DOCTYPE a [<!ENTITY x 'y'>]><a/>", errc::doctype_forbidden, 0);
  expect_error("<a><?pi x?></a>", errc::pi_forbidden, 3);
  expect_error("<?pi x?><a/>", errc::pi_forbidden, 0);
  expect_error("<?xml version='1.0' encoding='ISO-8859-1'?><a/>", errc::unsupported_encoding, 20);
  expect_error("\xFF\xFE<\0a\0/\0>\0", errc::unsupported_encoding, 0);
  expect_error(" <?xml version='1.0'?><a/>", errc::bad_xml_declaration, 1);
  expect_error("", errc::no_root_element, 0);
  expect_error("  <!-- x -->", errc::no_root_element, 12);
  expect_error("<a/><b/>", errc::junk_after_root, 4);
  expect_error("<a/>x", errc::junk_after_root, 4);
  expect_error("x<a/>", errc::text_outside_root, 0);
}

TEST(Reader, WellFormednessErrors) {
  expect_error("<a>", errc::unexpected_eof, 3);
  expect_error("<a></b>", errc::tag_mismatch, 3);
  expect_error("<a x='1' x='2'/>", errc::duplicate_attribute, 9);
  expect_error("<a xmlns:p='u' xmlns:q='u' p:x='1' q:x='2'/>", errc::duplicate_attribute, 35);
  expect_error("<p:a/>", errc::undeclared_prefix, 1);
  expect_error("<a p:x='1'/>", errc::undeclared_prefix, 3);
  expect_error("<a xmlns:p=''/>", errc::empty_namespace_prefix, 3);
  expect_error("<a xmlns:xml='urn:x'/>", errc::reserved_prefix, 3);
  expect_error("<a xmlns:p='http://www.w3.org/2000/xmlns/'/>", errc::reserved_prefix, 3);
  expect_error("<a>&foo;</a>", errc::undefined_entity, 3);
  expect_error("<a>&#0;</a>", errc::bad_char_ref, 3);
  expect_error("<a>&#xD800;</a>", errc::bad_char_ref, 3);
  expect_error("<a x='<'/>", errc::lt_in_attribute, 6);
  expect_error("<a>]]></a>", errc::cdata_end_in_text, 3);
  expect_error("<a>\x01</a>", errc::invalid_char, 3);
  expect_error("<a>\xC0\x80</a>", errc::invalid_utf8, 3);
  expect_error("<a>\xED\xA0\x80</a>", errc::invalid_utf8, 3);
  expect_error("<a>\xEF\xBF\xBE</a>", errc::invalid_char, 3);
  expect_error("<a>\xE2\x82</a>", errc::invalid_utf8, 3);
  expect_error("<1a/>", errc::bad_name, 1);
  expect_error("<a:b:c xmlns:a='u'/>", errc::bad_name, 4);
  expect_error("<a x='1'y='2'/>", errc::bad_syntax, 8);
  expect_error("<a><!-- a -- b --></a>", errc::bad_syntax, 10);
}

TEST(Reader, Limits) {
  limits lim;
  lim.max_depth = 3;
  lim.max_name_length = 8;
  lim.max_attributes = 2;
  lim.max_namespaces = 2;
  lim.max_text_length = 5;
  lim.max_attribute_length = 4;
  lim.max_total_bytes = 40;
  auto run = [&](std::string_view doc) {
    reader r(lim);
    return run_reader(r, doc, feed_mode::whole);
  };
  auto check = [&](std::string_view doc, errc code, std::uint64_t off) {
    trace_result t = run(doc);
    EXPECT_EQ(t.code, code) << describe(t.code) << " " << doc;
    EXPECT_EQ(t.offset, off) << doc;
    reader r(lim);
    trace_result s = run_reader(r, doc, feed_mode::push, 1);
    EXPECT_EQ(s.code, code) << describe(s.code) << " " << doc;
    EXPECT_EQ(s.offset, off) << doc;
  };
  check("<a><b><c><d/></c></b></a>", errc::limit_depth, 9);
  check("<abcdefghij/>", errc::limit_name_length, 9);
  check("<a x='1' y='2' z='3'/>", errc::limit_attributes, 15);
  check("<a><b>1</b><b>2</b><b>3</b><b>4</b><b>5</b></a>", errc::limit_total_bytes, 40);
  lim.max_total_bytes = 0;
  check("<a xmlns:p='1' xmlns:q='2'><b xmlns:r='3'/></a>", errc::limit_namespaces, 30);
  EXPECT_TRUE(run("<a xmlns:p='1' xmlns:q='2'><b/><b/></a>").accepted());
  check("<a>123456</a>", errc::limit_text_length, 8);
  check("<a x='12345'/>", errc::limit_attribute_length, 10);
  check("<a x='1&amp;345'/>", errc::limit_attribute_length, 14);
  check("<a x='12\n\n5'/>", errc::limit_attribute_length, 10);
  EXPECT_TRUE(run("<a x='1234'/>").accepted());
  check("<a>      </a>                                        ", errc::limit_text_length, 8);
  EXPECT_TRUE(run("<a>12345</a>").accepted());
}

TEST(Reader, ErrorPositionHasLineAndColumn) {
  reader r;
  r.reset("<a>\n  <b>\n </c></a>");
  token t;
  while ((t = r.next()) != token::error && t != token::end_document) {
  }
  ASSERT_EQ(t, token::error);
  EXPECT_EQ(r.error().code, errc::tag_mismatch);
  EXPECT_EQ(r.error().where.line, 3u);
  EXPECT_EQ(r.error().where.column, 2u);
  EXPECT_EQ(r.error().where.offset, 11u);
  EXPECT_NE(r.error().message().find("tag_mismatch at line 3, column 2"), std::string::npos);
  EXPECT_EQ(r.next(), token::error);
}

TEST(Reader, WhereReportsTokenStart) {
  reader r;
  r.reset("<a>\n <b/>x</a>");
  ASSERT_EQ(r.next(), token::start_element);
  EXPECT_EQ(r.where().offset, 0u);
  ASSERT_EQ(r.next(), token::text);
  ASSERT_EQ(r.next(), token::start_element);
  EXPECT_EQ(r.where().offset, 5u);
  EXPECT_EQ(r.where().line, 2u);
  EXPECT_EQ(r.where().column, 2u);
}

TEST(Reader, SkipElement) {
  reader r;
  r.reset("<a><b><c>x</c><c/></b><d/></a>");
  ASSERT_EQ(r.next(), token::start_element);
  ASSERT_EQ(r.next(), token::start_element);
  ASSERT_EQ(r.local_name(), "b");
  ASSERT_EQ(r.skip_element(), token::end_element);
  EXPECT_EQ(r.local_name(), "b");
  ASSERT_EQ(r.next(), token::start_element);
  EXPECT_EQ(r.local_name(), "d");
}

TEST(Reader, UnreadGivesTheTagBack) {
  // A start tag (an empty element's too) and an end tag, given back: the next call of next()
  // returns them again with their views, next_simple_element() takes nothing meanwhile.
  reader r;
  r.reset(R"(<a xmlns="urn:a"><b k="v"/><c>1</c></a>)");
  ASSERT_EQ(r.next(), token::start_element);
  ASSERT_EQ(r.next(), token::start_element);
  r.unread(token::start_element);
  EXPECT_FALSE(r.next_simple_element("b"));
  ASSERT_EQ(r.next(), token::start_element);
  EXPECT_EQ(r.local_name(), "b");
  EXPECT_EQ(r.ns(), "urn:a");
  ASSERT_EQ(r.attributes().size(), 1u);
  EXPECT_TRUE(r.is_empty_element());
  ASSERT_EQ(r.next(), token::end_element);
  EXPECT_EQ(r.local_name(), "b");
  r.unread(token::end_element);
  ASSERT_EQ(r.next(), token::end_element);
  EXPECT_EQ(r.local_name(), "b");
  EXPECT_TRUE(r.next_simple_element("c"));
  EXPECT_EQ(r.text(), "1");
  ASSERT_EQ(r.next(), token::end_element);
  r.unread(token::end_element);
  ASSERT_EQ(r.next(), token::end_element);
  EXPECT_EQ(r.local_name(), "a");
  EXPECT_EQ(r.next(), token::end_document);
}

TEST(Reader, PushModeReportsNeedMore) {
  reader r;
  r.reset();
  EXPECT_EQ(r.next(), token::need_more);
  r.feed("<a>te");
  EXPECT_EQ(r.next(), token::start_element);
  EXPECT_EQ(r.next(), token::need_more);
  r.feed("xt</a>");
  EXPECT_EQ(r.next(), token::text);
  EXPECT_EQ(r.text(), "text");
  EXPECT_EQ(r.next(), token::end_element);
  EXPECT_EQ(r.next(), token::need_more);
  r.finish();
  EXPECT_EQ(r.next(), token::end_document);
}

// A token whose last byte has arrived is delivered at once, however the bytes were split:
// need_more never hides a complete token (the completion scan, not only size doubling).
TEST(Reader, CompleteTokenNeverWaitsForMoreInput) {
  reader r;
  r.reset();
  const std::string name(38, 'b');
  r.feed("<a><" + name + " x='>'");
  EXPECT_EQ(r.next(), token::start_element);
  EXPECT_EQ(r.next(), token::need_more);
  r.feed(">");
  ASSERT_EQ(r.next(), token::start_element);
  EXPECT_EQ(r.attributes()[0].value, ">");
  r.feed("some text that is long enough to be retried only on doubling <!-- c");
  EXPECT_EQ(r.next(), token::need_more);
  r.feed(" -->more<");
  EXPECT_EQ(r.next(), token::need_more);  // "<!" could still start a CDATA section
  r.feed("/");
  ASSERT_EQ(r.next(), token::text);
  EXPECT_EQ(r.text(), "some text that is long enough to be retried only on doubling more");
  EXPECT_EQ(r.next(), token::need_more);
  r.feed(name);
  EXPECT_EQ(r.next(), token::need_more);
  r.feed(">");
  EXPECT_EQ(r.next(), token::end_element);
}

// Every prefix of a document yields exactly the events whose tokens it completes: a start or
// end tag once its '>' arrived, a text run once the byte after its closing '<' arrived.
TEST(Reader, PushDeliversEverythingEachPrefixCompletes) {
  std::string doc =
      "<?xml version='1.0'?><s:E xmlns:s='urn:s'><s:B a='1&amp;2'>t&lt;x<![CDATA[c]]>"
      "<!-- k --><i/>tail</s:B>\n</s:E>";
  // Events of the whole document, each with the prefix length that completes it.
  std::vector<std::pair<std::string, std::size_t>> events;
  {
    reader r;
    r.reset(doc);
    for (token t = r.next(); t != token::end_document; t = r.next()) {
      ASSERT_NE(t, token::error);
      std::string e = std::to_string(static_cast<int>(t)) + ":" + std::string(r.local_name()) +
                      std::string(t == token::text ? r.text() : "");
      std::size_t needed = r.bytes_consumed() + (t == token::text ? 2 : 0);
      events.emplace_back(e, needed);
    }
  }
  for (std::size_t n = 0; n <= doc.size(); ++n) {
    reader r;
    r.reset();
    r.feed(std::string_view(doc).substr(0, n));
    std::string got, want;
    for (token t = r.next(); t != token::need_more; t = r.next()) {
      ASSERT_NE(t, token::error) << n;
      got += std::to_string(static_cast<int>(t)) + ":" + std::string(r.local_name()) +
             std::string(t == token::text ? r.text() : "") + "\n";
    }
    for (const auto& [e, needed] : events) {
      if (needed <= n) want += e + "\n";
    }
    EXPECT_EQ(got, want) << "prefix " << n;
  }
}

TEST(Reader, ReaderIsReusable) {
  reader r;
  for (int i = 0; i < 3; ++i) {
    trace_result t = run_reader(r, "<a xmlns='u'><b>1</b></a>", feed_mode::whole);
    EXPECT_EQ(t.events, "<{u}a\n<{u}b\nT1\n>\n>\n");
    t = run_reader(r, "<a xmlns='u'><b>1</b></a>", feed_mode::push, 2);
    EXPECT_EQ(t.events, "<{u}a\n<{u}b\nT1\n>\n>\n");
  }
}

TEST(Reader, NamespaceRedeclarationAndDuplicateDeclarations) {
  // Redeclaring a parent's prefix is legal; declaring one twice on the same tag is not.
  EXPECT_EQ(events_of("<a xmlns:p='u'><p:b xmlns:p='v' xmlns:q='w'/><p:c/></a>"),
            "<{}a\n<{v}b\n>\n<{u}c\n>\n>\n");
  expect_error("<a xmlns:p='u' xmlns:p='u'/>", errc::duplicate_attribute, 15);
  expect_error("<a xmlns:p='u'><b xmlns:q='v' xmlns:p='w' xmlns:q='x'/></a>",
               errc::duplicate_attribute, 42);
  const std::string xml_decl = "xmlns:xml='http://www.w3.org/XML/1998/namespace'";
  EXPECT_EQ(events_of("<a " + xml_decl + "/>"), "<{}a\n>\n");
  expect_error("<a " + xml_decl + " " + xml_decl + "/>", errc::duplicate_attribute,
               4 + xml_decl.size());
}

// Drives next_text_content() the way the binding does on every child of <r>: the text and end
// tag of a simple element in one call when possible, else the tokens next() gives.
std::string text_content_trace(reader& r) {
  std::string got;
  for (token t = r.next(); t != token::end_document; t = r.next()) {
    if (t == token::error) return got + "error " + describe(r.error().code);
    if (t != token::start_element || r.depth() != 2) continue;
    got += std::string(r.local_name()) + ":";
    t = r.next_text_content();
    if (t == token::end_element) {
      got += "end[" + std::string(r.text()) + "]" + (r.is_empty_element() ? " empty" : "") + "\n";
      continue;
    }
    if (t == token::text) got += "text[" + std::string(r.text()) + "]";
    while (t != token::end_element || r.depth() != 2) {
      t = r.next();
      if (t == token::error) return got + "error " + describe(r.error().code);
    }
    got += "\n";
  }
  return got;
}

TEST(Reader, NextTextContentReadsTextAndEndTagTogether) {
  const std::string doc =
      "<r xmlns:p='u'><p:b>12</p:b><c/><d></d><e>x&amp;y</e><f>t<g/></f><h> \t</h></r>";
  reader r;
  r.reset(doc);
  EXPECT_EQ(text_content_trace(r),
            "b:end[12]\nc:end[] empty\nd:end[]\ne:text[x&y]\nf:text[t]\nh:end[ \t]\n");
  // On the fused end tag: names, depth and position are those of the end tag.
  r.reset(doc);
  ASSERT_EQ(r.next(), token::start_element);
  ASSERT_EQ(r.next(), token::start_element);
  ASSERT_EQ(r.next_text_content(), token::end_element);
  EXPECT_TRUE(r.is("u", "b"));
  EXPECT_EQ(r.prefix(), "p");
  EXPECT_EQ(r.depth(), 2u);
  EXPECT_EQ(r.where().offset, doc.find("</p:b>"));
  EXPECT_EQ(r.next(), token::start_element);
  EXPECT_EQ(r.local_name(), "c");
  // Streamed a byte at a time, the tokens may come apart but say the same.
  std::size_t offset = 0;
  r.set_source([&](char* dest, std::size_t) {
    if (offset == doc.size()) return std::size_t{0};
    *dest = doc[offset++];
    return std::size_t{1};
  });
  r.reset();
  std::string streamed = text_content_trace(r);
  EXPECT_EQ(streamed.substr(0, 2), "b:");
  EXPECT_NE(streamed.find("\nc:end[] empty\nd:end[]\ne:text[x&y]\nf:text[t]\nh:"),
            std::string::npos)
      << streamed;
  r.set_source({});
  // A mismatched end tag is reported as next() reports it.
  r.reset("<r><b>1</c></r>");
  EXPECT_EQ(text_content_trace(r), std::string("b:text[1]error ") + describe(errc::tag_mismatch));
}

// next_simple_element() on each child of the root in turn: "leaf[text]" when it read the child
// whole (in namespace `ns`), else "next" (the child is then read with next()), or the error
// next() reports.
std::string simple_element_trace(reader& r, std::string_view ns, std::string_view local) {
  std::string got;
  if (r.next() != token::start_element) return "no root";
  for (;;) {
    if (r.next_simple_element(local)) {
      got += "leaf[" + std::string(r.text()) + "]";
      if (r.ns() != ns) got += "(in " + std::string(r.ns()) + ")";
      got += " ";
      continue;
    }
    token t = r.next();
    if (t == token::error) return got + std::string("error ") + describe(r.error().code);
    if (t == token::end_element && r.depth() == 1) return got;
    if (t != token::start_element) return got + "unexpected token";
    got += "next ";
    while (t != token::end_element || r.depth() != 2) {
      t = r.next();
      if (t == token::error) return got + std::string("error ") + describe(r.error().code);
    }
  }
}

TEST(Reader, NextSimpleElementReadsPlainChildrenWhole) {
  // Each child after the first shows one reason to take the general way.
  const std::string doc =
      "<p:r xmlns:p='urn:p' xmlns:q='urn:p'>"
      "<p:a>12</p:a>"                     // plain: read whole
      "<p:a x='1'>1</p:a>"                // attribute
      "<p:a>x&amp;y</p:a>"                // predefined entity: read whole, decoded
      "<p:a>&lt;&gt;&quot;&apos;</p:a>"   // the other four
      "<p:a>&#49;</p:a>"                  // character reference
      "<p:a>a&amp;b&#49;</p:a>"           // a character reference after a predefined one
      "<p:a>&amp;]</p:a>"                 // ']' after a reference
      "<p:a><![CDATA[c]]></p:a>"          // CDATA
      "<p:a><!--c-->1</p:a>"              // comment
      "<p:a >1</p:a>"                     // whitespace in the start tag
      "<p:a>1</p:a >"                     // whitespace in the end tag
      "<q:a>1</q:a>"                      // another prefix (even for the same namespace)
      "<a>1</a>"                          // no prefix
      "<p:ab>1</p:ab>"                    // a longer name
      "<pxa>1</pxa>"                      // the prefix, a byte other than ':', the name
      "<p:a/>"                            // empty-element tag
      "<p:a>\xC3\xA9</p:a>"               // non-ASCII text
      "<p:a>1\r\n</p:a>"                  // CR
      "<p:a>]</p:a>"                      // ']'
      "<p:a><p:a>1</p:a></p:a>"           // a child element
      "<p:a xmlns:p='urn:other'>1</p:a>"  // the prefix rebound on the tag
      "<p:a></p:a>"                       // plain and empty: read whole
      "</p:r>";
  reader r;
  r.reset(doc);
  EXPECT_EQ(simple_element_trace(r, "urn:p", "a"),
            "leaf[12] next leaf[x&y] leaf[<>\"'] next next next next next next next next next "
            "next next next next next next next next leaf[] ");
  // The child is in its parent's namespace; the local name must match exactly.
  r.reset("<p:r xmlns:p='urn:p'><p:a>1</p:a></p:r>");
  EXPECT_EQ(simple_element_trace(r, "urn:x", "a"), "leaf[1](in urn:p) ");
  r.reset("<p:r xmlns:p='urn:p'><p:a>1</p:a></p:r>");
  EXPECT_EQ(simple_element_trace(r, "urn:p", "b"), "next ");
  r.reset("<r><a>1</a></r>");  // no prefix on either: the parent's (no) namespace
  EXPECT_EQ(simple_element_trace(r, "", "a"), "leaf[1] ");
  r.reset("<r xmlns='urn:d'><a>1</a></r>");
  EXPECT_EQ(simple_element_trace(r, "urn:d", "a"), "leaf[1] ");

  // On the element read whole: names, depth and position are those of its end tag.
  r.reset(doc);
  ASSERT_EQ(r.next(), token::start_element);
  ASSERT_TRUE(r.next_simple_element("a"));
  EXPECT_TRUE(r.is("urn:p", "a"));
  EXPECT_EQ(r.prefix(), "p");
  EXPECT_EQ(r.text(), "12");
  EXPECT_EQ(r.depth(), 2u);
  EXPECT_FALSE(r.is_empty_element());
  EXPECT_TRUE(r.attributes().empty());
  EXPECT_EQ(r.where().offset, doc.find("</p:a>"));
  EXPECT_EQ(r.lookup_namespace("q"), "urn:p");
  ASSERT_EQ(r.next(), token::start_element);
  EXPECT_EQ(r.attributes().size(), 1u);
  // Not where an element may start: after an empty-element tag's start, or outside the root.
  r.reset("<r/>");
  ASSERT_EQ(r.next(), token::start_element);
  EXPECT_FALSE(r.next_simple_element("a"));
  ASSERT_EQ(r.next(), token::end_element);
  EXPECT_FALSE(r.next_simple_element("a"));
  EXPECT_EQ(r.next(), token::end_document);
  EXPECT_FALSE(r.next_simple_element("a"));
}

TEST(Reader, NextSimpleElementLeavesErrorsToNext) {
  // The end tag does not match: nothing is consumed, next() reports it where it always did.
  reader r;
  const std::string mismatch = "<p:r xmlns:p='urn:p'><p:a>1</p:ab></p:r>";
  r.reset(mismatch);
  EXPECT_EQ(simple_element_trace(r, "urn:p", "a"),
            std::string("next error ") + describe(errc::tag_mismatch));
  EXPECT_EQ(r.error().where.offset, mismatch.find("</p:ab>"));
  const std::string same_length = "<p:r xmlns:p='urn:p' xmlns:q='urn:p'><p:a>1</p:b></p:r>";
  r.reset(same_length);
  EXPECT_EQ(simple_element_trace(r, "urn:p", "a"),
            std::string("next error ") + describe(errc::tag_mismatch));
  EXPECT_EQ(r.error().where.offset, same_length.find("</p:b>"));
  r.reset("<p:r xmlns:p='urn:p' xmlns:q='urn:p'><p:a>1</q:a></p:r>");
  EXPECT_EQ(simple_element_trace(r, "urn:p", "a"),
            std::string("next error ") + describe(errc::tag_mismatch));
  r.reset("<r><a>1</a>");
  EXPECT_EQ(simple_element_trace(r, "", "a"),
            std::string("leaf[1] error ") + describe(errc::unexpected_eof));
  // References next() refuses, after one it decodes: reported by next(), where it reports them.
  struct refused {
    std::string doc;
    errc code;
    std::string_view at;
  };
  for (const refused& c : {refused{"<r><a>&amp;&bogus;</a></r>", errc::undefined_entity, "&bogus;"},
                           refused{"<r><a>&lt;&amp</a></r>", errc::bad_syntax, "</a>"},
                           refused{"<r><a>&lt;&#0;</a></r>", errc::bad_char_ref, "&#0;"}}) {
    r.reset(c.doc);
    EXPECT_EQ(simple_element_trace(r, "", "a"), std::string("next error ") + describe(c.code));
    EXPECT_EQ(r.error().where.offset, c.doc.find(c.at)) << c.doc;
  }
  // Limits that the element would cross: the general way reports them.
  limits lim;
  lim.max_depth = 1;
  reader shallow(lim);
  shallow.reset("<r><a>1</a></r>");
  EXPECT_EQ(simple_element_trace(shallow, "", "a"),
            std::string("error ") + describe(errc::limit_depth));
  lim = {};
  lim.max_name_length = 4;
  reader short_names(lim);
  short_names.reset("<r><abcd>1</abcd></r>");
  EXPECT_EQ(simple_element_trace(short_names, "", "abcd"), "leaf[1] ");
  short_names.reset("<r><a>1</a><abcde>1</abcde></r>");
  EXPECT_EQ(simple_element_trace(short_names, "", "abcde"),
            std::string("next error ") + describe(errc::limit_name_length));
  // An entity name is a name too: under a 3-byte limit "amp" passes and "quot" fails, as next()
  // decides.
  reader tiny_names(limits{.max_name_length = 3});
  tiny_names.reset("<r><a>&amp;</a><a>&quot;</a></r>");
  EXPECT_EQ(simple_element_trace(tiny_names, "", "a"),
            std::string("next next error ") + describe(errc::limit_name_length));
  lim = {};
  lim.max_text_length = 2;
  reader short_text(lim);
  short_text.reset("<r><a>12</a><a>123</a></r>");
  EXPECT_EQ(simple_element_trace(short_text, "", "a"),
            std::string("leaf[12] next error ") + describe(errc::limit_text_length));
  // The limit is on decoded text; references longer than the limit undecoded take next().
  short_text.reset("<r><a>&lt;</a><a>&amp;&amp;</a><a>&amp;&amp;&amp;</a></r>");
  EXPECT_EQ(simple_element_trace(short_text, "", "a"),
            std::string("next next next error ") + describe(errc::limit_text_length));
  lim = {};
  lim.max_total_bytes = 12;
  reader short_doc(lim);
  short_doc.reset("<r><a>1</a><a>2</a></r>");
  EXPECT_EQ(simple_element_trace(short_doc, "", "a"),
            std::string("leaf[1] error ") + describe(errc::limit_total_bytes));
}

TEST(Reader, NextSimpleElementStreamedSplitAnywhere) {
  // Every piece size (so a split at every byte of every tag), pushed and pulled: the elements
  // read whole or the general way give the same events as next() on the whole document.
  const std::string doc =
      "<x1:r xmlns:x1='urn:t'><x1:item><x1:varString>abc</x1:varString><x1:varInt>42</x1:varInt>"
      "<x1:s a='1'><x1:varInt>7</x1:varInt></x1:s><x1:varString></x1:varString></x1:item>"
      "<x1:item xmlns:x1='urn:u'><x1:varString>d&amp;e</x1:varString><x1:varInt>1</x1:varInt>"
      "<x1:varString>&lt;&quot;x&quot;&gt;</x1:varString><x1:varString>a&#38;</x1:varString>"
      "</x1:item></x1:r>";
  const std::vector<std::string> leaves = test::leaf_candidates(doc);
  ASSERT_GE(leaves.size(), 4u);
  const trace_result whole = run_reader(doc, feed_mode::whole);
  ASSERT_TRUE(whole.accepted());
  EXPECT_EQ(run_reader(doc, feed_mode::whole, 1, 1, leaves).events, whole.events);
  for (feed_mode m : {feed_mode::push, feed_mode::pull}) {
    for (int piece = 1; piece <= static_cast<int>(doc.size()); ++piece) {
      trace_result t = run_reader(doc, m, piece, 1, leaves);
      ASSERT_EQ(t.events, whole.events) << "mode " << int(m) << " piece " << piece;
      ASSERT_TRUE(t.accepted());
    }
  }
}

}  // namespace
}  // namespace lather::xml
