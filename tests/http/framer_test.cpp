// The HTTP framer without sockets: body_framer's bytes collected from a recording transport,
// message_parser fed bytes (whole, or one at a time) and read into small body windows.
#include "framer.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace lather::http::detail {
namespace {

/// Collects what a framer writes; the head is "HEAD\r\n" + framing + "\r\n".
class recording_transport final : public frame_transport {
 public:
  std::string wire;
  int writes = 0;
  bool fail_writes = false;

  std::string_view complete_head(std::string_view framing) override {
    head_ = "HEAD\r\n";
    head_.append(framing);
    head_.append("\r\n");
    return head_;
  }
  void write(std::span<const std::string_view> pieces) override {
    if (fail_writes) throw std::runtime_error("peer gone");
    ++writes;
    for (std::string_view p : pieces) wire.append(p);
  }

 private:
  std::string head_;
};

class BodyFramer : public ::testing::Test {
 protected:
  recording_transport t;
  body_framer f{t};
};

TEST_F(BodyFramer, BodyEndingBeforeItsFirstHandOffGoesOutWithContentLengthInOneWrite) {
  f.finish("<a/>", true);
  EXPECT_EQ(t.wire, "HEAD\r\nContent-Length: 4\r\n\r\n<a/>");
  EXPECT_EQ(t.writes, 1);
  EXPECT_EQ(f.current(), body_framer::state::finished);
}

TEST_F(BodyFramer, HeadResponseCountsTheBodyItDoesNotCarry) {
  f.finish("hello", true, /*omit_body=*/true);
  EXPECT_EQ(t.wire, "HEAD\r\nContent-Length: 5\r\n\r\n");
}

TEST_F(BodyFramer, BodyThatDoesNotFitIsOneChunkAndTheLastChunk) {
  f.finish(std::string(26, 'x'), false);
  EXPECT_EQ(t.wire, "HEAD\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\n" + std::string(26, 'x') +
                        "\r\n0\r\n\r\n");
  EXPECT_EQ(t.writes, 1);
}

TEST_F(BodyFramer, EmptyBodyThatDoesNotFitIsTheLastChunkOnly) {
  f.finish("", false);
  EXPECT_EQ(t.wire, "HEAD\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
}

TEST_F(BodyFramer, StreamedBodyIsChunkedFromTheFirstPieceAndEndsWithTheLastChunk) {
  f.write_piece("abc", true);
  EXPECT_EQ(f.current(), body_framer::state::streaming);
  f.write_piece("", true);  // nothing to send
  f.write_piece("0123456789abcdefg", true);
  f.finish("z", true);  // `fits` no longer matters: the head is out
  EXPECT_EQ(t.wire,
            "HEAD\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n11\r\n0123456789abcdefg\r\n"
            "1\r\nz\r\n0\r\n\r\n");
  EXPECT_EQ(t.writes, 3);
  f.write_piece("late", true);  // after the end: ignored
  f.finish("late", true);
  EXPECT_EQ(t.writes, 3);
}

TEST_F(BodyFramer, StreamedBodyEndingOnAPieceSendsTheLastChunkAlone) {
  f.write_piece("abc", true);
  f.finish("", true);
  EXPECT_EQ(t.wire, "HEAD\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n");
}

TEST_F(BodyFramer, PeerWithoutChunkedGetsACloseDelimitedBody) {
  f.write_piece("abc", false);
  EXPECT_TRUE(f.close_delimited());
  f.write_piece("def", false);
  f.finish("g", true);
  EXPECT_EQ(t.wire, "HEAD\r\n\r\nabcdefg");
}

TEST_F(BodyFramer, StateChangesBeforeAWriteThatThrows) {
  t.fail_writes = true;
  EXPECT_THROW(f.write_piece("abc", true), std::runtime_error);
  EXPECT_TRUE(f.started());  // part of the message may be on the wire
  f.reset();
  EXPECT_FALSE(f.started());
  EXPECT_THROW(f.finish("abc", true), std::runtime_error);
  EXPECT_EQ(f.current(), body_framer::state::finished);
}

/// Feeds `wire` to a parser `step` bytes at a time (0: all at once), reading the body through a
/// window of `window` bytes; returns the body.
template <bool isRequest>
std::string parse(message_parser<isRequest>& p, body_window& body, std::string_view wire,
                  std::size_t step, std::size_t window, bool eof = false) {
  std::string out;
  std::string buf(window, '\0');
  std::string pending;
  std::size_t fed = 0;
  body.open(buf.data(), buf.size());
  while (!p.is_done()) {
    if (step == 0)
      pending.append(wire.substr(fed)), fed = wire.size();
    else if (fed < wire.size())
      pending.append(wire.substr(fed, step)), fed += std::min(step, wire.size() - fed);
    boost::system::error_code ec;
    const std::size_t used = p.put(boost::asio::buffer(pending.data(), pending.size()), ec);
    pending.erase(0, used);
    if (p.is_header_done()) p.eager(true);
    out.append(buf.data(), body.length);
    body.open(buf.data(), buf.size());
    if (ec == boost::beast::http::error::need_buffer) continue;
    if (ec == boost::beast::http::error::need_more && fed < wire.size()) continue;
    if (ec == boost::beast::http::error::need_more && eof && pending.empty()) {
      p.put_eof(ec);
      EXPECT_FALSE(ec) << ec.message();
      break;
    }
    if (ec && ec != boost::beast::http::error::need_more) ADD_FAILURE() << ec.message();
    if (fed == wire.size() && used == 0 && body.length == 0 && !p.is_done()) break;
  }
  return out;
}

constexpr std::string_view chunked_request =
    "POST /svc?x=1 HTTP/1.1\r\nHost: h\r\nContent-Type: text/xml\r\n"
    "Transfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n"
    "5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nTrailer: t\r\n\r\n";

TEST(MessageParser, RequestHeadAndChunkedBodyWhateverTheBytesBoundaries) {
  for (std::size_t step : {0u, 1u, 3u}) {
    for (std::size_t window : {1u, 4u, 64u}) {
      head_fields head;
      body_window body;
      message_parser<true> p{head, body};
      EXPECT_EQ(parse(p, body, chunked_request, step, window), "hello, world")
          << "step " << step << " window " << window;
      EXPECT_EQ(p.method(), "POST");
      EXPECT_EQ(p.target(), "/svc?x=1");
      EXPECT_EQ(p.version(), 11u);
      EXPECT_TRUE(p.has_transfer_encoding());
      EXPECT_TRUE(p.expect_continue());
      EXPECT_EQ(head.header("content-type"), "text/xml");
      EXPECT_EQ(head.header("Trailer"), "");  // trailer fields are not headers
      EXPECT_EQ(head.header("Missing"), "");
    }
  }
}

TEST(MessageParser, HeadArenaIsReusedByTheNextMessage) {
  head_fields head;
  body_window body;
  {
    message_parser<true> p{head, body};
    parse(p, body, chunked_request, 0, 64);
  }
  message_parser<true> p{head, body};
  parse(p, body, "GET /b HTTP/1.0\r\nX-A: 1\r\n\r\n", 0, 64);
  EXPECT_EQ(p.target(), "/b");
  EXPECT_EQ(p.version(), 10u);
  EXPECT_EQ(head.header("X-A"), "1");
  EXPECT_EQ(head.header("Content-Type"), "");  // the previous message's fields are gone
  EXPECT_FALSE(p.expect_continue());
}

TEST(MessageParser, RequestWithTwoContentLengthsIsRefusedEvenWhenTheyAgree) {
  head_fields head;
  body_window body;
  message_parser<true> p{head, body};
  boost::system::error_code ec;
  std::string wire = "POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab";
  p.put(boost::asio::buffer(wire.data(), wire.size()), ec);
  EXPECT_EQ(ec, boost::beast::http::error::bad_content_length);
}

TEST(MessageParser, RequestWithTwoTransferEncodingsIsRefused) {
  head_fields head;
  body_window body;
  message_parser<true> p{head, body};
  boost::system::error_code ec;
  std::string wire =
      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n";
  p.put(boost::asio::buffer(wire.data(), wire.size()), ec);
  EXPECT_EQ(ec, boost::beast::http::error::bad_transfer_encoding);
}

TEST(MessageParser, ResponseStatusVersionAndCloseDelimitedBody) {
  head_fields head;
  body_window body;
  message_parser<false> p{head, body};
  EXPECT_EQ(parse(p, body, "HTTP/1.0 500 Oops\r\nContent-Type: text/xml\r\n\r\n<fault/>", 2, 3,
                  /*eof=*/true),
            "<fault/>");
  EXPECT_EQ(p.status(), 500u);
  EXPECT_EQ(p.version(), 10u);
  EXPECT_EQ(head.header("Content-Type"), "text/xml");
}

/// What body_framer writes, message_parser reads back: the two halves agree on every framing.
TEST(FramerRoundTrip, EveryFramingParsesBackToTheSameBody) {
  struct transport final : frame_transport {
    std::string wire, head;
    std::string_view complete_head(std::string_view framing) override {
      head = "POST /x HTTP/1.1\r\nHost: h\r\n";
      head.append(framing).append("\r\n");
      return head;
    }
    void write(std::span<const std::string_view> pieces) override {
      for (std::string_view p : pieces) wire.append(p);
    }
  };
  const std::string big(70'000, 'q');
  for (int framing = 0; framing < 3; ++framing) {
    transport t;
    body_framer f{t};
    if (framing == 0) {
      f.finish(big, true);
    } else if (framing == 1) {
      f.finish(big, false);
    } else {
      f.write_piece(std::string_view(big).substr(0, 40'000), true);
      f.finish(std::string_view(big).substr(40'000), true);
    }
    head_fields head;
    body_window body;
    message_parser<true> p{head, body};
    p.body_limit(1u << 20);
    EXPECT_EQ(parse(p, body, t.wire, 4096, 8192), big) << "framing " << framing;
  }
}

}  // namespace
}  // namespace lather::http::detail
