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

#include "compiler/tune.h"

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

typedef struct slot {
	pid_t pid;
	int fd;
	int kern, cand;
	double start;
	npu_tune_meas m;
	size_t got;
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
	if (b->cycles < 0 || cycles < (double)b->cycles) {
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

static void child(tuner *t, int fd, int ki, int i)
{
	const npu_tune_kernel *K = t->ks[ki].k;
	npu_tune_meas m;
	const char *p;
	size_t left = sizeof m;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	/* a crashing candidate is a record, not a core file in the cwd */
	setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
	memset(&m, 0, sizeof m);
	m.status = NPU_TUNE_FAILED;
	m.bytes = -1;
	if (t->o->measure(t->o->ctx, K->sig, K->c[i].knobs, &m) < 0) {
		m.status = NPU_TUNE_FAILED;
		if (!m.reason[0])
			snprintf(m.reason, sizeof m.reason, "measurement failed");
	}
	m.reason[sizeof m.reason - 1] = 0;
	for (p = (const char *)&m; left;) {
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

static int launch(tuner *t, int ki, int i, npu_err *e)
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
	if (pipe2(fds, O_CLOEXEC) < 0)
		return npu_errf(e, "tune: pipe: %s", strerror(errno));
	fflush(NULL); /* or the child would flush the parent's buffers again */
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return npu_errf(e, "tune: fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		child(t, fds[1], ki, i);
	}
	setpgid(pid, pid); /* also here: the child may not have run yet */
	close(fds[1]);
	memset(s, 0, sizeof *s);
	s->pid = pid;
	s->fd = fds[0];
	s->kern = ki;
	s->cand = i;
	s->start = now_s();
	t->ks[ki].st[i] = C_RUNNING;
	t->ks[ki].used++;
	t->ks[ki].left--;
	t->ks[ki].picks++;
	t->nrun++;
	return 0;
}

/* Records slot s's outcome m and frees the slot. */
static int finish(tuner *t, slot *s, npu_tune_meas *m, npu_err *e)
{
	kstate *k = &t->ks[s->kern];
	npu_tune_best *b = &t->best[s->kern];
	npu_tunerec r;
	int ret = 0;

	base_rec(t, k, s->cand, &r);
	r.status = m->status;
	r.reason = m->reason[0] ? m->reason : NULL;
	r.wall_s = now_s() - s->start;
	r.trial = ++k->trial;
	k->st[s->cand] = C_DONE;
	b->measured++;
	if (m->status == NPU_TUNE_OK && m->cycles > 0) {
		r.cycles = m->cycles;
		r.bytes = m->bytes;
		note_ok(t, s->kern, s->cand, (double)m->cycles);
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
	if (t->db)
		ret = npu_tunedb_add(t->db, &r, e);
	if (t->o->progress)
		t->o->progress(t->o->ctx, k->k, k->k->c[s->cand].knobs, k->trial, m,
			       b->cycles);
	close(s->fd);
	s->pid = 0;
	s->fd = -1;
	t->nrun--;
	return ret;
}

/* Reaps slot s after its pipe closed (or on a timeout, after killing it). */
static int reap(tuner *t, slot *s, int timed_out, npu_err *e)
{
	npu_tune_meas m;
	int ws = 0;

	if (timed_out)
		kill(-s->pid, SIGKILL);
	while (waitpid(s->pid, &ws, 0) < 0 && errno == EINTR)
		;
	if (!timed_out && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 &&
	    s->got == sizeof s->m) {
		m = s->m;
	} else {
		memset(&m, 0, sizeof m);
		m.status = NPU_TUNE_FAILED;
		if (timed_out)
			snprintf(m.reason, sizeof m.reason, "timed out after %g s",
				 t->timeout);
		else if (WIFSIGNALED(ws))
			snprintf(m.reason, sizeof m.reason, "worker killed by signal %d (%s)",
				 WTERMSIG(ws), strsignal(WTERMSIG(ws)));
		else
			snprintf(m.reason, sizeof m.reason,
				 "worker exited with status %d without a result",
				 WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
	}
	/* Whatever the worker left running in its group goes too. */
	kill(-s->pid, SIGKILL);
	return finish(t, s, &m, e);
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
		if (s->got < sizeof s->m) {
			got = read(s->fd, (char *)&s->m + s->got, sizeof s->m - s->got);
			if (got > 0)
				s->got += (size_t)got;
		} else {
			char junk[64]; /* a worker that writes more: ignored */
			got = read(s->fd, junk, sizeof junk);
		}
		if (got > 0)
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
		s->pid = 0;
	}
}

static int search(tuner *t, npu_err *e)
{
	for (int ki = 0; ki < t->nk; ki++)
		if (prime(t, ki, e) < 0)
			return -1;
	for (;;) {
		int ki;
		while (t->nrun < t->jobs && (ki = pick_kernel(t)) >= 0) {
			int i = pick_cand(t, &t->ks[ki]);
			if (i < 0) {
				t->ks[ki].left = 0;
				continue;
			}
			if (launch(t, ki, i, e) < 0)
				return -1;
		}
		if (!t->nrun)
			return 0;
		if (wait_some(t, e) < 0)
			return -1;
	}
}

int npu_tune_run(const npu_tune_opts *o, const npu_tune_kernel *ks, int nk,
		 npu_tune_best *best, npu_err *e)
{
	tuner t = { 0 };
	int ret = -1;

	if (!o->measure)
		return npu_errf(e, "tune: no measurement callback");
	memset(best, 0, nk * sizeof *best);
	for (int i = 0; i < nk; i++) {
		best[i].sig = ks[i].sig;
		best[i].cycles = -1;
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
