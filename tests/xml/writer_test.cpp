// Tests of lather::xml::output and lather::xml::writer: exact output, escaping, invalid
// characters, namespace prefix management, misuse, streaming sink, allocation count, and
// round trips: what the writer writes parses back to the same events with lather's reader and
// with expat (loaded with dlopen, so this test links nothing but lather_xml).
#include "lather/xml/writer.hpp"

#include <dlfcn.h>
#include <expat.h>
#include <gtest/gtest.h>

#include <charconv>
#include <chrono>
#include <cstring>
#include <ctime>
#include <functional>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lather/xml/reader.hpp"

#include "../../bench/xml/cxf_request.hpp"
#include "../support/alloc_counter.hpp"

namespace {

using lather::xml::errc;
using lather::xml::output;
using lather::xml::writer;

constexpr std::string_view ns_a = "urn:a";
constexpr std::string_view ns_b = "urn:b";

// "prefix" + number (spelled out: GCC 12 warns falsely on literal + std::string&&).
std::string numbered(std::string_view prefix, int n) {
  std::string s{prefix};
  s += std::to_string(n);
  return s;
}

template <class Fn>
std::string written(Fn&& fn) {
  output out;
  writer w{out};
  fn(w);
  return out.take();
}

template <class Fn>
errc failure(Fn&& fn) {
  output out;
  writer w{out};
  try {
    fn(w);
  } catch (const lather::xml::error& e) {
    return e.code();
  }
  return errc::ok;
}

// ---- output ------------------------------------------------------------------------------

TEST(XmlOutput, AppendsGrowsAndTakes) {
  output out;
  std::string expected;
  for (int i = 0; i < 1000; ++i) {
    out.append("abc");
    out.push_back('d');
    expected += "abcd";
  }
  char* p = out.prepare(3);
  p[0] = 'x';
  p[1] = 'y';
  out.commit(2);
  expected += "xy";
  EXPECT_EQ(out.view(), expected);
  EXPECT_EQ(out.size(), expected.size());
  EXPECT_EQ(out.take(), expected);
  EXPECT_EQ(out.size(), 0u);
}

TEST(XmlOutput, ClearKeepsCapacity) {
  output out;
  out.append(std::string(5000, 'a'));
  const char* before = out.view().data();
  out.clear();
  out.append(std::string(4000, 'b'));
  EXPECT_EQ(out.view().data(), before);
  EXPECT_EQ(out.view(), std::string(4000, 'b'));
}

TEST(XmlOutput, SinkCalledOnlyAtThresholdAndOnFlush) {
  output out;
  std::string received;
  int calls = 0;
  out.set_sink(
      [&](std::string_view s) {
        received += s;
        ++calls;
      },
      100);
  EXPECT_TRUE(out.has_sink());
  out.append(std::string(60, 'a'));
  out.maybe_flush();
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(out.flushed(), 0u);
  out.append(std::string(40, 'b'));
  out.maybe_flush();  // 100 buffered: hand them out
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(out.flushed(), 100u);
  EXPECT_EQ(out.size(), 0u);
  out.append("tail");
  out.flush();
  EXPECT_EQ(calls, 2);
  out.flush();  // nothing buffered: no call
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(received, std::string(60, 'a') + std::string(40, 'b') + "tail");
  EXPECT_EQ(out.flushed(), 104u);
  out.clear();
  EXPECT_EQ(out.flushed(), 0u);
  EXPECT_TRUE(out.has_sink());
  out.clear_sink();
  EXPECT_FALSE(out.has_sink());
}

TEST(XmlOutput, StreamingStaysBoundedByThreshold) {
  output out;
  std::size_t received = 0;
  out.set_sink([&](std::string_view s) { received += s.size(); }, 4096);
  const std::string piece(100, 'x');
  std::size_t largest = 0;
  for (int i = 0; i < 100000; ++i) {  // 10 MB through appends alone, no maybe_flush
    out.append(piece);
    largest = std::max(largest, out.size());
  }
  out.flush();
  EXPECT_EQ(received, 10'000'000u);
  EXPECT_LT(largest, 3u * 4096);
}

TEST(XmlOutput, MessageBelowThresholdIsNeverHandedOutEarly) {
  // The HTTP layer decides Content-Length vs chunked on flushed() == 0 at the end.
  output out;
  int calls = 0;
  out.set_sink([&](std::string_view) { ++calls; }, 4096);
  writer w{out};
  w.start_element("", "a");
  for (int i = 0; i < 100; ++i) {
    w.start_element("", "b");
    w.text("0123456789");
    w.end_element();
  }
  w.end_element();
  EXPECT_EQ(out.flushed(), 0u);
  EXPECT_EQ(calls, 0);
  EXPECT_GT(out.size(), 1000u);
}

TEST(XmlOutput, CopyAndMove) {
  output a;
  a.append("hello");
  output b{a};
  EXPECT_EQ(b.view(), "hello");
  b.append(" world");
  EXPECT_EQ(a.view(), "hello");
  output c{std::move(b)};
  EXPECT_EQ(c.view(), "hello world");
  EXPECT_EQ(b.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
  b.append("again");
  EXPECT_EQ(b.view(), "again");
  a = c;
  EXPECT_EQ(a.view(), "hello world");
  c = std::move(b);
  EXPECT_EQ(c.view(), "again");
}

// ---- elements, text, attributes ------------------------------------------------------------

TEST(XmlWriter, ElementsAndEmptyElements) {
  EXPECT_EQ(written([](writer& w) {
              w.xml_declaration();
              w.start_element("", "a");
              w.start_element("", "b");
              w.end_element();
              w.start_element("", "c");
              w.text("x");
              w.end_element();
              EXPECT_EQ(w.depth(), 1u);
              w.end_document();
              EXPECT_EQ(w.depth(), 0u);
            }),
            R"(<?xml version="1.0" encoding="UTF-8"?><a><b/><c>x</c></a>)");
}

TEST(XmlWriter, EndDocumentClosesEverything) {
  EXPECT_EQ(written([](writer& w) {
              w.start_element("", "a");
              w.start_element("", "b");
              w.text("t");
              w.start_element("", "c");
              w.end_document();
            }),
            "<a><b>t<c/></b></a>");
}

// text_element(ns, name, s) must write exactly what start_element + text + end_element write,
// whether it takes its fast path (same namespace as the parent, nothing declared since) or not.
TEST(XmlWriter, TextElementIsStartTextEnd) {
  using lather::xml::ncname;
  auto document = [](bool one_call) {
    return written([one_call](writer& w) {
      auto write_leaf = [&](std::string_view ns, std::string_view text) {
        if (one_call) {
          w.text_element(ns, ncname("v"), text);
        } else {
          w.start_element(ns, ncname("v"));
          w.text(text);
          w.end_element();
        }
      };
      w.start_element(ns_a, "r");
      write_leaf(ns_a, "a&b<c>\r");  // same namespace as the parent: fast path
      write_leaf(ns_a, "");          // empty: <ns1:v/>
      write_leaf(ns_b, "x");         // other namespace: declared on the leaf
      write_leaf("", "y");           // no namespace
      w.start_element(ns_a, "p");
      (void)w.prefix_for(ns_b);  // a declaration on the parent: no fast path
      write_leaf(ns_a, "z");
      write_leaf(ns_b, "z");
      w.end_element();
      w.declare_namespace("d", ns_a);  // pending declaration: no fast path
      write_leaf(ns_a, "w");
      w.start_element("", "q");
      write_leaf(ns_a, std::string(70000, 'l'));  // long text: sliced
      w.end_document();
    });
  };
  const std::string expected = document(false);
  EXPECT_EQ(document(true), expected);
  EXPECT_EQ(
      expected.substr(0, 86),
      R"(<ns1:r xmlns:ns1="urn:a"><ns1:v>a&amp;b&lt;c&gt;&#13;</ns1:v><ns1:v/><ns2:v xmlns:ns2=)");
  EXPECT_EQ(failure([](writer& w) {
              w.start_element(ns_a, "r");
              w.text_element(ns_a, lather::xml::ncname("v"), "bad \x01");
            }),
            errc::writer_invalid_char);
}

// A leaf's text is copied into the output and scanned there: escaping must start exactly at the
// first byte that needs it, wherever that falls (every offset of several 16-byte blocks, around
// the 1 KiB bound of the one-capacity-check path), and an invalid character must be reported
// at the same offset as by text().
TEST(XmlWriter, TextElementEscapesFromEveryOffset) {
  using lather::xml::ncname;
  auto both = [](const std::string& text) {
    std::pair<std::string, std::string> docs;
    for (bool one_call : {true, false}) {
      std::string doc;
      output out;
      writer w{out};
      try {
        w.start_element(ns_a, "r");
        if (one_call) {
          w.text_element(ns_a, ncname("v"), text);
        } else {
          w.start_element(ns_a, ncname("v"));
          w.text(text);
          w.end_element();
        }
        w.end_document();
        doc = out.take();
      } catch (const lather::xml::error& e) {
        doc = "error at " + std::to_string(e.where().offset);
      }
      (one_call ? docs.first : docs.second) = doc;
    }
    return docs;
  };
  for (std::size_t len : {1, 2, 15, 16, 17, 31, 32, 33, 48, 64, 1000, 1023, 1024, 1025}) {
    for (std::string_view special : {"<", "&", ">", "\r", "\xC3\xA9", "\x01", "\xFF"}) {
      for (std::size_t at = 0; at<len; at += len> 70 ? 61 : 1) {
        std::string s(len, 'x');
        s.replace(at, 1, special);
        const auto [one, three] = both(s);
        EXPECT_EQ(one, three) << len << " " << at;
      }
    }
  }
  EXPECT_EQ(both(std::string(1024, 'x')).first,
            R"(<ns1:r xmlns:ns1="urn:a"><ns1:v>)" + std::string(1024, 'x') + "</ns1:v></ns1:r>");
}

// The tags of leaves with static names are appended from a cache of their bytes: it must
// follow the prefix each one is written with (rebound prefixes, a namespace shadowed by a
// rebinding, other prefixes in the next document) and give way to names and prefixes too long
// for it and to more names than it holds.
TEST(XmlWriter, CachedTagsFollowTheirPrefix) {
  using lather::xml::ncname;
  output out;
  writer w{out};
  auto leaf = [&](std::string_view ns) { w.text_element(ns, ncname("leaf"), "t"); };
  w.declare_namespace("p", ns_a);
  w.start_element(ns_a, ncname("root"));
  leaf(ns_a);
  w.declare_namespace("p", ns_b);  // rebinding p: urn:a is now out of scope
  w.start_element(ns_b, ncname("inner"));
  leaf(ns_b);
  w.start_element(ns_a, ncname("inner"));
  leaf(ns_a);
  w.end_element();
  w.end_element();
  leaf(ns_a);
  w.end_document();
  EXPECT_EQ(out.take(),
            R"(<p:root xmlns:p="urn:a"><p:leaf>t</p:leaf><p:inner xmlns:p="urn:b">)"
            R"(<p:leaf>t</p:leaf><ns1:inner xmlns:ns1="urn:a"><ns1:leaf>t</ns1:leaf></ns1:inner>)"
            R"(</p:inner><p:leaf>t</p:leaf></p:root>)");

  // The next document on the same writer: other prefixes for the same names.
  w.reset();
  w.declare_namespace("q", ns_a);
  w.start_element(ns_a, ncname("root"));
  leaf(ns_a);
  w.start_element("", ncname("root"));
  w.end_element();
  w.declare_namespace("", ns_b);
  w.start_element(ns_b, ncname("root"));
  leaf(ns_b);
  w.end_document();
  EXPECT_EQ(out.take(), R"(<q:root xmlns:q="urn:a"><q:leaf>t</q:leaf><root/>)"
                        R"(<root xmlns="urn:b"><leaf>t</leaf></root></q:root>)");

  // Long prefixes and names are not cached; 80 distinct names overflow the cache (it holds
  // 64): the same bytes as with run-time names, which never use it.
  static constexpr auto many = [] {
    std::array<std::array<char, 4>, 80> a{};
    for (std::size_t i = 0; i < a.size(); ++i)
      a[i] = {'n', static_cast<char>('0' + i / 10), static_cast<char>('0' + i % 10), 0};
    return a;
  }();
  static constexpr std::string_view long_name = "a_name_of_more_than_forty_bytes_in_all_xyz";
  auto document = [&](bool static_names) {
    w.reset();
    w.declare_namespace("prefix_longer_than_seven", ns_b);
    w.start_element(ns_a, ncname("root"));
    for (int round = 0; round < 2; ++round) {
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        if (static_names) {
          (w.text_element(ns_a, ncname(std::string_view(many[I].data(), 3)), "v"), ...);
        } else {
          ((w.start_element(ns_a, std::string_view(many[I].data(), 3)), w.text("v"),
            w.end_element()),
           ...);
        }
      }
      (std::make_index_sequence<many.size()>{});
      for (std::string_view ns : {ns_a, ns_b}) {
        if (static_names) {
          w.start_element(ns, ncname(long_name));
          w.text_element(ns, ncname(long_name), "v");
          w.text_element(ns, ncname("short"), "");
        } else {
          w.start_element(ns, long_name);
          w.start_element(ns, long_name);
          w.text("v");
          w.end_element();
          w.start_element(ns, "short");
          w.end_element();
        }
        w.end_element();
      }
    }
    w.end_document();
    return out.take();
  };
  const std::string expected = document(false);
  EXPECT_EQ(document(true), expected);
  EXPECT_NE(expected.find("<ns1:n79>v</ns1:n79>"), std::string::npos);
  EXPECT_NE(expected.find("<prefix_longer_than_seven:short/>"), std::string::npos);
}

TEST(XmlWriter, TextEscaping) {
  EXPECT_EQ(written([](writer& w) {
              w.start_element("", "a");
              w.text("a&b<c>d\"e'f\rg\th\ni]]>j");
              w.end_document();
            }),
            "<a>a&amp;b&lt;c&gt;d\"e'f&#13;g\th\ni]]&gt;j</a>");
}

TEST(XmlWriter, AttributeEscaping) {
  EXPECT_EQ(written([](writer& w) {
              w.start_element("", "a");
              w.attribute("", "v", "a&b<c>d\"e'f\rg\th\ni");
              w.attribute("", "empty", "");
              w.end_document();
            }),
            R"(<a v="a&amp;b&lt;c>d&quot;e'f&#13;g&#9;h&#10;i" empty=""/>)");
}

TEST(XmlWriter, EscapingAtEverySimdOffset) {
  // Special characters at every position of runs longer than one 16-byte vector.
  for (std::size_t len = 1; len < 48; ++len) {
    for (std::size_t at = 0; at < len; ++at) {
      std::string s(len, 'x');
      s[at] = '<';
      std::string expected = s;
      expected.replace(at, 1, "&lt;");
      const std::string doc = written([&](writer& w) {
        w.start_element("", "a");
        w.attribute("", "v", s);
        w.text(s);
        w.end_document();
      });
      EXPECT_EQ(doc, "<a v=\"" + expected + "\">" + expected + "</a>") << len << " " << at;
    }
  }
}

TEST(XmlWriter, MultibyteUtf8PassesThrough) {
  const std::string s = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xEF\xBF\xBD \xED\x9F\xBF";
  EXPECT_EQ(written([&](writer& w) {
              w.start_element("", "a");
              w.attribute("", "v", s);
              w.text(s);
              w.end_document();
            }),
            "<a v=\"" + s + "\">" + s + "</a>");
}

TEST(XmlWriter, Cdata) {
  EXPECT_EQ(written([](writer& w) {
              w.start_element("", "a");
              w.cdata("x<&>]]>y]]z\r");
              w.end_document();
            }),
            "<a><![CDATA[x<&>]]]]><![CDATA[>y]]z]]>&#13;<![CDATA[]]></a>");
}

TEST(XmlWriter, RawIsVerbatimAndClosesTheStartTag) {
  EXPECT_EQ(written([](writer& w) {
              w.start_element("", "a");
              w.raw("<b>&amp;</b>");
              w.end_document();
            }),
            "<a><b>&amp;</b></a>");
}

TEST(XmlWriter, LongTextIsStreamedInSlices) {
  output out;
  std::string received;
  std::size_t largest_hand_out = 0;
  out.set_sink(
      [&](std::string_view s) {
        received += s;
        largest_hand_out = std::max(largest_hand_out, s.size());
      },
      4096);
  writer w{out};
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "ab\xC3\xA9&";  // 500 KB with multibyte characters
  w.start_element("", "a");
  w.text(text);
  w.end_document();
  std::string expected_text;
  for (int i = 0; i < 100000; ++i) expected_text += "ab\xC3\xA9&amp;";
  EXPECT_EQ(received, "<a>" + expected_text + "</a>");
  EXPECT_LT(largest_hand_out, 200u * 1024);
}

// ---- invalid characters --------------------------------------------------------------------

std::vector<std::string> invalid_sequences() {
  std::vector<std::string> v;
  for (int c = 0; c < 0x20; ++c)
    if (c != '\t' && c != '\n' && c != '\r') v.emplace_back(1, static_cast<char>(c));
  v.push_back("\xEF\xBF\xBE");      // U+FFFE
  v.push_back("\xEF\xBF\xBF");      // U+FFFF
  v.push_back("\xED\xA0\x80");      // lone high surrogate U+D800
  v.push_back("\xED\xBF\xBF");      // lone low surrogate U+DFFF
  v.push_back("\xC0\x80");          // overlong U+0000
  v.push_back("\xC1\xBF");          // overlong
  v.push_back("\xE0\x80\xAF");      // overlong
  v.push_back("\xF0\x80\x80\xAF");  // overlong
  v.push_back("\xF4\x90\x80\x80");  // > U+10FFFF
  v.push_back("\xF5\x80\x80\x80");  // invalid lead
  v.push_back("\xFF");              // invalid byte
  v.push_back("\x80");              // lone continuation
  v.push_back("\xC3");              // truncated
  v.push_back("\xE2\x82");          // truncated
  v.push_back("\xF0\x9F\x98");      // truncated
  v.push_back("\xC3\x28");          // bad continuation
  return v;
}

TEST(XmlWriter, RejectsEveryInvalidCharacterEverywhere) {
  for (const std::string& bad : invalid_sequences()) {
    for (std::size_t at : {0u, 5u, 15u, 16u, 31u, 40u}) {
      std::string s(at, 'x');
      s += bad;
      s += "yy";
      EXPECT_EQ(failure([&](writer& w) {
                  w.start_element("", "a");
                  w.text(s);
                }),
                errc::writer_invalid_char)
          << "text, offset " << at << ", byte " << int(static_cast<unsigned char>(bad[0]));
      EXPECT_EQ(failure([&](writer& w) {
                  w.start_element("", "a");
                  w.attribute("", "v", s);
                }),
                errc::writer_invalid_char)
          << "attribute, offset " << at;
      EXPECT_EQ(failure([&](writer& w) {
                  w.start_element("", "a");
                  w.cdata(s);
                }),
                errc::writer_invalid_char)
          << "cdata, offset " << at;
    }
  }
  // A truncated sequence at the very end of the input.
  EXPECT_EQ(failure([](writer& w) {
              w.start_element("", "a");
              w.text("abc\xE2");
            }),
            errc::writer_invalid_char);
  // Namespace URIs are attribute values too.
  EXPECT_EQ(failure([](writer& w) { w.start_element(std::string_view("urn:\0", 5), "a"); }),
            errc::writer_invalid_char);
}

TEST(XmlWriter, InvalidCharacterErrorCarriesOffset) {
  output out;
  writer w{out};
  w.start_element("", "a");
  try {
    w.text(std::string("abc\x01", 4));
    FAIL() << "no exception";
  } catch (const lather::xml::error& e) {
    EXPECT_EQ(e.code(), errc::writer_invalid_char);
    EXPECT_EQ(e.where().offset, 6u);  // "<a>abc" written before the bad byte
  }
}

// ---- namespaces ----------------------------------------------------------------------------

TEST(XmlWriterNs, DeclaredPrefixIsUsedAndInnermostWins) {
  EXPECT_EQ(written([](writer& w) {
              w.declare_namespace("p", ns_a);
              w.start_element(ns_a, "r");
              w.declare_namespace("q", ns_a);  // on the open tag: innermost from now on
              w.start_element(ns_a, "c");
              w.end_element();
              w.end_document();
            }),
            R"(<p:r xmlns:p="urn:a" xmlns:q="urn:a"><q:c/></p:r>)");
}

TEST(XmlWriterNs, FreshPrefixIsScopedToItsElementAndReusedPerDocument) {
  EXPECT_EQ(written([](writer& w) {
              w.start_element("", "r");
              w.start_element(ns_a, "x");
              w.start_element(ns_a, "y");
              w.end_element();
              w.end_element();
              w.start_element(ns_a, "x");  // sibling: redeclared, same prefix as before
              w.start_element(ns_b, "z");
              w.end_element();
              w.end_element();
              w.start_element(ns_b, "z");
              w.end_element();
              w.end_document();
            }),
            R"(<r><ns1:x xmlns:ns1="urn:a"><ns1:y/></ns1:x>)"
            R"(<ns1:x xmlns:ns1="urn:a"><ns2:z xmlns:ns2="urn:b"/></ns1:x>)"
            R"(<ns2:z xmlns:ns2="urn:b"/></r>)");
}

TEST(XmlWriterNs, GeneratedPrefixAvoidsUserPrefixes) {
  EXPECT_EQ(written([](writer& w) {
              w.declare_namespace("ns1", ns_b);
              w.start_element(ns_b, "r");
              w.start_element(ns_a, "x");
              w.end_document();
            }),
            R"(<ns1:r xmlns:ns1="urn:b"><ns2:x xmlns:ns2="urn:a"/></ns1:r>)");
}

TEST(XmlWriterNs, ShadowedPrefixIsNotReused) {
  EXPECT_EQ(
      written([](writer& w) {
        w.declare_namespace("p", ns_a);
        w.start_element(ns_a, "r");
        w.start_element("", "x");
        w.end_element();
        w.declare_namespace("p", ns_b);  // no open tag: goes on the next one
        w.start_element(ns_b, "s");
        w.start_element(ns_a, "t");  // p means urn:b here: needs another prefix
        w.end_document();
      }),
      R"(<p:r xmlns:p="urn:a"><x/><p:s xmlns:p="urn:b"><ns1:t xmlns:ns1="urn:a"/></p:s></p:r>)");
}

TEST(XmlWriterNs, DefaultNamespace) {
  EXPECT_EQ(written([](writer& w) {
              w.declare_namespace("", ns_a);
              w.start_element(ns_a, "r");
              w.attribute(ns_a, "at", "1");  // attributes never take the default namespace
              w.attribute("", "plain", "2");
              w.start_element("", "local");  // no namespace under a default: xmlns=""
              w.start_element("", "deeper");
              w.end_element();
              w.end_element();
              w.start_element(ns_a, "c");
              w.end_document();
            }),
            R"(<r xmlns="urn:a" xmlns:ns1="urn:a" ns1:at="1" plain="2">)"
            R"(<local xmlns=""><deeper/></local><ns1:c/></r>)");  // ns1 is the innermost
}

TEST(XmlWriterNs, NamespacedAttributesAndXmlPrefix) {
  EXPECT_EQ(written([](writer& w) {
              w.declare_namespace("xsi", "http://www.w3.org/2001/XMLSchema-instance");
              w.start_element("", "r");
              w.attribute("http://www.w3.org/2001/XMLSchema-instance", "nil", "true");
              w.attribute("http://www.w3.org/XML/1998/namespace", "lang", "en");
              w.attribute(ns_b, "x", "1");
              w.end_document();
            }),
            R"(<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true" )"
            R"(xml:lang="en" xmlns:ns1="urn:b" ns1:x="1"/>)");
}

// XML Namespaces 1.0, "Uniqueness of Attributes": no two attributes of one start tag with the
// same name or the same expanded name. The refused attribute is not written, and the writer
// goes on.
// Checked names made outside the lambdas below: clang 14 crashes generating a consteval
// constructor's call inside a lambda under -fsanitize=address,undefined.
constexpr lather::xml::ncname checked_id{"id"};
constexpr lather::xml::ncname checked_nil{"nil"};

TEST(XmlWriterNs, DuplicateAttributesAreRefused) {
  const std::string xsi = "http://www.w3.org/2001/XMLSchema-instance";
  auto refused_second = [](const std::function<void(writer&)>& first_and_second) {
    output out;
    writer w{out};
    w.start_element(ns_a, "r");
    std::string before;
    try {
      first_and_second(w);
    } catch (const lather::xml::error& e) {
      EXPECT_EQ(e.code(), errc::duplicate_attribute) << e.what();
      w.attribute({}, "after", "1");  // still usable
      w.end_document();
      return out.take();
    }
    ADD_FAILURE() << "not refused: " << out.view();
    return std::string{};
  };
  // The same name in no namespace: checked names, names checked per call, mixed.
  EXPECT_EQ(refused_second([](writer& w) {
              w.attribute({}, checked_id, "1");
              w.attribute({}, checked_id, "2");
            }),
            R"(<ns1:r xmlns:ns1="urn:a" id="1" after="1"/>)");
  EXPECT_EQ(refused_second([](writer& w) {
              std::string name = "id";
              w.attribute({}, name, "1");
              name = "xx";  // the writer keeps its own copy of a name checked per call
              w.attribute({}, "other", "2");
              w.attribute({}, std::string{"id"}, "3");
            }),
            R"(<ns1:r xmlns:ns1="urn:a" id="1" other="2" after="1"/>)");
  // The same namespace and local name: the SOAP header case, an entry's copied
  // soap:mustUnderstand and one of the writer's own (one prefix, or two of one URI).
  EXPECT_EQ(refused_second([&](writer& w) {
              w.attribute(xsi, checked_nil, "true");
              w.attribute(ns_b, "at", "1");
              w.attribute(xsi, "nil", "true");
            }),
            R"(<ns1:r xmlns:ns1="urn:a" xmlns:ns2="http://www.w3.org/2001/XMLSchema-instance" )"
            R"(ns2:nil="true" xmlns:ns3="urn:b" ns3:at="1" after="1"/>)");
  EXPECT_EQ(refused_second([](writer& w) {
              w.declare_namespace("p", ns_b);
              w.attribute(ns_b, "at", "1");
              w.declare_namespace("q", ns_b);  // {urn:b}at would now be q:at
              w.attribute(ns_b, "at", "2");
            }),
            R"(<ns1:r xmlns:ns1="urn:a" xmlns:p="urn:b" p:at="1" xmlns:q="urn:b" after="1"/>)");
  EXPECT_EQ(refused_second([](writer& w) {
              w.attribute("http://www.w3.org/XML/1998/namespace", "lang", "en");
              w.attribute("http://www.w3.org/XML/1998/namespace", "lang", "fr");
            }),
            R"(<ns1:r xmlns:ns1="urn:a" xml:lang="en" after="1"/>)");
  // One local name in two namespaces, or in one and none, is not a duplicate; neither is the
  // same name on a child or a sibling.
  EXPECT_EQ(written([&](writer& w) {
              w.start_element({}, "r");
              w.attribute({}, "a", "1");
              w.attribute(ns_a, "a", "2");
              w.attribute(ns_b, "a", "3");
              w.start_element({}, "c");
              w.attribute({}, "a", "4");
              w.attribute(ns_a, "a", "5");
              w.end_element();
              w.start_element({}, "c");
              w.attribute({}, "a", "6");
              w.end_document();
            }),
            R"(<r a="1" xmlns:ns1="urn:a" ns1:a="2" xmlns:ns2="urn:b" ns2:a="3">)"
            R"(<c a="4" ns1:a="5"/><c a="6"/></r>)");
  // Namespace declarations: one prefix twice on a tag is written once or refused.
  EXPECT_EQ(written([](writer& w) {
              w.declare_namespace("p", ns_a);
              w.declare_namespace("p", ns_a);
              w.declare_namespace("", ns_b);
              w.declare_namespace("", ns_b);
              w.start_element(ns_b, "r");
              w.declare_namespace("p", ns_a);
              w.declare_namespace("", ns_b);
              w.end_document();
            }),
            R"(<r xmlns:p="urn:a" xmlns="urn:b"/>)");
  EXPECT_EQ(failure([](writer& w) {
              w.start_element({}, "r");
              w.declare_namespace("p", ns_a);
              w.declare_namespace("p", ns_b);
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) {
              w.start_element(ns_a, "r");  // declares ns1
              w.declare_namespace("ns1", ns_b);
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.attribute({}, "xmlns", "urn:a"); }), errc::writer_bad_state);
}

TEST(XmlWriterNs, PrefixForDeclaresOnOpenTag) {
  EXPECT_EQ(written([](writer& w) {
              w.start_element(ns_a, "r");
              EXPECT_EQ(w.prefix_for(ns_a), "ns1");
              const std::string p{w.prefix_for(ns_b)};
              w.attribute("", "type", p + ":T");
              w.text(p);
              w.text(":v");
              EXPECT_EQ(w.prefix_for(ns_b), "ns2");  // now in scope: no new declaration
              w.end_document();
            }),
            R"(<ns1:r xmlns:ns1="urn:a" xmlns:ns2="urn:b" type="ns2:T">ns2:v</ns1:r>)");
}

TEST(XmlWriterNs, PrefixForDefaultAndNoNamespace) {
  EXPECT_EQ(written([](writer& w) {
              w.declare_namespace("", ns_a);
              w.start_element(ns_a, "r");
              EXPECT_EQ(w.prefix_for(ns_a), "");
              w.start_element(ns_b, "s");
              EXPECT_EQ(w.prefix_for(""), "");  // undeclares the default on <ns1:s>
              w.end_document();
            }),
            R"(<r xmlns="urn:a"><ns1:s xmlns:ns1="urn:b" xmlns=""/></r>)");
  EXPECT_EQ(failure([](writer& w) {
              w.declare_namespace("", ns_a);
              w.start_element(ns_a, "r");
              w.prefix_for("");  // <r> itself is in the default namespace
            }),
            errc::writer_bad_state);
}

TEST(XmlWriterNs, PrefixInScopeNeverDeclares) {
  EXPECT_EQ(written([](writer& w) {
              w.declare_namespace("a", ns_a);
              w.declare_namespace("", ns_b);
              w.start_element(ns_a, "r");
              EXPECT_EQ(w.prefix_in_scope(ns_a), "a");
              EXPECT_EQ(w.prefix_in_scope(ns_b), std::nullopt);  // only the default maps to it
              EXPECT_EQ(w.prefix_in_scope("urn:unbound"), std::nullopt);
              EXPECT_EQ(w.prefix_in_scope(""), std::nullopt);
              EXPECT_EQ(w.prefix_in_scope("http://www.w3.org/XML/1998/namespace"), "xml");
              w.raw("");                              // close <a:r>: aim at the next tag
              w.declare_namespace("a", "urn:other");  // shadows a on the next tag
              w.start_element(ns_b, "s");
              EXPECT_EQ(w.prefix_in_scope(ns_a), std::nullopt);
              EXPECT_EQ(w.prefix_in_scope("urn:other"), "a");
              w.end_element();
              EXPECT_EQ(w.prefix_in_scope(ns_a), "a");
              w.declare_namespace("q", "urn:q");
              EXPECT_EQ(w.prefix_in_scope(ns_a), std::nullopt);  // pending: could rebind it
              w.start_element(ns_a, "t");
              EXPECT_EQ(w.prefix_in_scope("urn:q"), "q");
              w.end_document();
            }),
            R"(<a:r xmlns:a="urn:a" xmlns="urn:b"><s xmlns:a="urn:other"/>)"
            R"(<a:t xmlns:q="urn:q"/></a:r>)");
}

// prefix_in_scope keeps its last answer while no binding is pushed or popped: asked again after
// a rebinding, a prefix_for() declaration, an element's end or in the next document, it must
// answer afresh.
TEST(XmlWriterNs, PrefixInScopeAnswersAfreshAfterBindingsChange) {
  output out;
  writer w{out};
  w.declare_namespace("a", ns_a);
  w.start_element(ns_a, "r");
  EXPECT_EQ(w.prefix_in_scope(ns_a), "a");
  EXPECT_EQ(w.prefix_in_scope(ns_a), "a");
  EXPECT_EQ(w.prefix_in_scope(ns_b), std::nullopt);
  EXPECT_EQ(w.prefix_for(ns_b), "ns1");  // declared on <a:r>
  EXPECT_EQ(w.prefix_in_scope(ns_b), "ns1");
  w.raw("");
  w.declare_namespace("b", ns_a);
  w.start_element(ns_a, "s");
  EXPECT_EQ(w.prefix_in_scope(ns_a), "b");  // the innermost binding
  w.end_element();
  EXPECT_EQ(w.prefix_in_scope(ns_a), "a");
  w.end_document();
  w.reset();
  w.declare_namespace("c", ns_a);
  w.start_element(ns_b, "r");
  EXPECT_EQ(w.prefix_in_scope(ns_a), "c");
  EXPECT_EQ(w.prefix_in_scope(ns_b), "ns1");
  w.end_document();
}

// qname_element(ns, name, value_ns, value_local) must write what the binding wrote before it
// existed: a leaf with the prefix in scope (prefix_in_scope), else start_element, prefix_for
// (declared on the leaf itself), text and end_element. It remembers the declaration it made
// while no binding changes; each case below checks that memory against the long way.
TEST(XmlWriterNs, QNameElementIsStartPrefixTextEnd) {
  using lather::xml::ncname;
  static constexpr std::string_view value_ns = "http://cxf.apache.org";
  auto document = [](bool one_call, writer& w) {
    auto qname = [&](std::string_view ns, std::string_view vns, std::string_view local) {
      if (one_call) return w.qname_element(ns, ncname("q"), vns, local);
      if (const auto p = w.prefix_in_scope(vns))
        return w.text_element(ns, ncname("q"), std::string(*p) + ":" + std::string(local));
      w.start_element(ns, ncname("q"));
      const std::string p{w.prefix_for(vns)};
      w.text(p.empty() ? std::string(local) : p + ":" + std::string(local));
      w.end_element();
    };
    w.reset();
    w.declare_namespace("ns2", "urn:taken");  // the generated prefix must skip ns2
    w.start_element(ns_a, "r");
    for (int i = 0; i < 3; ++i) qname(ns_a, value_ns, "return");  // declared on each leaf
    qname(ns_a, value_ns, "a&b<c");                               // escaped local part
    qname(ns_a, value_ns, std::string(2000, 'l'));                // too long for one go
    qname(ns_a, "urn:taken", "t");                                // in scope
    qname(ns_a, "http://www.w3.org/XML/1998/namespace", "lang");  // xml
    qname(ns_a, ns_a, "self");                                    // the leaf's own namespace
    qname(ns_a, "urn:a&b", "e");                                  // a URI to escape
    qname(ns_a, "", "none");                                      // no namespace
    qname(ns_b, value_ns, "other");                               // leaf in another namespace
    w.start_element(ns_a, "s");
    (void)w.prefix_for(value_ns);  // declared on <s>, in scope below
    qname(ns_a, value_ns, "return");
    w.start_element(ns_a, "s");
    qname(ns_a, value_ns, "return");
    w.end_element();
    w.end_element();
    qname(ns_a, value_ns, "return");  // out of scope again
    w.start_element(ns_a, "t");
    w.raw("");
    w.declare_namespace("x", value_ns);  // pending: no leaf path
    qname(ns_a, value_ns, "return");
    w.end_element();
    w.declare_namespace("", "urn:d");  // a default namespace the value can use
    w.start_element("urn:d", "u");
    qname("urn:d", "urn:d", "dflt");
    qname("urn:d", value_ns, "return");
    w.end_document();
    w.reset();  // a new document: ns1 is free again, the memory must not carry over
    w.start_element(value_ns, "r");
    qname(value_ns, value_ns, "return");
    qname(value_ns, "urn:z", "z");
    w.end_document();
  };
  std::string docs[2];
  for (bool one_call : {false, true}) {
    output out;
    writer w{out};
    document(one_call, w);
    document(one_call, w);  // a warm writer, as a server's
    docs[one_call] = out.take();
  }
  EXPECT_EQ(docs[1], docs[0]);
  EXPECT_NE(docs[0].find(R"(<ns1:q xmlns:ns3="http://cxf.apache.org">ns3:return</ns1:q>)"),
            std::string::npos);
  EXPECT_NE(docs[0].find(R"(<ns1:q xmlns:ns4="urn:a&amp;b">ns4:e</ns1:q>)"), std::string::npos);
  EXPECT_EQ(failure([](writer& w) {
              w.start_element(ns_a, "r");
              w.qname_element(ns_a, ncname("q"), "http://www.w3.org/2000/xmlns/", "x");
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) {
              w.start_element(ns_a, "r");
              w.qname_element(ns_a, ncname("q"), "urn:bad\x01", "x");
            }),
            errc::writer_invalid_char);
}

// formatted_element(ns, name, max, format, context) must write what text_element writes for the
// same text, on every path: the parent's prefix (cached tag or not), a frame of its own, empty.
TEST(XmlWriter, FormattedElementIsTextElement) {
  using lather::xml::ncname;
  auto document = [](bool formatted) {
    return written([formatted](writer& w) {
      auto leaf = [&](std::string_view ns, std::string_view text) {
        if (!formatted) return w.text_element(ns, ncname("v"), text);
        w.formatted_element(
            ns, ncname("v"), text.size() + 3,
            [](const void* t, char* dst) {
              const auto& s = *static_cast<const std::string_view*>(t);
              std::memcpy(dst, s.data(), s.size());
              return s.size();
            },
            &text);
      };
      w.start_element(ns_a, "r");
      leaf(ns_a, "123");
      leaf(ns_a, "");
      leaf(ns_a, std::string(5000, '7'));
      leaf(ns_b, "4");  // a frame of its own
      leaf(ns_b, "");
      leaf("", "5");
      w.declare_namespace("averylongprefix", ns_b);  // a prefix too long for the tag cache
      w.start_element(ns_b, "s");
      leaf(ns_b, "6");
      leaf(ns_b, "");
      w.end_element();
      w.start_element(ns_a, "t");
      (void)w.prefix_for(ns_b);  // a declaration on the parent: no leaf path
      leaf(ns_a, "8");
      leaf(ns_a, "");
      w.end_document();
    });
  };
  const std::string expected = document(false);
  EXPECT_EQ(document(true), expected);
  EXPECT_EQ(expected.substr(0, 55), R"(<ns1:r xmlns:ns1="urn:a"><ns1:v>123</ns1:v><ns1:v/><ns1)");
}

// A leaf_namespace keeps the prefix its first leaf resolved while the writer pushes and pops
// no binding: leaves written through one long-lived instance must match leaves that resolve
// their namespace each time, across rebindings, nested declarations, a default namespace, a
// namespace not in scope, documents and writers.
TEST(XmlWriterNs, LeafNamespaceFollowsBindingChanges) {
  using lather::xml::leaf_namespace;
  using lather::xml::ncname;
  auto document = [](bool kept, writer& w, leaf_namespace& a) {
    auto leaf = [&](std::string_view text) {
      if (kept) return w.text_element(a, ncname("v"), text);
      w.text_element(a.ns(), ncname("v"), text);
    };
    auto number = [&](int n) {
      auto format = [](const void* v, char* dst) {
        return static_cast<std::size_t>(
            std::to_chars(dst, dst + 12, *static_cast<const int*>(v)).ptr - dst);
      };
      if (kept) return w.formatted_element(a, ncname("n"), 12, format, &n);
      w.formatted_element(a.ns(), ncname("n"), 12, format, &n);
    };
    auto qname = [&]() {
      if (kept) return w.qname_element(a, ncname("q"), "urn:q", "x");
      w.qname_element(a.ns(), ncname("q"), "urn:q", "x");
    };
    w.reset();
    w.start_element(ns_b, "r");
    leaf("not in scope");  // declared on the leaf: nothing to keep
    number(1);
    w.start_element(ns_a, "s");
    leaf("parent's prefix");
    number(2);
    qname();
    w.start_element(ns_b, "t");
    leaf("in scope, not the parent's");
    w.raw("");
    w.declare_namespace("ns2", "urn:other");  // rebinds the prefix ns_a had
    w.start_element(ns_b, "u");
    leaf("declared again on the leaf");
    number(3);
    w.end_element();
    leaf("ns2 again");
    w.end_element();
    w.declare_namespace("", ns_a);
    w.start_element(ns_a, "d");
    leaf("the default namespace");
    w.end_element();
    number(4);
    w.end_document();
  };
  std::string docs[2];
  for (bool kept : {false, true}) {
    output out;
    writer w{out};
    writer other_writer{out};
    leaf_namespace a{ns_a};
    document(kept, w, a);
    document(kept, w, a);  // the next document, the same instance
    out.take();
    document(kept, other_writer, a);  // another writer
    document(kept, w, a);
    docs[kept] = out.take();
  }
  EXPECT_EQ(docs[1], docs[0]);
  EXPECT_NE(docs[0].find(R"(<ns1:u xmlns:ns2="urn:other"><ns4:v xmlns:ns4="urn:a">)"),
            std::string::npos)
      << docs[0];
}

TEST(XmlWriterNs, PrefixForAfterContentNeedsScope) {
  EXPECT_EQ(failure([](writer& w) {
              w.start_element("", "r");
              w.text("x");
              w.prefix_for(ns_a);
            }),
            errc::writer_bad_state);
}

TEST(XmlWriterNs, DeclarationsThatWouldChangeMeaningAreRejected) {
  EXPECT_EQ(failure([](writer& w) {
              w.declare_namespace("p", ns_a);
              w.start_element(ns_a, "r");
              w.declare_namespace("p", ns_b);  // would move <p:r> to urn:b
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) {
              w.start_element("", "r");
              w.declare_namespace("", ns_a);  // would move <r> to urn:a
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) {
              w.declare_namespace("p", ns_a);
              w.start_element("", "r");
              w.attribute(ns_a, "x", "1");
              w.declare_namespace("p", ns_b);  // would move p:x
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.declare_namespace("xmlns", ns_a); }), errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.declare_namespace("p", ""); }), errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.declare_namespace("xml", ns_a); }), errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.declare_namespace("a:b", ns_a); }), errc::writer_bad_state);
  // Declaring the same binding twice on one tag is harmless and written once.
  EXPECT_EQ(written([](writer& w) {
              w.declare_namespace("p", ns_a);
              w.start_element(ns_a, "r");
              w.declare_namespace("p", ns_a);
              w.end_document();
            }),
            R"(<p:r xmlns:p="urn:a"/>)");
}

