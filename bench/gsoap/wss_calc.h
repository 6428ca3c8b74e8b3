// gSOAP interface of the WS-Security benchmark service (soapcpp2 input): add(a, b) -> result,
// document/literal, in the namespace of lather's wsse tests, with wsse.h's Security header.
//gsoap ns service name: calc
//gsoap ns service style: document
//gsoap ns service encoding: literal
//gsoap ns service namespace: urn:lather:wsse-bench
//gsoap ns schema namespace: urn:lather:wsse-bench
//gsoap ns schema elementForm: qualified
#import "wsse.h"
struct ns__addResponse { int result; };
int ns__add(int a, int b, struct ns__addResponse *out);
