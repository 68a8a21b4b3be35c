// SPDX-License-Identifier: GPL-2.0
/*
 * node-search - the search of fpgamr's FPGA maps, through the user-space
 * driver (libfpgamr.so: jni-fpga/native/fpga, the library the JNA binding
 * loads), on the device a driver spec names: what an FPGA map does on a
 * board, without the JVM.
 *
 *   node-search [--hold FILE] SPEC BITS DIGEST...
 *   node-search --hash FILE SPEC COUNT
 *
 * Searches the values [0, 2^BITS), each encoded big-endian in max(4,
 * ceil(BITS/8)) bytes, for the given MD5 digests, and prints each preimage
 * as "<md5>:$HEX[<message>]" (hashcat's potfile format), then one line of
 * counts: values searched, batches, device cycles, filter hits.  --hold:
 * after opening the device, create FILE and wait until it is removed.
 * Exit 0 (also when nothing is found), 1 when the device fails or cannot be
 * opened (busy included), 2 on bad usage.
 *
 * --hash: hashes the values [0, COUNT) in one batch into a zero-copy DMA
 * buffer, creating FILE just before it starts the job: the test kills it
 * mid-batch (a container killed while the device writes its memory).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fpgamr_fpga.h"
#include "fpgamr_md5.h"
#include "fpgamr_targets.h"

static int usage(const char *msg)
{
	fprintf(stderr, "node-search: %s\nusage: node-search [--hold FILE] SPEC BITS DIGEST...\n",
		msg);
	return 2;
}

static int parse_digest(const char *hex, unsigned char out[16])
{
	if (strlen(hex) != 32)
		return -1;
	for (int i = 0; i < 16; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (unsigned char)b;
	}
	return 0;
}

static void hold(const char *file)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	int fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd >= 0)
		close(fd);
	while (access(file, F_OK) == 0)
		nanosleep(&nap, NULL);
}

/* one batch of COUNT digests into a DMA buffer; FILE marks its start */
static int hash_batch(const char *file, const char *spec, const char *n)
{
	uint64_t count = strtoull(n, NULL, 0), done = 0;
	char err[512];
	fpgamr_dev *dev;
	uint8_t *out;
	int fd, rc;

	dev = fpgamr_open(spec, err, sizeof(err));
	if (!dev || !count) {
		fprintf(stderr, "node-search: %s\n", dev ? "COUNT must be > 0" : err);
		return 1;
	}
	out = fpgamr_dma_alloc(dev, 16 * count);
	if (!out) {
		fprintf(stderr, "node-search: %s\n", fpgamr_last_error(dev));
		return 1;
	}
	fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	rc = fpgamr_hash_range(dev, 0, count, 4, out, &done);
	printf("node-search: hashed %llu of %llu values, rc %d\n",
	       (unsigned long long)done, (unsigned long long)count, rc);
	if (rc)
		printf("node-search: %s\n", fpgamr_last_error(dev));
	fpgamr_close(dev);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *hold_file = NULL;
	unsigned char *targets;
	char err[512], *end;
	size_t ntargets, found = 0;
	uint64_t matches[64], done = 0;
	fpgamr_stats st;
	fpgamr_dev *dev;
	int argi = 1, width, bits, rc;

	if (argc == 5 && !strcmp(argv[1], "--hash"))
		return hash_batch(argv[2], argv[3], argv[4]);
	if (argc > 2 && !strcmp(argv[1], "--hold")) {
		hold_file = argv[2];
		argi = 3;
	}
	if (argc - argi < 3)
		return usage("missing arguments");
	bits = (int)strtol(argv[argi + 1], &end, 10);
	if (*end || bits < 1 || bits > 40)
		return usage("BITS must be 1..40");
	width = bits <= 32 ? 4 : (bits + 7) / 8;
	ntargets = (size_t)(argc - argi - 2);
	targets = malloc(16 * ntargets);
	if (!targets)
		return 1;
	for (size_t i = 0; i < ntargets; i++)
		if (parse_digest(argv[argi + 2 + i], targets + 16 * i))
			return usage("a DIGEST is 32 hex digits");
	/* the driver takes a sorted set, as every engine does */
	ntargets = fpgamr_targets_sort(targets, ntargets);

	dev = fpgamr_open(argv[argi], err, sizeof(err));
	if (!dev) {
		fprintf(stderr, "node-search: %s\n", err);
		return 1;
	}
	if (hold_file)
		hold(hold_file);
	rc = fpgamr_search_range(dev, 0, 1ull << bits, width, targets,
				 ntargets, matches, 64, &found, &done);
	if (rc) {
		fprintf(stderr, "node-search: %s\n", fpgamr_last_error(dev));
		fpgamr_close(dev);
		return 1;
	}
	for (size_t i = 0; i < found && i < 64; i++) {
		unsigned char md5[16];

		/* the library's reference MD5 names the digest found */
		fpgamr_md5_reference(matches[i], width, md5);
		for (int b = 0; b < 16; b++)
			printf("%02x", md5[b]);
		printf(":$HEX[");
		for (int b = width - 1; b >= 0; b--)
			printf("%02x", (unsigned int)(matches[i] >> (8 * b)) & 0xff);
		printf("]\n");
	}
	fpgamr_get_stats(dev, &st);
	printf("node-search: values %llu of %llu, batches %llu, device cycles %llu, filter hits %llu, preimages %zu\n",
	       (unsigned long long)done, 1ull << bits,
	       (unsigned long long)st.batches,
	       (unsigned long long)st.device_cycles,
	       (unsigned long long)st.filter_hits, found);
	fpgamr_close(dev);
	free(targets);
	return 0;
}