TEST(XmlWriterNs, ManyDeclarationsInScopeStayFast) {
  // 20,000 prefixes in scope and 20,000 children each in one of them: a scan over the
  // declarations per lookup would make this 4e8 steps.
  constexpr int n = 20000;
  std::vector<std::string> uris;
  for (int i = 0; i < n; ++i) uris.push_back(numbered("urn:x", i));
  output out;
  writer w{out};
  // The thread's CPU time, not the wall clock's: the machine's load does not count.
  const auto cpu = [] {
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
  };
  const auto start = cpu();
  for (int i = 0; i < n; ++i) w.declare_namespace(numbered("p", i), uris[i]);
  w.start_element("", "r");
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < n; ++i) {
      w.start_element(uris[i], "c");
      w.attribute(uris[(i * 7) % n], "a", "v");
      w.end_element();
    }
  }
  w.end_document();
  const auto elapsed = cpu() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(2));
  const std::string doc = out.take();
  EXPECT_NE(doc.find(R"(<p19999:c p19993:a="v"/>)"), std::string::npos);
  EXPECT_EQ(doc.find("xmlns:ns"), std::string::npos);  // never a fresh prefix
}

TEST(XmlWriterNs, ManySiblingDeclarationsDoNotAccumulate) {
  // Every sibling declares a fresh namespace (the Axis multiRef pattern).
  output out;
  writer w{out};
  w.start_element("", "r");
  for (int i = 0; i < 50000; ++i) {
    w.declare_namespace("m", numbered("urn:m", i));
    w.start_element(numbered("urn:m", i), "multiRef");
    w.start_element("urn:common", "v");
    w.end_element();
    w.end_element();
  }
  w.end_document();
  const std::string doc = out.take();
  // urn:common keeps its per-document number even though it is redeclared per sibling.
  EXPECT_NE(doc.find(R"(<m:multiRef xmlns:m="urn:m49999"><ns1:v xmlns:ns1="urn:common"/>)"),
            std::string::npos);
  EXPECT_EQ(doc.find("ns2"), std::string::npos);
}

