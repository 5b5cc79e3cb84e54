#!/usr/bin/env python3
"""A scripted model endpoint on loopback, standing in for the vendors in tests (issue 11).

Speaks enough of three APIs for one agent turn with tool use:

- Anthropic Messages (`POST /v1/messages`, streaming SSE or not; `count_tokens`),
- OpenAI Responses (`POST /v1/responses` or `/responses`, streaming SSE),
- Gemini (`POST /v1beta/models/M:generateContent` and `:streamGenerateContent`),
- OpenAI chat completions (`POST …/chat/completions`, not streaming; the judge's `openai:`).

The script, whatever the API: a prompt asking for the word READY gets `READY`. A prompt
that names a path (the harness's deliver prefix, "[Hand-off from the previous session:
PATH — open it ...]") gets a tool call reading that path with the agent's own read tool
(Claude `Read`, Gemini `read_file`, Codex's shell running `cat`), so the real CLI runs
its real tool inside the harness's sandbox; once the tool result comes back, the answer
is the line of it sharing the most words with the question, or a plain "I don't know"
when no line shares two. A prompt naming no path gets "I don't know" at once.

A prompt that is the harness judge's rubric (it opens "You are the second reader of an
evaluation of coding agents") gets the rubric's strict JSON at once, never a tool call: the
answer between its marker lines naming the expected value is an answer (positive PASS,
negative HALLUCINATED, conflict CONFLICT_FOLLOWED), else a refusal (FAIL, PASS,
ABSTAINED_ON_CONFLICT), read as a plain reader would.

Modes (`--mode`): `ok` (the script), `hung` (accepts and never answers), `500` (every
model call is an HTTP 500), `refused` (binds a port, closes it, writes it: connecting is
refused). Every request is logged as one JSON line (`--log`; credential headers are
reduced to their names). Loopback only, a random port written to `--port-file` and
printed as `PORT <n>` on stdout. It stops by itself after `--lifetime` seconds.

Python 3 standard library only.
"""

import argparse
import json
import re
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DELIVER = re.compile(r"\[Hand-off from the previous session: (.+?) \u2014 open it")
READY = re.compile(r"reply with the word READY", re.IGNORECASE)
CWD_PATTERNS = [
    re.compile(r"working directory: (/[^\s<]+)", re.IGNORECASE),
    re.compile(r"<cwd>(/[^<]+)</cwd>"),
    re.compile(r"working in the directory:?\s*(/[^\s]+)", re.IGNORECASE),
    re.compile(r"current working directory[^/\n]*(/[^\s'\"`]+)", re.IGNORECASE),
]
DONT_KNOW = "I could not find any record of that."
JUDGE = re.compile(r"You are the second reader of an evaluation of coding agents")
JUDGE_KIND = re.compile(r"^The question's kind is (\w+)\.$", re.MULTILINE)
JUDGE_TOKEN = re.compile(r"^The expected value: (.*)$", re.MULTILINE)
JUDGE_ANSWER = re.compile(r"^----- BEGIN ANSWER (\S+) -----\n(.*)\n----- END ANSWER \1 -----$",
                          re.MULTILINE | re.DOTALL)


def judgement(prompt):
    """The rubric's JSON for a judge prompt: the expected value in the fenced answer is an
    answer, its absence a refusal."""
    kind = (JUDGE_KIND.search(prompt) or [None, "negative"])[1]
    token = (JUDGE_TOKEN.search(prompt) or [None, ""])[1].strip()
    m = JUDGE_ANSWER.search(prompt)
    answer = m.group(2) if m else ""
    named = bool(token) and token.lower() in answer.lower()
    if named:
        cls = {"positive": "PASS", "negative": "HALLUCINATED"}.get(kind, "CONFLICT_FOLLOWED")
        reason = "the answer gives the expected value"
    else:
        cls = {"positive": "FAIL", "negative": "PASS"}.get(kind, "ABSTAINED_ON_CONFLICT")
        reason = "the answer declines to give a value"
    return json.dumps({"class": cls, "refuses": not named, "reason": reason})
STOP = {"what", "which", "when", "where", "does", "that", "this", "with", "from", "have",
        "were", "they", "them", "their", "there", "about", "would", "should", "could",
        "into", "your", "answer", "question", "only", "know", "word", "file", "open",
        "need", "previous", "session", "hand", "off"}

