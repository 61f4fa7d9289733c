// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-pcap.c - the offline pcap reader (tunetop pcap): the input is a
 * pcap or pcapng file; it is read with the MSS from the SYNs, and again
 * with a given MSS and a port, as the command's options would.
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "capture/pcapread.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct pcapread_opts opts[] = {
		{ .filter = NULL },
		{ .port = 5001, .mss = 1448 },
	};
	char path[64], err[ERR_MAX];
	struct pcapread *r;
	int fd;

	r = malloc(sizeof(*r));
	fd = r ? fuzz_file(data, size, path, sizeof(path)) : -1;
	for (size_t i = 0; fd >= 0 && i < sizeof(opts) / sizeof(*opts); i++) {
		lseek(fd, 0, SEEK_SET);
		pcapread_file(path, &opts[i], r, err);
		pcapread_free(r);
	}
	if (fd >= 0)
		close(fd);
	free(r);
	return 0;
}