// ---- misuse --------------------------------------------------------------------------------

TEST(XmlWriter, BadStateIsReported) {
  EXPECT_EQ(failure([](writer& w) { w.text("x"); }), errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.cdata("x"); }), errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.end_element(); }), errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.attribute("", "a", "v"); }), errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.end_document(); }), errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) {
              w.start_element("", "a");
              w.end_element();
              w.start_element("", "b");
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) {
              w.start_element("", "a");
              w.text("x");
              w.attribute("", "b", "v");
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) {
              w.start_element("", "a");
              w.xml_declaration();
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.start_element("", "1a"); }), errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.start_element("", "a:b"); }), errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) { w.start_element("", ""); }), errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) {
              w.start_element("", "a");
              w.attribute("", "xmlns", "urn:a");
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) {
              w.start_element("", "a");
              w.attribute("", "b c", "v");
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([](writer& w) {
              w.start_element("", "a");
              w.declare_namespace("p", ns_a);
              w.text("x");
              w.declare_namespace("q", ns_b);  // pending for a start tag that never comes
              w.end_element();
            }),
            errc::writer_bad_state);
}

TEST(XmlWriter, RefusedStartLeavesTheWriterUsable) {
  output out;
  writer w{out};
  w.start_element("", "r");
  w.text("t");
  w.declare_namespace("p", ns_a);
  w.declare_namespace("p", ns_b);  // refused when the start tag comes
  EXPECT_THROW(w.start_element(ns_a, "x"), lather::xml::error);
  w.declare_namespace("", ns_a);
  EXPECT_THROW(w.start_element("", "y"), lather::xml::error);  // would need xmlns="" too
  EXPECT_EQ(w.depth(), 1u);
  w.start_element(ns_b, "z");
  w.end_document();
  EXPECT_EQ(out.view(), R"(<r>t<ns1:z xmlns:ns1="urn:b"/></r>)");
}

