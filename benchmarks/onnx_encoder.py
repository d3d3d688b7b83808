"""The shipped model's transformer exported to ONNX and run by ONNX Runtime, against eager PyTorch, float32,
one thread, measured alternately in one run (a benchmark; issue 31 asked for the measurement).

ONNX Runtime is srl_zoo's optional `onnx` extra (pinned in requirements.lock):

    python -m benchmarks onnx_encoder models/ewt-english.tar.gz data/ewt/conll2012/dev.gold_conll.gz

The first N dev sentences at their gold predicates through the `srl_zoo` predictor, batches of similar
length, best of `--rounds`; only the transformer runs in ONNX Runtime (the scorer, CRF and output building
stay in PyTorch), and the tags of both are compared.
"""

import os
import tempfile
from types import SimpleNamespace

import onnxruntime
import torch
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import srl_zoo.plugin  # noqa: F401  (applies the patches)
from benchmarks.alternating_runs import best_of_alternating_runs, print_against
from benchmarks.arguments import archive_parser
from srl_zoo.data.gold_requests import gold_predicate_batches


class OnnxRuntimeEncoder(torch.nn.Module):
    """Stands in for a Hugging Face BERT in allennlp's embedder: `(input_ids, attention_mask)` in,
    an object with `last_hidden_state (batch, pieces, hidden)` out, computed by an ONNX Runtime session."""

    def __init__(self, session: onnxruntime.InferenceSession) -> None:
        super().__init__()
        self.session = session

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, **_: object) -> SimpleNamespace:
        (states,) = self.session.run(
            None, {"input_ids": input_ids.numpy(), "attention_mask": attention_mask.float().numpy()}
        )
        return SimpleNamespace(last_hidden_state=torch.from_numpy(states))


def export(transformer: torch.nn.Module, path: str) -> None:
    """`transformer` to an ONNX file with the batch and piece axes free."""

    class LastHiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            return self.transformer(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    example = (torch.randint(1000, 2000, (2, 7)), torch.ones(2, 7))
    axes = {0: "batch", 1: "pieces"}
    torch.onnx.export(
        LastHiddenState().eval(),
        example,
        path,
        input_names=["input_ids", "attention_mask"],
        output_names=["last_hidden_state"],
        dynamic_axes={"input_ids": axes, "attention_mask": axes, "last_hidden_state": axes},
        opset_version=17,
        dynamo=False,
    )


def main() -> None:
    parser = archive_parser(__doc__)
    parser.add_argument("--sentences", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    batches, tokens = gold_predicate_batches(args.data, sentences=args.sentences)
    predictors = {
        name: Predictor.from_archive(load_archive(args.archive), "srl_zoo", extra_args={"precision": "float32"})
        for name in ("eager PyTorch", "ONNX Runtime encoder")
    }
    embedder = predictors["ONNX Runtime encoder"]._model.text_field_embedder._token_embedders["tokens"]
    matched = embedder._matched_embedder
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "encoder.onnx")
        export(matched.transformer_model, path)
        session = onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    matched.transformer_model = OnnxRuntimeEncoder(session)
    for predictor in predictors.values():
        predictor.predict_batch_json(batches[0])  # warm-up
    runs = {name: predictor.predict_batch_json for name, predictor in predictors.items()}
    best, tags = best_of_alternating_runs(runs, batches, tokens, args.rounds)
    print(f"{sum(map(len, batches))} sentences, {tokens} tokens, float32, one thread, best of {args.rounds}")
    print_against("eager PyTorch", best, tags)


if __name__ == "__main__":
    main()
