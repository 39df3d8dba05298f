/*
 * asm.c - the assembler and the program disassembler.
 *
 * The assembler reads its source in two passes over the same lines.  Pass 1
 * handles labels and every directive (buffers get their DRAM addresses in
 * declaration order, .equ values are evaluated where they stand, kernels
 * record their code ranges) and only counts instructions, remembering where
 * each one's operands start.  Pass 2 encodes the remembered instructions,
 * when every label, buffer and name is known, so a branch may name a label
 * defined further down.
 *
 * Operands are parsed by kind, from the format table in npu.def: nothing
 * here knows a mnemonic, so a new instruction needs no change to this file.
 *
 * Names (labels, buffers, .equ, FX nodes, kernels) live in hash tables, and
 * each line is read once per pass, so the time is linear in the input.
 * Every error names FILE:LINE:COL.
 */
#include "isa/asm.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/dtype.h"
#include "isa/isa.h"

#define ALIGN 64u            /* DRAM buffers and constant data start here */
#define ADDR_LIMIT (1ull << 62) /* keeps &BUF + size inside int64 */
#define MAX_DEPTH 64         /* expression nesting */

/* ------------------------------------------------------------------ */
/* Hash table of names, each mapped to an integer and where it was set. */

typedef struct sym {
	char *name;      /* owned; NULL for an empty slot */
	int64_t val;
	int line;
} sym;

typedef struct symtab {
	sym *slot;
	size_t cap, n;   /* cap is a power of two, at most half full */
} symtab;

static uint64_t hash_str(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
	return h;
}

/* Slot of name, or the empty slot where it would go. */
static sym *sym_slot(symtab *t, const char *s, size_t len)
{
	size_t i = hash_str(s, len) & (t->cap - 1);

	while (t->slot[i].name &&
	       (strlen(t->slot[i].name) != len || memcmp(t->slot[i].name, s, len)))
		i = (i + 1) & (t->cap - 1);
	return &t->slot[i];
}

static sym *sym_find(symtab *t, const char *s, size_t len)
{
	sym *y;

	if (!t->cap)
		return NULL;
	y = sym_slot(t, s, len);
	return y->name ? y : NULL;
}

static int sym_grow(symtab *t)
{
	symtab nt = { NULL, t->cap ? t->cap * 2 : 64, t->n };

	if (!(nt.slot = calloc(nt.cap, sizeof *nt.slot)))
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slot[i].name)
			*sym_slot(&nt, t->slot[i].name,
				  strlen(t->slot[i].name)) = t->slot[i];
	free(t->slot);
	*t = nt;
	return 0;
}

/* Adds a name that sym_find() did not find; NULL when out of memory. */
static sym *sym_add(symtab *t, const char *s, size_t len, int64_t val,
		    int line)
{
	sym *y;

	if (2 * (t->n + 1) > t->cap && sym_grow(t) < 0)
		return NULL;
	y = sym_slot(t, s, len);
	if (!(y->name = malloc(len + 1)))
		return NULL;
	memcpy(y->name, s, len);
	y->name[len] = '\0';
	y->val = val;
	y->line = line;
	t->n++;
	return y;
}

static void sym_free(symtab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slot[i].name);
	free(t->slot);
	memset(t, 0, sizeof *t);
}

