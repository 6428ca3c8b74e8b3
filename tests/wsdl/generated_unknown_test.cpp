// A client generated with --keep-unknown (data/unknown.wsdl, lather_generate KEEP_UNKNOWN)
// against a newer server, over loopback HTTP: the server's types (code-first, below) carry
// elements the contract does not declare, before, between and after the declared ones and in a
// nested type. The client keeps them (lather::bind::unknown_elements), counts them
// (read_options::count_unknown) and, sending the value back, writes them where they were, so
// that the newer server reads them as its own fields. The newer server's Grade has a value
// the contract does not list: the generated client keeps it (lather::open_enum) and sends it
// back as received; a generated service, strict by default, answers it with a Sender fault.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "Items.hpp"
#include "lather/service/client.hpp"
#include "lather/service/service.hpp"
#include "local_server.hpp"

namespace newer {

inline constexpr std::string_view tns = "urn:items";

struct Detail {
  std::string note;
  std::string colour;  // added
};
struct Item {
  std::string id;
  std::vector<std::string> tag;  // added, between id and qty
  std::int32_t qty = 0;
  std::optional<Detail> detail;
  std::string since;  // added, after the rest
};
struct getItem {
  std::string id;
};
struct getItemResponse {
  Item item;
};
struct putItem {
  Item item;
};
struct putItemResponse {
  std::string seen;
};
enum class Grade { basic, premium, gold };  // gold: added
struct Rating {
  Grade grade = Grade::basic;
  std::vector<Grade> past;
  lather::xsd::list<Grade> grades;
  std::optional<Grade> level;
};
struct rate {
  Rating rating;
};
struct rateResponse {
  Rating rating;
};

}  // namespace newer

template <>
struct lather::meta<newer::Detail> {
  using T = newer::Detail;
  static constexpr std::string_view name = "Detail", ns = newer::tns;
  static constexpr auto fields =
      lather::fields(element("note", &T::note), element("colour", &T::colour));
};
template <>
struct lather::meta<newer::Item> {
  using T = newer::Item;
  static constexpr std::string_view name = "Item", ns = newer::tns;
  static constexpr auto fields =
      lather::fields(element("id", &T::id), element("tag", &T::tag), element("qty", &T::qty),
                     element("detail", &T::detail), element("since", &T::since));
};
template <>
struct lather::meta<newer::getItem> {
  static constexpr std::string_view name = "getItem", ns = newer::tns;
  static constexpr auto fields = lather::fields(element("id", &newer::getItem::id));
};
template <>
struct lather::meta<newer::getItemResponse> {
  static constexpr std::string_view name = "getItemResponse", ns = newer::tns;
  static constexpr auto fields = lather::fields(element("item", &newer::getItemResponse::item));
};
template <>
struct lather::meta<newer::putItem> {
  static constexpr std::string_view name = "putItem", ns = newer::tns;
  static constexpr auto fields = lather::fields(element("item", &newer::putItem::item));
};
template <>
struct lather::meta<newer::putItemResponse> {
  static constexpr std::string_view name = "putItemResponse", ns = newer::tns;
  static constexpr auto fields = lather::fields(element("seen", &newer::putItemResponse::seen));
};

template <>
struct lather::meta<newer::Grade> {
  static constexpr std::string_view name = "Grade", ns = newer::tns;
  static constexpr auto values = enum_values<newer::Grade>({{newer::Grade::basic, "basic"},
                                                            {newer::Grade::premium, "premium"},
                                                            {newer::Grade::gold, "gold"}});
};
template <>
struct lather::meta<newer::Rating> {
  using T = newer::Rating;
  static constexpr std::string_view name = "Rating", ns = newer::tns;
  static constexpr auto fields =
      lather::fields(element("grade", &T::grade), element("past", &T::past),
                     element("grades", &T::grades), attribute("level", &T::level));
};
template <>
struct lather::meta<newer::rate> {
  static constexpr std::string_view name = "rate", ns = newer::tns;
  static constexpr auto fields = lather::fields(element("rating", &newer::rate::rating));
};
template <>
struct lather::meta<newer::rateResponse> {
  static constexpr std::string_view name = "rateResponse", ns = newer::tns;
  static constexpr auto fields = lather::fields(element("rating", &newer::rateResponse::rating));
};