TEST(XmlWriter, ResetStartsAFreshDocument) {
  output out;
  writer w{out};
  w.start_element(ns_a, "a");
  w.text("x");  // abandoned midway
  out.clear();
  w.reset();
  w.start_element(ns_b, "b");
  w.end_document();
  EXPECT_EQ(out.view(), R"(<ns1:b xmlns:ns1="urn:b"/>)");
}

TEST(XmlWriter, NonAsciiNames) {
  EXPECT_EQ(written([](writer& w) {
              w.start_element("", "caf\xC3\xA9");
              w.end_document();
            }),
            "<caf\xC3\xA9/>");
  EXPECT_EQ(failure([](writer& w) { w.start_element("", "a\xC3"); }), errc::writer_bad_state);
}

// ---- the CXF request -----------------------------------------------------------------------

TEST(XmlWriterCxf, OneItemRequestIsExact) {
  const lather::bench::cxf_binary_values bin;
  ASSERT_EQ(bin.base64.size(), 344u);
  ASSERT_EQ(bin.hex.size(), 512u);
  EXPECT_EQ(bin.base64.substr(0, 8), "gIGCg4SF");
  EXPECT_EQ(bin.hex.substr(0, 6), "808182");
  const std::string doc =
      written([&](writer& w) { lather::bench::write_cxf_echo_complex_request(w, bin, 1, 7); });
  const std::string expected =
      R"(<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>)"
      R"(<ns2:echoComplexTypeDoc xmlns:ns2="http://cxf.apache.org/cxf/performance/types">)"
      R"(<ns2:in><ns2:item><ns2:varString>#12345ABc</ns2:varString>)"
      R"(<ns2:varUByte>255</ns2:varUByte><ns2:varUnsignedLong>13691056728</ns2:varUnsignedLong>)"
      R"(<ns2:varFloat>3.4028235E38</ns2:varFloat>)"
      R"(<ns2:varQName xmlns:ns3="http://cxf.apache.org">ns3:return</ns2:varQName>)"
      R"(<ns2:varBase64Binary>)" +
      bin.base64 + R"(</ns2:varBase64Binary><ns2:varHexBinary>)" + bin.hex +
      R"(</ns2:varHexBinary>)"
      R"(<ns2:varStruct varAttrString="1234567890!@#$%^&amp;*()abcdefghijk">)"
      R"(<ns2:varFloat>3.4028235E38</ns2:varFloat><ns2:varShort>32767</ns2:varShort>)"
      R"(<ns2:varString>1234567890!@#$%^&amp;*()abcdefghijk</ns2:varString>)"
      R"(<ns2:varByte>127</ns2:varByte><ns2:varDecimal>3.1415926</ns2:varDecimal>)"
      R"(<ns2:varDouble>1.7976931348623157E308</ns2:varDouble>)"
      R"(<ns2:varDateTime>2005-12-03T00:00:09.000Z</ns2:varDateTime></ns2:varStruct>)"
      R"(<ns2:varEnum>RED</ns2:varEnum></ns2:item></ns2:in><ns2:id>7</ns2:id>)"
      R"(</ns2:echoComplexTypeDoc></soap:Body></soap:Envelope>)";
  EXPECT_EQ(doc, expected);
}