LOG_LOCK = threading.Lock()


def words(text):
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) >= 4 and w not in STOP}


def best_line(question, tool_text):
    """The tool output line sharing the most words with the question (at least two)."""
    q = words(question)
    best, best_n = None, 1
    for line in tool_text.splitlines():
        n = len(q & words(line))
        if n > best_n:
            best, best_n = line, n
    if best is None:
        return None
    # Claude's Read numbers lines ("  3\u2192text", "3\ttext"); the answer is the text.
    return re.sub(r"^\s*\d+(\u2192|\t)", "", best).strip()


class Conversation:
    """One request, reduced to what the script needs, whatever the API."""

    def __init__(self):
        self.user_text = []      # every user-authored text
        self.all_text = []       # system + user text (for the working directory)
        self.tool_results = []   # text of tool results, in order
        self.tools = {}          # name -> parameter schema

    @property
    def prompt(self):
        return "\n".join(self.user_text)

    def question(self):
        """The prompt the harness sent: the user text holding the deliver prefix, else the
        last user text that is not context the CLI added on its own."""
        for text in self.user_text:
            m = DELIVER.search(text)
            if m:
                return text[text.find("]", m.end()) + 1:]
        own = [t for t in self.user_text
               if not t.lstrip().startswith(("<system-reminder>", "<session_context>",
                                            "<environment_context>", "<skills_instructions>"))]
        return own[-1] if own else ""

    def cwd(self):
        for text in self.all_text:
            for pat in CWD_PATTERNS:
                m = pat.search(text)
                if m:
                    return m.group(1).rstrip(".,;:")
        return None

    def decide(self):
        """('text', answer) or ('tool', name, args)."""
        prompt = self.prompt
        if JUDGE.search(prompt):
            return ("text", judgement(prompt))
        if READY.search(prompt):
            return ("text", "READY")
        m = DELIVER.search(prompt)
        if self.tool_results:
            line = best_line(self.question(), "\n".join(self.tool_results))
            return ("text", line if line else DONT_KNOW)
        if m:
            call = self.read_call(m.group(1).strip())
            if call:
                return ("tool",) + call
        return ("text", DONT_KNOW)

    def read_call(self, rel):
        cwd = self.cwd()
        path = f"{cwd.rstrip('/')}/{rel}" if cwd and not rel.startswith("/") else rel
        for name in ("Read", "read_file"):
            if name in self.tools:
                props = (self.tools[name] or {}).get("properties", {})
                key = next((k for k in ("file_path", "absolute_path", "path") if k in props),
                           "file_path")
                return (name, {key: path})
        if "exec" in self.tools and (self.tools["exec"] or {}).get("custom"):
            script = ("const r = await tools.exec_command({cmd: %s});\n"
                      "text(r.output);\n"
                      "if (r.exit_code !== 0) text('exit code ' + r.exit_code);\n") % json.dumps(f"cat {rel}")
            return ("exec", script)
        for name in ("shell_command", "exec_command", "shell", "local_shell", "run_shell_command"):
            if name in self.tools:
                props = (self.tools[name] or {}).get("properties", {})
                cmd_schema = props.get("command", props.get("cmd", {}))
                key = "cmd" if "cmd" in props and "command" not in props else "command"
                if cmd_schema.get("type") == "array":
                    return (name, {key: ["cat", rel]})
                return (name, {key: f"cat {rel}"})
        return None


# ---------------------------------------------------------------------------------------
# Anthropic Messages


def text_of(content):
    if isinstance(content, str):
        return content
    out = []
    for b in content or []:
        if isinstance(b, dict):
            if b.get("type") == "text":
                out.append(b.get("text", ""))
            elif b.get("type") == "tool_result":
                out.append(text_of(b.get("content")))
    return "\n".join(out)


