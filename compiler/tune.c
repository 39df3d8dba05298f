/*
 * tune.c - the autotuning search (see tune.h for what it does).
 *
 * The model correction.  For a measured candidate c, r(c) = log(measured)
 * - log(model).  The tuner fits r(c) ~ b + sum of w(f) over the knob values
 * f of c ("tile_m=64" is one value) by ridge-regularized coordinate descent
 * (each w(f) is shrunk towards 0 by TUNE_RIDGE pseudo-observations), and
 * ranks unmeasured candidates by log(model) + b + sum w(f).  A scale/offset
 * fit would not change the model's order; a per-knob-value factor does, and
 * it is what typically goes wrong in an analytical model (a loop order or
 * a buffering depth it mis-prices).
 *
 * Workers.  One forked process per candidate, in its own process group so
 * that a timeout kills whatever it started (npucc, npusim); it returns its
 * npu_tune_meas through a pipe.  Anything else (a signal, an exit without
 * a full result, a timeout) is a failed candidate.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compiler/driver.h"
#include "compiler/kir.h"
#include "compiler/tune.h"
#include "sim/sim.h"

#define TUNE_DEFAULT_TRIALS 64
#define TUNE_DEFAULT_TIMEOUT 600.0
#define TUNE_RIDGE 1.0
#define TUNE_FIT_ITERS 8
#define TUNE_EXPLORE 5     /* every 5th pick explores */
#define TUNE_GREEDY_FIRST 3 /* picks before exploring starts */

enum { C_NEW, C_RUNNING, C_DONE };

/* Per kernel search state. */
typedef struct kstate {
	const npu_tune_kernel *k;
	int *st;              /* per candidate: C_* */
	double *meas;         /* per candidate: measured cycles, < 0 none */
	double *lmodel;       /* per candidate: log(model) (filled in) */
	int **feat, *nfeat;   /* per candidate: knob value ids */
	char **fname;         /* knob value id -> "name=value" */
	int nf, capf;
	double *w;            /* per knob value: log factor */
	int *seen;            /* per knob value: measured ok candidates with it */
	double b;             /* global log factor */
	int left;             /* legal candidates not yet picked */
	int used;             /* budget used: done + running (reused included) */
	int picks;            /* this run's picks, for exploration */
	int trial;            /* records written this session */
} kstate;

/* A worker: one job of n candidates (n > 1 only with measure_batch). */
typedef struct slot {
	pid_t pid;
	int fd;
	int n;
	int *kern, *cand;     /* [n] */
	npu_tune_meas *m;     /* [n], filled from the pipe */
	size_t got;           /* bytes of m read so far */
	double start;
} slot;

typedef struct tuner {
	const npu_tune_opts *o;
	npu_tunedb *db;
	kstate *ks;
	int nk;
	npu_tune_best *best;
	slot *slots;
	int jobs, trials, nrun;
	double timeout;
	char session[96];
	unsigned rng;
} tuner;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned rng_next(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* ---- knob text ---------------------------------------------------------- */

static int item_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t nx = strcspn(x, "="), ny = strcspn(y, "=");
	int c = strncmp(x, y, nx < ny ? nx : ny);
	return c ? c : (nx > ny) - (nx < ny);
}

int npu_tune_knobs_canon(const char *knobs, char *buf, size_t n)
{
	char tmp[1024], *items[64], *save = NULL, *tok;
	size_t j = 0, ni = 0, len = 0;

	for (const char *p = knobs; *p; p++)
		if (*p != ' ' && *p != '\t') {
			if (j + 1 >= sizeof tmp)
				return -1;
			tmp[j++] = *p;
		}
	tmp[j] = 0;
	for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (ni == 64 || !strchr(tok, '=') || tok[0] == '=')
			return -1;
		items[ni++] = tok;
	}
	qsort(items, ni, sizeof *items, item_cmp);
	if (n == 0)
		return -1;
	buf[0] = 0;
	for (size_t i = 0; i < ni; i++) {
		int w = snprintf(buf + len, n - len, "%s%s", i ? "," : "", items[i]);
		if (w < 0 || (size_t)w >= n - len)
			return -1;
		len += (size_t)w;
	}
	return 0;
}

/* The id of knob value text s[0..len) in k, added when new; -1: no memory. */
static int feat_id(kstate *k, const char *s, size_t len)
{
	for (int i = 0; i < k->nf; i++)
		if (strlen(k->fname[i]) == len && !memcmp(k->fname[i], s, len))
			return i;
	if (k->nf == k->capf) {
		int cap = k->capf ? 2 * k->capf : 16;
		char **f = realloc(k->fname, cap * sizeof *f);
		if (!f)
			return -1;
		k->fname = f;
		k->capf = cap;
	}
	if (!(k->fname[k->nf] = strndup(s, len)))
		return -1;
	return k->nf++;
}

