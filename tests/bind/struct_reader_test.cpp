// bind::struct_reader and struct_writer: a struct read and written in parts (head, items one
// at a time, rest) with the binding's own rules, error paths and bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lather/bind/bind.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace {

constexpr std::string_view ns = "urn:parts";

struct row {
  std::int32_t id = 0;
  std::string label;
};
struct batch {
  std::string name;
  std::int32_t tag = 0;
  std::optional<std::string> note;
  std::vector<row> rows;
  std::int32_t total = 0;
  std::vector<std::string> trailer;
};
struct numbers {
  std::vector<std::int32_t> n;
};

}  // namespace

template <>
struct lather::meta<row> {
  static constexpr std::string_view name = "row";
  static constexpr std::string_view ns = ::ns;
  static constexpr auto fields = std::tuple{element("id", &row::id), element("label", &row::label)};
};
template <>
struct lather::meta<batch> {
  static constexpr std::string_view name = "batch";
  static constexpr std::string_view ns = ::ns;
  static constexpr auto fields =
      std::tuple{element("name", &batch::name),   attribute("tag", &batch::tag),
                 element("note", &batch::note),   element("row", &batch::rows),
                 element("total", &batch::total), element("trailer", &batch::trailer)};
};
template <>
struct lather::meta<numbers> {
  static constexpr std::string_view name = "numbers";
  static constexpr std::string_view ns = ::ns;
  static constexpr auto fields = std::tuple{element("n", &numbers::n)};
};

