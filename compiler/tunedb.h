/*
 * tunedb.h - the tuning database: every candidate the autotuner measured,
 * in one SQLite file (docs/tuning.md has the schema and example queries).
 *
 * Records are portable: a kernel is identified by its canonical signature
 * text (op pattern, shapes, dtypes, layouts) and the FNV-1a 64 hash of that
 * text, a target by npu_target_hash() of its canonical values; nothing
 * depends on the host, its pointer size or its byte order.  Lookups are
 * keyed by the target hash, so records tuned for one target never
 * configure another.
 *
 * Several processes may write one file at once (tuning runs, cluster tasks
 * merging): the file is in WAL mode, every write is one short transaction
 * that is retried while the file is busy, and each record carries a random
 * 128-bit uid so that merging a database twice adds nothing.
 */
#ifndef NPU_TUNEDB_H
#define NPU_TUNEDB_H

#include <stddef.h>
#include <stdint.h>

#include "isa/err.h"

/* Outcomes of a candidate: X(enum suffix, name stored in the database). */
#define NPU_TUNE_STATUSES(X) \
	X(OK, "ok")             /* compiled and simulated: cycles, bytes valid */ \
	X(ILLEGAL, "illegal")   /* the compiler rejected it: reason names the constraint */ \
	X(FAILED, "failed")     /* crashed, timed out or faulted: reason says how */

enum npu_tune_status {
#define X(e, s) NPU_TUNE_##e,
	NPU_TUNE_STATUSES(X)
#undef X
	NPU_NTUNE_STATUS
};

/* The name of a status ("ok"), or "?" for an unknown value. */
const char *npu_tune_status_name(int status);

/* The columns of the measure table:
 * X(name, C member kind, SQL type and constraint, description).
 * Kinds: T text, I integer, R real.  The order is the stored order. */
#define NPU_TUNEDB_COLS(X) \
	X(uid, T, "TEXT NOT NULL UNIQUE", "random 128-bit id (hex); merging skips known uids") \
	X(sig, T, "TEXT NOT NULL", "canonical kernel signature text") \
	X(sig_hash, T, "TEXT NOT NULL", "FNV-1a 64 of sig, 16 hex digits") \
	X(target, T, "TEXT NOT NULL", "target name (informative)") \
	X(target_hash, T, "TEXT NOT NULL", "npu_target_hash() of the target, 16 hex digits") \
	X(compiler, T, "TEXT NOT NULL", "compiler version that produced the candidate") \
	X(knobs, T, "TEXT NOT NULL", "knob values, canonical: name=value,... sorted by name") \
	X(status, T, "TEXT NOT NULL CHECK (status IN ('ok','illegal','failed'))", "ok, illegal or failed") \
	X(reason, T, "TEXT", "illegal: the violated constraint; failed: what happened") \
	X(model_cycles, R, "REAL", "cost model estimate (cycles), NULL when none") \
	X(cycles, I, "INTEGER", "measured cycles (status ok)") \
	X(bytes, I, "INTEGER", "measured DRAM bytes read + written (status ok)") \
	X(wall_s, R, "REAL", "seconds the measurement took") \
	X(session, T, "TEXT", "tuning run that measured it (the tuning curve groups by it)") \
	X(trial, I, "INTEGER", "1-based measurement index of the kernel within the session") \
	X(created, T, "TEXT NOT NULL", "UTC time of the record, ISO 8601")

/* One record; text members may be NULL (stored as NULL, or "" when the
 * column is NOT NULL).  uid and created are filled in by npu_tunedb_add
 * when NULL. */
typedef struct npu_tunerec {
	const char *uid;
	const char *sig;
	const char *sig_hash;    /* NULL: computed from sig */
	const char *target;
	const char *target_hash;
	const char *compiler;
	const char *knobs;
	int status;              /* enum npu_tune_status */
	const char *reason;
	double model_cycles;     /* < 0: none */
	int64_t cycles, bytes;   /* < 0: none */
	double wall_s;           /* < 0: none */
	const char *session;
	int64_t trial;           /* <= 0: none */
	const char *created;
} npu_tunerec;

typedef struct npu_tunedb npu_tunedb;

/* FNV-1a 64 of n bytes. */
uint64_t npu_fnv1a64(const void *p, size_t n);

/* Writes the 16 lowercase hex digits of h and a NUL into buf[17]. */
void npu_tune_hex64(uint64_t h, char buf[17]);

/* Opens (creating when missing) the database at path; NULL on error. */
npu_tunedb *npu_tunedb_open(const char *path, npu_err *e);

/* Closes db (NULL is fine). */
void npu_tunedb_close(npu_tunedb *db);

/* Appends one record in its own transaction, retrying while another
 * process holds the file. */
int npu_tunedb_add(npu_tunedb *db, const npu_tunerec *r, npu_err *e);

/* Appends n records in one transaction (all or none). */
int npu_tunedb_add_many(npu_tunedb *db, const npu_tunerec *r, size_t n,
			npu_err *e);

/* The best ok record of signature sig on the target with hash target_hash
 * (hex); compiler, when not NULL, restricts it to that compiler version.
 * Returns 1 and sets *knobs (malloc'd, the caller frees) and *cycles when
 * there is one, 0 when none, -1 on error. */
int npu_tunedb_best(npu_tunedb *db, const char *sig, const char *target_hash,
		    const char *compiler, char **knobs, int64_t *cycles,
		    npu_err *e);

/* Looks up an earlier outcome of exactly this candidate (same signature,
 * target hash, compiler and knobs): ok or illegal records count, failed
 * ones do not (a crash or timeout may be the machine's fault).  Returns 1
 * and fills *status, *cycles (ok: the smallest) when found, 0 when not,
 * -1 on error. */
int npu_tunedb_lookup(npu_tunedb *db, const char *sig, const char *target_hash,
		      const char *compiler, const char *knobs, int *status,
		      int64_t *cycles, npu_err *e);

/* Copies every record of the database at src_path that db lacks (by uid)
 * into db; merging the same file again adds nothing.  Sets *added (may be
 * NULL) to the number of records added. */
int npu_tunedb_merge(npu_tunedb *db, const char *src_path, int64_t *added,
		     npu_err *e);

/* Number of records (status < 0: all; else with that status). */
int64_t npu_tunedb_count(npu_tunedb *db, int status, npu_err *e);

/* The underlying connection, for queries the API does not cover. */
struct sqlite3 *npu_tunedb_sqlite(npu_tunedb *db);

#endif