/* Splits candidate i's knobs into knob value ids. */
static int parse_feats(kstate *k, int i)
{
	const char *p = k->k->c[i].knobs;
	int n = 1;

	for (const char *q = p; *q; q++)
		n += *q == ',';
	if (!(k->feat[i] = malloc(n * sizeof(int))))
		return -1;
	k->nfeat[i] = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		if (len) {
			int id = feat_id(k, p, len);
			if (id < 0)
				return -1;
			k->feat[i][k->nfeat[i]++] = id;
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

/* ---- the corrected model ------------------------------------------------ */

static void fit(kstate *k)
{
	const npu_tune_kernel *K = k->k;
	double sum = 0;
	int n = 0;

	for (int i = 0; i < K->nc; i++)
		if (k->meas[i] > 0) {
			sum += log(k->meas[i]) - k->lmodel[i];
			n++;
		}
	memset(k->w, 0, k->nf * sizeof *k->w);
	memset(k->seen, 0, k->nf * sizeof *k->seen);
	k->b = n ? sum / n : 0;
	if (!n)
		return;
	for (int i = 0; i < K->nc; i++)
		if (k->meas[i] > 0)
			for (int j = 0; j < k->nfeat[i]; j++)
				k->seen[k->feat[i][j]]++;
	for (int it = 0; it < TUNE_FIT_ITERS; it++) {
		for (int f = 0; f < k->nf; f++) {
			double acc = 0;
			if (!k->seen[f])
				continue;
			for (int i = 0; i < K->nc; i++) {
				double r;
				int has = 0;
				if (k->meas[i] <= 0)
					continue;
				r = log(k->meas[i]) - k->lmodel[i] - k->b;
				for (int j = 0; j < k->nfeat[i]; j++) {
					int g = k->feat[i][j];
					if (g == f)
						has = 1;
					else
						r -= k->w[g];
				}
				if (has)
					acc += r;
			}
			k->w[f] = acc / (k->seen[f] + TUNE_RIDGE);
		}
	}
}

static double score(const kstate *k, int i)
{
	double s = k->lmodel[i] + k->b;
	for (int j = 0; j < k->nfeat[i]; j++)
		s += k->w[k->feat[i][j]];
	return s;
}

/* How little is known about candidate i's knob values (higher: less). */
static double novelty(const kstate *k, int i)
{
	double s = 0;
	for (int j = 0; j < k->nfeat[i]; j++)
		s += 1.0 / (1 + k->seen[k->feat[i][j]]);
	return s;
}

/* The next candidate of k to measure, or -1. */
static int pick_cand(tuner *t, kstate *k)
{
	int explore = k->picks >= TUNE_GREEDY_FIRST &&
		      k->picks % TUNE_EXPLORE == TUNE_EXPLORE - 1;
	int bi = -1;
	double bv = 0, bs = 0;

	for (int i = 0; i < k->k->nc; i++)
		if (k->st[i] == C_NEW && k->k->c[i].first)
			return i;
	for (int i = 0; i < k->k->nc; i++) {
		double s, v;
		if (k->st[i] != C_NEW)
			continue;
		s = score(k, i);
		v = explore ? novelty(k, i) : -s;
		if (bi < 0 || v > bv || (v == bv && s < bs)) {
			bi = i;
			bv = v;
			bs = s;
		}
	}
	(void)t;
	return bi;
}

/* ---- bookkeeping -------------------------------------------------------- */

static void kstate_free(kstate *k)
{
	if (!k->k)
		return;
	for (int i = 0; i < k->k->nc; i++)
		free(k->feat ? k->feat[i] : NULL);
	for (int f = 0; f < k->nf; f++)
		free(k->fname[f]);
	free(k->fname);
	free(k->feat);
	free(k->nfeat);
	free(k->st);
	free(k->meas);
	free(k->lmodel);
	free(k->w);
	free(k->seen);
}

static int kstate_init(kstate *k, const npu_tune_kernel *K)
{
	double lsum = 0;
	int nm = 0;

	k->k = K;
	k->st = calloc(K->nc + 1, sizeof *k->st);
	k->meas = calloc(K->nc + 1, sizeof *k->meas);
	k->lmodel = calloc(K->nc + 1, sizeof *k->lmodel);
	k->feat = calloc(K->nc + 1, sizeof *k->feat);
	k->nfeat = calloc(K->nc + 1, sizeof *k->nfeat);
	if (!k->st || !k->meas || !k->lmodel || !k->feat || !k->nfeat)
		return -1;
	for (int i = 0; i < K->nc; i++) {
		k->meas[i] = -1;
		if (parse_feats(k, i) < 0)
			return -1;
		if (K->c[i].model > 0) {
			lsum += log(K->c[i].model);
			nm++;
		}
	}
	/* Candidates without an estimate rank as an average one. */
	for (int i = 0; i < K->nc; i++)
		k->lmodel[i] = K->c[i].model > 0 ? log(K->c[i].model) :
			       nm ? lsum / nm : 0;
	k->w = calloc(k->nf + 1, sizeof *k->w);
	k->seen = calloc(k->nf + 1, sizeof *k->seen);
	if (!k->w || !k->seen)
		return -1;
	return 0;
}

static void base_rec(tuner *t, kstate *k, int i, npu_tunerec *r)
{
	const npu_tune_opts *o = t->o;

	memset(r, 0, sizeof *r);
	r->sig = k->k->sig;
	r->target = o->target;
	r->target_hash = o->target_hash;
	r->compiler = o->compiler;
	r->knobs = k->k->c[i].knobs;
	r->model_cycles = k->k->c[i].model > 0 ? k->k->c[i].model : -1;
	r->cycles = r->bytes = -1;
	r->wall_s = -1;
	r->session = t->session;
}

static void note_ok(tuner *t, int ki, int i, double cycles)
{
	kstate *k = &t->ks[ki];
	npu_tune_best *b = &t->best[ki];

	k->meas[i] = cycles;
	if (k->k->c[i].first)
		b->first_cycles = (int64_t)cycles;
	/* ties go to the smaller knob string, the order npu_tunedb_best
	 * uses, so a compile from the database picks the same candidate
	 * whatever order the workers finished in */
	if (b->cycles < 0 || cycles < (double)b->cycles ||
	    (cycles == (double)b->cycles && strcmp(k->k->c[i].knobs, b->knobs) < 0)) {
		char *s = strdup(k->k->c[i].knobs);
		if (s) {
			free(b->knobs);
			b->knobs = s;
			b->cycles = (int64_t)cycles;
			b->model = k->k->c[i].model;
		}
	}
}

/* Takes what the database knows; records the compiler's illegal picks. */
static int prime(tuner *t, int ki, npu_err *e)
{
	kstate *k = &t->ks[ki];
	const npu_tune_kernel *K = k->k;

	for (int i = 0; i < K->nc; i++) {
		int st = 0, found = 0;
		int64_t cyc = -1;

		if (t->db && !t->o->no_reuse) {
			found = npu_tunedb_lookup(t->db, K->sig, t->o->target_hash,
						  t->o->compiler, K->c[i].knobs,
						  &st, &cyc, e);
			if (found < 0)
				return -1;
		}
		if (K->c[i].illegal) {
			k->st[i] = C_DONE;
			if (t->db && !found) {
				npu_tunerec r;
				base_rec(t, k, i, &r);
				r.status = NPU_TUNE_ILLEGAL;
				r.reason = K->c[i].illegal;
				if (npu_tunedb_add(t->db, &r, e) < 0)
					return -1;
			}
			continue;
		}
		if (!found) {
			k->left++;
			continue;
		}
		k->st[i] = C_DONE;
		k->used++;
		t->best[ki].reused++;
		if (st == NPU_TUNE_OK && cyc > 0)
			note_ok(t, ki, i, (double)cyc);
	}
	fit(k);
	return 0;
}

/* ---- workers ------------------------------------------------------------ */

static void child(tuner *t, int fd, const slot *s)
{
	const char *sigs[s->n], *knobs[s->n];
	const char *p = (const char *)s->m;
	size_t left = s->n * sizeof *s->m;
	int rc;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	/* a crashing candidate is a record, not a core file in the cwd */
	setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
	for (int j = 0; j < s->n; j++) {
		const npu_tune_kernel *K = t->ks[s->kern[j]].k;
		memset(&s->m[j], 0, sizeof s->m[j]);
		s->m[j].status = NPU_TUNE_FAILED;
		s->m[j].bytes = -1;
		sigs[j] = K->sig;
		knobs[j] = K->c[s->cand[j]].knobs;
	}
	if (t->o->measure_batch)
		rc = t->o->measure_batch(t->o->ctx, s->n, sigs, knobs, s->m);
	else
		rc = t->o->measure(t->o->ctx, sigs[0], knobs[0], s->m);
	for (int j = 0; j < s->n; j++) {
		if (rc < 0)
			s->m[j].status = NPU_TUNE_FAILED;
		if (s->m[j].status == NPU_TUNE_FAILED && !s->m[j].reason[0])
			snprintf(s->m[j].reason, sizeof s->m[j].reason, "measurement failed");
		s->m[j].reason[sizeof s->m[j].reason - 1] = 0;
	}
	while (left) {
		ssize_t n = write(fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(3);
		p += n;
		left -= (size_t)n;
	}
	_exit(0);
}

static void slot_free(slot *s)
{
	free(s->kern);
	free(s->cand);
	free(s->m);
	s->kern = s->cand = NULL;
	s->m = NULL;
	s->pid = 0;
	s->fd = -1;
}

/* Starts a worker on the n candidates (kern[j], cand[j]). */
static int launch(tuner *t, int n, const int *kern, const int *cand, npu_err *e)
{
	slot *s = NULL;
	int fds[2];
	pid_t pid;

	for (int j = 0; j < t->jobs; j++)
		if (!t->slots[j].pid) {
			s = &t->slots[j];
			break;
		}
	if (!s)
		return npu_errf(e, "tune: no free worker slot");
	memset(s, 0, sizeof *s);
	s->n = n;
	s->kern = malloc(n * sizeof *s->kern);
	s->cand = malloc(n * sizeof *s->cand);
	s->m = calloc(n, sizeof *s->m);
	if (!s->kern || !s->cand || !s->m) {
		slot_free(s);
		return npu_errf(e, "tune: out of memory");
	}
	memcpy(s->kern, kern, n * sizeof *kern);
	memcpy(s->cand, cand, n * sizeof *cand);
	if (pipe2(fds, O_CLOEXEC) < 0) {
		slot_free(s);
		return npu_errf(e, "tune: pipe: %s", strerror(errno));
	}
	fflush(NULL); /* or the child would flush the parent's buffers again */
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		slot_free(s);
		return npu_errf(e, "tune: fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		child(t, fds[1], s);
	}
	setpgid(pid, pid); /* also here: the child may not have run yet */
	close(fds[1]);
	s->pid = pid;
	s->fd = fds[0];
	s->start = now_s();
	for (int j = 0; j < n; j++) {
		kstate *k = &t->ks[kern[j]];
		k->st[cand[j]] = C_RUNNING;
		k->used++;
		k->left--;
		k->picks++;
	}
	t->nrun++;
	return 0;
}

/* Records the outcome m of candidate i of kernel ki, measured since start. */
static int finish_one(tuner *t, int ki, int i, double start, const npu_tune_meas *m,
		      npu_err *e)
{
	kstate *k = &t->ks[ki];
	npu_tune_best *b = &t->best[ki];
	npu_tunerec r;

	base_rec(t, k, i, &r);
	r.status = m->status;
	r.reason = m->reason[0] ? m->reason : NULL;
	r.wall_s = now_s() - start;
	r.trial = ++k->trial;
	k->st[i] = C_DONE;
	b->measured++;
	if (m->status == NPU_TUNE_OK && m->cycles > 0) {
		r.cycles = m->cycles;
		r.bytes = m->bytes;
		note_ok(t, ki, i, (double)m->cycles);
		fit(k);
	} else if (m->status == NPU_TUNE_ILLEGAL) {
		b->illegal++;
	} else {
		r.status = NPU_TUNE_FAILED;
		if (!r.reason)
			r.reason = m->status == NPU_TUNE_OK ? "no cycles reported" :
				   "failed";
		b->failed++;
	}
	if (t->o->progress)
		t->o->progress(t->o->ctx, k->k, k->k->c[i].knobs, k->trial, m, b->cycles);
	return t->db ? npu_tunedb_add(t->db, &r, e) : 0;
}

/* Reaps slot s once its result is in, its pipe closed or its time ran
 * out, records its candidates and frees it. */
static int reap(tuner *t, slot *s, int timed_out, npu_err *e)
{
	npu_tune_meas fail;
	int ws = 0, ret = 0, ok;

	/* The worker's group goes first, with whatever it left running: while
	 * the worker is not yet reaped its pid (the group id) cannot be
	 * reused, so this can only hit processes it started. */
	kill(-s->pid, SIGKILL);
	while (waitpid(s->pid, &ws, 0) < 0 && errno == EINTR)
		;
	/* A full result counts even if our SIGKILL beat the worker's own exit. */
	ok = !timed_out && s->got == s->n * sizeof *s->m &&
	     ((WIFEXITED(ws) && WEXITSTATUS(ws) == 0) ||
	      (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL));
	memset(&fail, 0, sizeof fail);
	fail.status = NPU_TUNE_FAILED;
	if (timed_out)
		snprintf(fail.reason, sizeof fail.reason, "timed out after %g s", t->timeout);
	else if (WIFSIGNALED(ws))
		snprintf(fail.reason, sizeof fail.reason, "worker killed by signal %d (%s)",
			 WTERMSIG(ws), strsignal(WTERMSIG(ws)));
	else
		snprintf(fail.reason, sizeof fail.reason,
			 "worker exited with status %d without a result",
			 WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
	for (int j = 0; j < s->n; j++)
		if (finish_one(t, s->kern[j], s->cand[j], s->start, ok ? &s->m[j] : &fail,
			       e) < 0)
			ret = -1;
	close(s->fd);
	slot_free(s);
	t->nrun--;
	return ret;
}

/* Waits for at least one running worker to finish (or time out). */
static int wait_some(tuner *t, npu_err *e)
{
	struct pollfd pf[t->jobs];
	int idx[t->jobs], n = 0;
	double soonest = -1, now = now_s();

	for (int j = 0; j < t->jobs; j++) {
		slot *s = &t->slots[j];
		double left;
		if (!s->pid)
			continue;
		left = s->start + t->timeout - now;
		if (left <= 0)
			return reap(t, s, 1, e);
		if (soonest < 0 || left < soonest)
			soonest = left;
		pf[n].fd = s->fd;
		pf[n].events = POLLIN;
		pf[n].revents = 0;
		idx[n++] = j;
	}
	if (!n)
		return 0;
	int ms = (int)(soonest * 1000) + 1;
	int rc = poll(pf, n, ms);
	if (rc < 0 && errno != EINTR)
		return npu_errf(e, "tune: poll: %s", strerror(errno));
	for (int i = 0; rc > 0 && i < n; i++) {
		slot *s = &t->slots[idx[i]];
		ssize_t got;
		if (!pf[i].revents)
			continue;
		size_t need = s->n * sizeof *s->m;
		got = read(s->fd, (char *)s->m + s->got, need - s->got);
		if (got > 0)
			s->got += (size_t)got;
		/* A full result ends the worker: no need to wait for EOF, which
		 * a process it left behind (holding the pipe) would delay. */
		if (got > 0 && s->got < need)
			continue;
		if (got < 0 && errno == EINTR)
			continue;
		if (reap(t, s, 0, e) < 0)
			return -1;
	}
	return 0;
}

/* The kernel that should measure next: the least-served one with budget. */
static int pick_kernel(tuner *t)
{
	int best = -1;
	for (int i = 0; i < t->nk; i++) {
		kstate *k = &t->ks[i];
		if (k->left <= 0 || k->used >= t->trials)
			continue;
		if (best < 0 || k->used < t->ks[best].used)
			best = i;
	}
	return best;
}

/* ---- the run ------------------------------------------------------------ */

static void spearman_all(tuner *t)
{
	for (int ki = 0; ki < t->nk; ki++) {
		kstate *k = &t->ks[ki];
		int n = 0, nc = k->k->nc;
		double *x = malloc((nc + 1) * sizeof *x), *y = malloc((nc + 1) * sizeof *y);
		t->best[ki].spearman = NAN;
		if (x && y) {
			for (int i = 0; i < nc; i++)
				if (k->meas[i] > 0 && k->k->c[i].model > 0) {
					x[n] = k->k->c[i].model;
					y[n++] = k->meas[i];
				}
			t->best[ki].spearman = npu_tune_spearman(x, y, n);
		}
		free(x);
		free(y);
	}
}

static void kill_all(tuner *t)
{
	for (int j = 0; j < t->jobs; j++) {
		slot *s = &t->slots[j];
		if (!s->pid)
			continue;
		kill(-s->pid, SIGKILL);
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
		close(s->fd);
		slot_free(s);
	}
}

/* The next job: one candidate of the least-served kernel, or with
 * measure_batch one candidate of every kernel that has budget left.
 * Returns the number of candidates put in kern[], cand[]. */
static int next_job(tuner *t, int *kern, int *cand)
{
	int n = 0, ki;

	while ((ki = pick_kernel(t)) >= 0) {
		int i = pick_cand(t, &t->ks[ki]);
		if (i < 0) {
			t->ks[ki].left = 0;
			continue;
		}
		if (!t->o->measure_batch)
			return kern[0] = ki, cand[0] = i, 1;
		break;
	}
	if (!t->o->measure_batch || ki < 0)
		return 0;
	for (ki = 0; ki < t->nk; ki++) {
		kstate *k = &t->ks[ki];
		int i;
		if (k->left <= 0 || k->used >= t->trials)
			continue;
		if ((i = pick_cand(t, k)) < 0) {
			k->left = 0;
			continue;
		}
		kern[n] = ki;
		cand[n++] = i;
		/* picked: not picked again by the next job while it runs */
		k->st[i] = C_RUNNING;
	}
	return n;
}

static int search(tuner *t, npu_err *e)
{
	for (int ki = 0; ki < t->nk; ki++)
		if (prime(t, ki, e) < 0)
			return -1;
	int *kern = malloc((t->nk + 1) * sizeof *kern);
	int *cand = malloc((t->nk + 1) * sizeof *cand);
	int ret = -1;

	if (!kern || !cand) {
		npu_errf(e, "tune: out of memory");
		goto out;
	}
	for (;;) {
		while (t->nrun < t->jobs) {
			int n = next_job(t, kern, cand);
			if (!n)
				break;
			if (launch(t, n, kern, cand, e) < 0)
				goto out;
		}
		if (!t->nrun)
			break;
		if (wait_some(t, e) < 0)
			goto out;
	}
	ret = 0;
out:
	free(kern);
	free(cand);
	return ret;
}

int npu_tune_run(const npu_tune_opts *o, const npu_tune_kernel *ks, int nk,
		 npu_tune_best *best, npu_err *e)
{
	tuner t = { 0 };
	int ret = -1;

	if (!o->measure && !o->measure_batch)
		return npu_errf(e, "tune: no measurement callback");
	memset(best, 0, nk * sizeof *best);
	for (int i = 0; i < nk; i++) {
		best[i].sig = ks[i].sig;
		best[i].cycles = -1;
		best[i].first_cycles = -1;
		best[i].spearman = NAN;
	}
	t.o = o;
	t.nk = nk;
	t.best = best;
	t.trials = o->trials > 0 ? o->trials : TUNE_DEFAULT_TRIALS;
	t.jobs = o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (t.jobs < 1)
		t.jobs = 1;
	t.timeout = o->timeout_s > 0 ? o->timeout_s : TUNE_DEFAULT_TIMEOUT;
	t.rng = o->seed ? o->seed : 1;
	if (o->session) {
		snprintf(t.session, sizeof t.session, "%s", o->session);
	} else {
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		strftime(t.session, sizeof t.session, "tune-%Y%m%dT%H%M%SZ", &tm);
		snprintf(t.session + strlen(t.session), sizeof t.session - strlen(t.session),
			 "-%u", rng_next(&t.rng) ^ (unsigned)getpid());
	}
	t.ks = calloc(nk + 1, sizeof *t.ks);
	t.slots = calloc(t.jobs, sizeof *t.slots);
	if (!t.ks || !t.slots) {
		npu_errf(e, "tune: out of memory");
		goto out;
	}
	for (int i = 0; i < nk; i++)
		if (kstate_init(&t.ks[i], &ks[i]) < 0) {
			npu_errf(e, "tune: out of memory");
			goto out;
		}
	if (o->db_path && !(t.db = npu_tunedb_open(o->db_path, e)))
		goto out;
	ret = search(&t, e);
	spearman_all(&t);
out:
	if (t.slots)
		kill_all(&t);
	npu_tunedb_close(t.db);
	for (int i = 0; t.ks && i < nk; i++)
		kstate_free(&t.ks[i]);
	free(t.ks);
	free(t.slots);
	if (ret < 0)
		npu_tune_best_free(best, nk);
	return ret;
}

void npu_tune_best_free(npu_tune_best *best, int n)
{
	for (int i = 0; i < n; i++) {
		free(best[i].knobs);
		best[i].knobs = NULL;
	}
}

/* ---- statistics --------------------------------------------------------- */

static int rank_cmp(const void *a, const void *b, void *key)
{
	const double *v = key;
	double x = v[*(const int *)a], y = v[*(const int *)b];
	return (x > y) - (x < y);
}

/* Average ranks (1-based) of v[n] into r[n]. */
static int ranks(const double *v, double *r, int n)
{
	int *ix = malloc(n * sizeof *ix);
	if (!ix)
		return -1;
	for (int i = 0; i < n; i++)
		ix[i] = i;
	qsort_r(ix, n, sizeof *ix, rank_cmp, (void *)v);
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && v[ix[j + 1]] == v[ix[i]])
			j++;
		for (int m = i; m <= j; m++)
			r[ix[m]] = (i + j) / 2.0 + 1;
		i = j + 1;
	}
	free(ix);
	return 0;
}

double npu_tune_spearman(const double *x, const double *y, int n)
{
	double *rx, *ry, mx = (n + 1) / 2.0, sxy = 0, sxx = 0, syy = 0, rho = NAN;

	if (n < 3)
		return NAN;
	rx = malloc(n * sizeof *rx);
	ry = malloc(n * sizeof *ry);
	if (rx && ry && ranks(x, rx, n) == 0 && ranks(y, ry, n) == 0) {
		for (int i = 0; i < n; i++) {
			sxy += (rx[i] - mx) * (ry[i] - mx);
			sxx += (rx[i] - mx) * (rx[i] - mx);
			syy += (ry[i] - mx) * (ry[i] - mx);
		}
		if (sxx > 0 && syy > 0)
			rho = sxy / sqrt(sxx * syy);
	}
	free(rx);
	free(ry);
	return rho;
}

/* ---- the compiler binding ----------------------------------------------- */

static void put_dims(FILE *f, int n, const int64_t *d)
{
	fputc('[', f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%lld", i ? "," : "", (long long)d[i]);
	fputc(']', f);
}

char *npu_tune_kernel_sig(const npu_kir *ir, int k)
{
	const npu_kern *K = &ir->k[k];
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	/* Everything the generated code depends on except names and buffer
	 * addresses: two kernels with the same text get the same code. */
	fprintf(f, "%s ", npu_kkind_name(K->kind));
	put_dims(f, K->ndim, K->shape);
	if (K->kind == NPU_KK_ROW)
		fprintf(f, " rdims=%d", K->rdims);
	if (K->kind == NPU_KK_MM)
		fprintf(f, " mm=%lldx%lldx%lldx%lld %s x%d a%d b%d alo%d blo%d",
			(long long)K->mm_batch, (long long)K->mm_m, (long long)K->mm_n,
			(long long)K->mm_k, npu_dtype_name(K->mm_dtype), K->mm_passes,
			K->mm_a, K->mm_b, K->mm_alo, K->mm_blo);
	if (K->kind == NPU_KK_HOST)
		fprintf(f, " node=%s", ir->g->nodes[K->hnode].target);
	for (int i = 0; i < K->nops; i++) {
		const npu_kopnd *o = &K->ops[i];
		const npu_kval *v = &ir->v[o->val];
		fprintf(f, " %s:%s", o->out ? "out" : "in", npu_dtype_name(v->dtype));
		put_dims(f, v->ndim, v->shape);
		if (v->isconst)
			fprintf(f, "=%a", v->fill);
		fputc('/', f);
		/* mm operands: [batch,row,col] strides; the rest (epilogue)
		 * over the kernel's index space */
		put_dims(f, K->kind == NPU_KK_MM && (i == K->mm_a || i == K->mm_b ||
						     i == K->mm_alo || i == K->mm_blo)
			 ? 3 : K->ndim, o->stride);
	}
	fputs(" |", f);
	for (int i = 0; i < K->nx; i++) {
		const npu_xins *x = &K->x[i];
		fprintf(f, " %d.%d(%d,%d,%d", x->op, x->vop, x->a, x->b, x->c);
		if (x->op == NPU_X_CONST || x->op == NPU_X_BINI)
			fprintf(f, ",%a", (double)x->imm);
		if (x->op == NPU_X_RND)
			fprintf(f, ",%s", npu_dtype_name(x->dtype));
		fputc(')', f);
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

#define SPACE_MAXV 24

static void addv(int64_t *v, int *n, int64_t x)
{
	if (x < 1 || *n >= SPACE_MAXV)
		return;
	for (int i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	v[(*n)++] = x;
}

/* Powers of two times unit, up to max, and max itself. */
static int pow2_vals(int64_t *v, int64_t unit, int64_t max, int64_t dflt)
{
	int n = 0;
	addv(v, &n, dflt);
	for (int64_t x = unit; x > 0 && x < max && n < SPACE_MAXV - 1; x *= 2)
		addv(v, &n, x);
	addv(v, &n, max);
	return n;
}

/* Fills c's model estimate (or illegal) for K with knobs set. */
static int model_one(npu_kir *ir, int k, const npu_knobs *set, npu_tune_cand *c)
{
	npu_kern *K = &ir->k[k];
	npu_knobs save_set = K->set, save_kn = K->kn;
	double save_cost = K->cost;
	uint64_t save_bytes = K->dram_bytes;
	npu_kir one = *ir;
	npu_err e = { "" };

	/* npu_tile on a view of just this kernel: the others keep theirs */
	one.k = K;
	one.nk = 1;
	K->set = *set;
	if (npu_tile(&one, ir->t, &e) < 0) {
		c->model = -1;
		c->illegal = strdup(e.msg[0] ? e.msg : "rejected by the tiler");
	} else {
		c->model = K->cost > 0 ? K->cost : -1;
	}
	K->set = save_set;
	K->kn = save_kn;
	K->cost = save_cost;
	K->dram_bytes = save_bytes;
	return 0;
}

static int add_cand(npu_tune_kernel *out, int *cap, npu_kir *ir, int k,
		    const npu_knobs *set, const char *text, int first)
{
	npu_tune_cand *c;
	char canon[256];

	if (out->nc == *cap) {
		int nc = *cap ? 2 * *cap : 64;
		npu_tune_cand *p = realloc(out->c, nc * sizeof *p);
		if (!p)
			return -1;
		out->c = p;
		*cap = nc;
	}
	if (npu_tune_knobs_canon(text, canon, sizeof canon) < 0)
		return -1;
	for (int i = 0; i < out->nc; i++)
		if (!strcmp(out->c[i].knobs, canon)) {
			out->c[i].first |= first;
			return 0;
		}
	c = &out->c[out->nc];
	memset(c, 0, sizeof *c);
	if (!(c->knobs = strdup(canon)))
		return -1;
	c->first = first;
	out->nc++;
	return model_one(ir, k, set, c);
}

int npu_tune_kernel_space(npu_kir *ir, int k, npu_tune_kernel *out, npu_err *e)
{
	npu_kern *K = &ir->k[k];
	const npu_knobs d = K->kn; /* the model's choice (tiled already) */
	int64_t a[SPACE_MAXV], b[SPACE_MAXV];
	int na, nb, cap = 0, rc = 0;
	char text[256];
	npu_knobs s;

	memset(out, 0, sizeof *out);
	out->count = 1;
	if (!(out->sig = npu_tune_kernel_sig(ir, k)))
		return npu_errf(e, "out of memory");
	switch (K->kind) {
	case NPU_KK_MM: {
		static const int64_t blk[] = { 64, 128, 256, 384, 512, 1024 };
		na = nb = 0;
		addv(a, &na, d.tile_m);
		addv(b, &nb, d.tile_n);
		for (int i = 0; i < 6; i++) {
			if (blk[i] < K->mm_m)
				addv(a, &na, blk[i]);
			if (blk[i] < K->mm_n)
				addv(b, &nb, blk[i]);
		}
		addv(a, &na, K->mm_m);
		addv(b, &nb, K->mm_n);
		for (int i = 0; i < na && !rc; i++)
			for (int j = 0; j < nb && !rc; j++)
				for (int lo = 0; lo < 2 && !rc; lo++) {
					/* the order only matters with blocks both ways */
					if (lo && (a[i] >= K->mm_m || b[j] >= K->mm_n))
						continue;
					memset(&s, 0, sizeof s);
					s.tile_m = a[i];
					s.tile_n = b[j];
					s.loop_order = lo;
					snprintf(text, sizeof text, "loop_order=%d,tile_m=%lld,tile_n=%lld",
						 lo, (long long)a[i], (long long)b[j]);
					rc = add_cand(out, &cap, ir, k, &s, text,
						      a[i] == d.tile_m && b[j] == d.tile_n &&
						      lo == d.loop_order);
				}
		break;
	}
	case NPU_KK_EW:
	case NPU_KK_ROW: {
		int64_t numel = npu_kir_numel(K->ndim, K->shape);
		int64_t last = K->ndim ? K->shape[K->ndim - 1] : 1;
		int64_t rows = last ? numel / last : 1;
		int vlen = ir->t->vlen > 0 ? ir->t->vlen : 1;
		na = pow2_vals(a, 1, rows > 1 ? rows : 1, d.tile_m);
		nb = K->kind == NPU_KK_ROW ? 1 :
		     pow2_vals(b, vlen, last > 1 ? last : 1, d.tile_c);
		if (K->kind == NPU_KK_ROW)
			b[0] = 0;
		for (int i = 0; i < na && !rc; i++)
			for (int j = 0; j < nb && !rc; j++)
				for (int bufs = 1; bufs <= 2 && !rc; bufs++) {
					memset(&s, 0, sizeof s);
					s.tile_m = a[i];
					s.tile_c = b[j];
					s.bufs = bufs;
					if (K->kind == NPU_KK_ROW)
						snprintf(text, sizeof text, "bufs=%d,tile_m=%lld", bufs,
							 (long long)a[i]);
					else
						snprintf(text, sizeof text, "bufs=%d,tile_c=%lld,tile_m=%lld",
							 bufs, (long long)b[j], (long long)a[i]);
					rc = add_cand(out, &cap, ir, k, &s, text,
						      a[i] == d.tile_m && bufs == d.bufs &&
						      (K->kind == NPU_KK_ROW || b[j] == d.tile_c));
				}
		break;
	}
	default:
		break; /* host calls have no knobs */
	}
	if (rc < 0) {
		npu_tune_kernel_free(out);
		return npu_errf(e, "out of memory");
	}
	return 0;
}

void npu_tune_kernel_free(npu_tune_kernel *k)
{
	for (int i = 0; i < k->nc; i++) {
		free(k->c[i].knobs);
		free(k->c[i].illegal);
	}
	free(k->c);
	free(k->sig);
	memset(k, 0, sizeof *k);
}

/* The graph being tuned: its baseline compile and its kernels by signature. */
typedef struct gsig {
	int *kerns, nk;          /* kernel indexes of the baseline IR */
} gsig;

typedef struct gctx {
	const npu_ccopts *cc;    /* the user's options */
	npu_ccresult r;          /* baseline compile */
	npu_tune_kernel *tk;     /* per signature: the space */
	gsig *gs;
	int ns;
} gctx;

/* Options for a compile that writes nothing and prints nothing. */
static npu_ccopts quiet_opts(const npu_ccopts *cc)
{
	npu_ccopts o = *cc;
	o.out = NULL;
	o.report = NULL;
	o.report_text = 0;
	o.dump = 0;
	o.time_passes = 0;
	return o;
}

/* Appends "KERNEL.name=value" for every item of knobs. */
static int add_knobs(npu_ccopts *o, const char *kernel, const char *knobs,
		     npu_err *e)
{
	char item[256];

	for (const char *p = knobs; *p;) {
		size_t len = strcspn(p, ",");
		if (len) {
			if (o->nknobs >= NPU_MAX_KNOBS)
				return npu_errf(e, "more than %d knob settings (NPU_MAX_KNOBS)",
						NPU_MAX_KNOBS);
			snprintf(item, sizeof item, "%s.%.*s", kernel, (int)len, p);
			if (npu_cc_parse_knob(o, item, e) < 0)
				return -1;
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

/* Simulates r's program in timing-only mode: its total cycles and bytes. */
static int simulate(const npu_ccresult *r, int64_t *cycles, int64_t *bytes,
		    npu_err *e)
{
	npu_sim_opts so = { 0 };
	npu_sim *s;

	so.timing_only = 1;
	so.no_timeline = 1;
	if (!(s = npu_sim_new(&r->prog, &r->t, &so, e)))
		return -1;
	if (npu_sim_run(s, e) != 0) {
		npu_sim_free(s);
		return -1;
	}
	*cycles = (int64_t)npu_sim_stats_get(s)->total_cycles;
	*bytes = (int64_t)(npu_sim_stats_get(s)->dram_rd + npu_sim_stats_get(s)->dram_wr);
	npu_sim_free(s);
	return 0;
}

static int find_sig(const gctx *g, const char *sig)
{
	for (int i = 0; i < g->ns; i++)
		if (!strcmp(g->tk[i].sig, sig))
			return i;
	return -1;
}

/* Simulates r's program in timing-only mode and sums, for each j < n, the
 * cycles and DRAM bytes of the kernels of signature si[j] into m[j]. */
static int simulate_sigs(const gctx *g, const npu_ccresult *r, const int *si,
			 int n, npu_tune_meas *m, npu_err *e)
{
	npu_sim_opts so = { 0 };
	const npu_trace_kernel *kx;
	npu_sim *s;
	size_t nkx;
	int *owner = calloc(r->prog.nkernels + 1, sizeof *owner);

	if (!owner)
		return npu_errf(e, "out of memory");
	/* program kernel -> which of the n signatures it belongs to */
	for (uint32_t pk = 0; pk < r->prog.nkernels; pk++) {
		owner[pk] = -1;
		for (int j = 0; j < n && owner[pk] < 0; j++)
			for (int q = 0; q < g->gs[si[j]].nk; q++)
				if (!strcmp(r->prog.kernels[pk].name,
					    g->r.ir.k[g->gs[si[j]].kerns[q]].name)) {
					owner[pk] = j;
					break;
				}
	}
	so.timing_only = 1;
	so.no_timeline = 1;
	if (!(s = npu_sim_new(&r->prog, &r->t, &so, e)) || npu_sim_run(s, e) != 0) {
		npu_sim_free(s);
		free(owner);
		return -1;
	}
	for (int j = 0; j < n; j++)
		m[j].cycles = m[j].bytes = 0;
	nkx = npu_sim_kexecs(s, &kx);
	for (size_t i = 0; i < nkx; i++) {
		int j;
		if (kx[i].kernel < 0 || (uint32_t)kx[i].kernel >= r->prog.nkernels ||
		    (j = owner[kx[i].kernel]) < 0)
			continue;
		m[j].cycles += (int64_t)(kx[i].end - kx[i].start);
		m[j].bytes += (int64_t)(kx[i].dram_rd + kx[i].dram_wr);
	}
	for (int j = 0; j < n; j++)
		m[j].status = NPU_TUNE_OK;
	npu_sim_free(s);
	free(owner);
	return 0;
}

/* Compiles with candidate knobs[j] on every kernel of sigs[j] and
 * simulates; 0 when every m[j] is filled, -1 with e set when the compile
 * or the simulation failed. */
static int measure_together(gctx *g, int n, const char *const *sigs,
			    const char *const *knobs, npu_tune_meas *m, npu_err *e)
{
	npu_ccopts o = quiet_opts(g->cc);
	npu_ccresult r = { 0 };
	int si[n], rc;

	for (int j = 0; j < n; j++) {
		if ((si[j] = find_sig(g, sigs[j])) < 0)
			return npu_errf(e, "unknown kernel signature");
		for (int q = 0; q < g->gs[si[j]].nk; q++)
			if (add_knobs(&o, g->r.ir.k[g->gs[si[j]].kerns[q]].name, knobs[j], e) < 0)
				return -1;
	}
	if (npu_cc_compile(&o, &r, e) < 0) {
		npu_cc_free(&r);
		return -2;
	}
	rc = simulate_sigs(g, &r, si, n, m, e);
	npu_cc_free(&r);
	return rc;
}

/* Runs in a worker: one candidate. */
static int graph_measure(void *ctx, const char *sig, const char *knobs,
			 npu_tune_meas *m)
{
	npu_err e = { "" };
	int rc = measure_together(ctx, 1, &sig, &knobs, m, &e);

	if (rc == -2) /* the compiler refused the setting: a constraint */
		m->status = NPU_TUNE_ILLEGAL;
	else if (rc < 0)
		m->status = NPU_TUNE_FAILED;
	if (rc < 0)
		snprintf(m->reason, sizeof m->reason, "%s", e.msg);
	return 0;
}

/* Runs in a worker: one candidate of each of n signatures in one compile
 * and one simulation; when that fails (one candidate the compiler
 * refuses, one that faults), each is measured alone, so the failure is
 * pinned on the right one. */
static int graph_measure_batch(void *ctx, int n, const char *const *sigs,
			       const char *const *knobs, npu_tune_meas *m)
{
	gctx *g = ctx;

	/* in chunks whose settings fit the compile options */
	for (int j0 = 0, j1; j0 < n; j0 = j1) {
		int used = g->cc->nknobs;
		npu_err e = { "" };
		for (j1 = j0; j1 < n; j1++) {
			int si = find_sig(g, sigs[j1]), items = 1;
			for (const char *p = knobs[j1]; *p; p++)
				items += *p == ',';
			if (si >= 0)
				items *= g->gs[si].nk;
			if (j1 > j0 && used + items > NPU_MAX_KNOBS)
				break;
			used += items;
		}
		if (j1 - j0 > 1 &&
		    measure_together(g, j1 - j0, sigs + j0, knobs + j0, m + j0, &e) == 0)
			continue;
		for (int j = j0; j < j1; j++)
			graph_measure(ctx, sigs[j], knobs[j], &m[j]);
	}
	return 0;
}

static int user_set(const npu_kern *K)
{
	return K->set.tile_m || K->set.tile_n || K->set.tile_k || K->set.tile_c ||
	       K->set.bufs || K->set.loop_order;
}

static void gctx_free(gctx *g)
{
	for (int i = 0; i < g->ns; i++) {
		npu_tune_kernel_free(&g->tk[i]);
		free(g->gs[i].kerns);
	}
	free(g->tk);
	free(g->gs);
	npu_cc_free(&g->r);
}

/* Compiles the baseline and groups its tunable kernels by signature. */
static int gctx_init(gctx *g, const npu_ccopts *cc, npu_err *e)
{
	npu_ccopts o = quiet_opts(cc);
	npu_kir *ir = &g->r.ir;

	memset(g, 0, sizeof *g);
	g->cc = cc;
	if (npu_cc_compile(&o, &g->r, e) < 0)
		return -1;
	g->tk = calloc(ir->nk + 1, sizeof *g->tk);
	g->gs = calloc(ir->nk + 1, sizeof *g->gs);
	if (!g->tk || !g->gs)
		return npu_errf(e, "out of memory");
	for (int k = 0; k < ir->nk; k++) {
		npu_kern *K = &ir->k[k];
		char *sig;
		int si = -1;
		if (K->kind == NPU_KK_HOST || K->kind == NPU_KK_INT || user_set(K))
			continue;
		if (!(sig = npu_tune_kernel_sig(ir, k)))
			return npu_errf(e, "out of memory");
		for (int i = 0; i < g->ns; i++)
			if (!strcmp(g->tk[i].sig, sig))
				si = i;
		if (si < 0) {
			si = g->ns;
			if (npu_tune_kernel_space(ir, k, &g->tk[si], e) < 0) {
				free(sig);
				return -1;
			}
			g->ns++;
			if (!g->tk[si].nc) { /* nothing to tune */
				npu_tune_kernel_free(&g->tk[si]);
				g->ns--;
				free(sig);
				continue;
			}
			g->tk[si].count = 0;
		}
		free(sig);
		int *p = realloc(g->gs[si].kerns, (g->gs[si].nk + 1) * sizeof *p);
		if (!p)
			return npu_errf(e, "out of memory");
		g->gs[si].kerns = p;
		p[g->gs[si].nk++] = k;
		g->tk[si].count++;
	}
	return 0;
}

static void default_knobs(const npu_kern *K, char *buf, size_t n)
{
	if (K->kind == NPU_KK_MM)
		snprintf(buf, n, "loop_order=%d,tile_m=%lld,tile_n=%lld", K->kn.loop_order,
			 (long long)K->kn.tile_m, (long long)K->kn.tile_n);
	else if (K->kind == NPU_KK_ROW)
		snprintf(buf, n, "bufs=%d,tile_m=%lld", K->kn.bufs, (long long)K->kn.tile_m);
	else
		snprintf(buf, n, "bufs=%d,tile_c=%lld,tile_m=%lld", K->kn.bufs,
			 (long long)K->kn.tile_c, (long long)K->kn.tile_m);
}

static int gain_cmp(const void *a, const void *b, void *ctx)
{
	const npu_tune_summary *s = ctx;
	const npu_tune_sigsum *x = &s->s[*(const int *)a], *y = &s->s[*(const int *)b];
	int64_t gx = x->default_cycles - x->best.cycles, gy = y->default_cycles - y->best.cycles;
	return (gx < gy) - (gx > gy);
}

/* Appends the best knobs of every signature whose best beats the model's
 * choice to cc, the biggest gains first, as many as the options hold. */
static int append_best(npu_ccopts *cc, const gctx *g, npu_tune_summary *s, npu_err *e)
{
	int *ord = malloc((s->n + 1) * sizeof *ord), n = 0;

	if (!ord)
		return npu_errf(e, "out of memory");
	for (int i = 0; i < s->n; i++) {
		const npu_tune_sigsum *x = &s->s[i];
		if (x->best.knobs && strcmp(x->best.knobs, x->default_knobs) &&
		    (x->default_cycles < 0 || x->best.cycles < x->default_cycles))
			ord[n++] = i;
	}
	qsort_r(ord, n, sizeof *ord, gain_cmp, s);
	for (int k = 0; k < n; k++) {
		const npu_tune_sigsum *x = &s->s[ord[k]];
		int items = 1, need;
		for (const char *p = x->best.knobs; *p; p++)
			items += *p == ',';
		need = items * g->gs[ord[k]].nk;
		if (cc->nknobs + need > NPU_MAX_KNOBS) {
			s->knobs_dropped += g->gs[ord[k]].nk;
			continue;
		}
		for (int j = 0; j < g->gs[ord[k]].nk; j++)
			if (add_knobs(cc, g->r.ir.k[g->gs[ord[k]].kerns[j]].name, x->best.knobs,
				      e) < 0) {
				free(ord);
				return -1;
			}
		s->knobs_added += g->gs[ord[k]].nk;
	}
	free(ord);
	return 0;
}

int npu_tune_graph(npu_ccopts *cc, const npu_tune_opts *o, npu_tune_summary *sum,
		   npu_err *e)
{
	gctx g;
	npu_tune_opts to = *o;
	npu_tune_best *best = NULL;
	npu_tune_summary s = { 0 };
	char hash[17];
	int ret = -1;

	npu_hostops_register_all();
	if (gctx_init(&g, cc, e) < 0)
		goto out;
	npu_tune_hex64(g.r.t.hash, hash);
	to.measure = graph_measure;
	/* all kernels are in one program: one simulation measures a
	 * candidate of each (kernels run one after another, so each one's
	 * cycles are its own) */
	to.measure_batch = o->no_batch ? NULL : graph_measure_batch;
	to.ctx = &g;
	if (!to.target)
		to.target = g.r.t.name;
	if (!to.target_hash)
		to.target_hash = hash;
	if (!to.compiler)
		to.compiler = PACKAGE_VERSION;
	if (!(best = calloc(g.ns + 1, sizeof *best)) ||
	    !(s.s = calloc(g.ns + 1, sizeof *s.s))) {
		npu_errf(e, "out of memory");
		goto out;
	}
	if (npu_tune_run(&to, g.tk, g.ns, best, e) < 0)
		goto out;
	s.n = g.ns;
	s.default_total = s.tuned_total = -1;
	for (int i = 0; i < g.ns; i++) {
		const npu_kern *K = &g.r.ir.k[g.gs[i].kerns[0]];
		char dk[256];
		npu_tune_sigsum *ss = &s.s[i];
		default_knobs(K, dk, sizeof dk);
		ss->sig = strdup(g.tk[i].sig);
		ss->kernel = strdup(K->name);
		ss->default_knobs = strdup(dk);
		ss->count = g.tk[i].count;
		ss->space = g.tk[i].nc;
		for (int j = 0; j < g.tk[i].nc; j++)
			ss->illegal += g.tk[i].c[j].illegal != NULL;
		ss->default_cycles = best[i].first_cycles;
		ss->best = best[i];
		ss->best.sig = ss->sig;
		best[i].knobs = NULL;
		if (!ss->sig || !ss->kernel || !ss->default_knobs) {
			npu_errf(e, "out of memory");
			goto out;
		}
	}
	if (append_best(cc, &g, &s, e) < 0)
		goto out;
	/* whole-program cycles before and after, for the report */
	if (sum) {
		npu_ccopts q = quiet_opts(cc);
		npu_ccresult r = { 0 };
		int64_t bytes;
		npu_err e2 = { "" };
		if (simulate(&g.r, &s.default_total, &bytes, &e2) < 0)
			s.default_total = -1;
		if (npu_cc_compile(&q, &r, &e2) < 0 ||
		    simulate(&r, &s.tuned_total, &bytes, &e2) < 0)
			s.tuned_total = -1;
		npu_cc_free(&r);
	}
	ret = 0;
out:
	if (ret == 0 && sum)
		*sum = s;
	else
		npu_tune_summary_free(&s);
	if (best)
		npu_tune_best_free(best, g.ns);
	free(best);
	gctx_free(&g);
	return ret;
}

int npu_tune_apply_db(npu_ccopts *cc, const char *db_path, npu_err *e)
{
	gctx g;
	npu_tunedb *db = NULL;
	char hash[17];
	int ret = -1, n = 0;

	/* no database yet: nothing tuned, and nothing to create */
	if (access(db_path, F_OK) != 0)
		return 0;
	if (gctx_init(&g, cc, e) < 0)
		goto out;
	if (!(db = npu_tunedb_open(db_path, e)))
		goto out;
	npu_tune_hex64(g.r.t.hash, hash);
	for (int i = 0; i < g.ns; i++) {
		char *knobs = NULL;
		int64_t cycles;
		int f = npu_tunedb_best(db, g.tk[i].sig, hash, PACKAGE_VERSION, &knobs,
					&cycles, e);
		if (f < 0)
			goto out;
		if (!f)
			continue;
		int items = 1, dst = 0, dfound, keep;
		int64_t dcycles = -1;
		char dk[256];
		for (const char *p = knobs; *p; p++)
			items += *p == ',';
		default_knobs(&g.r.ir.k[g.gs[i].kerns[0]], dk, sizeof dk);
		/* as append_best: the model's choice stays unless the best beats
		 * its own measurement */
		dfound = npu_tunedb_lookup(db, g.tk[i].sig, hash, PACKAGE_VERSION, dk,
					   &dst, &dcycles, e);
		if (dfound < 0) {
			free(knobs);
			goto out;
		}
		keep = dfound && dst == NPU_TUNE_OK && dcycles > 0 && dcycles <= cycles;
		/* the model's own choice needs no setting; the options hold
		 * NPU_MAX_KNOBS settings, what does not fit keeps the model's */
		if (!keep && strcmp(knobs, dk) && cc->nknobs + items * g.gs[i].nk <= NPU_MAX_KNOBS)
			for (int j = 0; j < g.gs[i].nk; j++)
				if (add_knobs(cc, g.r.ir.k[g.gs[i].kerns[j]].name, knobs, e) < 0) {
					free(knobs);
					goto out;
				}
		free(knobs);
		n++;
	}
	ret = n;
out:
	npu_tunedb_close(db);
	gctx_free(&g);
	return ret;
}

void npu_tune_summary_free(npu_tune_summary *s)
{
	for (int i = 0; s->s && i < s->n; i++) {
		free(s->s[i].sig);
		free(s->s[i].kernel);
		free(s->s[i].default_knobs);
		free(s->s[i].best.knobs);
	}
	free(s->s);
	memset(s, 0, sizeof *s);
}
