// gSOAP serving one call of fetch.wsdl in SOAP 1.2 (soapcpp2 -2), stdin to stdout (CGI mode):
// the answer carries lather::perf::make_fetch_graph(param) (two Values shared, a child -> parent
// cycle) as gSOAP encodes graphs in SOAP 1.2: enc:id on the first occurrence, enc:ref after.
// make_vector.sh builds and runs it; its output is gsoap12_fetch in ../fetch_responses.hpp.
#include "FetchBinding.nsmap"
#include "soapFetchBindingService.h"

class service : public FetchBindingService {
 public:
  using FetchBindingService::FetchBindingService;
  int fetch(const std::string& param, ns1__fetchResponse& out) override {
    auto text = [&](const std::string& v) {
      std::string* p = soap_new_std__string(soap);
      *p = v;
      return p;
    };
    auto value = [&](int code, const char* n, const char* t, const char* c) {
      ns1__Value* v = soap_new_ns1__Value(soap);
      v->errcode = code;
      v->new_ = text(n);
      v->errtext = text(t);
      v->cur = text(c);
      return v;
    };
    auto item = [&](const char* key, ns1__Value* v) {
      ns2__mapItem* i = soap_new_ns2__mapItem(soap);
      xsd__string_* k = soap_new_xsd__string_(soap);
      k->__item = key;
      i->key = k;
      i->value = v;
      return i;
    };
    ns1__Value* v1 = value(0, "1", "none", "0");
    ns1__Value* v2 = value(2, "h\xC3\xA9llo", "out of range <&>", "5");
    ns1__Setting* root = soap_new_ns1__Setting(soap);
    root->status = text("ok");
    root->stype = text("root:" + param);
    root->params = soap_new_ns2__Map(soap);
    root->params->item = {item("a", v1), item("b", v1), item("c", v2)};
    auto child = [&](const char* status, ns2__Map* params) {
      ns1__Setting* c = soap_new_ns1__Setting(soap);
      c->status = text(status);
      c->parent = root;
      c->stype = text("child");
      c->children = soap_new_ArrayOfSetting(soap);
      c->params = params;
      return c;
    };
    ns2__Map* m1 = soap_new_ns2__Map(soap);
    m1->item = {item("x", v2)};
    root->children = soap_new_ArrayOfSetting(soap);
    root->children->__size = 2;
    root->children->__ptr =
        static_cast<ns1__Setting**>(soap_malloc(soap, 2 * sizeof(ns1__Setting*)));
    root->children->__ptr[0] = child("ok", m1);
    root->children->__ptr[1] = child("warn", soap_new_ns2__Map(soap));
    out._return_ = root;
    return SOAP_OK;
  }
};

int main() {
  service svc(SOAP_XML_INDENT | SOAP_C_UTFSTRING);
  return svc.serve();
}
