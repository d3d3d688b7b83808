"""What a model archive may hold and ask for: the files a model needs and data, never code, no config that asks
a library to run code or to read files outside the archive, and no setting of the wrong type or range
(`srl_zoo.archive_settings`). Checked on the members of an open archive before anything is extracted
(`archive_files.extract_archive`), so every loading path (the runtime, allennlp's, export) refuses the same way."""

import json
import posixpath
import re
import tarfile
from collections.abc import Iterator
from typing import Any, Optional

from srl_zoo.archive_settings import model_settings_problem, transformer_settings_problem

#: the members a model archive is made of: its config, weights and metadata, its vocabulary's namespaces (and the
#: empty lock file allennlp saves beside them), its transformer's config and tokenizer files (a sentencepiece
#: `.model` among them), and its inference graphs (`graph-*.onnx`: data, checked before a session runs them)
MODEL_FILES = re.compile(
    r"(config\.json|weights\.th|meta\.json|vocabulary/([^/]+\.txt|\.lock)|transformer/[^/]+\.(json|txt|model)"
    r"|graph-[a-z0-9-]+\.onnx)"
)
#: what any other member may be: data that no loader runs
DATA_SUFFIXES = (".json", ".txt", ".md", ".csv", ".tsv")
#: the members read as JSON: every `.json` file at any depth (a nested `transformer/sub/config.json` could be
#: pointed at): each must parse, and none may ask for code
READ_JSON = re.compile(r".+\.json", re.IGNORECASE)
#: a JSON member larger than this is no config or tokenizer file (the largest tokenizer.json met is ~17 MB)
MAX_JSON_BYTES = 64 * 1024 * 1024
#: keys that make Hugging Face transformers import Python code: `trust_remote_code` (a loading option an archive's
#: config could pass) and `auto_map` (a transformer config's or tokenizer config's classes from the folder's `.py`)
CODE_KEYS = ("trust_remote_code", "auto_map")


def member_kind_problem(member: tarfile.TarInfo) -> Optional[str]:
    """Why `member` (a file or folder) has no place in a model archive, else None: a file must be one a model needs
    (`MODEL_FILES`) or data (`DATA_SUFFIXES`); code, libraries, pickles and other files are refused."""
    if member.isdir():
        return None
    name = posixpath.normpath(member.name.replace("\\", "/"))
    if MODEL_FILES.fullmatch(name) or name.lower().endswith(DATA_SUFFIXES):
        return None
    return (
        f"member {member.name!r} is neither a file a model needs (config.json, weights.th, vocabulary/*.txt, the "
        "transformer's config and tokenizer files, graph-*.onnx) nor data (.json, .txt): an archive carries no code"
    )


def _items(node: Any, where: str = "") -> Iterator[tuple[str, str, Any]]:
    """Every `(dotted path, key, value)` of the dicts inside the JSON value `node`, depth first."""
    if isinstance(node, dict):
        for key, value in node.items():
            path = f"{where}.{key}" if where else str(key)
            yield path, key, value
            yield from _items(value, path)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _items(value, f"{where}[{index}]")


#: options of transformers' `from_pretrained` calls that choose which files are read, from where or how (a cache
#: folder, another config or weights file, another format or revision, pickled weights): an archive's config may
#: set none of them in its `*_kwargs`; `subfolder` only as a relative path that stays inside the folder it applies to
FILE_OPTIONS = frozenset(
    {
        "cache_dir", "gguf_file", "offload_folder", "config", "vocab_file", "merges_file", "tokenizer_file",
        "state_dict", "from_tf", "from_flax", "use_safetensors", "weights_only", "revision", "code_revision",
        "_commit_hash", "mirror", "proxies", "token", "use_auth_token", "force_download", "resume_download",
        "adapter_kwargs", "adapter_name", "pretrained_model_name_or_path", "name_or_path", "_name_or_path",
    }
)  # fmt: skip


