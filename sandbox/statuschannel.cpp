// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "statuschannel.h"

#include "posixutil.h"

#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/uio.h>

namespace StatusChannel {

namespace {
int s_fd = -1;
} // namespace

int fd()
{
    return s_fd;
}

void use(int fd)
{
    s_fd = fd;
}

void adopt(int fd)
{
    s_fd = fd;
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
}

bool send(std::string_view message, int passedFd)
{
    if (s_fd < 0)
        return true;
    iovec part = {const_cast<char *>(message.data()), message.size()};
    msghdr header = {};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    if (passedFd >= 0) {
        header.msg_control = control;
        header.msg_controllen = sizeof control;
        cmsghdr *cmsg = CMSG_FIRSTHDR(&header);
        cmsg->cmsg_level = SOL_SOCKET;
        cmsg->cmsg_type = SCM_RIGHTS;
        cmsg->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(cmsg), &passedFd, sizeof(int));
    }
    return PosixUtil::retry([&] { return ::sendmsg(s_fd, &header, MSG_NOSIGNAL); }) == ssize_t(message.size());
}

} // namespace StatusChannel
