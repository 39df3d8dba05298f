/*
 * tunedb.c - the tuning database (see tunedb.h).
 *
 * Concurrency: every statement that writes runs inside BEGIN IMMEDIATE, so
 * a writer takes the write lock before reading anything and two writers
 * never deadlock on a lock upgrade; SQLITE_BUSY from BEGIN is retried with
 * a growing sleep on top of the busy timeout, because under heavy contention
 * (many cluster tasks merging) the busy handler alone may give up.  WAL
 * lets readers go on while one process writes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "compiler/tunedb.h"

#define TUNEDB_SCHEMA_VERSION 1
#define TUNEDB_BUSY_MS 10000
#define TUNEDB_RETRIES 50

struct npu_tunedb {
	sqlite3 *db;
	sqlite3_stmt *ins;
	char *path;
};

static const char *const status_names[] = {
#define X(e, s) s,
	NPU_TUNE_STATUSES(X)
#undef X
};

const char *npu_tune_status_name(int status)
{
	return status >= 0 && status < NPU_NTUNE_STATUS ? status_names[status] : "?";
}

uint64_t npu_fnv1a64(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

void npu_tune_hex64(uint64_t h, char buf[17])
{
	snprintf(buf, 17, "%016" PRIx64, h);
}

static const char create_sql[] =
	"CREATE TABLE IF NOT EXISTS measure (\n"
	"  id INTEGER PRIMARY KEY"
#define X(name, kind, type, doc) ",\n  " #name " " type
	NPU_TUNEDB_COLS(X)
#undef X
	"\n);\n"
	"CREATE INDEX IF NOT EXISTS measure_key ON measure"
	" (sig_hash, target_hash, status, cycles);\n"
	"CREATE INDEX IF NOT EXISTS measure_cand ON measure"
	" (sig_hash, target_hash, compiler, knobs);\n"
	"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);\n"
	"INSERT OR IGNORE INTO meta VALUES ('schema_version', '1');\n"
	/* The best ok record per kernel and target: what a compile without
	 * --tune uses. */
	"CREATE VIEW IF NOT EXISTS best AS\n"
	"  SELECT sig_hash, target_hash, compiler, sig, target, knobs,\n"
	"         min(cycles) AS cycles, count(*) AS measured\n"
	"  FROM measure WHERE status = 'ok'\n"
	"  GROUP BY sig_hash, target_hash, compiler;\n";

static const char insert_sql[] =
	"INSERT INTO measure ("
#define X(name, kind, type, doc) #name ","
	NPU_TUNEDB_COLS(X)
#undef X
	"id) VALUES ("
#define X(name, kind, type, doc) "?,"
	NPU_TUNEDB_COLS(X)
#undef X
	"NULL)";

static int dberr(npu_tunedb *db, npu_err *e, const char *what)
{
	return npu_errf(e, "%s: %s: %s", db->path, what, sqlite3_errmsg(db->db));
}

static void backoff(int attempt)
{
	struct timespec ts = { 0, (long)(1 + attempt % 16) * 5 * 1000 * 1000 };
	nanosleep(&ts, NULL);
}

/* Runs sql (no results) retrying while the database is busy. */
static int exec_retry(npu_tunedb *db, const char *sql, npu_err *e)
{
	for (int i = 0;; i++) {
		int rc = sqlite3_exec(db->db, sql, NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return 0;
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || i >= TUNEDB_RETRIES)
			return dberr(db, e, sql);
		backoff(i);
	}
}

static int begin(npu_tunedb *db, npu_err *e)
{
	return exec_retry(db, "BEGIN IMMEDIATE", e);
}

