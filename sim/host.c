/*
 * host.c - the host model: `hcall i` runs entry i of the program's
 * host-call table on the host CPU, through the registered function of its
 * op (looked up by ATen name), with its operands in DRAM.
 *
 * Time of one call (docs/timing-model.md):
 *   latency + (input + output bytes) / link_bytes_per_cycle
 *           + flops / flops_per_cycle, rounded up
 * with flops estimated from the op name and shapes: 2*M*N*K for matrix
 * products (is_product: M*N the output's elements, K the last dimension
 * of the first factor), as many for convolutions and each gradient of
 * convolution_backward (see conv_flops), no flops for pure data movement
 * ("copy", "fill"), one per output element for everything else.
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "isa/dtype.h"
#include "isa/st.h"
#include "sim/sim_int.h"

#define HOSTOP_MAX 512
#define HOSTOP_SLOTS (2 * HOSTOP_MAX) /* hash slots, a power of two */

static struct hostop {
	char name[96];
	npu_hostop_fn fn;
} hostops[HOSTOP_MAX];
static int nhostops;
/* Index + 1 of each op by its name's hash (0: empty): npusim registers
 * the ~300 ops of compiler/hostops.c at every start, and a linear search
 * per registration cost more than a short run's whole trace setup. */
static short slots[HOSTOP_SLOTS];

/* copy: out = in, converting the dtype when the two differ. */
static int op_copy(const npu_hostop_args *a, npu_err *e)
{
	const npu_buf *in, *out;
	uint64_t ni, no;

	if (a->nin != 1 || a->nargs != 2)
		return npu_errf(e, "copy: expects one input and one output");
	in = a->bufs[0];
	out = a->bufs[1];
	ni = npu_numel(in->ndim, in->shape);
	no = npu_numel(out->ndim, out->shape);
	if (ni != no)
		return npu_errf(e, "copy: '%s' has %llu elements, '%s' %llu",
				in->name, (unsigned long long)ni, out->name,
				(unsigned long long)no);
	if (in->dtype == out->dtype)
		memmove(a->data[1], a->data[0], (size_t)(ni * npu_dtype_size(in->dtype)));
	else
		npu_convert(out->dtype, a->data[1], in->dtype, a->data[0], (size_t)ni);
	return 0;
}

/* fill: every output element = attrs "value". */
static int op_fill(const npu_hostop_args *a, npu_err *e)
{
	json_error_t je;
	json_t *root = json_loads(a->hc->attrs ? a->hc->attrs : "", 0, &je);
	json_t *v = root ? json_object_get(root, "value") : NULL;
	double x;

	if (!v || !json_is_number(v)) {
		json_decref(root);
		return npu_errf(e, "fill: attrs need a number \"value\"");
	}
	x = json_number_value(v);
	json_decref(root);
	for (uint32_t i = a->nin; i < a->nargs; i++) {
		const npu_buf *b = a->bufs[i];
		uint64_t n = npu_numel(b->ndim, b->shape);
		for (uint64_t j = 0; j < n; j++)
			npu_store_f64(b->dtype, a->data[i], (size_t)j, x);
	}
	return 0;
}

/* The slot of name: where it is, or the empty slot where it would go. */
static unsigned slot_of(const char *name)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = (h ^ *c) * 16777619u;
	for (unsigned k = h & (HOSTOP_SLOTS - 1);; k = (k + 1) & (HOSTOP_SLOTS - 1))
		if (!slots[k] || !strcmp(hostops[slots[k] - 1].name, name))
			return k;
}

static int find(const char *name)
{
	return slots[slot_of(name)] - 1;
}

static int add(const char *name, npu_hostop_fn fn)
{
	unsigned k = slot_of(name);
	int i = slots[k] - 1;

	if (i < 0) {
		if (nhostops == HOSTOP_MAX || strlen(name) >= sizeof hostops[0].name)
			return -1;
		i = nhostops++;
		strcpy(hostops[i].name, name);
		slots[k] = (short)(i + 1);
	}
	hostops[i].fn = fn;
	return 0;
}

static void builtins(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	add("copy", op_copy);
	add("fill", op_fill);
}

int npu_sim_register_hostop(const char *name, npu_hostop_fn fn)
{
	builtins();
	return add(name, fn);
}

npu_hostop_fn npu_sim_find_hostop(const char *name)
{
	int i;

	builtins();
	i = find(name);
	return i < 0 ? NULL : hostops[i].fn;
}

/*
 * A convolution: 2 * (output elements) * (weight elements per output
 * channel).  convolution_backward (grad_output, input, weight): as much
 * for grad_input and for grad_weight each (the outputs of the input's and
 * of the weight's sizes), one per grad_output element for grad_bias.
 */
static uint64_t conv_flops(const npu_prog *p, const npu_hostcall *hc, uint64_t out)
{
	const npu_buf *w = &p->bufs[hc->args[hc->nin > 2 && strstr(hc->op, "backward") ? 2 : 1]];
	const npu_buf *go = &p->bufs[hc->args[0]];
	/* MACs per output element: the weight's elements per output channel */
	uint64_t per = w->ndim && w->shape[0] ? npu_numel(w->ndim, w->shape) / (uint64_t)w->shape[0] : 1;
	uint64_t f = 0, ng;

	if (!strstr(hc->op, "backward"))
		return 2 * out * per;
	if (hc->nin < 3)
		return out;
	ng = npu_numel(go->ndim, go->shape);
	for (uint32_t i = hc->nin; i < hc->nargs; i++)
		f += p->bufs[hc->args[i]].ndim == 1 ? ng : 2 * ng * per;
	return f;
}

