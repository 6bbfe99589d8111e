"""Programs built on the API and the queries: the MCP server, batch runs."""
