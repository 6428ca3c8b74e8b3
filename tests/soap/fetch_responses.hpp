// The fetch response (shared/bench/seed-2003/fetch.wsdl) exactly as Axis 1.4, soap4r and
// SOAP::Lite write it (shared/interop/WIRE-QUIRKS.md), and as gSOAP writes it in SOAP 1.2
// encoding: used by the SOAP layer's decoder tests and by the service layer's fetch client tests.
#pragma once

#include <string>

namespace lather::test_wire {

inline const std::string axis_fetch = R"(<?xml version="1.0" encoding="utf-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <soapenv:Body>
  <ns1:fetchResponse soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="urn:fetch">
   <return href="#id0"/>
  </ns1:fetchResponse>
  <multiRef id="id0" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns2:Setting" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns2="urn:fetch">
   <status xsi:type="xsd:string">ok</status>
   <parent xsi:type="ns2:Setting" xsi:nil="true"/>
   <children soapenc:arrayType="ns2:Setting[2]" xsi:type="soapenc:Array">
    <children href="#id1"/>
    <children href="#id2"/>
   </children>
   <stype xsi:type="xsd:string">root:x</stype>
   <params href="#id3"/>
  </multiRef>
  <multiRef id="id3" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns3:Map" xmlns:ns3="http://xml.apache.org/xml-soap" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <item><key xsi:type="soapenc:string">a</key><value href="#id4"/></item>
   <item><key xsi:type="soapenc:string">b</key><value href="#id4"/></item>
   <item><key xsi:type="soapenc:string">c</key><value href="#id5"/></item>
  </multiRef>
  <multiRef id="id6" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns6:Map" xmlns:ns6="http://xml.apache.org/xml-soap" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <item><key xsi:type="soapenc:string">x</key><value href="#id5"/></item>
  </multiRef>
  <multiRef id="id1" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns4:Setting" xmlns:ns4="urn:fetch" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <status xsi:type="xsd:string">ok</status>
   <parent href="#id0"/>
   <children soapenc:arrayType="ns4:Setting[0]" xsi:type="soapenc:Array"/>
   <stype xsi:type="xsd:string">child</stype>
   <params href="#id6"/>
  </multiRef>
  <multiRef id="id2" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns5:Setting" xmlns:ns5="urn:fetch" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <status xsi:type="xsd:string">warn</status>
   <parent href="#id0"/>
   <children soapenc:arrayType="ns5:Setting[0]" xsi:type="soapenc:Array"/>
   <stype xsi:type="xsd:string">child</stype>
   <params href="#id7"/>
  </multiRef>
  <multiRef id="id4" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns7:Value" xmlns:ns7="urn:fetch" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <errcode xsi:type="xsd:int">0</errcode>
   <new xsi:type="xsd:string">1</new>
   <errtext xsi:type="xsd:string">none</errtext>
   <cur xsi:type="xsd:string">0</cur>
  </multiRef>
  <multiRef id="id5" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns8:Value" xmlns:ns8="urn:fetch" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <errcode xsi:type="xsd:int">2</errcode>
   <new xsi:type="xsd:string">h&#xe9;llo</new>
   <errtext xsi:type="xsd:string">out of range &lt;&amp;&gt;</errtext>
   <cur xsi:type="xsd:string">5</cur>
  </multiRef>
  <multiRef id="id7" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns9:Map" xmlns:ns9="http://xml.apache.org/xml-soap" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"/>
 </soapenv:Body>
</soapenv:Envelope>)";

