"""A folder of files the service ships, served from memory by name.

A file server that maps a request's path onto the file system answers with a 500 whatever
the file system refuses (a name longer than it takes, a NUL byte); these folders are small
and fixed with each release, so every file is read once at startup and a request is a
lookup by name: a name not in the folder is a 404, whatever it holds.
"""

from __future__ import annotations

import hashlib
import mimetypes
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from litestar import Request, Response, get
from litestar.handlers import HTTPRouteHandler
from litestar.params import PathParameter

from service.infra.errors import ApiError

# mimetypes reads the machine's tables, which differ between machines: name what is served.
_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}


@dataclass(frozen=True)
class File:
    content: bytes
    media_type: str
    etag: str


def _media_type(path: Path) -> str:
    return _TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "text/plain"


def read(folder: Path) -> dict[str, File]:
    files = {}
    for path in sorted(folder.iterdir()):
        if path.is_file():
            content = path.read_bytes()
            etag = '"' + hashlib.sha256(content).hexdigest()[:32] + '"'
            files[path.name] = File(content, _media_type(path), etag)
    return files


def route(
    path: str, folder: Path, cache_control: str, headers: Mapping[str, str], name: str
) -> HTTPRouteHandler:
    """`GET {path}/{name}` for every file of `folder` (its subfolders are not served)."""
    files = read(folder)

    @get(
        f"{path}/{{file_name:str}}",
        include_in_schema=False,
        name=name,
        sync_to_thread=False,
    )
    def served(file_name: Annotated[str, PathParameter()], request: Request) -> Response[bytes]:
        file = files.get(file_name)
        if file is None:
            raise ApiError(404, "not_found", f"There is no file {path}/{file_name[:64]}.")
        fields = {**headers, "Cache-Control": cache_control, "ETag": file.etag}
        if request.headers.get("if-none-match") == file.etag:
            return Response(b"", status_code=304, headers=fields)
        return Response(file.content, media_type=file.media_type, headers=fields)

    return served
