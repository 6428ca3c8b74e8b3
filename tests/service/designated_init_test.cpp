// The option structs users fill with designated initializers name any one member without a
// warning: this file is compiled with -Wextra -Werror (-Wmissing-field-initializers warns for
// every member left out that has no default member initializer), whatever the build's flags.
// Each struct is initialized by one member at the end and one at the start, so every other
// member is left out at least once; the tests check that the left-out ones keep their defaults.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/wsdl/load.hpp"
#include "lather/wsse/signature.hpp"

namespace {

using namespace std::chrono_literals;

TEST(DesignatedInit, CallOptions) {
  const lather::call_options last{.timeout = 5s};
  EXPECT_EQ(last.style, lather::soap::style::document_wrapped);
  EXPECT_TRUE(last.soap_action.empty());
  EXPECT_TRUE(last.headers.empty());
  EXPECT_FALSE(last.read_header);
  EXPECT_FALSE(last.on_accepted);
  const lather::call_options first{.style = lather::soap::style::rpc_literal};
  EXPECT_EQ(first.timeout, 0ms);
  EXPECT_TRUE(first.element_ns.empty());
}

TEST(DesignatedInit, OperationOptions) {
  const lather::operation_options last{.faults = {{.name = "Oops"}}};
  EXPECT_EQ(last.style, lather::soap::style::document_wrapped);
  EXPECT_TRUE(last.fault_actions.empty());
  EXPECT_EQ(last.faults.front().detail, nullptr);
  const lather::operation_options first{.style = lather::soap::style::rpc_encoded};
  EXPECT_TRUE(first.faults.empty());
  EXPECT_EQ(first.timeout, 0ms);
  const lather::operation_options::fault_action action{.action = "urn:a"};
  EXPECT_TRUE(action.ns.empty());
  const lather::fault_declaration fault{.detail = nullptr};
  EXPECT_TRUE(fault.name.empty());
}

TEST(DesignatedInit, ServiceAndServerOptions) {
  const lather::service_options last{.xml_declaration = false};
  EXPECT_TRUE(last.soap11);
  EXPECT_TRUE(last.static_wsdl.empty());
  const lather::service_options first{.soap11 = false};
  EXPECT_TRUE(first.xml_declaration);
  const lather::service_options::contract_names names{.port = "P"};
  EXPECT_TRUE(names.port_type.empty());
  const lather::soap_server_options soap{.public_base_url = "http://x"};
  EXPECT_EQ(soap.access_log, nullptr);
  const lather::server_options both{{.port = 8080}, {.access_log = stderr}};
  EXPECT_TRUE(both.hide_internal_errors);
  const lather::call_error error{.message = "m"};
  EXPECT_TRUE(error.path.empty());
}

TEST(DesignatedInit, Interceptors) {
  const lather::client_interceptor client{.whole_response = {}};
  EXPECT_FALSE(client.write_headers);
  const lather::interceptor server{.whole_response = {}};
  EXPECT_FALSE(server.before);
  const lather::call_info info{.micros = 1};
  EXPECT_TRUE(info.operation.empty());
}

TEST(DesignatedInit, LowerLayers) {
  const lather::soap::envelope_options read{.expect = lather::soap::version::soap12};
  EXPECT_TRUE(read.ultimate_receiver);
  EXPECT_TRUE(read.roles.empty());
  const lather::soap::envelope_write_options write{.xml_declaration = false};
  EXPECT_TRUE(write.namespaces.empty());
  const lather::wsdl::load_options load{.catalogs = {"c.xml"}};
  EXPECT_EQ(load.catalogs.size(), 1u);
  const lather::wsse::signature_options sign{.timestamp = false};
  EXPECT_TRUE(sign.headers.empty());
}

}  // namespace