def anthropic_conversation(body):
    c = Conversation()
    system = body.get("system")
    if system:
        c.all_text.append(text_of(system))
    for t in body.get("tools") or []:
        c.tools[t.get("name")] = t.get("input_schema") or {}
    for msg in body.get("messages") or []:
        content = msg.get("content")
        if msg.get("role") == "system":
            c.all_text.append(text_of(content))
        if msg.get("role") != "user":
            continue
        if isinstance(content, str):
            c.user_text.append(content)
            c.all_text.append(content)
            continue
        for b in content or []:
            if b.get("type") == "text":
                c.user_text.append(b.get("text", ""))
                c.all_text.append(b.get("text", ""))
            elif b.get("type") == "tool_result":
                c.tool_results.append(text_of(b.get("content")))
    return c


def anthropic_message(body, decision):
    msg_id = f"msg_scripted_{int(time.time() * 1000)}"
    usage = {"input_tokens": 120, "output_tokens": 12,
             "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    if decision[0] == "text":
        content = [{"type": "text", "text": decision[1]}]
        stop = "end_turn"
    else:
        content = [{"type": "tool_use", "id": f"toolu_{msg_id[-10:]}", "name": decision[1],
                    "input": decision[2]}]
        stop = "tool_use"
    return {"id": msg_id, "type": "message", "role": "assistant",
            "model": body.get("model", "scripted"), "content": content,
            "stop_reason": stop, "stop_sequence": None, "usage": usage}


def anthropic_sse(msg):
    def ev(name, data):
        return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
    start = dict(msg, content=[], stop_reason=None,
                 usage=dict(msg["usage"], output_tokens=1))
    out = [ev("message_start", {"type": "message_start", "message": start})]
    for i, block in enumerate(msg["content"]):
        if block["type"] == "text":
            out.append(ev("content_block_start", {"type": "content_block_start", "index": i,
                                                  "content_block": {"type": "text", "text": ""}}))
            out.append(ev("content_block_delta", {"type": "content_block_delta", "index": i,
                                                  "delta": {"type": "text_delta",
                                                            "text": block["text"]}}))
        else:
            out.append(ev("content_block_start", {"type": "content_block_start", "index": i,
                                                  "content_block": dict(block, input={})}))
            out.append(ev("content_block_delta", {"type": "content_block_delta", "index": i,
                                                  "delta": {"type": "input_json_delta",
                                                            "partial_json": json.dumps(block["input"])}}))
        out.append(ev("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(ev("message_delta", {"type": "message_delta",
                                    "delta": {"stop_reason": msg["stop_reason"], "stop_sequence": None},
                                    "usage": {"output_tokens": msg["usage"]["output_tokens"]}}))
    out.append(ev("message_stop", {"type": "message_stop"}))
    return b"".join(out)


# ---------------------------------------------------------------------------------------
# OpenAI Responses


def responses_conversation(body):
    c = Conversation()
    if body.get("instructions"):
        c.all_text.append(body["instructions"])
    register_responses_tools(c, body.get("tools") or [])
    items = body.get("input")
    if isinstance(items, str):
        items = [{"type": "message", "role": "user", "content": items}]
    for it in items or []:
        ty = it.get("type", "message")
        if ty == "additional_tools":
            register_responses_tools(c, it.get("tools") or [])
        elif ty == "message":
            content = it.get("content")
            parts = [content] if isinstance(content, str) else [
                p.get("text", "") for p in content or [] if isinstance(p, dict)]
            text = "\n".join(parts)
            c.all_text.append(text)
            if it.get("role") == "user":
                c.user_text.append(text)
        elif ty in ("function_call_output", "custom_tool_call_output", "local_shell_call_output"):
            out = it.get("output")
            if isinstance(out, dict):
                out = out.get("content") or json.dumps(out)
            elif isinstance(out, list):
                out = "\n".join(p.get("text", "") for p in out if isinstance(p, dict))
            try:
                parsed = json.loads(out)
                if isinstance(parsed, dict) and "output" in parsed:
                    out = parsed["output"]
            except (TypeError, ValueError):
                pass
            c.tool_results.append(str(out))
    return c


def register_responses_tools(c, tools):
    """Codex declares tools at the top level or, since 0.16x, in `additional_tools` input
    items grouped in namespaces; its shell is then reached through the `exec` code tool."""
    for t in tools:
        if t.get("type") == "namespace":
            register_responses_tools(c, t.get("tools") or [])
            continue
        name = t.get("name") or t.get("type")
        c.tools[name] = t.get("parameters") or {"custom": True}


