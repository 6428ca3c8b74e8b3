// Signed MTOM messages, lather to lather: a server with lather::mtom echoes a 1 MB attachment
// as a part and signs its response over the XOP infoset, so the signature covers the part's
// bytes: verify_message accepts the multipart body as sent, refuses it with one byte of the
// part changed (FailedCheck), and the envelope alone, without the part its xop:Include stands
// for. A signing client sends MTOM signed the same way and the server verifies it before the
// handler runs (also when parts are read as they arrive); a client verifies a signed MTOM
// response (also when it takes parts as they arrive); a part changed in transit either way is
// FailedCheck.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

class wsse_signed_mtom : public wsse_test::calc_fixture {
 protected:
  static std::string random_bytes(std::size_t n) {
    std::string bytes(n, '\0');
    std::uint32_t x = 7;
    for (char& c : bytes) c = static_cast<char>((x = x * 1103515245 + 12345) >> 24);
    return bytes;
  }
  static wsse::credentials signer() {
    return wsse::credentials::from_files(dir_ / "signer.key", dir_ / "signer.pem");
  }
  static wsse::trust_store trusted() {
    wsse::trust_store t;
    t.add_file(dir_ / "ca.pem");
    return t;
  }
  /// Flips one byte in the middle of the last MIME part of a multipart body.
  static void tamper_last_part(std::string& body) {
    const std::size_t part = body.rfind("\r\n\r\n") + 4;
    const std::size_t end = body.find("\r\n--", part);
    ASSERT_NE(end, std::string::npos);
    body[part + (end - part) / 2] ^= 1;
  }
  static std::string code_of(const soap::fault_error& e) { return e.get().received_code.local; }
};

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

  const std::string bytes = random_bytes(1'000'000);
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

TEST_F(wsse_signed_mtom, ServerVerifiesARequestSignedOverItsAttachment) {
  std::vector<std::string> content_types, signers;
  svc_.operation("blob", [&](call_context& ctx, const wsse_test::blob& in) {
    content_types.emplace_back(ctx.http_header("Content-Type"));
    signers.emplace_back(wsse::server_security::signer(ctx));
    return in;
  });
  mtom::enable(svc_);
  wsse::server_security sec{no_passwords, {.timestamp = true, .signature = true}};
  sec.set_trust_store(trusted());
  sec.install(svc_);
  srv_.mount("/calc", svc_);
  srv_.start();

  const std::string bytes = random_bytes(1'000'000);
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client_options o;
    o.version = v;
    client c{url(), o};
    mtom::enable(c);
    wsse::client_security csec{{.timestamp = true, .sign = wsse::signing{signer()}}};
    csec.install(c);
    const auto r = c.call<wsse_test::blob>(
        "blob", wsse_test::blob{mtom::attachment::from_bytes(std::string_view(bytes))});
    const std::vector<std::uint8_t> got = r.data.bytes();
    EXPECT_EQ(std::string(got.begin(), got.end()), bytes);
  }
  ASSERT_EQ(content_types.size(), 2u);
  for (const std::string& t : content_types)
    EXPECT_TRUE(t.starts_with("multipart/related")) << t;  // sent as MTOM, signed
  EXPECT_NE(signers[0].find("signer"), std::string::npos) << signers[0];

  // One byte of the attachment changed on the way: FailedCheck, the handler never runs.
  client c{url()};
  mtom::enable(c);
  wsse::client_security csec{{.timestamp = true, .sign = wsse::signing{signer()}}};
  csec.install(c);
  c.intercept(
      {.write_headers = {}, .after = {}, .whole_request = [](std::string_view, std::string& body) {
         tamper_last_part(body);
       }});
  try {
    c.call<wsse_test::blob>("blob",
                            wsse_test::blob{mtom::attachment::from_bytes(std::string_view(bytes))});
    ADD_FAILURE() << "a tampered attachment was accepted";
  } catch (const soap::fault_error& e) {
    EXPECT_EQ(code_of(e), "FailedCheck");
  }
  EXPECT_EQ(content_types.size(), 2u);
}

