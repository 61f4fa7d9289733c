/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz.h - the libFuzzer entry point every target defines, and its helpers. */
#ifndef TT_FUZZ_H
#define TT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/util.h"

/* One input; always 0 (libFuzzer's contract).  A bug is a crash or a sanitizer report. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The input as a file the engine can open by name (an memfd, named by
 * /proc/self/fd/N in path): the pcap reader and the catalog take paths.
 * The fd to close, or -1.
 */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write_full(fd, data, size)) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
