/*
 * check_tune.c - the tuning database (records, best lookup, idempotent
 * merge, several processes writing at once) and the search (finds the
 * exhaustive best of a space whose model misjudges one knob, contains
 * crashes and hangs, records illegal candidates, reuses the database,
 * scales with workers).
 */
#include <check.h>
#include <ftw.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compiler/driver.h"
#include "compiler/tune.h"
#include "compiler/tunedb.h"

static char tmpdir[4096];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb; (void)flag; (void)f;
	return remove(p);
}

static void setup(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof tmpdir, "%s/check_tune.XXXXXX", t && *t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *tpath(const char *name)
{
	static char buf[8][4200];
	static int i;
	char *b = buf[i++ % 8];
	snprintf(b, sizeof buf[0], "%s/%s", tmpdir, name);
	return b;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static npu_tunerec rec(const char *sig, const char *th, const char *knobs,
		       int status, int64_t cycles)
{
	npu_tunerec r = { 0 };
	r.sig = sig;
	r.target = "npu-test";
	r.target_hash = th;
	r.compiler = "0.1.0";
	r.knobs = knobs;
	r.status = status;
	r.reason = status == NPU_TUNE_ILLEGAL ? "sram: 2 tiles of 1 MiB > 1 MiB" : NULL;
	r.model_cycles = -1;
	r.cycles = cycles;
	r.bytes = cycles >= 0 ? 4096 : -1;
	r.wall_s = 0.5;
	return r;
}

/* ---- hashing and text --------------------------------------------------- */

START_TEST(fnv1a_vectors)
{
	char h[17];
	ck_assert_uint_eq(npu_fnv1a64("", 0), 0xcbf29ce484222325ull);
	ck_assert_uint_eq(npu_fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
	ck_assert_uint_eq(npu_fnv1a64("foobar", 6), 0x85944171f73967e8ull);
	npu_tune_hex64(0xaf63dc4c8601ec8cull, h);
	ck_assert_str_eq(h, "af63dc4c8601ec8c");
	npu_tune_hex64(1, h);
	ck_assert_str_eq(h, "0000000000000001");
}
END_TEST

START_TEST(knobs_canonical)
{
	char b[64];
	ck_assert_int_eq(npu_tune_knobs_canon("tile_n=64, bufs=2,tile_m=8", b, sizeof b), 0);
	ck_assert_str_eq(b, "bufs=2,tile_m=8,tile_n=64");
	ck_assert_int_eq(npu_tune_knobs_canon("t=1,tile=2", b, sizeof b), 0);
	ck_assert_str_eq(b, "t=1,tile=2");
	ck_assert_int_eq(npu_tune_knobs_canon("", b, sizeof b), 0);
	ck_assert_str_eq(b, "");
	ck_assert_int_eq(npu_tune_knobs_canon("tile_m", b, sizeof b), -1);
	ck_assert_int_eq(npu_tune_knobs_canon("=3", b, sizeof b), -1);
	ck_assert_int_eq(npu_tune_knobs_canon("aaaa=1,bbbb=2", b, 8), -1);
}
END_TEST

START_TEST(spearman_values)
{
	double x[] = { 1, 2, 3, 4, 5 }, up[] = { 10, 20, 30, 40, 50 },
	       down[] = { 5, 4, 3, 2, 1 }, flat[] = { 7, 7, 7, 7, 7 },
	       tie[] = { 1, 2, 2, 4, 5 };
	ck_assert_double_eq_tol(npu_tune_spearman(x, up, 5), 1.0, 1e-12);
	ck_assert_double_eq_tol(npu_tune_spearman(x, down, 5), -1.0, 1e-12);
	ck_assert(isnan(npu_tune_spearman(x, flat, 5)));
	ck_assert(isnan(npu_tune_spearman(x, up, 2)));
	/* ranks of tie: 1, 2.5, 2.5, 4, 5 */
	/* ranks of tie: 1, 2.5, 2.5, 4, 5: sxy = 9.5, sxx = 10, syy = 9.5 */
	ck_assert_double_eq_tol(npu_tune_spearman(x, tie, 5), 9.5 / sqrt(10 * 9.5), 1e-12);
}
END_TEST

/* ---- database ----------------------------------------------------------- */

START_TEST(db_records_and_best)
{
	npu_err e = { "" };
	npu_tunedb *db = npu_tunedb_open(tpath("t.db"), &e);
	char *knobs = NULL;
	int64_t cyc = 0;
	int st = -1;

	ck_assert_msg(db != NULL, "%s", e.msg);
	npu_tunerec r[] = {
		rec("mm f32[64,64]x[64,64]", "00000000000000aa", "tile_m=16", NPU_TUNE_OK, 900),
		rec("mm f32[64,64]x[64,64]", "00000000000000aa", "tile_m=32", NPU_TUNE_OK, 700),
		rec("mm f32[64,64]x[64,64]", "00000000000000aa", "tile_m=64", NPU_TUNE_ILLEGAL, -1),
		rec("mm f32[64,64]x[64,64]", "00000000000000aa", "tile_m=8", NPU_TUNE_FAILED, -1),
		rec("mm f32[64,64]x[64,64]", "00000000000000bb", "tile_m=16", NPU_TUNE_OK, 100),
	};
	ck_assert_int_eq(npu_tunedb_add_many(db, r, 5, &e), 0);
	ck_assert_int_eq(npu_tunedb_count(db, -1, &e), 5);
	ck_assert_int_eq(npu_tunedb_count(db, NPU_TUNE_OK, &e), 3);
	ck_assert_int_eq(npu_tunedb_count(db, NPU_TUNE_ILLEGAL, &e), 1);

	/* keyed by target: bb's faster record does not configure aa */
	ck_assert_int_eq(npu_tunedb_best(db, r[0].sig, "00000000000000aa", NULL,
					 &knobs, &cyc, &e), 1);
	ck_assert_str_eq(knobs, "tile_m=32");
	ck_assert_int_eq(cyc, 700);
	free(knobs);
	ck_assert_int_eq(npu_tunedb_best(db, r[0].sig, "00000000000000cc", NULL,
					 &knobs, &cyc, &e), 0);
	ck_assert_int_eq(npu_tunedb_best(db, r[0].sig, "00000000000000aa", "9.9",
					 &knobs, &cyc, &e), 0);
	ck_assert_int_eq(npu_tunedb_best(db, "mm other", "00000000000000aa", NULL,
					 &knobs, &cyc, &e), 0);

	ck_assert_int_eq(npu_tunedb_lookup(db, r[0].sig, "00000000000000aa", "0.1.0",
					   "tile_m=64", &st, &cyc, &e), 1);
	ck_assert_int_eq(st, NPU_TUNE_ILLEGAL);
	ck_assert_int_eq(npu_tunedb_lookup(db, r[0].sig, "00000000000000aa", "0.1.0",
					   "tile_m=16", &st, &cyc, &e), 1);
	ck_assert_int_eq(st, NPU_TUNE_OK);
	ck_assert_int_eq(cyc, 900);
	/* failed outcomes are not reused: they may be the machine's fault */
	ck_assert_int_eq(npu_tunedb_lookup(db, r[0].sig, "00000000000000aa", "0.1.0",
					   "tile_m=8", &st, &cyc, &e), 0);

	/* a bad status is refused and leaves nothing behind */
	npu_tunerec bad[2] = { r[0], r[0] };
	bad[1].status = 7;
	ck_assert_int_eq(npu_tunedb_add_many(db, bad, 2, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "bad status"));
	ck_assert_int_eq(npu_tunedb_count(db, -1, &e), 5);
	npu_tunedb_close(db);

	/* persistent; the stored text is portable (hash of the signature) */
	db = npu_tunedb_open(tpath("t.db"), &e);
	ck_assert_ptr_nonnull(db);
	sqlite3_stmt *q;
	ck_assert_int_eq(sqlite3_prepare_v2(npu_tunedb_sqlite(db),
		"SELECT sig_hash, status, reason, length(uid), created FROM measure"
		" ORDER BY id LIMIT 1 OFFSET 2", -1, &q, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	char h[17];
	npu_tune_hex64(npu_fnv1a64(r[0].sig, strlen(r[0].sig)), h);
	ck_assert_str_eq((const char *)sqlite3_column_text(q, 0), h);
	ck_assert_str_eq((const char *)sqlite3_column_text(q, 1), "illegal");
	ck_assert_ptr_nonnull(strstr((const char *)sqlite3_column_text(q, 2), "sram"));
	ck_assert_int_eq(sqlite3_column_int(q, 3), 32);
	ck_assert_int_eq(strlen((const char *)sqlite3_column_text(q, 4)), 24);
	sqlite3_finalize(q);
	npu_tunedb_close(db);

	ck_assert_ptr_null(npu_tunedb_open(tpath("no/such/dir.db"), &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "no/such/dir.db"));
}
END_TEST

START_TEST(db_merge_idempotent)
{
	npu_err e = { "" };
	npu_tunedb *a = npu_tunedb_open(tpath("a.db"), &e);
	npu_tunedb *b = npu_tunedb_open(tpath("b.db"), &e);
	int64_t added = -1;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	for (int i = 0; i < 3; i++) {
		npu_tunerec r = rec("ew add", "01", "tile_c=32", NPU_TUNE_OK, 10 + i);
		ck_assert_int_eq(npu_tunedb_add(a, &r, &e), 0);
	}
	for (int i = 0; i < 2; i++) {
		npu_tunerec r = rec("ew add", "01", "tile_c=64", NPU_TUNE_OK, 5 + i);
		ck_assert_int_eq(npu_tunedb_add(b, &r, &e), 0);
	}
	ck_assert_int_eq(npu_tunedb_merge(a, tpath("b.db"), &added, &e), 0);
	ck_assert_int_eq(added, 2);
	ck_assert_int_eq(npu_tunedb_merge(a, tpath("b.db"), &added, &e), 0);
	ck_assert_int_eq(added, 0);
	ck_assert_int_eq(npu_tunedb_count(a, -1, &e), 5);
	ck_assert_int_eq(npu_tunedb_merge(b, tpath("a.db"), &added, &e), 0);
	ck_assert_int_eq(added, 3);
	ck_assert_int_eq(npu_tunedb_count(b, -1, &e), 5);
	ck_assert_int_eq(npu_tunedb_merge(a, tpath("missing.db"), &added, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "missing.db"));
	/* still usable after a failed merge */
	ck_assert_int_eq(npu_tunedb_merge(a, tpath("b.db"), &added, &e), 0);
	ck_assert_int_eq(added, 0);
	npu_tunedb_close(a);
	npu_tunedb_close(b);
}
END_TEST

enum { WRITERS = 6, PER_WRITER = 150 };

START_TEST(db_concurrent_writers)
{
	npu_err e = { "" };
	pid_t pids[WRITERS];

	/* Every process creates the schema itself, all at the same moment. */
	for (int w = 0; w < WRITERS; w++) {
		pids[w] = fork();
		ck_assert_int_ge(pids[w], 0);
		if (pids[w] == 0) {
			npu_err ce = { "" };
			npu_tunedb *db = npu_tunedb_open(tpath("c.db"), &ce);
			char knobs[64];
			if (!db) {
				fprintf(stderr, "writer %d: %s\n", w, ce.msg);
				_exit(1);
			}
			for (int i = 0; i < PER_WRITER; i++) {
				snprintf(knobs, sizeof knobs, "w=%d,i=%d", w, i);
				npu_tunerec r = rec("mm c", "0c", knobs, NPU_TUNE_OK, 1000 + i);
				if (i % 10 == 9) {
					/* and some larger transactions among them */
					npu_tunerec rr[3] = { r, r, r };
					rr[1].status = rr[2].status = NPU_TUNE_FAILED;
					if (npu_tunedb_add_many(db, rr, 3, &ce) < 0)
						goto fail;
					continue;
				}
				if (npu_tunedb_add(db, &r, &ce) < 0)
					goto fail;
			}
			npu_tunedb_close(db);
			_exit(0);
fail:
			fprintf(stderr, "writer %d: %s\n", w, ce.msg);
			_exit(1);
		}
	}
	for (int w = 0; w < WRITERS; w++) {
		int ws;
		ck_assert_int_eq(waitpid(pids[w], &ws, 0), pids[w]);
		ck_assert_msg(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "writer %d failed", w);
	}
	npu_tunedb *db = npu_tunedb_open(tpath("c.db"), &e);
	ck_assert_ptr_nonnull(db);
	int64_t want = WRITERS * (PER_WRITER + 2 * (PER_WRITER / 10));
	ck_assert_int_eq(npu_tunedb_count(db, -1, &e), want);
	ck_assert_int_eq(npu_tunedb_count(db, NPU_TUNE_FAILED, &e),
			 WRITERS * 2 * (PER_WRITER / 10));
	sqlite3_stmt *q;
	ck_assert_int_eq(sqlite3_prepare_v2(npu_tunedb_sqlite(db),
		"SELECT (SELECT count(DISTINCT uid) FROM measure),"
		" (SELECT count(DISTINCT knobs) FROM measure)", -1, &q, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int64(q, 0), want);
	ck_assert_int_eq(sqlite3_column_int64(q, 1), WRITERS * PER_WRITER);
	sqlite3_finalize(q);
	ck_assert_int_eq(sqlite3_prepare_v2(npu_tunedb_sqlite(db),
		"PRAGMA integrity_check", -1, &q, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(q, 0), "ok");
	sqlite3_finalize(q);
	npu_tunedb_close(db);
}
END_TEST

/* ---- the search --------------------------------------------------------- */

/* A synthetic GEMM-like space: tile_m, tile_n in 8..256, bufs 1..2, order
 * 0..1.  The "measured" cost has a per-knob structure the model gets
 * wrong: the model believes loop order 1 is 40% cheaper, the measurement
 * says it is 30% dearer, so the model's favourites are all wrong. */
static const int tiles[] = { 8, 16, 32, 64, 128, 256 };

static double true_cost(int tm, int tn, int bufs, int order)
{
	double m = 512, n = 512, k = 256;
	double tiles_n = (m / tm) * (n / tn);
	double compute = m * n * k / 1024.0;
	double overhead = tiles_n * 60.0;                  /* per-tile setup */
	double traffic = k * (m * n / tn + m * n / tm) / 8; /* re-reads */
	double waste = (tm > 64 ? tm - 64 : 0) * 300.0 + (tn > 128 ? 9000.0 : 0);
	double c = compute + overhead + traffic + waste;
	if (bufs == 1)
		c *= 1.25;
	if (order == 1)
		c *= 1.3;
	/* deterministic measurement noise, about +-3% */
	unsigned h = (unsigned)(tm * 131 + tn * 17 + bufs * 7 + order * 3);
	h = h * 2654435761u;
	return c * (0.97 + 0.06 * (double)(h >> 24) / 255.0);
}

static int parse_knobs(const char *s, int *tm, int *tn, int *bufs, int *order)
{
	return sscanf(s, "bufs=%d,order=%d,tile_m=%d,tile_n=%d", bufs, order, tm, tn) == 4
		       ? 0 : -1;
}

typedef struct synth {
	const char *orphan; /* file: the worker leaves a sleeper, writes its pid */
	int crash_tm;     /* tile_m that aborts in the worker */
	int hang_tm;      /* tile_m that never returns */
	int illegal_tn;   /* tile_n the "compiler" rejects at measurement */
	int sleep_ms;     /* work per measurement */
} synth;

static int synth_measure(void *ctx, const char *sig, const char *knobs,
			 npu_tune_meas *m)
{
	synth *s = ctx;
	int tm, tn, bufs, order;

	(void)sig;
	if (parse_knobs(knobs, &tm, &tn, &bufs, &order) < 0) {
		snprintf(m->reason, sizeof m->reason, "bad knobs '%s'", knobs);
		return -1;
	}
	if (tm == s->crash_tm)
		abort();
	if (tm == s->hang_tm)
		for (;;)
			pause();
	if (tn == s->illegal_tn) {
		m->status = NPU_TUNE_ILLEGAL;
		snprintf(m->reason, sizeof m->reason, "tile_n=%d: accumulator too small", tn);
		return 0;
	}
	if (s->orphan) {
		pid_t p = fork();
		if (p == 0) {
			for (;;)
				pause();
		}
		FILE *f = fopen(s->orphan, "a");
		if (f) {
			fprintf(f, "%d\n", (int)p);
			fclose(f);
		}
	}
	if (s->sleep_ms) {
		struct timespec ts = { 0, s->sleep_ms * 1000000L };
		nanosleep(&ts, NULL);
	}
	m->status = NPU_TUNE_OK;
	m->cycles = (int64_t)true_cost(tm, tn, bufs, order);
	m->bytes = 1000;
	return 0;
}

/* Builds the synthetic space; candidates with tile_m * tile_n > limit are
 * illegal by the compiler's own check. */
static npu_tune_kernel make_kernel(const char *sig, int64_t limit)
{
	npu_tune_kernel k = { 0 };
	k.sig = (char *)sig;
	k.count = 1;
	k.c = calloc(6 * 6 * 4, sizeof *k.c);
	for (int a = 0; a < 6; a++)
		for (int b = 0; b < 6; b++)
			for (int bufs = 1; bufs <= 2; bufs++)
				for (int order = 0; order <= 1; order++) {
					npu_tune_cand *c = &k.c[k.nc++];
					char buf[128];
					int tm = tiles[a], tn = tiles[b];
					snprintf(buf, sizeof buf, "tile_n=%d,tile_m=%d,order=%d,bufs=%d",
						 tn, tm, order, bufs);
					c->knobs = malloc(128);
					npu_tune_knobs_canon(buf, c->knobs, 128);
					double t = true_cost(tm, tn, bufs, order);
					c->model = t * (order == 1 ? 0.6 / 1.3 : 1.0) *
						   (1 + 0.02 * ((a + b) % 3));
					if ((int64_t)tm * tn > limit) {
						c->illegal = malloc(96);
						snprintf(c->illegal, 96, "sram: tile %dx%d needs %lld bytes",
							 tm, tn, (long long)tm * tn * 8);
					}
				}
	return k;
}

static void free_kernel(npu_tune_kernel *k)
{
	for (int i = 0; i < k->nc; i++) {
		free(k->c[i].knobs);
		free(k->c[i].illegal);
	}
	free(k->c);
}

static double exhaustive_best(const npu_tune_kernel *k, const synth *s)
{
	double best = -1;
	for (int i = 0; i < k->nc; i++) {
		int tm, tn, bufs, order;
		if (k->c[i].illegal)
			continue;
		ck_assert_int_eq(parse_knobs(k->c[i].knobs, &tm, &tn, &bufs, &order), 0);
		if (tm == s->crash_tm || tm == s->hang_tm || tn == s->illegal_tn)
			continue;
		double c = (double)(int64_t)true_cost(tm, tn, bufs, order);
		if (best < 0 || c < best)
			best = c;
	}
	return best;
}

static npu_tune_opts opts(synth *s, const char *db)
{
	npu_tune_opts o = { 0 };
	o.trials = 32;
	o.jobs = 2;
	o.timeout_s = 20;
	o.db_path = db;
	o.target = "npu-test";
	o.target_hash = "00000000000000aa";
	o.compiler = "0.1.0";
	o.measure = synth_measure;
	o.ctx = s;
	return o;
}

START_TEST(search_finds_near_best)
{
	synth s = { NULL, -1, -1, -1, 0 };
	npu_tune_kernel k[2] = { make_kernel("mm A", 1 << 30), make_kernel("mm B", 4096) };
	npu_tune_best best[2];
	npu_err e = { "" };
	npu_tune_opts o = opts(&s, tpath("s.db"));

	ck_assert_int_eq(npu_tune_run(&o, k, 2, best, &e), 0);
	for (int i = 0; i < 2; i++) {
		double ex = exhaustive_best(&k[i], &s);
		ck_assert_ptr_nonnull(best[i].knobs);
		ck_assert_int_le(best[i].measured, 32);
		ck_assert_msg(best[i].cycles <= ex * 1.05,
			      "%s: tuned %lld vs exhaustive %.0f (%s)", k[i].sig,
			      (long long)best[i].cycles, ex, best[i].knobs);
		ck_assert(!isnan(best[i].spearman));
		/* The pure model would pick order=1 everywhere; tuning learns. */
		ck_assert_ptr_nonnull(strstr(best[i].knobs, "order=0"));
	}
	npu_tunedb *db = npu_tunedb_open(tpath("s.db"), &e);
	ck_assert_ptr_nonnull(db);
	/* 32 measured per kernel; kernel B's illegal space recorded too */
	ck_assert_int_eq(npu_tunedb_count(db, NPU_TUNE_OK, &e), 64);
	int nill = 0;
	for (int i = 0; i < k[1].nc; i++)
		nill += k[1].c[i].illegal != NULL;
	ck_assert_int_gt(nill, 0);
	ck_assert_int_eq(npu_tunedb_count(db, NPU_TUNE_ILLEGAL, &e), nill);
	char *kn = NULL;
	int64_t cyc;
	ck_assert_int_eq(npu_tunedb_best(db, "mm A", "00000000000000aa", "0.1.0", &kn,
					 &cyc, &e), 1);
	ck_assert_str_eq(kn, best[0].knobs);
	ck_assert_int_eq(cyc, best[0].cycles);
	free(kn);
	npu_tunedb_close(db);
	npu_tune_best_free(best, 2);

	/* A second run reuses everything: nothing is measured again. */
	ck_assert_int_eq(npu_tune_run(&o, k, 2, best, &e), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(best[i].measured, 0);
		ck_assert_int_eq(best[i].reused, 32);
		ck_assert_ptr_nonnull(best[i].knobs);
	}
	npu_tune_best_free(best, 2);
	db = npu_tunedb_open(tpath("s.db"), &e);
	ck_assert_int_eq(npu_tunedb_count(db, NPU_TUNE_OK, &e), 64);
	ck_assert_int_eq(npu_tunedb_count(db, NPU_TUNE_ILLEGAL, &e), nill);
	npu_tunedb_close(db);
	free_kernel(&k[0]);
	free_kernel(&k[1]);
}
END_TEST

START_TEST(search_contains_crash_hang_illegal)
{
	synth s = { NULL, 16, 32, 128, 0 };
	npu_tune_kernel k = make_kernel("mm C", 1 << 30);
	npu_tune_best best;
	npu_err e = { "" };
	npu_tune_opts o = opts(&s, tpath("f.db"));

	/* exhaustive over the whole space, so every failure mode is hit */
	o.trials = k.nc;
	o.timeout_s = 1.5; /* a hang; the others finish in milliseconds, even on a loaded machine */
	o.jobs = 4;
	ck_assert_int_eq(npu_tune_run(&o, &k, 1, &best, &e), 0);
	ck_assert_int_eq(best.measured, k.nc);
	ck_assert_int_eq(best.failed, 2 * 6 * 4);
	ck_assert_int_eq(best.illegal, 4 * 4); /* tile_n=128 minus the failing tile_m */
	ck_assert_int_eq(best.cycles, (int64_t)exhaustive_best(&k, &s));

	npu_tunedb *db = npu_tunedb_open(tpath("f.db"), &e);
	sqlite3_stmt *q;
	ck_assert_int_eq(sqlite3_prepare_v2(npu_tunedb_sqlite(db),
		"SELECT sum(reason LIKE '%signal 6%'), sum(reason LIKE 'timed out%'),"
		" sum(status = 'illegal' AND reason LIKE '%accumulator%'),"
		" count(DISTINCT trial), min(trial), max(trial), count(*)"
		" FROM measure", -1, &q, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(q, 0), 24);
	ck_assert_int_eq(sqlite3_column_int(q, 1), 24);
	ck_assert_int_eq(sqlite3_column_int(q, 2), 16);
	ck_assert_int_eq(sqlite3_column_int(q, 3), k.nc);
	ck_assert_int_eq(sqlite3_column_int(q, 4), 1);
	ck_assert_int_eq(sqlite3_column_int(q, 5), k.nc);
	ck_assert_int_eq(sqlite3_column_int(q, 6), k.nc);
	sqlite3_finalize(q);
	npu_tunedb_close(db);
	npu_tune_best_free(&best, 1);

	/* failed candidates are measured again on the next run; others not */
	s.hang_tm = -1;
	s.crash_tm = -1;
	ck_assert_int_eq(npu_tune_run(&o, &k, 1, &best, &e), 0);
	ck_assert_int_eq(best.measured, 48);
	ck_assert_int_eq(best.failed, 0);
	npu_tune_best_free(&best, 1);
	free_kernel(&k);
}
END_TEST

/* Measured candidates per second with 1 and 2 workers. */
static double rate(int jobs)
{
	/* long enough that forking and scheduling on a loaded machine stay
	 * small next to the work */
	synth s = { NULL, -1, -1, -1, 300 };
	npu_tune_kernel k = make_kernel("mm R", 1 << 30);
	npu_tune_best best;
	npu_err e = { "" };
	npu_tune_opts o = opts(&s, NULL);
	double t0;

	o.trials = 12;
	o.jobs = jobs;
	t0 = now_s();
	ck_assert_int_eq(npu_tune_run(&o, &k, 1, &best, &e), 0);
	ck_assert_int_eq(best.measured, 12);
	npu_tune_best_free(&best, 1);
	free_kernel(&k);
	return 12 / (now_s() - t0);
}

START_TEST(search_scales_with_workers)
{
	double r1 = rate(1), r2 = rate(2);
	fprintf(stderr, "check_tune: 1 worker %.2f candidates/s, 2 workers %.2f/s (%.2fx)\n",
		r1, r2, r2 / r1);
	ck_assert_msg(r2 / r1 >= 1.8, "1 worker %.1f/s, 2 workers %.1f/s", r1, r2);
}
END_TEST

static const char *batch_log;

static int synth_batch(void *ctx, int n, const char *const *sigs,
		       const char *const *knobs, npu_tune_meas *m)
{
	FILE *f = fopen(batch_log, "a");
	if (f) {
		fprintf(f, "%d\n", n);
		fclose(f);
	}
	for (int j = 0; j < n; j++)
		synth_measure(ctx, sigs[j], knobs[j], &m[j]);
	return 0;
}

/* measure_batch: one worker job measures a candidate of every kernel. */
START_TEST(search_in_batches)
{
	synth s = { NULL, -1, -1, -1, 0 };
	npu_tune_kernel k[2] = { make_kernel("mm A", 1 << 30), make_kernel("mm B", 4096) };
	npu_tune_best best[2];
	npu_err e = { "" };
	npu_tune_opts o = opts(&s, tpath("b.db"));
	int jobs = 0, cands = 0, n;

	batch_log = tpath("batches");
	o.measure = NULL;
	o.measure_batch = synth_batch;
	ck_assert_int_eq(npu_tune_run(&o, k, 2, best, &e), 0);
	FILE *f = fopen(batch_log, "r");
	ck_assert_ptr_nonnull(f);
	while (fscanf(f, "%d", &n) == 1) {
		jobs++;
		cands += n;
		ck_assert_int_le(n, 2);
	}
	fclose(f);
	ck_assert_int_eq(cands, 64);
	ck_assert_int_le(jobs, 33); /* two kernels per job (one may run out first) */
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(best[i].measured, 32);
		ck_assert_msg(best[i].cycles <= exhaustive_best(&k[i], &s) * 1.05, "%s", k[i].sig);
	}
	npu_tune_best_free(best, 2);
	free_kernel(&k[0]);
	free_kernel(&k[1]);
}
END_TEST

/* A measurement that leaves a process behind: the result still counts at
 * once (no timeout), and the leftover is killed with the worker's group. */
START_TEST(search_kills_leftovers)
{
	synth s = { tpath("orphans"), -1, -1, -1, 0 };
	npu_tune_kernel k = make_kernel("mm O", 1 << 30);
	npu_tune_best best;
	npu_err e = { "" };
	npu_tune_opts o = opts(&s, NULL);
	double t0 = now_s();
	int pid, n = 0;

	o.trials = 6;
	o.timeout_s = 30;
	ck_assert_int_eq(npu_tune_run(&o, &k, 1, &best, &e), 0);
	ck_assert_int_eq(best.measured, 6);
	ck_assert_int_eq(best.failed, 0);
	ck_assert(now_s() - t0 < 10);
	FILE *f = fopen(s.orphan, "r");
	ck_assert_ptr_nonnull(f);
	while (fscanf(f, "%d", &pid) == 1) {
		char path[64], st = 0;
		n++;
		snprintf(path, sizeof path, "/proc/%d/stat", pid);
		/* gone, or a zombie waiting for its new parent */
		for (int tries = 0; tries < 100; tries++) {
			FILE *p = fopen(path, "r");
			st = 0;
			if (p) {
				if (fscanf(p, "%*d (%*[^)]) %c", &st) != 1)
					st = 0;
				fclose(p);
			}
			if (!st || st == 'Z' || st == 'X')
				break;
			usleep(10000);
		}
		ck_assert_msg(!st || st == 'Z' || st == 'X', "leftover %d is '%c'", pid, st);
	}
	fclose(f);
	ck_assert_int_eq(n, 6);
	npu_tune_best_free(&best, 1);
	free_kernel(&k);
}
END_TEST

START_TEST(search_without_callback_fails)
{
	npu_tune_opts o = { 0 };
	npu_tune_best b;
	npu_err e = { "" };
	ck_assert_int_eq(npu_tune_run(&o, NULL, 0, &b, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "callback"));
}
END_TEST


/* ---- the compiler binding ----------------------------------------------- */

static const char *fixture(const char *rel)
{
	static char buf[2][4200];
	static int i;
	const char *src = getenv("srcdir");
	char *b = buf[i++ % 2];
	snprintf(b, sizeof buf[0], "%s/tests/data/fx/%s", src && *src ? src : ".", rel);
	return b;
}

START_TEST(graph_tune_end_to_end)
{
	npu_ccopts cc = { 0 }, cc2 = { 0 };
	npu_tune_opts o = { 0 };
	npu_tune_summary s;
	npu_err e = { "" };
	npu_ccresult r = { 0 };

	cc.graph = fixture("mlp_bf16/inference2.json");
	/* no weights: with them the passes fold the whole MLP into constants */
	cc.target = "npu-base";
	o.trials = 8;
	o.jobs = 2;
	o.timeout_s = 60;
	o.db_path = tpath("g.db");
	ck_assert_msg(npu_tune_graph(&cc, &o, &s, &e) == 0, "%s", e.msg);
	ck_assert_int_ge(s.n, 2);
	int nmm = 0;
	for (int i = 0; i < s.n; i++) {
		npu_tune_sigsum *x = &s.s[i];
		nmm += !strncmp(x->sig, "mm ", 3);
		ck_assert_int_ge(x->space, 1);
		ck_assert_int_le(x->best.measured, 8);
		/* the model's own choice is measured first, and tuning never
		 * returns something slower */
		ck_assert_int_gt(x->default_cycles, 0);
		ck_assert_int_gt(x->best.cycles, 0);
		ck_assert_int_le(x->best.cycles, x->default_cycles);
	}
	ck_assert_int_ge(nmm, 1);
	ck_assert_int_gt(s.default_total, 0);
	ck_assert_int_gt(s.tuned_total, 0);
	/* kernels are timed alone, the program as a whole: allow overlap */
	ck_assert_int_le(s.tuned_total, s.default_total * 102 / 100);
	/* the appended knobs compile */
	ck_assert_msg(npu_cc_compile(&cc, &r, &e) == 0, "%s", e.msg);
	npu_cc_free(&r);

	/* every measurement is in the database */
	npu_tunedb *db = npu_tunedb_open(tpath("g.db"), &e);
	int64_t measured = 0;
	for (int i = 0; i < s.n; i++)
		measured += s.s[i].best.measured - s.s[i].best.failed - s.s[i].best.illegal;
	ck_assert_int_eq(npu_tunedb_count(db, NPU_TUNE_OK, &e), measured);
	npu_tunedb_close(db);

	/* a plain compile takes the same knobs from the database */
	cc2.graph = cc.graph;
	cc2.weights = cc.weights;
	cc2.target = "npu-base";
	ck_assert_int_eq(npu_tune_apply_db(&cc2, tpath("g.db"), &e), s.n);
	for (int i = 0; i < cc.nknobs; i++) {
		int found = 0;
		for (int j = 0; j < cc2.nknobs; j++)
			found |= !strcmp(cc.knobs[i].kernel, cc2.knobs[j].kernel) &&
				 !strcmp(cc.knobs[i].name, cc2.knobs[j].name) &&
				 cc.knobs[i].value == cc2.knobs[j].value;
		ck_assert_msg(found, "%s.%s", cc.knobs[i].kernel, cc.knobs[i].name);
	}
	/* records are keyed by target: none apply to npu-edge */
	memset(&cc2, 0, sizeof cc2);
	cc2.graph = cc.graph;
	cc2.weights = cc.weights;
	cc2.target = "npu-edge";
	ck_assert_int_eq(npu_tune_apply_db(&cc2, tpath("g.db"), &e), 0);
	ck_assert_int_eq(cc2.nknobs, 0);
	/* a database that does not exist configures nothing and stays absent */
	ck_assert_int_eq(npu_tune_apply_db(&cc2, tpath("none.db"), &e), 0);
	ck_assert_int_ne(access(tpath("none.db"), F_OK), 0);
	npu_tune_summary_free(&s);
}
END_TEST

START_TEST(kernel_space_and_signature)
{
	npu_ccopts cc = { 0 };
	npu_ccresult r = { 0 };
	npu_err e = { "" };
	int mm = 0;

	cc.graph = fixture("mlp_bf16/inference2.json");
	npu_ccresult r2 = { 0 };
	ck_assert_msg(npu_cc_compile(&cc, &r, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_cc_compile(&cc, &r2, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(r.ir.nk, r2.ir.nk);
	for (int k = 0; k < r.ir.nk; k++) {
		npu_tune_kernel t;
		char *sig = npu_tune_kernel_sig(&r.ir, k);
		char *sig2 = npu_tune_kernel_sig(&r2.ir, k);
		ck_assert_ptr_nonnull(sig);
		/* the same kernel compiled twice: the same text (portable) */
		ck_assert_str_eq(sig, sig2);
		free(sig2);
		ck_assert_ptr_null(strstr(sig, r.ir.k[k].name)); /* names stay out */
		ck_assert_int_eq(npu_tune_kernel_space(&r.ir, k, &t, &e), 0);
		ck_assert_str_eq(t.sig, sig);
		if (r.ir.k[k].kind == NPU_KK_MM) {
			int first = 0;
			mm++;
			ck_assert_int_gt(t.nc, 0);
			for (int i = 0; i < t.nc; i++) {
				first += t.c[i].first;
				ck_assert(t.c[i].illegal || t.c[i].model > 0);
				ck_assert_ptr_nonnull(strstr(t.c[i].knobs, "tile_m="));
			}
			ck_assert_int_eq(first, 1);
		}
		npu_tune_kernel_free(&t);
		free(sig);
	}
	ck_assert_int_ge(mm, 1);
	npu_cc_free(&r);
	npu_cc_free(&r2);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tune");
	TCase *t = tcase_create("db");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 120); /* concurrent writers under sanitizers */
	tcase_add_test(t, fnv1a_vectors);
	tcase_add_test(t, knobs_canonical);
	tcase_add_test(t, spearman_values);
	tcase_add_test(t, db_records_and_best);
	tcase_add_test(t, db_merge_idempotent);
	tcase_add_test(t, db_concurrent_writers);
	suite_add_tcase(s, t);
	t = tcase_create("search");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, search_finds_near_best);
	tcase_add_test(t, search_contains_crash_hang_illegal);
	tcase_add_test(t, search_scales_with_workers);
	tcase_add_test(t, search_kills_leftovers);
	tcase_add_test(t, search_in_batches);
	tcase_add_test(t, search_without_callback_fails);
	suite_add_tcase(s, t);
	t = tcase_create("graph");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 300);
	tcase_add_test(t, kernel_space_and_signature);
	tcase_add_test(t, graph_tune_end_to_end);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
