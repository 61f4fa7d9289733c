// SPDX-License-Identifier: GPL-2.0-or-later
/* test-auth.c - key files and the HMAC-SHA256 challenge-response of knob control. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proto/auth.h"
#include "core/util.h"
#include "tap.h"

int main(void)
{
	char dir[] = "/tmp/tt-auth-XXXXXX", path[256], other[256], err[ERR_MAX] = "";
	uint8_t key[AUTH_KEY_LEN], key2[AUTH_KEY_LEN], ch[AUTH_CHALLENGE_LEN], ch2[AUTH_CHALLENGE_LEN];
	uint8_t mac[AUTH_MAC_LEN];
	struct stat st;
	FILE *f;

	if (!ok(mkdtemp(dir) && auth_init(err) == 0, "set-up (%s)", err))
		return tap_done();
	snprintf(path, sizeof(path), "%s/key", dir);
	snprintf(other, sizeof(other), "%s/key2", dir);

	ok(auth_key_generate(path, err) == 0, "--gen-key writes a key file (%s)", err);
	ok(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600, "the key file is mode 0600");
	ok(auth_key_generate(path, err) == -EEXIST && strstr(err, "not overwritten"),
	   "an existing key file is never overwritten (%s)", err);
	ok(auth_key_load(path, key, err) == 0, "the key loads (%s)", err);
	ok(auth_key_generate(other, err) == 0 && auth_key_load(other, key2, err) == 0 &&
	   memcmp(key, key2, sizeof(key)), "two generated keys differ");

	auth_challenge(ch);
	auth_challenge(ch2);
	ok(memcmp(ch, ch2, sizeof(ch)), "two challenges differ");
	auth_response(key, ch, mac);
	ok(auth_verify(key, ch, mac), "the right key's response verifies");
	ok(!auth_verify(key2, ch, mac), "another key's response does not");
	ok(!auth_verify(key, ch2, mac), "a response to another challenge does not (no replay)");
	mac[7] ^= 1;
	ok(!auth_verify(key, ch, mac), "a tampered response does not");

	chmod(path, 0644);
	ok(auth_key_load(path, key, err) == -EPERM && strstr(err, "0644") && strstr(err, "0600"),
	   "a key file others can read is refused (%s)", err);
	chmod(path, 0600);
	f = fopen(path, "w");
	if (f) {
		fputs("abcd\n", f);
		fclose(f);
	}
	ok(auth_key_load(path, key, err) == -EINVAL && strstr(err, "64 hex digits"),
	   "a short key is refused (%s)", err);
	f = fopen(path, "w");
	if (f) {
		fputs("zz0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n", f);
		fclose(f);
	}
	ok(auth_key_load(path, key, err) == -EINVAL, "a key with non-hex digits is refused (%s)", err);
	{
		static const char *const junk[] = {
			"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\nrm -rf /\n",
			"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \n",
			"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n\n",
			"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f00\n",
		};

		for (size_t i = 0; i < sizeof(junk) / sizeof(*junk); i++) {
			f = fopen(path, "w");
			if (f) {
				fputs(junk[i], f);
				fclose(f);
			}
			ok(auth_key_load(path, key, err) == -EINVAL &&
			   strstr(err, "exactly 64 hex digits and a newline, nothing else"),
			   "a key file with something after the key is refused (case %zu: %s)", i, err);
		}
		f = fopen(path, "w");
		if (f) {
			fputs("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", f);
			fclose(f);
		}
		ok(auth_key_load(path, key, err) == 0 && key[31] == 0x1f,
		   "a key without its newline is taken (%s)", err);
	}
	unlink(other);
	ok(symlink(path, other) == 0 && auth_key_load(other, key, err) == -ELOOP &&
	   strstr(err, "is a symbolic link; give the real path") && strstr(err, other),
	   "a symlinked key is refused saying why (%s)", err);
	snprintf(path, sizeof(path), "%s/nosuch", dir);
	ok(auth_key_load(path, key, err) == -ENOENT && strstr(err, "nosuch"),
	   "a missing key file is named (%s)", err);

	unlink(other);
	snprintf(path, sizeof(path), "%s/key", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