/*
 * Whether op (an ATen target, "aten.addmm.default") is a matrix product:
 * its name (between the namespace and the overload) ends with "mm" (mm,
 * bmm, addmm, baddbmm, _int_mm, _scaled_mm) or is one of a few others.
 * Matching substrings billed cummax and lgamma ("mm") and the linear
 * resizes ("linear") as products: 1,024 flops an output for a 1-d resize
 * of 512 columns.  *first: the operand whose last dim is K (addmm's and
 * baddbmm's second, after the term added).
 */
static int is_product(const char *op, uint32_t *first)
{
	static const char *const named[] = {
		"matmul", "linear", "bilinear", "_trilinear", "mv", "addmv", "dot", "vdot",
		"grouped_mm_fallback",
	};
	const char *b = strchr(op, '.'), *e;
	size_t n;

	b = b ? b + 1 : op;
	e = strchr(b, '.');
	n = e ? (size_t)(e - b) : strlen(b);
	*first = !strncmp(b, "add", 3) || !strncmp(b, "badd", 4);
	if (n >= 2 && !strncmp(b + n - 2, "mm", 2))
		return 1;
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		if (strlen(named[i]) == n && !strncmp(b, named[i], n))
			return 1;
	return 0;
}

uint64_t npu_sim_host_flops(const npu_prog *p, const npu_hostcall *hc)
{
	uint64_t out = 0;
	uint32_t first;

	if (!strcmp(hc->op, "copy") || !strcmp(hc->op, "fill"))
		return 0;
	for (uint32_t i = hc->nin; i < hc->nargs; i++) {
		const npu_buf *b = &p->bufs[hc->args[i]];
		out += npu_numel(b->ndim, b->shape);
	}
	if (strstr(hc->op, "convolution") && hc->nin > 1)
		return conv_flops(p, hc, out);
	if (is_product(hc->op, &first) && hc->nin > 0) {
		const npu_buf *a = &p->bufs[hc->args[first < hc->nin ? first : 0]];
		uint64_t k = a->ndim ? (uint64_t)a->shape[a->ndim - 1] : 1;
		return 2 * out * k;
	}
	return out;
}

int sim_host_exec(npu_sim *s, const sim_insn *in, const sim_entry *e,
		  uint64_t t0)
{
	const npu_target *tg = s->tg;
	const npu_prog *p = s->p;
	sim_unit *u = &s->u[NPU_UNIT_HOST];
	const npu_hostcall *hc;
	npu_hostop_fn fn;
	uint64_t bytes = 0, flops, dur;
	uint8_t *data[64];
	const npu_buf *bufs[64];
	npu_hostop_args a;
	npu_err he;

	if (in->imm < 0 || (uint32_t)in->imm >= p->nhcalls)
		return sim_fault(s, NPU_UNIT_HOST, e->pc, t0,
				 "host call %d is not in the table (%u entries)",
				 in->imm, p->nhcalls);
	hc = &p->hcalls[in->imm];
	fn = npu_sim_find_hostop(hc->op);
	if (!fn)
		return sim_fault(s, NPU_UNIT_HOST, e->pc, t0,
				 "host op '%s' is not registered", hc->op);
	if (hc->nargs > 64 || hc->nin > hc->nargs)
		return sim_fault(s, NPU_UNIT_HOST, e->pc, t0,
				 "host call %d has %u arguments (at most 64)",
				 in->imm, hc->nargs);
	for (uint32_t i = 0; i < hc->nargs; i++) {
		if (hc->args[i] >= p->nbufs)
			return sim_fault(s, NPU_UNIT_HOST, e->pc, t0,
					 "host call %d: argument %u is not a buffer",
					 in->imm, i);
		bufs[i] = &p->bufs[hc->args[i]];
		data[i] = npu_sim_buf_data(s, (int)hc->args[i]);
		bytes += bufs[i]->size;
	}
	flops = npu_sim_host_flops(p, hc);
	dur = tg->host_latency +
	      (uint64_t)ceil((double)bytes / tg->host_bytes_per_cycle +
			     (double)flops / tg->host_flops_per_cycle);
	if (!s->o.timing_only) {
		a.prog = p;
		a.hc = hc;
		a.data = data;
		a.bufs = bufs;
		a.nin = hc->nin;
		a.nargs = hc->nargs;
		npu_err_clear(&he);
		if (fn(&a, &he) < 0)
			return sim_fault(s, NPU_UNIT_HOST, e->pc, t0,
					 "host op '%s' failed: %s", hc->op, he.msg);
	}
	s->st.host_calls++;
	s->st.host_flops += flops;
	s->start = t0;
	sim_rec(s, u, t0, t0 + dur, NPU_US_BUSY, e->kx);
	u->t = t0 + dur;
	sim_done(s, u, e->kx, t0 + dur);
	return 0;
}
