/*
 * srv_notify.c: tells a service manager how the server is doing, through
 * systemd's notification protocol: one datagram ("READY=1", "STOPPING=1")
 * to the AF_UNIX socket named by $NOTIFY_SOCKET (a leading '@' names the
 * abstract namespace). Without the variable nothing is sent, so the same
 * binary runs under systemd's Type=notify, another supervisor or none.
 * Spoken directly rather than through libsystemd: the protocol is one
 * sendto, and the package then needs no library for it.
 */
#include "server/srv_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

void srv_notify(const char *state)
{
    const char *path = getenv("NOTIFY_SOCKET");
    if (path == NULL || (path[0] != '/' && path[0] != '@'))
        return;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    size_t n = strlen(path);
    if (n >= sizeof sa.sun_path) {
        cm_log_warn("NOTIFY_SOCKET is too long to use: %s", path);
        return;
    }
    memcpy(sa.sun_path, path, n);
    if (sa.sun_path[0] == '@')
        sa.sun_path[0] = 0;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        cm_log_warn("service notification \"%s\": socket: %s", state, strerror(errno));
        return;
    }
    socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
    if (sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa, len) < 0)
        cm_log_warn("service notification \"%s\" to %s: %s", state, path, strerror(errno));
    close(fd);
}
