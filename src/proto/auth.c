// SPDX-License-Identifier: GPL-2.0-or-later
/* auth.c - tunetopd's knob-control key and its HMAC-SHA256 challenge-response. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proto/auth.h"
#include "core/util.h"

_Static_assert(AUTH_KEY_LEN == crypto_auth_hmacsha256_KEYBYTES, "key size");
_Static_assert(AUTH_MAC_LEN == crypto_auth_hmacsha256_BYTES, "mac size");

int auth_init(char *err)
{
	if (sodium_init() < 0)
		return err_set(err, -EIO, "libsodium: initialisation failed");
	return 0;
}

int auth_key_generate(const char *path, char *err)
{
	uint8_t key[AUTH_KEY_LEN];
	char hex[2 * AUTH_KEY_LEN + 2];
	int fd, ret;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return err_set(err, -errno, "key file %s: %s%s", path, strerror(errno),
			       errno == EEXIST ? " (not overwritten: remove it first)" : "");
	crypto_auth_hmacsha256_keygen(key);
	sodium_bin2hex(hex, sizeof(hex) - 1, key, sizeof(key));
	sodium_memzero(key, sizeof(key));
	strcat(hex, "\n");
	ret = write_full(fd, hex, strlen(hex));
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	sodium_memzero(hex, sizeof(hex));
	close(fd);
	if (ret) {
		unlink(path);
		return err_set(err, ret, "key file %s: write: %s", path, strerror(-ret));
	}
	return 0;
}

/* Why open() of a key file failed; a symbolic link is refused by name. */
static int key_open_failed(const char *path, int e, char *err)
{
	struct stat st;

	if (e == ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return err_set(err, -ELOOP, "key file %s is a symbolic link; give the real path (a link can be pointed elsewhere behind tunetopd's back)",
			       path);
	return err_set(err, -e, "key file %s: %s", path, strerror(e));
}

int auth_key_load(const char *path, uint8_t key[AUTH_KEY_LEN], char *err)
{
	char buf[2 * AUTH_KEY_LEN + 2];
	const char *end;
	size_t klen = 0, len;
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return key_open_failed(path, errno, err);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(err, -EINVAL, "key file %s: not a regular file", path);
	}
	if (st.st_mode & 077) {
		close(fd);
		return err_set(err, -EPERM, "key file %s: mode %04o lets others read it; accepted is 0600 (chmod 600 %s)",
			       path, (unsigned)(st.st_mode & 07777), path);
	}
	/* One byte more than a key and its newline: anything after shows. */
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return err_set(err, -errno, "key file %s: %s", path, strerror(errno));
	len = (size_t)n;
	if (len == 2 * AUTH_KEY_LEN + 1 && buf[len - 1] == '\n')
		len--;
	if (len != 2 * AUTH_KEY_LEN ||
	    sodium_hex2bin(key, AUTH_KEY_LEN, buf, len, NULL, &klen, &end) ||
	    klen != AUTH_KEY_LEN || end != buf + len) {
		sodium_memzero(buf, sizeof(buf));
		sodium_memzero(key, AUTH_KEY_LEN);
		return err_set(err, -EINVAL, "key file %s: accepted is exactly %d hex digits and a newline, nothing else, as tunetopd --gen-key writes",
			       path, 2 * AUTH_KEY_LEN);
	}
	sodium_memzero(buf, sizeof(buf));
	return 0;
}

void auth_challenge(uint8_t challenge[AUTH_CHALLENGE_LEN])
{
	randombytes_buf(challenge, AUTH_CHALLENGE_LEN);
}

void auth_response(const uint8_t key[AUTH_KEY_LEN],
		   const uint8_t challenge[AUTH_CHALLENGE_LEN],
		   uint8_t mac[AUTH_MAC_LEN])
{
	crypto_auth_hmacsha256(mac, challenge, AUTH_CHALLENGE_LEN, key);
}

bool auth_verify(const uint8_t key[AUTH_KEY_LEN],
		 const uint8_t challenge[AUTH_CHALLENGE_LEN],
		 const uint8_t mac[AUTH_MAC_LEN])
{
	return crypto_auth_hmacsha256_verify(mac, challenge, AUTH_CHALLENGE_LEN, key) == 0;
}
