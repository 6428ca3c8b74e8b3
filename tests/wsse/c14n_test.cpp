// Exclusive C14N (lather::wsse::exclusive_c14n over lather's reader) against libxml2's
// xmlC14NDocSaveTo as the oracle (libxml2 is a test dependency only): every case
// canonicalizes a chosen element (the apex) with a PrefixList, both ways, and compares bytes.
#include <gtest/gtest.h>
#include <libxml/c14n.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../support/paths.hpp"
#include "lather/wsse/c14n.hpp"
#include "lather/wsse/client.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace {

using namespace lather;

// The n-th element named `local` in document order (libxml2's tree).
xmlNodePtr find(xmlNodePtr node, std::string_view local, int& n) {
  for (; node; node = node->next) {
    if (node->type != XML_ELEMENT_NODE) continue;
    if (local == reinterpret_cast<const char*>(node->name) && n-- == 0) return node;
    if (xmlNodePtr hit = find(node->children, local, n)) return hit;
  }
  return nullptr;
}

int write_to_string(void* context, const char* buffer, int len) {
  static_cast<std::string*>(context)->append(buffer, static_cast<std::size_t>(len));
  return len;
}

// The apex's subtree as a node set, the way XML-DSig selects it: every node, attribute and
// namespace node at or below the apex.
int in_subtree(void* apex, xmlNodePtr node, xmlNodePtr parent) {
  xmlNodePtr n = node == nullptr || node->type == XML_NAMESPACE_DECL ? parent : node;
  for (; n; n = n->parent)
    if (n == apex) return 1;
  return 0;
}

enum class oracle { execute, doc_save_to };

// libxml2's exclusive C14N of the subtree. doc_save_to: xmlC14NDocSaveTo with the node set
// from XPath (quadratic in libxml2: small documents only); execute: the same engine given the
// subtree as a visibility callback.
std::string libxml2_c14n(const std::string& doc, std::string_view apex_local, int occurrence,
                         const std::vector<std::string>& prefixes, oracle how = oracle::execute) {
  xmlDocPtr d =
      xmlReadMemory(doc.data(), static_cast<int>(doc.size()), "case.xml", nullptr, XML_PARSE_NONET);
  if (!d) return "libxml2: not well-formed";
  std::string out;
  int n = occurrence;
  xmlNodePtr apex = find(xmlDocGetRootElement(d), apex_local, n);
  std::vector<xmlChar*> list;
  for (const std::string& p : prefixes) list.push_back(BAD_CAST p.c_str());
  list.push_back(nullptr);
  xmlChar** inclusive = prefixes.empty() ? nullptr : list.data();
  xmlOutputBufferPtr buf = xmlOutputBufferCreateIO(write_to_string, nullptr, &out, nullptr);
  int rc = -1;
  if (apex && how == oracle::execute) {
    rc = xmlC14NExecute(d, in_subtree, apex, XML_C14N_EXCLUSIVE_1_0, inclusive, 0, buf);
  } else if (apex) {
    xmlXPathContextPtr ctx = xmlXPathNewContext(d);
    ctx->node = apex;
    xmlXPathObjectPtr set =
        xmlXPathEval(BAD_CAST
                     "(descendant-or-self::node() | descendant-or-self::node()/@* | "
                     "descendant-or-self::node()/namespace::*)",
                     ctx);
    rc = xmlC14NDocSaveTo(d, set->nodesetval, XML_C14N_EXCLUSIVE_1_0, inclusive, 0, buf);
    xmlXPathFreeObject(set);
    xmlXPathFreeContext(ctx);
  }
  xmlOutputBufferClose(buf);
  xmlFreeDoc(d);
  if (!apex) return "libxml2: no apex";
  return rc < 0 ? "libxml2: c14n failed" : out;
}

std::string lather_c14n(const std::string& doc, std::string_view apex_local, int occurrence,
                        const std::vector<std::string>& prefixes) {
  xml::reader r;
  r.reset(doc);
  std::string out;
  wsse::exclusive_c14n c{[&](std::string_view bytes) { out += bytes; }, prefixes};
  for (xml::token t = r.next(); t != xml::token::end_document; t = r.next()) {
    if (t == xml::token::error) return "lather: " + r.error().message();
    if (t == xml::token::start_element && r.local_name() == apex_local && occurrence-- == 0) {
      c.feed_element(r);
      EXPECT_TRUE(c.complete());
      return out;
    }
  }
  return "lather: no apex";
}

