#include "lather/soap/version.hpp"

#include <gtest/gtest.h>

namespace soap = lather::soap;

TEST(SoapVersion, ContentTypes) {
  EXPECT_EQ(soap::content_type(soap::version::soap11, "urn:x#op"), "text/xml; charset=utf-8");
  EXPECT_EQ(soap::content_type(soap::version::soap12), "application/soap+xml; charset=utf-8");
  EXPECT_EQ(soap::content_type(soap::version::soap12, "urn:x#op"),
            "application/soap+xml; charset=utf-8; action=\"urn:x#op\"");
  EXPECT_EQ(soap::soap_action_header("urn:fetch#fetch"), "\"urn:fetch#fetch\"");
  EXPECT_EQ(soap::soap_action_header(""), "\"\"");
}

TEST(SoapVersion, ParsesContentTypeHeaders) {
  auto a = soap::parse_content_type("text/xml; charset=UTF-8");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->ver, soap::version::soap11);
  auto b = soap::parse_content_type("Application/SOAP+XML;charset=utf-8; action=\"urn:a#b\"");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->ver, soap::version::soap12);
  EXPECT_EQ(b->action, "urn:a#b");
  auto c = soap::parse_content_type("application/soap+xml; action=urn:a#b");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->action, "urn:a#b");
  EXPECT_FALSE(soap::parse_content_type("application/json"));
}

TEST(SoapVersion, UnquotesSoapAction) {
  EXPECT_EQ(soap::unquote_soap_action("\"urn:interop#echoString\""), "urn:interop#echoString");
  // SOAP::Lite sends it without quotes.
  EXPECT_EQ(soap::unquote_soap_action("urn:interop#echoString"), "urn:interop#echoString");
  EXPECT_EQ(soap::unquote_soap_action(" \"\" "), "");
}

TEST(SoapVersion, Namespaces) {
  EXPECT_EQ(soap::version_from_namespace(soap::soap11_envelope_ns), soap::version::soap11);
  EXPECT_EQ(soap::version_from_namespace(soap::soap12_envelope_ns), soap::version::soap12);
  EXPECT_FALSE(soap::version_from_namespace("http://example.com/not-soap"));
}