inline const std::string soap4r_fetch = R"(<?xml version="1.0" encoding="utf-8" ?>
<env:Envelope xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <env:Body>
    <n1:fetchResponse xmlns:n1="urn:fetch"
        env:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
      <return href="#id3560"/>
    </n1:fetchResponse>
    <return id="id3560" xsi:type="n2:Setting" xmlns:n2="urn:fetch"
        env:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
      <status xsi:type="xsd:string">ok</status>
      <parent xsi:nil="true"></parent>
      <children xmlns:n3="http://schemas.xmlsoap.org/soap/encoding/"
          xsi:type="n3:Array"
          n3:arrayType="xsd:anyType[2]">
        <item xsi:type="n2:Setting">
          <status xsi:type="xsd:string">ok</status>
          <parent href="#id3560"></parent>
          <children xsi:type="n3:Array" n3:arrayType="xsd:anyType[0]"></children>
          <stype xsi:type="xsd:string">child</stype>
          <params xmlns:n4="http://xml.apache.org/xml-soap" xsi:type="n4:Map">
            <item>
              <key xsi:type="xsd:string">x</key>
              <value href="#id3940"></value>
            </item>
          </params>
        </item>
        <item xsi:type="n2:Setting">
          <status xsi:type="xsd:string">warn</status>
          <parent href="#id3560"></parent>
          <children xsi:type="n3:Array" n3:arrayType="xsd:anyType[0]"></children>
          <stype xsi:type="xsd:string">child</stype>
          <params xmlns:n5="http://xml.apache.org/xml-soap" xsi:type="n5:Map"></params>
        </item>
      </children>
      <stype xsi:type="xsd:string">root:x</stype>
      <params xmlns:n6="http://xml.apache.org/xml-soap" xsi:type="n6:Map">
        <item><key xsi:type="xsd:string">a</key><value href="#id3920"></value></item>
        <item><key xsi:type="xsd:string">b</key><value href="#id3920"></value></item>
        <item><key xsi:type="xsd:string">c</key><value href="#id3940"></value></item>
      </params>
    </return>
    <value id="id3920" xsi:type="n7:Value" xmlns:n7="urn:fetch"
        env:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
      <errcode xsi:type="xsd:int">0</errcode>
      <new xsi:type="xsd:string">1</new>
      <errtext xsi:type="xsd:string">none</errtext>
      <cur xsi:type="xsd:string">0</cur>
    </value>
    <value id="id3940" xsi:type="n8:Value" xmlns:n8="urn:fetch"
        env:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
      <errcode xsi:type="xsd:int">2</errcode>
      <new xsi:type="xsd:string">h&#233;llo</new>
      <errtext xsi:type="xsd:string">out of range &lt;&amp;&gt;</errtext>
      <cur xsi:type="xsd:string">5</cur>
    </value>
  </env:Body>
</env:Envelope>)";

// SOAP::Lite: root in place with an id, hrefs back to the enclosing element, xsi:type and
// arrayType on referring elements, empty arrays as multi-refs, autotyped values (xsd:int,
// base64 for non-ASCII), shared Values named after the class, and stray orphan copies.
inline const std::string soaplite_fetch =
    R"(<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><fetchResponse xmlns="urn:fetch"><return id="ref-94286374969384" xsi:type="namesp1:Setting" xmlns:namesp1="http://namespaces.soaplite.com/perl"><status xsi:type="xsd:string">ok</status><parent xsi:nil="true" /><children soapenc:arrayType="namesp1:Setting[2]" xsi:type="soapenc:Array"><item xsi:type="namesp1:Setting"><status xsi:type="xsd:string">ok</status><parent href="#ref-94286374969384" xsi:type="namesp1:Setting" /><children href="#ref-94286375100000" xsi:type="soapenc:Array" soapenc:arrayType="xsd:anyType[0]" /><stype xsi:type="xsd:string">child</stype><params xsi:type="apachens:Map" xmlns:apachens="http://xml.apache.org/xml-soap"><item><key xsi:type="xsd:string">x</key><value href="#ref-94286375200000" xsi:type="namesp1:Value" /></item></params></item><item xsi:type="namesp1:Setting"><status xsi:type="xsd:string">warn</status><parent href="#ref-94286374969384" xsi:type="namesp1:Setting" /><children href="#ref-94286375100000" xsi:type="soapenc:Array" soapenc:arrayType="xsd:anyType[0]" /><stype xsi:type="xsd:string">child</stype><params xsi:type="apachens:Map" xmlns:apachens="http://xml.apache.org/xml-soap" /></item></children><stype xsi:type="xsd:string">root:x</stype><params xsi:type="apachens:Map" xmlns:apachens="http://xml.apache.org/xml-soap"><item><key xsi:type="xsd:string">a</key><value href="#ref-94286375300000" xsi:type="namesp1:Value" /></item><item><key xsi:type="xsd:string">b</key><value href="#ref-94286375300000" xsi:type="namesp1:Value" /></item><item><key xsi:type="xsd:string">c</key><value href="#ref-94286375200000" xsi:type="namesp1:Value" /></item></params></return></fetchResponse><soapenc:Array id="ref-94286375100000" soapenc:arrayType="xsd:anyType[0]" xsi:type="soapenc:Array" /><Value id="ref-94286375300000" xsi:type="namesp2:Value" xmlns:namesp2="http://namespaces.soaplite.com/perl"><errcode xsi:type="xsd:int">0</errcode><new xsi:type="xsd:int">1</new><errtext xsi:type="xsd:string">none</errtext><cur xsi:type="xsd:int">0</cur></Value><Value id="ref-94286375200000" xsi:type="namesp3:Value" xmlns:namesp3="http://namespaces.soaplite.com/perl"><errcode xsi:type="xsd:int">2</errcode><new xsi:type="xsd:base64Binary">aMOpbGxv</new><errtext xsi:type="xsd:string">out of range &lt;&amp;&gt;</errtext><cur xsi:type="xsd:int">5</cur></Value><params xsi:type="apachens:Map" xmlns:apachens="http://xml.apache.org/xml-soap"><item><key xsi:type="xsd:string">a</key><value xsi:type="xsd:string">stray</value></item></params><status _id="1" xsi:type="xsd:string">ok</status><cur _id="1" xsi:type="xsd:int">5</cur></soap:Body></soap:Envelope>)";

