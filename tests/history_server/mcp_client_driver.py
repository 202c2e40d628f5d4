"""Drives kubeflow's MCP server for the Spark History Server (mcp-apache-spark-history-server, from
.venv-mcp: it needs Python 3.12) over stdio with the official `mcp` client, as an assistant would:
every call of a plan made once per configured server, each answer kept as the tool gave it.

Usage: python mcp_client_driver.py PLAN.json RESULTS.json
PLAN.json: {"servers": {"name": "http://host:port", ...}, "calls": [{"tool": T, "arguments": {...}}]}
RESULTS.json: {"tools": [every tool the server lists], "results": [{"tool", "arguments", "server",
"error": bool, "structured": the structured result or null, "text": the text contents joined,
"texts": each text content}]}

Run by test_real_clients.py (Python 3.11) as a child process of the .venv-mcp interpreter.
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def _config_yaml(servers):
    lines = ["servers:"]
    for i, (name, url) in enumerate(servers.items()):
        lines += [f"  {name}:", f"    url: \"{url}\"", f"    default: {'true' if i == 0 else 'false'}"]
    return "\n".join(lines) + "\n"


async def _run(plan):
    with tempfile.TemporaryDirectory(prefix="sf-mcp-client-") as work:
        config = os.path.join(work, "config.yaml")
        with open(config, "w") as f:
            f.write(_config_yaml(plan["servers"]))
        # Only what the server needs: no SHS_* variable of the caller's, no user config file.
        env = {"PATH": os.environ.get("PATH", ""), "HOME": work, "SHS_MCP_CONFIG": config,
               "SHS_MCP_TRANSPORT": "stdio"}
        params = StdioServerParameters(command=sys.executable, args=["-m", "spark_history_mcp.core.main"],
                                       env=env, cwd=work)
        with open(os.path.join(work, "server.log"), "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    tools = [t.name for t in (await session.list_tools()).tools]
                    results = []
                    for call in plan["calls"]:
                        for server in plan["servers"]:
                            arguments = dict(call["arguments"], server=server)
                            answer = await session.call_tool(call["tool"], arguments)
                            texts = [c.text for c in answer.content if getattr(c, "type", "") == "text"]
                            results.append({"tool": call["tool"], "arguments": call["arguments"], "server": server,
                                            "error": bool(answer.isError), "structured": answer.structuredContent,
                                            "text": "\n".join(texts), "texts": texts})
                    return {"tools": tools, "results": results}


def main():
    with open(sys.argv[1]) as f:
        plan = json.load(f)
    out = asyncio.run(_run(plan))
    with open(sys.argv[2], "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