static int commit(npu_tunedb *db, npu_err *e)
{
	if (exec_retry(db, "COMMIT", e) < 0) {
		sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

static void rollback(npu_tunedb *db)
{
	if (!sqlite3_get_autocommit(db->db))
		sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
}

npu_tunedb *npu_tunedb_open(const char *path, npu_err *e)
{
	npu_tunedb *db = calloc(1, sizeof *db);

	if (!db || !(db->path = strdup(path))) {
		free(db);
		npu_errf(e, "%s: out of memory", path);
		return NULL;
	}
	if (sqlite3_open_v2(path, &db->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
			    NULL) != SQLITE_OK) {
		dberr(db, e, "cannot open");
		goto out_close;
	}
	sqlite3_busy_timeout(db->db, TUNEDB_BUSY_MS);
	/* journal_mode needs no transaction; it is persistent, so only the
	 * first opener really changes it. */
	if (exec_retry(db, "PRAGMA journal_mode=WAL", e) < 0 ||
	    exec_retry(db, "PRAGMA synchronous=NORMAL", e) < 0)
		goto out_close;
	if (begin(db, e) < 0)
		goto out_close;
	if (sqlite3_exec(db->db, create_sql, NULL, NULL, NULL) != SQLITE_OK) {
		dberr(db, e, "cannot create the schema");
		rollback(db);
		goto out_close;
	}
	if (commit(db, e) < 0)
		goto out_close;
	if (sqlite3_prepare_v2(db->db, insert_sql, -1, &db->ins, NULL) != SQLITE_OK) {
		dberr(db, e, "insert");
		goto out_close;
	}
	return db;

out_close:
	npu_tunedb_close(db);
	return NULL;
}

void npu_tunedb_close(npu_tunedb *db)
{
	if (!db)
		return;
	sqlite3_finalize(db->ins);
	sqlite3_close(db->db);
	free(db->path);
	free(db);
}

sqlite3 *npu_tunedb_sqlite(npu_tunedb *db)
{
	return db->db;
}

static int new_uid(char buf[33])
{
	unsigned char r[16];
	size_t got = 0;

	while (got < sizeof r) {
		ssize_t n = getrandom(r + got, sizeof r - got, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)n;
	}
	for (int i = 0; i < 16; i++)
		snprintf(buf + 2 * i, 3, "%02x", r[i]);
	return 0;
}

static void utc_now(char buf[32])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(buf, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, 32 - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s, int notnull)
{
	if (s || notnull)
		sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_int(sqlite3_stmt *st, int i, int64_t v, int64_t min)
{
	if (v >= min)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (v >= 0)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* Binds r's values, filling the derived ones, and runs the insert. */
static int insert_one(npu_tunedb *db, const npu_tunerec *r, npu_err *e)
{
	sqlite3_stmt *st = db->ins;
	char uid[33], hash[17], now[32];
	int i = 1, rc;

	if (r->status < 0 || r->status >= NPU_NTUNE_STATUS)
		return npu_errf(e, "%s: record of '%s': bad status %d", db->path,
				r->sig ? r->sig : "", r->status);
	if (!r->uid && new_uid(uid) < 0)
		return npu_errf(e, "%s: no random bytes for a record id: %s", db->path,
				strerror(errno));
	if (!r->sig_hash)
		npu_tune_hex64(npu_fnv1a64(r->sig ? r->sig : "",
					   r->sig ? strlen(r->sig) : 0), hash);
	if (!r->created)
		utc_now(now);
	sqlite3_reset(st);
	bind_text(st, i++, r->uid ? r->uid : uid, 1);
	bind_text(st, i++, r->sig, 1);
	bind_text(st, i++, r->sig_hash ? r->sig_hash : hash, 1);
	bind_text(st, i++, r->target, 1);
	bind_text(st, i++, r->target_hash, 1);
	bind_text(st, i++, r->compiler, 1);
	bind_text(st, i++, r->knobs, 1);
	bind_text(st, i++, npu_tune_status_name(r->status), 1);
	bind_text(st, i++, r->reason, 0);
	bind_real(st, i++, r->model_cycles);
	bind_int(st, i++, r->cycles, 0);
	bind_int(st, i++, r->bytes, 0);
	bind_real(st, i++, r->wall_s);
	bind_text(st, i++, r->session, 0);
	bind_int(st, i++, r->trial, 1);
	bind_text(st, i++, r->created ? r->created : now, 1);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return dberr(db, e, "insert");
	return 0;
}

int npu_tunedb_add_many(npu_tunedb *db, const npu_tunerec *r, size_t n,
			npu_err *e)
{
	if (begin(db, e) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (insert_one(db, &r[i], e) < 0) {
			rollback(db);
			return -1;
		}
	}
	return commit(db, e);
}

int npu_tunedb_add(npu_tunedb *db, const npu_tunerec *r, npu_err *e)
{
	return npu_tunedb_add_many(db, r, 1, e);
}

static void sig_hash_of(const char *sig, char hash[17])
{
	npu_tune_hex64(npu_fnv1a64(sig, strlen(sig)), hash);
}

int npu_tunedb_best(npu_tunedb *db, const char *sig, const char *target_hash,
		    const char *compiler, char **knobs, int64_t *cycles,
		    npu_err *e)
{
	static const char sql[] =
		"SELECT knobs, cycles FROM measure"
		" WHERE sig_hash = ?1 AND sig = ?2 AND target_hash = ?3"
		" AND status = 'ok' AND (?4 IS NULL OR compiler = ?4)"
		" ORDER BY cycles, knobs, created, uid LIMIT 1";
	sqlite3_stmt *st = NULL;
	char hash[17];
	int rc, found = 0;

	sig_hash_of(sig, hash);
	if (sqlite3_prepare_v2(db->db, sql, -1, &st, NULL) != SQLITE_OK)
		return dberr(db, e, "best");
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, sig, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, target_hash, -1, SQLITE_STATIC);
	bind_text(st, 4, compiler, 0);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*knobs = strdup((const char *)sqlite3_column_text(st, 0));
		*cycles = sqlite3_column_int64(st, 1);
		found = *knobs ? 1 : npu_errf(e, "%s: out of memory", db->path);
	} else if (rc != SQLITE_DONE) {
		found = dberr(db, e, "best");
	}
	sqlite3_finalize(st);
	return found;
}

int npu_tunedb_lookup(npu_tunedb *db, const char *sig, const char *target_hash,
		      const char *compiler, const char *knobs, int *status,
		      int64_t *cycles, npu_err *e)
{
	static const char sql[] =
		"SELECT status, min(cycles) FROM measure"
		" WHERE sig_hash = ?1 AND sig = ?2 AND target_hash = ?3"
		" AND compiler = ?4 AND knobs = ?5 AND status != 'failed'"
		" GROUP BY status ORDER BY status = 'ok' DESC LIMIT 1";
	sqlite3_stmt *st = NULL;
	char hash[17];
	int rc, found = 0;

	sig_hash_of(sig, hash);
	if (sqlite3_prepare_v2(db->db, sql, -1, &st, NULL) != SQLITE_OK)
		return dberr(db, e, "lookup");
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, sig, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, target_hash, -1, SQLITE_STATIC);
	bind_text(st, 4, compiler, 1);
	sqlite3_bind_text(st, 5, knobs, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);
		*status = !strcmp(s, "ok") ? NPU_TUNE_OK : NPU_TUNE_ILLEGAL;
		*cycles = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 :
			  sqlite3_column_int64(st, 1);
		found = 1;
	} else if (rc != SQLITE_DONE) {
		found = dberr(db, e, "lookup");
	}
	sqlite3_finalize(st);
	return found;
}

