"""Load a trained archive with `srl_zoo.load` and label the first two dev sentences of its format at their gold
predicates; print one JSON line (part of scripts/device/prove_gpu.py's call).

    python scripts/device/check_archive.py RUN/model.tar.gz [--cuda-device 0]
"""

import argparse
import json

import srl_zoo.plugin
from srl_zoo.data.formats import READERS
from srl_zoo.data.gold_requests import as_request

DEV_FILES = {
    "conll2005": "data/ewt/conll2005/dev.txt.gz",
    "conll2012": "data/ewt/conll2012/dev.gold_conll.gz",
    "conll2009": "data/ewt/conll2009/dev.txt.gz",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive")
    parser.add_argument("--cuda-device", type=int, default=-1)
    args = parser.parse_args()
    labeler = srl_zoo.load(args.archive, cuda_device=args.cuda_device)
    reader_type = labeler.predictor.dataset_reader.__class__.__name__.lower()
    format_name = next((name for name in DEV_FILES if name.replace("conll", "") in reader_type), "conll2005")
    sentences = [s for s in READERS[format_name](DEV_FILES[format_name]) if s.frames][:2]
    outputs = labeler.predictor.predict_batch_json([as_request(sentence) for sentence in sentences])
    device = str(next(labeler.predictor.model.parameters()).device)
    print(
        json.dumps(
            {
                "model": type(labeler.predictor.model).__name__,
                "device": device,
                "format": format_name,
                "frames": sum(len(output["frames"]) for output in outputs),
            }
        )
    )


if __name__ == "__main__":
    main()
