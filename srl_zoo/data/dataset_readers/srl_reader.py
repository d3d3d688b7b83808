"""Shared dataset reader logic: one Instance per sentence with all of its predicate frames."""

import os
from collections.abc import Iterable, Iterator
from typing import Any, Optional

from allennlp.data import DatasetReader, Instance, Token
from allennlp.data.fields import Field, MetadataField, TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer, TokenIndexer

from srl_zoo.config_fit import TRAINING_DATA
from srl_zoo.data.fields import SrlFramesField
from srl_zoo.data.fields.side_label_field import SideLabelField
from srl_zoo.data.formats import SrlSentence
from srl_zoo.data.formats.dependency_trees import attach_dependency_trees
from srl_zoo.data.formats.labels import NOT_A_PREDICATE, predicate_label
from srl_zoo.data.formats.teacher_distributions import TeacherFrames, attach_teacher
from srl_zoo.data.sentence_metadata import SentenceMetadata


class SrlReader(DatasetReader):
    """Base class of the CoNLL readers: subclasses only say how to parse a file into `SrlSentence`s.

    Instance fields: `tokens`; `frames` (predicate indices + per-frame BIO tags, namespace
    `labels`); `predicate_labels` per token (`-`, or the sense suffix such as `01`/`LV`, or `Y`
    where the format has no senses; namespace `predicate_senses`, which has an OOV entry) when
    predicates are known; `pos_tags` (namespace `pos`) where the format has them, and then also
    `pos_predicate_labels` (`POS/predicate-label`, e.g. `VBD/Y` or `NN/-`, namespace
    `pos_predicate`, for LISA's joint tagger); `dependency_heads` (1-based, 0 = root) and
    `dependency_labels` (namespace `dependency_relations`) for CoNLL-2009 or from
    `dependency_files`; `metadata` with the words, the predicate indices, lemmas and senses,
    whether heads were given with a request (`heads_given`), and the parsed `SrlSentence`.

    Works lazily, with `max_instances`, and with allennlp's multi-process data loader.

    # Parameters

    token_indexers : `Dict[str, TokenIndexer]`, optional (default `{"tokens": SingleIdTokenIndexer()}`).
    label_convention : `str`, optional. Respell argument labels as `"conll2005"` (`A0`, `AM-TMP`)
        or `"propbank"` (`ARG0`, `ARGM-TMP`); `None` keeps the file's spelling.
    dependency_files : `Dict[str, str]`, optional. Data file path → a CoNLL-U or CoNLL-2009 file
        with the dependency trees of the same sentences (same order, same tokens), whose heads and
        relations replace the data's own (e.g. for LISA on span data: the EWT CoNLL-2009 files hold
        UD trees of the CoNLL-2005/2012 sentences). A path read without an entry keeps its own
        trees (none for CoNLL-2005/2012). Misaligned files are a clear error naming file and line.
    teacher_files : `Dict[str, str]`, optional. Data file path → a teacher model's tag distributions for
        its frames (`srl-zoo teach`), which the output layer learns beside the gold tags (knowledge
        distillation: its `teacher_weight`). A file made from other data is refused, naming both files
        and the sentence.
    """

    #: whether the format's arguments are head words (dependency SRL, CoNLL-2009: scored like eval09.pl)
    #: rather than spans
    dependency_srl: bool = False

    @classmethod
    def config_offers(cls, config: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """What its data's labels are on, for the parts made for one kind (`srl_zoo.config_fit`)."""
        return {TRAINING_DATA: {"labels_on": "head words" if cls.dependency_srl else "spans"}}

    def __init__(
        self,
        token_indexers: Optional[dict[str, TokenIndexer]] = None,
        label_convention: Optional[str] = None,
        dependency_files: Optional[dict[str, str]] = None,
        teacher_files: Optional[dict[str, str]] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer()}
        self._label_convention = label_convention
        self.dependency_files: dict[str, str] = {}
        for data_path, trees_path in (dependency_files or {}).items():
            self.add_dependency_file(data_path, trees_path)
        self.teacher_files = {
            os.path.abspath(data_path): os.path.abspath(teacher_path)
            for data_path, teacher_path in (teacher_files or {}).items()
        }

    @property
    def token_indexers(self) -> dict[str, TokenIndexer]:
        """The token indexers (a reader for other data that must index tokens the same way reuses them)."""
        return self._token_indexers

    def parse(self, file_path: str) -> Iterator[SrlSentence]:
        raise NotImplementedError

    def _read(self, file_path: str) -> Iterable[Instance]:
        sentences = self.sentences(str(file_path))
        teacher_path = self.teacher_files.get(os.path.abspath(file_path))
        if teacher_path is None:
            for sentence in self.shard_iterable(sentences):
                yield self.sentence_to_instance(sentence)
            return
        for sentence, teacher in self.shard_iterable(attach_teacher(sentences, teacher_path, str(file_path))):
            yield self.sentence_to_instance(sentence, teacher)

    def add_dependency_file(self, data_path: str, trees_path: str) -> None:
        """Read the dependency trees of `data_path` from `trees_path` (paths relative to the working directory)."""
        self.dependency_files[os.path.abspath(data_path)] = os.path.abspath(trees_path)

    def sentences(self, file_path: str) -> Iterator[SrlSentence]:
        """The parsed sentences of a data file, with the trees of its `dependency_files` entry if any."""
        sentences = self.parse(file_path)
        trees = self.dependency_files.get(os.path.abspath(file_path))
        return attach_dependency_trees(sentences, trees, file_path) if trees else sentences

    def sentence_to_instance(self, sentence: SrlSentence, teacher: Optional[TeacherFrames] = None) -> Instance:
        """The Instance of a parsed sentence, with gold frames (and a teacher's distributions for them)."""
        n = len(sentence.tokens)
        return self.text_to_instance(
            sentence.tokens,
            predicate_indices=[frame.index for frame in sentence.frames],
            tags=[frame.bio_tags(n) for frame in sentence.frames],
            pos_tags=sentence.pos,
            dependency_heads=sentence.heads,
            dependency_labels=sentence.dependency_labels,
            sentence=sentence,
            teacher=teacher,
        )

    def text_to_instance(  # type: ignore[override]
        self,
        tokens: list[str],
        predicate_indices: Optional[list[int]] = None,
        tags: Optional[list[list[str]]] = None,
        pos_tags: Optional[list[str]] = None,
        dependency_heads: Optional[list[int]] = None,
        dependency_labels: Optional[list[str]] = None,
        predicate_labels: Optional[list[str]] = None,
        sentence: Optional[SrlSentence] = None,
        heads_given: bool = False,
        pos: Optional[list[str]] = None,
        teacher: Optional[TeacherFrames] = None,
    ) -> Instance:
        """An Instance from tokens; predicates and tags are optional (e.g. raw text at prediction).

        `predicate_labels` (per token) default to `-` / the frames' labels when `sentence` is given.
        `metadata` is a `SentenceMetadata`: its `predicates_given` says whether `predicate_indices` were
        supplied at all; `heads_given` marks `dependency_heads` injected with a request (LISA then uses that
        parse). `pos` (POS given with a request) is kept in its `pos` only, as `pos_tags` also are (AMN's
        memory reads them there). `teacher`: a teacher model's distributions for the frames (distillation).
        """
        text_field = TextField([Token(t) for t in tokens])
        fields: dict[str, Field] = {
            "tokens": text_field,
            "frames": SrlFramesField(list(predicate_indices or []), tags, text_field, teacher=teacher),
        }
        frames = sentence.frames if sentence is not None else []
        if sentence is not None and predicate_labels is None:
            predicate_labels = [NOT_A_PREDICATE] * len(tokens)
            for frame in frames:
                predicate_labels[frame.index] = predicate_label(frame)
        if predicate_labels is not None:
            fields["predicate_labels"] = SideLabelField(
                predicate_labels, text_field, label_namespace="predicate_senses"
            )
        if pos_tags is not None:
            fields["pos_tags"] = SideLabelField(pos_tags, text_field, label_namespace="pos")
            if predicate_labels is not None:
                joint = [f"{pos}/{label}" for pos, label in zip(pos_tags, predicate_labels, strict=False)]
                fields["pos_predicate_labels"] = SideLabelField(joint, text_field, label_namespace="pos_predicate")
        if dependency_heads is not None:
            fields["dependency_heads"] = SideLabelField(
                list(dependency_heads), text_field, label_namespace="dependency_head_indices"
            )
        if dependency_labels is not None:
            fields["dependency_labels"] = SideLabelField(
                dependency_labels, text_field, label_namespace="dependency_relations"
            )
        fields["metadata"] = MetadataField(
            SentenceMetadata(
                words=list(tokens),
                predicates_given=predicate_indices is not None,
                predicate_indices=list(predicate_indices or []),
                predicate_lemmas=[frame.lemma for frame in frames],
                predicate_senses=[frame.sense for frame in frames],
                heads_given=heads_given and dependency_heads is not None,
                pos=list(pos_tags) if pos_tags is not None else (list(pos) if pos is not None else None),
                sentence=sentence,
            )
        )
        return Instance(fields)

    def apply_token_indexers(self, instance: Instance) -> None:
        instance.fields["tokens"]._token_indexers = self._token_indexers  # type: ignore[attr-defined]