namespace {

using namespace lather;
using batch_reader = bind::struct_reader<batch, &batch::rows>;

std::string doc(std::string_view rows, std::string_view tail = "<p:total>7</p:total>") {
  return "<p:batch xmlns:p='urn:parts' tag='3'><p:name>b</p:name>" + std::string(rows) +
         std::string(tail) + "</p:batch>";
}
std::string rows(int n, int bad = -1) {
  std::string s;
  for (int i = 0; i < n; ++i)
    s += "<p:row><p:id>" + (i == bad ? std::string("x") : std::to_string(i)) +
         "</p:id><p:label>r</p:label></p:row>";
  return s;
}

struct parts {
  explicit parts(const std::string& d) : text(d) {
    r.reset(text);
    EXPECT_EQ(r.next(), xml::token::start_element);
  }
  std::string text;
  xml::reader r;
};

TEST(StructReader, ReadsTheHeadThenEachItemThenTheRest) {
  parts p{doc(rows(3), "<p:total>7</p:total><p:trailer>a</p:trailer><p:trailer>b</p:trailer>")};
  batch head;
  head.total = 99;
  head.note = "stale";  // a reused value: fields that do not occur are reset
  batch_reader in{p.r, head};
  ASSERT_FALSE(in.read_head());
  EXPECT_EQ(head.name, "b");
  EXPECT_EQ(head.tag, 3);
  EXPECT_FALSE(head.note);
  EXPECT_EQ(head.total, 0);  // after the sequence: not read yet
  row item;
  std::vector<std::int32_t> ids;
  while (in.next(item)) ids.push_back(item.id);
  EXPECT_EQ(ids, (std::vector<std::int32_t>{0, 1, 2}));
  ASSERT_FALSE(in.finish());
  EXPECT_EQ(head.total, 7);
  EXPECT_EQ(head.trailer, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(head.rows.empty());  // the items went to the caller's storage only
  EXPECT_EQ(in.count(), 3u);
  EXPECT_EQ(p.r.next(), xml::token::end_document);  // left on the end tag
}

TEST(StructReader, FinishSkipsTheItemsNotReadAndReadsTheRest) {
  parts p{doc(rows(5, 4))};  // the bad item is skipped, never bound
  batch head;
  batch_reader in{p.r, head};
  row item;
  ASSERT_TRUE(in.next(item));
  ASSERT_FALSE(in.finish());
  EXPECT_EQ(in.count(), 5u);
  EXPECT_EQ(head.total, 7);
  EXPECT_EQ(p.r.next(), xml::token::end_document);
}

TEST(StructReader, NoItemsIsAnEmptySequence) {
  parts p{doc("")};
  batch head;
  batch_reader in{p.r, head};
  row item;
  EXPECT_FALSE(in.next(item));
  ASSERT_FALSE(in.finish());
  EXPECT_EQ(head.total, 7);
}

TEST(StructReader, AnItemErrorNamesItsPathAndEndsTheRead) {
  parts p{doc(rows(4, 2))};
  batch head;
  batch_reader in{p.r, head};
  row item;
  int n = 0;
  while (in.next(item)) ++n;
  EXPECT_EQ(n, 2);
  bind::error_info e = in.finish();
  ASSERT_TRUE(e);
  EXPECT_EQ(e.code, bind::errc::invalid_lexical);
  EXPECT_EQ(e.path, "/batch/row[3]/id");
}

TEST(StructReader, ErrorsAroundTheSequenceAreTheBindingsOwn) {
  {  // a head field
    parts p{"<p:batch xmlns:p='urn:parts' tag='x'><p:name>b</p:name></p:batch>"};
    batch head;
    batch_reader in{p.r, head};
    bind::error_info e = in.read_head();
    ASSERT_TRUE(e);
    EXPECT_EQ(e.path, "/batch/@tag");
  }
  {  // an element after the items that the type does not declare
    parts p{doc(rows(1), "<p:bogus/>")};
    batch head;
    batch_reader in{p.r, head};
    row item;
    EXPECT_TRUE(in.next(item));
    EXPECT_FALSE(in.next(item));
    bind::error_info e = in.finish();
    ASSERT_TRUE(e);
    EXPECT_EQ(e.code, bind::errc::unexpected_element);
    EXPECT_EQ(e.path, "/batch");
  }
  {  // an item after a later field: out of schema order
    parts p{doc(rows(1) + "<p:total>1</p:total>" + rows(1), "")};
    batch head;
    batch_reader in{p.r, head};
    row item;
    while (in.next(item)) {
    }
    bind::error_info e = in.finish();
    ASSERT_TRUE(e);
    EXPECT_EQ(e.code, bind::errc::unexpected_element);
  }
  {  // a required field missing before the sequence
    parts p{"<p:batch xmlns:p='urn:parts'>" + rows(1) + "</p:batch>"};
    batch head;
    batch_reader in{p.r, head};
    bind::error_info e = in.read_head();
    ASSERT_TRUE(e);
    EXPECT_EQ(e.code, bind::errc::missing_element);
    EXPECT_EQ(e.path, "/batch/name");
  }
}

TEST(StructReader, ItemsBeyondMaxOccursAreAllowedSinceNoneIsHeld) {
  std::string d = "<numbers xmlns='urn:parts'>";
  for (int i = 0; i < 10; ++i) d += "<n>" + std::to_string(i) + "</n>";
  d += "</numbers>";
  parts p{d};
  numbers head;
  bind::read_options o;
  o.max_occurs = 4;
  bind::struct_reader<numbers, &numbers::n> in{p.r, head, o};
  std::int32_t n = 0, sum = 0;
  while (in.next(n)) sum += n;
  ASSERT_FALSE(in.finish());
  EXPECT_EQ(sum, 45);
}

TEST(StructWriter, WritesTheBytesOfWriteContentInParts) {
  batch value;
  value.name = "b";
  value.tag = 3;
  value.note = "n";
  value.rows = {{1, "one"}, {2, "two"}};
  value.total = 7;
  value.trailer = {"t"};
  auto write = [&](auto body) {
    xml::output out;
    xml::writer w{out};
    w.start_element(ns, "batch");
    body(w);
    w.end_element();
    w.end_document();
    return out.take();
  };
  const std::string whole = write([&](xml::writer& w) { bind::write_content(w, value); });
  const std::string parts = write([&](xml::writer& w) {
    bind::struct_writer<batch, &batch::rows> out{w};
    batch head = value;
    head.rows = {{9, "not written"}};  // the head's sequence is not written
    out.write_head(head);
    for (const row& r : value.rows) out.write_item(r);
    out.finish(head);
  });
  EXPECT_EQ(parts, whole);
}

}  // namespace