TEST(XmlWriterCxf, SteadyStateWriterPassAllocatesNothing) {
  const lather::bench::cxf_binary_values bin;
  output out;
  writer w{out};
  for (int warm = 0; warm < 2; ++warm) {
    out.clear();
    w.reset();
    lather::bench::write_cxf_echo_complex_request(w, bin, 100);
  }
  const std::size_t size = out.size();
  const std::uint64_t allocations_before = lather::test::thread_allocations();
  for (int pass = 0; pass < 5; ++pass) {
    out.clear();
    w.reset();
    lather::bench::write_cxf_echo_complex_request(w, bin, 100);
  }
  EXPECT_EQ(lather::test::thread_allocations() - allocations_before, 0u);
  EXPECT_EQ(out.size(), size);
  EXPECT_GT(size, 150000u);
}

// ---- recorded document starts --------------------------------------------------------------

// The opening the SOAP layer records: declared prefixes only, root start tag left open.
void write_opening(writer& w) {
  w.declare_namespace("a", ns_a);
  w.declare_namespace("x", "urn:x&y");  // escaped once, when recorded
  w.start_element(ns_a, lather::xml::ncname{"Root"});
}

// What follows the opening: uses the recorded bindings, adds to the open tag, shadows a
// recorded prefix, generates prefixes (numbered from 1 as in a document written whole) and
// ends with open elements for end_document to close.
void write_rest(writer& w) {
  w.attribute("urn:x&y", "at", "v");
  w.declare_namespace("late", ns_b);
  w.start_element(ns_a, "Body");
  w.text_element(ns_a, lather::xml::ncname{"leaf"}, "t");
  w.declare_namespace("a", "urn:other");
  w.start_element("urn:other", "shadow");
  w.start_element(ns_a, "under");  // "a" means urn:other here: a fresh prefix for urn:a
  w.end_element();
  w.end_element();
  w.start_element("urn:gen", "g");
  w.attribute({}, "q", std::string(w.prefix_for("urn:x&y")));
  w.end_element();
  w.start_element(ns_a, "open");
  w.start_element(ns_b, "deep");
}

