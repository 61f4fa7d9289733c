/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.h - `tunetop report ID... -o FILE.html`: stored runs as one self-contained HTML file. */
#ifndef TT_REPORT_H
#define TT_REPORT_H

/*
 * argv[0] is "report".  Writes one XHTML-compatible HTML5 file with the
 * runs' summary, SVG plots (rate, latency and socket buffers over time,
 * sweep curves with their cliffs, segment-size histograms) and the table
 * of knobs that differ.  Exit status: 0 written, 1 an unknown run or
 * sweep, a database that cannot be read or a file that cannot be
 * written, 2 bad options.
 */
int report_main(int argc, char **argv);

#endif
