/*
 * check_models.c - breadth: small models of the common CNN and
 * transformer families (MobileNet v2 and v3, ViT, BERT, GPT-2, Llama with
 * grouped-query attention; DenseNet, ConvNeXt, EfficientNet, T5, and the
 * others of scripts/capture_models) and a
 * model of loose ops (max pooling, grouped convolution, embedding,
 * gather, cumsum, advanced indexing, masked_fill, where), captured from
 * PyTorch 2.11 by
 * scripts/capture_models.  Each compiles, runs on the simulator and
 * matches PyTorch's recorded outputs and the fp64 reference (the harness:
 * tests/fxrun.c).
 *
 * Each case also states how many host calls its program may make: the
 * ops left to the host are listed in docs/compiler.md ("Model
 * coverage"), and a lowering that quietly falls back shows up here.
 */
#include "config.h"

#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/graph.h"
#include "isa/dtype.h"
#include "isa/st.h"
#include "tests/fxrun.h"

typedef struct zoo_case {
	const char *name;
	uint64_t max_host_calls;
} zoo_case;

static const zoo_case zoo[] = {
	{ "mobilenet_v2", 0 },
	{ "mobilenet_v3_small", 0 },
	{ "vit_tiny", 0 },
	{ "bert_tiny", 0 },		/* the int64 padding mask cast to bool */
	{ "gpt2_tiny", 0 },
	{ "llama_gqa", 0 },
	{ "ops", 0 },
	{ "densenet_tiny", 0 },
	{ "convnext_tiny", 0 },
	{ "efficientnet_tiny", 0 },
	{ "t5_tiny", 0 },
	/* families captured for no issue's list (scripts/capture_models) */
	{ "shufflenet_tiny", 0 },
	{ "squeezenet_tiny", 0 },	/* ceil_mode max pooling */
	{ "vgg_tiny", 0 },		/* adaptive pooling 4x4 -> 7x7: a matmul */
	{ "swin_tiny", 0 },
	{ "unet_tiny", 0 },
	{ "mixer_tiny", 0 },
	{ "distilbert_tiny", 0 },	/* the int64 mask cast */
	{ "roberta_tiny", 0 },		/* int64 position ids (ranges), a run-time gather */
	{ "albert_tiny", 0 },
	{ "mistral_tiny", 0 },
	{ "qwen2_tiny", 0 },
	{ "gemma_tiny", 0 },
	{ "phi_tiny", 0 },
	{ "opt_tiny", 0 },
	{ "bloom_tiny", 0 },
	{ "whisper_enc_tiny", 0 },	/* 1-d convolutions */
	{ "googlenet_tiny", 0 },
	{ "regnet_tiny", 0 },
	{ "resnext_tiny", 0 },
	{ "norm_zoo", 0 },
	{ "reductions", 1 },		/* sort */
	{ "clip_vision_tiny", 0 },
	{ "bart_tiny", 0 },
	{ "deberta_tiny", 0 },		/* gathers of relative positions */
	{ "mobilevit_tiny", 0 },
	{ "gpt_neox_tiny", 0 },		/* fused QKV, partial rotary */
	{ "falcon_tiny", 0 },		/* multi-query attention */
	{ "gpt_bigcode_tiny", 0 },
	{ "electra_tiny", 0 },		/* the int64 mask cast */
	{ "wav2vec2_tiny", 0 },		/* grouped 1-d positional convolution */
	{ "segformer_tiny", 0 },	/* spatially reduced attention */
	{ "mnasnet_tiny", 0 },		/* 5x5 depthwise convolutions */
	{ "alexnet_tiny", 0 },		/* adaptive pooling 5x5 -> 6x6: a matmul */
	{ "deeplab_tiny", 0 },		/* bilinear interpolation: gathers */
	{ "video3d_tiny", 0 },		/* 3-d convolutions, max_pool3d */
	{ "lstm_tiny", 0 },		/* nn.LSTM traced into its gates */
	{ "gru_tiny", 0 },
	{ "ops2", 0 },
	{ "mobilebert_tiny", 0 },
	{ "gptj_tiny", 0 },		/* interleaved rotary */
	{ "mpt_tiny", 0 },		/* ALiBi */
	{ "levit_tiny", 0 },
	{ "poolformer_tiny", 0 },	/* avg pooling without the padding in the count */
	{ "squeezebert_tiny", 0 },	/* grouped 1x1 1-d convolutions: batched matmuls */
	{ "convbert_tiny", 0 },		/* softmax over a dim that is not the last */
	{ "dinov2_tiny", 0 },		/* bicubic position-embedding interpolation */
	{ "convnextv2_tiny", 0 },	/* global response normalization */
	{ "swinv2_tiny", 0 },		/* cosine attention, log-spaced position MLP */
	{ "beit_tiny", 0 },
	{ "deit_tiny", 0 },
	{ "clip_text_tiny", 0 },
	{ "t5_full_tiny", 0 },
	{ "xlnet_tiny", 0 },		/* embedding of transposed ids: a DMA copy */
	{ "funnel_tiny", 1 },		/* eight graphs (graph breaks); eq of two int64 tensors */
	{ "layoutlm_tiny", 0 },
	{ "hubert_tiny", 0 },		/* grouped positional 1-d convolution (16 x 16) */
	{ "lraspp_tiny", 0 },
	{ "efficientnet_v2_tiny", 0 },
	{ "ops3", 3 },			/* sort, scatter_add, int64 eq (the
				   index_put of broadcast values a DMA
				   scatter) */
	/* transformers' default attention: scaled_dot_product_attention */
	{ "bert_sdpa", 0 },
	{ "llama_sdpa", 0 },
	{ "vit_hf_sdpa", 0 },
	{ "ops4", 0 },			/* F.fold: index_put by constant indices */
	{ "ops5", 0 },			/* fmod, remainder, div's rounding modes,
				   floor_divide, atan2 with zeros of both signs,
				   infinities and NaN */
	{ "ops6", 0 },			/* matmuls of transposed inputs (B panels
				   loaded transposed) and k^T * scale of
				   repeated keys (the multiply moved onto k) */
	{ "ops7", 1 },			/* captured on PyTorch 1.13: ops its traces
				   keep whole (pixel_shuffle, adaptive max
				   pooling, the smooth L1 and L1 losses,
				   stack, prelu, linspace, unsafe_split), a
				   dilated 1-d convolution, GroupNorm; the
				   embedding bag on the host */
	{ "ops8", 4 },			/* baddbmm, lerp, eye, exp2, fmax/fmin,
				   cummax, cummin; median, kthvalue and a
				   transposed 3-d convolution on the host */
	{ "ops9", 2 },			/* frac, heaviside, the shrinks, nan_to_num,
				   huber_loss, std_mean, repeat_interleave,
				   1-d and 3-d nearest interpolation
				   (indexes by constant tables), affine
				   grids, max unpooling (a zero fill and a
				   DMA scatter a plane); linear 1-d and 3-d
				   interpolation on the host (cheaper
				   there, by pass_decomp.c's estimate) */
	{ "ops10", 1 },			/* and the sixth session's probes: a sum
				   of a column slice, int64 + float, an
				   int64 fill, bool xor, dilated max
				   pooling, rrelu, index_add (clone +
				   index_add_), x[m] = v, reflect and
				   replicate pads, 2x nearest upsampling,
				   InstanceNorm, a one-hot scatter, a
				   clamped gather index, logcumsumexp
				   natively; an empty masked_select on the
				   host */
	{ "ops11", 0 },			/* max and min of every element, NaN
				   propagating (torchvision's batched_nms) */
	{ "ops12", 2 },			/* torchvision's roi_align (host calls:
				   the boxes are data), fixed and adaptive
				   sampling, aligned or not */
	{ "ops13", 7 },			/* topk among ties, in PyTorch CPU's
				   order (host calls: k > 8) */
	{ "ops14", 0 },			/* cat with 1-d empty tensors, skipped
				   (transformers' key/value caches) */
	{ "ops15", 10 },		/* grid_sample (host calls: samples at
				   points that are data), every mode and
				   padding, non-finite points; rows of a
				   permuted view by a run-time index
				   natively (a copy, then a gather);
				   scatter.src and masked_scatter of
				   rows natively */
	{ "ops16", 1 },			/* MoE routers' integer ops: floor
				   and trunc division and clamps of
				   small-range integers in the lanes (the
				   sort's and topk's ranges), int64 ids
				   gathered by positions; the inverse
				   permutation's index_put a DMA scatter;
				   the sort by ranks; an int64 input's
				   division (unknown range) a host call;
				   row sums without keepdim
				   broadcast along the rows; a gather by
				   constant tables of 70,000 positions
				   (F.fold's: a host call past 65,536);
				   as_strided over permuted views, which
				   reads their storage (Longformer's) */
	{ "ops17", 0 },			/* scatters by run-time indices: a
				   static KV cache's index_copy_ into two
				   mutated buffers, index_copy along a
				   middle dim, x[idx] = z by indices that
				   count from the end, in bfloat16 too:
				   DMA scatters (dsct); inference2 its
				   2.11 capture (t_kvcache_in_place) */
	{ "ops6_bf16", 0 },
	/* in bfloat16 and float16 (scripts/capture_models NAME_bf16) */
	{ "mistral_tiny_bf16", 0 },
	{ "distilbert_tiny_bf16", 0 },	/* the int64 mask cast */
	{ "resnext_tiny_bf16", 0 },
	{ "vit_tiny_bf16", 0 },
	{ "gpt2_tiny_bf16", 0 },
	{ "mobilenet_v2_fp16", 0 },
	{ "clip_vision_tiny_fp16", 0 },
	/* families beyond those (this session's capture) */
	{ "mixtral_tiny", 0 },	/* the router's sort of the expert ids
				   by ranks in the lanes, the inverse
				   permutation's int64 index_put a DMA
				   scatter; the experts' grouped_mm and
				   the counts' cumsum native */
	{ "mamba_tiny", 0 },
	{ "wavlm_tiny", 0 },
	{ "gpt_neo_tiny", 0 },
	{ "maxvit_tiny", 0 },
	{ "stablelm_tiny", 0 },
	{ "starcoder2_tiny", 0 },
	{ "olmo_tiny", 0 },
	{ "cohere_tiny", 0 },
	{ "qwen3_tiny", 0 },
	{ "gemma2_tiny", 0 },
	{ "phi3_tiny", 0 },
	{ "granite_tiny", 0 },
	{ "llama_mask", 0 },
	{ "whisper_tiny", 0 },
	{ "w2v_conformer_tiny", 0 },
	{ "pvt_v2_tiny", 0 },
	{ "dpt_tiny", 0 },
	{ "siglip_tiny", 0 },
	{ "tv_vit_tiny", 0 },
	/* a third round, captured on PyTorch 2.11 (scripts/capture_models) */
	{ "roformer_tiny", 0 },		/* rotary attention inside BERT */
	{ "esm_tiny", 0 },		/* protein LM: rotary, token-dropout scaling */
	{ "biogpt_tiny", 0 },
	{ "xglm_tiny", 0 },		/* sinusoidal positions built in the graph */
	{ "qwen2_moe_tiny", 0 },	/* as mixtral_tiny, plus a gated shared expert */
	{ "pegasus_tiny", 0 },
	{ "bit_tiny", 0 },		/* weight-standardized convolutions */
	{ "focalnet_tiny", 0 },		/* focal modulation */
	{ "mobilevitv2_tiny", 0 },	/* F.fold's index_put by constant indices */
	{ "yolos_tiny", 0 },		/* detection tokens, interpolated positions */
	{ "rwkv_tiny", 0 },		/* the WKV recurrence */
	{ "codegen_tiny", 0 },		/* partial rotary, a fused qkv in mp order */
	{ "glpn_tiny", 0 },		/* Mix Transformer, a depth decoder */
	{ "marian_tiny", 0 },
	{ "sew_tiny", 0 },		/* squeezed context: pooled, upsampled */
	{ "speech2text_tiny", 0 },	/* a strided 1-d convolution subsampler, GLU */
	{ "swiftformer_tiny", 0 },	/* efficient additive attention */
	{ "timesformer_tiny", 0 },	/* divided space-time attention */
	{ "videomae_tiny", 0 },		/* tubelets: a 3-d convolution */
	{ "encodec_tiny", 8 },		/* 30 graphs (graph breaks); 1-d transposed
				   convolutions; max of two int64 scalars (the
				   padding's sizes) */
	{ "mamba2_tiny", 0 },		/* the SSD scan in chunks: segment sums */
	{ "deepseek_v3_tiny", 0 },	/* MLA; the group-limited router (an
				   unsorted topk of 2, the sort and the
				   experts native) */
	{ "gemma3_tiny", 0 },		/* sliding-window and global layers */
	{ "olmoe_tiny", 0 },		/* as mixtral_tiny */
	{ "moe_experts", 1 },		/* grouped_mm written by hand: 24
				   experts of 128 x 32 on the array (some
				   with no rows, rows past the last none);
				   8 of 16 x 16, cheaper as the host call */
	{ "upernet_tiny", 0 },		/* pyramid pooling (adaptive 3x3, 6x6 of
				   a channels-last view) over ConvNeXt */
	{ "detr_tiny", 0 },		/* frozen batch norm, sine positions of
				   the mask, object queries */
};

