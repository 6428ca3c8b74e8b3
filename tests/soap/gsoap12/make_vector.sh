#!/usr/bin/env bash
# Prints the fetch response gSOAP writes in SOAP 1.2 encoding (gsoap12_fetch in
# ../fetch_responses.hpp): fetch.wsdl through wsdl2h and soapcpp2 -2, main.cpp's service run
# once on a fetch("x") request, the HTTP head dropped. Needs Debian's gsoap and libgsoap-dev.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
wsdl2h -o fetch.h "$here/../../../tools/lather-fetch-server/fetch.wsdl" >/dev/null 2>&1
soapcpp2 -2 -j -x -L -S -I/usr/share/gsoap/import -I/usr/share/gsoap fetch.h >/dev/null 2>&1
g++ -w -DWITH_DEFAULT_VIRTUAL -I. -I/usr/share/gsoap "$here/main.cpp" soapC.cpp \
  soapFetchBindingService.cpp $(pkg-config --cflags --libs gsoap++) -o serve
printf '%s' '<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><f:fetch xmlns:f="urn:fetch"><param>x</param></f:fetch></env:Body></env:Envelope>' |
  ./serve | sed '1,/^\r$/d'