int npu_tunedb_merge(npu_tunedb *db, const char *src_path, int64_t *added,
		     npu_err *e)
{
	static const char copy_sql[] =
		"INSERT OR IGNORE INTO main.measure ("
#define X(name, kind, type, doc) #name ","
		NPU_TUNEDB_COLS(X)
#undef X
		"id) SELECT "
#define X(name, kind, type, doc) #name ","
		NPU_TUNEDB_COLS(X)
#undef X
		"NULL FROM src.measure ORDER BY id";
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (access(src_path, R_OK) != 0)
		return npu_errf(e, "%s: cannot read: %s", src_path, strerror(errno));
	if (sqlite3_prepare_v2(db->db, "ATTACH DATABASE ?1 AS src", -1, &st,
			       NULL) != SQLITE_OK)
		return dberr(db, e, "attach");
	sqlite3_bind_text(st, 1, src_path, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		npu_errf(e, "%s: cannot attach %s: %s", db->path, src_path,
			 sqlite3_errmsg(db->db));
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	if (begin(db, e) < 0)
		goto out_detach;
	if (sqlite3_exec(db->db, copy_sql, NULL, NULL, NULL) != SQLITE_OK) {
		npu_errf(e, "%s: merging %s: %s", db->path, src_path,
			 sqlite3_errmsg(db->db));
		rollback(db);
		goto out_detach;
	}
	if (added)
		*added = sqlite3_changes(db->db);
	ret = commit(db, e);
out_detach:
	sqlite3_exec(db->db, "DETACH DATABASE src", NULL, NULL, NULL);
	return ret;
}

int64_t npu_tunedb_count(npu_tunedb *db, int status, npu_err *e)
{
	sqlite3_stmt *st = NULL;
	int64_t n = -1;

	if (sqlite3_prepare_v2(db->db, "SELECT count(*) FROM measure"
			       " WHERE ?1 IS NULL OR status = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return dberr(db, e, "count");
	bind_text(st, 1, status < 0 ? NULL : npu_tune_status_name(status), 0);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	else
		dberr(db, e, "count");
	sqlite3_finalize(st);
	return n;
}
