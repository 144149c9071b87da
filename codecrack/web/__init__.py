"""The web app: a FastAPI server that hosts tables, plays AI seats, runs clocks and stores records.

``create_app(WebConfig(...))`` builds the ASGI app; ``serve(host, port, db)`` runs it with uvicorn.
The browser front end is plain ES modules in ``static/``, bundled with the package.
"""