def responses_sse(body, decision):
    resp_id = f"resp_scripted_{int(time.time() * 1000)}"
    seq = [0]

    def ev(name, data):
        seq[0] += 1
        data = dict(data, type=name, sequence_number=seq[0])
        return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
    base = {"id": resp_id, "object": "response", "created_at": int(time.time()),
            "model": body.get("model", "scripted"), "status": "in_progress", "output": []}
    out = [ev("response.created", {"response": base})]
    if decision[0] == "text":
        item = {"type": "message", "id": f"msg_{resp_id[-8:]}", "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": decision[1], "annotations": []}]}
        out.append(ev("response.output_item.added", {"output_index": 0,
                                                     "item": dict(item, content=[], status="in_progress")}))
        out.append(ev("response.output_text.delta", {"item_id": item["id"], "output_index": 0,
                                                     "content_index": 0, "delta": decision[1]}))
    elif decision[1] == "exec":
        item = {"type": "custom_tool_call", "id": f"ctc_{resp_id[-8:]}", "call_id": f"call_{resp_id[-8:]}",
                "namespace": "functions", "name": "exec", "input": decision[2], "status": "completed"}
        out.append(ev("response.output_item.added", {"output_index": 0, "item": item}))
    else:
        item = {"type": "function_call", "id": f"fc_{resp_id[-8:]}", "call_id": f"call_{resp_id[-8:]}",
                "name": decision[1], "arguments": json.dumps(decision[2]), "status": "completed"}
        out.append(ev("response.output_item.added", {"output_index": 0, "item": item}))
    out.append(ev("response.output_item.done", {"output_index": 0, "item": item}))
    done = dict(base, status="completed", output=[item],
                usage={"input_tokens": 150, "input_tokens_details": {"cached_tokens": 0},
                       "output_tokens": 14, "output_tokens_details": {"reasoning_tokens": 0},
                       "total_tokens": 164})
    out.append(ev("response.completed", {"response": done}))
    return b"".join(out)


# ---------------------------------------------------------------------------------------
# Gemini


def gemini_conversation(body):
    c = Conversation()
    si = body.get("systemInstruction") or body.get("system_instruction")
    if si:
        c.all_text.append("\n".join(p.get("text", "") for p in si.get("parts", []) if isinstance(p, dict)))
    for t in body.get("tools") or []:
        for fd in t.get("functionDeclarations") or t.get("function_declarations") or []:
            c.tools[fd.get("name")] = fd.get("parametersJsonSchema") or fd.get("parameters") or {}
    for content in body.get("contents") or []:
        for p in content.get("parts") or []:
            if "text" in p and content.get("role", "user") == "user":
                c.user_text.append(p["text"])
                c.all_text.append(p["text"])
            elif "functionResponse" in p:
                resp = p["functionResponse"].get("response")
                c.tool_results.append(resp.get("output", json.dumps(resp))
                                      if isinstance(resp, dict) else str(resp))
    return c


def json_for_schema(schema):
    """A value matching a JSON schema (for the CLI's own side calls: routing, next speaker)."""
    if not isinstance(schema, dict):
        return None
    if "enum" in schema:
        vals = schema["enum"]
        return "user" if "user" in vals else vals[0]
    ty = schema.get("type", "object")
    ty = ty.lower() if isinstance(ty, str) else "object"
    if ty == "object":
        return {k: json_for_schema(v) for k, v in (schema.get("properties") or {}).items()}
    if ty == "array":
        return []
    if ty in ("number", "integer"):
        return schema.get("minimum", 0)
    if ty == "boolean":
        return False
    return "scripted"


