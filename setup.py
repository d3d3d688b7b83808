"""srl_zoo: semantic role labeling models (DeepAtt, LISA, selective connection, AMN) for AllenNLP."""

from pathlib import Path

from setuptools import find_packages, setup

setup(
    name="srl_zoo",
    version="0.1.0",
    description="Semantic role labeling models and CoNLL readers as an AllenNLP plugin",
    long_description=Path("README.md").read_text(encoding="utf-8"),
    long_description_content_type="text/markdown",
    packages=find_packages(include=["srl_zoo", "srl_zoo.*"]),
    # the page of `srl-zoo serve`; the rolesets table of PropBank's frame files
    package_data={"srl_zoo.serving": ["static/*"], "srl_zoo.frames": ["*.json.gz", "SOURCE.md"]},
    python_requires=">=3.11",
    # What labeling needs (the runtime, srl_zoo.runtime), as lower bounds: `pip install .` on Python 3.11-3.13.
    # Training's pinned set, allennlp 2.10.1 included, is requirements.lock with --no-deps (`make install`):
    # allennlp's own metadata pins torch<1.13, which cannot be resolved on Python 3.11 (see README).
    install_requires=[
        "torch>=2.1",
        "numpy>=1.24",
        "tokenizers>=0.13.3",
        "spacy>=3.8",
        "spacy-lookups-data>=1.0.3",  # the lemmas of readable frames
        "tqdm>=4.62",
        "starlette>=0.27",  # srl-zoo serve
        "uvicorn>=0.22",
    ],
    # the runtime computes BERT encoders (the default model's MiniLM) itself; others (MPNet) come from transformers;
    # corpus labeling on a Ray cluster (`srl_zoo.labeling.ray_data`) needs Ray Data
    extras_require={
        "transformers": ["transformers>=4.25.1"],
        "ray": ["ray[data]>=2.40"],
        # precision int8: the transformer in ONNX Runtime, its weights in blocks of int8 (docs/labeling.md)
        "onnx": ["onnxruntime>=1.22", "onnx>=1.16", "onnx-ir>=0.1"],
        # precision int8 run by OpenVINO on the same graph, 1.4x ONNX Runtime on MPNet-base (docs/benchmarks.md);
        # ONNX Runtime still makes the graph
        "openvino": ["openvino>=2026.4", "onnxruntime>=1.22", "onnx>=1.16", "onnx-ir>=0.1"],
    },
    # `nlp.add_pipe("srl_zoo", config={"archive": ...})` without importing srl_zoo first
    entry_points={
        "spacy_factories": ["srl_zoo = srl_zoo.spacy_component:make_srl_component"],
        # srl-zoo label|evaluate|export|neighbours|teach|train|predict, from any directory
        "console_scripts": ["srl-zoo = srl_zoo.cli:main"],
    },
    license="Apache-2.0",
)
