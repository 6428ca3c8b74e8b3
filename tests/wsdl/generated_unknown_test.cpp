// A client generated with --keep-unknown (data/unknown.wsdl, lather_generate KEEP_UNKNOWN)
// against a newer server, over loopback HTTP: the server's types (code-first, below) carry
// elements the contract does not declare, before, between and after the declared ones and in a
// nested type. The client keeps them (lather::bind::unknown_elements), counts them
// (read_options::count_unknown) and, sending the value back, writes them where they were, so
// that the newer server reads them as its own fields.
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
