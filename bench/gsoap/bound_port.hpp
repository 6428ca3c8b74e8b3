// The port a listening socket is bound to (gSOAP's soap_bind with port 0 picks one but does not
// say which); -1 on failure. Shared by the gSOAP benchmark peers.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace gsoap_peer {

inline int bound_port(int socket) {
  sockaddr_in address{};
  socklen_t length = sizeof address;
  if (getsockname(socket, reinterpret_cast<sockaddr*>(&address), &length) != 0) return -1;
  return ntohs(address.sin_port);
}

}  // namespace gsoap_peer