/* NPU_ZOO=a,b runs only those models (a developer's shortcut) */
static int zoo_wanted(const char *name)
{
	const char *w = getenv("NPU_ZOO"), *p;
	size_t n = strlen(name);

	if (!w || !*w)
		return 1;
	for (p = w; (p = strstr(p, name)) != NULL; p += n)
		if ((p == w || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

/* Runs every ATen graph INDEX.json lists for model c (a model with graph
 * breaks has several, each with its recorded inputs and outputs); fr
 * sums their cycles, kernels and host calls and keeps the worst errors. */
static void run_all_graphs(const char *c, fxrun *fr)
{
	char path[1024];
	json_error_t je;
	json_t *idx, *gl;

	snprintf(path, sizeof path, "%s/tests/data/fx/INDEX.json", fx_srcdir());
	ck_assert_msg((idx = json_load_file(path, 0, &je)) != NULL, "%s: %s", path, je.text);
	gl = json_object_get(json_object_get(idx, c), "graphs");
	ck_assert_msg(json_array_size(gl) > 0, "%s: no graphs in INDEX.json", c);
	for (size_t i = 0; i < json_array_size(gl); i++) {
		char cg[512];
		fxrun one = { 0 };
		snprintf(cg, sizeof cg, "%s/%s", c, json_string_value(json_array_get(gl, i)));
		fx_run_graph(cg, &one);
		fr->cycles += one.cycles;
		fr->nkernels += one.nkernels;
		fr->host_calls += one.host_calls;
		fr->worst_rec = one.worst_rec > fr->worst_rec ? one.worst_rec : fr->worst_rec;
		fr->worst_ref = one.worst_ref > fr->worst_ref ? one.worst_ref : fr->worst_ref;
	}
	json_decref(idx);
}

START_TEST(t_model)
{
	const zoo_case *c = &zoo[_i];
	fxrun fr = { 0 };

	if (!zoo_wanted(c->name))
		return;
	fx_setup_tmp();
	run_all_graphs(c->name, &fr);
	fx_teardown_tmp();
	ck_assert_uint_gt(fr.cycles, 0);
	ck_assert_msg(fr.host_calls <= c->max_host_calls,
		      "%s: %llu host calls (at most %llu expected)", c->name,
		      (unsigned long long)fr.host_calls,
		      (unsigned long long)c->max_host_calls);
	printf("%-20s %10llu cycles %3d kernels %3llu host calls, error %.2g (recorded) %.2g (fp64)\n",
	       c->name, (unsigned long long)fr.cycles, fr.nkernels,
	       (unsigned long long)fr.host_calls, fr.worst_rec, fr.worst_ref);
}
END_TEST

/*
 * Single ops in forms the fixtures do not reach: cumsum over lengths
 * that are not powers of two, over the last dim and the first, of length 1
 * (up to 32 in order in one kernel, then by the tree); cumprod both ways;
 * softmax over a middle dim and the first;
 * grouped convolutions with a channel multiplier, stride and dilation,
 * with padding and no bias, with more taps than one kernel takes (7x7
 * depthwise); average pooling with and without padding, adaptive average
 * pooling to a size that divides the input and to sizes that do not,
 * average pooling whose divisor varies at the edges
 * (windows of varying size, shrinking and growing); max pooling of wide
 * planes; convolutions of small planes (computed transposed); dilated
 * convolutions (by their spread weight, and by taps when that is large:
 * every tap, the centre alone, strided); convolutions too large for SRAM
 * (in bands of rows, of columns); a 1-d (and a depthwise 1-d)
 * convolution; grouped 1x1 1-d convolutions; 3-d convolutions (grouped,
 * dilated and transposed ones rewritten); 3-d pooling of more taps than
 * a kernel takes; flip;
 * slice_scatter with a step and to the end, select_scatter; 3-d adaptive
 * average pooling; prod, any, all and vector norms of orders but 2;
 * ops 1.13 keeps whole (below).  Each is a one-node graph
 * written to the temporary folder, run with generated values against
 * the fp64 reference, and must make no host call.
 */
typedef struct op_case {
	const char *target, *args;	/* args: JSON after the input node */
	const char *dtype;
	int64_t in[6], w[6], out[6];	/* 0-terminated shapes; w: a parameter */
} op_case;

static const op_case ops[] = {
	/* PyTorch 1.13's reshape that is a view (aot_function's traces):
	 * as_strided at self's offset, merging dims, splitting one, and with
	 * strides that transpose the storage */
	{ "aten._reshape_alias.default", "[6, 4], [4, 1]", "float32", { 2, 3, 4 }, { 0 }, { 6, 4 } },
	{ "aten._reshape_alias.default", "[2, 3, 2, 2], [12, 4, 2, 1]", "float32", { 2, 3, 4 },
	  { 0 }, { 2, 3, 2, 2 } },
	{ "aten._reshape_alias.default", "[4, 6], [1, 4]", "float32", { 2, 3, 4 }, { 0 }, { 4, 6 } },
	{ "aten.cumsum.default", "1", "float32", { 3, 13, 5 }, { 0 }, { 3, 13, 5 } },
	{ "aten.cumsum.default", "-1", "float32", { 4, 7 }, { 0 }, { 4, 7 } },
	{ "aten.cumsum.default", "0", "float32", { 33, 6 }, { 0 }, { 33, 6 } },
	{ "aten.cumsum.default", "1", "float32", { 5, 1 }, { 0 }, { 5, 1 } },
	/* cumprod: the same scan with a multiply */
	{ "aten.cumprod.default", "1", "float32", { 3, 13, 5 }, { 0 }, { 3, 13, 5 } },
	{ "aten.cumprod.default", "-1", "float32", { 4, 7 }, { 0 }, { 4, 7 } },
	{ "aten.cumprod.default", "0", "float32", { 40, 3 }, { 0 }, { 40, 3 } },
	/* 3-d adaptive average pooling as two 2-d ones: planes and depth,
	 * unbatched, the depth alone */
	{ "aten._adaptive_avg_pool3d.default", "[2, 3, 4]", "float32",
	  { 2, 3, 5, 6, 7 }, { 0 }, { 2, 3, 2, 3, 4 } },
	{ "aten._adaptive_avg_pool3d.default", "[5, 3, 4]", "float32",
	  { 3, 5, 6, 7 }, { 0 }, { 3, 5, 3, 4 } },
	{ "aten._adaptive_avg_pool3d.default", "[2, 6, 7]", "float32",
	  { 1, 3, 5, 6, 7 }, { 0 }, { 1, 3, 2, 6, 7 } },
	/* prod as the cumprod's last element: over a dim, kept, of all */
	{ "aten.prod.dim_int", "1", "float32", { 3, 13, 5 }, { 0 }, { 3, 5 } },
	{ "aten.prod.dim_int", "0, true", "float32", { 6, 4 }, { 0 }, { 1, 4 } },
	{ "aten.prod.default", "", "float32", { 4, 7 }, { 0 }, { 0 } },
	/* any and all through any.dim; vector norms of orders but 2 */
	{ "aten.any.default", "", "bool", { 5, 6 }, { 0 }, { 0 } },
	{ "aten.all.default", "", "bool", { 2, 3 }, { 0 }, { 0 } },
	{ "aten.all.dim", "1, true", "bool", { 3, 4, 5 }, { 0 }, { 3, 1, 5 } },
	{ "aten.any.dims", "[0, 2]", "bool", { 3, 4, 5 }, { 0 }, { 4 } },
	{ "aten.linalg_vector_norm.default", "1, [1]", "float32", { 3, 9 }, { 0 }, { 3 } },
	{ "aten.linalg_vector_norm.default", "{\"float\": \"inf\"}", "float32", { 3, 9 }, { 0 }, { 0 } },
	{ "aten.linalg_vector_norm.default", "{\"float\": \"-inf\"}, [0], true", "float32",
	  { 3, 9 }, { 0 }, { 1, 9 } },
	{ "aten.linalg_vector_norm.default", "0, [1]", "float32", { 3, 9 }, { 0 }, { 3 } },
	{ "aten.linalg_vector_norm.default", "3.5, [0, 1]", "float32", { 3, 9 }, { 0 }, { 0 } },
	/* softmax over a dim that is not the last: over the middle, the first */
	{ "aten._softmax.default", "1, false", "float32", { 3, 9, 5 }, { 0 }, { 3, 9, 5 } },
	{ "aten._softmax.default", "0, false", "float32", { 6, 4 }, { 0 }, { 6, 4 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [2, 2], [0, 0], [2, 2], false, [0, 0], 4",
	  "float32", { 1, 4, 9, 9 }, { 8, 1, 3, 3 }, { 1, 8, 3, 3 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, null, [1, 1], [1, 1], [1, 1], false, [0, 0], 3",
	  "float32", { 2, 6, 5, 5 }, { 6, 2, 3, 3 }, { 2, 6, 5, 5 } },
	{ "aten.convolution.default",	/* ConvNeXt's 7x7 depthwise: 2 kernels */
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [3, 3], [1, 1], false, [0, 0], 4",
	  "float32", { 1, 4, 9, 9 }, { 4, 1, 7, 7 }, { 1, 4, 9, 9 } },
	{ "aten.convolution.default",	/* 4 x 3 x 3 taps, 2 outputs per group */
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [1, 1], [1, 1], false, [0, 0], 2",
	  "float32", { 1, 8, 6, 6 }, { 4, 4, 3, 3 }, { 1, 4, 6, 6 } },
	{ "aten.avg_pool2d.default", "[2, 2], [2, 2]", "float32",
	  { 1, 3, 8, 8 }, { 0 }, { 1, 3, 4, 4 } },
	{ "aten.avg_pool2d.default", "[3, 3], [1, 1], [1, 1]", "float32",
	  { 2, 4, 5, 5 }, { 0 }, { 2, 4, 5, 5 } },
	/* divisors that vary at the edges: padding left out of the count
	 * (PoolFormer), ceil_mode's windows over the end, both */
	{ "aten.avg_pool2d.default", "[3, 3], [1, 1], [1, 1], false, false", "float32",
	  { 1, 3, 7, 6 }, { 0 }, { 1, 3, 7, 6 } },
	{ "aten.avg_pool2d.default", "[3, 3], [2, 2], [0, 0], true, true", "float32",
	  { 2, 2, 8, 9 }, { 0 }, { 2, 2, 4, 4 } },
	{ "aten.avg_pool2d.default", "[3, 2], [2, 2], [1, 1], true, false", "float32",
	  { 1, 2, 6, 7 }, { 0 }, { 1, 2, 4, 4 } },
	{ "aten._adaptive_avg_pool2d.default", "[3, 2]", "float32",
	  { 1, 4, 6, 6 }, { 0 }, { 1, 4, 3, 2 } },
	/* a window far larger than the plane (EfficientNet's AvgPool2d of
	 * its channel count, ceil_mode): the taps that reach it */
	{ "aten.avg_pool2d.default", "[2560, 2560], [2560, 2560], [0, 0], true", "float32",
	  { 1, 3, 7, 7 }, { 0 }, { 1, 3, 1, 1 } },
	/* global pools of more taps than a kernel has operands: a mean */
	{ "aten._adaptive_avg_pool2d.default", "[1, 1]", "float32",
	  { 2, 3, 14, 14 }, { 0 }, { 2, 3, 1, 1 } },
	{ "aten.avg_pool2d.default", "[14, 14]", "float32",
	  { 1, 2, 14, 14 }, { 0 }, { 1, 2, 1, 1 } },
	/* other pools of that many taps: a matmul by a pooling matrix
	 * (divisors as PyTorch counts them, and an override) */
	{ "aten.avg_pool2d.default", "[8, 8]", "float32",
	  { 1, 2, 16, 16 }, { 0 }, { 1, 2, 2, 2 } },
	{ "aten.avg_pool2d.default", "[9, 9], [3, 3], [2, 2], true, false", "float32",
	  { 1, 2, 20, 20 }, { 0 }, { 1, 2, 6, 6 } },
	{ "aten.avg_pool2d.default", "[2560, 2560], [2560, 2560], [0, 0], true, true, 5", "float32",
	  { 1, 2, 9, 9 }, { 0 }, { 1, 2, 1, 1 } },
	/* unbatched pooling ([C, H, W]): as a batch of one (decomp.def's
	 * alternatives); a global pool of that many taps stays a mean */
	{ "aten.avg_pool2d.default", "[3, 3], [2, 2], [1, 1], true, false", "float32",
	  { 3, 8, 7 }, { 0 }, { 3, 5, 4 } },
	{ "aten._adaptive_avg_pool2d.default", "[3, 2]", "float32",
	  { 4, 6, 6 }, { 0 }, { 4, 3, 2 } },
	{ "aten._adaptive_avg_pool2d.default", "[1, 1]", "float32",
	  { 3, 14, 14 }, { 0 }, { 3, 1, 1 } },
	/* a depthwise 1-d convolution (Conformer, Mamba), dilated */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1], [2], [2], false, [0], 6",
	  "float32", { 2, 6, 11 }, { 6, 1, 3 }, { 2, 6, 11 } },
	/* sizes that do not divide: windows of varying size (a matmul) */
	{ "aten._adaptive_avg_pool2d.default", "[3, 3]", "float32",
	  { 2, 3, 5, 5 }, { 0 }, { 2, 3, 3, 3 } },
	{ "aten._adaptive_avg_pool2d.default", "[7, 6]", "float32",
	  { 1, 4, 4, 5 }, { 0 }, { 1, 4, 7, 6 } },
	/* max pooling from whole rows in SRAM (planes of 32 and wider):
	 * ResNet's window with padding; ceil_mode's overhang; a kernel of 2
	 * at stride 1; groups of planes across the batch; a stride wider
	 * than the kernel */
	{ "aten.max_pool2d_with_indices.default", "[3, 3], [2, 2], [1, 1]", "float32",
	  { 1, 3, 40, 40 }, { 0 }, { 1, 3, 20, 20 } },
	{ "aten.max_pool2d_with_indices.default", "[3, 3], [2, 2], [0, 0], [1, 1], true", "float32",
	  { 2, 3, 33, 35 }, { 0 }, { 2, 3, 16, 17 } },
	{ "aten.max_pool2d_with_indices.default", "[2, 2], [1, 1]", "float32",
	  { 1, 2, 36, 36 }, { 0 }, { 1, 2, 35, 35 } },
	{ "aten.max_pool2d_with_indices.default", "[3, 3], [2, 2], [1, 1]", "float32",
	  { 2, 20, 34, 34 }, { 0 }, { 2, 20, 17, 17 } },
	{ "aten.max_pool2d_with_indices.default", "[2, 2], [3, 3]", "float32",
	  { 1, 2, 35, 35 }, { 0 }, { 1, 2, 12, 12 } },
	/* small planes computed transposed (emit_convt.c): ResNet's
	 * layer-4 3x3, its stride-2 entry, and 200 output channels (a
	 * narrower last block) on a 5x5 plane */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [1, 1], [1, 1], false, [0, 0], 1",
	  "float32", { 1, 512, 7, 7 }, { 512, 512, 3, 3 }, { 1, 512, 7, 7 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [2, 2], [1, 1], [1, 1], false, [0, 0], 1",
	  "float32", { 1, 256, 14, 14 }, { 512, 256, 3, 3 }, { 1, 512, 7, 7 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [1, 1], [1, 1], false, [0, 0], 1",
	  "float32", { 1, 160, 5, 5 }, { 200, 160, 3, 3 }, { 1, 200, 5, 5 } },
	/* ResNet-18's layer 2: blocks of 256 columns, which start and end
	 * inside the 28-wide rows */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [1, 1], [1, 1], false, [0, 0], 1",
	  "float32", { 1, 128, 28, 28 }, { 128, 128, 3, 3 }, { 1, 128, 28, 28 } },
	/* a dilated convolution (2x3), stride 2: the spread weight */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [2, 1], [2, 1], [2, 3], false, [0, 0], 1",
	  "float32", { 1, 3, 11, 10 }, { 4, 3, 3, 2 }, { 1, 4, 6, 9 } },
	/* dilated convolutions whose spread weight would be over 4096 rows:
	 * 1x1 convolutions of the padded image's shifted views, summed;
	 * every tap, only the centre one (the others read the padding:
	 * DeepLabv3's ASPP), and a strided one */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [6, 6], [6, 6], false, [0, 0], 1",
	  "float32", { 1, 64, 14, 14 }, { 32, 64, 3, 3 }, { 1, 32, 14, 14 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [24, 24], [24, 24], false, [0, 0], 1",
	  "float32", { 1, 64, 14, 14 }, { 32, 64, 3, 3 }, { 1, 32, 14, 14 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, null, [2, 2], [4, 4], [4, 4], false, [0, 0], 1",
	  "float32", { 1, 80, 15, 15 }, { 16, 80, 3, 3 }, { 1, 16, 8, 8 } },
	/* convolutions too large for SRAM in one piece, in bands: of output
	 * columns (a 1-d one over 8000 samples, stride 2, as Wav2Vec2's
	 * feature encoder), of output rows (a 380 x 380 image) */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [2], [1], [1], false, [0], 1",
	  "float32", { 1, 256, 8000 }, { 96, 256, 3 }, { 1, 96, 4000 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [1, 1], [1, 1], false, [0, 0], 1",
	  "float32", { 1, 24, 380, 380 }, { 16, 24, 3, 3 }, { 1, 16, 380, 380 } },
	/* a 1-d convolution: stride 2, padding 1, bias */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [2], [1], [1], false, [0], 1",
	  "float32", { 2, 4, 9 }, { 6, 4, 3 }, { 2, 6, 5 } },
	/* x with a slice of it replaced by w: stepped, to the end, selected */
	{ "aten.slice_scatter.default", "{\"node\": \"w\"}, 1, 2, 8, 2", "float32",
	  { 4, 16 }, { 4, 3 }, { 4, 16 } },
	/* x with the elements of a strided view of it replaced by w: rows
	 * stepped from an offset, and a transposed view (aot_autograd's
	 * functionalized in-place view writes) */
	{ "aten.as_strided_scatter.default", "{\"node\": \"w\"}, [3, 4], [16, 2], 5",
	  "float32", { 4, 16 }, { 3, 4 }, { 4, 16 } },
	{ "aten.as_strided_scatter.default", "{\"node\": \"w\"}, [4, 3], [1, 16]",
	  "float32", { 4, 16 }, { 4, 3 }, { 4, 16 } },
	/* activation gradients as aot_autograd leaves them without the core
	 * decompositions (x is grad_output, w self or the forward's result) */
	{ "aten.threshold_backward.default", "{\"node\": \"w\"}, 0", "float32",
	  { 4, 33 }, { 4, 33 }, { 4, 33 } },
	{ "aten.sigmoid_backward.default", "{\"node\": \"w\"}", "float32",
	  { 4, 33 }, { 4, 33 }, { 4, 33 } },
	{ "aten.tanh_backward.default", "{\"node\": \"w\"}", "float32",
	  { 4, 33 }, { 4, 33 }, { 4, 33 } },
	{ "aten.silu_backward.default", "{\"node\": \"w\"}", "float32",
	  { 4, 33 }, { 4, 33 }, { 4, 33 } },
	{ "aten.gelu_backward.default", "{\"node\": \"w\"}", "float32",
	  { 4, 33 }, { 4, 33 }, { 4, 33 } },
	{ "aten.hardtanh_backward.default", "{\"node\": \"w\"}, -0.5, 0.25", "float32",
	  { 4, 33 }, { 4, 33 }, { 4, 33 } },
	{ "aten.leaky_relu_backward.default", "{\"node\": \"w\"}, 0.1, false", "float32",
	  { 4, 33 }, { 4, 33 }, { 4, 33 } },
	{ "aten.hardswish_backward.default", "{\"node\": \"w\"}", "float32",
	  { 4, 33 }, { 4, 33 }, { 4, 33 } },
	{ "aten.hardsigmoid_backward.default", "{\"node\": \"w\"}", "float32",
	  { 4, 33 }, { 4, 33 }, { 4, 33 } },
	/* repeat (with a new leading dim), diagonal (a view), pads that crop */
	{ "aten.repeat.default", "[2, 3]", "float32", { 3, 4 }, { 0 }, { 6, 12 } },
	{ "aten.repeat.default", "[2, 1, 3]", "float32", { 4, 5 }, { 0 }, { 2, 4, 15 } },
	{ "aten.diagonal.default", "1, 1, 2", "float32", { 2, 5, 6 }, { 0 }, { 2, 5 } },
	/* unfold (a view: HaloNet's neighbourhoods), overlapping windows,
	 * and a step past the size that leaves elements out */
	{ "aten.unfold.default", "2, 3, 2", "float32", { 2, 4, 9 }, { 0 }, { 2, 4, 4, 3 } },
	{ "aten.unfold.default", "-2, 2, 1", "float32", { 3, 5, 4 }, { 0 }, { 3, 4, 4, 2 } },
	{ "aten.unfold.default", "0, 2, 3", "float32", { 8, 6 }, { 0 }, { 3, 6, 2 } },
	{ "aten.constant_pad_nd.default", "[-1, 2, 1, -2], 0.5", "float32", { 3, 6, 7 }, { 0 }, { 3, 5, 8 } },
	{ "aten.constant_pad_nd.default", "[-1, -1]", "float32", { 4, 6 }, { 0 }, { 4, 4 } },
	/* decomposed elementwise ops: sign, ceil, trunc, expm1 (Kahan's form) */
	{ "aten.sign.default", "", "float32", { 4, 9 }, { 0 }, { 4, 9 } },
	{ "aten.ceil.default", "", "float32", { 4, 9 }, { 0 }, { 4, 9 } },
	{ "aten.trunc.default", "", "float32", { 4, 9 }, { 0 }, { 4, 9 } },
	{ "aten.expm1.default", "", "float32", { 4, 9 }, { 0 }, { 4, 9 } },
	/* a transposing copy in tiles of planes, the last tile short (32
	 * planes, 6 a tile): each engine keeps its part of the staging
	 * area, which the race check sees */
	{ "aten.permute.default", "[0, 1, 3, 2]", "float32", { 1, 32, 64, 80 }, { 0 },
	  { 1, 32, 80, 64 } },
	/* flip: of the last dim (a gather of elements), of the first two
	 * (of rows) */
	{ "aten.flip.default", "[-1]", "float32", { 3, 5, 7 }, { 0 }, { 3, 5, 7 } },
	{ "aten.flip.default", "[0, 1]", "float32", { 3, 4, 6 }, { 0 }, { 3, 4, 6 } },
	/* grouped 1x1 1-d convolutions, several input channels a group: a
	 * batched matmul (two images with a bias; one image, no bias) */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1], [0], [1], false, [0], 2",
	  "float32", { 2, 8, 10 }, { 6, 4, 1 }, { 2, 6, 10 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, null, [1], [0], [1], false, [0], 4",
	  "float32", { 1, 8, 5 }, { 8, 2, 1 }, { 1, 8, 5 } },
	/* cdist of order 2 (the direct form) */
	{ "aten._cdist_forward.default", "{\"node\": \"w\"}, 2.0, null", "float32",
	  { 2, 5, 7 }, { 2, 6, 7 }, { 2, 5, 6 } },
	/* 3-d pooling: max with padding and stride, a [1, 2, 2] window in
	 * place, ceil_mode's windows past the end; average in place, and
	 * with padding counted */
	{ "aten.max_pool3d_with_indices.default", "[3, 3, 3], [2, 2, 2], [1, 1, 1]", "float32",
	  { 1, 3, 6, 9, 9 }, { 0 }, { 1, 3, 3, 5, 5 } },
	{ "aten.max_pool3d_with_indices.default", "[1, 2, 2], [1, 2, 2]", "float32",
	  { 2, 2, 3, 8, 6 }, { 0 }, { 2, 2, 3, 4, 3 } },
	{ "aten.max_pool3d_with_indices.default", "[2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1], true", "float32",
	  { 1, 2, 5, 5, 7 }, { 0 }, { 1, 2, 3, 3, 4 } },
	{ "aten.avg_pool3d.default", "[2, 2, 2], [2, 2, 2]", "float32",
	  { 1, 3, 4, 6, 6 }, { 0 }, { 1, 3, 2, 3, 3 } },
	{ "aten.avg_pool3d.default", "[3, 3, 3], [1, 1, 1], [1, 1, 1]", "float32",
	  { 1, 2, 4, 5, 5 }, { 0 }, { 1, 2, 4, 5, 5 } },
	/* more taps than a kernel takes, added (S3D's 2 x 7 x 7 average)
	 * or maxed through a partial */
	{ "aten.avg_pool3d.default", "[2, 7, 7], [1, 1, 1]", "float32",
	  { 1, 2, 4, 9, 9 }, { 0 }, { 1, 2, 3, 3, 3 } },
	{ "aten.max_pool3d_with_indices.default", "[3, 5, 5], [1, 2, 2]", "float32",
	  { 1, 2, 5, 11, 11 }, { 0 }, { 1, 2, 3, 4, 4 } },
	/* grouped 1-d convolutions of several channels a group and K taps
	 * (Wav2Vec2's positional one: padding K/2, L + 1 outputs), and
	 * strided, dilated, without bias: the taps stacked into channels */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1], [8], [1], false, [0], 4",
	  "float32", { 2, 8, 20 }, { 8, 2, 16 }, { 2, 8, 21 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, null, [2], [1], [2], false, [0], 3",
	  "float32", { 1, 6, 15 }, { 9, 2, 3 }, { 1, 9, 7 } },
	/* 3-d convolutions: depth taps stacked into the channels; with
	 * depth padding and stride, with spatial padding and no bias */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 2, 2], [1, 2, 2], [1, 1, 1], false, [0, 0, 0], 1",
	  "float32", { 1, 3, 4, 12, 12 }, { 8, 3, 3, 5, 5 }, { 1, 8, 4, 6, 6 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, null, [2, 1, 1], [0, 1, 1], [1, 1, 1], false, [0, 0, 0], 1",
	  "float32", { 2, 4, 5, 6, 6 }, { 6, 4, 2, 3, 3 }, { 2, 6, 2, 6, 6 } },
	/* convolutions fuse.c runs rewritten (pass_decomp.c's @convx): a
	 * transposed 3-d one (zeros inserted, then a 3-d one), a grouped
	 * 3-d one (in bfloat16 too) and a dilated one (2-d ones over the
	 * depth taps stacked group by group), a dilated transposed 2-d one */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, null, [2, 2, 2], [1, 1, 1], [1, 1, 1], true, [1, 1, 1], 1",
	  "float32", { 1, 16, 3, 8, 8 }, { 16, 8, 3, 3, 3 }, { 1, 8, 6, 16, 16 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 2, 2], [1, 1, 1], [1, 1, 1], false, [0, 0, 0], 6",
	  "float32", { 1, 24, 4, 14, 14 }, { 48, 4, 3, 3, 3 }, { 1, 48, 4, 7, 7 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 2, 2], [1, 1, 1], [1, 1, 1], false, [0, 0, 0], 6",
	  "bfloat16", { 1, 24, 4, 14, 14 }, { 48, 4, 3, 3, 3 }, { 1, 48, 4, 7, 7 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, null, [1, 1, 1], [2, 2, 2], [2, 2, 2], false, [0, 0, 0], 1",
	  "float32", { 1, 8, 6, 12, 12 }, { 8, 8, 3, 3, 3 }, { 1, 8, 6, 12, 12 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [2, 2], [2, 2], [2, 2], true, [1, 1], 1",
	  "float32", { 1, 16, 8, 8 }, { 16, 16, 3, 3 }, { 1, 16, 16, 16 } },
	/* convolutions in 2-byte types with the bias as a K row, rows of A
	 * [OC][K + 1] an odd number of elements long (K = 96, 144, 576, 72)
	 * and even (147): a 1x1 one on a 7x7 plane whose plain-copy epilogue
	 * leaves by dstc after 98-byte rows had set ss2 (which faulted),
	 * two images, several blocks, more output channels than a block,
	 * the stem's window */
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [0, 0], [1, 1], false, [0, 0], 1",
	  "bfloat16", { 1, 96, 7, 7 }, { 24, 96, 1, 1 }, { 1, 24, 7, 7 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [0, 0], [1, 1], false, [0, 0], 1",
	  "float16", { 1, 96, 7, 7 }, { 24, 96, 1, 1 }, { 1, 24, 7, 7 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [1, 1], [1, 1], false, [0, 0], 1",
	  "bfloat16", { 2, 16, 10, 10 }, { 32, 16, 3, 3 }, { 2, 32, 10, 10 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [1, 1], [1, 1], false, [0, 0], 1",
	  "bfloat16", { 1, 64, 28, 28 }, { 64, 64, 3, 3 }, { 1, 64, 28, 28 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [1, 1], [1, 1], [1, 1], false, [0, 0], 1",
	  "bfloat16", { 1, 8, 16, 16 }, { 200, 8, 3, 3 }, { 1, 200, 16, 16 } },
	{ "aten.convolution.default",
	  "{\"node\": \"w\"}, {\"node\": \"b\"}, [2, 2], [3, 3], [1, 1], false, [0, 0], 1",
	  "float16", { 1, 3, 32, 32 }, { 16, 3, 7, 7 }, { 1, 16, 16, 16 } },
	{ "aten.slice_scatter.default", "{\"node\": \"w\"}, 0, -2, 9223372036854775807", "float32",
	  { 6, 8 }, { 2, 8 }, { 6, 8 } },
	{ "aten.select_scatter.default", "{\"node\": \"w\"}, 1, -2", "float32",
	  { 3, 5, 6 }, { 3, 6 }, { 3, 5, 6 } },
	/* ops PyTorch 1.13's traces keep whole, natively: empty_like (zeros),
	 * pixel_shuffle and pixel_unshuffle, adaptive max pooling whose sizes
	 * divide, prelu, exp2, fmax, lerp by a number past 0.5, the smooth
	 * L1, L1 and Huber losses unreduced, heaviside, frac, the shrinks */
	{ "aten.empty_like.default", "", "float32", { 3, 5 }, { 0 }, { 3, 5 } },
	{ "aten.pixel_shuffle.default", "2", "float32", { 2, 8, 3, 5 }, { 0 }, { 2, 2, 6, 10 } },
	{ "aten.pixel_unshuffle.default", "3", "float32", { 1, 2, 6, 9 }, { 0 }, { 1, 18, 2, 3 } },
	{ "aten.adaptive_max_pool2d.default", "[3, 2]", "float32",
	  { 2, 3, 9, 8 }, { 0 }, { 2, 3, 3, 2 } },
	{ "aten.prelu.default", "{\"node\": \"w\"}", "float32", { 2, 4, 5 }, { 4 }, { 2, 4, 5 } },
	{ "aten.exp2.default", "", "float32", { 4, 9 }, { 0 }, { 4, 9 } },
	{ "aten.fmax.default", "{\"node\": \"w\"}", "float32", { 3, 6 }, { 3, 6 }, { 3, 6 } },
	{ "aten.lerp.Scalar", "{\"node\": \"w\"}, 0.8", "float32", { 3, 6 }, { 3, 6 }, { 3, 6 } },
	{ "aten.smooth_l1_loss.default", "{\"node\": \"w\"}, 0, 0.5", "float32",
	  { 3, 6 }, { 3, 6 }, { 3, 6 } },
	{ "aten.l1_loss.default", "{\"node\": \"w\"}, 0", "float32", { 3, 6 }, { 3, 6 }, { 3, 6 } },
	{ "aten.huber_loss.default", "{\"node\": \"w\"}, 0, 0.7", "float32",
	  { 3, 6 }, { 3, 6 }, { 3, 6 } },
	{ "aten.heaviside.default", "{\"node\": \"w\"}", "float32", { 3, 6 }, { 3, 6 }, { 3, 6 } },
	{ "aten.frac.default", "", "float32", { 4, 9 }, { 0 }, { 4, 9 } },
	{ "aten.hardshrink.default", "0.3", "float32", { 4, 9 }, { 0 }, { 4, 9 } },
	{ "aten.softshrink.default", "0.3", "float32", { 4, 9 }, { 0 }, { 4, 9 } },
	{ "aten.nan_to_num.default", "0.5, 7.0", "float32", { 4, 9 }, { 0 }, { 4, 9 } },
	/* rrelu in evaluation (its noise unread): a leaky ReLU */
	{ "aten.rrelu_with_noise.default", "{\"node\": \"w\"}, 0.1, 0.3", "float32",
	  { 4, 9 }, { 4, 9 }, { 4, 9 } },
	/* reflection and replication padding as indexes by constant tables,
	 * one a padded dim (1.13 keeps them whole) */
	{ "aten.reflection_pad2d.default", "[2, 1, 1, 2]", "float32",
	  { 1, 3, 6, 7 }, { 0 }, { 1, 3, 9, 10 } },
	{ "aten.reflection_pad1d.default", "[2, 3]", "float32", { 2, 3, 8 }, { 0 }, { 2, 3, 13 } },
	{ "aten.replication_pad3d.default", "[1, 0, 0, 2, 1, 1]", "float32",
	  { 1, 2, 3, 4, 5 }, { 0 }, { 1, 2, 5, 6, 6 } },
	/* nearest upsampling as indexes by constant tables: to a size, and
	 * by scale factors (1 / s in float32, as PyTorch samples) */
	{ "aten.upsample_nearest2d.vec", "[7, 9], null", "float32",
	  { 1, 2, 4, 5 }, { 0 }, { 1, 2, 7, 9 } },
	{ "aten.upsample_nearest2d.vec", "null, [1.5, 2.0]", "float32",
	  { 1, 2, 4, 5 }, { 0 }, { 1, 2, 6, 10 } },
	{ "aten.upsample_nearest3d.vec", "null, [2.0, 1.0, 3.0]", "float32",
	  { 1, 1, 2, 3, 4 }, { 0 }, { 1, 1, 4, 3, 12 } },
	/* small affine grids (float32, bfloat16): constant coordinates
	 * times theta's columns (larger ones stay host calls: check_passes
	 * resample_decomposed) */
	{ "aten.affine_grid_generator.default", "[2, 1, 4, 5], false", "float32",
	  { 2, 2, 3 }, { 0 }, { 2, 4, 5, 2 } },
	{ "aten.affine_grid_generator.default", "[1, 1, 2, 3, 4], true", "float32",
	  { 1, 3, 4 }, { 0 }, { 1, 2, 3, 4, 3 } },
	{ "aten.affine_grid_generator.default", "[1, 3, 1, 6], true", "float32",
	  { 1, 2, 3 }, { 0 }, { 1, 1, 6, 2 } },
	{ "aten.affine_grid_generator.default", "[2, 1, 3, 5], false", "bfloat16",
	  { 2, 2, 3 }, { 0 }, { 2, 3, 5, 2 } },
	/* dilated max pooling, its taps views dl apart: ceil_mode's last
	 * windows past the end, and uneven windows and dilations */
	{ "aten.max_pool2d_with_indices.default", "[3, 3], [2, 2], [1, 1], [2, 2], true",
	  "float32", { 1, 3, 40, 40 }, { 0 }, { 1, 3, 20, 20 } },
	{ "aten.max_pool2d_with_indices.default", "[2, 3], [1, 2], [1, 1], [3, 2]",
	  "float32", { 2, 2, 9, 11 }, { 0 }, { 2, 2, 8, 5 } },
};

/* "[a, b, c]" of a 0-terminated shape; contiguous strides when st */
static void jshape(char *p, size_t n, const int64_t *s, int st)
{
	int nd = 0, o;
	int64_t str = 1, v[6];

	while (nd < 6 && s[nd])
		nd++;
	for (int d = nd - 1; d >= 0; d--) {
		v[d] = st ? str : s[d];
		str *= s[d];
	}
	o = snprintf(p, n, "[");
	for (int d = 0; d < nd; d++)
		o += snprintf(p + o, n - (size_t)o, "%s%lld", d ? ", " : "", (long long)v[d]);
	snprintf(p + o, n - (size_t)o, "]");
}

static void jmeta(char *p, size_t n, const int64_t *s, const char *dt)
{
	char sh[96], st[96];

	jshape(sh, sizeof sh, s, 0);
	jshape(st, sizeof st, s, 1);
	snprintf(p, n, "{\"shape\": %s, \"dtype\": \"%s\", \"stride\": %s, \"storage_offset\": 0}",
		 sh, dt, st);
}

/* Starts a one-op graph in a new temporary folder: path and vals (n
 * bytes each) get the graph's and its values' paths, the graph's header
 * is written. */
static FILE *graph_begin(char *path, char *vals, size_t n)
{
	FILE *f;

	fx_setup_tmp();
	snprintf(path, n, "%s/g.json", fx_tmpdir);
	snprintf(vals, n, "%s/v.safetensors", fx_tmpdir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fprintf(f, "{\"format\": \"fxgraph\", \"version\": 1, \"name\": \"op/inference1\", "
		"\"graph_kind\": \"inference\", \"nodes\": [\n");
	return f;
}

/* Ends the graph being written to f with its output node, the results
 * being the nodes named in outs ("y" or "y, yi"). */
static void graph_end(FILE *f, const char *outs)
{
	char buf[64], *save = NULL;

	snprintf(buf, sizeof buf, "%s", outs);
	fprintf(f, "{\"name\": \"output\", \"op\": \"output\", \"target\": \"output\", \"args\": [[");
	for (char *t = strtok_r(buf, ", ", &save), *sep = ""; t; t = strtok_r(NULL, ", ", &save), sep = ", ")
		fprintf(f, "%s{\"node\": \"%s\"}", sep, t);
	fprintf(f, "]], \"kwargs\": {}}]}\n");
	fclose(f);
}

/* Runs the graph at path with the values in vals against the fp64
 * reference; removes the temporary folder. */
static void vals_run(const char *path, const char *vals, fxrun *fr)
{
	npu_stfile st;
	npu_err e;

	ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "%s", e.msg);
	fx_run_values(path, &st, 0, fr);
	npu_st_free(&st);
	fx_teardown_tmp();
}

/* Ends the graph being written to f (at path; its results are the nodes
 * outs names, "a, b"), gives its placeholders generated values (at vals)
 * and runs it against the fp64 reference; removes the temporary folder. */
static void graph_run_outs(FILE *f, const char *path, const char *vals,
			   const char *outs, fxrun *fr)
{
	npu_graph *g;
	npu_err e;

	graph_end(f, outs);
	ck_assert_msg(npu_graph_read(&g, path, &e) == 0, "%s", e.msg);
	fx_gen_values(g, vals);
	npu_graph_free(g);
	vals_run(path, vals, fr);
}

/* graph_run_outs of a one-op graph, whose result is node "y". */
static void graph_run(FILE *f, const char *path, const char *vals, fxrun *fr)
{
	graph_run_outs(f, path, vals, "y", fr);
}

/* Writes the nt tensors t as the graph's values (at vals), freeing their
 * data, and runs it (vals_run). */
static void tensors_run(const char *path, const char *vals, npu_tensor *t, size_t nt,
			fxrun *fr)
{
	npu_err e;

	ck_assert_msg(npu_st_write(vals, t, nt, NULL, &e) == 0, "%s", e.msg);
	for (size_t i = 0; i < nt; i++)
		free(t[i].data);
	vals_run(path, vals, fr);
}

/* Runs op case c on target (a name) against the fp64 reference: no host
 * call. */
static void op_run(const op_case *c, const char *target, int i)
{
	char path[1024], vals[1024], mi[300], mw[300], mo[300], mb[300];
	int64_t bs[2] = { c->w[0], 0 };
	fxrun fr = { .o.target = target };
	FILE *f;

	jmeta(mi, sizeof mi, c->in, c->dtype);
	jmeta(mw, sizeof mw, c->w, c->dtype);
	jmeta(mb, sizeof mb, bs, c->dtype);
	jmeta(mo, sizeof mo, c->out, c->dtype);
	f = graph_begin(path, vals, sizeof path);
	if (c->w[0]) {
		fprintf(f, "{\"name\": \"w\", \"op\": \"placeholder\", \"target\": \"w\", \"args\": [], "
			"\"kwargs\": {}, \"meta\": %s, \"kind\": \"parameter\", \"source\": \"l_conv_weight_\"},\n", mw);
		fprintf(f, "{\"name\": \"b\", \"op\": \"placeholder\", \"target\": \"b\", \"args\": [], "
			"\"kwargs\": {}, \"meta\": %s, \"kind\": \"parameter\", \"source\": \"l_conv_bias_\"},\n", mb);
	}
	fprintf(f, "{\"name\": \"x\", \"op\": \"placeholder\", \"target\": \"x\", \"args\": [], "
		"\"kwargs\": {}, \"meta\": %s, \"kind\": \"input\", \"source\": \"l_x_\"},\n", mi);
	if (strstr(c->target, "with_indices") || strstr(c->target, "adaptive_max")) {
		/* (values, indices): the graph's output is the values */
		char mx[300];
		jmeta(mx, sizeof mx, c->out, "int64");
		fprintf(f, "{\"name\": \"y2\", \"op\": \"call_function\", \"target\": \"%s\", "
			"\"args\": [{\"node\": \"x\"}, %s], \"kwargs\": {}, \"meta\": [%s, %s]},\n",
			c->target, c->args, mo, mx);
		fprintf(f, "{\"name\": \"y\", \"op\": \"call_function\", \"target\": \"_operator.getitem\", "
			"\"args\": [{\"node\": \"y2\"}, 0], \"kwargs\": {}, \"meta\": %s},\n", mo);
	} else {
		fprintf(f, "{\"name\": \"y\", \"op\": \"call_function\", \"target\": \"%s\", "
			"\"args\": [{\"node\": \"x\"}%s%s], \"kwargs\": {}, \"meta\": %s},\n",
			c->target, *c->args ? ", " : "", c->args, mo);
	}
	graph_run(f, path, vals, &fr);
	ck_assert_msg(fr.host_calls == 0, "%s (case %d on %s): %llu host calls", c->target,
		      i, target, (unsigned long long)fr.host_calls);
}

START_TEST(t_op)
{
	op_run(&ops[_i], "npu-base", _i);
}
END_TEST

/*
 * Linear and bilinear resizes (1.13 keeps both whole, 2.11 the 1-d one)
 * as two indexes by constant tables and weights a resized dim, up and
 * down, align_corners both ways, by scale factors, in bfloat16 and
 * float16: natively on npu-edge, whose host is far (npu-base's host
 * call costs less, by pass_decomp.c's estimate; check_passes
 * resample_decomposed).
 */
static const op_case edge_ops[] = {
	{ "aten.upsample_linear1d.vec", "[12], false, null", "float32",
	  { 2, 3, 7 }, { 0 }, { 2, 3, 12 } },
	{ "aten.upsample_linear1d.vec", "[5], true, null", "float32",
	  { 2, 3, 7 }, { 0 }, { 2, 3, 5 } },
	{ "aten.upsample_linear1d.vec", "null, false, [1.7]", "bfloat16",
	  { 2, 3, 7 }, { 0 }, { 2, 3, 11 } },
	{ "aten.upsample_linear1d.vec", "[3], false, null", "float16",
	  { 2, 3, 7 }, { 0 }, { 2, 3, 3 } },
	{ "aten.upsample_bilinear2d.vec", "[9, 4], true, null", "float32",
	  { 1, 2, 5, 6 }, { 0 }, { 1, 2, 9, 4 } },
	{ "aten.upsample_bilinear2d.vec", "[4, 8], false, null", "float32",
	  { 1, 2, 5, 6 }, { 0 }, { 1, 2, 4, 8 } },
};

START_TEST(t_op_edge)
{
	op_run(&edge_ops[_i], "npu-edge", _i);
}
END_TEST

/*
 * A convolution, a ReLU (or none) and a max pool of its output: the ReLU
 * moves past the pool (fuse.c), and when the convolution's epilogue is
 * then a plain copy (its bias a K row of ones) the pool is computed by
 * the convolution kernel from its accumulator (emit_mm.c, emit_pool.c's
 * npu_pool_band): ResNet-18's stem and smaller ones, one block or
 * several, windows with and without padding; a convolution whose K
 * leaves no room for the bias row keeps a pool kernel of its own that
 * applies the ReLU.  Against the fp64 reference.
 */
typedef struct cpool_case {
	int64_t in[5], w[5];    /* 0-terminated shapes */
	int cs, cp;             /* convolution stride, padding */
	int pk, ps, pp;         /* pool window, stride, padding */
	int relu;
} cpool_case;

static const cpool_case cpools[] = {
	{ { 1, 3, 224, 224 }, { 64, 3, 7, 7 }, 2, 3, 3, 2, 1, 1 },	/* the stem */
	{ { 1, 3, 64, 64 }, { 8, 3, 7, 7 }, 2, 3, 3, 2, 1, 1 },
	{ { 1, 4, 80, 80 }, { 6, 4, 3, 3 }, 2, 1, 2, 2, 0, 1 },
	{ { 1, 5, 70, 66 }, { 12, 5, 3, 3 }, 1, 1, 3, 2, 1, 0 },
	{ { 1, 128, 40, 40 }, { 16, 128, 1, 1 }, 1, 0, 3, 2, 1, 1 },	/* K = 128 */
};

START_TEST(t_conv_pool)
{
	const cpool_case *c = &cpools[_i];
	char path[1024], vals[1024], mi[300], mw[300], mb[300], mc[300], mo[300], mx[300];
	int64_t bs[2] = { c->w[0], 0 }, cs[5] = { 0 }, os[5] = { 0 };
	fxrun fr = { 0 };
	FILE *f;

	cs[0] = c->in[0];
	cs[1] = c->w[0];
	cs[2] = (c->in[2] + 2 * c->cp - c->w[2]) / c->cs + 1;
	cs[3] = (c->in[3] + 2 * c->cp - c->w[3]) / c->cs + 1;
	os[0] = cs[0];
	os[1] = cs[1];
	os[2] = (cs[2] + 2 * c->pp - c->pk) / c->ps + 1;
	os[3] = (cs[3] + 2 * c->pp - c->pk) / c->ps + 1;
	jmeta(mi, sizeof mi, c->in, "float32");
	jmeta(mw, sizeof mw, c->w, "float32");
	jmeta(mb, sizeof mb, bs, "float32");
	jmeta(mc, sizeof mc, cs, "float32");
	jmeta(mo, sizeof mo, os, "float32");
	jmeta(mx, sizeof mx, os, "int64");
	f = graph_begin(path, vals, sizeof path);
	fprintf(f, "{\"name\": \"w\", \"op\": \"placeholder\", \"target\": \"w\", \"args\": [], "
		"\"kwargs\": {}, \"meta\": %s, \"kind\": \"parameter\", \"source\": \"l_conv_weight_\"},\n", mw);
	fprintf(f, "{\"name\": \"b\", \"op\": \"placeholder\", \"target\": \"b\", \"args\": [], "
		"\"kwargs\": {}, \"meta\": %s, \"kind\": \"parameter\", \"source\": \"l_conv_bias_\"},\n", mb);
	fprintf(f, "{\"name\": \"x\", \"op\": \"placeholder\", \"target\": \"x\", \"args\": [], "
		"\"kwargs\": {}, \"meta\": %s, \"kind\": \"input\", \"source\": \"l_x_\"},\n", mi);
	fprintf(f, "{\"name\": \"c\", \"op\": \"call_function\", \"target\": \"aten.convolution.default\", "
		"\"args\": [{\"node\": \"x\"}, {\"node\": \"w\"}, {\"node\": \"b\"}, [%d, %d], [%d, %d], [1, 1], false, [0, 0], 1], "
		"\"kwargs\": {}, \"meta\": %s},\n", c->cs, c->cs, c->cp, c->cp, mc);
	if (c->relu)
		fprintf(f, "{\"name\": \"r\", \"op\": \"call_function\", \"target\": \"aten.relu.default\", "
			"\"args\": [{\"node\": \"c\"}], \"kwargs\": {}, \"meta\": %s},\n", mc);
	fprintf(f, "{\"name\": \"p2\", \"op\": \"call_function\", \"target\": \"aten.max_pool2d_with_indices.default\", "
		"\"args\": [{\"node\": \"%s\"}, [%d, %d], [%d, %d], [%d, %d]], \"kwargs\": {}, \"meta\": [%s, %s]},\n",
		c->relu ? "r" : "c", c->pk, c->pk, c->ps, c->ps, c->pp, c->pp, mo, mx);
	fprintf(f, "{\"name\": \"y\", \"op\": \"call_function\", \"target\": \"_operator.getitem\", "
		"\"args\": [{\"node\": \"p2\"}, 0], \"kwargs\": {}, \"meta\": %s},\n", mo);
	graph_run(f, path, vals, &fr);
	ck_assert_msg(fr.host_calls == 0, "conv_pool case %d: %llu host calls", _i,
		      (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * aten.gather by a run-time index: along the last dim (J larger and
 * smaller than the dim, bf16 and int64 sources, bytes moved exactly),
 * along the first dim and a middle one (the index copied with the dim
 * moved last, an index smaller than x in another dim); the same middle
 * case by constant indices (the index a buffer: frozen, a table of
 * elements); aten.index by a run-time index (rows gathered).  Index
 * values drawn in range; against the fp64 reference, no host call.
 */
typedef struct gather_case {
	const char *dtype, *ikind;
	int64_t x[4], idx[4];           /* 0-terminated shapes */
	int dim;
	int64_t out[5];                 /* index: its shape; gather: idx's */
	int ar;                         /* index: [arange(B), idx] */
	int emb;                        /* embedding(x, idx) instead */
} gather_case;

static const gather_case gathers[] = {
	{ "float32", "input", { 3, 5, 7 }, { 3, 5, 4 }, -1, { 0 }, 0, 0 },
	{ "bfloat16", "input", { 4, 33 }, { 4, 40 }, 1, { 0 }, 0, 0 },
	{ "int64", "input", { 2, 9 }, { 2, 5 }, 1, { 0 }, 0, 0 },
	{ "float32", "input", { 4, 6 }, { 3, 6 }, 0, { 0 }, 0, 0 },
	{ "float32", "input", { 2, 5, 6 }, { 2, 3, 4 }, 1, { 0 }, 0, 0 },
	{ "float32", "buffer", { 2, 5, 6 }, { 2, 3, 4 }, 1, { 0 }, 0, 0 },
	/* an embedding of more rows than one pass takes (65536): the last
	 * pass short, each engine still in its own part of SRAM (the race
	 * check) */
	{ "float32", "input", { 100, 1 }, { 70000 }, 0, { 70000, 1 }, 0, 1 },
	/* aten.index by a run-time index: x[idx], x[:, idx] (2-d idx, the
	 * rows of every leading position), x[arange(B), idx] */
	{ "float32", "input", { 5, 6, 7 }, { 4 }, 0, { 4, 6, 7 }, 0, 0 },
	{ "float32", "input", { 3, 6, 5 }, { 2, 2 }, 1, { 3, 2, 2, 5 }, 0, 0 },
	{ "float32", "input", { 4, 9, 8 }, { 4 }, 1, { 4, 8 }, 1, 0 },
	{ "bfloat16", "input", { 3, 5, 16 }, { 3 }, 1, { 3, 16 }, 1, 0 },
};

/* A tensor of generated values: floats in [-1, 1) rounded to dt, or
 * integers in [0, hi) for int64. */
/* A tensor of shape (0-terminated) with room for its data; its number
 * of elements. */
static int64_t new_tensor(npu_tensor *t, const char *name, int dt, const int64_t *shape)
{
	int64_t n = 1;

	memset(t, 0, sizeof *t);
	t->name = (char *)name;
	t->dtype = dt;
	while (t->ndim < 4 && shape[t->ndim]) {
		t->shape[t->ndim] = shape[t->ndim];
		n *= shape[t->ndim++];
	}
	t->nbytes = (uint64_t)n * (uint64_t)npu_dtype_size(dt);
	ck_assert_ptr_nonnull(t->data = malloc(t->nbytes + 1));
	return n;
}

/* A tensor of shape filled from data. */
static void data_tensor(npu_tensor *t, const char *name, int dt, const int64_t *shape,
			const void *data)
{
	new_tensor(t, name, dt, shape);
	memcpy(t->data, data, t->nbytes);
}

static void gen_tensor(npu_tensor *t, const char *name, int dt,
		       const int64_t *shape, int64_t hi, uint64_t *seed)
{
	int64_t n = new_tensor(t, name, dt, shape);

	for (int64_t i = 0; i < n; i++) {
		*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
		if (dt == NPU_DT_I64)
			((int64_t *)t->data)[i] = (int64_t)((*seed >> 33) % (uint64_t)hi);
		else
			npu_store_f32(dt, t->data, (size_t)i,
				      (float)((double)(*seed >> 11) / 4503599627370496.0 - 1));
	}
}

START_TEST(t_gather)
{
	const gather_case *c = &gathers[_i];
	char path[1024], vals[1024], mx[300], mi[300];
	int nd = 0, dt = npu_dtype_from_name(c->dtype, strlen(c->dtype));
	uint64_t seed = 99;
	npu_tensor t[3];
	fxrun fr = { 0 };
	FILE *f;

	while (nd < 4 && c->x[nd])
		nd++;
	jmeta(mx, sizeof mx, c->x, c->dtype);
	jmeta(mi, sizeof mi, c->idx, "int64");
	f = graph_begin(path, vals, sizeof path);
	fprintf(f, "{\"name\": \"i\", \"op\": \"placeholder\", \"target\": \"i\", \"args\": [], "
		"\"kwargs\": {}, \"meta\": %s, \"kind\": \"%s\", \"source\": \"l_index_\"},\n", mi, c->ikind);
	fprintf(f, "{\"name\": \"x\", \"op\": \"placeholder\", \"target\": \"x\", \"args\": [], "
		"\"kwargs\": {}, \"meta\": %s, \"kind\": \"input\", \"source\": \"l_x_\"},\n", mx);
	if (c->out[0]) {
		char ma[300], mo[300];
		int64_t as[2] = { c->idx[0], 0 };
		jmeta(ma, sizeof ma, as, "int64");
		jmeta(mo, sizeof mo, c->out, c->dtype);
		if (c->ar)
			fprintf(f, "{\"name\": \"a\", \"op\": \"placeholder\", \"target\": \"a\", \"args\": [], "
				"\"kwargs\": {}, \"meta\": %s, \"kind\": \"buffer\", \"source\": \"l_ar_\"},\n", ma);
		if (c->emb)
			fprintf(f, "{\"name\": \"y\", \"op\": \"call_function\", \"target\": "
				"\"aten.embedding.default\", \"args\": [{\"node\": \"x\"}, "
				"{\"node\": \"i\"}], \"kwargs\": {}, \"meta\": %s},\n", mo);
		else
			fprintf(f, "{\"name\": \"y\", \"op\": \"call_function\", \"target\": "
				"\"aten.index.Tensor\", \"args\": [{\"node\": \"x\"}, [%s%s{\"node\": "
				"\"i\"}]], \"kwargs\": {}, \"meta\": %s},\n",
				c->ar ? "{\"node\": \"a\"}, " : "", c->dim && !c->ar ? "null, " : "", mo);
	} else {
		fprintf(f, "{\"name\": \"y\", \"op\": \"call_function\", \"target\": \"aten.gather.default\", "
			"\"args\": [{\"node\": \"x\"}, %d, {\"node\": \"i\"}], \"kwargs\": {}, \"meta\": %s},\n",
			c->dim, c->dtype[0] == 'i' ? mi : (jmeta(mi, sizeof mi, c->idx, c->dtype), mi));
	}
	graph_end(f, "y");
	gen_tensor(&t[0], "i", NPU_DT_I64, c->idx, c->x[c->dim < 0 ? c->dim + nd : c->dim], &seed);
	gen_tensor(&t[1], "x", dt, c->x, 1000, &seed);
	if (c->ar) {
		int64_t as[2] = { c->idx[0], 0 };
		gen_tensor(&t[2], "a", NPU_DT_I64, as, 1, &seed);
		for (int64_t b = 0; b < c->idx[0]; b++)
			((int64_t *)t[2].data)[b] = b;
	}
	tensors_run(path, vals, t, 2 + (size_t)c->ar, &fr);
	ck_assert_msg(fr.host_calls == 0, "gather case %d: %llu host calls", _i,
		      (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * Integer arithmetic in fp32 lanes when its range is known within 2^24
 * (fuse.c's node_rng): RoBERTa's position ids from token ids (a padding
 * mask, its cumsum over 40 positions, times the mask, plus the padding
 * index) run natively and exactly; the same ids plus 1 (a run-time
 * integer input is unbounded) and the cumsum times 10^6 (past 2^24)
 * stay on the host.  A value used as an index is bounded by the size it
 * indexes (fuse.c's use_rng: PyTorch raises otherwise), so ids + 1 runs
 * natively when ids itself is a gather index, and when only the sum is
 * (ids then lies 1 lower; with rsub, 39 - ids, mirrored).  A selection (where's values, clamp, maximum, minimum) needs only
 * its result's range: its operands need be exact only where chosen.  An
 * operation computed in a float type (a float result, or a comparison
 * with a float tensor) runs natively whatever the range:
 * PyTorch converts the integers to that type first, as the load does.
 * ids in [0, 4), so that some are the padding id 1.
 */
typedef struct int_case {
	const char *nodes;      /* call_function nodes after "ids"; "y" last */
	int host;               /* host calls expected */
} int_case;

#define IMETA(dt) "{\"shape\": [3, 40], \"dtype\": \"" dt "\", \"stride\": [40, 1], \"storage_offset\": 0}"
#define ICALL(nm, tgt, args, kw, dt) "{\"name\": \"" nm "\", \"op\": \"call_function\", \"target\": \"" tgt \
	"\", \"args\": [" args "], \"kwargs\": {" kw "}, \"meta\": " IMETA(dt) "},\n"
#define INODE(n) "{\"node\": \"" n "\"}"

static const int_case ints[] = {
	{ ICALL("ne", "aten.ne.Scalar", INODE("ids") ", 1", "", "bool")
	  ICALL("m", "aten._to_copy.default", INODE("ne"), "\"dtype\": {\"dtype\": \"int32\"}", "int32")
	  ICALL("cs", "aten.cumsum.default", INODE("m") ", 1", "", "int64")
	  ICALL("c32", "aten._to_copy.default", INODE("cs"), "\"dtype\": {\"dtype\": \"int32\"}", "int32")
	  ICALL("p", "aten.mul.Tensor", INODE("c32") ", " INODE("m"), "", "int32")
	  ICALL("p64", "aten._to_copy.default", INODE("p"), "\"dtype\": {\"dtype\": \"int64\"}", "int64")
	  ICALL("y", "aten.add.Tensor", INODE("p64") ", 1", "", "int64"), 0 },
	{ ICALL("y", "aten.add.Tensor", INODE("ids") ", 1", "", "int64"), 1 },
	{ ICALL("ne", "aten.ne.Scalar", INODE("ids") ", 1", "", "bool")
	  ICALL("m", "aten._to_copy.default", INODE("ne"), "\"dtype\": {\"dtype\": \"int64\"}", "int64")
	  ICALL("cs", "aten.cumsum.default", INODE("m") ", 1", "", "int64")
	  ICALL("y", "aten.mul.Tensor", INODE("cs") ", 1000000", "", "int64"), 1 },
	{ ICALL("f", "aten._to_copy.default", INODE("ids"), "\"dtype\": {\"dtype\": \"float32\"}", "float32")
	  ICALL("g", "aten.gather.default", INODE("f") ", 1, " INODE("ids"), "", "float32")
	  ICALL("d", "aten.add.Tensor", INODE("ids") ", 1", "", "int64")
	  ICALL("h", "aten.gather.default", INODE("f") ", 1, " INODE("d"), "", "float32")
	  ICALL("y", "aten.add.Tensor", INODE("g") ", " INODE("h"), "", "float32"), 0 },
	{ ICALL("f", "aten._to_copy.default", INODE("ids"), "\"dtype\": {\"dtype\": \"float32\"}", "float32")
	  ICALL("d", "aten.add.Tensor", INODE("ids") ", 1", "", "int64")
	  ICALL("y", "aten.gather.default", INODE("f") ", 1, " INODE("d"), "", "float32"), 0 },
	/* the shifted ids a graph output too (OPT's position ids plus 2),
	 * and 39 - ids (rsub) an index */
	{ ICALL("f", "aten._to_copy.default", INODE("ids"), "\"dtype\": {\"dtype\": \"float32\"}", "float32")
	  ICALL("d", "aten.sub.Tensor", INODE("ids") ", -2", "", "int64")
	  ICALL("e", "aten.rsub.Scalar", INODE("ids") ", 39", "", "int64")
	  ICALL("g", "aten.gather.default", INODE("f") ", 1, " INODE("d"), "", "float32")
	  ICALL("h", "aten.gather.default", INODE("f") ", 1, " INODE("e"), "", "float32")
	  ICALL("k", "aten._to_copy.default", INODE("d"), "\"dtype\": {\"dtype\": \"float32\"}", "float32")
	  ICALL("q", "aten.add.Tensor", INODE("g") ", " INODE("h"), "", "float32")
	  ICALL("y", "aten.add.Tensor", INODE("q") ", " INODE("k"), "", "float32"), 0 },
	{ ICALL("f", "aten._to_copy.default", INODE("ids"), "\"dtype\": {\"dtype\": \"float32\"}", "float32")
	  ICALL("h", "aten.mul.Tensor", INODE("f") ", 0.7", "", "float32")
	  ICALL("s", "aten.add.Tensor", INODE("ids") ", " INODE("h"), "", "float32")
	  ICALL("c", "aten.lt.Tensor", INODE("ids") ", " INODE("s"), "", "bool")
	  ICALL("y", "aten.where.self", INODE("c") ", " INODE("s") ", " INODE("h"), "", "float32"), 0 },
	{ ICALL("a", "aten.ne.Scalar", INODE("ids") ", 1", "", "bool")
	  ICALL("b", "aten.eq.Scalar", INODE("ids") ", 2", "", "bool")
	  ICALL("c", "aten.logical_xor.default", INODE("a") ", " INODE("b"), "", "bool")
	  ICALL("y", "aten.bitwise_xor.Tensor", INODE("c") ", " INODE("a"), "", "bool"), 0 },
	/* selections (clamp, maximum) of an unbounded input, bounded by
	 * their use as a gather's index: exact where chosen */
	{ ICALL("f", "aten._to_copy.default", INODE("ids"), "\"dtype\": {\"dtype\": \"float32\"}", "float32")
	  ICALL("c", "aten.clamp.default", INODE("ids") ", null, 2", "", "int64")
	  ICALL("d", "aten.maximum.default", INODE("ids") ", " INODE("ids"), "", "int64")
	  ICALL("g", "aten.gather.default", INODE("f") ", 1, " INODE("c"), "", "float32")
	  ICALL("h", "aten.gather.default", INODE("f") ", 1, " INODE("d"), "", "float32")
	  ICALL("y", "aten.add.Tensor", INODE("g") ", " INODE("h"), "", "float32"), 0 },
	/* a selection of unknown range whose uses all convert it to float
	 * first (the cross-entropy's backward: targets, the ignored index
	 * replaced by 0, compared with a float iota): in fp32 lanes, as
	 * rounding commutes with choosing; as a graph output, host (and
	 * so is the clone that outputs it) */
	{ ICALL("f", "aten._to_copy.default", INODE("ids"), "\"dtype\": {\"dtype\": \"float32\"}", "float32")
	  ICALL("c", "aten.ne.Scalar", INODE("ids") ", 1", "", "bool")
	  ICALL("w", "aten.where.self", INODE("c") ", " INODE("ids") ", " INODE("ids"), "", "int64")
	  ICALL("wc", "aten.clone.default", INODE("w"), "", "int64")
	  ICALL("y", "aten.eq.Tensor", INODE("f") ", " INODE("wc"), "", "bool"), 0 },
	{ ICALL("c", "aten.ne.Scalar", INODE("ids") ", 1", "", "bool")
	  ICALL("w", "aten.where.self", INODE("c") ", " INODE("ids") ", " INODE("ids"), "", "int64")
	  ICALL("y", "aten.clone.default", INODE("w"), "", "int64"), 2 },
};

START_TEST(t_int)
{
	const int_case *c = &ints[_i];
	char path[1024], vals[1024];
	int64_t sh[3] = { 3, 40, 0 };
	uint64_t seed = 7;
	npu_tensor t;
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	fprintf(f, "{\"name\": \"ids\", \"op\": \"placeholder\", \"target\": \"ids\", \"args\": [], "
		"\"kwargs\": {}, \"meta\": " IMETA("int64") ", \"kind\": \"input\", \"source\": \"l_ids_\"},\n"
		"%s{\"name\": \"output\", \"op\": \"output\", \"target\": \"output\", "
		"\"args\": [[{\"node\": \"y\"}]], \"kwargs\": {}}]}\n", c->nodes);
	fclose(f);
	gen_tensor(&t, "ids", NPU_DT_I64, sh, 4, &seed);
	tensors_run(path, vals, &t, 1, &fr);
	ck_assert_msg(fr.host_calls == (uint64_t)c->host, "int case %d: %llu host calls, expected %d",
		      _i, (unsigned long long)fr.host_calls, c->host);
}
END_TEST

/*
 * index_add as PyTorch 1.13's traces leave it: its composite's clone and
 * the in-place index_add_ (read as index_add, nothing reading the clone
 * after it), along dim 1 with repeated run-time indices and alpha; then
 * index_add along dim 0 of its result.  Decomposed into index_put
 * accumulating: along dim 1 a host call (run-time indices), along dim 0
 * a one-hot product on the matrix unit; against the fp64 reference
 * (ref_index_add).
 */
/* A placeholder node "name" (an input) of contiguous shape sh ("[4, 5]",
 * 0-terminated) and dtype dt, written to f. */
static void ph_node(FILE *f, const char *name, const int64_t *sh, const char *dt)
{
	char m[300];

	jmeta(m, sizeof m, sh, dt);
	fprintf(f, "{\"name\": \"%s\", \"op\": \"placeholder\", \"target\": \"%s\", "
		"\"args\": [], \"kwargs\": {}, \"meta\": %s, \"kind\": \"input\", "
		"\"source\": \"l_%s_\"},\n", name, name, m, name);
}

/* A call_function node: its target, args and kwargs (JSON text), and a
 * contiguous result of shape sh (0-terminated; { 0 }: a 0-d one). */
static void call_node(FILE *f, const char *name, const char *target, const char *args,
		      const char *kwargs, const int64_t *sh, const char *dt)
{
	char m[300];

	jmeta(m, sizeof m, sh, dt);
	fprintf(f, "{\"name\": \"%s\", \"op\": \"call_function\", \"target\": \"%s\", "
		"\"args\": [%s], \"kwargs\": {%s}, \"meta\": %s},\n", name, target, args,
		kwargs, m);
}

/* A call_function node of n results (their meta JSON in metas) with
 * keyword arguments kw (JSON members), then a getitem node for each,
 * named name0, name1, ... */
static void multi_node_kw(FILE *f, const char *name, const char *target, const char *args,
			  const char *kw, const char *const *metas, int n)
{
	fprintf(f, "{\"name\": \"%s\", \"op\": \"call_function\", \"target\": \"%s\", "
		"\"args\": [%s], \"kwargs\": {%s}, \"meta\": [", name, target, args, kw);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", metas[i]);
	fprintf(f, "]},\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "{\"name\": \"%s%d\", \"op\": \"call_function\", \"target\": "
			"\"_operator.getitem\", \"args\": [{\"node\": \"%s\"}, %d], \"kwargs\": {}, "
			"\"meta\": %s},\n", name, i, name, i, metas[i]);
}

static void multi_node(FILE *f, const char *name, const char *target, const char *args,
		       const char *const *metas, int n)
{
	multi_node_kw(f, name, target, args, "", metas, n);
}

START_TEST(t_index_add)
{
	char path[1024], vals[1024];
	int64_t xs[3] = { 4, 5, 0 }, ss[3] = { 4, 3, 0 }, is[2] = { 3, 0 }, s0[3] = { 3, 5, 0 };
	uint64_t seed = 5;
	npu_tensor t[4];
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	ph_node(f, "s", ss, "float32");
	ph_node(f, "i", is, "int64");
	ph_node(f, "s0", s0, "float32");
	call_node(f, "c", "aten.clone.default", "{\"node\": \"x\"}", "", xs, "float32");
	call_node(f, "a", "aten.index_add_.default",
		  "{\"node\": \"c\"}, 1, {\"node\": \"i\"}, {\"node\": \"s\"}", "\"alpha\": 0.5",
		  xs, "float32");
	call_node(f, "y", "aten.index_add.default",
		  "{\"node\": \"a\"}, 0, {\"node\": \"i\"}, {\"node\": \"s0\"}", "", xs, "float32");
	graph_end(f, "y");
	gen_tensor(&t[0], "x", NPU_DT_F32, xs, 0, &seed);
	gen_tensor(&t[1], "s", NPU_DT_F32, ss, 0, &seed);
	gen_tensor(&t[2], "i", NPU_DT_I64, is, 4, &seed);
	((int64_t *)t[2].data)[1] = ((int64_t *)t[2].data)[0];   /* a repeat */
	gen_tensor(&t[3], "s0", NPU_DT_F32, s0, 0, &seed);
	tensors_run(path, vals, t, 4, &fr);
	/* along dim 0 a one-hot product; along dim 1 a host call */
	ck_assert_msg(fr.host_calls == 1, "index_add: %llu host calls",
		      (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * index_put accumulating by run-time indices over dim 0 (an embedding's
 * gradient): a one-hot product, with a repeated index and negative ones
 * counting from the end; at 70,000 rows by 16 indices in two pieces of
 * rows (indices in both, the last row, -V, repeated across pieces); at
 * 1,024 indices (69 pieces) a host call.
 */
START_TEST(t_onehot_put)
{
	static const int64_t iv[5] = { 0, -1, 2, 0, 5 };
	static const int64_t jv[6] = { 69999, -70000, 65536, 65535, -1, 65536 };
	char path[1024], vals[1024];
	uint64_t seed = 7;
	fxrun fr[3];
	npu_tensor t[3];
	FILE *f;

	memset(fr, 0, sizeof fr);
	for (int pass = 0; pass < 3; pass++) {
		int64_t V = pass ? 70000 : 6, T = pass == 2 ? 1024 : pass ? 16 : 5;
		int64_t xs[3] = { V, 3, 0 }, is[2] = { T, 0 }, vs[3] = { T, 3, 0 };
		f = graph_begin(path, vals, sizeof path);
		ph_node(f, "x", xs, "float32");
		ph_node(f, "i", is, "int64");
		ph_node(f, "v", vs, "float32");
		call_node(f, "y", "aten.index_put.default",
			  "{\"node\": \"x\"}, [{\"node\": \"i\"}], {\"node\": \"v\"}, true", "",
			  xs, "float32");
		graph_end(f, "y");
		gen_tensor(&t[0], "x", NPU_DT_F32, xs, 0, &seed);
		gen_tensor(&t[1], "i", NPU_DT_I64, is, V, &seed);
		if (pass == 0)
			memcpy(t[1].data, iv, sizeof iv);
		if (pass == 1)
			memcpy(t[1].data, jv, sizeof jv);
		gen_tensor(&t[2], "v", NPU_DT_F32, vs, 0, &seed);
		tensors_run(path, vals, t, 3, &fr[pass]);
	}
	ck_assert_int_eq(fr[0].host_calls, 0);
	ck_assert_int_eq(fr[1].host_calls, 0);
	ck_assert_int_eq(fr[2].host_calls, 1);
}
END_TEST

/*
 * A reduction over dims that are not the trailing ones, of a value the
 * open elementwise kernel computes (x * 2): that kernel also stores the
 * value with the reduced dims last (fuse.c's store_permuted) and no copy
 * kernel reloads it, size-1 dims moved or reduced too.  Values against
 * the reference; the copy kernels counted.  x is [3, 1, 4, 5].
 */
typedef struct redperm_case {
	const char *target, *dims, *kw;
	int64_t out[5];
	int copies;
} redperm_case;

static const redperm_case redperms[] = {
	{ "aten.sum.dim_IntList", "[0]", "", { 1, 4, 5, 0 }, 0 },
	{ "aten.sum.dim_IntList", "[0, 2]", "", { 1, 5, 0 }, 0 },
	{ "aten.mean.dim", "[0, 3], true", "", { 1, 1, 4, 1, 0 }, 0 },
	{ "aten.var.correction", "[0, 2, 3]", "\"correction\": 0", { 1, 0 }, 0 },
	{ "aten.amax.default", "[0, 1]", "", { 4, 5, 0 }, 0 },
	{ "aten.sum.dim_IntList", "[1, 2]", "", { 3, 5, 0 }, 0 },
};

static void count_copies(const npu_ccresult *r, void *ctx)
{
	int *n = ctx;
	for (int k = 0; k < r->ir.nk; k++) {
		size_t l = strlen(r->ir.k[k].name);
		*n += l > 5 && !strcmp(r->ir.k[k].name + l - 5, ".copy");
	}
}

START_TEST(t_red_perm)
{
	const redperm_case *c = &redperms[_i];
	int64_t xs[5] = { 3, 1, 4, 5, 0 };
	char path[1024], vals[1024], args[128];
	fxrun fr = { 0 };
	int copies = 0;
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	call_node(f, "a", "aten.mul.Tensor", "{\"node\": \"x\"}, 2.0", "", xs, "float32");
	snprintf(args, sizeof args, "{\"node\": \"a\"}, %s", c->dims);
	call_node(f, "y", c->target, args, c->kw, c->out, "float32");
	fr.inspect = count_copies;
	fr.inspect_ctx = &copies;
	graph_run(f, path, vals, &fr);
	ck_assert_int_eq(fr.host_calls, 0);
	ck_assert_msg(copies == c->copies, "case %d: %d copy kernels, expected %d", _i,
		      copies, c->copies);
}
END_TEST

/*
 * Integer arithmetic on run-time integers (unknown range) of at most 64
 * elements runs on the scalar unit (fuse.c's do_intk), exactly: values
 * far past 2^24 (a BatchNorm's batch counter), broadcasts, a transposed
 * view, int32 (by a 0-d int32), int32 with int64 promoted.  Each case
 * against the reference (whose doubles hold these results exactly: it
 * does not model overflow, so no case overflows); the last ones stay host
 * calls: a tensor alpha, a constant past 2^24, 65 elements.  a [2, 3]
 * and b [3] int64, c [2, 3] int32, d [65] int64, e a 0-d int32.
 */
typedef struct intk_case {
	const char *target, *args, *kwargs, *dt;
	int64_t sh[3];
	int host;
} intk_case;

static const intk_case intks[] = {
	{ "aten.add.Tensor", "{\"node\": \"a\"}, 1", "", "int64", { 2, 3, 0 }, 0 },
	{ "aten.sub.Tensor", "{\"node\": \"a\"}, {\"node\": \"b\"}", "", "int64", { 2, 3, 0 }, 0 },
	{ "aten.mul.Tensor", "{\"node\": \"a\"}, -3", "", "int64", { 2, 3, 0 }, 0 },
	{ "aten.mul.Tensor", "{\"node\": \"b\"}, {\"node\": \"a\"}", "", "int64", { 2, 3, 0 }, 0 },
	{ "aten.maximum.default", "{\"node\": \"a\"}, {\"node\": \"b\"}", "", "int64", { 2, 3, 0 }, 0 },
	{ "aten.minimum.default", "{\"node\": \"b\"}, {\"node\": \"a\"}", "", "int64", { 2, 3, 0 }, 0 },
	{ "aten.neg.default", "{\"node\": \"a\"}", "", "int64", { 2, 3, 0 }, 0 },
	{ "aten.rsub.Scalar", "{\"node\": \"a\"}, 5", "", "int64", { 2, 3, 0 }, 0 },
	{ "aten.add.Tensor", "{\"node\": \"a\"}, 4", "\"alpha\": -2", "int64", { 2, 3, 0 }, 0 },
	{ "aten.add.Tensor", "{\"node\": \"at\"}, {\"node\": \"b2\"}", "", "int64", { 3, 2, 0 }, 0 },
	{ "aten.add.Tensor", "{\"node\": \"c\"}, 7", "", "int32", { 2, 3, 0 }, 0 },
	{ "aten.mul.Tensor", "{\"node\": \"c\"}, {\"node\": \"d2\"}", "", "int32", { 2, 3, 0 }, 0 },
	{ "aten.sub.Tensor", "{\"node\": \"c\"}, {\"node\": \"a\"}", "", "int64", { 2, 3, 0 }, 0 },
	{ "aten.add.Tensor", "{\"node\": \"a\"}, {\"node\": \"b\"}", "\"alpha\": 2", "int64", { 2, 3, 0 }, 1 },
	{ "aten.add.Tensor", "{\"node\": \"a\"}, 1073741824", "", "int64", { 2, 3, 0 }, 1 },
	{ "aten.add.Tensor", "{\"node\": \"d\"}, 1", "", "int64", { 65, 0 }, 1 },
};

START_TEST(t_intk)
{
	/* products within 2^53, where the reference's doubles are exact */
	static const int64_t av[6] = { 1099511627777, -34359738368, 16777217, 0, -1, 268435459 };
	static const int64_t bv[3] = { 3, -1048576, 16777215 };
	static const int32_t cv[6] = { 1073741823, -1073741824, 46341, -46341, 16777217, 2147483640 };
	const intk_case *c = &intks[_i];
	int64_t as[3] = { 2, 3, 0 }, bs[2] = { 3, 0 }, ds[2] = { 65, 0 };
	int64_t ats[3] = { 3, 2, 0 }, b2s[3] = { 3, 1, 0 }, es[1] = { 0 };
	static const int32_t ev = -2;
	char path[1024], vals[1024];
	uint64_t seed = 3;
	npu_tensor t[5];
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "a", as, "int64");
	ph_node(f, "b", bs, "int64");
	ph_node(f, "c", as, "int32");
	ph_node(f, "d", ds, "int64");
	ph_node(f, "e", es, "int32");
	call_node(f, "d2", "aten.mul.Tensor", "{\"node\": \"e\"}, 2", "", es, "int32");
	call_node(f, "at", "aten.permute.default", "{\"node\": \"a\"}, [1, 0]", "", ats, "int64");
	call_node(f, "b2", "aten.unsqueeze.default", "{\"node\": \"b\"}, 1", "", b2s, "int64");
	call_node(f, "y", c->target, c->args, c->kwargs, c->sh, c->dt);
	graph_end(f, "y");
	data_tensor(&t[0], "a", NPU_DT_I64, as, av);
	data_tensor(&t[1], "b", NPU_DT_I64, bs, bv);
	data_tensor(&t[2], "c", NPU_DT_I32, as, cv);
	gen_tensor(&t[3], "d", NPU_DT_I64, ds, 1 << 30, &seed);
	data_tensor(&t[4], "e", NPU_DT_I32, es, &ev);
	tensors_run(path, vals, t, 5, &fr);
	ck_assert_msg(fr.host_calls == (uint64_t)c->host, "intk case %d: %llu host calls, expected %d",
		      _i, (unsigned long long)fr.host_calls, c->host);
}
END_TEST

/*
 * A sum of 70 tensors (DenseNet's backward adds the gradients of every
 * layer that read a feature map): more operands than a kernel takes, so
 * the chain is cut into kernels of fewer (it once failed to compile:
 * "more than 64 operands").
 */
START_TEST(t_long_sum)
{
	char path[1024], vals[1024], name[16], args[64], prev[16] = "x0";
	int64_t xs[3] = { 4, 33, 0 };
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	for (int i = 0; i < 70; i++) {
		snprintf(name, sizeof name, "x%d", i);
		ph_node(f, name, xs, "float32");
	}
	for (int i = 1; i < 70; i++) {
		snprintf(name, sizeof name, i == 69 ? "y" : "s%d", i);
		snprintf(args, sizeof args, "{\"node\": \"%s\"}, {\"node\": \"x%d\"}", prev, i);
		call_node(f, name, "aten.add.Tensor", args, "", xs, "float32");
		snprintf(prev, sizeof prev, "%s", name);
	}
	graph_run(f, path, vals, &fr);
	ck_assert_int_eq(fr.host_calls, 0);
	ck_assert_int_ge(fr.nkernels, 2);
}
END_TEST

/*
 * Twenty sums of four terms each, their adds interleaved, each sum then
 * reduced by a kernel of its own (DenseNet's backward adds the gradients
 * of several feature maps so): fused into one kernel, the twenty sums
 * are twenty outputs beside sixty inputs, more than a kernel's 64
 * operands (fuse.c live_outs); PyTorch 2.11's densenet121 training
 * graph failed to compile so.
 */
START_TEST(t_many_sums)
{
	char path[1024], vals[1024], name[16], args[96], outs[64] = "", prev[20][16];
	int64_t xs[5] = { 2, 8, 4, 4, 0 }, rs[2] = { 8, 0 };
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	for (int c = 0; c < 20; c++)
		for (int l = 0; l < 4; l++) {
			snprintf(name, sizeof name, "g%d_%d", c, l);
			ph_node(f, name, xs, "float32");
		}
	for (int c = 0; c < 20; c++)
		snprintf(prev[c], sizeof prev[c], "g%d_0", c);
	for (int l = 1; l < 4; l++)
		for (int c = 0; c < 20; c++) {
			snprintf(name, sizeof name, "a%d_%d", c, l);
			snprintf(args, sizeof args, "{\"node\": \"%s\"}, {\"node\": \"g%d_%d\"}",
				 prev[c], c, l);
			call_node(f, name, "aten.add.Tensor", args, "", xs, "float32");
			snprintf(prev[c], sizeof prev[c], "%s", name);
		}
	for (int c = 0; c < 20; c++) {
		snprintf(name, sizeof name, "%c", 'a' + c);
		snprintf(args, sizeof args, "{\"node\": \"%s\"}, [0, 2, 3]", prev[c]);
		call_node(f, name, "aten.sum.dim_IntList", args, "", rs, "float32");
		snprintf(outs + strlen(outs), sizeof outs - strlen(outs), "%s%s", c ? ", " : "", name);
	}
	graph_run_outs(f, path, vals, outs, &fr);
	ck_assert_int_eq(fr.host_calls, 0);
}
END_TEST

/*
 * Scatters into a large fill (Swin-T's backward: the gradient of
 * `x[:, :H, :W, :]` is slice_scatter into zeros): a fill of more than
 * 65,536 elements stays an op computed at run time (pass_fold's
 * `expands`), with no buffer, so the copy of self into the result
 * computes it instead of loading it (PyTorch 2.11's swin_t training
 * graph once faulted on that load).  slice_scatter, select_scatter and
 * as_strided_scatter, against the fp64 reference.
 */
START_TEST(t_scatter_into_fill)
{
	char path[1024], vals[1024];
	int64_t fs[4] = { 2, 70, 600, 0 }, xs[4] = { 2, 20, 600, 0 }, ws[3] = { 2, 600, 0 };
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	ph_node(f, "w", ws, "float32");
	call_node(f, "z", "aten.full.default", "[2, 70, 600], 0.5",
		  "\"dtype\": {\"dtype\": \"float32\"}",
		  fs, "float32");
	call_node(f, "y", "aten.slice_scatter.default", "{\"node\": \"z\"}, {\"node\": \"x\"}, 1, 10, 30",
		  "", fs, "float32");
	call_node(f, "s", "aten.select_scatter.default", "{\"node\": \"z\"}, {\"node\": \"w\"}, 1, 3",
		  "", fs, "float32");
	call_node(f, "a", "aten.as_strided_scatter.default",
		  "{\"node\": \"z\"}, {\"node\": \"x\"}, [2, 20, 600], [42000, 1200, 1], 600",
		  "", fs, "float32");
	graph_run_outs(f, path, vals, "y, s, a", &fr);
	ck_assert_int_eq(fr.host_calls, 0);
}
END_TEST

/*
 * Tensors made like another (new_zeros, new_ones, new_full, new_empty,
 * new_empty_strided: self gives the dtype only) and empty_strided,
 * read by elementwise kernels and a scatter (Swin-v2's backward graph
 * on PyTorch 2.11 has new_empty_strided, then unknown to the table).
 * The empty ones are zeros here, as the reference makes them.
 */
START_TEST(t_new_fills)
{
	char path[1024], vals[1024];
	int64_t xs[3] = { 4, 16, 0 }, ws[3] = { 4, 4, 0 };
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	ph_node(f, "w", ws, "float32");
	call_node(f, "a", "aten.new_zeros.default", "{\"node\": \"x\"}, [4, 16]", "", xs, "float32");
	call_node(f, "b", "aten.new_ones.default", "{\"node\": \"x\"}, [4, 16]", "", xs, "float32");
	call_node(f, "c", "aten.new_full.default", "{\"node\": \"x\"}, [4, 16], 2.5", "", xs,
		  "float32");
	call_node(f, "d", "aten.new_empty_strided.default", "{\"node\": \"x\"}, [4, 16], [16, 1]",
		  "", xs, "float32");
	call_node(f, "n", "aten.new_empty.default", "{\"node\": \"w\"}, [4, 4]", "", ws, "float32");
	call_node(f, "e", "aten.empty_strided.default", "[4, 16], [1, 4]",
		  "\"dtype\": {\"dtype\": \"float32\"}", xs, "float32");
	call_node(f, "y1", "aten.add.Tensor", "{\"node\": \"x\"}, {\"node\": \"c\"}", "", xs,
		  "float32");
	call_node(f, "m", "aten.mul.Tensor", "{\"node\": \"b\"}, {\"node\": \"x\"}", "", xs,
		  "float32");
	call_node(f, "y2", "aten.add.Tensor", "{\"node\": \"m\"}, {\"node\": \"a\"}", "", xs,
		  "float32");
	call_node(f, "s", "aten.slice_scatter.default", "{\"node\": \"d\"}, {\"node\": \"w\"}, 1, 3, 7",
		  "", xs, "float32");
	call_node(f, "t", "aten.add.Tensor", "{\"node\": \"w\"}, {\"node\": \"n\"}", "", ws,
		  "float32");
	call_node(f, "y3", "aten.slice_scatter.default", "{\"node\": \"e\"}, {\"node\": \"t\"}, 1, 0, 4",
		  "", xs, "float32");
	graph_run_outs(f, path, vals, "y1, y2, s, y3", &fr);
	ck_assert_int_eq(fr.host_calls, 0);
}
END_TEST

/*
 * The piecewise activation gradients over all their pieces: self spread
 * over [-5, 5) so that hardswish's and hardsigmoid's outer pieces, a
 * threshold and hardtanh's bounds are all crossed, against the fp64
 * reference (compiler/ref_ew.c act_grad) with no host call.
 */
START_TEST(t_act_bwd_pieces)
{
	char path[1024], vals[1024];
	int64_t xs[3] = { 4, 33, 0 };
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "g", xs, "float32");
	ph_node(f, "w", xs, "float32");
	call_node(f, "x", "aten.mul.Scalar", "{\"node\": \"w\"}, 5", "", xs, "float32");
	call_node(f, "a", "aten.hardswish_backward.default", "{\"node\": \"g\"}, {\"node\": \"x\"}",
		  "", xs, "float32");
	call_node(f, "b", "aten.hardsigmoid_backward.default", "{\"node\": \"g\"}, {\"node\": \"x\"}",
		  "", xs, "float32");
	call_node(f, "c", "aten.threshold_backward.default", "{\"node\": \"g\"}, {\"node\": \"x\"}, 0.5",
		  "", xs, "float32");
	call_node(f, "d", "aten.hardtanh_backward.default",
		  "{\"node\": \"g\"}, {\"node\": \"x\"}, -2, 3", "", xs, "float32");
	graph_run_outs(f, path, vals, "a, b, c, d", &fr);
	ck_assert_int_eq(fr.host_calls, 0);
}
END_TEST

/*
 * native_batch_norm_backward as aot_autograd leaves it without the core
 * decompositions: an explicit host call of three results (grad_input,
 * grad_weight, grad_bias), each read by a native kernel after it,
 * against the fp64 reference.
 */
START_TEST(t_bn_bwd_host)
{
	char path[1024], vals[1024], m4[300], mc[300];
	int64_t xs[5] = { 2, 4, 3, 3, 0 }, cs[2] = { 4, 0 };
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "g", xs, "float32");
	ph_node(f, "x", xs, "float32");
	ph_node(f, "w", cs, "float32");
	ph_node(f, "m", cs, "float32");
	ph_node(f, "v", cs, "float32");
	jmeta(m4, sizeof m4, xs, "float32");
	jmeta(mc, sizeof mc, cs, "float32");
	multi_node(f, "b", "aten.native_batch_norm_backward.default",
		   "{\"node\": \"g\"}, {\"node\": \"x\"}, {\"node\": \"w\"}, {\"node\": \"m\"}, "
		   "{\"node\": \"v\"}, {\"node\": \"m\"}, {\"node\": \"v\"}, true, 1e-05, "
		   "[true, true, true]", (const char *const[]){ m4, mc, mc }, 3);
	call_node(f, "y0", "aten.mul.Scalar", "{\"node\": \"b0\"}, 2", "", xs, "float32");
	call_node(f, "y1", "aten.add.Tensor", "{\"node\": \"b1\"}, {\"node\": \"b2\"}", "", cs,
		  "float32");
	graph_run_outs(f, path, vals, "y0, y1", &fr);
	ck_assert_int_eq(fr.host_calls, 1);
}
END_TEST

/*
 * mse_loss and mse_loss_backward (1.13's traces and aot_autograd without
 * the core decompositions keep them whole) in their three reductions,
 * native, against the fp64 reference.
 */
/* torch.fft.fftn(x) over fargs' dims as aot_autograd writes it: c<tag> =
 * x as complex64, f<tag> = _fft_c2c(c<tag>, fargs), v<tag> =
 * view_as_real(f<tag>), of shapes xs and v2. */
static void c2c_nodes(FILE *f, const char *tag, const char *fargs, const int64_t *xs,
		      const int64_t *v2)
{
	char c[16], ff[16], v[16], a[64];

	snprintf(c, sizeof c, "c%s", tag);
	snprintf(ff, sizeof ff, "f%s", tag);
	snprintf(v, sizeof v, "v%s", tag);
	call_node(f, c, "aten._to_copy.default", "{\"node\": \"x\"}",
		  "\"dtype\": {\"dtype\": \"complex64\"}", xs, "complex64");
	snprintf(a, sizeof a, "{\"node\": \"%s\"}, %s", c, fargs);
	call_node(f, ff, "aten._fft_c2c.default", a, "", xs, "complex64");
	snprintf(a, sizeof a, "{\"node\": \"%s\"}", ff);
	call_node(f, v, "aten.view_as_real.default", a, "", v2, "float32");
}

/*
 * FFTs of real tensors, as aot_autograd writes torch.fft.fftn(x).real
 * (FNet's token mixing) and torch.fft.rfft(x).imag: view_as_real of
 * _fft_c2c of a complex copy, or of _fft_r2c, then a select.  The reader
 * folds each chain into npusim.fft_real and the decomposition makes it
 * matrix products on the array: no host call, against the fp64
 * reference (check_ref's fft_real_semantics ties that to PyTorch).  Over
 * two dims (a leading batch: bmm with a broadcast matrix), onesided
 * normalized by 1/sqrt(n), an inverse over the middle dim by 1/n.
 */
START_TEST(t_fft_real)
{
	char path[1024], vals[1024];
	int64_t xs[4] = { 2, 8, 16, 0 }, v2[5] = { 2, 8, 16, 2, 0 };
	int64_t hs[4] = { 2, 8, 9, 0 }, h2[5] = { 2, 8, 9, 2, 0 };
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	c2c_nodes(f, "c", "[1, 2], 0, true", xs, v2);
	call_node(f, "re", "aten.select.int", "{\"node\": \"vc\"}, 3, 0", "", xs, "float32");
	call_node(f, "fr", "aten._fft_r2c.default", "{\"node\": \"x\"}, [2], 1, true", "", hs,
		  "complex64");
	call_node(f, "vr", "aten.view_as_real.default", "{\"node\": \"fr\"}", "", h2, "float32");
	call_node(f, "im", "aten.select.int", "{\"node\": \"vr\"}, 3, 1", "", hs, "float32");
	c2c_nodes(f, "i", "[1], 2, false", xs, v2);
	graph_run_outs(f, path, vals, "re, im, vi", &fr);
	ck_assert_int_eq(fr.host_calls, 0);
}
END_TEST

/* FNet's mixing reads the real part alone: the select of the stacked
 * parts is the real part itself (pass_noop), and the imaginary part's
 * last products go with the stack: three matmul kernels, not seven. */
START_TEST(t_fft_real_part)
{
	char path[1024], vals[1024];
	int64_t xs[4] = { 1, 16, 32, 0 }, v2[5] = { 1, 16, 32, 2, 0 };
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	c2c_nodes(f, "c", "[1, 2], 0, true", xs, v2);
	call_node(f, "re", "aten.select.int", "{\"node\": \"vc\"}, 3, 0", "", xs, "float32");
	graph_run_outs(f, path, vals, "re", &fr);
	ck_assert_int_eq(fr.host_calls, 0);
	ck_assert_int_le(fr.nkernels, 3);
}
END_TEST

/* Magnitudes: torch.fft.rfft(x, dim=1).abs() (TimesNet's periods) and
 * torch.fft.fft(x).abs() of a real x, which aot_autograd writes as
 * abs(_fft_r2c(x, ...)), onesided or not: the 2-norm of the parts, on
 * the array, against the fp64 reference. */
START_TEST(t_fft_abs)
{
	char path[1024], vals[1024];
	int64_t xs[4] = { 4, 16, 3, 0 }, hs[4] = { 4, 9, 3, 0 };
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	call_node(f, "r", "aten._fft_r2c.default", "{\"node\": \"x\"}, [1], 0, true", "", hs,
		  "complex64");
	call_node(f, "m", "aten.abs.default", "{\"node\": \"r\"}", "", hs, "float32");
	call_node(f, "p", "aten._fft_r2c.default", "{\"node\": \"x\"}, [2], 2, false", "", xs,
		  "complex64");
	call_node(f, "q", "aten.abs.default", "{\"node\": \"p\"}", "", xs, "float32");
	graph_run_outs(f, path, vals, "m, q", &fr);
	ck_assert_int_eq(fr.host_calls, 0);
}
END_TEST

/* torch.stack([a, b], -1)[..., 1] as aot_autograd writes it (cat of
 * unsqueezes, then a select): the select is b itself, and a, the cat
 * and its copies go (one kernel for b), against the fp64 reference. */
START_TEST(t_select_of_stack)
{
	char path[1024], vals[1024];
	int64_t xs[3] = { 4, 24, 0 }, us[4] = { 4, 24, 1, 0 }, cs[4] = { 4, 24, 2, 0 };
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	call_node(f, "a", "aten.mul.Tensor", "{\"node\": \"x\"}, 2.0", "", xs, "float32");
	call_node(f, "b", "aten.exp.default", "{\"node\": \"x\"}", "", xs, "float32");
	call_node(f, "ua", "aten.unsqueeze.default", "{\"node\": \"a\"}, -1", "", us, "float32");
	call_node(f, "ub", "aten.unsqueeze.default", "{\"node\": \"b\"}, -1", "", us, "float32");
	call_node(f, "c", "aten.cat.default", "[{\"node\": \"ua\"}, {\"node\": \"ub\"}], -1", "", cs,
		  "float32");
	call_node(f, "y", "aten.select.int", "{\"node\": \"c\"}, -1, 1", "", xs, "float32");
	graph_run(f, path, vals, &fr);
	ck_assert_int_eq(fr.host_calls, 0);
	ck_assert_int_eq(fr.nkernels, 1);
}
END_TEST

/* A complex value read by anything but view_as_real or abs (here a
 * complex product) is still refused, by node and dtype (the frontend
 * then runs that graph eagerly). */
START_TEST(t_fft_complex_refused)
{
	char path[1024], vals[1024];
	int64_t xs[3] = { 4, 8, 0 }, vs[4] = { 4, 8, 2, 0 };
	npu_graph *g = NULL;
	npu_err e = { "" };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	call_node(f, "c", "aten._to_copy.default", "{\"node\": \"x\"}",
		  "\"dtype\": {\"dtype\": \"complex64\"}", xs, "complex64");
	call_node(f, "fc", "aten._fft_c2c.default", "{\"node\": \"c\"}, [1], 0, true", "", xs,
		  "complex64");
	call_node(f, "a", "aten.mul.Tensor", "{\"node\": \"fc\"}, 2.0", "", xs, "complex64");
	call_node(f, "v", "aten.view_as_real.default", "{\"node\": \"a\"}", "", vs, "float32");
	graph_end(f, "v");
	ck_assert_int_lt(npu_graph_read(&g, path, &e), 0);
	ck_assert_msg(strstr(e.msg, "node 'c'") && strstr(e.msg, "complex64"), "%s", e.msg);
	fx_teardown_tmp();
}
END_TEST

/*
 * ModernBERT on PyTorch 2.11 (a 3-layer configuration, its captured graph
 * without provenance, generated weights frozen): a far panel's load
 * (mm_4.pf, before the MLP's GELU) took the SRAM area of the panel
 * already planned for the next matmul while an earlier far panel was in
 * flight, and overwrote its weights before it ran.  The simulator's race
 * check reported it; against the fp64 reference the values must match.
 */
/* Runs captured graph tests/data/regress/NAME.json with generated values,
 * its parameters frozen, under the simulator's race check, on target
 * (NULL: npu-base), against the reference within tol (0: the dtype's),
 * with no host call. */
static void regress_run_tol(const char *name, const char *target, double tol)
{
	char path[1024], vals[1024];
	fxrun fr = { 0 };
	npu_graph *g;
	npu_err e;

	fr.o.target = target;
	fr.tol = tol;
	fx_setup_tmp();
	snprintf(path, sizeof path, "%s/tests/data/regress/%s.json", fx_srcdir(), name);
	snprintf(vals, sizeof vals, "%s/v.safetensors", fx_tmpdir);
	ck_assert_msg(npu_graph_read(&g, path, &e) == 0, "%s", e.msg);
	fx_gen_values(g, vals);
	npu_graph_free(g);
	vals_run(path, vals, &fr);
	ck_assert_int_eq(fr.host_calls, 0);
}

static void regress_run_on(const char *name, const char *target)
{
	regress_run_tol(name, target, 0);
}

static void regress_run(const char *name)
{
	regress_run_on(name, NULL);
}

/*
 * A static KV cache's update as PyTorch 2.11 captures it (ops17/inference2:
 * index_put on the cache inputs themselves, their new values the first
 * outputs): the copy of self becomes the identity in place and the DMA
 * scatter writes the rows into the inputs' own buffers, no write-back
 * copy (link.c's alias_safe); both caches in place, values as recorded.
 */
START_TEST(t_kvcache_in_place)
{
	fxrun fr = { 0 };

	fx_setup_tmp();
	fx_run_graph("ops17/inference2", &fr);
	fx_teardown_tmp();
	ck_assert_int_eq(fr.inplace, 2);
	ck_assert_int_eq(fr.host_calls, 0);
}
END_TEST

/* A scatter graph begun in path (its values file vals): the inputs x
 * (float32, shape xs), i (int64 index, is) and v (float32 values, vs);
 * x's meta, the result's, in mx. */
static FILE *xiv_begin(char *path, char *vals, size_t n, const int64_t *xs,
		       const int64_t *is, const int64_t *vs, char *mx, size_t mxn)
{
	char mi[300], mv[300];
	const char *name[3] = { "x", "i", "v" }, *meta[3] = { mx, mi, mv };
	FILE *f;

	jmeta(mx, mxn, xs, "float32");
	jmeta(mi, sizeof mi, is, "int64");
	jmeta(mv, sizeof mv, vs, "float32");
	f = graph_begin(path, vals, n);
	for (int k = 0; k < 3; k++)
		fprintf(f, "{\"name\": \"%s\", \"op\": \"placeholder\", \"target\": \"%s\", "
			"\"args\": [], \"kwargs\": {}, \"meta\": %s, \"kind\": \"input\"},\n",
			name[k], name[k], meta[k]);
	return f;
}

/*
 * index_put by one run-time index (the generated int64 values: 16
 * distinct entries 3, 10, 1, ..), [2, 32, D] at dim 1 with [2, 16, D]
 * values: on npu-base a dsct a group; on npu-edge, whose 1 MiB of SRAM
 * leaves an engine less than a group of D = 8192 (512 KiB), pieces of
 * a group's rows, each with its index entries (emit.c's scatter_rows).
 * Against the fp64 reference, no host call; accumulate=True given as a
 * keyword keeps the host call (repeated rows add).
 */
START_TEST(t_index_put_rows)
{
	static const struct { const char *target; int64_t D; int acc; } c[] = {
		{ "npu-base", 40, 0 }, { "npu-edge", 8192, 0 }, { "npu-base", 40, 1 },
	};

	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		char path[1024], vals[1024], mx[300];
		int64_t xs[4] = { 2, 32, c[i].D }, is[2] = { 16 }, vs[4] = { 2, 16, c[i].D };
		fxrun fr = { .o.target = c[i].target };
		FILE *f = xiv_begin(path, vals, sizeof path, xs, is, vs, mx, sizeof mx);
		fprintf(f, "{\"name\": \"y\", \"op\": \"call_function\", \"target\": \"aten.index_put.default\", "
			"\"args\": [{\"node\": \"x\"}, [null, {\"node\": \"i\"}], {\"node\": \"v\"}], "
			"\"kwargs\": {%s}, \"meta\": %s},\n", c[i].acc ? "\"accumulate\": true" : "", mx);
		graph_run(f, path, vals, &fr);
		ck_assert_msg(fr.host_calls == (uint64_t)c[i].acc, "%s: %llu host calls", c[i].target,
			      (unsigned long long)fr.host_calls);
	}
}
END_TEST

/*
 * scatter.src by a run-time index of 12 entries a row (past @scatsrc's
 * 8): [4, 40] updated at each row's own columns (the generated int64
 * values, distinct within a row), a DMA scatter a row with its own
 * index list (fuse.c's do_scatter_rt); against the fp64 reference.
 */
START_TEST(t_scatter_rt)
{
	char path[1024], vals[1024], mx[300];
	int64_t xs[3] = { 4, 40 }, is[3] = { 4, 12 };
	fxrun fr = { 0 };
	FILE *f = xiv_begin(path, vals, sizeof path, xs, is, is, mx, sizeof mx);

	fprintf(f, "{\"name\": \"y\", \"op\": \"call_function\", \"target\": \"aten.scatter.src\", "
		"\"args\": [{\"node\": \"x\"}, 1, {\"node\": \"i\"}, {\"node\": \"v\"}], "
		"\"kwargs\": {}, \"meta\": %s},\n", mx);
	graph_run(f, path, vals, &fr);
	ck_assert_int_eq(fr.host_calls, 0);
}
END_TEST

START_TEST(t_far_panel_areas)
{
	regress_run("modernbert_far");
}
END_TEST

/*
 * A kernel's end waits for every store it issued (npu_emit_seal).
 * CANINE's strided Conv1d (computed transposed, its blocks' stores
 * alternating between engines) ended waiting for the last block's
 * engine only, and the GELU after it read the block before's columns
 * while they were still being stored; MaxViT's squeeze-and-excitation
 * (a 1 x 1 convolution of one pixel, then sigmoid) left a store on
 * another engine reading an SRAM slot that the multiply after it
 * overwrote.  Both captured on PyTorch 2.11; each faults with the race
 * without the seal.
 */
START_TEST(t_kernel_end_stores)
{
	regress_run("se_stores");
	regress_run("conv1d_stores");
}
END_TEST

/*
 * A matmul's panel loaded kernels ahead (a far panel, over the last
 * engine) signals SEM_LD + that engine, which the matmul's own direct
 * stores on that engine use too: BoTNet's relative-position matmul
 * (timm, PyTorch 2.11) issued a store's wait there before the matrix
 * unit's, the store took the panel's token, and the matrix unit then
 * waited for ever ("deadlock: waits on s18").  The scalar unit takes
 * the token now.  Cut from the captured graph, frozen weights.
 */
START_TEST(t_far_panel_token)
{
	regress_run("botnet_far");
}
END_TEST

/*
 * A convolution computed transposed loads a block's epilogue operands
 * while the block before it runs; their engine waits first for the
 * epilogue two blocks back to free their slots, a signal issued later in
 * the program.  Visformer's patch embedding (timm, PyTorch 2.11; a
 * residual add and two BatchNorms fused in: five operands, each a load
 * and a copy down the rows) queued 60 entries behind that wait, the
 * engine's queue filled, the scalar unit stopped before the signal: a
 * deadlock.  Those loads now follow the block's end.
 */
START_TEST(t_epilogue_loads_queue)
{
	regress_run("visformer_epi");
}
END_TEST

/*
 * A cat whose inputs join the open elementwise kernel keeps room for that
 * kernel's values read later: a bidirectional LSTM's last cell (two
 * values, its h and c, read after it) took the 30 steps' copies before
 * it up to 63 operands, and closing it added the two outputs: "more than
 * 64 operands", the whole graph back to eager.  Cut from PyTorch 2.11's
 * capture of nn.LSTM(64, 128, num_layers=2, bidirectional=True).
 */
START_TEST(t_cat_room_for_outputs)
{
	regress_run("lstm_stack");
}
END_TEST

/*
 * RMSNorm over a whole [257, 257] matrix on npu-edge (1 MiB of SRAM): a
 * row too long for SRAM is reduced in one pass and normalized in the
 * next, tiles apart; its per-row results (the mean, the rsqrt), outputs
 * too, were stored from the other of their two slots: zeros
 * (check_fuzzgraph found it; emit.c rowslot).
 */
START_TEST(t_long_row_results)
{
	regress_run_on("long_rows", "npu-edge");
}
END_TEST

/*
 * A causal mask of [300, 300] from two aranges (check_fuzzgraph's case
 * 675): the fold pass keeps the comparison computed (90,000 elements
 * made from 600, cheaper to compute than to store) but had decided its
 * inputs first, taking them for inputs of a folded node, so neither
 * was folded and the aranges and the integer add became host calls.
 * Now the kept nodes are decided before their inputs: no host call.
 */
/*
 * A group norm of one group over a 257 x 257 plane and a variance over
 * it, on npu-edge (check_fuzzgraph's case 2559): their rows of 66,049
 * values take several passes, and the emitter's slots (a per-row value
 * read beside the row staged) needed more SRAM than the tiler's columns
 * left: "tile 1x30720 needs 960 KiB".  A row kernel in passes now halves
 * its columns until its slots fit, as an elementwise one does.
 */
START_TEST(t_long_rows_retiled)
{
	regress_run_on("long_group_norm", "npu-edge");
}
END_TEST

/*
 * An inference batch norm fused into a row kernel whose rows are more
 * than its channels: RMSNorm's mean over all of a [2, 4] value, then a
 * batch norm of another [1, 2, 1, 4] value of as many elements, its
 * per-channel parameters varying inside the kernel's one row, which a
 * row kernel cannot load ("the reduced dims are not contiguous in every
 * operand": npucc refused the graph; fuzz case 2,542).  It starts a
 * kernel of its own, as an elementwise op's operands do.
 */
START_TEST(t_bn_in_row_kernel)
{
	regress_run("bn_in_row");
}
END_TEST

/*
 * A group norm of one group over cos(x) of a 255 x 255 input on
 * npu-edge: values near 1 a few thousandths apart, so that the mean's
 * error is amplified by normalization.  Each of the 32 lanes summed
 * 2,032 chunks in one chain, 1.5e-3 from the fp64 reference (fuzz case
 * 10,375); chunks in rotation over four partials, 1.7e-4.
 */
START_TEST(t_long_row_sums)
{
	regress_run_tol("long_row_sums", "npu-edge", 5e-4);
}
END_TEST

START_TEST(t_kept_mask_inputs)
{
	regress_run("causal_mask_kept");
}
END_TEST

/*
 * A matmul whose kernel cannot fit the target's SRAM even at its smallest
 * blocks (it keeps all of K there: 4096 fp32 on npu-edge's 1 MiB): mm
 * runs as a sum of products over chunks of K (decomp.def's @ksplit), its
 * bias and ReLU after them; a batched one is a host call, the graph fused
 * again around it: its bias and ReLU still run on the NPU.  The whole
 * graph was refused before.
 */
START_TEST(t_too_big_for_sram)
{
	char path[1024], vals[1024];
	int64_t xs[2][4] = { { 8, 4096 }, { 1, 8, 4096 } }, ws[2][4] = { { 4096, 48 }, { 1, 4096, 48 } };
	int64_t bs[2] = { 48, 0 }, ys[2][4] = { { 8, 48 }, { 1, 8, 48 } };
	static const char *const mm[2] = { "aten.mm.default", "aten.bmm.default" };

	for (int i = 0; i < 2; i++) {
		fxrun fr = { 0 };
		FILE *f = graph_begin(path, vals, sizeof path);
		ph_node(f, "x", xs[i], "float32");
		ph_node(f, "w", ws[i], "float32");
		ph_node(f, "b", bs, "float32");
		call_node(f, "mm", mm[i], "{\"node\": \"x\"}, {\"node\": \"w\"}", "",
			  ys[i], "float32");
		call_node(f, "add", "aten.add.Tensor", "{\"node\": \"mm\"}, {\"node\": \"b\"}", "",
			  ys[i], "float32");
		call_node(f, "y", "aten.relu.default", "{\"node\": \"add\"}", "", ys[i], "float32");
		fr.o.target = "npu-edge";
		graph_run(f, path, vals, &fr);
		ck_assert_int_eq(fr.host_calls, (uint64_t)i);
	}
}
END_TEST

START_TEST(t_mse)
{
	char path[1024], vals[1024];
	int64_t xs[3] = { 4, 33, 0 }, s0[1] = { 0 };
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	ph_node(f, "t", xs, "float32");
	ph_node(f, "g0", s0, "float32");
	ph_node(f, "gn", xs, "float32");
	call_node(f, "l1", "aten.mse_loss.default", "{\"node\": \"x\"}, {\"node\": \"t\"}", "",
		  s0, "float32");
	call_node(f, "l0", "aten.mse_loss.default", "{\"node\": \"x\"}, {\"node\": \"t\"}, 0", "",
		  xs, "float32");
	call_node(f, "l2", "aten.mse_loss.default", "{\"node\": \"x\"}, {\"node\": \"t\"}, 2", "",
		  s0, "float32");
	call_node(f, "b1", "aten.mse_loss_backward.default",
		  "{\"node\": \"g0\"}, {\"node\": \"x\"}, {\"node\": \"t\"}, 1", "", xs, "float32");
	call_node(f, "b2", "aten.mse_loss_backward.default",
		  "{\"node\": \"g0\"}, {\"node\": \"x\"}, {\"node\": \"t\"}, 2", "", xs, "float32");
	call_node(f, "b0", "aten.mse_loss_backward.default",
		  "{\"node\": \"gn\"}, {\"node\": \"x\"}, {\"node\": \"t\"}, 0", "", xs, "float32");
	graph_run_outs(f, path, vals, "l1, l0, l2, b1, b2, b0", &fr);
	ck_assert_int_eq(fr.host_calls, 0);
}
END_TEST

/*
 * nll_loss_forward and nll_loss_backward as aot_autograd leaves them
 * without the core decompositions (cross entropy's loss): explicit host
 * calls, the forward's two results and the backward's, against the fp64
 * reference.
 */
START_TEST(t_nll_host)
{
	char path[1024], vals[1024], m0[300];
	int64_t xs[3] = { 3, 4, 0 }, ts[2] = { 3, 0 }, ws[2] = { 4, 0 }, s0[1] = { 0 };
	uint64_t seed = 7;
	npu_tensor v[4];
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	ph_node(f, "t", ts, "int64");
	ph_node(f, "w", ws, "float32");
	ph_node(f, "g", s0, "float32");
	jmeta(m0, sizeof m0, s0, "float32");
	multi_node(f, "l", "aten.nll_loss_forward.default",
		   "{\"node\": \"x\"}, {\"node\": \"t\"}, {\"node\": \"w\"}, 1, -100",
		   (const char *const[]){ m0, m0 }, 2);
	call_node(f, "b", "aten.nll_loss_backward.default",
		  "{\"node\": \"g\"}, {\"node\": \"x\"}, {\"node\": \"t\"}, {\"node\": \"w\"}, 1, "
		  "-100, {\"node\": \"l1\"}", "", xs, "float32");
	graph_end(f, "l0, b");
	gen_tensor(&v[0], "x", NPU_DT_F32, xs, 0, &seed);
	gen_tensor(&v[1], "t", NPU_DT_I64, ts, 4, &seed);
	((int64_t *)v[1].data)[2] = -100;   /* ignored */
	gen_tensor(&v[2], "w", NPU_DT_F32, ws, 0, &seed);
	gen_tensor(&v[3], "g", NPU_DT_F32, s0, 0, &seed);
	tensors_run(path, vals, v, 4, &fr);
	ck_assert_int_eq(fr.host_calls, 2);
}
END_TEST

/*
 * Bool masks: `x[m] = v` and `x[m] += v` with one value (index_put by a
 * mask of x's shape: decomposed into where, native), and masked_select,
 * whose size is data-dependent (a host call, checked against the 7
 * elements the graph records).
 */
START_TEST(t_mask_put)
{
	char path[1024], vals[1024];
	int64_t xs[3] = { 3, 4, 0 };
	static const float xv[12] = { 1, -2, 3, -4, 5, 6, -7, 8, -9, 10, 11, -12 };
	npu_tensor t;
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	call_node(f, "m", "aten.gt.Scalar", "{\"node\": \"x\"}, 0", "", xs, "bool");
	call_node(f, "v", "aten.scalar_tensor.default", "2.5", "", (int64_t[]){ 0 }, "float32");
	call_node(f, "p", "aten.index_put.default",
		  "{\"node\": \"x\"}, [{\"node\": \"m\"}], {\"node\": \"v\"}", "", xs, "float32");
	call_node(f, "q", "aten.index_put.default",
		  "{\"node\": \"x\"}, [{\"node\": \"m\"}], {\"node\": \"v\"}, true", "", xs, "float32");
	call_node(f, "y", "aten.add.Tensor", "{\"node\": \"p\"}, {\"node\": \"q\"}", "", xs,
		  "float32");
	call_node(f, "s", "aten.masked_select.default", "{\"node\": \"y\"}, {\"node\": \"m\"}", "",
		  (int64_t[]){ 7, 0 }, "float32");
	graph_end(f, "y, s");
	memset(&t, 0, sizeof t);
	t.name = "x";
	t.dtype = NPU_DT_F32;
	t.ndim = 2;
	memcpy(t.shape, xs, 2 * sizeof *xs);
	t.nbytes = sizeof xv;
	ck_assert_ptr_nonnull(t.data = malloc(sizeof xv));
	memcpy(t.data, xv, sizeof xv);
	tensors_run(path, vals, &t, 1, &fr);
	ck_assert_msg(fr.host_calls == 1, "masks: %llu host calls",
		      (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * masked_fill by a 0-d tensor value (a select in the lanes, the value
 * broadcast), by a mask of x's shape and by one row broadcast over x's;
 * fill by it (the value expanded): against the fp64 reference, no host
 * call.
 */
START_TEST(t_masked_fill_t)
{
	char path[1024], vals[1024];
	int64_t xs[3] = { 3, 5, 0 }, rs[3] = { 1, 5, 0 }, vs[1] = { 0 };
	uint64_t seed = 5;
	npu_tensor t[2];
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	ph_node(f, "v", vs, "float32");
	call_node(f, "m", "aten.gt.Scalar", "{\"node\": \"x\"}, 0", "", xs, "bool");
	call_node(f, "r", "aten.slice.Tensor", "{\"node\": \"x\"}, 0, 0, 1", "", rs, "float32");
	call_node(f, "m2", "aten.lt.Scalar", "{\"node\": \"r\"}, 0.25", "", rs, "bool");
	call_node(f, "y", "aten.masked_fill.Tensor",
		  "{\"node\": \"x\"}, {\"node\": \"m\"}, {\"node\": \"v\"}", "", xs, "float32");
	call_node(f, "w", "aten.masked_fill.Tensor",
		  "{\"node\": \"x\"}, {\"node\": \"m2\"}, {\"node\": \"v\"}", "", xs, "float32");
	call_node(f, "fl", "aten.fill.Tensor", "{\"node\": \"x\"}, {\"node\": \"v\"}", "", xs,
		  "float32");
	graph_end(f, "y, w, fl");
	gen_tensor(&t[0], "x", NPU_DT_F32, xs, 0, &seed);
	gen_tensor(&t[1], "v", NPU_DT_F32, vs, 0, &seed);
	tensors_run(path, vals, t, 2, &fr);
	ck_assert_msg(fr.host_calls == 0, "%llu host calls", (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * addmv (the vector as a column of a matmul; self broadcast, and left
 * out with its NaN for beta 0) and dist of orders 2, 1, 0, inf and 3
 * (the difference broadcast): decomposed, no host call, against the
 * fp64 reference.
 */
START_TEST(t_addmv_dist)
{
	char path[1024], vals[1024];
	int64_t ms[3] = { 6, 9, 0 }, vs[2] = { 9, 0 }, ss[2] = { 1, 0 }, os[2] = { 6, 0 };
	int64_t zs[1] = { 0 };
	static const char *const ords[] = { "2", "1", "0", "{\"float\": \"inf\"}", "3.0" };
	uint64_t seed = 29;
	npu_tensor t[3];
	fxrun fr = { 0 };
	char args[128], name[8], outs[64] = "a, b";
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "m", ms, "float32");
	ph_node(f, "v", vs, "float32");
	ph_node(f, "s", ss, "float32");
	call_node(f, "a", "aten.addmv.default",
		  "{\"node\": \"s\"}, {\"node\": \"m\"}, {\"node\": \"v\"}",
		  "\"beta\": 0.5, \"alpha\": 2.0", os, "float32");
	call_node(f, "n", "aten.div.Scalar", "{\"node\": \"s\"}, 0.0", "", ss, "float32");
	call_node(f, "b", "aten.addmv.default",
		  "{\"node\": \"n\"}, {\"node\": \"m\"}, {\"node\": \"v\"}",
		  "\"beta\": 0", os, "float32");
	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof name, "d%d", i);
		snprintf(args, sizeof args, "{\"node\": \"m\"}, {\"node\": \"v\"}, %s", ords[i]);
		call_node(f, name, "aten.dist.default", args, "", zs, "float32");
		snprintf(outs + strlen(outs), sizeof outs - strlen(outs), ", %s", name);
	}
	graph_end(f, outs);
	gen_tensor(&t[0], "m", NPU_DT_F32, ms, 0, &seed);
	gen_tensor(&t[1], "v", NPU_DT_F32, vs, 0, &seed);
	gen_tensor(&t[2], "s", NPU_DT_F32, ss, 0, &seed);
	((float *)t[0].data)[7] = ((float *)t[1].data)[7];   /* a 0 difference */
	tensors_run(path, vals, t, 3, &fr);
	ck_assert_msg(fr.host_calls == 0, "%llu host calls", (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * bucketize and searchsorted by 1-d boundaries with a repeated one:
 * natively as the count of boundaries below each value (at, or not
 * past, with right), against the reference's binary search, on values
 * that meet the boundaries and a NaN (past them all); out_int32 stays
 * one host call.
 */
START_TEST(t_bucketize)
{
	char path[1024], vals[1024];
	int64_t xs[3] = { 3, 7, 0 }, bs[2] = { 5, 0 };
	static const float bv[5] = { -1, -0.5f, 0, 0, 1 };
	uint64_t seed = 23;
	npu_tensor t[2];
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", xs, "float32");
	ph_node(f, "b", bs, "float32");
	call_node(f, "l", "aten.bucketize.Tensor", "{\"node\": \"x\"}, {\"node\": \"b\"}", "",
		  xs, "int64");
	call_node(f, "r", "aten.bucketize.Tensor", "{\"node\": \"x\"}, {\"node\": \"b\"}",
		  "\"right\": true", xs, "int64");
	call_node(f, "s", "aten.searchsorted.Tensor", "{\"node\": \"b\"}, {\"node\": \"x\"}",
		  "\"side\": \"right\"", xs, "int64");
	call_node(f, "i", "aten.bucketize.Tensor", "{\"node\": \"x\"}, {\"node\": \"b\"}",
		  "\"out_int32\": true", xs, "int32");
	graph_end(f, "l, r, s, i");
	gen_tensor(&t[0], "x", NPU_DT_F32, xs, 0, &seed);
	for (int i = 0; i < 21; i++)
		((float *)t[0].data)[i] = i == 4 ? NAN : roundf(((float *)t[0].data)[i] * 3) / 2;
	gen_tensor(&t[1], "b", NPU_DT_F32, bs, 0, &seed);
	memcpy(t[1].data, bv, sizeof bv);
	tensors_run(path, vals, t, 2, &fr);
	ck_assert_msg(fr.host_calls == 1, "%llu host calls", (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * Index reductions, decomposed (decomp.def): argmax and argmin along a
 * middle and the last dim and over every element, max.dim and min.dim (values and indices,
 * keepdim), amin, topk (the largest, the smallest) and sort (values and
 * indices), on values with ties
 * (the first position wins) and NaN
 * (NaN is the largest: the max, the smallest's last; its first position
 * the index), as PyTorch picks
 * them; against the fp64 reference (ref_nn.c's rules), no host call.
 * topk's values are distinct: among ties PyTorch's CPU kernel, and so the
 * reference, does not take the first (ops13 checks the host kernel's
 * choice against PyTorch's).
 */
typedef struct argx_case {
	const char *target, *args;
	int64_t in[4], out[4];
	int multi;              /* (values, indices) */
} argx_case;

static const argx_case argxs[] = {
	{ "aten.argmax.default", "1", { 3, 7, 5 }, { 3, 5 }, 0 },
	{ "aten.argmin.default", "-1, true", { 4, 9 }, { 4, 1 }, 0 },
	/* over every element (x flattened; no NaN, so that the ties
	 * decide) */
	{ "aten.argmax.default", "null", { 3, 7, 5 }, { 0 }, 0 },
	{ "aten.argmin.default", "null", { 4, 9 }, { 0 }, 0 },
	{ "aten.max.dim", "2, true", { 3, 7, 5 }, { 3, 7, 1 }, 1 },
	{ "aten.min.dim", "0", { 6, 4 }, { 4 }, 1 },
	{ "aten.amin.default", "[0]", { 6, 4 }, { 4 }, 0 },
	/* topk by rounds: the last dim, and a middle one */
	{ "aten.topk.default", "3", { 4, 9 }, { 4, 3 }, 1 },
	{ "aten.topk.default", "2, 1", { 3, 7, 5 }, { 3, 2, 5 }, 1 },
	/* unsorted, of two: the largest first, as PyTorch's nth_element
	 * leaves them */
	{ "aten.topk.default", "2, -1, true, false", { 4, 9 }, { 4, 2 }, 1 },
	/* the smallest: NaN last (the 8 of 9 reach it) */
	{ "aten.topk.default", "3, -1, false", { 4, 9 }, { 4, 3 }, 1 },
	{ "aten.topk.default", "8, 1, false", { 3, 9 }, { 3, 8 }, 1 },
	/* unsorted, k * 64 <= n: sorted by its partial_sort (no NaN: equal
	 * ones leave partial_sort's heap order) */
	{ "aten.topk.default", "3, -1, true, false", { 2, 200 }, { 2, 3 }, 1 },
	/* sort of one row by ranks (stable: ties in order; NaN last,
	 * first descending) */
	{ "aten.sort.default", "-1", { 1, 40 }, { 1, 40 }, 1 },
	{ "aten.sort.default", "0, true", { 37 }, { 37 }, 1 },
};

START_TEST(t_argx)
{
	const argx_case *c = &argxs[_i];
	char path[1024], vals[1024], mi[300], mv[300], mx[300];
	const char *ix = strstr(c->target, "arg") ? "int64" : "float32";
	uint64_t seed = 3;
	npu_tensor t;
	fxrun fr = { 0 };
	FILE *f;

	jmeta(mi, sizeof mi, c->in, "float32");
	jmeta(mv, sizeof mv, c->out, ix);
	jmeta(mx, sizeof mx, c->out, "int64");
	f = graph_begin(path, vals, sizeof path);
	fprintf(f, "{\"name\": \"x\", \"op\": \"placeholder\", \"target\": \"x\", \"args\": [], "
		"\"kwargs\": {}, \"meta\": %s, \"kind\": \"input\", \"source\": \"l_x_\"},\n", mi);
	if (c->multi) {
		jmeta(mv, sizeof mv, c->out, "float32");
		fprintf(f, "{\"name\": \"y2\", \"op\": \"call_function\", \"target\": \"%s\", "
			"\"args\": [{\"node\": \"x\"}, %s], \"kwargs\": {}, \"meta\": [%s, %s]},\n"
			"{\"name\": \"y\", \"op\": \"call_function\", \"target\": \"_operator.getitem\", "
			"\"args\": [{\"node\": \"y2\"}, 0], \"kwargs\": {}, \"meta\": %s},\n"
			"{\"name\": \"yi\", \"op\": \"call_function\", \"target\": \"_operator.getitem\", "
			"\"args\": [{\"node\": \"y2\"}, 1], \"kwargs\": {}, \"meta\": %s},\n",
			c->target, c->args, mv, mx, mv, mx);
	} else {
		fprintf(f, "{\"name\": \"y\", \"op\": \"call_function\", \"target\": \"%s\", "
			"\"args\": [{\"node\": \"x\"}, %s], \"kwargs\": {}, \"meta\": %s},\n",
			c->target, c->args, mv);
	}
	graph_end(f, c->multi ? "y, yi" : "y");
	gen_tensor(&t, "x", NPU_DT_F32, c->in, 0, &seed);
	/* three levels, so that ties are common (but for topk), and a NaN
	 * in every 11th */
	for (uint64_t i = 0; i < t.nbytes / 4; i++) {
		float *v = (float *)t.data + i;
		*v = i % 11 == 5 && strcmp(c->args, "null") && c->in[1] < 200 ? NAN :
		     strstr(c->target, "topk") ? *v : floorf(*v * 1.5f);
	}
	tensors_run(path, vals, &t, 1, &fr);
	ck_assert_msg(fr.host_calls == 0, "%s: %llu host calls", c->target,
		      (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * Sorts the lanes do not take, each one host call (pass_decomp.c's
 * @sort declines): integers of unknown range (fp32 would tie 2^30 + 1
 * and 2^30 + 2: the values reach 2^40), several rows, another dim than
 * the last, a row past 64.  And sort.stable (2.x's torch.sort(stable=
 * True) and argsort(stable=True)), its arguments keywords: descending
 * along the last dim, natively for one row (float32 and bfloat16) and
 * on the host for three.  Floats in three levels (ties).  Values and
 * indices against the reference.
 */
typedef struct sort_case {
	const char *dtype, *target, *args, *kw;
	int64_t in[4];
	uint64_t host_calls;
} sort_case;

#define SORT_STABLE_KW "\"stable\": true, \"dim\": -1, \"descending\": true"

static const sort_case sorts[] = {
	{ "int64", "aten.sort.default", ", -1", "", { 64 }, 1 },
	{ "float32", "aten.sort.default", ", -1", "", { 4, 9 }, 1 },
	{ "float32", "aten.sort.default", ", 1, true", "", { 3, 7, 5 }, 1 },
	{ "float32", "aten.sort.default", ", -1", "", { 1, 65 }, 1 },
	{ "float32", "aten.sort.stable", "", SORT_STABLE_KW, { 1, 40 }, 0 },
	{ "float32", "aten.sort.stable", "", SORT_STABLE_KW, { 3, 9 }, 1 },
	{ "bfloat16", "aten.sort.stable", "", SORT_STABLE_KW, { 1, 33 }, 0 },
};

START_TEST(t_sort)
{
	const sort_case *c = &sorts[_i];
	int dt = npu_dtype_from_name(c->dtype, strlen(c->dtype));
	char path[1024], vals[1024], mi[300], mx[300], args[64];
	const char *metas[2] = { mi, mx };
	uint64_t seed = 5;
	npu_tensor t;
	fxrun fr = { 0 };
	FILE *f;

	jmeta(mi, sizeof mi, c->in, c->dtype);
	jmeta(mx, sizeof mx, c->in, "int64");
	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", c->in, c->dtype);
	snprintf(args, sizeof args, "{\"node\": \"x\"}%s", c->args);
	multi_node_kw(f, "y", c->target, args, c->kw, metas, 2);
	graph_end(f, "y0, y1");
	gen_tensor(&t, "x", dt, c->in, (int64_t)1 << 40, &seed);
	for (size_t i = 0; dt != NPU_DT_I64 && i < t.nbytes / npu_dtype_size(dt); i++)
		npu_store_f32(dt, t.data, i, floorf(npu_load_f32(dt, t.data, i) * 3));
	tensors_run(path, vals, &t, 1, &fr);
	ck_assert_msg(fr.host_calls == c->host_calls, "%s %s %lld: %llu host calls", c->target,
		      c->dtype, (long long)c->in[0], (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * cummax, cummin and logcumsumexp in the lanes (fuse.c do_cumext):
 * PyTorch's loop, 20 steps a kernel (logcumsumexp's 31) chained by its
 * state, against the reference.  Floats in three levels for the extremes (ties: the latest
 * index wins) with a NaN in every 37th (it stays, with its own index,
 * until the next NaN); logcumsumexp's rows with -inf and inf pairs
 * (their own rule) and NaN.  Along the last dim past one kernel, a
 * middle dim, the first; bfloat16; bool (lt's result) and int64 (its
 * cast: ranges fuse.c knows); results read by another node (no copy of
 * the steps) or the graph's outputs.  int64 of unknown range and runs
 * past 256 steps stay host calls.
 */
typedef struct cumext_case {
	const char *dtype, *target;
	int dim;
	int64_t in[4];
	int pre;	/* the op's input is lt(x, 0.25), bool (1), or that
			   cast to int64 (2: a range fuse.c knows) */
	int post;	/* the values are read by a mul, not a graph output */
	uint64_t host_calls;
} cumext_case;

static const cumext_case cumexts[] = {
	{ "float32", "aten.cummax.default", -1, { 2, 70 }, 0, 0, 0 },
	{ "float32", "aten.cummin.default", 1, { 3, 7, 5 }, 0, 1, 0 },
	{ "bfloat16", "aten.cummax.default", 0, { 9, 4 }, 0, 0, 0 },
	{ "float32", "aten.cummin.default", 1, { 2, 40 }, 1, 0, 0 },
	{ "int64", "aten.cummax.default", -1, { 3, 8 }, 0, 0, 1 },
	{ "float32", "aten.cummax.default", 0, { 5, 3 }, 2, 0, 0 },
	{ "float32", "aten.cummax.default", -1, { 2, 300 }, 0, 0, 1 },
	{ "float32", "aten.logcumsumexp.default", -1, { 3, 70 }, 0, 0, 0 },
	{ "float32", "aten.logcumsumexp.default", 0, { 6, 5 }, 0, 1, 0 },
	{ "float16", "aten.logcumsumexp.default", -1, { 2, 33 }, 0, 0, 0 },
};

START_TEST(t_cumext)
{
	const cumext_case *c = &cumexts[_i];
	int dt = npu_dtype_from_name(c->dtype, strlen(c->dtype));
	int lcse = strstr(c->target, "logcumsumexp") != NULL;
	const char *vdt = c->pre ? (c->pre == 2 ? "int64" : "bool") : c->dtype;
	const char *src = c->pre ? (c->pre == 2 ? "bi" : "b") : "x";
	char path[1024], vals[1024], mv[300], mx[300], args[96], outs[16];
	const char *metas[2] = { mv, mx };
	uint64_t seed = 9;
	npu_tensor t;
	fxrun fr = { 0 };
	FILE *f;

	jmeta(mv, sizeof mv, c->in, vdt);
	jmeta(mx, sizeof mx, c->in, "int64");
	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", c->in, c->dtype);
	if (c->pre)
		call_node(f, "b", "aten.lt.Scalar", "{\"node\": \"x\"}, 0.25", "", c->in, "bool");
	if (c->pre == 2)
		call_node(f, "bi", "aten._to_copy.default", "{\"node\": \"b\"}",
			  "\"dtype\": {\"dtype\": \"int64\"}", c->in, "int64");
	snprintf(args, sizeof args, "{\"node\": \"%s\"}, %d", src, c->dim);
	if (lcse)
		call_node(f, "y0", c->target, args, "", c->in, vdt);
	else
		multi_node(f, "y", c->target, args, metas, 2);
	if (c->post)
		call_node(f, "z", "aten.mul.Tensor", "{\"node\": \"y0\"}, 2", "", c->in, vdt);
	snprintf(outs, sizeof outs, "%s%s", c->post ? "z" : "y0", lcse ? "" : ", y1");
	graph_end(f, outs);
	gen_tensor(&t, "x", dt, c->in, (int64_t)1 << 40, &seed);
	for (size_t i = 0; dt != NPU_DT_I64 && i < t.nbytes / npu_dtype_size(dt); i++) {
		float v = npu_load_f32(dt, t.data, i);
		if (!lcse)
			v = i % 37 == 30 ? NAN : floorf(v * 1.5f);
		else if (i < 2 || i % 13 == 3)
			v = -INFINITY;
		else if (i % 29 == 7 || i % 29 == 8)
			v = INFINITY;
		else
			v = i % 37 == 20 ? NAN : 3 * v;
		npu_store_f32(dt, t.data, i, v);
	}
	tensors_run(path, vals, &t, 1, &fr);
	ck_assert_msg(fr.host_calls == c->host_calls, "%s %s %lld: %llu host calls", c->target,
		      c->dtype, (long long)c->in[0], (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * nn.EmbeddingBag's sums and means on the NPU (pass_decomp.c @embbag:
 * the rows gathered, times the bags' membership on the array), against
 * the reference: per-sample weights, padding_idx (every 7th index is it),
 * an empty bag (the mean's 0), include_last_offset, bfloat16 rows, one
 * bag (the offsets' slice past the first empty, then padded).  Max
 * and a read of bag_size stay one host call each.  A table of 1,000 rows,
 * which the host call would move whole.
 */
typedef struct embbag_case {
	const char *dtype;
	int mode, psw, ilo, pad, bagsize;
	uint64_t host_calls;
	int64_t bags;
} embbag_case;

static const embbag_case embbags[] = {
	{ "float32", 0, 1, 0, -1, 0, 0, 8 },
	{ "float32", 1, 0, 0, 5, 0, 0, 8 },
	{ "bfloat16", 1, 0, 1, -1, 0, 0, 8 },
	{ "float32", 0, 0, 1, 5, 0, 0, 8 },
	{ "float32", 1, 0, 0, -1, 0, 0, 1 },
	{ "float32", 2, 0, 0, -1, 0, 1, 8 },
	{ "float32", 0, 0, 0, -1, 1, 1, 8 },
};

START_TEST(t_embbag)
{
	const embbag_case *c = &embbags[_i];
	int dt = npu_dtype_from_name(c->dtype, strlen(c->dtype));
	int64_t ws[3] = { 1000, 16, 0 }, is[2] = { 40, 0 }, os[2] = { c->bags + c->ilo, 0 };
	int64_t ys[3] = { c->bags, 16, 0 }, bs[2] = { c->bags, 0 }, nt = 3;
	char path[1024], vals[1024], args[400], m0[300], m1[300], m2[300], m3[300];
	const char *metas[4] = { m0, m1, m2, m3 };
	uint64_t seed = 17;
	npu_tensor t[4];
	fxrun fr = { 0 };
	FILE *f;

	/* the other results as PyTorch's CPU kernel shapes them: offset2bag
	 * empty on its fast path (float32 sums, no padding_idx), max_indices
	 * [B, D] for the max */
	jmeta(m0, sizeof m0, ys, c->dtype);
	if (c->mode == 0 && c->pad < 0 && dt == NPU_DT_F32)
		snprintf(m1, sizeof m1, "{\"shape\": [0], \"dtype\": \"int64\", "
			 "\"stride\": [1], \"storage_offset\": 0}");
	else
		jmeta(m1, sizeof m1, is, "int64");
	jmeta(m2, sizeof m2, bs, "int64");
	jmeta(m3, sizeof m3, c->mode == 2 ? ys : bs, "int64");
	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "w", ws, c->dtype);
	ph_node(f, "i", is, "int64");
	ph_node(f, "o", os, "int64");
	if (c->psw)
		ph_node(f, "p", is, c->dtype);
	snprintf(args, sizeof args, "{\"node\": \"w\"}, {\"node\": \"i\"}, {\"node\": \"o\"}, false, "
		 "%d, false, %s, %s, %d", c->mode, c->psw ? "{\"node\": \"p\"}" : "null",
		 c->ilo ? "true" : "false", c->pad);
	multi_node(f, "y", "aten._embedding_bag.default", args, metas, 4);
	graph_end(f, c->bagsize ? "y0, y2" : "y0");
	gen_tensor(&t[0], "w", dt, ws, 0, &seed);
	gen_tensor(&t[1], "i", NPU_DT_I64, is, ws[0], &seed);
	for (int64_t k = 0; c->pad >= 0 && k < is[0]; k += 7)
		((int64_t *)t[1].data)[k] = c->pad;
	new_tensor(&t[2], "o", NPU_DT_I64, os);
	for (int64_t b = 0; b < os[0]; b++)	/* bag 3 empty; the last ends at N */
		((int64_t *)t[2].data)[b] = b == 3 ? 2 * is[0] / 8 :
					    b == c->bags ? is[0] : b * is[0] / 8;
	if (c->psw)
		gen_tensor(&t[nt++], "p", dt, is, 0, &seed);
	tensors_run(path, vals, t, (size_t)nt, &fr);
	ck_assert_msg(fr.host_calls == c->host_calls, "embedding bag %d: %llu host calls", _i,
		      (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * Advanced indexing by several run-time indices at the last dims
 * (DLRM's z[:, iu[0], iu[1]]), on the NPU (pass_decomp.c @idxsel: the
 * element each offset selects), against the reference: negative indices
 * (every third), 2-d index shapes, three indices, NaN and infinities in
 * x (every 7th element; only the selected ones may come through), and
 * bfloat16; past 2^20 selections, the rows gathered by the offsets made
 * int64 (one leading element a row, and three).  Indices not at the last
 * dims stay a host call.
 */
typedef struct idxsel_case {
	const char *dtype;
	int64_t x[5], ix[3];     /* (0-terminated) */
	int nidx, lead;          /* index tensors; Nones before them */
	uint64_t host_calls;
} idxsel_case;

static const idxsel_case idxsels[] = {
	{ "float32", { 32, 4, 4 }, { 6 }, 2, 1, 0 },
	{ "float32", { 5, 6 }, { 3, 4 }, 2, 0, 0 },
	{ "float32", { 2, 3, 4, 5 }, { 7 }, 3, 1, 0 },
	{ "bfloat16", { 8, 5, 7 }, { 2, 9 }, 2, 1, 0 },
	{ "float32", { 5, 6, 3 }, { 4 }, 2, 0, 1 },
	{ "float32", { 1, 300, 300 }, { 40, 30 }, 2, 1, 0 },
	{ "bfloat16", { 3, 200, 200 }, { 30 }, 2, 1, 0 },
};

START_TEST(t_idxsel)
{
	const idxsel_case *c = &idxsels[_i];
	int dt = npu_dtype_from_name(c->dtype, strlen(c->dtype)), nd = 0, no = 0;
	char path[1024], vals[1024], lst[200], nm[8];
	int64_t os[6] = { 0 };
	uint64_t seed = 23;
	npu_tensor t[4];
	fxrun fr = { 0 };
	FILE *f;
	size_t at;

	while (nd < 4 && c->x[nd])
		nd++;
	for (int m = 0; m < c->lead; m++)
		os[no++] = c->x[m];
	for (int m = 0; m < 3 && c->ix[m]; m++)
		os[no++] = c->ix[m];
	for (int m = c->lead + c->nidx; m < nd; m++)
		os[no++] = c->x[m];
	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", c->x, c->dtype);
	at = (size_t)snprintf(lst, sizeof lst, "{\"node\": \"x\"}, [");
	for (int m = 0; m < c->lead; m++)
		at += (size_t)snprintf(lst + at, sizeof lst - at, "null, ");
	for (int m = 0; m < c->nidx; m++) {
		snprintf(nm, sizeof nm, "i%d", m);
		ph_node(f, nm, c->ix, "int64");
		at += (size_t)snprintf(lst + at, sizeof lst - at, "%s{\"node\": \"%s\"}",
				       m ? ", " : "", nm);
	}
	snprintf(lst + at, sizeof lst - at, "]");
	call_node(f, "y", "aten.index.Tensor", lst, "", os, c->dtype);
	graph_end(f, "y");
	gen_tensor(&t[0], "x", dt, c->x, 0, &seed);
	for (size_t i = 0; i < t[0].nbytes / npu_dtype_size(dt); i += 7)
		npu_store_f32(dt, t[0].data, i, i % 3 ? (i % 2 ? INFINITY : -INFINITY) : NAN);
	for (int m = 0; m < c->nidx; m++) {
		int64_t S = c->x[c->lead + m];
		static const char *const names[] = { "i0", "i1", "i2" };
		gen_tensor(&t[1 + m], names[m], NPU_DT_I64, c->ix, 2 * S, &seed);
		for (size_t i = 0; i < t[1 + m].nbytes / 8; i++)	/* [-S, S) */
			((int64_t *)t[1 + m].data)[i] -= S;
	}
	tensors_run(path, vals, t, (size_t)(1 + c->nidx), &fr);
	ck_assert_msg(fr.host_calls == c->host_calls, "index %d: %llu host calls", _i,
		      (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * max_pool2d_with_indices whose indices are read, and its backward, as a
 * training graph has them (ResNet's stem, VGG's stages): on the NPU, no
 * host call, against the reference: the values, the int64 indices (ties
 * everywhere: the first maximum wins; a NaN in every 11th element, two in
 * some windows: the later NaN wins, as in ATen's loop) and the gradient
 * summed where windows overlap.  Both were host calls before.
 */
typedef struct mpool_case {
	int64_t in[5], out[5];  /* (0-terminated) */
	const char *win;        /* kernel_size, stride, padding, dilation, ceil_mode */
} mpool_case;

static const mpool_case mpools[] = {
	{ { 2, 3, 10, 10 }, { 2, 3, 5, 5 }, "[3, 3], [2, 2], [1, 1], [1, 1], false" },
	{ { 1, 2, 9, 7 }, { 1, 2, 4, 3 }, "[2, 2], [2, 2], [0, 0], [1, 1], false" },
	{ { 1, 2, 10, 9 }, { 1, 2, 8, 7 }, "[3, 3], [1, 1], [1, 1], [2, 2], false" },
	{ { 1, 2, 10, 10 }, { 1, 2, 5, 5 }, "[3, 3], [2, 2], [0, 0], [1, 1], true" },
	{ { 1, 1, 8, 8 }, { 1, 1, 3, 3 }, "[3, 3], [3, 3], [1, 1], [1, 1], false" },
	{ { 1, 4, 12, 6 }, { 1, 4, 6, 3 }, "[3, 4], [2, 3], [1, 2], [1, 1], false" },
};

START_TEST(t_maxpool_train)
{
	const mpool_case *c = &mpools[_i];
	char path[1024], vals[1024], mi[300], mo[300], mx[300], args[300];
	const char *metas[2] = { mo, mx };
	uint64_t seed = 7;
	npu_tensor t[2];
	fxrun fr = { 0 };
	FILE *f;

	jmeta(mo, sizeof mo, c->out, "float32");
	jmeta(mx, sizeof mx, c->out, "int64");
	jmeta(mi, sizeof mi, c->in, "float32");
	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", c->in, "float32");
	ph_node(f, "go", c->out, "float32");
	snprintf(args, sizeof args, "{\"node\": \"x\"}, %s", c->win);
	multi_node(f, "y", "aten.max_pool2d_with_indices.default", args, metas, 2);
	snprintf(args, sizeof args, "{\"node\": \"go\"}, {\"node\": \"x\"}, %s, {\"node\": \"y1\"}",
		 c->win);
	call_node(f, "gi", "aten.max_pool2d_with_indices_backward.default", args, "", c->in,
		  "float32");
	graph_end(f, "y0, y1, gi");
	gen_tensor(&t[0], "x", NPU_DT_F32, c->in, 0, &seed);
	gen_tensor(&t[1], "go", NPU_DT_F32, c->out, 0, &seed);
	for (uint64_t i = 0; i < t[0].nbytes / 4; i++) {
		float *v = (float *)t[0].data + i;
		*v = i % 11 == 5 ? NAN : floorf(*v * 1.5f);
	}
	tensors_run(path, vals, t, 2, &fr);
	ck_assert_msg(fr.host_calls == 0, "case %d: %llu host calls", _i,
		      (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * avg_pool2d_backward of windows that overlap or pad (Inception's 3x3,
 * stride 1, padding 1, without the padding in the count: divisors that
 * vary at the edges; a ceil_mode window past the end; a divisor
 * override): per phase of the stride on the NPU, against the reference,
 * no host call (a host call before).
 */
typedef struct apool_case {
	int64_t in[5], out[5];  /* (0-terminated) */
	const char *win;        /* kernel_size .. divisor_override */
} apool_case;

static const apool_case apools[] = {
	{ { 2, 3, 9, 8 }, { 2, 3, 9, 8 }, "[3, 3], [1, 1], [1, 1], false, false, null" },
	{ { 1, 2, 10, 9 }, { 1, 2, 6, 5 }, "[3, 3], [2, 2], [1, 1], true, true, null" },
	{ { 1, 2, 7, 7 }, { 1, 2, 3, 3 }, "[3, 2], [2, 3], [0, 1], true, false, 4" },
};

START_TEST(t_avgpool_bwd)
{
	const apool_case *c = &apools[_i];
	char path[1024], vals[1024], args[300];
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", c->in, "float32");
	ph_node(f, "go", c->out, "float32");
	snprintf(args, sizeof args, "{\"node\": \"go\"}, {\"node\": \"x\"}, %s", c->win);
	call_node(f, "y", "aten.avg_pool2d_backward.default", args, "", c->in, "float32");
	graph_run(f, path, vals, &fr);
	ck_assert_msg(fr.host_calls == 0, "case %d: %llu host calls", _i,
		      (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * convolution_backward(go, x, w) with its three results as the graph's
 * outputs, compiled and simulated against the reference: x's, w's and
 * go's shapes (0-terminated), conv the arguments after the bias sizes
 * (stride .. groups).  No host call.
 */
static void conv_bwd_run(const int64_t *xs, const int64_t *ws, const int64_t *gs,
		     const char *conv, int cs)
{
	const int64_t bs[] = { ws[0], 0 };
	char path[1024], vals[1024], mx[300], mw[300], mb[300];
	fxrun fr = { 0 };
	FILE *f;

	jmeta(mx, sizeof mx, xs, "float32");
	jmeta(mw, sizeof mw, ws, "float32");
	jmeta(mb, sizeof mb, bs, "float32");
	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "go", gs, "float32");
	ph_node(f, "x", xs, "float32");
	ph_node(f, "w", ws, "float32");
	fprintf(f, "{\"name\": \"cb\", \"op\": \"call_function\", "
		"\"target\": \"aten.convolution_backward.default\", \"args\": [{\"node\": \"go\"}, "
		"{\"node\": \"x\"}, {\"node\": \"w\"}, [%lld], %s, [true, true, true]], "
		"\"kwargs\": {}, \"meta\": [%s, %s, %s]},\n", (long long)ws[0], conv, mx, mw, mb);
	call_node(f, "gi", "_operator.getitem", "{\"node\": \"cb\"}, 0", "", xs, "float32");
	call_node(f, "gw", "_operator.getitem", "{\"node\": \"cb\"}, 1", "", ws, "float32");
	call_node(f, "gb", "_operator.getitem", "{\"node\": \"cb\"}, 2", "", bs, "float32");
	graph_run_outs(f, path, vals, "gi, gw, gb", &fr);
	ck_assert_msg(fr.host_calls == 0, "case %d: %llu host calls", cs,
		      (unsigned long long)fr.host_calls);
}

/*
 * A 3-d convolution's gradients (R(2+1)D's and R3D's training steps:
 * host calls before): grad_input a 3-d convolution of grad_output with
 * zeros inserted along the stride, grad_weight one product by the im2col
 * matrix (a product a tap at a stride), grad_bias a sum.  x [2, 3, 5, 7,
 * 7], w [4, 3, kd, kh, kh].
 */
typedef struct c3bwd_case {
	int64_t kd, kh, sd, sh, pd, ph, od, oh;
} c3bwd_case;

static const c3bwd_case c3bwds[] = {
	{ 1, 3, 1, 2, 0, 1, 5, 4 },     /* R(2+1)D's spatial half, strided */
	{ 3, 1, 2, 1, 1, 0, 3, 7 },     /* its temporal half, strided */
	{ 3, 3, 1, 1, 1, 1, 5, 7 },     /* R3D's */
};

START_TEST(t_conv3d_bwd)
{
	const c3bwd_case *c = &c3bwds[_i];
	const int64_t xs[] = { 2, 3, 5, 7, 7, 0 }, ws[] = { 4, 3, c->kd, c->kh, c->kh, 0 };
	const int64_t gs[] = { 2, 4, c->od, c->oh, c->oh, 0 };
	char conv[200];

	snprintf(conv, sizeof conv, "[%lld, %lld, %lld], [%lld, %lld, %lld], [1, 1, 1], false, "
		 "[0, 0, 0], 1", (long long)c->sd, (long long)c->sh, (long long)c->sh,
		 (long long)c->pd, (long long)c->ph, (long long)c->ph);
	conv_bwd_run(xs, ws, gs, conv, _i);
}
END_TEST

/*
 * A 1-d convolution's gradients (Mamba's training step: two host calls
 * before), as a 2-d one's of height 1: its causal depthwise convolution
 * (kernel 4, padding 3, groups 8), a strided one of one group and one
 * of two groups.  x [2, 8, 20].
 */
typedef struct c1bwd_case {
	int64_t co, cig, k, st, pd, g, ol;
} c1bwd_case;

static const c1bwd_case c1bwds[] = {
	{ 8, 1, 4, 1, 3, 8, 23 },
	{ 6, 8, 3, 2, 1, 1, 10 },
	{ 6, 4, 3, 1, 1, 2, 20 },       /* two groups of four channels */
};

START_TEST(t_conv1d_bwd)
{
	const c1bwd_case *c = &c1bwds[_i];
	const int64_t xs[] = { 2, 8, 20, 0 }, ws[] = { c->co, c->cig, c->k, 0 };
	const int64_t gs[] = { 2, c->co, c->ol, 0 };
	char conv[200];

	snprintf(conv, sizeof conv, "[%lld], [%lld], [1], false, [0], %lld", (long long)c->st,
		 (long long)c->pd, (long long)c->g);
	conv_bwd_run(xs, ws, gs, conv, _i);
}
END_TEST

/*
 * _adaptive_avg_pool2d_backward of windows that vary in size: VGG's 7 x 7
 * pool of a 2 x 2 map (upsampling, at a small image), AlexNet's 6 x 6 of
 * 5 x 5 (overlapping windows), 3 x 5 of 7 x 8: Qh go Qw, two matmuls by
 * constants (decomp.def's @adaptbwd), no host call (one before).
 */
static const int64_t adapts[][2][5] = {
	{ { 2, 4, 2, 2 }, { 2, 4, 7, 7 } },
	{ { 1, 3, 5, 5 }, { 1, 3, 6, 6 } },
	{ { 1, 2, 7, 8 }, { 1, 2, 3, 5 } },
};

START_TEST(t_adaptive_pool_bwd)
{
	const int64_t (*c)[5] = adapts[_i];
	char path[1024], vals[1024];
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", c[0], "float32");
	ph_node(f, "go", c[1], "float32");
	call_node(f, "y", "aten._adaptive_avg_pool2d_backward.default",
		  "{\"node\": \"go\"}, {\"node\": \"x\"}", "", c[0], "float32");
	graph_run(f, path, vals, &fr);
	ck_assert_msg(fr.host_calls == 0, "case %d: %llu host calls", _i,
		      (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * embedding_dense_backward (PyTorch 1.13's training graphs): the rows of
 * go summed per index, the padding index's left out (padding_idx -1: none),
 * as onehot(indices)^T @ go on the matrix unit (decomp.def's @embbwd),
 * against the reference, no host call (one before).  12 rows, 10 indices
 * drawn from them, and 20,000 rows (six pieces of the one-hot) with 280:
 * repeats, the last row, and the padding row among them.
 */
START_TEST(t_embedding_bwd)
{
	/* _i 2, 3: a 20,000-row table at 280 tokens, in six pieces of rows */
	const int64_t V = _i < 2 ? 12 : 20000, T = _i < 2 ? 5 : 140, pad = _i & 1 ? -1 : V - 9;
	const int64_t gs[] = { 2, T, 8, 0 }, is[] = { 2, T, 0 }, ws[] = { V, 8, 0 };
	char path[1024], vals[1024], args[200];
	uint64_t seed = 11;
	npu_tensor t[2];
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "go", gs, "float32");
	ph_node(f, "ix", is, "int64");
	snprintf(args, sizeof args, "{\"node\": \"go\"}, {\"node\": \"ix\"}, %lld, %lld, false",
		 (long long)V, (long long)pad);
	call_node(f, "y", "aten.embedding_dense_backward.default", args, "", ws, "float32");
	graph_end(f, "y");
	gen_tensor(&t[0], "go", NPU_DT_F32, gs, 0, &seed);
	gen_tensor(&t[1], "ix", NPU_DT_I64, is, V, &seed);
	((int64_t *)t[1].data)[4] = V - 9;
	((int64_t *)t[1].data)[7] = V - 9;
	((int64_t *)t[1].data)[8] = V - 1;
	tensors_run(path, vals, t, 2, &fr);
	ck_assert_msg(fr.host_calls == 0, "%llu host calls", (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * Decomposed unary functions (decomp.def: atan by range reduction and a
 * series, asin, acos, asinh through it; acosh, atanh through log1p) and
 * pow of a number by x (vpow) over wide values, +-1, +-0, +-inf and NaN:
 * against the fp64 reference, NaN and Inf where it has them, no host
 * call.
 */
static const struct {
	const char *target, *pre;	/* pre: the arguments before x */
} unaries[] = {
	{ "aten.atan.default", "" }, { "aten.asin.default", "" },
	{ "aten.acos.default", "" }, { "aten.asinh.default", "" },
	{ "aten.acosh.default", "" }, { "aten.atanh.default", "" },
	{ "aten.pow.Scalar", "2.5, " }, { "aten.pow.Scalar", "0.5, " },
	{ "aten.pow.Scalar", "-2, " }, { "aten.pow.Scalar", "1, " },
	{ "aten.pow.Scalar", "0, " },
};

START_TEST(t_unary)
{
	const char *tg = unaries[_i].target;
	char path[1024], vals[1024], mi[300];
	int64_t sh[3] = { 6, 50, 0 };
	static const float special[] = { 1, -1, 0, -0.0f, INFINITY, -INFINITY, NAN, 0.5f,
					 1e-30f, 3e30f };
	uint64_t seed = 11;
	npu_tensor t;
	fxrun fr = { 0 };
	FILE *f;

	jmeta(mi, sizeof mi, sh, "float32");
	f = graph_begin(path, vals, sizeof path);
	fprintf(f, "{\"name\": \"x\", \"op\": \"placeholder\", \"target\": \"x\", \"args\": [], "
		"\"kwargs\": {}, \"meta\": %s, \"kind\": \"input\", \"source\": \"l_x_\"},\n"
		"{\"name\": \"y\", \"op\": \"call_function\", \"target\": \"%s\", "
		"\"args\": [%s{\"node\": \"x\"}], \"kwargs\": {}, \"meta\": %s},\n"
		"{\"name\": \"output\", \"op\": \"output\", \"target\": \"output\", "
		"\"args\": [[{\"node\": \"y\"}]], \"kwargs\": {}}]}\n", mi, tg,
		unaries[_i].pre, mi);
	fclose(f);
	gen_tensor(&t, "x", NPU_DT_F32, sh, 0, &seed);
	for (uint64_t i = 0; i < t.nbytes / 4; i++) {
		float *v = (float *)t.data + i;
		/* the first rows in [-1, 1) (asin's and acos's domain), then
		 * near +-tan(pi/8), where atan's series is at its worst, then
		 * magnitudes up to e^6 (pow's exponents within +-25), then
		 * the special values */
		if (i >= 100 && i < 200)
			*v = (*v < 0 ? -1 : 1) * (0.38f + 0.07f * fabsf(*v));
		else if (i >= 200 && i < 280 && !*unaries[_i].pre)
			*v = *v * expf(6 * fabsf(*v));
		else if (i >= 200 && i < 280)	/* (within float's range) */
			*v = *v * 25;
		else if (i >= 280)
			*v = special[i % 10];
	}
	tensors_run(path, vals, &t, 1, &fr);
	ck_assert_msg(fr.host_calls == 0, "%s: %llu host calls", tg,
		      (unsigned long long)fr.host_calls);
}
END_TEST

/*
 * Ops the NPU leaves to the host, known to npucc so that they stay one
 * explicit host call inside the program (PyTorch 2.11 otherwise runs
 * them between graphs): erfc, erfinv, lgamma, digamma, i0, erfcx and
 * signbit over values in [-4, 4) and +-0, +-1, +-inf, NaN, 1e-30, and
 * copysign by those; against the fp64 reference, NaN and Inf where it
 * has them.  And the ones decomposed: angle of a real x, round by
 * decimals (both signs), ldexp, with no host call.
 */
static const struct {
	const char *target, *kw;
	int host;
} host_unaries[] = {
	{ "aten.erfc.default", "", 1 }, { "aten.erfinv.default", "", 1 },
	{ "aten.lgamma.default", "", 1 }, { "aten.digamma.default", "", 1 },
	{ "aten.i0.default", "", 1 }, { "aten.special_erfcx.default", "", 1 },
	{ "aten.signbit.default", "", 1 }, { "aten.copysign.Tensor", "", 1 },
	{ "aten.angle.default", "", 0 }, { "aten.round.decimals", "\"decimals\": 2", 0 },
	{ "aten.round.decimals", "\"decimals\": -1", 0 }, { "aten.ldexp.Tensor", "", 0 },
};

START_TEST(t_unary_host)
{
	const char *tg = host_unaries[_i].target;
	char path[1024], vals[1024], args[128];
	int64_t sh[3] = { 4, 40, 0 };
	static const float special[] = { 1, -1, 0, -0.0f, INFINITY, -INFINITY, NAN, 1e-30f };
	int bin = strstr(tg, "copysign") || strstr(tg, "ldexp");
	uint64_t seed = 17;
	npu_tensor t[2];
	fxrun fr = { 0 };
	FILE *f;

	f = graph_begin(path, vals, sizeof path);
	ph_node(f, "x", sh, "float32");
	if (bin)
		ph_node(f, "y", sh, "float32");
	snprintf(args, sizeof args, "{\"node\": \"x\"}%s", bin ? ", {\"node\": \"y\"}" : "");
	call_node(f, "r", tg, args, host_unaries[_i].kw, sh,
		  strstr(tg, "signbit") ? "bool" : "float32");
	graph_end(f, "r");
	for (int k = 0; k <= bin; k++) {
		gen_tensor(&t[k], k ? "y" : "x", NPU_DT_F32, sh, 0, &seed);
		for (uint64_t i = 0; i < t[k].nbytes / 4; i++) {
			float *v = (float *)t[k].data + i;
			*v = i >= 120 ? special[(i + 3 * k) % 8] : *v * 4;
		}
	}
	tensors_run(path, vals, t, (size_t)bin + 1, &fr);
	ck_assert_msg(fr.host_calls == (uint64_t)host_unaries[_i].host, "%s: %llu host calls", tg,
		      (unsigned long long)fr.host_calls);
}
END_TEST

static Suite *models_suite(void)
{
	Suite *s = suite_create("models");
	TCase *tc = tcase_create("models");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, t_model, 0, (int)(sizeof zoo / sizeof zoo[0]));
	tcase_add_loop_test(tc, t_op, 0, (int)(sizeof ops / sizeof ops[0]));
	tcase_add_loop_test(tc, t_op_edge, 0, (int)(sizeof edge_ops / sizeof edge_ops[0]));
	tcase_add_loop_test(tc, t_conv_pool, 0, (int)(sizeof cpools / sizeof cpools[0]));
	tcase_add_loop_test(tc, t_gather, 0, (int)(sizeof gathers / sizeof gathers[0]));
	tcase_add_loop_test(tc, t_int, 0, (int)(sizeof ints / sizeof ints[0]));
	tcase_add_test(tc, t_index_add);
	tcase_add_test(tc, t_mask_put);
	tcase_add_test(tc, t_masked_fill_t);
	tcase_add_test(tc, t_bucketize);
	tcase_add_test(tc, t_addmv_dist);
	tcase_add_test(tc, t_long_sum);
	tcase_add_test(tc, t_many_sums);
	tcase_add_test(tc, t_scatter_into_fill);
	tcase_add_test(tc, t_new_fills);
	tcase_add_test(tc, t_act_bwd_pieces);
	tcase_add_test(tc, t_bn_bwd_host);
	tcase_add_test(tc, t_mse);
	tcase_add_test(tc, t_fft_real);
	tcase_add_test(tc, t_far_panel_areas);
	tcase_add_test(tc, t_kvcache_in_place);
	tcase_add_test(tc, t_index_put_rows);
	tcase_add_test(tc, t_scatter_rt);
	tcase_add_test(tc, t_kernel_end_stores);
	tcase_add_test(tc, t_too_big_for_sram);
	tcase_add_test(tc, t_cat_room_for_outputs);
	tcase_add_test(tc, t_long_row_results);
	tcase_add_test(tc, t_kept_mask_inputs);
	tcase_add_test(tc, t_bn_in_row_kernel);
	tcase_add_test(tc, t_long_row_sums);
	tcase_add_test(tc, t_long_rows_retiled);
	tcase_add_test(tc, t_far_panel_token);
	tcase_add_test(tc, t_epilogue_loads_queue);
	tcase_add_test(tc, t_fft_real_part);
	tcase_add_test(tc, t_fft_abs);
	tcase_add_test(tc, t_select_of_stack);
	tcase_add_test(tc, t_fft_complex_refused);
	tcase_add_test(tc, t_nll_host);
	tcase_add_loop_test(tc, t_intk, 0, (int)(sizeof intks / sizeof intks[0]));
	tcase_add_loop_test(tc, t_red_perm, 0, (int)(sizeof redperms / sizeof redperms[0]));
	tcase_add_test(tc, t_onehot_put);
	tcase_add_loop_test(tc, t_argx, 0, (int)(sizeof argxs / sizeof argxs[0]));
	tcase_add_loop_test(tc, t_sort, 0, (int)(sizeof sorts / sizeof sorts[0]));
	tcase_add_loop_test(tc, t_cumext, 0, (int)(sizeof cumexts / sizeof cumexts[0]));
	tcase_add_loop_test(tc, t_embbag, 0, (int)(sizeof embbags / sizeof embbags[0]));
	tcase_add_loop_test(tc, t_idxsel, 0, (int)(sizeof idxsels / sizeof idxsels[0]));
	tcase_add_loop_test(tc, t_maxpool_train, 0, (int)(sizeof mpools / sizeof mpools[0]));
	tcase_add_loop_test(tc, t_avgpool_bwd, 0, (int)(sizeof apools / sizeof apools[0]));
	tcase_add_loop_test(tc, t_adaptive_pool_bwd, 0, (int)(sizeof adapts / sizeof adapts[0]));
	tcase_add_loop_test(tc, t_embedding_bwd, 0, 4);
	tcase_add_loop_test(tc, t_conv3d_bwd, 0, (int)(sizeof c3bwds / sizeof c3bwds[0]));
	tcase_add_loop_test(tc, t_conv1d_bwd, 0, (int)(sizeof c1bwds / sizeof c1bwds[0]));
	tcase_add_loop_test(tc, t_unary, 0, (int)(sizeof unaries / sizeof unaries[0]));
	tcase_add_loop_test(tc, t_unary_host, 0,
			    (int)(sizeof host_unaries / sizeof host_unaries[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(models_suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
