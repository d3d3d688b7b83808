"""`srl-zoo serve`: an HTTP labelling service (Starlette under uvicorn) with request batching and a page
that draws the frames."""