struct c14n_case {
  const char* name;
  std::string doc;
  const char* apex;
  int occurrence = 0;
  std::vector<std::string> prefixes{};
};

void expect_same(const c14n_case& c, oracle how = oracle::execute) {
  const std::string want = libxml2_c14n(c.doc, c.apex, c.occurrence, c.prefixes, how);
  ASSERT_EQ(want.rfind("libxml2:", 0), std::string::npos) << c.name << ": " << want;
  EXPECT_EQ(lather_c14n(c.doc, c.apex, c.occurrence, c.prefixes), want) << c.name;
}

const std::string soap11 = "http://schemas.xmlsoap.org/soap/envelope/";

std::vector<c14n_case> tricky_cases() {
  return {
      {"body uses envelope's prefixes",
       "<s:Envelope xmlns:s='" + soap11 +
           "' xmlns:m='urn:m' xmlns:unused='urn:u'><s:Header/><s:Body s:id='b'><m:op><m:a>1</m:a>"
           "</m:op></s:Body></s:Envelope>",
       "Body"},
      {"default namespace inherited",
       "<Envelope xmlns='" + soap11 + "'><Body><op xmlns='urn:m'><a>x</a></op></Body></Envelope>",
       "Body"},
      {"xmlns='' under a default namespace, apex inside",
       "<a xmlns='urn:a'><b xmlns=''><c/></b></a>", "b"},
      {"xmlns='' under a default namespace, apex outside",
       "<a xmlns='urn:a'><b xmlns=''><c xmlns='urn:c'/></b></a>", "a"},
      {"attributes sorted by namespace URI, not prefix",
       "<e xmlns:b='urn:a' xmlns:a='urn:b' a:x='1' b:x='2' z='3' y='4'/>", "e"},
      {"namespaces sorted by prefix, default first",
       "<r xmlns='urn:d' xmlns:z='urn:z' xmlns:a='urn:a'><z:e a:x='1'/></r>", "e"},
      {"prefix rebound below", "<p:a xmlns:p='urn:1'><p:b xmlns:p='urn:2'><p:c/></p:b><p:d/></p:a>",
       "a"},
      {"same binding declared again is not rendered again",
       "<p:a xmlns:p='urn:1'><p:b xmlns:p='urn:1'/></p:a>", "a"},
      {"binding used only below the apex is rendered where used",
       "<r xmlns:q='urn:q'><apex><q:x/><q:y/></apex></r>", "apex"},
      {"inclusive prefixes: QName in content",
       "<s:Envelope xmlns:s='" + soap11 +
           "' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' "
           "xmlns:xsd='http://www.w3.org/2001/XMLSchema'><s:Body><v xsi:type='xsd:int'>1</v>"
           "<w>xsd:string</w></s:Body></s:Envelope>",
       "Body",
       0,
       {"xsd", "xsi"}},
      {"inclusive #default",
       "<r xmlns='urn:d'><x:apex xmlns:x='urn:x'><x:c/></x:apex></r>",
       "apex",
       0,
       {"#default"}},
      {"inclusive prefix not in scope is ignored",
       "<r><apex/></r>",
       "apex",
       0,
       {"nope", "#default"}},
      {"inclusive prefix rendered once, at the apex",
       "<r xmlns:k='urn:k'><apex><c><d/></c></apex></r>",
       "apex",
       0,
       {"k"}},
      {"escaping in text", "<r>a &amp; b &lt; c &gt; d &#xD; e \"'</r>", "r"},
      {"escaping in attributes",
       "<r a='&quot;&amp;&lt;&gt;&apos;' b='x&#x9;y&#xA;z&#xD;w' c='lit\tt\nn'/>", "r"},
      {"CDATA and comments", "<r><!-- c --><![CDATA[<x> & ]]>t<!-- d --></r>", "r"},
      {"whitespace kept", "<r>\n  <a> </a>\n  <b/>\n</r>", "r"},
      {"unicode", "<r a='h\xc3\xa9llo'>w\xc3\xb6rld \xe2\x9c\x93 \xf0\x9f\x98\x80</r>", "r"},
      {"xml:lang not declared",
       "<r xmlns:p='urn:p'><p:t xml:lang='en' xml:space='preserve'>x</p:t></r>", "t"},
      {"attribute prefix declared on an ancestor, element unprefixed",
       "<r xmlns:a='urn:a' xmlns='urn:d'><e a:x='1'><f/></e></r>", "e"},
      {"second occurrence", "<r xmlns:p='urn:p'><p:e>1</p:e><p:e>2</p:e></r>", "e", 1},
      {"line ends normalised", "<r>a\r\nb\rc</r>", "r"},
      {"wsu:Id and mustUnderstand",
       "<s:Envelope xmlns:s='" + soap11 +
           "'><s:Header><wsse:Security s:mustUnderstand='1' "
           "xmlns:wsse='http://docs.oasis-open.org/wss/2004/01/"
           "oasis-200401-wss-wssecurity-secext-1.0.xsd' "
           "xmlns:wsu='http://docs.oasis-open.org/wss/2004/01/"
           "oasis-200401-wss-wssecurity-utility-1.0.xsd'><wsu:Timestamp wsu:Id='TS-1'>"
           "<wsu:Created>2024-01-01T00:00:00.000Z</wsu:Created></wsu:Timestamp></wsse:Security>"
           "</s:Header><s:Body/></s:Envelope>",
       "Timestamp"},
  };
}