// gSOAP 2.8.124 in SOAP 1.2 (soapcpp2 -2), printed by gsoap12/make_vector.sh: SOAP 1.2 Part 2
// graphs (enc:id on the first occurrence, in place; enc:ref="id" after, here back to an
// ancestor still being read) and arrays with enc:itemType / enc:arraySize.
inline const std::string gsoap12_fetch = R"(<?xml version="1.0" encoding="UTF-8"?>
<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://www.w3.org/2003/05/soap-envelope" xmlns:SOAP-ENC="http://www.w3.org/2003/05/soap-encoding" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:ns2="http://xml.apache.org/xml-soap" xmlns:ns1="urn:fetch">
	<SOAP-ENV:Body>
		<ns1:fetchResponse SOAP-ENV:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
			<return SOAP-ENC:id="_1">
				<status>ok</status>
				<parent xsi:nil="true"/>
				<children SOAP-ENC:itemType="ns1:Setting" SOAP-ENC:arraySize="2">
					<item>
						<status>ok</status>
						<parent SOAP-ENC:ref="_1"/>
						<children></children>
						<stype>child</stype>
						<params>
							<item>
								<key xsi:type="xsd:string">x</key>
								<value SOAP-ENC:id="_10" xsi:type="ns1:Value">
									<errcode>2</errcode>
									<new>héllo</new>
									<errtext>out of range &lt;&amp;&gt;</errtext>
									<cur>5</cur>
								</value>
							</item>
						</params>
					</item>
					<item>
						<status>warn</status>
						<parent SOAP-ENC:ref="_1"/>
						<children></children>
						<stype>child</stype>
						<params></params>
					</item>
				</children>
				<stype>root:x</stype>
				<params>
					<item>
						<key xsi:type="xsd:string">a</key>
						<value SOAP-ENC:id="_22" xsi:type="ns1:Value">
							<errcode>0</errcode>
							<new>1</new>
							<errtext>none</errtext>
							<cur>0</cur>
						</value>
					</item>
					<item>
						<key xsi:type="xsd:string">b</key>
						<value SOAP-ENC:ref="_22"/>
					</item>
					<item>
						<key xsi:type="xsd:string">c</key>
						<value SOAP-ENC:ref="_10"/>
					</item>
				</params>
			</return>
		</ns1:fetchResponse>
	</SOAP-ENV:Body>
</SOAP-ENV:Envelope>)";

}  // namespace lather::test_wire