namespace {

TEST(GeneratedUnknown, ClientKeepsWhatANewerServerAddedAndSendsItBack) {
  std::optional<newer::Item> received;
  lather::service svc{"ItemsService", std::string(newer::tns)};
  svc.operation("getItem", [](const newer::getItem& in) {
    newer::getItemResponse out;
    out.item = {in.id, {"red", "big"}, 3, newer::Detail{"n", "blue"}, "2031"};
    return out;
  });
  svc.operation("putItem", [&](const newer::putItem& in) {
    received = in.item;
    return newer::putItemResponse{in.item.id};
  });
  lather_test::local_server server{"/items", svc};

  lather::bind::unknown_counts seen;
  lather::client_options o;
  o.read.count_unknown = &seen;
  lather::client http{server.url("/items"), o};
  unknowngen::ItemsClient items{http};
  unknowngen::getItem request;
  request.id = "A1";
  unknowngen::getItemResponse r = items.getItem(request);

  EXPECT_EQ(r.item.id, "A1");
  EXPECT_EQ(r.item.qty, 3);
  ASSERT_TRUE(r.item.detail);
  EXPECT_EQ(r.item.detail->note, "n");
  // The attribute named unknown_elements keeps its name: the member takes another.
  const lather::bind::unknown_elements& kept = r.item.unknown_elements_2;
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_NE(kept.elements[0].xml.find(">red</"), std::string::npos) << kept.elements[0].xml;
  EXPECT_NE(kept.elements[1].xml.find(">big</"), std::string::npos) << kept.elements[1].xml;
  EXPECT_EQ(kept.elements[0].field, 1u);  // before qty
  EXPECT_NE(kept.elements[2].xml.find(">2031</"), std::string::npos) << kept.elements[2].xml;
  EXPECT_EQ(kept.elements[2].field, 3u);  // after detail: at the end of the elements
  ASSERT_EQ(r.item.detail->unknown_elements.size(), 1u);
  EXPECT_NE(r.item.detail->unknown_elements.elements[0].xml.find(":colour"), std::string::npos);
  EXPECT_EQ(seen.kept, 4u);
  EXPECT_EQ(seen.skipped, 0u);
  EXPECT_TRUE(r.unknown_elements.empty());

  // Sent back, in the order the newer server declares them.
  unknowngen::putItem back;
  back.item = r.item;
  EXPECT_EQ(items.putItem(back).seen, "A1");
  ASSERT_TRUE(received);
  EXPECT_EQ(received->tag, (std::vector<std::string>{"red", "big"}));
  EXPECT_EQ(received->qty, 3);
  ASSERT_TRUE(received->detail);
  EXPECT_EQ(received->detail->colour, "blue");
  EXPECT_EQ(received->since, "2031");

  // A client's default skips undeclared elements (a type without the member loses them); the
  // member keeps them whatever skip_unknown_elements says: a strict client keeps them too.
  EXPECT_TRUE(o.read.skip_unknown_elements);
  lather::client_options strict = o;
  strict.read.skip_unknown_elements = false;
  lather::client strict_http{server.url("/items"), strict};
  unknowngen::ItemsClient strict_items{strict_http};
  EXPECT_EQ(strict_items.getItem(request).item.unknown_elements_2.size(), 3u);
  EXPECT_EQ(seen.kept, 8u);
}

}  // namespace

