"""The REST API's blueprints, one per resource, with marshmallow schemas for every body.

The app factory (``server.web.app``) registers them beside the pages; every error is
``application/problem+json`` and the OpenAPI document is generated from the schemas.
"""