/* Grows an array to hold at least n elements (doubling); 0 or -1. */
static int grow(void *pptr, size_t *cap, size_t n, size_t elem)
{
	void **pp = pptr;
	size_t nc = *cap ? *cap : 16;
	void *np;

	if (n <= *cap)
		return 0;
	while (nc < n)
		nc *= 2;
	if (!(np = realloc(*pp, nc * elem)))
		return -1;
	*pp = np;
	*cap = nc;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Lexer: one line at a time. */

enum { T_END, T_IDENT, T_NUM, T_STR, T_PUNCT, T_BAD };

typedef struct tok {
	int kind;
	const char *s;   /* first byte in the source */
	size_t len;
} tok;

/* One pending instruction: where its mnemonic starts. */
typedef struct pend {
	const char *s, *lbeg, *lend;
	int line;
} pend;

typedef struct as {
	const char *file;
	npu_err *e;
	npu_prog p;
	size_t cap_bufs, cap_cdata, cap_nodes, cap_kernels, cap_knodes;
	struct bufpos { int line; size_t col; } *bufpos; /* per buffer */
	size_t cap_bufpos;

	const char *lbeg, *lend, *cur; /* the current line and position */
	int line;

	symtab labels, bufs, equs, nodes, kernels;
	pend *pend;
	size_t npend, cap_pend;
	uint64_t end;          /* end of the highest buffer so far */
	int64_t dram;          /* .dram value, -1 if none */
	int dram_line;
	size_t dram_col;
	int in_kernel;
	int kernel_line;
	size_t kernel_col;
	int oom;
} as;

static int is_ident0(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == '.' || c == '$';
}

static int is_ident(int c)
{
	return is_ident0(c) || (c >= '0' && c <= '9');
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static size_t col_of(const as *a, const char *s)
{
	return (size_t)(s - a->lbeg) + 1;
}

/* Reports an error at s (a position in the current line); returns -1. */
static int __attribute__((format(printf, 3, 4)))
as_err(as *a, const char *s, const char *fmt, ...)
{
	char msg[NPU_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return npu_errf(a->e, "%s:%d:%zu: %s", a->file, a->line,
			col_of(a, s), msg);
}

static int oom(as *a)
{
	a->oom = 1;
	return npu_errf(a->e, "%s: out of memory", a->file);
}

/* Quotes a token for a message: at most 40 bytes, unprintables escaped. */
static const char *show(const tok *t, char *buf, size_t n)
{
	size_t o = 0;

	if (t->kind == T_END)
		return "end of line";
	for (size_t i = 0; i < t->len && i < 40 && o + 5 < n; i++) {
		unsigned char c = (unsigned char)t->s[i];
		if (c >= 0x20 && c < 0x7f)
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, n - o, "\\x%02x", c);
	}
	if (t->len > 40 && o + 4 < n) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

/* Reads the next token of the line without consuming it. */
static tok peek(const as *a)
{
	const char *s = a->cur, *e = a->lend;
	tok t = { T_END, s, 0 };
	int hex;

	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' ||
			 *s == '\v'))
		s++;
	t.s = s;
	if (s == e || *s == '#' || *s == ';')
		return t;
	if (is_ident0((unsigned char)*s) && !(*s == '.' && s + 1 < e &&
					      is_digit(s[1]))) {
		t.kind = T_IDENT;
		while (s < e && is_ident((unsigned char)*s))
			s++;
	} else if (is_digit(*s) || *s == '.') {
		/* Numbers take letters and dots too, so "1.5e-3", "0x1f" and a
		 * mistyped "12ab" are one token, checked by who reads it. */
		t.kind = T_NUM;
		hex = s + 1 < e && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
		while (s < e && (is_ident((unsigned char)*s) ||
				 (!hex && (*s == '+' || *s == '-') &&
				  (s[-1] == 'e' || s[-1] == 'E'))))
			s++;
	} else if (*s == '"') {
		t.kind = T_STR;
		for (s++; s < e && *s != '"'; s++)
			if (*s == '\\' && s + 1 < e)
				s++;
		if (s == e)
			t.kind = T_BAD;
		else
			s++;
	} else if (strchr(",[]()&=@:+-*", *s) && *s) {
		t.kind = T_PUNCT;
		s++;
	} else {
		t.kind = T_BAD;
		s++;
	}
	t.len = (size_t)(s - t.s);
	return t;
}

static int is_punct(const tok *t, char c);

/* Is the next token the punctuation c? */
static int peek_is(const as *a, char c)
{
	tok t = peek(a);

	return is_punct(&t, c);
}

static tok next(as *a)
{
	tok t = peek(a);

	a->cur = t.s + t.len;
	return t;
}

static int is_punct(const tok *t, char c)
{
	return t->kind == T_PUNCT && t->s[0] == c;
}

static int tok_is(const tok *t, const char *w)
{
	return t->kind == T_IDENT && strlen(w) == t->len &&
	       !memcmp(t->s, w, t->len);
}

static int unexpected(as *a, const tok *t, const char *want)
{
	char b[200];

	if (t->kind == T_BAD && t->s[0] == '"')
		return as_err(a, t->s, "unterminated string");
	if (t->kind == T_END)
		return as_err(a, t->s, "expected %s, got end of line", want);
	return as_err(a, t->s, "expected %s, got '%s'", want, show(t, b, sizeof b));
}

static int expect_punct(as *a, char c)
{
	tok t = next(a);
	char want[8];

	if (is_punct(&t, c))
		return 0;
	snprintf(want, sizeof want, "'%c'", c);
	return unexpected(a, &t, want);
}

static int expect_end(as *a)
{
	tok t = peek(a);
	char b[200];

	if (t.kind == T_END)
		return 0;
	return as_err(a, t.s, "unexpected '%s' at end of line",
		      show(&t, b, sizeof b));
}

/*
 * A name: a bare identifier or a quoted string with C escapes (\" \\ \n
 * \t \xNN), so that any name a program holds can be written back.
 * Returns a malloc'ed string, or NULL after reporting.
 */
static char *name_tok(as *a, const char *what, int dash)
{
	tok t = next(a);
	char *s, *o;

	if (t.kind == T_IDENT) {
		/* Names like npu-base: in directives '-' joins parts of a
		 * name; in an expression, &a-1 is a subtraction. */
		while (dash && a->cur + 1 < a->lend && a->cur[0] == '-' &&
		       is_ident((unsigned char)a->cur[1])) {
			tok more;
			a->cur++;
			more = next(a);
			t.len = (size_t)(more.s + more.len - t.s);
		}
		if (!(s = strndup(t.s, t.len)))
			oom(a);
		return s;
	}
	if (t.kind != T_STR) {
		unexpected(a, &t, what);
		return NULL;
	}
	if (!(s = o = malloc(t.len))) {
		oom(a);
		return NULL;
	}
	for (size_t i = 1; i + 1 < t.len; i++) {
		char c = t.s[i];
		if (c != '\\') {
			*o++ = c;
			continue;
		}
		c = t.s[++i];
		if (c == 'n')
			*o++ = '\n';
		else if (c == 't')
			*o++ = '\t';
		else if (c == '"' || c == '\\')
			*o++ = c;
		else if (c == 'x' && i + 3 < t.len && strchr("0123456789abcdefABCDEF", t.s[i + 1]) &&
			 strchr("0123456789abcdefABCDEF", t.s[i + 2]) && t.s[i + 1] && t.s[i + 2]) {
			char hx[3] = { t.s[i + 1], t.s[i + 2], 0 };
			*o++ = (char)strtol(hx, NULL, 16);
			i += 2;
		} else {
			free(s);
			as_err(a, t.s + i - 1, "unknown escape in string");
			return NULL;
		}
	}
	*o = '\0';
	if (strlen(s) != (size_t)(o - s)) {
		free(s);
		as_err(a, t.s, "string holds a NUL byte");
		return NULL;
	}
	return s;
}

/* A name in a directive. */
static char *read_name(as *a, const char *what)
{
	return name_tok(a, what, 1);
}

/* ------------------------------------------------------------------ */
/* Numbers and integer expressions. */

/* Parses an unsigned integer token (decimal or 0x hex); 0 or -1. */
static int parse_uint(as *a, const tok *t, uint64_t *out)
{
	const char *s = t->s, *e = t->s + t->len;
	int base = 10;
	uint64_t v = 0;
	char b[200];

	if (t->len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (s == e)
		goto bad;
	for (; s < e; s++) {
		int d;
		if (is_digit(*s))
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			goto bad;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return as_err(a, t->s, "value %s does not fit in 64 bits",
				      show(t, b, sizeof b));
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*out = v;
	return 0;
bad:
	return as_err(a, t->s, "invalid integer '%s'", show(t, b, sizeof b));
}

static int find_buf(as *a, const tok *at, const char *name)
{
	sym *y = sym_find(&a->bufs, name, strlen(name));

	if (!y)
		return as_err(a, at->s, "buffer '%s' is not defined", name);
	return (int)y->val;
}

/* A buffer operand of & or sizeof: its index, or -1. */
static int buf_operand(as *a)
{
	tok at = peek(a);
	char *name = name_tok(a, "a buffer name", 0);
	int i;

	if (!name)
		return -1;
	i = find_buf(a, &at, name);
	free(name);
	return i;
}

static int expr(as *a, int64_t *v, int depth);

static int overflow(as *a, const char *s)
{
	return as_err(a, s, "integer overflow in expression");
}

/* unary := '-' unary | '(' expr ')' | NUM | '&' BUF | sizeof(BUF) | NAME */
static int unary(as *a, int64_t *v, int depth)
{
	tok t = next(a);
	uint64_t u;
	sym *y;
	int i;
	char b[200];

	if (depth > MAX_DEPTH)
		return as_err(a, t.s, "expression nested too deeply");
	if (is_punct(&t, '-')) {
		if (unary(a, v, depth + 1) < 0)
			return -1;
		if (*v == INT64_MIN)
			return overflow(a, t.s);
		*v = -*v;
		return 0;
	}
	if (is_punct(&t, '(')) {
		if (expr(a, v, depth + 1) < 0)
			return -1;
		return expect_punct(a, ')');
	}
	if (t.kind == T_NUM) {
		if (parse_uint(a, &t, &u) < 0)
			return -1;
		/* -9223372036854775808 has no positive half; leave it out. */
		if (u > INT64_MAX)
			return as_err(a, t.s, "value %s does not fit in 64 bits",
				      show(&t, b, sizeof b));
		*v = (int64_t)u;
		return 0;
	}
	if (is_punct(&t, '&')) {
		if ((i = buf_operand(a)) < 0)
			return -1;
		*v = (int64_t)a->p.bufs[i].addr;
		return 0;
	}
	if (tok_is(&t, "sizeof") && peek_is(a, '(')) {
		next(a);
		if ((i = buf_operand(a)) < 0 || expect_punct(a, ')') < 0)
			return -1;
		*v = (int64_t)a->p.bufs[i].size;
		return 0;
	}
	if (t.kind == T_IDENT) {
		if (!(y = sym_find(&a->equs, t.s, t.len)))
			return as_err(a, t.s, "'%s' is not defined (.equ)",
				      show(&t, b, sizeof b));
		*v = y->val;
		return 0;
	}
	return unexpected(a, &t, "an integer");
}

/* term := unary ('*' unary)* */
static int term(as *a, int64_t *v, int depth)
{
	int64_t r;
	tok t;

	if (unary(a, v, depth) < 0)
		return -1;
	while (t = peek(a), is_punct(&t, '*')) {
		next(a);
		if (unary(a, &r, depth) < 0)
			return -1;
		if (__builtin_mul_overflow(*v, r, v))
			return overflow(a, t.s);
	}
	return 0;
}

/* expr := term (('+' | '-') term)* */
static int expr(as *a, int64_t *v, int depth)
{
	int64_t r;
	tok t;

	if (term(a, v, depth) < 0)
		return -1;
	while (t = peek(a), is_punct(&t, '+') || is_punct(&t, '-')) {
		next(a);
		if (term(a, &r, depth) < 0)
			return -1;
		if (t.s[0] == '+' ? __builtin_add_overflow(*v, r, v)
				  : __builtin_sub_overflow(*v, r, v))
			return overflow(a, t.s);
	}
	return 0;
}

/* An integer expression in [lo, hi]. */
static int int_in(as *a, int64_t lo, int64_t hi, int64_t *v)
{
	const char *s = peek(a).s;

	if (expr(a, v, 0) < 0)
		return -1;
	if (*v < lo || *v > hi) {
		if (lo == INT32_MIN && hi == INT32_MAX)
			return as_err(a, s, "value %lld does not fit in 32 bits",
				      (long long)*v);
		return as_err(a, s, "value %lld is out of range [%lld, %lld]",
			      (long long)*v, (long long)lo, (long long)hi);
	}
	return 0;
}

/*
 * A float: [-] (decimal | inf | nan | 0xHEX raw bits).  For fp32 (bits
 * 32) *f gets the value and *raw the bits; for other widths the decimal
 * is read as a double into *d.  raw_ok tells whether hex was given.
 */
static int float_tok(as *a, int width, double *d, float *f, uint64_t *raw,
		     int *is_raw)
{
	tok t = next(a);
	int neg = 0;
	char buf[128], *endp, b[200];

	*is_raw = 0;
	if (is_punct(&t, '-') || is_punct(&t, '+')) {
		neg = t.s[0] == '-';
		t = next(a);
	}
	if (tok_is(&t, "inf") || tok_is(&t, "nan")) {
		*d = t.s[0] == 'i' ? INFINITY : NAN;
		*f = t.s[0] == 'i' ? INFINITY : NAN;
	} else if (t.kind == T_NUM && t.len > 2 && t.s[0] == '0' &&
		   (t.s[1] == 'x' || t.s[1] == 'X')) {
		if (neg)
			return as_err(a, t.s, "raw bits cannot be negated");
		if (parse_uint(a, &t, raw) < 0)
			return -1;
		if (width < 64 && *raw >> width)
			return as_err(a, t.s, "value %s does not fit in %d bits",
				      show(&t, b, sizeof b), width);
		*is_raw = 1;
		return 0;
	} else if (t.kind == T_NUM && t.len < sizeof buf) {
		memcpy(buf, t.s, t.len);
		buf[t.len] = '\0';
		errno = 0;
		if (width == 64)
			*d = strtod(buf, &endp);
		else
			*f = strtof(buf, &endp);
		if (*endp || endp == buf)
			return as_err(a, t.s, "invalid number '%s'",
				      show(&t, b, sizeof b));
	} else {
		return unexpected(a, &t, "a float");
	}
	if (neg) {
		*d = -*d;
		*f = -*f;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Instruction operands, by kind. */

/* A register-like name: prefix then a decimal index below n. */
static int reg_index(const tok *t, const char *prefix, int n)
{
	size_t pl = strlen(prefix);
	int v = 0;

	if (t->kind != T_IDENT || t->len <= pl || t->len > pl + 3 ||
	    memcmp(t->s, prefix, pl))
		return -1;
	for (size_t i = pl; i < t->len; i++) {
		if (!is_digit(t->s[i]))
			return -1;
		v = v * 10 + (t->s[i] - '0');
	}
	if (t->len > pl + 1 && t->s[pl] == '0')
		return -1;
	return v < n ? v : -1;
}

/* Is t prefix followed only by digits (a register name out of range)? */
static int looks_like(const tok *t, const char *prefix)
{
	size_t pl = strlen(prefix);

	if (t->kind != T_IDENT || t->len <= pl || memcmp(t->s, prefix, pl))
		return 0;
	for (size_t i = pl; i < t->len; i++)
		if (!is_digit(t->s[i]))
			return 0;
	return 1;
}

/* v is a looked-up operand value; on -1, says why t is not one. */
static int name_opd(as *a, const tok *t, int v, const char *what,
		    const char *prefix, const char *want)
{
	char b[200];

	if (v >= 0)
		return v;
	if (t->kind == T_IDENT && (!prefix || looks_like(t, prefix)))
		return as_err(a, t->s, "unknown %s '%s'", what,
			      show(t, b, sizeof b));
	return unexpected(a, t, want);
}

static int label_opd(as *a, uint32_t pc, int64_t *v)
{
	tok t = next(a);
	int64_t target;
	uint64_t u;
	sym *y;
	char b[200];

	if (is_punct(&t, '@')) {
		tok n = next(a);
		if (n.kind != T_NUM)
			return unexpected(a, &n, "an instruction index");
		if (parse_uint(a, &n, &u) < 0)
			return -1;
		if (u > UINT32_MAX)
			return as_err(a, n.s, "instruction index %s is too large",
				      show(&n, b, sizeof b));
		target = (int64_t)u;
	} else if (t.kind == T_IDENT) {
		if (!(y = sym_find(&a->labels, t.s, t.len)))
			return as_err(a, t.s, "label '%s' is not defined",
				      show(&t, b, sizeof b));
		target = y->val;
	} else {
		return unexpected(a, &t, "a label or @N");
	}
	*v = target - (int64_t)pc;
	if (*v < INT32_MIN || *v > INT32_MAX)
		return as_err(a, t.s, "branch offset %lld does not fit in 32 bits",
			      (long long)*v);
	return 0;
}

/* Reads one operand of kind k into *v. */
static int operand(as *a, int k, uint32_t pc, int64_t *v)
{
	tok t;
	float f;
	double d;
	uint64_t raw;
	uint32_t bits;
	int is_raw, r = -1;

	switch (k) {
	case NPU_K_I:
		return int_in(a, INT32_MIN, INT32_MAX, v);
	case NPU_K_L:
		return label_opd(a, pc, v);
	case NPU_K_F:
		if (float_tok(a, 32, &d, &f, &raw, &is_raw) < 0)
			return -1;
		if (is_raw)
			bits = (uint32_t)raw;
		else
			memcpy(&bits, &f, sizeof bits);
		*v = (int32_t)bits;
		return 0;
	}
	t = next(a);
	switch (k) {
	case NPU_K_X:
		r = name_opd(a, &t, reg_index(&t, "x", NPU_NXREG), "register",
			     "x", "a scalar register");
		break;
	case NPU_K_V:
		r = name_opd(a, &t, reg_index(&t, "v", NPU_NVREG), "register",
			     "v", "a vector register");
		break;
	case NPU_K_S:
		r = name_opd(a, &t, reg_index(&t, "s", NPU_NSEM), "semaphore",
			     "s", "a semaphore");
		break;
	case NPU_K_Q:
		r = name_opd(a, &t, reg_index(&t, "dma", NPU_MAX_DMA),
			     "DMA engine", "dma", "a DMA engine");
		break;
	case NPU_K_U:
		r = name_opd(a, &t, t.kind == T_IDENT ?
			     npu_unit_from_name(t.s, t.len) : -1, "unit", NULL,
			     "a unit");
		break;
	case NPU_K_D:
		r = name_opd(a, &t, t.kind == T_IDENT ?
			     npu_dfield_from_name(t.s, t.len) : -1,
			     "DMA field", NULL, "a DMA field");
		break;
	case NPU_K_T:
		r = name_opd(a, &t, t.kind == T_IDENT ?
			     npu_dtype_from_name(t.s, t.len) : -1,
			     "data type", NULL, "a data type");
		break;
	}
	*v = r;
	return r < 0 ? -1 : 0;
}

/* Encodes the instruction whose mnemonic starts at pd->s. */
static int assemble_insn(as *a, uint32_t pc)
{
	tok mn = next(a), t;
	const npu_opinfo *oi = npu_op_by_mnemonic(mn.s, mn.len);
	const npu_fmtinfo *fi = &npu_fmttab[oi->fmt];
	npu_insn in = { oi->opcode, 0, 0, 0, 0 };
	int64_t v;

	for (int i = 0; i < fi->nopd; i++) {
		t = peek(a);
		if (i && !is_punct(&t, ',')) {
			if (t.kind == T_END)
				return as_err(a, t.s, "'%s' takes %d operands, got %d",
					      oi->mnemonic, fi->nopd, i);
			return expect_punct(a, ',');
		}
		if (i)
			next(a);
		if (peek(a).kind == T_END)
			return as_err(a, peek(a).s, "'%s' takes %d operands, got %d",
				      oi->mnemonic, fi->nopd, i);
		if (operand(a, fi->opd[i].kind, pc, &v) < 0)
			return -1;
		npu_opd_set(&in, &fi->opd[i], v);
	}
	t = peek(a);
	if (is_punct(&t, ','))
		return as_err(a, t.s, "'%s' takes %d operand%s, got more",
			      oi->mnemonic, fi->nopd, fi->nopd == 1 ? "" : "s");
	if (expect_end(a) < 0)
		return -1;
	a->p.code[pc] = npu_encode(&in);
	return 0;
}

/* .word VALUE: a raw instruction word (what the disassembler prints for
 * a word that does not decode). */
static int assemble_word(as *a, uint32_t pc)
{
	npu_insn in;
	tok t;
	uint64_t u;

	next(a);
	t = next(a);
	if (t.kind != T_NUM)
		return unexpected(a, &t, "a 64-bit word");
	if (parse_uint(a, &t, &u) < 0 || expect_end(a) < 0)
		return -1;
	if (npu_decode(u, &in) < 0)
		return as_err(a, t.s, "0x%016llx is not a valid instruction word",
			      (unsigned long long)u);
	a->p.code[pc] = u;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Directives. */

static int dtype_opd(as *a)
{
	tok t = next(a);
	int dt = t.kind == T_IDENT ? npu_dtype_from_name(t.s, t.len) : -1;

	return name_opd(a, &t, dt, "data type", NULL, "a data type");
}

/* [d0, d1, ...] into b's shape and size. */
static int shape_opd(as *a, npu_buf *b)
{
	const char *s = peek(a).s;
	uint64_t n = 1;
	int64_t d;
	tok t;

	if (expect_punct(a, '[') < 0)
		return -1;
	b->ndim = 0;
	if (t = peek(a), is_punct(&t, ']')) {
		next(a);
	} else {
		for (;;) {
			if (b->ndim == NPU_MAX_DIMS)
				return as_err(a, peek(a).s, "more than %d dimensions",
					      NPU_MAX_DIMS);
			if (int_in(a, 0, INT64_MAX, &d) < 0)
				return -1;
			b->shape[b->ndim++] = d;
			if (d && n > UINT64_MAX / (uint64_t)d)
				return as_err(a, s, "shape is too large");
			n *= (uint64_t)d;
			t = next(a);
			if (is_punct(&t, ']'))
				break;
			if (!is_punct(&t, ','))
				return unexpected(a, &t, "',' or ']'");
		}
	}
	if (n > ADDR_LIMIT / 8)
		return as_err(a, s, "shape is too large");
	b->size = n * (uint64_t)npu_dtype_size(b->dtype);
	return 0;
}

/* Optional @ADDR: an explicit DRAM address instead of the next free one. */
static int place(as *a, npu_buf *b)
{
	tok t = peek(a);
	int64_t v;

	if (is_punct(&t, '@')) {
		next(a);
		if (int_in(a, 0, (int64_t)ADDR_LIMIT, &v) < 0)
			return -1;
		b->addr = (uint64_t)v;
	} else {
		b->addr = (a->end + ALIGN - 1) / ALIGN * ALIGN;
	}
	if (b->addr + b->size > ADDR_LIMIT)
		return as_err(a, t.s, "buffer '%s' ends past the address space",
			      b->name);
	if (b->addr + b->size > a->end)
		a->end = b->addr + b->size;
	return 0;
}

/* Starts a buffer: NAME DTYPE [dims]; the new entry is a->p.bufs[nbufs]. */
static npu_buf *buf_head(as *a)
{
	tok at = peek(a);
	npu_buf *b;
	sym *y;
	char *name = read_name(a, "a buffer name");

	if (!name)
		return NULL;
	if ((y = sym_find(&a->bufs, name, strlen(name)))) {
		as_err(a, at.s, "buffer '%s' is already defined at line %d",
		       name, y->line);
		goto fail;
	}
	if (!name[0]) {
		as_err(a, at.s, "buffer name is empty");
		goto fail;
	}
	if (grow(&a->p.bufs, &a->cap_bufs, a->p.nbufs + 1, sizeof *b) < 0 ||
	    grow(&a->bufpos, &a->cap_bufpos, a->p.nbufs + 1,
		 sizeof *a->bufpos) < 0) {
		oom(a);
		goto fail;
	}
	a->bufpos[a->p.nbufs].line = a->line;
	a->bufpos[a->p.nbufs].col = col_of(a, at.s);
	b = &a->p.bufs[a->p.nbufs];
	memset(b, 0, sizeof *b);
	b->name = name;
	a->p.nbufs++; /* owned by the program from here on */
	if ((b->dtype = dtype_opd(a)) < 0 || shape_opd(a, b) < 0)
		return NULL;
	return b;
fail:
	free(name);
	return NULL;
}

static int buf_done(as *a, npu_buf *b)
{
	if (!sym_add(&a->bufs, b->name, strlen(b->name), a->p.nbufs - 1, a->line))
		return oom(a);
	return 0;
}

static int dir_buffer(as *a, const tok *dir)
{
	npu_buf *b = buf_head(a);
	tok t;
	char nm[200];

	if (!b)
		return -1;
	t = next(a);
	memcpy(nm, t.s, t.len < sizeof nm ? t.len : sizeof nm - 1);
	nm[t.len < sizeof nm ? t.len : sizeof nm - 1] = '\0';
	b->kind = t.kind == T_IDENT ? npu_bufkind_from_name(nm) : -1;
	if (b->kind < 0 || b->kind == NPU_BUF_CONST) {
		if (b->kind == NPU_BUF_CONST)
			return as_err(a, t.s, "a const buffer takes its values: use .data");
		return name_opd(a, &t, -1, "buffer kind", NULL,
				"a buffer kind (input, output, scratch, inout)");
	}
	if (place(a, b) < 0 || expect_end(a) < 0)
		return -1;
	return buf_done(a, b);
}

static void put_le(uint8_t *d, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		d[i] = (uint8_t)(v >> 8 * i);
}

static int is_float_dt(int dt)
{
	return dt == NPU_DT_F32 || dt == NPU_DT_F64 || dt == NPU_DT_BF16 ||
	       dt == NPU_DT_F16 || dt == NPU_DT_E4M3 || dt == NPU_DT_E5M2;
}

/* One integer element of dtype dt (size sz) at d. */
static int int_value(as *a, int dt, int sz, uint8_t *d)
{
	tok t = next(a);
	int neg = 0;
	uint64_t u;
	int64_t lo, hi, v;

	if (dt == NPU_DT_BOOL && (tok_is(&t, "true") || tok_is(&t, "false"))) {
		d[0] = t.s[0] == 't';
		return 0;
	}
	if (is_punct(&t, '-')) {
		neg = 1;
		t = next(a);
	}
	if (t.kind != T_NUM)
		return unexpected(a, &t, "an integer");
	if (parse_uint(a, &t, &u) < 0)
		return -1;
	/* Hex is the element's raw bits, as the disassembler may print it. */
	if (!neg && t.len > 2 && (t.s[1] == 'x' || t.s[1] == 'X')) {
		if (sz < 8 && u >> 8 * sz)
			return as_err(a, t.s, "value does not fit in %d bits", 8 * sz);
		put_le(d, u, sz);
		return 0;
	}
	if (dt == NPU_DT_U8 || dt == NPU_DT_BOOL) {
		lo = 0;
		hi = 255;
	} else {
		hi = sz == 8 ? INT64_MAX : (int64_t)((1ull << (8 * sz - 1)) - 1);
		lo = -hi - 1;
	}
	if (u > (uint64_t)INT64_MAX + neg)
		goto range;
	v = neg ? (int64_t)(0 - u) : (int64_t)u;
	if (v < lo || v > hi)
		goto range;
	put_le(d, (uint64_t)v, sz);
	return 0;
range:
	return as_err(a, t.s, "value %s%.*s does not fit in %s", neg ? "-" : "",
		      (int)(t.len > 40 ? 40 : t.len), t.s, npu_dtype_name(dt));
}

/* One float element of dtype dt at d: converted with PyTorch's rounding. */
static int float_value(as *a, int dt, int sz, uint8_t *d)
{
	double dv = 0;
	float f = 0;
	uint64_t raw;
	int is_raw;

	if (float_tok(a, 8 * sz, &dv, &f, &raw, &is_raw) < 0)
		return -1;
	if (is_raw) {
		put_le(d, raw, sz);
	} else if (dt == NPU_DT_F64) {
		memcpy(&raw, &dv, sizeof raw);
		put_le(d, raw, 8);
	} else if (dt == NPU_DT_F32) {
		uint32_t bits;
		memcpy(&bits, &f, sizeof bits);
		put_le(d, bits, 4);
	} else {
		npu_store_f32(dt, d, 0, f);
	}
	return 0;
}

/* Extends the constant data to n bytes, zero-filled. */
static int data_room(as *a, uint64_t n)
{
	if (n <= a->p.ncdata)
		return 0;
	if (grow(&a->p.cdata, &a->cap_cdata, n, 1) < 0)
		return oom(a);
	memset(a->p.cdata + a->p.ncdata, 0, n - a->p.ncdata);
	a->p.ncdata = n;
	return 0;
}

/* .data NAME DTYPE [dims] [@ADDR] v0, v1, ... */
static int dir_data(as *a, const tok *dir)
{
	npu_buf *b = buf_head(a);
	uint64_t n, off, i;
	int sz;
	tok t;

	if (!b)
		return -1;
	b->kind = NPU_BUF_CONST;
	if (place(a, b) < 0)
		return -1;
	sz = npu_dtype_size(b->dtype);
	n = b->size / (uint64_t)sz;
	off = (a->p.ncdata + ALIGN - 1) / ALIGN * ALIGN;
	b->data_off = off;
	if (data_room(a, off) < 0)
		return -1;
	for (i = 0;; i++) {
		t = peek(a);
		if (t.kind == T_END)
			break;
		if (i) {
			if (!is_punct(&t, ','))
				return unexpected(a, &t, "','");
			next(a);
			t = peek(a);
		}
		if (i >= n)
			return as_err(a, t.s, "buffer '%s' has %llu elements, "
				      "got more values", b->name,
				      (unsigned long long)n);
		if (data_room(a, off + (i + 1) * (uint64_t)sz) < 0)
			return -1;
		if ((is_float_dt(b->dtype) ? float_value : int_value)(
			    a, b->dtype, sz, a->p.cdata + off + i * sz) < 0)
			return -1;
	}
	if (i < n)
		return as_err(a, t.s, "buffer '%s' has %llu elements, got %llu "
			      "values", b->name, (unsigned long long)n,
			      (unsigned long long)i);
	return buf_done(a, b);
}

static int dir_equ(as *a, const tok *dir)
{
	tok t = next(a);
	int64_t v;
	sym *y;
	char b[200];

	if (t.kind != T_IDENT)
		return unexpected(a, &t, "a name");
	if (peek_is(a, ','))
		next(a);
	if (expr(a, &v, 0) < 0 || expect_end(a) < 0)
		return -1;
	if ((y = sym_find(&a->equs, t.s, t.len)))
		return as_err(a, t.s, "'%s' is already defined at line %d",
			      show(&t, b, sizeof b), y->line);
	if (!sym_add(&a->equs, t.s, t.len, v, a->line))
		return oom(a);
	return 0;
}

static int dir_target(as *a, const tok *dir)
{
	const char *s = peek(a).s;
	char *name;

	if (a->p.target_name[0])
		return as_err(a, s, ".target is given twice");
	if (!(name = read_name(a, "a target name")))
		return -1;
	if (!name[0] || strlen(name) >= sizeof a->p.target_name) {
		free(name);
		return as_err(a, s, "target name must be 1 to %zu bytes",
			      sizeof a->p.target_name - 1);
	}
	strcpy(a->p.target_name, name);
	free(name);
	return expect_end(a);
}

static int dir_dram(as *a, const tok *dir)
{
	a->dram_line = a->line;
	a->dram_col = col_of(a, peek(a).s);
	if (int_in(a, 0, (int64_t)ADDR_LIMIT, &a->dram) < 0)
		return -1;
	return expect_end(a);
}

/* One FX node of a .kernel line: NAME[=TARGET[@MODULE[@SOURCE]]]. */
static int kernel_node(as *a)
{
	tok at = peek(a);
	char *f[4] = { NULL, NULL, NULL, NULL };
	npu_node *nd;
	sym *y;
	int nf = 1, rc = -1;
	uint32_t idx;

	if (!(f[0] = read_name(a, "a node name")))
		return -1;
	if (peek_is(a, '=')) {
		do {
			next(a);
			if (!(f[nf++] = read_name(a, "a name")))
				goto out;
		} while (nf < 4 && peek_is(a, '@'));
	}
	for (int i = 1; i < 4; i++)
		if (!f[i] && !(f[i] = strdup(""))) {
			oom(a);
			goto out;
		}
	if ((y = sym_find(&a->nodes, f[0], strlen(f[0])))) {
		nd = &a->p.nodes[y->val];
		if (nf > 1 && (strcmp(nd->target, f[1]) || strcmp(nd->module, f[2]) ||
			       strcmp(nd->source, f[3]))) {
			as_err(a, at.s, "node '%s' is already defined differently "
			       "at line %d", f[0], y->line);
			goto out;
		}
		idx = (uint32_t)y->val;
	} else {
		if (grow(&a->p.nodes, &a->cap_nodes, a->p.nnodes + 1, sizeof *nd) < 0 ||
		    !sym_add(&a->nodes, f[0], strlen(f[0]), a->p.nnodes, a->line)) {
			oom(a);
			goto out;
		}
		nd = &a->p.nodes[a->p.nnodes];
		idx = a->p.nnodes++;
		nd->name = f[0];
		nd->target = f[1];
		nd->module = f[2];
		nd->source = f[3];
		memset(f, 0, sizeof f);
	}
	if (grow(&a->p.kernel_nodes, &a->cap_knodes, a->p.nkernel_nodes + 1,
		 sizeof *a->p.kernel_nodes) < 0) {
		oom(a);
		goto out;
	}
	a->p.kernel_nodes[a->p.nkernel_nodes++] = idx;
	a->p.kernels[a->p.nkernels - 1].node_count++;
	rc = 0;
out:
	for (int i = 0; i < 4; i++)
		free(f[i]);
	return rc;
}

static int dir_kernel(as *a, const tok *dir)
{
	tok at = peek(a);
	npu_kernel *k;
	sym *y;
	char *name;
	int list;

	if (a->in_kernel)
		return as_err(a, dir->s, ".kernel inside the kernel started at "
			      "line %d (missing .endkernel)", a->kernel_line);
	if (!(name = read_name(a, "a kernel name")))
		return -1;
	if ((y = sym_find(&a->kernels, name, strlen(name)))) {
		as_err(a, at.s, "kernel '%s' is already defined at line %d",
		       name, y->line);
		free(name);
		return -1;
	}
	if (grow(&a->p.kernels, &a->cap_kernels, a->p.nkernels + 1, sizeof *k) < 0 ||
	    !sym_add(&a->kernels, name, strlen(name), 0, a->line)) {
		free(name);
		return oom(a);
	}
	k = &a->p.kernels[a->p.nkernels++];
	k->name = name;
	k->start = k->end = (uint32_t)a->npend;
	k->node_first = a->p.nkernel_nodes;
	k->node_count = 0;
	a->in_kernel = 1;
	a->kernel_line = a->line;
	a->kernel_col = col_of(a, dir->s);
	/* Nodes follow, space-separated, optionally in brackets. */
	if ((list = peek_is(a, '[')))
		next(a);
	for (;;) {
		tok t = peek(a);
		if (t.kind == T_END || (list && is_punct(&t, ']')))
			break;
		if (list && is_punct(&t, ',')) {
			next(a);
			continue;
		}
		if (kernel_node(a) < 0)
			return -1;
	}
	if (list && expect_punct(a, ']') < 0)
		return -1;
	return expect_end(a);
}

static int dir_endkernel(as *a, const tok *dir)
{
	if (!a->in_kernel)
			return as_err(a, dir->s, ".endkernel without .kernel");
	a->p.kernels[a->p.nkernels - 1].end = (uint32_t)a->npend;
	a->in_kernel = 0;
	return expect_end(a);
}

#define DIRECTIVES(X) \
	X(".target", dir_target) X(".buffer", dir_buffer) X(".data", dir_data) \
	X(".kernel", dir_kernel) X(".endkernel", dir_endkernel) \
	X(".equ", dir_equ) X(".dram", dir_dram)

static const struct {
	const char *name;
	int (*fn)(as *, const tok *);
} directives[] = {
#define X(n, f) { n, f },
	DIRECTIVES(X)
#undef X
};

/* ------------------------------------------------------------------ */
/* The two passes. */

/* Pass 1 over the current line. */
static int pass1_line(as *a)
{
	tok t = next(a);
	sym *y;
	char b[200];

	/* Labels: NAME ':' (any number of them). */
	while (t.kind == T_IDENT && peek_is(a, ':')) {
		next(a);
		if ((y = sym_find(&a->labels, t.s, t.len)))
			return as_err(a, t.s, "label '%s' is already defined at "
				      "line %d", show(&t, b, sizeof b), y->line);
		if (!sym_add(&a->labels, t.s, t.len, (int64_t)a->npend, a->line))
			return oom(a);
		t = next(a);
	}
	if (t.kind == T_END)
		return 0;
	if (t.kind != T_IDENT)
		return unexpected(a, &t, "a mnemonic, directive or label");
	if (tok_is(&t, ".word") || npu_op_by_mnemonic(t.s, t.len)) {
		if (a->npend >= UINT32_MAX - 1)
			return as_err(a, t.s, "too many instructions");
		if (grow(&a->pend, &a->cap_pend, a->npend + 1, sizeof *a->pend) < 0)
			return oom(a);
		a->pend[a->npend++] = (pend){ t.s, a->lbeg, a->lend, a->line };
		return 0;
	}
	for (size_t i = 0; i < sizeof directives / sizeof *directives; i++)
		if (tok_is(&t, directives[i].name))
			return directives[i].fn(a, &t);
	if (t.s[0] == '.')
		return as_err(a, t.s, "unknown directive '%s'", show(&t, b, sizeof b));
	return as_err(a, t.s, "unknown mnemonic '%s'", show(&t, b, sizeof b));
}

static int pass1(as *a, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;

	for (a->line = 1; p <= end; a->line++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		a->lbeg = a->cur = p;
		a->lend = nl ? nl : end;
		if (pass1_line(a) < 0)
			return -1;
		if (!nl)
			break;
		p = nl + 1;
	}
	if (a->in_kernel)
		return npu_errf(a->e, "%s:%d:%zu: kernel '%s' has no .endkernel",
				a->file, a->kernel_line, a->kernel_col,
				a->p.kernels[a->p.nkernels - 1].name);
	return 0;
}

static int pass2(as *a)
{
	a->p.ncode = (uint32_t)a->npend;
	if (a->npend && !(a->p.code = calloc(a->npend, sizeof *a->p.code)))
		return oom(a);
	for (size_t i = 0; i < a->npend; i++) {
		const pend *pd = &a->pend[i];
		tok t;
		a->lbeg = pd->lbeg;
		a->lend = pd->lend;
		a->cur = pd->s;
		a->line = pd->line;
		t = peek(a);
		if ((tok_is(&t, ".word") ? assemble_word(a, (uint32_t)i)
					 : assemble_insn(a, (uint32_t)i)) < 0)
			return -1;
	}
	return 0;
}

static int cmp_addr(const void *x, const void *y)
{
	const uint64_t *u = x, *v = y;

	if (u[0] != v[0])
		return u[0] < v[0] ? -1 : 1;
	return (u[1] > v[1]) - (u[1] < v[1]);
}

/* Buffers placed with @ADDR must not overlap (sorted, not pairwise). */
static int check_overlap(as *a)
{
	uint64_t (*v)[2], end = 0;
	uint32_t last = 0;
	int rc = 0;

	if (a->p.nbufs < 2)
		return 0;
	if (!(v = malloc(a->p.nbufs * sizeof *v)))
		return oom(a);
	for (uint32_t i = 0; i < a->p.nbufs; i++) {
		v[i][0] = a->p.bufs[i].addr;
		v[i][1] = i;
	}
	qsort(v, a->p.nbufs, sizeof *v, cmp_addr);
	for (uint32_t i = 0; i < a->p.nbufs; i++) {
		const npu_buf *b = &a->p.bufs[v[i][1]];
		if (!b->size)
			continue;
		if (b->addr < end) {
			/* Blame the one declared later. */
			uint32_t j = (uint32_t)v[i][1];
			uint32_t k = j > last ? j : last, o = j > last ? last : j;
			rc = npu_errf(a->e, "%s:%d:%zu: buffer '%s' overlaps buffer "
				      "'%s' in DRAM", a->file, a->bufpos[k].line,
				      a->bufpos[k].col, a->p.bufs[k].name,
				      a->p.bufs[o].name);
			break;
		}
		end = b->addr + b->size;
		last = (uint32_t)v[i][1];
	}
	free(v);
	return rc;
}

static int finish(as *a)
{
	uint64_t end = (a->end + ALIGN - 1) / ALIGN * ALIGN;

	if (a->dram < 0) {
		a->p.dram_size = end;
	} else if ((uint64_t)a->dram < a->end) {
		return npu_errf(a->e, "%s:%d:%zu: .dram %lld is smaller than the "
				"buffers, which end at %llu", a->file,
				a->dram_line, a->dram_col, (long long)a->dram,
				(unsigned long long)a->end);
	} else {
		a->p.dram_size = (uint64_t)a->dram;
	}
	if (check_overlap(a) < 0)
		return -1;
	/* What the assembler accepts, the program file takes. */
	if (npu_prog_check(&a->p, a->e) < 0)
		return npu_err_prefix(a->e, "%s", a->file);
	return 0;
}

int npu_asm(const char *name, const char *text, size_t len, npu_prog *out,
	    npu_err *e)
{
	as a;
	int rc = -1;

	memset(&a, 0, sizeof a);
	a.file = name ? name : "<input>";
	a.e = e;
	a.dram = -1;
	memset(out, 0, sizeof *out);
	if (pass1(&a, text, len) < 0 || pass2(&a) < 0 || finish(&a) < 0)
		goto out;
	*out = a.p;
	memset(&a.p, 0, sizeof a.p);
	rc = 0;
out:
	npu_prog_free(&a.p);
	sym_free(&a.labels);
	sym_free(&a.bufs);
	sym_free(&a.equs);
	sym_free(&a.nodes);
	sym_free(&a.kernels);
	free(a.pend);
	free(a.bufpos);
	return rc;
}

int npu_asm_file(const char *path, npu_prog *out, npu_err *e)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (!f)
		return npu_errf(e, "unable to open '%s': %s", path, strerror(errno));
	do {
		if (grow(&buf, &cap, len + 65536, 1) < 0) {
			npu_errf(e, "%s: out of memory", path);
			goto out;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		npu_errf(e, "unable to read '%s': %s", path, strerror(errno));
		goto out;
	}
	rc = npu_asm(path, buf ? buf : "", len, out, e);
out:
	free(buf);
	fclose(f);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The program disassembler. */

/* Writes s as a name the assembler reads back: bare or quoted. */
static void put_name(FILE *f, const char *s)
{
	/* bare only where peek() reads one identifier: ".5x" is a number */
	int bare = is_ident0((unsigned char)s[0]) &&
		   !(s[0] == '.' && is_digit((unsigned char)s[1]));

	for (const char *c = s; *c && bare; c++)
		bare = is_ident((unsigned char)*c) ||
		       (*c == '-' && is_ident((unsigned char)c[1]));
	if (bare) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (*c >= 0x20 && *c < 0x7f)
			fputc(*c, f);
		else
			fprintf(f, "\\x%02x", *c);
	}
	fputc('"', f);
}

static uint64_t get_le(const uint8_t *d, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | d[i];
	return v;
}

/*
 * Prints one element of a float buffer as a decimal when reading that
 * decimal back gives the same bits, and as raw hex otherwise (NaN
 * payloads, and whatever the decimal cannot reach).
 */
static void put_float(FILE *f, int dt, const uint8_t *d, int sz)
{
	uint64_t bits = get_le(d, sz), back;
	char txt[64];
	double v;
	float fv;
	uint8_t tmp[8];

	if (dt == NPU_DT_F64) {
		memcpy(&v, &bits, sizeof v);
	} else if (dt == NPU_DT_F32) {
		uint32_t b32 = (uint32_t)bits;
		memcpy(&fv, &b32, sizeof fv);
		v = fv;
	} else {
		v = npu_load_f32(dt, d, 0);
	}
	if (isnan(v))
		snprintf(txt, sizeof txt, "nan");
	else if (isinf(v))
		snprintf(txt, sizeof txt, v < 0 ? "-inf" : "inf");
	else
		snprintf(txt, sizeof txt, dt == NPU_DT_F64 ? "%.17g" : "%.9g", v);
	/* Read it back the way float_value() does. */
	if (dt == NPU_DT_F64) {
		double r = txt[0] == 'n' ? NAN : strtod(txt, NULL);
		memcpy(&back, &r, sizeof back);
	} else {
		float r = txt[0] == 'n' ? NAN : strtof(txt, NULL);
		uint32_t b32;
		memcpy(&b32, &r, sizeof b32);
		if (dt == NPU_DT_F32) {
			back = b32;
		} else {
			npu_store_f32(dt, tmp, 0, r);
			back = get_le(tmp, sz);
		}
	}
	if (back == bits)
		fputs(txt, f);
	else
		fprintf(f, "0x%0*llx", 2 * sz, (unsigned long long)bits);
}

static void put_value(FILE *f, int dt, const uint8_t *d, int sz)
{
	uint64_t u = get_le(d, sz);

	if (is_float_dt(dt))
		put_float(f, dt, d, sz);
	else if (dt == NPU_DT_U8 || dt == NPU_DT_BOOL)
		fprintf(f, "%llu", (unsigned long long)u);
	else if (sz < 8 && (u >> (8 * sz - 1)) & 1) /* sign-extend */
		fprintf(f, "%lld", (long long)(u | ~0ull << 8 * sz));
	else
		fprintf(f, "%lld", (long long)u);
}

/* .data values; bytes past the constant data read as zero. */
static void put_data(FILE *f, const npu_prog *p, const npu_buf *b)
{
	int sz = npu_dtype_size(b->dtype);
	uint64_t n = sz ? b->size / (uint64_t)sz : 0;
	uint8_t zero[8] = { 0 };

	for (uint64_t i = 0; i < n; i++) {
		uint64_t o = b->data_off + i * (uint64_t)sz;
		const uint8_t *d = o <= p->ncdata && p->ncdata - o >= (uint64_t)sz ?
				   p->cdata + o : zero;
		fputs(i ? ", " : " ", f);
		put_value(f, b->dtype, d, sz);
	}
}

/* The buffers, with @ADDR where the default layout would differ. */
static void put_bufs(FILE *f, const npu_prog *p)
{
	uint64_t end = 0, auto_addr;

	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = &p->bufs[i];
		int konst = b->kind == NPU_BUF_CONST;
		fputs(konst ? ".data " : ".buffer ", f);
		put_name(f, b->name);
		fprintf(f, " %s [", npu_dtype_name(b->dtype) ?
			npu_dtype_name(b->dtype) : "?");
		for (int d = 0; d < b->ndim && d < NPU_MAX_DIMS; d++)
			fprintf(f, d ? ",%lld" : "%lld", (long long)b->shape[d]);
		fputc(']', f);
		if (!konst)
			fprintf(f, " %s", npu_bufkind_name(b->kind) ?
				npu_bufkind_name(b->kind) : "?");
		auto_addr = (end + ALIGN - 1) / ALIGN * ALIGN;
		if (b->addr != auto_addr)
			fprintf(f, " @0x%llx", (unsigned long long)b->addr);
		if (b->addr + b->size > end)
			end = b->addr + b->size;
		if (konst)
			put_data(f, p, b);
		fputc('\n', f);
	}
	if (p->dram_size != (end + ALIGN - 1) / ALIGN * ALIGN)
		fprintf(f, ".dram 0x%llx\n", (unsigned long long)p->dram_size);
}

static void put_kernel_open(FILE *f, const npu_prog *p, const npu_kernel *k)
{
	fputs(".kernel ", f);
	put_name(f, k->name);
	for (uint32_t j = 0; j < k->node_count; j++) {
		uint64_t ni = (uint64_t)k->node_first + j;
		const npu_node *nd;
		if (ni >= p->nkernel_nodes || p->kernel_nodes[ni] >= p->nnodes)
			continue;
		nd = &p->nodes[p->kernel_nodes[ni]];
		fputc(' ', f);
		put_name(f, nd->name);
		if (!nd->target[0] && !nd->module[0] && !nd->source[0])
			continue;
		fputc('=', f);
		put_name(f, nd->target);
		if (!nd->module[0] && !nd->source[0])
			continue;
		fputc('@', f);
		put_name(f, nd->module);
		if (!nd->source[0])
			continue;
		fputc('@', f);
		put_name(f, nd->source);
	}
	fputc('\n', f);
}

/* Marks the in-range targets of branches: they get labels L<index>. */
static uint8_t *branch_targets(const npu_prog *p)
{
	uint8_t *t = calloc((size_t)p->ncode + 1, 1);
	npu_insn in;

	if (!t)
		return NULL;
	for (uint32_t pc = 0; pc < p->ncode; pc++) {
		const npu_fmtinfo *fi;
		if (npu_decode(p->code[pc], &in) < 0)
			continue;
		fi = &npu_fmttab[npu_optab[in.op].fmt];
		for (int i = 0; i < fi->nopd; i++) {
			int64_t to = (int64_t)pc + npu_opd_get(&in, &fi->opd[i]);
			if (fi->opd[i].kind == NPU_K_L && to >= 0 && to <= p->ncode)
				t[to] = 1;
		}
	}
	return t;
}

/* One instruction; a branch to a labelled index names the label. */
static void put_insn(FILE *f, const npu_prog *p, uint32_t pc,
		     const uint8_t *targets)
{
	char buf[256], *at;
	npu_insn in;
	long long to;

	npu_decode(p->code[pc], &in);
	npu_disasm(&in, pc, buf, sizeof buf);
	/* Only branch operands print '@', as "@<absolute index>". */
	if ((at = strchr(buf, '@')) && sscanf(at + 1, "%lld", &to) == 1 &&
	    to >= 0 && to <= p->ncode && targets[to])
		*at = 'L';
	fprintf(f, "\t%s\n", buf);
}

static void put_code(FILE *f, const npu_prog *p, const uint8_t *targets)
{
	uint32_t k = 0;
	int open = 0;

	for (uint32_t pc = 0; pc <= p->ncode; pc++) {
		if (open && p->kernels[k - 1].end == pc) {
			fputs(".endkernel\n", f);
			open = 0;
		}
		while (!open && k < p->nkernels && p->kernels[k].start == pc) {
			put_kernel_open(f, p, &p->kernels[k++]);
			open = 1;
			if (p->kernels[k - 1].end == pc) {
				fputs(".endkernel\n", f);
				open = 0;
			}
		}
		if (targets[pc])
			fprintf(f, "L%u:\n", pc);
		if (pc < p->ncode)
			put_insn(f, p, pc, targets);
	}
	if (open)
		fputs(".endkernel\n", f);
}

char *npu_disasm_prog(const npu_prog *p)
{
	char *text = NULL;
	size_t len = 0;
	uint8_t *targets = branch_targets(p);
	FILE *f;

	if (!targets)
		return NULL;
	if (!(f = open_memstream(&text, &len))) {
		free(targets);
		return NULL;
	}
	fprintf(f, "# %u instructions, %u buffers, %u kernels\n", p->ncode,
		p->nbufs, p->nkernels);
	if (p->target_name[0]) {
		char tn[sizeof p->target_name + 1];
		memcpy(tn, p->target_name, sizeof p->target_name);
		tn[sizeof p->target_name] = '\0';
		fputs(".target ", f);
		put_name(f, tn);
		fputc('\n', f);
	}
	put_bufs(f, p);
	put_code(f, p, targets);
	free(targets);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* ------------------------------------------------------------------ */
/* docs/ISA.md, generated from npu.def. */

static const char *const kind_doc[] = {
	[NPU_K_X] = "scalar register `x0`..`x31`",
	[NPU_K_V] = "vector register `v0`..`v31`",
	[NPU_K_U] = "unit `scl` `vec` `mxu` `host` `dma0`..`dma7`",
	[NPU_K_S] = "semaphore `s0`..`s31`",
	[NPU_K_Q] = "DMA engine `dma0`..`dma7`",
	[NPU_K_D] = "DMA descriptor field (see above)",
	[NPU_K_T] = "data type (see above)",
	[NPU_K_I] = "signed 32-bit integer",
	[NPU_K_F] = "fp32 immediate: decimal, `inf`, `-inf`, `nan` or raw bits `0x%08x`",
	[NPU_K_L] = "label, or `@N` (absolute instruction index); stored pc-relative",
};

static const char *const field_name[] = { "a", "b", "c", "imm" };

/* An operand as the tables show it: `xa`, `vb`, `a:unit`, `imm`. */
static void doc_opd(FILE *f, const npu_operand *o)
{
	const char *fl = field_name[o->field];

	switch (o->kind) {
	case NPU_K_X: fprintf(f, "x%s", fl); break;
	case NPU_K_V: fprintf(f, "v%s", fl); break;
	case NPU_K_S: fprintf(f, "s%s", fl); break;
	case NPU_K_U: fprintf(f, "%s:unit", fl); break;
	case NPU_K_Q: fprintf(f, "%s:dma", fl); break;
	case NPU_K_D: fprintf(f, "%s:field", fl); break;
	case NPU_K_T: fprintf(f, "%s:dtype", fl); break;
	case NPU_K_F: fputs("imm:f32", f); break;
	case NPU_K_L: fputs("label", f); break;
	default: fputs("imm", f); break;
	}
}

/* A sample instruction of op, for the Example column. */
static void doc_example(FILE *f, const npu_opinfo *oi)
{
	const npu_fmtinfo *fi = &npu_fmttab[oi->fmt];
	npu_insn in = { oi->opcode, 0, 0, 0, 0 };
	char buf[128];

	for (int i = 0; i < fi->nopd; i++) {
		static const int64_t v[] = {
			[NPU_K_X] = 0, [NPU_K_V] = 0, [NPU_K_U] = NPU_UNIT_DMA0,
			[NPU_K_S] = 3, [NPU_K_Q] = 1, [NPU_K_D] = NPU_DF_ROWB,
			[NPU_K_T] = NPU_DT_BF16, [NPU_K_I] = 64,
			[NPU_K_F] = 0x3fc00000, [NPU_K_L] = -2,
		};
		int k = fi->opd[i].kind;
		int64_t x = v[k];
		if (k == NPU_K_X || k == NPU_K_V)
			x = i + 1;
		npu_opd_set(&in, &fi->opd[i], x);
	}
	npu_disasm(&in, 10, buf, sizeof buf);
	fprintf(f, "`%s`", buf);
}

static void doc_flags(FILE *f, int fl)
{
	static const struct { int bit; const char *name; } names[] = {
		{ NPU_WA, "WA" }, { NPU_RA, "RA" }, { NPU_BR, "BR" },
		{ NPU_END, "END" },
	};
	int any = 0;

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (fl & names[i].bit) {
			fprintf(f, "%s%s", any ? " " : "", names[i].name);
			any = 1;
		}
}

/* `|` would end a table cell. */
static void doc_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void doc_machine(FILE *f)
{
	fprintf(f,
"## Machine\n\n"
"A scalar unit fetches one instruction stream.  It executes scalar\n"
"instructions itself and dispatches every other instruction, with its\n"
"scalar register operands already read, to the queue of the unit that runs\n"
"it.  Each unit runs its queue in order; units overlap unless a `wait` on a\n"
"semaphore, signalled by another unit's `sig`, orders them.  Sizes, rates\n"
"and latencies come from the target file (docs/target-format.md).\n\n"
"### Registers\n\n"
"| File | Names | Count | Contents |\n"
"|------|-------|-------|----------|\n"
"| scalar | `x0`..`x%d` | %d | 64-bit integers; `x0` reads as zero, writes to it are dropped |\n"
"| vector | `v0`..`v%d` | %d | VLEN fp32 lanes (VLEN from the target); `setvl` sets how many lanes later vector instructions use |\n\n",
		NPU_NXREG - 1, NPU_NXREG, NPU_NVREG - 1, NPU_NVREG);
	fprintf(f,
"### Units and queues\n\n"
"Unit operands (`sig`, `wait`) name one of these; the id is the one traces use.\n\n"
"| Id | Name | Runs |\n|----|------|------|\n");
	for (int u = 0; u < NPU_NUNIT; u++)
		fprintf(f, "| %d | `%s` | %s |\n", u, npu_unit_name(u),
			u == NPU_UNIT_SCL ? "scalar unit: fetch, scalar instructions, dispatch" :
			u == NPU_UNIT_VEC ? "vector unit queue" :
			u == NPU_UNIT_MXU ? "systolic matrix unit queue" :
			u == NPU_UNIT_HOST ? "host model queue (`hcall`)" :
			"DMA engine queue (the target sets how many engines exist)");
	fprintf(f,
"\n### Semaphores\n\n"
"`s0`..`s%d` (%d counters).  `sig u, s` adds 1 once unit u's\n"
"earlier work has completed; `wait u, s` stalls unit u's stream until the\n"
"counter is positive, then subtracts 1.\n\n",
		NPU_NSEM - 1, NPU_NSEM);
	fprintf(f,
"### Local address map\n\n"
"| Local address | Memory |\n|---------------|--------|\n"
"| `0x00000000` .. | SRAM scratchpad (size from the target) |\n"
"| `0x%08x` (NPU_ACC_BASE) .. | accumulator SRAM (size from the target) |\n\n"
"DRAM is reached only by DMA and host calls; the program's buffers are laid\n"
"out in it from address 0.  A DMA address at or past `0x%llx`\n"
"(NPU_SRAM_APERTURE, 2^64 - 2^31: the top 2 GiB, which one `li` of a\n"
"negative immediate names) on a transfer's DRAM side names local address\n"
"(address - NPU_SRAM_APERTURE) instead: the transfer copies SRAM to SRAM\n"
"as `dcp` does.  A static program's compiler keeps small scratch values\n"
"and constants there (docs/compiler.md, the SRAM-resident window), and a\n"
"dynamic program's loader places symbolic scratch there when it fits\n"
"(docs/program-format.md, `.npu.window`): the same code reaches a value\n"
"in either memory.  Flag bits: `mcfg` imm bit %u selects the\n"
"output-stationary dataflow, `mmac` imm bit %u accumulates instead of\n"
"overwriting.  Weight-stationary, `mldw` fills a shadow buffer, which the\n"
"next `mmac` swaps in unless its imm bit %u holds the weights in use:\n"
"several `mmac`s on one set of weights, the next `mldw` among them.\n\n",
		NPU_ACC_BASE, (unsigned long long)NPU_SRAM_APERTURE,
		__builtin_ctz(NPU_MXU_OS), __builtin_ctz(NPU_MMAC_ACC),
		__builtin_ctz(NPU_MMAC_HOLD));
}

static void doc_dma_dtypes(FILE *f)
{
	static const struct { const char *name, *doc; } df[] = {
#define NPU_DFIELD(nm, asm, doc) { asm, doc },
#include "isa/npu.def"
#undef NPU_DFIELD
	};

	fprintf(f,
"### DMA descriptors\n\n"
"Each engine holds a descriptor set with `dcfg`/`dcfgi`.  A transfer copies,\n"
"for i2 < n2 and i1 < n1, rowb bytes\n\n"
"    from src + i1*ss1 + i2*ss2  to  dst + i1*ds1 + i2*ds2\n\n"
"Fields keep their value until set again; a new engine starts with rowb 0,\n"
"n1 = n2 = 1, strides 0.\n\n"
"| Field | Meaning |\n|-------|---------|\n");
	for (size_t i = 0; i < sizeof df / sizeof *df; i++)
		fprintf(f, "| `%s` | %s |\n", df[i].name, df[i].doc);
	fprintf(f,
"\n### Data types\n\n"
"Type operands and buffers accept the short name or PyTorch's name.\n\n"
"| Name | Bytes | PyTorch |\n|------|-------|---------|\n");
	for (int t = 0; t < NPU_NDTYPE; t++)
		fprintf(f, "| `%s` | %d | `torch.%s` |\n", npu_dtype_name(t),
			npu_dtype_size(t), npu_dtype_torch(t));
	fputc('\n', f);
}

static void doc_encoding(FILE *f)
{
	fprintf(f,
"## Encoding\n\n"
"Every instruction is one 64-bit little-endian word:\n\n"
"```\n"
" 63                              32 31      24 23      16 15       8 7        0\n"
"+----------------------------------+----------+----------+----------+----------+\n"
"|             imm (int32)          |    c     |    b     |    a     |  opcode  |\n"
"+----------------------------------+----------+----------+----------+----------+\n"
"```\n\n"
"Decoding is one lookup of the opcode byte; opcodes not listed are illegal.\n"
"Fields an instruction does not use must be zero.  The format lists the\n"
"operands in assembly order, each a field and a kind:\n\n"
"| Format | Operands |\n|--------|----------|\n");
	for (int i = 0; i < NPU_NFMT; i++) {
		const npu_fmtinfo *fi = &npu_fmttab[i];
		fprintf(f, "| %s | ", fi->name);
		for (int j = 0; j < fi->nopd; j++) {
			fputs(j ? ", " : "", f);
			doc_opd(f, &fi->opd[j]);
		}
		fputs(fi->nopd ? " |\n" : "none |\n", f);
	}
	fprintf(f, "\nOperand kinds (the letters of the format names):\n\n"
		   "| Kind | Shown as | Accepts |\n|------|----------|---------|\n");
	for (int k = NPU_K_X; k <= NPU_K_L; k++) {
		npu_operand o = { NPU_F_A, (uint8_t)k };
		if (k == NPU_K_I || k == NPU_K_F || k == NPU_K_L)
			o.field = NPU_F_IMM;
		fprintf(f, "| %c | `", "XVUSQDTIFL"[k]);
		doc_opd(f, &o);
		fprintf(f, "` | %s |\n", kind_doc[k]);
	}
	fprintf(f,
"\nFlags: WA field a is a register the instruction writes; RA field a is a\n"
"register it reads; BR may change the pc; END ends the instruction stream.\n\n");
}

static void doc_ops(FILE *f)
{
	static const char *const uc[] = {
		[NPU_UC_SCL] = "Scalar unit (SCL)",
		[NPU_UC_VEC] = "Vector unit (VEC): fp32 lanes",
		[NPU_UC_MXU] = "Systolic matrix unit (MXU)",
		[NPU_UC_DMA] = "DMA engines (DMA): the engine in field a",
		[NPU_UC_HOST] = "Host model (HOST)",
		[NPU_UC_SYNC] = "Synchronization (SYNC): runs in the stream of the unit in field a",
	};

	fprintf(f, "## Instructions\n\n"
		   "Scalar register operands of non-scalar instructions are read "
		   "when the scalar unit\ndispatches the instruction.  Branch "
		   "examples are shown at pc 10.\n\n");
	for (int c = 0; c < (int)(sizeof uc / sizeof *uc); c++) {
		fprintf(f, "### %s\n\n| Mnemonic | Opcode | Operands | Flags "
			   "| Semantics | Example |\n|---|---|---|---|---|---|\n",
			uc[c]);
		for (int i = 0; i < npu_nops(); i++) {
			const npu_opinfo *oi = npu_op_nth(i);
			const npu_fmtinfo *fi = &npu_fmttab[oi->fmt];
			if (oi->uclass != c)
				continue;
			fprintf(f, "| `%s` | 0x%02x | ", oi->mnemonic, oi->opcode);
			for (int j = 0; j < fi->nopd; j++) {
				fputs(j ? ", " : "`", f);
				doc_opd(f, &fi->opd[j]);
			}
			fputs(fi->nopd ? "` | " : "none | ", f);
			doc_flags(f, oi->flags);
			fputs(" | ", f);
			doc_cell(f, oi->semantics);
			fputs(" | ", f);
			doc_example(f, oi);
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
}

char *npu_isa_doc(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f,
"# The npusim instruction set\n\n"
"<!-- Generated from isa/npu.def by `npusim isa-doc`; do not edit.\n"
"     tests/check_asm.c fails when this file and the table disagree. -->\n\n"
"%d instructions.  The assembly syntax is described in docs/assembly.md.\n\n",
		npu_nops());
	doc_machine(f);
	doc_dma_dtypes(f);
	doc_encoding(f);
	doc_ops(f);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
