/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcap-cmd.h - `tunetop pcap FILE`: payload-size histograms of a capture file. */
#ifndef TT_PCAP_CMD_H
#define TT_PCAP_CMD_H

/*
 * argv[0] is "pcap".  Exit status: 0 when the file was read to its end,
 * 1 when a truncated or corrupt record stopped the reading (what was read
 * is printed first), 2 for bad options or a file that cannot be read at all.
 */
int pcap_main(int argc, char **argv);

#endif