namespace {

TEST(GeneratedUnknown, ClientKeepsAnEnumerationValueTheContractDoesNotListAndSendsItBack) {
  std::optional<newer::Rating> received;
  lather::service svc{"ItemsService", std::string(newer::tns)};
  svc.operation("rate", [&](const newer::rate& in) {
    newer::rateResponse out;
    if (in.rating.grade == newer::Grade::basic) {  // the first call: the newer server's values
      out.rating.grade = newer::Grade::gold;
      out.rating.past = {newer::Grade::premium, newer::Grade::gold};
      out.rating.grades.items = {newer::Grade::gold, newer::Grade::basic};
      out.rating.level = newer::Grade::gold;
    } else {  // the second: what the client sent back
      received = in.rating;
      out.rating = in.rating;
    }
    return out;
  });
  lather_test::local_server server{"/items", svc};
  lather::client http{server.url("/items")};
  unknowngen::ItemsClient items{http};

  unknowngen::rate request;
  request.rating.grade = unknowngen::Grade::basic;
  unknowngen::rateResponse r = items.rate(request);
  const unknowngen::Rating& got = r.rating;
  EXPECT_FALSE(got.grade.known());
  EXPECT_EQ(got.grade.text(), "gold");
  EXPECT_NE(got.grade, unknowngen::Grade::basic);
  EXPECT_NE(got.grade, unknowngen::Grade::premium);
  ASSERT_EQ(got.past.size(), 2u);
  EXPECT_EQ(got.past[0], unknowngen::Grade::premium);
  EXPECT_EQ(got.past[1].text(), "gold");
  ASSERT_EQ(got.grades.items.size(), 2u);
  EXPECT_EQ(got.grades.items[0].text(), "gold");
  EXPECT_EQ(got.grades.items[1], unknowngen::Grade::basic);
  ASSERT_TRUE(got.level);
  EXPECT_EQ(got.level->text(), "gold");

  // Written back unchanged: the newer server reads its own value.
  unknowngen::rate back;
  back.rating = got;
  unknowngen::rateResponse echoed = items.rate(back);
  ASSERT_TRUE(received);
  EXPECT_EQ(received->grade, newer::Grade::gold);
  EXPECT_EQ(received->past, (std::vector<newer::Grade>{newer::Grade::premium, newer::Grade::gold}));
  EXPECT_EQ(received->grades.items,
            (std::vector<newer::Grade>{newer::Grade::gold, newer::Grade::basic}));
  EXPECT_EQ(received->level, newer::Grade::gold);
  EXPECT_EQ(echoed.rating, got);

  // A strict client refuses it, naming the value and where it was.
  lather::client_options strict;
  strict.read.keep_unknown_enums = false;
  lather::client strict_http{server.url("/items"), strict};
  unknowngen::ItemsClient strict_items{strict_http};
  try {
    (void)strict_items.rate(request);
    ADD_FAILURE() << "a strict client read an unlisted value";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("\"gold\" is not a value of the enumeration Grade"),
              std::string::npos)
        << e.what();
  }
}

class items_impl : public unknowngen::ItemsService {
 public:
  void getItem(const unknowngen::getItem&, unknowngen::getItemResponse&) override {}
  void putItem(const unknowngen::putItem&, unknowngen::putItemResponse&) override {}
  void rate(const unknowngen::rate& in, unknowngen::rateResponse& out) override {
    out.rating = in.rating;
  }
};

TEST(GeneratedUnknown, GeneratedServiceRefusesAnEnumerationValueTheContractDoesNotList) {
  items_impl impl;
  lather::service svc{"ItemsService", std::string(newer::tns)};
  impl.mount_on(svc);
  lather_test::local_server server{"/items", svc};
  lather::client http{server.url("/items")};
  unknowngen::ItemsClient items{http};

  unknowngen::rate request;
  request.rating.grade = unknowngen::Grade::premium;
  request.rating.grades.items = {unknowngen::Grade::basic};
  EXPECT_EQ(items.rate(request).rating.grade, unknowngen::Grade::premium);

  request.rating.past = {lather::open_enum<unknowngen::Grade>::unknown("gold")};
  try {
    (void)items.rate(request);
    ADD_FAILURE() << "the service read an unlisted value";
  } catch (const lather::soap::fault_error& e) {
    EXPECT_EQ(e.get().code, lather::soap::fault_code::sender) << e.get().reason;
    EXPECT_NE(e.get().reason.find("\"gold\" is not a value of the enumeration Grade"),
              std::string::npos)
        << e.get().reason;
  }
}

}  // namespace
