// The client of docs/wsdl2cpp.md, "From an ONVIF WSDL to a call": the text below this comment
// is the doc's code block, byte for byte (onvif_test checks it), and onvif_test calls it.
#include <string>

#include "Device.hpp"  // generated: DeviceClient, its request and response structs
#include "lather/service/client.hpp"
#include "lather/wsse.hpp"

// The camera's clock (UTC), asked with a UsernameToken (password digest, nonce, created).
onvif_device::DateTime camera_clock(const std::string& url, const std::string& user,
                                    const std::string& password) {
  lather::client_options options;
  options.version = lather::soap::version::soap12;  // ONVIF binds SOAP 1.2
  lather::client http{url, options};

  lather::wsse::client_policy policy;
  policy.token = lather::wsse::username_token{user, password};  // digest by default
  lather::wsse::client_security{policy}.install(http);

  onvif_device::DeviceClient device{http};
  const onvif_device::GetSystemDateAndTimeResponse r = device.GetSystemDateAndTime({});
  return r.SystemDateAndTime.UTCDateTime.value();  // a fault throws lather::soap::fault_error
}
