/*
 * mem.c - simulated memories: address checks for local memory (SRAM from
 * 0, accumulator SRAM from NPU_ACC_BASE) and DRAM (every access must lie
 * inside one buffer of the program's memory map), and the SRAM bank
 * model.
 *
 * Banks: bank = offset / (size / banks), separately for the SRAM and the
 * accumulator.  An access holds each bank it touches for
 * ceil(bytes on that bank / port_bytes) cycles.  Each bank remembers only
 * its latest window [ws, we) and the unit that holds it; an access by a
 * different unit that would overlap that window moves behind it.  This is
 * the documented approximation: a window that would fit in a gap before
 * an older reservation is still pushed behind the newest one, and a unit
 * never conflicts with itself (its own accesses are already serialized).
 */
#include "config.h"

#include "sim/sim_int.h"

uint8_t *sim_local(npu_sim *s, uint64_t a, uint64_t n)
{
	if (a < s->sram_n && n <= s->sram_n - a)
		return s->sram + a;
	if (a >= NPU_ACC_BASE) {
		uint64_t o = a - NPU_ACC_BASE;
		if (o < s->acc_n && n <= s->acc_n - o)
			return s->acc + o;
	}
	/* An empty access at the end of a memory is still in range. */
	if (n == 0 && a == s->sram_n)
		return s->sram + a;
	return NULL;
}

uint8_t *sim_dram(npu_sim *s, uint64_t a, uint64_t n)
{
	const npu_buf *bufs = s->p->bufs;
	const npu_buf *b;
	uint32_t lo = 0, hi = s->nbufsort;

	if (s->lastbuf < s->nbufsort) {
		b = &bufs[s->bufsort[s->lastbuf]];
		if (a >= b->addr && a - b->addr < b->size && n <= b->size - (a - b->addr))
			return s->dram + a;
	}
	/* Last buffer starting at or below a. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (bufs[s->bufsort[mid]].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	b = &bufs[s->bufsort[lo - 1]];
	if (a - b->addr >= b->size || n > b->size - (a - b->addr))
		return NULL;
	s->lastbuf = lo - 1;
	return s->dram + a;
}

int sim_nbanks(const npu_sim *s)
{
	return s->tg->sram_banks + s->tg->acc_banks;
}

static void bank_bytes(npu_sim *s, int b, uint64_t n)
{
	if (!s->bank_bytes[b])
		s->btouch[s->nbt++] = b;
	s->bank_bytes[b] += n;
}

void sim_bank_add(npu_sim *s, uint64_t a, uint64_t n)
{
	uint64_t sz = s->sram_bank_sz;
	int first = 0;

	if (!n)
		return;
	if (a >= NPU_ACC_BASE) {
		a -= NPU_ACC_BASE;
		sz = s->acc_bank_sz;
		first = s->tg->sram_banks;
	}
	while (n) {
		uint64_t b = a / sz, room = (b + 1) * sz - a;
		uint64_t c = n < room ? n : room;
		bank_bytes(s, first + (int)b, c);
		a += c;
		n -= c;
	}
}

/* Start of a bank window of o cycles for an access [t, t + len). */
static uint64_t win_start(uint64_t t, uint64_t len, uint64_t o, int end_aligned)
{
	if (!end_aligned)
		return t;
	return t + len >= o ? t + len - o : 0;
}

static uint64_t occ_of(const npu_sim *s, int b)
{
	return sim_ceil_div(s->bank_bytes[b], (uint64_t)s->tg->sram_port_bytes);
}

uint64_t sim_bank_occ(const npu_sim *s)
{
	uint64_t m = 0;

	for (int i = 0; i < s->nbt; i++) {
		uint64_t o = occ_of(s, s->btouch[i]);
		if (o > m)
			m = o;
	}
	return m;
}

uint64_t sim_bank_fit(npu_sim *s, int unit, uint64_t t, uint64_t len,
		      int end_aligned)
{
	int moved = 1;

	/* Each move is to the end of some window, so this settles after at
	 * most one pass per touched bank. */
	for (int pass = 0; moved && pass <= s->nbt; pass++) {
		moved = 0;
		for (int i = 0; i < s->nbt; i++) {
			const sim_bank *bk = &s->bank[s->btouch[i]];
			uint64_t o = occ_of(s, s->btouch[i]), ws, we;
			if (bk->owner < 0 || bk->owner == unit)
				continue;
			ws = win_start(t, len, o, end_aligned);
			we = ws + o;
			if (ws < bk->we && bk->ws < we) {
				t += bk->we - ws;
				moved = 1;
			}
		}
	}
	return t;
}

void sim_bank_take(npu_sim *s, int unit, uint64_t t, uint64_t len,
		   int end_aligned)
{
	for (int i = 0; i < s->nbt; i++) {
		int b = s->btouch[i];
		sim_bank *bk = &s->bank[b];
		uint64_t o = occ_of(s, b);
		uint64_t ws = win_start(t, len, o, end_aligned);
		if (bk->owner < 0 || ws + o >= bk->we) {
			bk->ws = ws;
			bk->we = ws + o;
			bk->owner = unit;
		}
		s->bank_bytes[b] = 0;
	}
	s->nbt = 0;
}

void sim_bank_clear(npu_sim *s)
{
	for (int i = 0; i < s->nbt; i++)
		s->bank_bytes[s->btouch[i]] = 0;
	s->nbt = 0;
}