TEST_F(wsse_signed_mtom, ServerReadingPartsAsTheyArriveVerifiesFirst) {
  // stream_parts: the parts the signature covers are read and kept for verification, then the
  // handler reads them from where they were kept (a temporary file past 1 MiB).
  std::size_t seen = 0;
  svc_.operation("blob", [&](const wsse_test::blob& in) {
    byte_source part = in.data.open();
    char buf[65536];
    while (std::size_t n = part(buf, sizeof buf)) seen += n;
    return wsse_test::blob{mtom::attachment::from_bytes(std::string_view("ok"))};
  });
  mtom::options so;
  so.stream_parts = true;
  mtom::enable(svc_, so);
  wsse::server_security sec{no_passwords, {.signature = true}};
  sec.set_trust_store(trusted());
  sec.install(svc_);
  srv_.mount("/calc", svc_);
  srv_.start();

  const std::string bytes = random_bytes(3'000'000);
  client c{url()};
  mtom::enable(c);
  wsse::client_security csec{{.sign = wsse::signing{signer()}}};
  csec.install(c);
  c.call<wsse_test::blob>("blob",
                          wsse_test::blob{mtom::attachment::from_bytes(std::string_view(bytes))});
  EXPECT_EQ(seen, bytes.size());
}

TEST_F(wsse_signed_mtom, ClientVerifiesAResponseSignedOverItsAttachment) {
  svc_.operation("blob", [](const wsse_test::blob& in) { return in; });
  mtom::enable(svc_);
  wsse::server_policy p;
  p.sign_response = wsse::signing{signer()};
  wsse::server_security sec{no_passwords, p};
  sec.install(svc_);
  bool tamper = false;
  svc_.intercept({.before = {},
                  .after = {},
                  .whole_request = {},
                  .fault_headers = {},
                  .whole_response = [&](call_context&, std::string& e) {
                    if (tamper) tamper_last_part(e);
                  }});
  srv_.mount("/calc", svc_);
  srv_.start();

  const std::string bytes = random_bytes(1'000'000);
  const wsse::client_policy verify{.verify_response = wsse::response_verification{trusted()}};
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client_options o;
    o.version = v;
    client c{url(), o};
    mtom::enable(c);
    wsse::client_security{verify}.install(c);
    const auto r = c.call<wsse_test::blob>(
        "blob", wsse_test::blob{mtom::attachment::from_bytes(std::string_view(bytes))});
    const std::vector<std::uint8_t> got = r.data.bytes();
    EXPECT_EQ(std::string(got.begin(), got.end()), bytes);
  }
  // Taking the response's parts as they arrive: the part verification kept is handed over.
  {
    std::string taken;
    mtom::options co;
    co.on_response_part = [&](std::string_view, std::string_view, const byte_source& in) {
      char buf[65536];
      while (std::size_t n = in(buf, sizeof buf)) taken.append(buf, n);
    };
    client c{url()};
    mtom::enable(c, co);
    wsse::client_security{verify}.install(c);
    c.call<wsse_test::blob>("blob",
                            wsse_test::blob{mtom::attachment::from_bytes(std::string_view(bytes))});
    EXPECT_EQ(taken, bytes);
  }
  // One byte of the response's attachment changed after signing: FailedCheck.
  tamper = true;
  client c{url()};
  mtom::enable(c);
  wsse::client_security{verify}.install(c);
  try {
    c.call<wsse_test::blob>("blob",
                            wsse_test::blob{mtom::attachment::from_bytes(std::string_view(bytes))});
    ADD_FAILURE() << "a tampered response attachment was accepted";
  } catch (const soap::fault_error& e) {
    EXPECT_EQ(code_of(e), "FailedCheck");
  }
}

}  // namespace
