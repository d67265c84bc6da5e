// An MCP server of the official TypeScript SDK 2.x over Streamable HTTP (tst_mcplistenfeatures):
// a resource, a prompt, and a tool "touch" that publishes a change of each kind on every
// subscriptions/listen that asked for it. Prints its port on the first line of stdout.
import { McpServer, createMcpHandler, fromJsonSchema } from "@modelcontextprotocol/server";
import http from "node:http";

let handler;
function makeServer() {
  const server = new McpServer({ name: "sdk2-features", version: "2.4.0" },
    { capabilities: { tools: {}, prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true } } });
  server.registerResource("note", "file:///note", { mimeType: "text/plain" },
    async (uri) => ({ contents: [{ uri: uri.href, text: "a note" }] }));
  server.registerPrompt("greet", { description: "Says hello" },
    async () => ({ messages: [{ role: "user", content: { type: "text", text: "hello" } }] }));
  server.registerTool("touch", { description: "Publishes changes", inputSchema: fromJsonSchema({ type: "object" }) },
    async () => {
      handler.notify.promptsChanged();
      handler.notify.resourcesChanged();
      handler.notify.resourceUpdated("file:///note");
      handler.notify.resourceUpdated("file:///other");
      return { content: [{ type: "text", text: "touched" }] };
    });
  return server;
}

handler = createMcpHandler(makeServer, { keepAliveMs: 100 });
const server = http.createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  const bodyless = req.method === "GET" || req.method === "HEAD";
  const response = await handler.fetch(new Request("http://127.0.0.1" + req.url, {
    method: req.method, headers: req.headers, signal: abort.signal,
    body: bodyless ? undefined : Buffer.concat(chunks) }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
});
server.listen(0, "127.0.0.1", () => console.log(String(server.address().port)));
