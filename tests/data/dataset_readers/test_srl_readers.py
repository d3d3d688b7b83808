"""The registered readers: one Instance per sentence, lazily, with max_instances and worker processes."""

import pytest
from allennlp.common import Params
from allennlp.data import DatasetReader, Vocabulary
from allennlp.data.data_loaders import MultiProcessDataLoader

import srl_zoo.plugin  # noqa: F401  (registers the readers)
from srl_zoo.data.sentence_metadata import metadata_of
from tests.conftest import fixture_path

SAMPLES = {
    "conll2005": (fixture_path("conll2005", "sample.txt"), 62),
    "conll2012": (fixture_path("conll2012", "sample.gold_conll"), 80),
    "conll2009": (fixture_path("conll2009", "sample.txt"), 80),
}


@pytest.mark.parametrize("name", SAMPLES)
def test_one_instance_per_sentence_with_all_frames(name):
    path, predicates = SAMPLES[name]
    reader = DatasetReader.from_params(Params({"type": name}))
    instances = list(reader.read(path))
    assert len(instances) == 20
    assert sum(len(instance["frames"]) for instance in instances) == predicates
    first = instances[0]
    assert [t.text for t in first["tokens"].tokens] == ["From", "the", "AP", "comes", "this", "story", ":"]
    assert first["frames"].predicate_indices == [3]
    assert first["pos_tags"].labels[3] == "VBZ"
    assert metadata_of(first).sentence.tokens == metadata_of(first).words
    assert ("dependency_heads" in first.fields) == (name == "conll2009")


def test_conll2005_tags_and_frames_tensor():
    path, _ = SAMPLES["conll2005"]
    reader = DatasetReader.from_params(Params({"type": "conll2005"}))
    instances = list(reader.read(path))
    assert instances[0]["frames"].tags == [["B-A2", "I-A2", "I-A2", "B-V", "B-A1", "I-A1", "O"]]
    vocab = Vocabulary.from_instances(instances)
    for instance in instances:
        instance.index_fields(vocab)
    tensor = instances[1]["frames"].as_tensor({"num_frames": 4, "num_tokens": 25})
    assert tensor["predicate_indices"].tolist() == [4, 8, -1, -1]
    assert tensor["tags"].shape == (4, 25)
    assert vocab.get_token_from_index(int(tensor["tags"][0, 4]), "labels") == "B-V"


def test_conll2009_dependency_fields():
    path, _ = SAMPLES["conll2009"]
    reader = DatasetReader.from_params(Params({"type": "conll2009"}))
    first = next(iter(reader.read(path)))
    assert first["dependency_heads"].labels == [3, 3, 4, 0, 6, 4, 4]
    assert first["frames"].tags == [["O", "O", "B-A2", "O", "O", "B-A1", "O"]]
    assert metadata_of(first).predicate_senses == ["come.03"]


def test_label_convention_and_columns_from_config():
    reader = DatasetReader.from_params(Params({"type": "conll2012", "label_convention": "conll2005"}))
    first = next(iter(reader.read(SAMPLES["conll2012"][0])))
    assert first["frames"].tags[0][0] == "B-A2"
    reader = DatasetReader.from_params(
        Params(
            {
                "type": "conll2005",
                "columns": {
                    "word": 0,
                    "pos": None,
                    "parse": None,
                    "named_entities": None,
                    "target": 4,
                    "first_props": 5,
                },
            }
        )
    )
    first = next(iter(reader.read(SAMPLES["conll2005"][0])))
    assert "pos_tags" not in first.fields


def test_max_instances_and_laziness():
    reader = DatasetReader.from_params(Params({"type": "conll2005", "max_instances": 3}))
    assert len(list(reader.read(SAMPLES["conll2005"][0]))) == 3
    lazy = reader.read(fixture_path("conll2005", "does-not-exist.txt"))  # nothing is read yet
    with pytest.raises(ValueError, match="does-not-exist.txt: no such file"):
        next(iter(lazy))


@pytest.mark.parametrize("name", SAMPLES)
def test_multi_process_loader_reads_every_sentence_once(name):
    path, predicates = SAMPLES[name]
    reader = DatasetReader.from_params(Params({"type": name}))
    loader = MultiProcessDataLoader(reader, path, batch_size=4, num_workers=2)
    loader.index_with(Vocabulary.from_instances(reader.read(path)))
    batches = list(loader)
    assert sum(len(batch["metadata"]) for batch in batches) == 20
    assert sum(int((batch["frames"]["predicate_indices"] >= 0).sum()) for batch in batches) == predicates


def test_tags_unseen_in_the_vocabulary_index_as_outside():
    path, _ = SAMPLES["conll2005"]
    reader = DatasetReader.from_params(Params({"type": "conll2005"}))
    instances = list(reader.read(path))
    vocab = Vocabulary.from_instances(instances[:1])  # knows only B-A2 I-A2 B-V B-A1 I-A1 O
    instance = instances[1]
    instance.index_fields(vocab)
    tags = instance["frames"].as_tensor(instance["frames"].get_padding_lengths())["tags"]
    outside = vocab.get_token_index("O", "labels")
    unknown = [
        i for i, t in enumerate(instance["frames"].tags[0]) if t not in ("B-A2", "I-A2", "B-V", "B-A1", "I-A1", "O")
    ]
    assert unknown and all(int(tags[0, i]) == outside for i in unknown)