TEST(wsse_c14n, TrickyNamespaceCasesMatchLibxml2) {
  for (const c14n_case& c : tricky_cases()) {
    expect_same(c, oracle::doc_save_to);
    expect_same(c, oracle::execute);
  }
}

TEST(wsse_c14n, KnownOutput) {
  // exc-c14n spec, section 2.2's point: the apex gets only the namespaces it uses.
  EXPECT_EQ(lather_c14n("<n0:local xmlns:n0='foo:bar' xmlns:n3='ftp://example.org'><n1:elem2 "
                        "xmlns:n1='http://example.net' xml:lang='en'><n3:stuff "
                        "xmlns:n3='ftp://example.org'/></n1:elem2></n0:local>",
                        "elem2", 0, {}),
            "<n1:elem2 xmlns:n1=\"http://example.net\" xml:lang=\"en\"><n3:stuff "
            "xmlns:n3=\"ftp://example.org\"></n3:stuff></n1:elem2>");
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(wsse_c14n, RecordedMessagesMatchLibxml2) {
  const auto dir = std::filesystem::path(lather::test::source_dir) / "tests/xml/data";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".xml") continue;
    ++files;
    const std::string doc = slurp(entry.path());
    const std::string name = entry.path().filename().string();
    expect_same({name.c_str(), doc, "Envelope"});
    expect_same({name.c_str(), doc, "Body"});
    expect_same({name.c_str(), doc, "Body", 0, {"xsd", "xsi", "soapenc", "#default"}});
  }
  EXPECT_GE(files, 3);
}

TEST(wsse_c14n, SecurityHeaderAsLatherWritesIt) {
  wsse::client_policy p;
  p.token = wsse::username_token{"u", "p"};
  p.timestamp = true;
  xml::output out;
  xml::writer w{out};
  w.start_element(soap11, "Envelope");
  w.start_element(soap11, "Header");
  wsse::client_security{p}.write_header(w, soap::version::soap11, p);
  w.end_element();
  w.start_element(soap11, "Body");
  w.end_element();
  w.end_element();
  w.end_document();
  const std::string doc(out.view());
  for (const char* apex : {"Security", "Timestamp", "UsernameToken", "Envelope"})
    expect_same({apex, doc, apex});
}

TEST(wsse_c14n, StreamsFromAPullSourceInSmallPieces) {
  // A 200 KB Body read three bytes at a time: same bytes as from the whole document, and
  // the sink gets pieces of at most ~4 KiB.
  std::string doc = "<s:Envelope xmlns:s='" + soap11 + "'><s:Body><m:list xmlns:m='urn:m'>";
  for (int i = 0; i < 5000; ++i) doc += "<m:item n='" + std::to_string(i) + "'>v &amp; w</m:item>";
  doc += "</m:list></s:Body></s:Envelope>";
  const std::string whole = lather_c14n(doc, "Body", 0, {});

  xml::reader r;
  r.reset();
  std::size_t at = 0;
  r.set_source([&](char* dest, std::size_t n) {
    const std::size_t k = std::min<std::size_t>({n, 3, doc.size() - at});
    doc.copy(dest, k, at);
    at += k;
    return k;
  });
  std::string streamed;
  std::size_t largest = 0;
  wsse::exclusive_c14n c{[&](std::string_view bytes) {
    streamed += bytes;
    largest = std::max(largest, bytes.size());
  }};
  while (!(r.next() == xml::token::start_element && r.local_name() == "Body")) {
  }
  c.feed_element(r);
  EXPECT_EQ(streamed, whole);
  EXPECT_LT(largest, 8192u);
}

}  // namespace
