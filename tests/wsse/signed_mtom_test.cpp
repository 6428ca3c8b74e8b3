// A signed MTOM response: a lather server with lather::mtom echoes a 1 MB attachment as a part
// and signs its response over the XOP infoset, so the signature covers the part's bytes:
// verify_message accepts the multipart body as sent, refuses it with one byte of the part
// changed (FailedCheck), and the envelope alone, without the part its xop:Include stands for.
#include <gtest/gtest.h>

#include <string>

#include "calc_fixture.hpp"
#include "lather/mtom.hpp"
#include "lather/service/client.hpp"
#include "lather/wsse.hpp"

namespace wsse_test {
struct blob {  // request and response of "blob", which echoes it
  lather::mtom::attachment data;
};
}  // namespace wsse_test

template <>
struct lather::meta<wsse_test::blob> {
  static constexpr std::string_view name = "blob", ns = wsse_test::ns;
  static constexpr auto fields = std::tuple{element("data", &wsse_test::blob::data)};
};

namespace {

using namespace lather;

class wsse_signed_mtom : public wsse_test::calc_fixture {};

std::string fault_of(std::string_view message, const wsse::trust_store& trusted) {
  try {
    wsse::verified_signature v;
    wsse::verify_message(message, trusted, v);
    return v.body ? "" : "body not signed";
  } catch (const soap::fault_error& e) {
    return e.get().received_code.local;
  }
}

TEST_F(wsse_signed_mtom, ResponseSignedOverTheAttachmentBytes) {
  svc_.operation("blob", [](const wsse_test::blob& in) { return in; });
  mtom::enable(svc_);
  wsse::server_policy p;
  p.sign_response =
      wsse::signing{wsse::credentials::from_files(dir_ / "signer.key", dir_ / "signer.pem")};
  wsse::server_security sec{no_passwords, p};
  sec.install(svc_);
  std::string sent;  // the response as the server sends it, signed
  svc_.intercept({.before = {},
                  .after = {},
                  .whole_request = {},
                  .fault_headers = {},
                  .whole_response = [&](call_context&, std::string& e) { sent = e; }});
  srv_.mount("/calc", svc_);
  srv_.start();

  std::string bytes(1'000'000, '\0');
  std::uint32_t x = 7;
  for (char& c : bytes) c = static_cast<char>((x = x * 1103515245 + 12345) >> 24);
  client c{url()};
  mtom::enable(c);
  const auto r = c.call<wsse_test::blob>(
      "blob", wsse_test::blob{mtom::attachment::from_bytes(std::string_view(bytes))});
  const std::vector<std::uint8_t> got = r.data.bytes();
  EXPECT_EQ(std::string(got.begin(), got.end()), bytes);

  wsse::trust_store trusted;
  trusted.add_file(dir_ / "ca.pem");
  ASSERT_TRUE(sent.starts_with("--")) << sent.substr(0, 200);  // multipart, as MTOM
  EXPECT_NE(sent.find(":Include xmlns"), std::string::npos);
  EXPECT_EQ(fault_of(sent, trusted), "");
  std::string tampered = sent;
  const std::size_t part = tampered.rfind("\r\n\r\n") + 4;  // the attachment's body
  tampered[part + 500'000] ^= 1;
  EXPECT_EQ(fault_of(tampered, trusted), "FailedCheck");
  // The envelope alone: its xop:Include is refused without the part it stands for.
  const std::size_t root = sent.find("\r\n\r\n") + 4;
  const std::size_t root_end = sent.find("\r\n--", root);
  EXPECT_EQ(fault_of(std::string_view(sent).substr(root, root_end - root), trusted),
            "InvalidSecurity");
}

}  // namespace
