#!/usr/bin/env python3
"""The benchmark's MCP stdio server (standard library only).

  fixture_server.py [--tools N] [--delay-ms MS]

Offers N generated tools (tool_0000 ...), each with a description and an input schema of
the size real servers' tools have, so context figures mean something. --delay-ms waits that
long before answering `initialize`, standing in for a server's own start-up work, so the
benchmark can tell servers started one after another from servers started together. Every
tool answers with one line naming itself and echoing its arguments.
"""
import json
import sys
import time

args = sys.argv[1:]


def flag(name, default):
    return int(args[args.index(name) + 1]) if name in args else default


TOOLS = flag("--tools", 10)
DELAY_MS = flag("--delay-ms", 0)

SUBJECTS = ["issue", "invoice", "customer", "build", "ticket", "document", "release", "alert"]


def tool(i):
    subject = SUBJECTS[i % len(SUBJECTS)]
    return {
        "name": f"tool_{i:04d}",
        "description": (
            f"Search the {subject} records of workspace {i} for entries matching a query. "
            f"Returns up to `limit` matches with their id, title, owner and status, newest "
            f"first. Use it before creating a new {subject} so duplicates are not made; the "
            "query supports quoted phrases and field:value filters."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": f"Words or field:value filters to match {subject} records by.",
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 100,
                    "description": "How many matches to return at most (default 20).",
                },
                "status": {
                    "type": "string",
                    "enum": ["open", "closed", "any"],
                    "description": "Only records in this state (default any).",
                },
            },
            "required": ["query"],
        },
    }


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(request):
    method = request.get("method")
    params = request.get("params") or {}
    if method == "initialize":
        time.sleep(DELAY_MS / 1000)
        return {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "hel-bench-fixture", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {"tools": [tool(i) for i in range(TOOLS)]}
    if method == "tools/call":
        text = f"{params.get('name')}: {json.dumps(params.get('arguments') or {})}"
        return {"content": [{"type": "text", "text": text}], "isError": False}
    if method == "ping":
        return {}
    return None


for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    request = json.loads(line)
    if "id" not in request:
        continue  # notifications need no answer
    result = answer(request)
    if result is None:
        send({"jsonrpc": "2.0", "id": request["id"],
              "error": {"code": -32601, "message": f"no method {request.get('method')}"}})
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "result": result})
