// systemd's service protocol without libsystemd: readiness notification (sd_notify) and socket
// activation (LISTEN_FDS). Both are a few lines of documented protocol
// (sd_notify(3), sd_listen_fds(3)); a library dependency for them would also be one for every
// user who never runs under systemd.
#pragma once

#include <string_view>

namespace lather::http::detail {

/// Send `state` ("READY=1", "STOPPING=1", ...) to $NOTIFY_SOCKET as one datagram. Does nothing
/// when the variable is unset (not started by systemd with Type=notify); errors are ignored,
/// as sd_notify's callers do.
void notify_service_manager(std::string_view state) noexcept;

}  // namespace lather::http::detail