TEST(XmlWriterDocumentStart, WritesWhatTheBuildWouldHaveWritten) {
  const std::string whole = written([](writer& w) {
    write_opening(w);
    write_rest(w);
    w.end_document();
  });
  EXPECT_EQ(whole, R"(<a:Root xmlns:a="urn:a" xmlns:x="urn:x&amp;y" x:at="v" xmlns:late="urn:b">)"
                   R"(<a:Body><a:leaf>t</a:leaf><a:shadow xmlns:a="urn:other">)"
                   R"(<ns1:under xmlns:ns1="urn:a"/></a:shadow><ns2:g xmlns:ns2="urn:gen" q="x"/>)"
                   R"(<a:open><late:deep/></a:open></a:Body></a:Root>)");
  const lather::xml::document_start start{write_opening};
  EXPECT_EQ(start.bytes(), R"(<a:Root xmlns:a="urn:a" xmlns:x="urn:x&amp;y")");
  output out;
  writer w{out};
  for (int pass = 0; pass < 3; ++pass) {  // one start serves document after document
    out.clear();
    w.reset();
    w.start_document(start);
    EXPECT_EQ(w.depth(), 1u);
    write_rest(w);
    w.end_document();
    EXPECT_EQ(out.view(), whole);
  }
  // After an XML declaration, and with a fresh writer of its own.
  const std::string declared = written([&](writer& w2) {
    w2.xml_declaration();
    w2.start_document(start);
    write_rest(w2);
    w2.end_document();
  });
  EXPECT_EQ(declared, R"(<?xml version="1.0" encoding="UTF-8"?>)" + whole);
}

