/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uapi/tcp_info.h - struct tcp_info as Linux 6.18 returns it from TCP_INFO. */
#ifndef TT_UAPI_TCP_INFO_H
#define TT_UAPI_TCP_INFO_H

#include <stddef.h>
#include <stdint.h>

/*
 * Field-by-field copy of struct tcp_info from the kernel's
 * include/uapi/linux/tcp.h as of Linux 6.18 (the AccECN counters at the
 * end).  Debian 12's <linux/tcp.h> stops at tcpi_snd_wnd (232 bytes, Linux
 * 6.1) and glibc's <netinet/tcp.h> stops at tcpi_rcv_space, and the two
 * headers cannot be included together, so tunetop carries its own copy.
 *
 * The kernel copies min(optlen, sizeof(its struct)) bytes and reports that
 * length back: a field lies in the answer only when TT_TCPI_HAS() says so.
 * Linux 7.0 re-packs the last four bytes (tcpi_accecn_fail_mode and
 * tcpi_accecn_opt_seen) into bit-fields with tcpi_ecn_mode and
 * tcpi_options2; the size stays 280 and nothing before them moves.
 */
struct tt_tcp_info {
	uint8_t tcpi_state;
	uint8_t tcpi_ca_state;
	uint8_t tcpi_retransmits;
	uint8_t tcpi_probes;
	uint8_t tcpi_backoff;
	uint8_t tcpi_options;
	uint8_t tcpi_snd_wscale : 4, tcpi_rcv_wscale : 4;
	uint8_t tcpi_delivery_rate_app_limited : 1, tcpi_fastopen_client_fail : 2;

	uint32_t tcpi_rto;
	uint32_t tcpi_ato;
	uint32_t tcpi_snd_mss;
	uint32_t tcpi_rcv_mss;

	uint32_t tcpi_unacked;
	uint32_t tcpi_sacked;
	uint32_t tcpi_lost;
	uint32_t tcpi_retrans;
	uint32_t tcpi_fackets;

	/* Times. */
	uint32_t tcpi_last_data_sent;
	uint32_t tcpi_last_ack_sent;
	uint32_t tcpi_last_data_recv;
	uint32_t tcpi_last_ack_recv;

	/* Metrics. */
	uint32_t tcpi_pmtu;
	uint32_t tcpi_rcv_ssthresh;
	uint32_t tcpi_rtt;
	uint32_t tcpi_rttvar;
	uint32_t tcpi_snd_ssthresh;
	uint32_t tcpi_snd_cwnd;
	uint32_t tcpi_advmss;
	uint32_t tcpi_reordering;

	uint32_t tcpi_rcv_rtt;
	uint32_t tcpi_rcv_space;

	uint32_t tcpi_total_retrans;	/* glibc's struct ends here (104) */

	uint64_t tcpi_pacing_rate;
	uint64_t tcpi_max_pacing_rate;
	uint64_t tcpi_bytes_acked;
	uint64_t tcpi_bytes_received;
	uint32_t tcpi_segs_out;
	uint32_t tcpi_segs_in;

	uint32_t tcpi_notsent_bytes;
	uint32_t tcpi_min_rtt;
	uint32_t tcpi_data_segs_in;
	uint32_t tcpi_data_segs_out;

	uint64_t tcpi_delivery_rate;	/* bytes/s */

	uint64_t tcpi_busy_time;
	uint64_t tcpi_rwnd_limited;
	uint64_t tcpi_sndbuf_limited;

	uint32_t tcpi_delivered;
	uint32_t tcpi_delivered_ce;

	uint64_t tcpi_bytes_sent;
	uint64_t tcpi_bytes_retrans;
	uint32_t tcpi_dsack_dups;
	uint32_t tcpi_reord_seen;

	uint32_t tcpi_rcv_ooopack;

	uint32_t tcpi_snd_wnd;		/* Linux 6.1's struct ends here (232) */
	uint32_t tcpi_rcv_wnd;

	uint32_t tcpi_rehash;

	uint16_t tcpi_total_rto;
	uint16_t tcpi_total_rto_recoveries;
	uint32_t tcpi_total_rto_time;	/* Linux 6.7 to 6.17 end here (248) */

	uint32_t tcpi_received_ce;
	uint32_t tcpi_delivered_e1_bytes;
	uint32_t tcpi_delivered_e0_bytes;
	uint32_t tcpi_delivered_ce_bytes;
	uint32_t tcpi_received_e1_bytes;
	uint32_t tcpi_received_e0_bytes;
	uint32_t tcpi_received_ce_bytes;
	uint16_t tcpi_accecn_fail_mode;
	uint16_t tcpi_accecn_opt_seen;
};

/* The layout lengths the kernel has shipped that this file relies on. */
#define TT_TCP_INFO_LEN_GLIBC	104u	/* up to tcpi_total_retrans */
#define TT_TCP_INFO_LEN_6_1	232u	/* up to tcpi_snd_wnd */
#define TT_TCP_INFO_LEN_6_7	248u	/* up to tcpi_total_rto_time */
#define TT_TCP_INFO_LEN_6_18	280u	/* up to tcpi_accecn_opt_seen */

_Static_assert(sizeof(struct tt_tcp_info) == TT_TCP_INFO_LEN_6_18,
	       "struct tt_tcp_info must match the 6.18 kernel's 280 bytes");
_Static_assert(offsetof(struct tt_tcp_info, tcpi_pacing_rate) == 104,
	       "tcpi_pacing_rate follows the 104-byte original struct");
_Static_assert(offsetof(struct tt_tcp_info, tcpi_delivery_rate) == 160,
	       "tcpi_delivery_rate sits at 160");
_Static_assert(offsetof(struct tt_tcp_info, tcpi_rcv_wnd) ==
		       TT_TCP_INFO_LEN_6_1,
	       "the 6.1 struct ends after tcpi_snd_wnd");
_Static_assert(offsetof(struct tt_tcp_info, tcpi_received_ce) ==
		       TT_TCP_INFO_LEN_6_7,
	       "the AccECN counters follow tcpi_total_rto_time");

/* True when a TCP_INFO answer of len bytes contains field. */
#define TT_TCPI_HAS(len, field)						\
	(offsetof(struct tt_tcp_info, field) +				\
	 sizeof(((struct tt_tcp_info *)0)->field) <= (size_t)(len))

#endif
