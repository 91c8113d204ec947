#ifndef CPSEUDOTERMINAL_SHIM_H
#define CPSEUDOTERMINAL_SHIM_H

// openpty(3) for cardwallet-bench's terminal figures (§4, §6): Swift's Glibc module does not
// include <pty.h>, and posix_openpt/ptsname_r are hidden behind _XOPEN_SOURCE/_GNU_SOURCE there.
// glibc 2.34 and later keep openpty in libc; libutil remains as a stub for older links.
#include <pty.h>

#endif