TEST(XmlWriterDocumentStart, ARecordingThatClosesItsRootOrGeneratesPrefixesIsRefused) {
  auto refused = [](const std::function<void(writer&)>& build) {
    try {
      lather::xml::document_start start{build};
    } catch (const lather::xml::error& e) {
      return e.code();
    }
    return errc::ok;
  };
  EXPECT_EQ(refused([](writer&) {}), errc::writer_bad_state);
  EXPECT_EQ(refused([](writer& w) {
              w.start_element(ns_a, "r");
              w.end_element();
            }),
            errc::writer_bad_state);
  EXPECT_EQ(refused([](writer& w) { w.start_element(ns_a, "r"); }), errc::writer_bad_state);
  EXPECT_EQ(refused([](writer& w) {
              w.start_element({}, "r");
              w.declare_namespace("p", ns_a);
              w.raw("");
              w.declare_namespace("q", ns_b);  // pending for a start tag that never came
            }),
            errc::writer_bad_state);
  EXPECT_EQ(refused([](writer& w) {
              w.declare_namespace("p", ns_a);
              w.start_element(ns_a, "r");
            }),
            errc::ok);
}

TEST(XmlWriterDocumentStart, OnlyBeforeTheRootWithNothingPending) {
  const lather::xml::document_start start{write_opening};
  EXPECT_EQ(failure([&](writer& w) {
              w.start_element({}, "r");
              w.start_document(start);
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([&](writer& w) {
              w.start_element({}, "r");
              w.end_element();
              w.start_document(start);
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([&](writer& w) {
              w.declare_namespace("p", ns_b);
              w.start_document(start);
            }),
            errc::writer_bad_state);
  const lather::xml::document_start with_declaration{[](writer& w) {
    w.xml_declaration();
    write_opening(w);
  }};
  EXPECT_EQ(failure([&](writer& w) {
              w.xml_declaration();
              w.start_document(with_declaration);
            }),
            errc::writer_bad_state);
  EXPECT_EQ(failure([&](writer& w) { w.start_document(with_declaration); }), errc::ok);
}

TEST(XmlWriterDocumentStart, ARecordedAttributeCannotBeWrittenAgain) {
  const lather::xml::document_start start{[](writer& w) {
    write_opening(w);
    w.attribute("urn:x&y", std::string{"at"}, "v");  // a name the recording copied
  }};
  output out;
  writer w{out};
  w.start_document(start);
  w.attribute({}, "at", "ok");
  try {
    w.attribute("urn:x&y", "at", "w");
    ADD_FAILURE() << "not refused";
  } catch (const lather::xml::error& e) {
    EXPECT_EQ(e.code(), errc::duplicate_attribute);
  }
  w.end_document();
  EXPECT_EQ(out.view(), R"(<a:Root xmlns:a="urn:a" xmlns:x="urn:x&amp;y" x:at="v" at="ok"/>)");
}

TEST(XmlWriterDocumentStart, EndDocumentLeavesNoBindingInScope) {
  const lather::xml::document_start start{write_opening};
  output out;
  writer w{out};
  w.start_document(start);
  w.start_element(ns_b, "c");
  w.end_document();
  EXPECT_EQ(w.depth(), 0u);
  EXPECT_THROW(w.prefix_for(ns_a), lather::xml::error);  // "a" went with its root
  EXPECT_EQ(w.prefix_for("http://www.w3.org/XML/1998/namespace"), "xml");
  EXPECT_THROW(w.start_element(ns_a, "second"), lather::xml::error);
}

TEST(XmlWriterDocumentStart, SteadyStateAllocatesNothing) {
  const lather::xml::document_start start{write_opening};
  output out;
  writer w{out};
  auto pass = [&] {
    out.clear();
    w.reset();
    w.start_document(start);
    write_rest(w);
    w.end_document();
  };
  pass();
  pass();
  const std::uint64_t allocations_before = lather::test::thread_allocations();
  for (int i = 0; i < 5; ++i) pass();
  EXPECT_EQ(lather::test::thread_allocations() - allocations_before, 0u);
}

// ---- round trips through lather's reader and expat -----------------------------------------

struct event {
  char kind;  // 's' start, 'e' end, 't' text (adjacent runs merged)
  std::string ns, local, text;
  std::vector<std::array<std::string, 3>> attributes;  // ns, local, value
  bool operator==(const event&) const = default;
};
using events = std::vector<event>;

std::ostream& operator<<(std::ostream& os, const event& e) {
  os << e.kind << " {" << e.ns << "}" << e.local << " [" << e.text << "]";
  for (const auto& a : e.attributes) os << " {" << a[0] << "}" << a[1] << "=" << a[2];
  return os;
}

void add_text(events& ev, std::string_view s) {
  if (s.empty()) return;
  if (ev.empty() || ev.back().kind != 't') ev.push_back({'t', {}, {}, {}, {}});
  ev.back().text += s;
}

// Writes through a writer and records the events a parser should report.
struct recorder {
  writer& w;
  events expected;
  std::vector<std::pair<std::string, std::string>> open;
  bool tag_open = false;  // declarations would go on the open start tag

  void start(std::string_view ns, std::string_view local) {
    w.start_element(ns, local);
    expected.push_back({'s', std::string(ns), std::string(local), {}, {}});
    open.emplace_back(ns, local);
    tag_open = true;
  }
  void attribute(std::string_view ns, std::string_view local, std::string_view value) {
    w.attribute(ns, local, value);
    expected.back().attributes.push_back({std::string(ns), std::string(local), std::string(value)});
  }
  void text(std::string_view s) {
    w.text(s);
    add_text(expected, s);
    tag_open = tag_open && s.empty();
  }
  void cdata(std::string_view s) {
    w.cdata(s);
    add_text(expected, s);
    tag_open = false;
  }
  void end() {
    w.end_element();
    tag_open = false;
    expected.push_back({'e', open.back().first, open.back().second, {}, {}});
    open.pop_back();
  }
};

// Events from lather's reader, or the error message.
std::pair<events, std::string> lather_events(std::string_view doc) {
  using lather::xml::token;
  lather::xml::reader r;
  r.reset(doc);
  events ev;
  for (token t = r.next(); t != token::end_document; t = r.next()) {
    switch (t) {
      case token::start_element: {
        event e{'s', std::string(r.ns()), std::string(r.local_name()), {}, {}};
        for (const auto& a : r.attributes())
          e.attributes.push_back({std::string(a.ns), std::string(a.local), std::string(a.value)});
        ev.push_back(std::move(e));
        break;
      }
      case token::end_element:
        ev.push_back({'e', std::string(r.ns()), std::string(r.local_name()), {}, {}});
        break;
      case token::text:
        add_text(ev, r.text());
        break;
      default:
        return {ev, r.error().message()};
    }
  }
  return {ev, {}};
}

// expat, namespace mode, resolved through dlopen so the test needs no link dependency.
class expat_library {
 public:
  expat_library() {
    lib_ = dlopen("libexpat.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib_ == nullptr) return;
    load(create_, "XML_ParserCreateNS");
    load(free_, "XML_ParserFree");
    load(set_user_data_, "XML_SetUserData");
    load(set_element_handler_, "XML_SetElementHandler");
    load(set_text_handler_, "XML_SetCharacterDataHandler");
    load(parse_, "XML_Parse");
    load(error_code_, "XML_GetErrorCode");
    load(error_string_, "XML_ErrorString");
  }
  ~expat_library() {
    if (lib_ != nullptr) dlclose(lib_);
  }
  expat_library(const expat_library&) = delete;
  expat_library& operator=(const expat_library&) = delete;
  bool available() const { return lib_ != nullptr && error_string_ != nullptr; }

  std::pair<events, std::string> events_of(std::string_view doc) const {
    events ev;
    XML_Parser p = create_(nullptr, '\x01');
    set_user_data_(p, &ev);
    set_element_handler_(p, on_start, on_end);
    set_text_handler_(p, on_text);
    std::string message;
    if (parse_(p, doc.data(), static_cast<int>(doc.size()), XML_TRUE) != XML_STATUS_OK)
      message = error_string_(error_code_(p));
    free_(p);
    return {ev, message};
  }

 private:
  template <class F>
  void load(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib_, name));
  }
  static std::pair<std::string, std::string> split(const XML_Char* name) {
    const std::string_view s{name};
    const auto sep = s.find('\x01');
    if (sep == std::string_view::npos) return {{}, std::string(s)};
    return {std::string(s.substr(0, sep)), std::string(s.substr(sep + 1))};
  }
  static void XMLCALL on_start(void* user, const XML_Char* name, const XML_Char** atts) {
    auto [ns, local] = split(name);
    event e{'s', ns, local, {}, {}};
    for (; *atts != nullptr; atts += 2) {
      auto [ans, alocal] = split(atts[0]);
      e.attributes.push_back({ans, alocal, atts[1]});
    }
    static_cast<events*>(user)->push_back(std::move(e));
  }
  static void XMLCALL on_end(void* user, const XML_Char* name) {
    auto [ns, local] = split(name);
    static_cast<events*>(user)->push_back({'e', ns, local, {}, {}});
  }
  static void XMLCALL on_text(void* user, const XML_Char* s, int len) {
    add_text(*static_cast<events*>(user), {s, static_cast<std::size_t>(len)});
  }

  void* lib_ = nullptr;
  decltype(&XML_ParserCreateNS) create_ = nullptr;
  decltype(&XML_ParserFree) free_ = nullptr;
  decltype(&XML_SetUserData) set_user_data_ = nullptr;
  decltype(&XML_SetElementHandler) set_element_handler_ = nullptr;
  decltype(&XML_SetCharacterDataHandler) set_text_handler_ = nullptr;
  decltype(&XML_Parse) parse_ = nullptr;
  decltype(&XML_GetErrorCode) error_code_ = nullptr;
  decltype(&XML_ErrorString) error_string_ = nullptr;
};

const expat_library& expat() {
  static const expat_library lib;
  return lib;
}

// Both parsers accept `doc` and report exactly `expected`.
void expect_round_trip(const std::string& doc, const events& expected) {
  const auto [ours, our_error] = lather_events(doc);
  EXPECT_EQ(our_error, "") << doc;
  EXPECT_EQ(ours, expected) << doc;
  if (!expat().available()) return;  // reported by the Expat.Available test
  const auto [theirs, their_error] = expat().events_of(doc);
  EXPECT_EQ(their_error, "") << doc;
  EXPECT_EQ(theirs, expected) << doc;
}

TEST(XmlWriterRoundTrip, ExpatIsAvailable) {
  EXPECT_TRUE(expat().available());
}

TEST(XmlWriterRoundTrip, EverySpecialCharacter) {
  std::string all;
  for (int c = 0x20; c < 0x80; ++c) all += static_cast<char>(c);
  all += "\t\n\r\r\n]]>]]]>";
  // Boundary code points: U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFD, U+10000, U+10FFFF.
  all += "\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\xEF\xBF\xBD";
  all += "\xF0\x90\x80\x80\xF4\x8F\xBF\xBF";
  output out;
  writer w{out};
  recorder rec{w, {}, {}, false};
  rec.start(ns_a, "r");
  rec.attribute("", "v", all);
  rec.attribute(ns_b, "w", all);
  rec.text(all);
  rec.start("", "c");
  rec.cdata(all);
  rec.end();
  rec.end();
  w.end_document();
  expect_round_trip(out.take(), rec.expected);
}

TEST(XmlWriterRoundTrip, CxfRequest) {
  const lather::bench::cxf_binary_values bin;
  output out;
  writer w{out};
  lather::bench::write_cxf_echo_complex_request(w, bin, 3);
  const std::string doc = out.take();
  const auto [ours, our_error] = lather_events(doc);
  EXPECT_EQ(our_error, "");
  // Per item 17 elements (34 events) + 15 texts; around them 5 elements + the id text.
  EXPECT_EQ(ours.size(), 3u * 49 + 11);
  if (expat().available()) {
    EXPECT_EQ(ours, expat().events_of(doc).first);
  }
}

// A random document from a seed: namespaces declared explicitly (pending and on open tags,
// default ones included) or generated, namespaced and plain attributes, text with every kind
// of character that needs escaping, CDATA.
class random_document {
 public:
  explicit random_document(unsigned seed) : rng_(seed) {}

  std::pair<std::string, events> make() {
    output out;
    writer w{out};
    recorder rec{w, {}, {}, false};
    if (pick(2) == 0) w.xml_declaration();
    element(rec, 0);
    w.end_document();
    return {out.take(), std::move(rec.expected)};
  }

 private:
  static constexpr std::array<std::string_view, 5> uris = {
      "urn:a", "urn:b", "http://example.com/c?x=1&y=\"2\"", "urn:\xC3\xA9t\xC3\xA9", "urn:ns1"};
  static constexpr std::array<std::string_view, 4> prefixes = {"p", "q", "ns1", "ns2"};
  static constexpr std::array<std::string_view, 5> locals = {"a", "item", "x-y", "_z.1",
                                                             "\xC3\xA9l"};
  static constexpr std::array<std::string_view, 14> pieces = {
      "plain", "a&b", "<tag>", "]]>",   "\r\n", "\t", "\"q'", "\xC3\xA9", "\xF0\x9F\x98\x80",
      " ",     "x]]", ">",     "&amp;", "\r"};

  std::size_t pick(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }
  std::string_view uri_or_none() {
    return pick(4) == 0 ? std::string_view{} : uris[pick(uris.size())];
  }
  std::string some_text() {
    std::string s;
    for (std::size_t i = pick(4); i > 0; --i) s += pieces[pick(pieces.size())];
    return s;
  }

  // Declarations the writer may refuse (they would change what an open tag means); a refused
  // one must leave the writer unchanged.
  void try_declare(writer& w, std::string_view prefix, std::string_view uri) {
    try {
      w.declare_namespace(prefix, uri);
    } catch (const lather::xml::error& e) {
      EXPECT_EQ(e.code(), errc::writer_bad_state);
    }
  }

  void element(recorder& rec, int depth) {
    writer& w = rec.w;
    std::string_view ns = uri_or_none();
    if (rec.tag_open) {
      // Declarations now go on the parent's open tag.
      if (pick(3) == 0) try_declare(w, prefixes[pick(prefixes.size())], uris[pick(uris.size())]);
    } else {
      // Pending declarations for this element: distinct prefixes, and a default namespace
      // only if the element can live in it.
      std::set<std::string_view> used;
      for (std::size_t i = pick(3); i > 0; --i) {
        if (pick(4) == 0 && used.insert("").second) {
          const std::string_view uri = pick(3) == 0 ? std::string_view{} : uris[pick(uris.size())];
          if (ns.empty() && !uri.empty()) ns = uri;
          w.declare_namespace("", uri);
        } else {
          const std::string_view prefix = prefixes[pick(prefixes.size())];
          if (used.insert(prefix).second) w.declare_namespace(prefix, uris[pick(uris.size())]);
        }
      }
    }
    rec.start(ns, locals[pick(locals.size())]);
    if (pick(3) == 0) try_declare(w, prefixes[pick(prefixes.size())], uris[pick(uris.size())]);
    if (pick(6) == 0) try_declare(w, "", uri_or_none());
    std::set<std::pair<std::string_view, std::string_view>> attributes;
    for (std::size_t i = pick(4); i > 0; --i) {
      const std::string_view ans = pick(2) == 0 ? std::string_view{} : uris[pick(uris.size())];
      const std::string_view alocal = locals[pick(locals.size())];
      if (attributes.insert({ans, alocal}).second) rec.attribute(ans, alocal, some_text());
    }
    if (pick(3) == 0) {  // a QName value, its prefix declared on this tag if needed
      const std::string qprefix{w.prefix_for(uris[pick(uris.size())])};
      rec.text(qprefix.empty() ? "v" : qprefix + ":v");
    }
    const std::size_t children = depth < 5 ? pick(4) : 0;
    for (std::size_t i = 0; i < children; ++i) {
      if (pick(3) == 0) rec.text(some_text());
      if (pick(6) == 0) rec.cdata(some_text());
      element(rec, depth + 1);
    }
    if (pick(2) == 0) rec.text(some_text());
    rec.end();
  }

  std::mt19937 rng_;
};

TEST(XmlWriterRoundTrip, RandomDocuments) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  int checked = 0;
  for (unsigned seed = 1; seed <= 400 && std::chrono::steady_clock::now() < deadline; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto [doc, expected] = random_document(seed).make();
    expect_round_trip(doc, expected);
    ++checked;
    if (HasFailure()) break;
  }
  EXPECT_GT(checked, 50);
}

}  // namespace
