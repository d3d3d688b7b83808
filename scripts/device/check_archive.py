"""Load a trained archive with `srl_zoo.load` (the allennlp-free runtime where it builds the archive, else the
allennlp labeler) and label the first two dev sentences of its format at their gold predicates, with the file's POS
tags (AMN's memory needs them); print one JSON line (part of scripts/device/prove_gpu.py's call).

    python scripts/device/check_archive.py RUN/model.tar.gz [--cuda-device 0]
"""

import argparse
import json
import tarfile

import srl_zoo
from srl_zoo.data.formats import READERS
from srl_zoo.data.gold_requests import as_request

DEV_FILES = {
    "conll2005": "data/ewt/conll2005/dev.txt.gz",
    "conll2012": "data/ewt/conll2012/dev.gold_conll.gz",
    "conll2009": "data/ewt/conll2009/dev.txt.gz",
}


def data_format(archive: str) -> str:
    """The CoNLL format the archive's training reader read (its config's `dataset_reader.type`)."""
    with tarfile.open(archive) as tar:
        member = tar.extractfile("config.json")
        reader_type = json.load(member)["dataset_reader"]["type"] if member else ""
    return next((name for name in DEV_FILES if name in reader_type), "conll2005")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive")
    parser.add_argument("--cuda-device", type=int, default=-1)
    args = parser.parse_args()
    labeler = srl_zoo.load(args.archive, cuda_device=args.cuda_device)
    format_name = data_format(args.archive)
    sentences = [s for s in READERS[format_name](DEV_FILES[format_name]) if s.frames][:2]
    outputs = labeler.label_tokenized([as_request(sentence) for sentence in sentences])  # with POS tags, for AMN
    print(
        json.dumps(
            {
                "labeler": type(labeler).__name__,
                "model": type(labeler.model).__name__,
                "on_gpu": labeler.on_gpu,
                "format": format_name,
                "frames": sum(len(output["frames"]) for output in outputs),
            }
        )
    )


if __name__ == "__main__":
    main()