def is_inside_path(value: Any) -> bool:
    """Whether `value` is a relative path that stays inside the folder it is joined to: a string, not absolute (no
    leading slash or drive), no `..` part, no NUL byte."""
    if not isinstance(value, str) or "\x00" in value:
        return False
    parts = value.replace("\\", "/").split("/")
    return not (value.startswith(("/", "\\", "~")) or (len(value) > 1 and value[1] == ":") or ".." in parts)


def reaching_outside(config: Any) -> Optional[str]:
    """The first loading option of a parsed srl_zoo config that would make transformers read files outside the
    folder it loads from (a `FILE_OPTIONS` key, or a `subfolder` that leaves it, in any `*_kwargs` object), as
    `dotted.path 'value'`, else None."""
    for path, key, value in _items(config):
        if not (str(key).endswith("_kwargs") and isinstance(value, dict)):
            continue
        for option, given in value.items():
            if option in FILE_OPTIONS or (option == "subfolder" and not is_inside_path(given)):
                return f"{path}.{option} {given!r}"
    return None


def _asks_for_code(key: str, value: Any) -> bool:
    """`trust_remote_code` set to anything but false or null, or any `auto_map` (`CODE_KEYS`)."""
    return key == "auto_map" or (key == "trust_remote_code" and value not in (False, None))


def _names_a_module(key: str, value: Any) -> bool:
    """A part's `type` naming a module's attribute (`"os.system"`), which allennlp imports and calls instead of a
    registered part."""
    return key == "type" and isinstance(value, str) and "." in value


def code_request(config: Any, is_model_config: bool = False) -> Optional[str]:
    """The first key of a parsed JSON file (an srl_zoo config, a transformer's or tokenizer's config) that asks a
    library to run code, as a dotted path, else None; in a model's config (`is_model_config`) a part's `type` that
    names a module (allennlp imports it and calls what it names) too."""
    for path, key, value in _items(config):
        if _asks_for_code(key, value):
            return path
        if is_model_config and _names_a_module(key, value):
            return f"{path} {value!r}"
    return None


def json_member_problem(archive: tarfile.TarFile, member: tarfile.TarInfo) -> Optional[str]:
    """Why the JSON file `member` of the open `archive` cannot be loaded safely (not JSON, too large for one, or a
    key that asks for remote code), else None; members no library reads are not opened."""
    name = posixpath.normpath(member.name.replace("\\", "/"))
    if not member.isfile() or not READ_JSON.fullmatch(name):
        return None
    if member.size > MAX_JSON_BYTES:
        return f"{name}: {member.size:,} bytes, too large for a config or tokenizer file"
    handle = archive.extractfile(member)
    if handle is None:
        return None
    try:
        parsed = json.loads(handle.read().decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        return f"{name}: not JSON ({str(error).splitlines()[0]})"
    requested = code_request(parsed, is_model_config=name == "config.json")
    if requested is not None:
        return (
            f"{name}: {requested} asks to import or run code (remote code, or a module named as a part); srl_zoo "
            "runs no code an archive names: refused"
        )
    if name == "config.json":  # the model's
        outside = reaching_outside(parsed)
        if outside is not None:
            return f"{name}: {outside} would read files outside the archive; an archive reads only its own files"
        setting = model_settings_problem(parsed)
    elif posixpath.basename(name) == "config.json":  # a transformer's
        setting = transformer_settings_problem(parsed)
    else:
        setting = None
    return None if setting is None else f"{name}: {setting}"


#: what srl_zoo passes on every call into transformers for an archive, whatever the archive's config asks: no code
#: from the archive's folder or a hub, and no download (`local_files_only`)
NO_CODE_NO_DOWNLOAD = {"trust_remote_code": False, "local_files_only": True}


def no_code_kwargs(kwargs: Optional[dict[str, Any]]) -> dict[str, Any]:
    """`kwargs` for a transformers `from_pretrained` call (an archive's `transformer_kwargs` or `tokenizer_kwargs`)
    with remote code off and local files only (`NO_CODE_NO_DOWNLOAD`) over whatever they said."""
    return {**(kwargs or {}), **NO_CODE_NO_DOWNLOAD}
