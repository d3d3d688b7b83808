"""What a device call does: its training jobs (every paper's GPU config, the 6-layer recipe, the srl_bert peer) and
its plans (how many batches and sentences, which jobs, and when each part must have ended)."""

import dataclasses
from typing import Optional


@dataclasses.dataclass(frozen=True)
class Job:
    """One training run: a config of training_configs/ (its GPU variant) under a name."""

    name: str
    config: str
    full_epoch: bool = False  # train one whole epoch of the training file (else the plan's fixed steps)


# Every paper family under training_configs/ (tests/test_device_call.py checks the coverage), on the
# GPU configs of training_configs/gpu/. GloVe does not travel (69 MB): its configs train on random vectors.
PAPER_JOBS = (
    Job("deepatt_ffn", "training_configs/gpu/deepatt_ffn_glove_conll2005.jsonnet"),
    Job("deepatt_glu", "training_configs/gpu/deepatt_glu_glove_conll2005.jsonnet"),
    Job("selective_connection", "training_configs/gpu/sc_bilstm_glove_conll2005.jsonnet"),
    Job("selective_connection_crf", "training_configs/gpu/sc_bilstm_crf_glove_conll2005.jsonnet"),
    Job("lisa", "training_configs/gpu/lisa_glove_conll2005.jsonnet"),
    Job("amn_conll2009", "training_configs/gpu/amn_bilstm_conll2009.jsonnet"),
    Job("minilm_bilinear_crf", "training_configs/gpu/minilm_bilinear_crf_conll2012.jsonnet"),
    Job("minilm_l3_sc_crf", "training_configs/gpu/minilm_l3_sc_crf_conll2012.jsonnet", full_epoch=True),
)
SIX_LAYERS = Job("minilm_l6_sc_nogates_crf", "training_configs/gpu/minilm_l6_sc_nogates_crf_conll2012.jsonnet")
PEER_CONFIG = "training_configs/peers/srl_bert_minilm_l3.jsonnet"
THROUGHPUT_MODEL = "minilm_l3_sc_crf"  # whose archive the labeling throughput measures (the shipped recipe)


@dataclasses.dataclass(frozen=True)
class Plan:
    """How much of everything a call does, and when each part must have ended (fractions of the deadline)."""

    cuda_device: int
    batches_per_epoch: int  # the fixed-step jobs: 2 epochs of this many batches
    max_train_sentences: Optional[int]  # the fixed-step jobs read this many training sentences
    max_dev_sentences: Optional[int]  # None: validate on the whole dev file
    six_layer_batches: Optional[int]  # None: whole epochs under the wall-clock budget
    label_sentences: int
    max_peer_rows: int  # the srl_bert peer reads this many (sentence, predicate) rows to train on
    only_jobs: Optional[tuple[str, ...]] = None  # these of PAPER_JOBS (None: all)
    peer: bool = True  # train srl_bert and measure its labeling beside srl_zoo's
    six_layers: bool = True  # train the best recipe on all 6 MiniLM layers and send its archive back
    full_epochs: bool = True  # a job marked full_epoch trains a whole epoch (else the fixed steps of the others)
    label_batch_sizes: tuple[int, ...] = (128,)
    label_allennlp_batch_sizes: Optional[tuple[int, ...]] = None  # the predictor and srl_bert too (None: all)
    paper_end: float = 0.50
    six_layer_train_end: float = 0.72
    six_layer_end: float = 0.84
    label_end: float = 0.95


# a second, short call: the shipped recipe's epoch alone on the GPU, then its labeling at two batch sizes
TIMING = Plan(
    cuda_device=0,
    batches_per_epoch=60,
    max_train_sentences=None,
    max_dev_sentences=None,
    six_layer_batches=None,
    label_sentences=2000,
    max_peer_rows=0,
    only_jobs=("minilm_l3_sc_crf",),
    peer=False,
    six_layers=False,
    label_batch_sizes=(128, 512),
    paper_end=0.70,
    label_end=0.96,
)

# the labeling alone: 10,000 sentences through the runtime at three batch sizes, the allennlp predictor and srl_bert
# at 128 beside it; the archives measured are trained for 2 x 30 batches (speed does not need F1)
LABELING = Plan(
    cuda_device=0,
    batches_per_epoch=30,
    max_train_sentences=3000,
    max_dev_sentences=500,
    six_layer_batches=None,
    label_sentences=10000,
    max_peer_rows=2000,
    only_jobs=("minilm_l3_sc_crf",),
    six_layers=False,
    full_epochs=False,
    label_batch_sizes=(32, 128, 512),
    label_allennlp_batch_sizes=(128,),
    paper_end=0.35,
    label_end=0.95,
)

PLANS = {
    "gpu": Plan(0, 60, 3000, None, None, 10000, 2000),
    "rehearsal": Plan(-1, 2, 48, 24, 2, 48, 40, paper_end=0.55, six_layer_train_end=0.70, six_layer_end=0.80),
    "timing": TIMING,
    "timing-rehearsal": dataclasses.replace(
        TIMING,
        cuda_device=-1,
        batches_per_epoch=2,
        max_train_sentences=48,
        max_dev_sentences=24,
        six_layer_batches=2,
        label_sentences=48,
        label_batch_sizes=(16, 48),
        paper_end=0.75,
        label_end=0.95,
    ),
    "labeling": LABELING,
    # the labeling call's steps on the CPU: the same jobs, a handful of batches and sentences
    "labeling-rehearsal": dataclasses.replace(
        LABELING,
        cuda_device=-1,
        batches_per_epoch=2,
        max_train_sentences=48,
        max_dev_sentences=24,
        label_sentences=48,
        max_peer_rows=40,
        label_batch_sizes=(8, 16),
        label_allennlp_batch_sizes=(16,),
        paper_end=0.55,
    ),
}
