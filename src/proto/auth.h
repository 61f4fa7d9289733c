/* SPDX-License-Identifier: GPL-2.0-or-later */
/* auth.h - tunetopd's knob-control key and its HMAC-SHA256 challenge-response. */
#ifndef TT_AUTH_H
#define TT_AUTH_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A client proves it holds tunetopd's key without sending it: the server
 * sends AUTH_CHALLENGE_LEN random bytes, the client answers
 * HMAC-SHA256(key, challenge), the server checks it in constant time
 * (libsodium's crypto_auth_hmacsha256).  The key file holds the key as
 * hex on one line and must be mode 0600.
 */
#define AUTH_KEY_LEN 32
#define AUTH_CHALLENGE_LEN 32
#define AUTH_MAC_LEN 32

/* libsodium's own start-up; 0 or -EIO. */
int auth_init(char *err);
/* Write a new random key to path (created 0600; an existing file is
 * refused, never overwritten).  0 or -errno. */
int auth_key_generate(const char *path, char *err);
/* Load a key; a file readable by group or others is refused. */
int auth_key_load(const char *path, uint8_t key[AUTH_KEY_LEN], char *err);
void auth_challenge(uint8_t challenge[AUTH_CHALLENGE_LEN]);
void auth_response(const uint8_t key[AUTH_KEY_LEN],
		   const uint8_t challenge[AUTH_CHALLENGE_LEN],
		   uint8_t mac[AUTH_MAC_LEN]);
/* Constant-time check of a response. */
bool auth_verify(const uint8_t key[AUTH_KEY_LEN],
		 const uint8_t challenge[AUTH_CHALLENGE_LEN],
		 const uint8_t mac[AUTH_MAC_LEN]);

#endif