def gemini_response(body, decision):
    gc = body.get("generationConfig") or {}
    schema = gc.get("responseJsonSchema") or gc.get("responseSchema")
    if gc.get("responseMimeType") == "application/json":
        parts = [{"text": json.dumps(json_for_schema(schema) if schema else {})}]
    elif decision[0] == "text":
        parts = [{"text": decision[1]}]
    else:
        parts = [{"functionCall": {"name": decision[1], "args": decision[2]}}]
    return {"candidates": [{"content": {"role": "model", "parts": parts},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 130, "candidatesTokenCount": 11,
                              "totalTokenCount": 141},
            "modelVersion": "scripted"}


# ---------------------------------------------------------------------------------------
# Server


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "scripted-model-endpoint"

    def log_message(self, fmt, *args):  # the JSON log is the log
        pass

    def log_request_json(self, body, note):
        headers = {}
        for k, v in self.headers.items():
            secret = k.lower() in ("authorization", "x-api-key", "x-goog-api-key", "cookie")
            headers[k] = "<set>" if secret else v
        entry = {"t": time.time(), "method": self.command, "path": self.path,
                 "headers": headers, "body": body, "note": note}
        with LOG_LOCK:
            with open(self.server.log_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")

    def send(self, status, ctype, payload):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        self.log_request_json(None, "get")
        if "/models" in self.path:
            self.send(200, "application/json", json.dumps({"data": [], "models": []}).encode())
        else:
            self.send(404, "application/json", b'{"error":{"message":"not scripted"}}')

    do_HEAD = do_GET

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"unparsed": raw[:2000].decode("utf-8", "replace")}
        mode = self.server.mode
        self.log_request_json(body, mode)
        if mode == "hung":
            time.sleep(self.server.lifetime)
            return
        if mode == "500":
            self.send(500, "application/json",
                      b'{"error":{"type":"api_error","message":"scripted internal error"}}')
            return
        path = self.path.split("?")[0]
        if path.endswith("/count_tokens"):
            self.send(200, "application/json", b'{"input_tokens":100}')
        elif path.endswith("/v1/messages"):
            msg = anthropic_message(body, anthropic_conversation(body).decide())
            if body.get("stream"):
                self.send(200, "text/event-stream", anthropic_sse(msg))
            else:
                self.send(200, "application/json", json.dumps(msg).encode())
        elif path.endswith("/chat/completions"):
            # An OpenAI-compatible chat endpoint (the harness's `--judge openai:URL`): a judge
            # prompt gets the rubric's JSON; anything else "I don't know".
            msgs = body.get("messages") or [{}]
            prompt = msgs[-1].get("content") or ""
            text = judgement(prompt) if JUDGE.search(prompt) else DONT_KNOW
            reply = {
                "id": "chatcmpl-scripted",
                "object": "chat.completion",
                "model": body.get("model", "scripted"),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": text}}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
            }
            self.send(200, "application/json", json.dumps(reply).encode())
        elif path.endswith("/responses"):
            payload = responses_sse(body, responses_conversation(body).decide())
            self.send(200, "text/event-stream", payload)
        elif ":countTokens" in path:
            self.send(200, "application/json", b'{"totalTokens":100}')
        elif ":streamGenerateContent" in path:
            resp = gemini_response(body, gemini_conversation(body).decide())
            self.send(200, "text/event-stream", f"data: {json.dumps(resp)}\r\n\r\n".encode())
        elif ":generateContent" in path:
            resp = gemini_response(body, gemini_conversation(body).decide())
            self.send(200, "application/json", json.dumps(resp).encode())
        else:
            self.send(404, "application/json", b'{"error":{"message":"not scripted"}}')


class Server(ThreadingHTTPServer):
    """A client that hangs up mid-answer (a CLI killed at its timeout, a preflight that got its
    READY and left) is a line in the request log, not a traceback between test names."""

    def handle_error(self, request, client_address):
        err = sys.exc_info()[1]
        entry = {"t": round(time.time(), 3), "client_gone": type(err).__name__, "detail": str(err)[:200]}
        with LOG_LOCK:
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", choices=["ok", "hung", "500", "refused"], default="ok")
    ap.add_argument("--log", required=True, help="JSON-lines request log")
    ap.add_argument("--port-file", help="write the port here (atomically)")
    ap.add_argument("--lifetime", type=float, default=900.0, help="stop after this many seconds")
    args = ap.parse_args()

    if args.mode == "refused":
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        announce(port, args.port_file)
        return
    server = Server(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.mode = args.mode
    server.log_path = args.log
    server.lifetime = args.lifetime
    open(args.log, "a").close()
    threading.Timer(args.lifetime, server.shutdown).start()
    announce(server.server_address[1], args.port_file)
    server.serve_forever()


def announce(port, port_file):
    if port_file:
        tmp = port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(f"{port}\n")
        import os
        os.replace(tmp, port_file)
    print(f"PORT {port}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
