"""`srl-zoo serve`: an HTTP labeling service (Starlette under uvicorn) with request batching and a page
that draws the frames."""
